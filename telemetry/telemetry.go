// Package telemetry traces turns and nodes with OpenTelemetry: a span per
// turn, a child span per node dispatch (its type, status, error class and
// attempts), and the W3C trace context sent on every outbound HTTP call, so
// a partner's own traces join the turn that called it.
//
// Tracing is off unless OTEL_EXPORTER_OTLP_ENDPOINT (or
// OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) is set: FromEnv then returns nil, and
// a nil *Tracing is what every hook in turn/ and engine/ checks for, so the
// dispatch loop pays one nil check per node and nothing else. When on, spans
// are exported over OTLP/HTTP (protobuf) in batches.
package telemetry

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"

	"github.com/wetel/wetel/engine"
	"github.com/wetel/wetel/turn"
	"github.com/wetel/wetel/vocab"
)

// The environment variables FromEnv reads (the OpenTelemetry SDK's own
// names; the exporter also reads the other OTEL_EXPORTER_OTLP_* settings,
// such as headers and timeout, itself).
const (
	EnvEndpoint       = "OTEL_EXPORTER_OTLP_ENDPOINT"
	EnvTracesEndpoint = "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"
	EnvProtocol       = "OTEL_EXPORTER_OTLP_PROTOCOL"
	EnvSDKDisabled    = "OTEL_SDK_DISABLED"
)

// Span attribute keys.
const (
	AttrWorkspace    = attribute.Key("wetel.workspace")
	AttrSession      = attribute.Key("wetel.session")
	AttrRun          = attribute.Key("wetel.run")
	AttrRunStatus    = attribute.Key("wetel.run.status")
	AttrRuns         = attribute.Key("wetel.runs")
	AttrNodeID       = attribute.Key("wetel.node.id")
	AttrNodeType     = attribute.Key("wetel.node.type")
	AttrNodeStatus   = attribute.Key("wetel.node.status")
	AttrErrorClass   = attribute.Key("wetel.error_class")
	AttrAttempts     = attribute.Key("wetel.attempts")
	AttrRetryOutcome = attribute.Key("wetel.retry_outcome")
)

// instrumentation is the tracer's name, the module path.
const instrumentation = "github.com/wetel/wetel"

// Tracing makes the spans of turns and nodes. A nil *Tracing is valid and
// does nothing; its hooks (Turns, Propagate) are then nil too.
type Tracing struct {
	provider *sdktrace.TracerProvider
	tracer   trace.Tracer
	prop     propagation.TextMapPropagator
}

// FromEnv returns the Tracing the environment asks for: nil, and no error,
// when neither OTEL_EXPORTER_OTLP_ENDPOINT nor
// OTEL_EXPORTER_OTLP_TRACES_ENDPOINT is set or OTEL_SDK_DISABLED is true.
// As the OpenTelemetry specification says, the traces endpoint is used as
// it is and the general one gets /v1/traces appended. Only the
// http/protobuf protocol is built in.
func FromEnv(ctx context.Context, getenv func(string) string) (*Tracing, error) {
	if strings.EqualFold(strings.TrimSpace(getenv(EnvSDKDisabled)), "true") {
		return nil, nil
	}
	endpoint := strings.TrimSpace(getenv(EnvTracesEndpoint))
	if endpoint == "" {
		base := strings.TrimSpace(getenv(EnvEndpoint))
		if base == "" {
			return nil, nil
		}
		endpoint = strings.TrimRight(base, "/") + "/v1/traces"
	}
	if p := strings.TrimSpace(getenv(EnvProtocol)); p != "" && p != "http/protobuf" {
		return nil, fmt.Errorf("%s: only http/protobuf is supported, not %q", EnvProtocol, p)
	}
	if !strings.HasPrefix(endpoint, "http://") && !strings.HasPrefix(endpoint, "https://") {
		return nil, fmt.Errorf("%s: %q must be an http:// or https:// URL", EnvEndpoint, endpoint)
	}
	return New(ctx, otlptracehttp.WithEndpointURL(endpoint))
}

// New returns a Tracing that exports over OTLP/HTTP with opts (an endpoint
// among them); the service is named "wetel" unless OTEL_SERVICE_NAME says
// otherwise.
func New(ctx context.Context, opts ...otlptracehttp.Option) (*Tracing, error) {
	exp, err := otlptracehttp.New(ctx, opts...)
	if err != nil {
		return nil, fmt.Errorf("telemetry: OTLP exporter: %w", err)
	}
	res, err := resource.New(ctx, resource.WithAttributes(attribute.String("service.name", "wetel")),
		resource.WithFromEnv(), resource.WithTelemetrySDK())
	if err != nil && !errors.Is(err, resource.ErrPartialResource) {
		return nil, fmt.Errorf("telemetry: resource: %w", err)
	}
	tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(exp), sdktrace.WithResource(res))
	return &Tracing{provider: tp, tracer: tp.Tracer(instrumentation), prop: propagation.TraceContext{}}, nil
}

