package events

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestPublishNumbersEachSessionFromOne(t *testing.T) {
	t.Parallel()
	h := newHub(t, Options{})
	keys := []sessionKey{{1, 5}, {1, 6}, {2, 5}}
	got := map[sessionKey][]int64{}
	for range 4 { // interleaved, so one counter per (ws, session) shows
		for _, k := range keys {
			ev := publish(t, h, k.ws, k.id, 1)
			got[k] = append(got[k], ev.Seq)
			if ev.WorkspaceID != k.ws || ev.SessionID != k.id || ev.Type != "Message" || string(ev.Payload) != `{"text":"hi"}` {
				t.Fatalf("published event = %+v", ev)
			}
		}
	}
	for _, k := range keys {
		if diff := cmp.Diff(seqRange(1, 4), got[k]); diff != "" {
			t.Errorf("seqs of %v (-want +got):\n%s", k, diff)
		}
	}
}

func TestPublishContinuesTheNumberingAfterARestart(t *testing.T) {
	t.Parallel()
	log := newFakeLog()
	first := newHub(t, Options{Log: log})
	publish(t, first, 1, 5, 3)
	if err := first.Close(context.Background()); err != nil {
		t.Fatalf("close: %v", err)
	}

	second := newHub(t, Options{Log: log})
	if ev := publish(t, second, 1, 5, 4); ev.Seq != 7 {
		t.Errorf("after a restart the 4th new event has seq %d, want 7", ev.Seq)
	}
	if ev := publish(t, second, 1, 6, 1); ev.Seq != 1 {
		t.Errorf("a new session starts at seq %d, want 1", ev.Seq)
	}
	log.set(func(l *fakeLog) {
		// One LastSeq per session per process: the first hub's and the second's.
		if n := l.lastSeqs[sessionKey{1, 5}]; n != 2 {
			t.Errorf("LastSeq of session 5 read %d times, want 2 (once per hub)", n)
		}
	})
}

func TestPublishRetriesAFailedSeed(t *testing.T) {
	t.Parallel()
	log := newFakeLog()
	log.lastSeqErrs = 1
	h := newHub(t, Options{Log: log})
	if _, err := h.Publish(context.Background(), 1, 5, "Message", nil); !errors.Is(err, errLogDown) {
		t.Fatalf("publish with LastSeq failing: err = %v, want errLogDown", err)
	}
	if ev := publish(t, h, 1, 5, 1); ev.Seq != 1 {
		t.Errorf("seq after a failed seed = %d, want 1 (no seq used by the failure)", ev.Seq)
	}
}

func TestPublishRejectsWhatCannotBeStreamed(t *testing.T) {
	t.Parallel()
	h := newHub(t, Options{})
	tests := []struct {
		name, typ string
		payload   any
		want      string
	}{
		{"empty type", "", nil, "must be non-empty"},
		{"multi-line type", "Run\nStarted", nil, "on one line"},
		{"unencodable payload", "Message", make(chan int), "encoding payload"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := h.Publish(context.Background(), 1, 5, tc.typ, tc.payload)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want one containing %q", err, tc.want)
			}
		})
	}
	if st := h.Stats(); st.Published != 0 {
		t.Errorf("rejected events were counted: %+v", st)
	}
}

func TestWorkspacesDoNotSeeEachOthersSessions(t *testing.T) {
	t.Parallel()
	h := newHub(t, Options{})
	publish(t, h, 1, 5, 3)
	other, err := h.Subscribe(context.Background(), 2, 5, 0)
	if err != nil {
		t.Fatalf("subscribe: %v", err)
	}
	own, err := h.Subscribe(context.Background(), 1, 5, 3)
	if err != nil {
		t.Fatalf("subscribe: %v", err)
	}
	publish(t, h, 1, 5, 2) // ws 1 live events
	recv(t, own, 2)        // once ws 1's subscriber has them, ws 2's would too
	publish(t, h, 2, 5, 1)
	got := recv(t, other, 1)
	if got[0].WorkspaceID != 2 || got[0].Seq != 1 {
		t.Errorf("ws 2 received %+v, want its own first event", got[0])
	}
}

func TestCloseEndsEverything(t *testing.T) {
	t.Parallel()
	h := newHub(t, Options{})
	sub, err := h.Subscribe(context.Background(), 1, 5, 0)
	if err != nil {
		t.Fatalf("subscribe: %v", err)
	}
	if err := h.Close(context.Background()); err != nil {
		t.Fatalf("close: %v", err)
	}
	waitClosed(t, sub)
	if !errors.Is(sub.Err(), ErrClosed) {
		t.Errorf("subscription err = %v, want ErrClosed", sub.Err())
	}
	if _, err := h.Publish(context.Background(), 1, 5, "Message", nil); !errors.Is(err, ErrClosed) {
		t.Errorf("publish after close: err = %v, want ErrClosed", err)
	}
	if _, err := h.Subscribe(context.Background(), 1, 5, 0); !errors.Is(err, ErrClosed) {
		t.Errorf("subscribe after close: err = %v, want ErrClosed", err)
	}
	if err := h.Close(context.Background()); err != nil {
		t.Errorf("second close: %v", err)
	}
	if st := h.Stats(); st.Subscribers != 0 {
		t.Errorf("subscribers after close = %d, want 0", st.Subscribers)
	}
}
