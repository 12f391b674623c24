package reply

import (
	"strings"
	"testing"
)

// benchList is the list the matching rules are measured against.
func benchList() []Option {
	return []Option{
		{Slot: 1, ID: "1", Label: "Solution Architect"},
		{Slot: 2, ID: "2", Label: "Software Engineer"},
		{Slot: 3, ID: "3", Label: "Data Scientist"},
		{Slot: 4, ID: "4", Label: "Product Manager"},
		{Slot: 5, ID: "5", Label: "Site Reliability Engineer"},
	}
}

func shippingData() []any {
	return []any{
		obj("order_id", "ORD-1041", "description", "Walnut desk lamp"),
		obj("order_id", "ORD-1187", "description", "Linen duvet cover, queen"),
		obj("order_id", "ORD-1203", "description", "Cast iron skillet"),
	}
}

// labelled numbers a list of labels with ids "a", "b", ...
func labelled(labels ...string) []Option {
	opts := make([]Option, len(labels))
	for i, l := range labels {
		opts[i] = Option{Slot: i + 1, ID: string(rune('a' + i)), Label: l}
	}
	return opts
}

type matchCase struct {
	name     string
	reply    string
	wantSlot int // 0: unmatched
	wantTier int
}

func runMatchCases(t *testing.T, opts []Option, tests []matchCase) {
	t.Helper()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, tier, ok := Match(tc.reply, opts)
			if tc.wantSlot == 0 {
				if ok || got != (Option{}) || tier != tc.wantTier {
					t.Errorf("Match(%q) = %+v, %d, %v; want unmatched at tier %d", tc.reply, got, tier, ok, tc.wantTier)
				}
				return
			}
			want := opts[tc.wantSlot-1]
			if !ok || got != want || tier != tc.wantTier {
				t.Errorf("Match(%q) = %+v, %d, %v; want %+v at tier %d", tc.reply, got, tier, ok, want, tc.wantTier)
			}
		})
	}
}

func TestMatchBenchmarkList(t *testing.T) {
	t.Parallel()
	runMatchCases(t, benchList(), []matchCase{
		{"slot", "2", 2, TierSlot},
		{"slot with spaces", " 2 \n", 2, TierSlot},
		{"slot with the rendered dot", "2.", 2, TierSlot},
		{"slot with a leading zero", "02", 2, TierSlot},
		{"last slot", "5", 5, TierSlot},
		{"slot 0 is out of range", "0", 0, TierNone},
		{"slot 6 is out of range", "6", 0, TierNone},
		{"negative", "-1", 0, TierNone},
		{"decimal", "2.5", 0, TierNone},
		{"hash", "#2", 0, TierNone},
		{"paren", "2)", 0, TierNone},
		{"two dots", "2..", 0, TierNone},
		{"huge number", "99999999999999999999999999", 0, TierNone},
		{"a number inside a sentence", "I'll take 2 of them", 0, TierNone},
		{"empty", "", 0, TierNone},
		{"whitespace", " \t\r\n ", 0, TierNone},
		{"label exact", "Solution Architect", 1, TierLabel},
		{"label lower", "solution architect", 1, TierLabel},
		{"label upper", "SOLUTION ARCHITECT", 1, TierLabel},
		{"label punctuation", "solution-architect!", 1, TierLabel},
		{"label plural", "Product Managers", 4, TierLabel},
		{"label spacing and plural", "  data   scientists ", 3, TierLabel},
		{"label in a sentence", "I'd like the Solution Architect role", 1, TierToken},
		{"bare token", "architect", 1, TierToken},
		{"bare plural token", "architects", 1, TierToken},
		{"bare token with case and punctuation", "Architect.", 1, TierToken},
		{"software", "Software", 2, TierToken},
		{"engineer is a tie", "engineer", 0, TierToken},
		{"engineers is a tie", "Engineers", 0, TierToken},
		{"two labels in one sentence", "Data Scientist or Product Manager", 0, TierToken},
		{"reversed words", "engineer software", 2, TierToken},
		{"longer label in a sentence", "site reliability engineer please", 5, TierToken},
		{"unique middle word", "reliability", 5, TierToken},
		{"a filler word is not ignored", "the architect", 0, TierNone},
		{"N/A", "N/A", 0, TierNone},
		{"IT", "IT", 0, TierNone},
		{"raw substring", "itect", 0, TierNone},
		{"no expansion", "SRE", 0, TierNone},
		{"emoji", "👍", 0, TierNone},
		{"emoji around a token", "🏗️ architect 🏗️", 1, TierToken},
		{"very long reply naming one label", strings.Repeat("blah ", 20000) + "Solution Architect", 1, TierToken},
		{"very long repetition of one token", strings.Repeat("architect ", 5000), 1, TierToken},
		{"very long reply naming nothing", strings.Repeat("lorem ipsum ", 20000), 0, TierNone},
		{"very long reply naming two", strings.Repeat("x", 5000) + " software engineer and data scientist", 0, TierToken},
	})
}

func TestMatchShippingExample(t *testing.T) {
	t.Parallel()
	opts, err := BuildOptions("orderLookup.data", shippingData(), true, "order_id", "description")
	if err != nil {
		t.Fatal(err)
	}
	got, tier, ok := Match("2", opts)
	if want := (Option{Slot: 2, ID: "ORD-1187", Label: "Linen duvet cover, queen"}); !ok || tier != TierSlot || got != want {
		t.Errorf(`Match("2") = %+v, %d, %v; want %+v at tier 1`, got, tier, ok, want)
	}
	runMatchCases(t, opts, []matchCase{
		{"a number inside a sentence", "I'll take 2 of them", 0, TierNone},
		{"id", "ORD-1187", 2, TierID},
		{"id ignoring case", " ord-1187 ", 2, TierID},
		{"id without its dash is not the id", "ORD1187", 0, TierNone},
		{"label with punctuation dropped", "linen duvet cover queen", 2, TierLabel},
		{"part of a label", "linen duvet cover", 2, TierToken},
		{"label in a sentence", "the cast iron skillet please", 3, TierToken},
		{"one word", "duvet", 2, TierToken},
	})
}

