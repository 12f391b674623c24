package scenario

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/wetel/wetel/vocab"
)

func (d *decoder) expect(n *yaml.Node, at string) Expect {
	var e Expect
	m := d.fields(n, at, "status", "errorCode", "path", "messages", "vars", "trace", "sessionEnded")
	if m == nil {
		return e
	}
	if v := m["status"]; v != nil {
		e.Status = d.str(v, at+".status")
		if !contains(vocab.RunStatuses, e.Status) {
			d.fail(v, at+".status", "unknown run status %q; one of %s", e.Status, strings.Join(vocab.RunStatuses, ", "))
		}
	}
	e.ErrorCode = d.str(m["errorCode"], at+".errorCode")
	if v := m["path"]; v != nil {
		e.HasPath = true
		e.Path = d.strings(v, at+".path")
	}
	if v := m["messages"]; v != nil {
		e.HasMessages = true
		for i, mn := range d.seq(v, at+".messages") {
			e.Messages = append(e.Messages, d.textMatch(mn, fmt.Sprintf("%s.messages[%d]", at, i)))
		}
	}
	if v := m["vars"]; v != nil {
		raw := d.json(v, at+".vars")
		if raw != nil {
			if err := json.Unmarshal(raw, &e.Vars); err != nil || e.Vars == nil {
				d.fail(v, at+".vars", "want a mapping of variable name to expected value")
			}
		}
	}
	for i, tn := range d.seq(m["trace"], at+".trace") {
		p := fmt.Sprintf("%s.trace[%d]", at, i)
		tm := d.fields(tn, p, "node", "status", "errorClass")
		if tm == nil {
			continue
		}
		row := TraceMatch{Node: d.str(tm["node"], p+".node"), Status: d.str(tm["status"], p+".status"), ErrorClass: d.str(tm["errorClass"], p+".errorClass")}
		if row.Node == "" {
			d.fail(tn, p+".node", "is required: the id of the node whose row this is")
		}
		e.Trace = append(e.Trace, row)
	}
	if v := m["sessionEnded"]; v != nil {
		b := d.boolean(v, at+".sessionEnded")
		e.SessionEnded = &b
	}
	return e
}

// textMatch reads a message matcher: a plain string is an exact match.
func (d *decoder) textMatch(n *yaml.Node, at string) TextMatch {
	n = resolve(n)
	if n.Kind == yaml.ScalarNode {
		s := n.Value
		return TextMatch{Exact: &s}
	}
	var tm TextMatch
	m := d.fields(n, at, "exact", "contains", "matches", "mood")
	if m == nil {
		return tm
	}
	given := 0
	if v := m["exact"]; v != nil {
		s := d.str(v, at+".exact")
		tm.Exact, given = &s, given+1
	}
	if v := m["contains"]; v != nil {
		tm.Contains, given = d.str(v, at+".contains"), given+1
		if tm.Contains == "" {
			d.fail(v, at+".contains", "is empty: it would match any message")
		}
	}
	if v := m["matches"]; v != nil {
		given++
		re, err := regexp.Compile(d.str(v, at+".matches"))
		if err != nil {
			d.fail(v, at+".matches", "not a regular expression (Go RE2 syntax): %v", err)
		}
		tm.Matches = re
	}
	tm.Mood = d.str(m["mood"], at+".mood")
	if given > 1 {
		d.fail(n, at, "give one of exact, contains and matches")
	}
	return tm
}
