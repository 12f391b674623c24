package turn_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/wetel/wetel/node"
	"github.com/wetel/wetel/tmpl"
	"github.com/wetel/wetel/vocab"
)

// A pausing node type written as its own package would be, registered in
// a registry of its own: nothing in turn/, engine/ or the store names it,
// yet its question pauses the run, its state is stored, and its Resume hook
// alone decides how the next message continues. This is the shape every
// new pausing type (approval, end_session confirmation, typed waits) takes.

type confirmConfig struct {
	Question string `json:"question"`
	SaveAs   string `json:"saveAs"`
	Decided  bool   `json:"decided"` // resumed by a decision, not by the reply
}

func confirmSpec() *node.Spec {
	return &node.Spec{
		Type:     "confirm",
		Runs:     node.OnServer | node.Offline,
		Summary:  "Asks a yes/no question and continues down yes or no.",
		Routing:  node.RouteOutcome,
		Outcomes: []string{"yes", "no"},
		Pauses:   true,
		Fields: []node.Field{
			{Name: "question", Kind: node.KindString, Format: node.FormatTemplate, Required: true, MaxLength: tmpl.MaxSourceBytes},
			{Name: "saveAs", Kind: node.KindString, Format: node.FormatVariable, Required: true, MaxLength: 64},
			{Name: "decided", Kind: node.KindBoolean},
		},
		Build: func(b node.BuildInput) (node.Executor, error) {
			var cfg confirmConfig
			if err := b.Decode(&cfg); err != nil {
				return nil, err
			}
			q, err := tmpl.Parse(cfg.Question)
			if err != nil {
				return nil, err
			}
			return node.ExecutorFunc(func(_ context.Context, x *node.Exec) (node.Outcome, error) {
				text, err := q.Render(x.Vars)
				if err != nil {
					return node.Outcome{}, err
				}
				x.Ask(text, "")
				snap, _, err := node.Carried(x.Vars)
				if err != nil {
					return node.Outcome{}, err
				}
				state, _ := json.Marshal(map[string]string{"saveAs": cfg.SaveAs})
				p := &node.Pause{ResumeOn: vocab.ResumeOnReply, State: state, Snapshot: snap}
				if cfg.Decided {
					p.ResumeOn, p.RunStatus = vocab.ResumeOnDecision, vocab.RunAwaitingApproval
				}
				return node.Outcome{Pause: p}, nil
			}), nil
		},
		Resume: func(_ context.Context, in node.ResumeInput) (node.Resumed, error) {
			var st struct {
				SaveAs string `json:"saveAs"`
			}
			if err := json.Unmarshal(in.State, &st); err != nil {
				return node.Resumed{}, err
			}
			label := "no"
			if strings.HasPrefix(strings.ToLower(in.Text), "y") {
				label = "yes"
			}
			return node.Resumed{Label: label, Vars: map[string]any{st.SaveAs: in.Text}}, nil
		},
	}
}

const confirmGraph = `{"nodes":[{"id":"start","type":"start"},
{"id":"note","type":"set_variable","config":{"assignments":[{"var":"item","value":"the blue kettle"}]}},
{"id":"ask","type":"confirm","config":{"question":"Order {{item}}?","saveAs":"said","decided":%s}},
{"id":"ordered","type":"response","config":{"messageTemplate":"Ordered {{item}} ({{said}})."}},
{"id":"dropped","type":"response","config":{"messageTemplate":"Not ordering {{item}} ({{said}})."}}],
"edges":[{"id":"e1","source":"start","target":"note"},{"id":"e2","source":"note","target":"ask"},
{"id":"e3","source":"ask","target":"ordered","label":"yes"},{"id":"e4","source":"ask","target":"dropped","label":"no"}]}`

func newConfirmFixture(t *testing.T, decided string) *fixture {
	t.Helper()
	reg := node.Default.Clone()
	if err := reg.Add(confirmSpec()); err != nil {
		t.Fatal(err)
	}
	f := newFixture(t, strings.Replace(confirmGraph, "%s", decided, 1))
	f.svc.Registry = reg
	return f
}

func TestNewPausingTypeResumesThroughItsOwnHook(t *testing.T) {
	t.Parallel()
	f := newConfirmFixture(t, "false")
	s := f.session(t)
	first := f.send(t, s, "hi")
	if r := first.Runs[0]; r.Status != vocab.RunAwaitingInput || len(first.Messages) != 1 || first.Messages[0].Text != "Order the blue kettle?" {
		t.Fatalf("turn 1: run %s (%s), messages %+v", r.Status, r.Error, first.Messages)
	}
	waits, err := f.st.PendingWaits(context.Background(), f.ws, s.ID, "confirm", f.clock.Now())
	if err != nil || len(waits) != 1 || waits[0].Kind != "confirm" || string(waits[0].State) != `{"saveAs":"said"}` || waits[0].NodeID != "ask" {
		t.Fatalf("the stored wait: %+v, %v", waits, err)
	}
	second := f.send(t, s, "Yes please")
	if r := second.Runs[0]; r.Status != vocab.RunCompleted || r.ResumedFromRunID != first.Runs[0].ID {
		t.Fatalf("turn 2: run %+v", r)
	}
	if got := second.Messages[0].Text; got != "Ordered the blue kettle (Yes please)." {
		t.Fatalf("turn 2 said %q", got)
	}
	// The same type's other label, from a fresh question.
	f.send(t, s, "again")
	if got := f.send(t, s, "nope").Messages[0].Text; got != "Not ordering the blue kettle (nope)." {
		t.Fatalf("turn 4 said %q", got)
	}
}

// A wait resumed by a decision leaves its run AWAITING_APPROVAL and is not
// the session's open question: the next message starts a fresh run.
func TestNewPausingTypeResumedByDecisionIgnoresReplies(t *testing.T) {
	t.Parallel()
	f := newConfirmFixture(t, "true")
	s := f.session(t)
	first := f.send(t, s, "hi")
	if r := first.Runs[0]; r.Status != vocab.RunAwaitingApproval {
		t.Fatalf("turn 1: run %s (%s)", r.Status, r.Error)
	}
	second := f.send(t, s, "yes")
	if r := second.Runs[0]; r.ResumedFromRunID != 0 || r.Status != vocab.RunAwaitingApproval {
		t.Fatalf("turn 2 should start afresh and pause again: %+v", r)
	}
	waits, err := f.st.PendingWaits(context.Background(), f.ws, s.ID, "confirm", f.clock.Now())
	if err != nil || len(waits) != 2 {
		t.Fatalf("pending decisions: %+v, %v", waits, err)
	}
}
