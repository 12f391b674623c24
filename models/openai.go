package models

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"
	"time"

	openai "github.com/sashabaranov/go-openai"

	"github.com/wetel/wetel/failure"
)

// call makes one request to provider i. published reports whether any
// streamed text reached OnChunk, after which no other provider may answer.
func (c *Client) call(ctx context.Context, i int, r Request) (out Response, published bool, err error) {
	p := c.cfg.Providers[i]
	timeout := time.Duration(p.TimeoutMs) * time.Millisecond
	if timeout <= 0 {
		timeout = DefaultTimeoutMs * time.Millisecond
	}
	cctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	req := chatRequest(r)
	if r.OnChunk == nil {
		res, err := c.clients[i].CreateChatCompletion(cctx, req)
		if err != nil {
			return out, false, classify(ctx, cctx, err)
		}
		if len(res.Choices) == 0 {
			return out, false, &failure.Error{Code: failure.InvalidData, Message: "the reply had no choices", Sent: true}
		}
		out.Text = res.Choices[0].Message.Content
		if len(out.Text) > MaxReplyBytes {
			return out, false, &failure.Error{Code: failure.UpstreamError, Message: fmt.Sprintf("the reply is over %d bytes", MaxReplyBytes), Sent: true}
		}
		out.TokensIn, out.TokensOut = res.Usage.PromptTokens, res.Usage.CompletionTokens
		return out, false, nil
	}
	req.Stream = true
	req.StreamOptions = &openai.StreamOptions{IncludeUsage: true}
	stream, err := c.clients[i].CreateChatCompletionStream(cctx, req)
	if err != nil {
		return out, false, classify(ctx, cctx, err)
	}
	defer stream.Close()
	var text strings.Builder
	finished := false
	for {
		chunk, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return out, published, classify(ctx, cctx, err)
		}
		if chunk.Usage != nil {
			out.TokensIn, out.TokensOut = chunk.Usage.PromptTokens, chunk.Usage.CompletionTokens
		}
		for _, ch := range chunk.Choices {
			if ch.Index != 0 {
				continue
			}
			if d := ch.Delta.Content; d != "" {
				if text.Len()+len(d) > MaxReplyBytes {
					return out, published, &failure.Error{Code: failure.UpstreamError, Message: fmt.Sprintf("the streamed reply went over %d bytes", MaxReplyBytes), Sent: true}
				}
				text.WriteString(d)
				r.OnChunk(d)
				published = true
			}
			if ch.FinishReason != "" {
				finished = true
			}
		}
	}
	if !finished {
		// go-openai reports a connection closed mid-stream as the end of
		// it; a complete stream always names why it finished.
		return out, published, &failure.Error{Code: failure.UpstreamError, Message: "the stream ended before the reply was complete", Sent: true}
	}
	out.Text = text.String()
	return out, published, nil
}

func chatRequest(r Request) openai.ChatCompletionRequest {
	req := openai.ChatCompletionRequest{Model: r.Model}
	//lint:ignore SA1019 max_tokens is what every OpenAI-compatible server reads; max_completion_tokens is OpenAI's own
	req.MaxTokens = r.MaxTokens
	req.Messages = make([]openai.ChatCompletionMessage, len(r.Messages))
	for i, m := range r.Messages {
		req.Messages[i] = openai.ChatCompletionMessage{Role: m.Role, Content: m.Content}
	}
	if r.Temperature != nil {
		// go-openai omits a zero temperature, which providers read as their
		// default (often 1): the smallest float32 above 0 is sent instead.
		req.Temperature = max(float32(*r.Temperature), math.SmallestNonzeroFloat32)
	}
	if len(r.Schema) > 0 {
		req.ResponseFormat = &openai.ChatCompletionResponseFormat{
			Type:       openai.ChatCompletionResponseFormatTypeJSONSchema,
			JSONSchema: &openai.ChatCompletionResponseFormatJSONSchema{Name: defaultSchemaName, Schema: json.RawMessage(r.Schema)},
		}
	}
	return req
}

// classify turns the library's error into a *failure.Error: the HTTP
// status of an error answer, TIMEOUT when the provider's own timeout cut
// the request (not the caller's), INVALID_DATA for an answer that was not
// JSON, else what failure.Classify finds (refused addresses, connection
// failures).
func classify(parent, cctx context.Context, err error) error {
	var api *openai.APIError
	if errors.As(err, &api) && api.HTTPStatusCode != 0 {
		return &failure.Error{HTTPStatus: api.HTTPStatusCode, Message: fmt.Sprintf("HTTP %d: %s", api.HTTPStatusCode, api.Message), Sent: true}
	}
	var re *openai.RequestError
	if errors.As(err, &re) && re.HTTPStatusCode != 0 {
		return &failure.Error{HTTPStatus: re.HTTPStatusCode, Message: fmt.Sprintf("HTTP %d", re.HTTPStatusCode), Sent: true}
	}
	if parent.Err() == nil && errors.Is(cctx.Err(), context.DeadlineExceeded) {
		return &failure.Error{Code: failure.Timeout, Message: "the provider did not answer in time", Err: err, Sent: true}
	}
	var se *json.SyntaxError
	var ue *json.UnmarshalTypeError
	if errors.As(err, &se) || errors.As(err, &ue) {
		return &failure.Error{Code: failure.InvalidData, Message: "the provider's answer is not a chat completion", Err: err, Sent: true}
	}
	code := failure.Classify(err)
	return &failure.Error{Code: code, Message: err.Error(), Sent: code != failure.Unreachable && code != failure.Rejected}
}
