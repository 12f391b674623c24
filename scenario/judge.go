package scenario

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

// Judge compares what a turn did with what it was expected to do and
// returns one readable paragraph per expectation not met.
func Judge(e Expect, o Observed) []string {
	var out []string
	last := Run{}
	if len(o.Runs) > 0 {
		last = o.Runs[len(o.Runs)-1]
	}
	if e.Status != "" && e.Status != last.Status {
		p := fmt.Sprintf("status: expected %s, got %s", e.Status, orNone(last.Status))
		if last.ErrorCode != "" || last.Error != "" {
			p += fmt.Sprintf(" (%s: %s)", last.ErrorCode, last.Error)
		}
		out = append(out, p)
	}
	if e.ErrorCode != "" && e.ErrorCode != last.ErrorCode {
		out = append(out, fmt.Sprintf("errorCode: expected %s, got %s", e.ErrorCode, orNone(last.ErrorCode)))
	}
	if e.HasPath {
		if p := comparePath(e.Path, Path(o)); p != "" {
			out = append(out, p)
		}
	}
	if e.HasMessages {
		out = append(out, compareMessages(e.Messages, o.Messages)...)
	}
	if e.Vars != nil {
		var diffs []string
		names := make([]string, 0, len(e.Vars))
		for k := range e.Vars {
			names = append(names, k)
		}
		sort.Strings(names)
		for _, k := range names {
			got, ok := last.Vars[k]
			if !ok {
				diffs = append(diffs, fmt.Sprintf("  %s: expected %s, but the run has no such variable", k, show(e.Vars[k])))
				continue
			}
			diffs = subset(k, e.Vars[k], got, diffs)
		}
		if len(diffs) > 0 {
			out = append(out, "vars after the run differ:\n"+strings.Join(diffs, "\n"))
		}
	}
	if p := compareTrace(e.Trace, o.Runs); p != "" {
		out = append(out, p)
	}
	if e.SessionEnded != nil && *e.SessionEnded != o.SessionEnded {
		out = append(out, fmt.Sprintf("sessionEnded: expected %t, got %t", *e.SessionEnded, o.SessionEnded))
	}
	return out
}

// Path is the node ids a turn's runs visited, in order.
func Path(o Observed) []string {
	out := []string{}
	for _, r := range o.Runs {
		for _, row := range r.Trace {
			out = append(out, row.NodeID)
		}
	}
	return out
}

// comparePath names the step where the paths part and the node before it.
func comparePath(want, got []string) string {
	i := 0
	for i < len(want) && i < len(got) && want[i] == got[i] {
		i++
	}
	if i == len(want) && i == len(got) {
		return ""
	}
	var what string
	after := "at the start"
	if i > 0 {
		after = "after " + got[i-1]
	}
	switch {
	case i == len(got):
		what = fmt.Sprintf("the run stopped %s; expected %s next", after, want[i])
	case i == len(want):
		what = fmt.Sprintf("the run went on %s to %s; expected it to stop", after, got[i])
	default:
		what = fmt.Sprintf("the paths part %s (step %d): expected %s, got %s", after, i+1, want[i], got[i])
	}
	return fmt.Sprintf("path: %s\n  expected: %s\n  actual:   %s", what, arrows(want), arrows(got))
}

func arrows(p []string) string {
	if len(p) == 0 {
		return "(no nodes)"
	}
	return strings.Join(p, " → ")
}

func compareMessages(want []TextMatch, got []Message) []string {
	var out []string
	for i := 0; i < len(want) || i < len(got); i++ {
		switch {
		case i >= len(got):
			out = append(out, fmt.Sprintf("message %d: expected %s, but the turn said only %d message(s)", i+1, want[i], len(got)))
		case i >= len(want):
			out = append(out, fmt.Sprintf("message %d: not expected, the turn said %q", i+1, got[i].Text))
		default:
			if why := want[i].miss(got[i]); why != "" {
				out = append(out, fmt.Sprintf("message %d: expected %s, %s\n  got: %q", i+1, want[i], why, got[i].Text))
			}
		}
	}
	return out
}