// ForceFlush exports the spans ended so far.
func (t *Tracing) ForceFlush(ctx context.Context) error {
	if t == nil {
		return nil
	}
	return t.provider.ForceFlush(ctx)
}

// Shutdown exports what is left and stops exporting.
func (t *Tracing) Shutdown(ctx context.Context) error {
	if t == nil {
		return nil
	}
	return t.provider.Shutdown(ctx)
}

// Turns is the hook turn.Service traces turns and nodes with; nil when t is.
func (t *Tracing) Turns() turn.Tracer {
	if t == nil {
		return nil
	}
	return hooks{t}
}

// Propagate writes the W3C trace context of ctx's span (traceparent,
// tracestate) into h; the outbound client calls it for every request it
// sends. It is nil when t is, so the client then does nothing.
func (t *Tracing) Propagate() func(ctx context.Context, h http.Header) {
	if t == nil {
		return nil
	}
	return func(ctx context.Context, h http.Header) { t.prop.Inject(ctx, propagation.HeaderCarrier(h)) }
}

// Handler makes h continue the W3C trace context (traceparent) a request
// arrives with, so a turn started by a traced caller is a child of the
// caller's span. It returns h itself when t is nil.
func (t *Tracing) Handler(h http.Handler) http.Handler {
	if t == nil {
		return h
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.ServeHTTP(w, r.WithContext(t.prop.Extract(r.Context(), propagation.HeaderCarrier(r.Header))))
	})
}

// hooks implements turn.Tracer (and through it engine.Tracer).
type hooks struct{ t *Tracing }

// StartTurn starts the turn's span.
func (h hooks) StartTurn(ctx context.Context, ws, sessionID int64) context.Context {
	ctx, _ = h.t.tracer.Start(ctx, "turn", trace.WithSpanKind(trace.SpanKindServer),
		trace.WithAttributes(AttrWorkspace.Int64(ws), AttrSession.Int64(sessionID)))
	return ctx
}

// EndTurn ends it with its runs: their ids, the last one's status, and an
// error status when a run failed or the turn could not run.
func (h hooks) EndTurn(ctx context.Context, res turn.TurnResult, err error) {
	span := trace.SpanFromContext(ctx)
	ids := make([]int64, len(res.Runs))
	for i, r := range res.Runs {
		ids[i] = r.ID
	}
	span.SetAttributes(AttrRuns.Int64Slice(ids))
	if n := len(res.Runs); n > 0 {
		last := res.Runs[n-1]
		span.SetAttributes(AttrRun.Int64(last.ID), AttrRunStatus.String(last.Status))
		if last.Status == vocab.RunFailed {
			span.SetAttributes(AttrErrorClass.String(last.ErrorCode))
			// The class only: the run's error text stays in the store.
			span.SetStatus(codes.Error, last.ErrorCode)
		}
	}
	if err != nil {
		span.SetStatus(codes.Error, "the turn could not run")
	}
	span.End()
}

// StartNode starts a node's span, a child of the turn's, and returns the
// context the node runs with: its calls out carry this span's context.
func (h hooks) StartNode(ctx context.Context, nodeID, nodeType string) context.Context {
	ctx, _ = h.t.tracer.Start(ctx, "node "+nodeType, trace.WithSpanKind(trace.SpanKindInternal),
		trace.WithAttributes(AttrNodeID.String(nodeID), AttrNodeType.String(nodeType)))
	return ctx
}

// EndNode ends the node's span with what its trace row says. No error text
// goes on a span: it may hold what the row itself never shows.
func (h hooks) EndNode(ctx context.Context, row *engine.TraceRow) {
	span := trace.SpanFromContext(ctx)
	span.SetAttributes(AttrNodeStatus.String(row.Status))
	if row.ErrorClass != "" {
		span.SetAttributes(AttrErrorClass.String(row.ErrorClass))
	}
	attempts := 1
	if d := row.TraceDetail; d != nil && len(d.Attempts) > 0 {
		attempts = len(d.Attempts)
		if row.Status == vocab.TraceCompleted {
			attempts++ // the attempts listed are the failed ones
		}
		span.SetAttributes(AttrRetryOutcome.String(d.RetryOutcome))
	}
	span.SetAttributes(AttrAttempts.Int(attempts))
	if row.Status == vocab.TraceFailed || row.Status == vocab.TraceFailedHandled {
		span.SetStatus(codes.Error, row.ErrorClass)
	}
	span.End()
}
