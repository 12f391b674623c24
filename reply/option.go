// Package reply builds the numbered option list an await_reply question
// offers and matches the next message against it.
//
// The list is built once, when the question is asked, and stored with the
// paused run; the matcher only ever sees that stored list, so the numbers
// and labels the person was shown are exactly the ones it accepts.
package reply

import "github.com/wetel/wetel/vocab"

// MaxOptions is the most options one question offers. Rule: "at most 20
// options per question (extra entries are dropped)".
const MaxOptions = 20

// MaxLabelRunes is the length, in characters (runes), a label is cut to.
// Rule: "Labels are truncated to 80 characters when the list is rendered."
const MaxLabelRunes = 80

// Tier numbers say which matching rule decided a reply, for traces and
// logs. Match reports TierNone when no tier found any candidate.
const (
	// TierNone means no tier found a candidate.
	TierNone = 0
	// TierSlot is the whole message naming a shown position ("2").
	TierSlot = 1
	// TierID is the message equal to an option's id, ignoring case.
	TierID = 2
	// TierLabel is the message equal to a label once both are normalised.
	TierLabel = 3
	// TierToken is whole-token containment in either direction.
	TierToken = 4
)

// Option is one offered choice, declared in vocab with the words every
// layer shares; Slot is its 1-based position in the rendered list.
type Option = vocab.Option

// TemplateOptions returns the list as promptTemplate sees it under
// awaitReplyOptions: one Map per option, in slot order. Rule: "the numbers
// the user sees are the same 1-based slots the matcher accepts", so the
// template gets the stored slots rather than counting for itself.
func TemplateOptions(opts []Option) []any {
	out := make([]any, len(opts))
	for i, o := range opts {
		out[i] = o.Map()
	}
	return out
}