// String describes the matcher, for a report.
func (m TextMatch) String() string {
	var s string
	switch {
	case m.Exact != nil:
		s = fmt.Sprintf("exactly %q", *m.Exact)
	case m.Contains != "":
		s = fmt.Sprintf("text containing %q", m.Contains)
	case m.Matches != nil:
		s = fmt.Sprintf("text matching /%s/", m.Matches)
	default:
		s = "a message"
	}
	if m.Mood != "" {
		s += fmt.Sprintf(" with mood %q", m.Mood)
	}
	return s
}

// miss says why the message does not match, or "" when it does.
func (m TextMatch) miss(msg Message) string {
	switch {
	case m.Exact != nil && msg.Text != *m.Exact:
		return "but the text differs" + firstDifference(*m.Exact, msg.Text)
	case m.Contains != "" && !strings.Contains(msg.Text, m.Contains):
		return "but it does not contain it"
	case m.Matches != nil && !m.Matches.MatchString(msg.Text):
		return "but it does not match"
	case m.Mood != "" && m.Mood != msg.Mood:
		return fmt.Sprintf("but the mood is %q", msg.Mood)
	}
	return ""
}

// firstDifference points at the first character where two texts differ.
func firstDifference(want, got string) string {
	w, g := []rune(want), []rune(got)
	i := 0
	for i < len(w) && i < len(g) && w[i] == g[i] {
		i++
	}
	return fmt.Sprintf(" from character %d (expected %q, got %q)", i+1, clip(w[i:]), clip(g[i:]))
}

func clip(r []rune) string {
	if len(r) > 24 {
		return string(r[:24]) + "…"
	}
	return string(r)
}

// subset reports where got does not contain want: objects member by
// member (extra members of got allowed), arrays of the same length element
// by element, anything else equal as JSON.
func subset(at string, want, got any, diffs []string) []string {
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			return append(diffs, fmt.Sprintf("  %s: expected an object containing %s, got %s", at, show(want), show(got)))
		}
		keys := make([]string, 0, len(w))
		for k := range w {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			gv, ok := g[k]
			if !ok {
				diffs = append(diffs, fmt.Sprintf("  %s.%s: expected %s, but it is missing", at, k, show(w[k])))
				continue
			}
			diffs = subset(at+"."+k, w[k], gv, diffs)
		}
		return diffs
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			return append(diffs, fmt.Sprintf("  %s: expected %s, got %s", at, show(want), show(got)))
		}
		for i := range w {
			diffs = subset(fmt.Sprintf("%s[%d]", at, i), w[i], g[i], diffs)
		}
		return diffs
	}
	if show(want) != show(got) {
		diffs = append(diffs, fmt.Sprintf("  %s: expected %s, got %s", at, show(want), show(got)))
	}
	return diffs
}

// show renders a value as compact JSON; numbers compare by their JSON form.
func show(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	if len(b) > 200 {
		return string(b[:200]) + "…"
	}
	return string(b)
}

// compareTrace finds each expected row in order among the turn's rows.
func compareTrace(want []TraceMatch, runs []Run) string {
	var rows []TraceRow
	for _, r := range runs {
		rows = append(rows, r.Trace...)
	}
	next := 0
	for _, w := range want {
		found := -1
		for i := next; i < len(rows); i++ {
			if w.matches(rows[i]) {
				found = i
				break
			}
		}
		if found < 0 {
			return fmt.Sprintf("trace: no row %s (in order, after the rows already matched)\n  rows: %s", w, showRows(rows))
		}
		next = found + 1
	}
	return ""
}

func (w TraceMatch) matches(r TraceRow) bool {
	return r.NodeID == w.Node && (w.Status == "" || w.Status == r.Status) && (w.ErrorClass == "" || w.ErrorClass == r.ErrorClass)
}

// String describes the expected row.
func (w TraceMatch) String() string {
	s := "of node " + w.Node
	if w.Status != "" {
		s += " with status " + w.Status
	}
	if w.ErrorClass != "" {
		s += " and errorClass " + w.ErrorClass
	}
	return s
}

func showRows(rows []TraceRow) string {
	if len(rows) == 0 {
		return "(none)"
	}
	parts := make([]string, len(rows))
	for i, r := range rows {
		parts[i] = r.NodeID + " " + r.Status
		if r.ErrorClass != "" {
			parts[i] += " " + r.ErrorClass
		}
	}
	return strings.Join(parts, ", ")
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}
