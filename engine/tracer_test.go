package engine_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/wetel/wetel/engine"
	"github.com/wetel/wetel/node"
)

type spanKey struct{}

// recordingTracer notes each dispatch's start and its final row.
type recordingTracer struct{ events []string }

func (r *recordingTracer) StartNode(ctx context.Context, id, typ string) context.Context {
	r.events = append(r.events, "start "+id+"/"+typ)
	return context.WithValue(ctx, spanKey{}, id)
}

func (r *recordingTracer) EndNode(ctx context.Context, row *engine.TraceRow) {
	r.events = append(r.events, "end "+ctx.Value(spanKey{}).(string)+":"+row.Status+":"+row.ErrorClass)
}

// The tracer wraps every dispatch, in order, with the node's final row; the
// node runs with the context StartNode returned (so its calls out carry the
// node's span), whether it completes, fails handled or fails the run.
func TestTracerWrapsEachDispatch(t *testing.T) {
	t.Parallel()
	h := newHarness()
	seen := map[string]string{}
	h.stub(t, "probe", true, func(ctx context.Context, x *node.Exec) (node.Outcome, error) {
		seen[x.NodeID], _ = ctx.Value(spanKey{}).(string)
		if x.NodeID == "bad" {
			return node.Outcome{}, errors.New("connection refused")
		}
		return node.Outcome{}, nil
	})
	doc := gdoc([]string{nd("s", "start", `{}`), nd("ok", "probe", `{}`), nd("bad", "probe", `{}`), say("sorry", "sorry"), failing("TIMEOUT", "slow")},
		[]string{ed("e1", "s", "ok", ""), ed("e2", "ok", "bad", ""), ed("e3", "bad", "sorry", "failure"), ed("e4", "bad", "sorry", "success"),
			ed("e5", "sorry", "call", "")})
	tr := &recordingTracer{}
	res := h.run(t, doc, engine.Input{Tracer: tr})
	want := "start s/start|end s:COMPLETED:|start ok/probe|end ok:COMPLETED:|start bad/probe|end bad:FAILED_HANDLED:UNREACHABLE|" +
		"start sorry/response|end sorry:COMPLETED:|start call/action|end call:FAILED:TIMEOUT"
	if got := strings.Join(tr.events, "|"); got != want {
		t.Errorf("tracer saw\n%s\nwant\n%s", got, want)
	}
	if seen["ok"] != "ok" || seen["bad"] != "bad" {
		t.Errorf("the nodes ran with contexts %v, not their own spans'", seen)
	}
	if len(res.NodeTrace) != 5 {
		t.Errorf("trace %s", path(res))
	}
}
