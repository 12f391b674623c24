package failure

import "testing"

func TestClassifyMessage(t *testing.T) {
	t.Parallel()
	tests := []struct {
		msg  string
		want Code
	}{
		// TIMEOUT
		{`Post "https://api.example.com/v1": context deadline exceeded`, Timeout},
		{`Get "https://x.example": net/http: request canceled (Client.Timeout exceeded while awaiting headers)`, Timeout},
		{"dial tcp 10.0.0.7:443: i/o timeout", Timeout},
		{"the request timed out after 10000 ms", Timeout},
		{"openai.APITimeoutError: Request timed out.", Timeout},
		{"urllib3.exceptions.ReadTimeoutError: HTTPSConnectionPool read timeout", Timeout},
		{"rpc error: code = DeadlineExceeded desc = DEADLINE_EXCEEDED", Timeout},
		{"connect ETIMEDOUT 52.1.2.3:443", Timeout},
		{"tool call exceeded its timeout", Timeout},
		// UNREACHABLE
		{"dial tcp 127.0.0.1:9: connect: connection refused", Unreachable},
		{"read tcp 10.0.0.2:51234->10.0.0.9:443: read: connection reset by peer", Unreachable},
		{"dial tcp: lookup api.invalid on 127.0.0.53:53: no such host", Unreachable},
		{"connect: network is unreachable", Unreachable},
		{"dial tcp 192.0.2.1:80: connect: no route to host", Unreachable},
		{"getaddrinfo ENOTFOUND mcp.example.com", Unreachable},
		{"connect ECONNREFUSED 127.0.0.1:8080", Unreachable},
		{"curl: (6) Could not resolve host: api.example.com", Unreachable},
		{`Post "https://hooks.example.com/x": EOF`, Unreachable},
		{"ConnectionRefusedError: [Errno 111] Connection refused", Unreachable},
		{"write: broken pipe", Unreachable},
		// RATE_LIMITED
		{"HTTP 429 Too Many Requests", RateLimited},
		{"status 429", RateLimited},
		{"Rate limit reached for gpt-4o in organization org-abc on tokens per min", RateLimited},
		{`{"error":{"type":"rate_limit_exceeded","message":"slow down"}}`, RateLimited},
		{"openai.RateLimitError: Error code: 429", RateLimited},
		{"RESOURCE_EXHAUSTED: Quota exceeded for quota metric", RateLimited},
		{"You exceeded your current quota, please check your plan", RateLimited},
		{"HTTP 503 then HTTP 429 on retry", RateLimited},
		// REJECTED
		{"HTTP 404", Rejected},
		{"unexpected status 400: missing field name", Rejected},
		{"server answered 404 Not Found", Rejected},
		{"HTTP/1.1 401 Unauthorized", Rejected},
		{"action returned 403", Rejected},
		{`{"statusCode": 422, "error": "Unprocessable Entity"}`, Rejected},
		{"expected 200 but got 404.", Rejected},
		{"408 Request Timeout", Rejected},
		{"HTTP 404: {\"detail\":\"invalid character in id\"}", Rejected},
		// UPSTREAM_ERROR
		{"webhook returned 503", UpstreamError},
		{"HTTP 500 Internal Server Error", UpstreamError},
		{"504 Gateway Timeout", UpstreamError},
		{"status code: 502, body: upstream connect error", UpstreamError},
		{`{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`, UpstreamError},
		{"The model is currently overloaded with other requests", UpstreamError},
		{"Error 500: boom", UpstreamError},
		{"HTTP 500 Internal Server Error; headers: X-RateLimit-Remaining: 99", UpstreamError},
		{"upstream said: Service Unavailable", UpstreamError},
		// INVALID_DATA
		{"invalid character '<' looking for beginning of value", InvalidData},
		{"reply was not valid JSON", InvalidData},
		{"unexpected end of JSON input", InvalidData},
		{"json: cannot unmarshal string into Go value of type int", InvalidData},
		{"MCP schema drift: tool lookup_order changed its input schema", InvalidData},
		{"structured reply does not match outputSchema: /total: expected number", InvalidData},
		{"invalid expression: unexpected token Operator(\")\") (1:5)", InvalidData},
		{"HTTP 200: invalid character 'T' looking for beginning of value", InvalidData},
		{"json: cannot unmarshal string into Go struct field Config.timeout of type int", InvalidData},
		// UNKNOWN, including the false-positive traps.
		{"", Unknown},
		{"something odd happened", Unknown},
		{"order 4291 could not be found", Unknown},
		{"pod POD-404 crashed", Unknown},
		{"item POD-404 Not Found", Unknown},
		{"user 404 not found", Unknown},
		{"processed 503 items before stopping", Unknown},
		{"query returned 500 rows", Unknown},
		{"retry in 500ms", Unknown},
		{"https://api.example.com:4430/v1/items/404 failed", Unknown},
		{"invalid value for timeoutMs", Unknown},
		{"config timeout_ms must be positive", Unknown},
		{"status 200 OK but the body was empty", Unknown},
		{"HTTP 4041 weird", Unknown},
		{"context canceled", Unknown},
		{"read body: unexpected EOF", Unknown},
		{"tokens used: 429", Unknown},
		{"404 Conflict", Unknown},
		{"the keepalive setting is off", Unknown},
	}
	for _, tt := range tests {
		if got := ClassifyMessage(tt.msg); got != tt.want {
			t.Errorf("ClassifyMessage(%q) = %s, want %s", tt.msg, got, tt.want)
		}
	}
}

// Each code's rules must stand on their own: a message carrying a phrase
// for two codes resolves in the documented order.
func TestClassifyMessagePrecedence(t *testing.T) {
	t.Parallel()
	tests := []struct {
		msg  string
		want Code
	}{
		{"HTTP 503: rate limit exceeded", RateLimited},
		{"HTTP 502: dial tcp: connection refused", UpstreamError},
		{"HTTP 500: context deadline exceeded", UpstreamError},
		{"invalid character 'x' after timeout", InvalidData},
		{"dial tcp 10.0.0.1:443: i/o timeout", Timeout},
		{"status 400; later status 500", Rejected},
		{"overloaded; connection reset", UpstreamError},
	}
	for _, tt := range tests {
		if got := ClassifyMessage(tt.msg); got != tt.want {
			t.Errorf("ClassifyMessage(%q) = %s, want %s", tt.msg, got, tt.want)
		}
	}
}