func TestMatchWholeTokens(t *testing.T) {
	t.Parallel()
	runMatchCases(t, labelled("POD-401"), []matchCase{
		{"POD-40 is not POD-401", "POD-40", 0, TierNone},
		{"pod40 is not POD-401", "pod40", 0, TierNone},
		{"the number alone", "401", 1, TierToken},
	})
	runMatchCases(t, []Option{{Slot: 1, ID: "POD-40", Label: "Pod 40"}, {Slot: 2, ID: "POD-401", Label: "Pod 401"}}, []matchCase{
		{"id", "POD-40", 1, TierID},
		{"other id", "pod-401", 2, TierID},
		{"no punctuation folding in ids", "POD40", 0, TierNone},
		{"label", "pod 40", 1, TierLabel},
		{"shared token is a tie", "pod", 0, TierToken},
	})
	runMatchCases(t, labelled("N/A", "Solution Architect"), []matchCase{
		{"N/A is its own label", "n.a.", 1, TierLabel},
		{"N/A in a sentence names nothing", "I'd say N/A here", 0, TierNone},
	})
	runMatchCases(t, labelled("IT Support", "TV"), []matchCase{
		{"too short to contain", "IT", 0, TierNone},
		{"short label needs equality", "the TV please", 0, TierNone},
		{"short label equality", "tv", 2, TierLabel},
		{"long token with its short companion", "I need IT support", 1, TierToken},
	})
}

func TestMatchAccents(t *testing.T) {
	t.Parallel()
	runMatchCases(t, labelled("Développeur", "Señor Ñandú", "Straße", "Øresund Brücke", "Инженер", "Cœur"), []matchCase{
		{"plain", "developpeur", 1, TierLabel},
		{"upper", "DEVELOPPEUR", 1, TierLabel},
		{"plural", "développeurs", 1, TierLabel},
		{"decomposed accent", "De\u0301veloppeur", 1, TierLabel},
		{"tilde", "senor nandu", 2, TierLabel},
		{"sharp s", "STRASSE", 3, TierLabel},
		{"slashed o and umlaut", "oresund brucke", 4, TierLabel},
		{"token with umlaut", "brücke", 4, TierToken},
		{"cyrillic case", "ИНЖЕНЕР", 5, TierLabel},
		{"ligature", "coeur", 6, TierLabel},
	})
}

func TestMatchTies(t *testing.T) {
	t.Parallel()
	runMatchCases(t, labelled("Walnut desk lamp", "Walnut Desk Lamps", "Other"), []matchCase{
		{"same label twice", "walnut desk lamp", 0, TierLabel},
		{"slot still picks", "1", 1, TierSlot},
		{"shared token", "lamp", 0, TierToken},
	})
	runMatchCases(t, []Option{{Slot: 1, ID: "abc", Label: "First"}, {Slot: 2, ID: "ABC", Label: "Second"}, {Slot: 3, ID: "z", Label: "abc"}}, []matchCase{
		{"ids equal ignoring case stop at the id tier", "Abc", 0, TierID},
		{"other option by label", "second", 2, TierLabel},
	})
	runMatchCases(t, labelled("Desk lamp", "desk-lamp", "Large desk lamp"), []matchCase{
		{"a label tie does not fall through to tokens", "desk lamp", 0, TierLabel},
		{"the longer label", "large desk lamp", 3, TierLabel},
	})
	runMatchCases(t, []Option{{Slot: 1, ID: "x", Label: "One"}, {Slot: 1, ID: "y", Label: "Uno"}}, []matchCase{
		{"a repeated slot is a tie", "1", 0, TierSlot},
	})
}

func TestMatchTierOrder(t *testing.T) {
	t.Parallel()
	runMatchCases(t, []Option{{Slot: 1, ID: "manager", Label: "Boss"}, {Slot: 2, ID: "7", Label: "Manager"}}, []matchCase{
		{"an id beats another option's label", "Manager", 1, TierID},
		{"the plural is not the id", "managers", 2, TierLabel},
		{"label of the first", "boss", 1, TierLabel},
	})
	runMatchCases(t, []Option{{Slot: 1, ID: "2", Label: "Two"}, {Slot: 2, ID: "19", Label: "Nineteen"}}, []matchCase{
		{"a slot beats an id", "2", 2, TierSlot},
		{"an id past the last slot", "19", 2, TierID},
	})
}

func TestMatchNumericIDsFromJSON(t *testing.T) {
	t.Parallel()
	opts, err := BuildOptions("jobs", []any{
		obj("id", 19.0, "label", "Solution Architect"),
		obj("id", 23.0, "label", "Software Engineer"),
	}, true, "", "")
	if err != nil {
		t.Fatal(err)
	}
	runMatchCases(t, opts, []matchCase{
		{"id", "19", 1, TierID},
		{"id with its float form is not the id", "19.0", 0, TierNone},
		{"slot", "2", 2, TierSlot},
	})
}

func TestMatchNoOptions(t *testing.T) {
	t.Parallel()
	if got, tier, ok := Match("1", nil); ok || tier != TierNone || got != (Option{}) {
		t.Errorf("Match with no options = %+v, %d, %v", got, tier, ok)
	}
}
