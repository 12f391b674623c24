package turn_test

import (
	"context"
	"testing"
	"time"

	"github.com/wetel/wetel/store"
)

const failing = `{"nodes":[{"id":"start","type":"start"},
{"id":"bad","type":"set_variable","config":{"assignments":[{"var":"x","from":"missing.value"}]}}],
"edges":[{"id":"e1","source":"start","target":"bad"}]}`

const handled = `{"nodes":[{"id":"start","type":"start"},
{"id":"bad","type":"set_variable","config":{"assignments":[{"var":"x","from":"missing.value"}]}},
{"id":"ok","type":"response","config":{"messageTemplate":"fine"}},{"id":"sorry","type":"response","config":{"messageTemplate":"sorry"}}],
"edges":[{"id":"e1","source":"start","target":"bad"},{"id":"e2","source":"bad","target":"ok","label":"success"},{"id":"e3","source":"bad","target":"sorry","label":"failure"}]}`

func notices(t *testing.T, f *fixture, kind string) int {
	t.Helper()
	ns, err := f.st.Notifications(context.Background(), f.ws, false, 100)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, x := range ns {
		if x.Kind == kind {
			n++
		}
	}
	return n
}

// Seed 001: with notifyOnFailure OWNERS "the workspace owners also get an
// in-app notice (at most one per workflow per hour). A failure handled by a
// failure edge does neither."
func TestFailureNotices(t *testing.T) {
	t.Parallel()
	owners := store.NotifyOwners
	f := newFixture(t, failing)
	if _, err := f.st.UpdateWorkflow(context.Background(), f.ws, f.wf.ID, store.WorkflowSettings{NotifyOnFailure: &owners}); err != nil {
		t.Fatal(err)
	}
	s := f.session(t)
	for range 3 {
		f.send(t, s, "go")
	}
	if n := notices(t, f, store.NoticeRunFailed); n != 1 {
		t.Fatalf("three failures within the hour left %d notices, want 1", n)
	}
	f.clock.Advance(time.Hour)
	f.send(t, s, "go")
	if n := notices(t, f, store.NoticeRunFailed); n != 2 {
		t.Errorf("a failure the next hour left %d notices in all, want 2", n)
	}

	h := newFixture(t, handled)
	if _, err := h.st.UpdateWorkflow(context.Background(), h.ws, h.wf.ID, store.WorkflowSettings{NotifyOnFailure: &owners}); err != nil {
		t.Fatal(err)
	}
	h.send(t, h.session(t), "go")
	if n := notices(t, h, store.NoticeRunFailed); n != 0 {
		t.Errorf("a handled failure left %d notices", n)
	}
	quiet := newFixture(t, failing) // notifyOnFailure NONE
	quiet.send(t, quiet.session(t), "go")
	if n := notices(t, quiet, store.NoticeRunFailed); n != 0 {
		t.Errorf("a workflow that does not ask left %d notices", n)
	}
}

// A run that waits for an owner's decision tells the owners.
func TestApprovalNotice(t *testing.T) {
	t.Parallel()
	f := newFixture(t, refundGraph)
	f.send(t, f.session(t), "order 7")
	if n := notices(t, f, store.NoticeApproval); n != 1 {
		t.Errorf("%d approval notices, want 1", n)
	}
}
