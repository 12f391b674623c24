package check

import (
	"errors"
	"testing"

	"github.com/wetel/wetel/store"
	"github.com/wetel/wetel/vocab"
)

func TestTurnStart(t *testing.T) {
	ok := store.TurnStart{Run: store.Run{WorkspaceID: 1, SessionID: 2}}
	if err := TurnStart(&ok); err != nil || ok.Message.WorkspaceID != 1 || ok.Message.SessionID != 2 {
		t.Errorf("TurnStart filled %+v, %v", ok.Message, err)
	}
	bad := store.TurnStart{Run: store.Run{WorkspaceID: 1, SessionID: 2}, Message: store.Message{WorkspaceID: 3}}
	if err := TurnStart(&bad); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("a message of another workspace: %v", err)
	}
}

func TestTurnEnd(t *testing.T) {
	for _, c := range []struct {
		name string
		end  store.TurnEnd
		ok   bool
	}{
		{"completed", store.TurnEnd{Run: store.Run{Status: vocab.RunCompleted}}, true},
		{"running", store.TurnEnd{Run: store.Run{Status: vocab.RunRunning}}, false},
		{"unknown status", store.TurnEnd{Run: store.Run{Status: "DONE"}}, false},
		{"close as open", store.TurnEnd{Run: store.Run{Status: vocab.RunCompleted},
			CloseWait: &store.WaitClose{Status: vocab.WaitOpen}}, false},
		{"close as answered", store.TurnEnd{Run: store.Run{Status: vocab.RunCompleted},
			CloseWait: &store.WaitClose{Status: vocab.WaitAnswered}}, true},
		{"message of another workspace", store.TurnEnd{Run: store.Run{WorkspaceID: 1, Status: vocab.RunFailed},
			Messages: []store.Message{{WorkspaceID: 2}}}, false},
	} {
		if err := TurnEnd(&c.end); (err == nil) != c.ok {
			t.Errorf("%s: TurnEnd = %v", c.name, err)
		}
	}
	m := store.Message{SessionID: 5}
	if err := EndMessage(&m, 1, 6); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("a message of another session: %v", err)
	}
}
