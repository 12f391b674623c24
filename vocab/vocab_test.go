package vocab

import "testing"

func TestReservedReason(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name     string
		reserved bool
	}{
		{"", false}, {"chosenOrder", false}, {"_lastNodeError", true}, {"_x", true},
		{"awaitReplyOptions", true}, {"userMessage", true}, {"attachmentFilename", true},
		{"usermessage", false}, {"userMessage2", false},
	} {
		if got := ReservedReason(tc.name) != ""; got != tc.reserved {
			t.Errorf("ReservedReason(%q) reserved = %v, want %v", tc.name, got, tc.reserved)
		}
	}
}

func TestOptionMap(t *testing.T) {
	t.Parallel()
	m := Option{Slot: 2, ID: "19", Label: "Solution Architect"}.Map()
	if m["slot"] != 2 || m["id"] != "19" || m["label"] != "Solution Architect" || len(m) != 3 {
		t.Fatalf("Map() = %v", m)
	}
}
