package reply

import "strings"

// Match returns the option a reply picks, the tier that decided, and
// whether it matched. Rule: "Matching runs in tiers, each of which requires
// exactly one winner — zero matches, or two or more, is "unmatched", never a
// guess".
//
// The tiers run in order and the first with any candidate decides:
//
//  1. TierSlot: the whole message, trimmed, is a shown position: ASCII
//     digits with an optional trailing "." (as in the rendered "2. Label"),
//     leading zeros allowed ("02" is slot 2). Nothing else: "#2", "2)",
//     "-1", "2.5" and "I'll take 2 of them" are not slot picks.
//  2. TierID: the trimmed message equals a trimmed id, ignoring case only
//     (stray spaces around an id in the data are not part of it).
//  3. TierLabel: the message equals a label once both are normalised (case,
//     accents, punctuation and one trailing plural "s" per token folded).
//  4. TierToken: an option whose label's tokens all appear as whole tokens
//     in the reply, or whose label holds every token of the reply. The
//     contained side must have a token of three or more characters, and
//     every one of its tokens, short ones included, must be found.
//
// How "exactly one winner" reads across tiers: a tier with no candidate
// says nothing about the reply and hands it to the next tier (otherwise a
// reply that is not a number would stop at the first tier and the label
// tiers could never be reached); a tier with two or more candidates has
// found a real ambiguity, and a later, looser tier must not break the tie,
// so matching stops there unmatched.
//
// When ok is false, tier is the tier that stopped on a tie, or TierNone
// when no tier found a candidate. An empty or all-space reply matches
// nothing.
func Match(replyText string, options []Option) (opt Option, tier int, ok bool) {
	text := strings.TrimSpace(replyText)
	if text == "" || len(options) == 0 {
		return Option{}, TierNone, false
	}
	// Rule: "Slot number — the whole message is a number matching a shown
	// position". Slots are read from the stored options, not counted here,
	// so they are the numbers that were rendered.
	if n, isNum := parseSlot(text); isNum {
		if i, count := pick(options, func(o Option) bool { return n >= 1 && o.Slot == n }); count > 0 {
			return decide(options, i, count, TierSlot)
		}
	}
	// Rule: "Exact id, case-insensitively. No punctuation folding".
	if i, count := pick(options, func(o Option) bool { return strings.EqualFold(strings.TrimSpace(o.ID), text) }); count > 0 {
		return decide(options, i, count, TierID)
	}
	norm := normalize(text)
	if norm == "" {
		// Nothing but punctuation, symbols or emoji: no label can be
		// equal to it or contain it.
		return Option{}, TierNone, false
	}
	var spare [MaxOptions]string
	labels := normalizeLabels(spare[:0], options)
	// Rule: "Normalised label equality". norm is not empty here, so a
	// label that normalises to nothing cannot equal it.
	if i, count := pickIndex(len(options), func(i int) bool { return labels[i] == norm }); count > 0 {
		return decide(options, i, count, TierLabel)
	}
	// Rule: "Unique whole-token containment, either direction, with a
	// minimum length".
	if i, count := tokenCandidates(norm, labels); count > 0 {
		return decide(options, i, count, TierToken)
	}
	return Option{}, TierNone, false
}

// tokenCandidates counts the options the token tier accepts and returns
// the index of the last. Rule: "Unique whole-token containment, either
// direction, with a minimum length".
//
// An option is a candidate when its label's tokens all appear in the reply
// ("I'd like the Solution Architect role" holds "solution architect"), or
// the reply's tokens all appear in the label (a bare "architect"). Either
// way every token of the contained side must be found, short ones
// included, and that side needs one token of at least minTokenRunes: so
// "N/A" and "IT" decide nothing, "POD-40" is not inside "POD-401", and
// "the architect" is not a bare "architect" (a clean unanswered beats a
// guess). Rule: "no abbreviation or synonym expansion".
func tokenCandidates(norm string, labels []string) (idx, count int) {
	replyTokens := newTokenSet(norm)
	for i, label := range labels {
		if label == "" {
			continue
		}
		if replyTokens.containsAll(label) || (tokenSet{text: label}).containsAll(norm) {
			idx = i
			count++
		}
	}
	return idx, count
}

// normalizeLabels appends every option's label in normal form to dst. They
// are written into one buffer and cut from a single string, one allocation
// for the whole list.
func normalizeLabels(dst []string, options []Option) []string {
	var bufSpace [1024]byte
	var endSpace [MaxOptions]int
	buf, ends := bufSpace[:0], endSpace[:0]
	for _, o := range options {
		buf = appendNormal(buf, o.Label)
		ends = append(ends, len(buf))
	}
	all := string(buf)
	from := 0
	for _, end := range ends {
		dst = append(dst, all[from:end])
		from = end
	}
	return dst
}

// decide turns a tier's candidates into Match's result: one is the
// winner, more is a tie that ends matching.
func decide(options []Option, i, count, tier int) (Option, int, bool) {
	if count == 1 {
		return options[i], tier, true
	}
	return Option{}, tier, false
}

// pick counts the options f accepts and returns the index of the last.
func pick(options []Option, f func(Option) bool) (idx, count int) {
	return pickIndex(len(options), func(i int) bool { return f(options[i]) })
}

// pickIndex counts the indexes below n that f accepts and returns the
// last of them.
func pickIndex(n int, f func(int) bool) (idx, count int) {
	for i := range n {
		if f(i) {
			idx = i
			count++
		}
	}
	return idx, count
}

// parseSlot reads a trimmed message as a slot number: one or more ASCII
// digits, optionally followed by a single ".". isNum is false for anything
// else. Values too large to be a slot come back as -1 rather than
// overflowing.
func parseSlot(s string) (n int, isNum bool) {
	s = strings.TrimSuffix(s, ".")
	if s == "" {
		return 0, false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		if n >= 0 {
			n = n*10 + int(c-'0')
			if n > 1_000_000 {
				n = -1
			}
		}
	}
	return n, true
}
