package endsession_test

import (
	"strings"
	"testing"

	"github.com/wetel/wetel/graph"
	"github.com/wetel/wetel/node"
	"github.com/wetel/wetel/node/endsession"
)

func TestConfirms(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		reply string
		yes   bool
	}{
		{"yes", true}, {"Yes!", true}, {"  YES  ", true}, {"y", true}, {"Yeah.", true}, {"ok", true}, {"Okay", true},
		{"yes please", true}, {"Yes, please!", true}, {"please do", true}, {"confirmed", true}, {"sure", true},
		{"no", false}, {"not yet", false}, {"yes but first", false}, {"yesterday", false}, {"", false},
		{"I guess", false}, {"nope", false}, {"y e s", false},
	} {
		if got := endsession.Confirms(tc.reply); got != tc.yes {
			t.Errorf("Confirms(%q) = %v, want %v", tc.reply, got, tc.yes)
		}
	}
}

func FuzzConfirms(f *testing.F) {
	for _, s := range []string{"yes", "No", "yes please", "¿sí?", "\x00"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, reply string) {
		// A reply that confirms still confirms with surrounding space and
		// punctuation, and the call never panics.
		if endsession.Confirms(reply) && !endsession.Confirms(" "+reply+"!") {
			t.Errorf("%q confirms but not when padded", reply)
		}
	})
}

func TestEndSessionRules(t *testing.T) {
	t.Parallel()
	doc := func(cfg, label string) *graph.Graph {
		g, err := graph.Decode([]byte(`{"nodes":[{"id":"start","type":"start"},{"id":"bye","type":"end_session","config":` + cfg + `},
			{"id":"r","type":"response","config":{"messageTemplate":"x"}}],
			"edges":[{"id":"e1","source":"start","target":"bye"},{"id":"e2","source":"bye","target":"r","label":"` + label + `"}]}`))
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	if errs := graph.CheckSave(doc(`{"runEvaluation":true}`, ""), node.Default); len(errs) == 0 || !strings.Contains(errs.Error(), "runEvaluation") {
		t.Errorf("runEvaluation saved: %v", errs)
	}
	never := func(g *graph.Graph) bool {
		for _, p := range graph.Diagnose(g, node.Default) {
			if p.Code == node.DiagBranchNeverTaken && p.EdgeID == "e2" {
				return true
			}
		}
		return false
	}
	if never(doc(`{"requireConfirmation":true}`, "declined")) {
		t.Error("the declined edge of a confirming end_session is reported never taken")
	}
	if !never(doc(`{}`, "declined")) || !never(doc(`{"requireConfirmation":true}`, "other")) {
		t.Error("an edge out of end_session that is never taken is not reported")
	}
}
