package reply

import (
	"strconv"
	"strings"
	"testing"
)

// FuzzMatch matches an arbitrary reply against the benchmark list and
// against a list built from fuzzed labels and ids (one per line).
func FuzzMatch(f *testing.F) {
	f.Add("2", "Walnut desk lamp\nLinen duvet cover, queen", "ORD-1041\nORD-1187")
	f.Add("I'd like the Solution Architect role", "Solution Architect\nSoftware Engineer", "1\n2")
	f.Add("POD-40", "POD-401\nPOD-40", "POD-401\npod-40")
	f.Add("développeurs", "Développeur\nDeveloppeurs", "a\nA")
	f.Add("N/A", "N/A\nIT", "")
	f.Add("02.", "", "\n\n")
	f.Fuzz(func(t *testing.T, reply, labels, ids string) {
		checkMatch(t, reply, benchList())
		fuzzed := fuzzedList(labels, ids)
		checkMatch(t, reply, fuzzed)
		for _, o := range fuzzed {
			// Every shown number picks its own option, whatever the labels.
			got, tier, ok := Match(strconv.Itoa(o.Slot), fuzzed)
			if !ok || tier != TierSlot || got != o {
				t.Errorf("slot %d: Match = %+v, %d, %v", o.Slot, got, tier, ok)
			}
		}
		if n := normalize(reply); normalize(n) != n {
			t.Errorf("normalize(%q) = %q, which normalises again to %q", reply, n, normalize(n))
		}
	})
}

func fuzzedList(labels, ids string) []Option {
	if labels == "" {
		return nil
	}
	ls := strings.Split(labels, "\n")
	is := strings.Split(ids, "\n")
	opts := make([]Option, 0, MaxOptions)
	for i, l := range ls[:min(len(ls), MaxOptions)] {
		o := Option{Slot: i + 1, Label: truncateRunes(l, MaxLabelRunes)}
		if i < len(is) {
			o.ID = is[i]
		}
		opts = append(opts, o)
	}
	return opts
}

func checkMatch(t *testing.T, reply string, opts []Option) {
	t.Helper()
	got, tier, ok := Match(reply, opts)
	again, tier2, ok2 := Match(reply, opts)
	if got != again || tier != tier2 || ok != ok2 {
		t.Fatalf("Match(%q) is not deterministic: %+v %d %v, then %+v %d %v", reply, got, tier, ok, again, tier2, ok2)
	}
	if !ok {
		if got != (Option{}) || tier < TierNone || tier > TierToken {
			t.Fatalf("Match(%q) unmatched with %+v at tier %d", reply, got, tier)
		}
		return
	}
	if tier < TierSlot || tier > TierToken {
		t.Fatalf("Match(%q) matched at tier %d", reply, tier)
	}
	for _, o := range opts {
		if o == got {
			return
		}
	}
	t.Fatalf("Match(%q) = %+v, which is not one of the options", reply, got)
}
