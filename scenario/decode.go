package scenario

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/wetel/wetel/failure"
	"github.com/wetel/wetel/internal/jsonpos"
	"github.com/wetel/wetel/vocab"
)

// maxErrors bounds the problems one file reports.
const maxErrors = 20

// maxValues bounds the values in one mock or expectation, aliases expanded.
const maxValues = 100_000

// maxDepth bounds how deep a value (a mock, an expected variable) nests.
const maxDepth = 64

// Load reads and parses a scenario file.
func Load(path string) (*File, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var b bytes.Buffer
	if _, err := b.ReadFrom(io.LimitReader(f, MaxFileBytes+1)); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if b.Len() > MaxFileBytes {
		return nil, fmt.Errorf("%s: the file is over %d bytes", path, MaxFileBytes)
	}
	return Parse(path, b.Bytes())
}

// Parse decodes a scenario from YAML or JSON (a .json name is held to JSON
// syntax first). Decoding is strict: an unknown or repeated field, a value
// of the wrong kind, and a rule broken are each reported with the file, the
// line and column, and the field's path, as in
// "shipping.yaml:12:7: turns[1].expect.statu: unknown field; known: ...".
func Parse(path string, data []byte) (*File, error) {
	if len(data) > MaxFileBytes {
		return nil, fmt.Errorf("%s: the file is over %d bytes", path, MaxFileBytes)
	}
	if strings.EqualFold(filepath.Ext(path), ".json") {
		if err := jsonpos.Check(data); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
	}
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	d := &decoder{path: path}
	f := &File{Path: path, Clock: DefaultClock}
	if root.Kind != yaml.DocumentNode || len(root.Content) == 0 {
		return nil, fmt.Errorf("%s: the file is empty: a scenario needs a graph and turns", path)
	}
	d.file(root.Content[0], f)
	if len(d.errs) > 0 {
		sort.Stable(byLine{d})
		return nil, errors.Join(d.errs...)
	}
	if f.Name == "" {
		f.Name = strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	}
	return f, nil
}

type decoder struct {
	path string
	errs []error
	at   []int // the line of each error, to report them in file order
}

func (d *decoder) fail(n *yaml.Node, field, format string, args ...any) {
	if len(d.errs) >= maxErrors {
		return
	}
	d.errs = append(d.errs, fmt.Errorf("%s:%d:%d: %s: %s", d.path, n.Line, n.Column, field, fmt.Sprintf(format, args...)))
	d.at = append(d.at, n.Line)
}

// fields checks that n is a mapping whose keys are all known and unique, and
// returns the value of each key present.
func (d *decoder) fields(n *yaml.Node, at string, known ...string) map[string]*yaml.Node {
	n = resolve(n)
	if n.Kind != yaml.MappingNode {
		d.fail(n, at, "want a mapping with the fields %s, got %s", strings.Join(known, ", "), kindName(n))
		return nil
	}
	out := map[string]*yaml.Node{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		name := k.Value
		switch {
		case !contains(known, name):
			d.fail(k, join(at, name), "unknown field; known: %s", strings.Join(known, ", "))
		case out[name] != nil:
			d.fail(k, join(at, name), "given twice")
		default:
			out[name] = v
		}
	}
	return out
}

func (d *decoder) file(n *yaml.Node, f *File) {
	m := d.fields(n, "scenario", "name", "graph", "workflow", "clock", "identity", "failureResponse", "mocks", "turns")
	if m == nil {
		return
	}
	f.Name = d.str(m["name"], "name")
	f.Graph = d.str(m["graph"], "graph")
	f.Workflow = d.str(m["workflow"], "workflow")
	f.Identity = d.str(m["identity"], "identity")
	f.FailureResponse = d.str(m["failureResponse"], "failureResponse")
	if v := m["clock"]; v != nil {
		t, err := time.Parse(time.RFC3339, resolve(v).Value)
		if err != nil || resolve(v).Kind != yaml.ScalarNode {
			d.fail(v, "clock", "want an RFC 3339 time such as 2026-01-01T09:00:00Z")
		} else {
			f.Clock = t
		}
	}
	switch {
	case f.Graph == "" && f.Workflow == "":
		d.fail(n, "graph", "is required: the graph file to run, relative to this file")
	case f.Graph != "" && f.Workflow != "":
		d.fail(m["workflow"], "workflow", "give graph or workflow, not both")
	}
	if v := m["mocks"]; v != nil {
		f.Mocks = d.mocks(v)
	}
	t := m["turns"]
	if t == nil {
		d.fail(n, "turns", "is required: at least one turn")
		return
	}
	t = resolve(t)
	if t.Kind != yaml.SequenceNode || len(t.Content) == 0 {
		d.fail(t, "turns", "want a list of at least one turn")
		return
	}
	if len(t.Content) > MaxTurns {
		d.fail(t, "turns", "at most %d turns", MaxTurns)
		return
	}
	for i, tn := range t.Content {
		f.Turns = append(f.Turns, d.turn(tn, fmt.Sprintf("turns[%d]", i)))
	}
}

func (d *decoder) mocks(n *yaml.Node) []Mock {
	n = resolve(n)
	if n.Kind != yaml.MappingNode {
		d.fail(n, "mocks", "want a mapping of node id to {mockResponse: ...} or {mockError: {code, message}}")
		return nil
	}
	var out []Mock
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		id, at := n.Content[i].Value, "mocks."+n.Content[i].Value
		if seen[id] {
			d.fail(n.Content[i], at, "given twice")
			continue
		}
		seen[id] = true
		m := d.fields(n.Content[i+1], at, "mockResponse", "mockError", "sequence")
		if m == nil {
			continue
		}
		mock := d.outcome(n.Content[i+1], m, at)
		mock.Node = id
		if v := m["sequence"]; v != nil {
			if m["mockResponse"] != nil || m["mockError"] != nil {
				d.fail(v, at+".sequence", "give a sequence or one mockResponse or mockError, not both")
			}
			list := d.seq(v, at+".sequence")
			if len(list) == 0 && resolve(v).Kind == yaml.SequenceNode {
				d.fail(v, at+".sequence", "want at least one outcome")
			}
			for j, sn := range list {
				p := fmt.Sprintf("%s.sequence[%d]", at, j)
				if sm := d.fields(sn, p, "mockResponse", "mockError"); sm != nil {
					one := d.outcome(sn, sm, p)
					if (sm["mockResponse"] == nil) == (sm["mockError"] == nil) {
						d.fail(sn, p, "give exactly one of mockResponse and mockError")
					}
					mock.Sequence = append(mock.Sequence, one)
				}
			}
		} else if (m["mockResponse"] == nil) == (m["mockError"] == nil) {
			d.fail(n.Content[i+1], at, "give exactly one of mockResponse, mockError and sequence")
		}
		out = append(out, mock)
	}
	return out
}

// outcome reads the mockResponse or mockError of a mapping.
func (d *decoder) outcome(n *yaml.Node, m map[string]*yaml.Node, at string) Mock {
	var mock Mock
	if v := m["mockResponse"]; v != nil {
		mock.Response = d.json(v, at+".mockResponse")
	}
	if v := m["mockError"]; v != nil {
		mock.Error = d.mockError(v, at+".mockError")
	}
	return mock
}

func (d *decoder) mockError(n *yaml.Node, at string) *MockError {
	m := d.fields(n, at, "code", "message")
	if m == nil {
		return nil
	}
	e := &MockError{Code: d.str(m["code"], at+".code"), Message: d.str(m["message"], at+".message")}
	if _, err := failure.ParseCode(e.Code); err != nil {
		where := m["code"]
		if where == nil {
			where = n
		}
		d.fail(where, at+".code", "%v", err)
	}
	return e
}

func (d *decoder) turn(n *yaml.Node, at string) Turn {
	t := Turn{Line: n.Line}
	m := d.fields(n, at, "message", "identity", "advance", "decision", "expect")
	if m == nil {
		return t
	}
	t.Message = d.str(m["message"], at+".message")
	if v := m["identity"]; v != nil {
		id := d.str(v, at+".identity")
		t.Identity = &id
	}
	if v := m["advance"]; v != nil {
		dur, err := time.ParseDuration(resolve(v).Value)
		if err != nil || dur < 0 || resolve(v).Kind != yaml.ScalarNode {
			d.fail(v, at+".advance", "want a duration to move the clock forward, such as 25h or 90s")
		}
		t.Advance = dur
	}
	if v := m["decision"]; v != nil {
		dm := d.fields(v, at+".decision", "approve", "note")
		if dm != nil {
			t.Decision = &Decision{Approve: d.boolean(dm["approve"], at+".decision.approve"), Note: d.str(dm["note"], at+".decision.note")}
			if dm["approve"] == nil {
				d.fail(v, at+".decision.approve", "is required: true approves, false rejects")
			}
		}
		if m["message"] != nil {
			d.fail(v, at+".decision", "a turn sends a message or decides an approval, not both")
		}
	}
	if v := m["expect"]; v != nil {
		t.Expect = d.expect(v, at+".expect")
	}
	return t
}

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

func (d *decoder) seq(n *yaml.Node, at string) []*yaml.Node {
	if n == nil {
		return nil
	}
	n = resolve(n)
	if n.Kind != yaml.SequenceNode {
		d.fail(n, at, "want a list, got %s", kindName(n))
		return nil
	}
	return n.Content
}

func (d *decoder) strings(n *yaml.Node, at string) []string {
	out := []string{}
	for i, s := range d.seq(n, at) {
		out = append(out, d.str(s, fmt.Sprintf("%s[%d]", at, i)))
	}
	return out
}

// str reads a scalar as text: `message: 2` sends "2".
func (d *decoder) str(n *yaml.Node, at string) string {
	if n == nil {
		return ""
	}
	n = resolve(n)
	if n.Kind != yaml.ScalarNode || n.Tag == "!!null" {
		d.fail(n, at, "want text, got %s", kindName(n))
		return ""
	}
	return n.Value
}

func (d *decoder) boolean(n *yaml.Node, at string) bool {
	if n == nil {
		return false
	}
	n = resolve(n)
	b, err := strconv.ParseBool(n.Value)
	if n.Kind != yaml.ScalarNode || n.Tag != "!!bool" || err != nil {
		d.fail(n, at, "want true or false")
	}
	return b
}

// json reads any value as JSON: what a mockResponse or an expected
// variable holds.
func (d *decoder) json(n *yaml.Node, at string) json.RawMessage {
	budget := maxValues
	v, err := toValue(n, 0, &budget)
	if err != nil {
		d.fail(n, at, "%v", err)
		return nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		d.fail(n, at, "not representable as JSON: %v", err)
		return nil
	}
	return b
}

// toValue converts a YAML value to the JSON data model by hand, so keys
// are always strings and numbers keep their text.
// budget counts the values left to read: aliases can make a small file
// name an exponentially large value.
func toValue(n *yaml.Node, depth int, budget *int) (any, error) {
	if depth > maxDepth {
		return nil, fmt.Errorf("nested deeper than %d levels", maxDepth)
	}
	if *budget--; *budget < 0 {
		return nil, fmt.Errorf("more than %d values", maxValues)
	}
	n = resolve(n)
	switch n.Kind {
	case yaml.MappingNode:
		m := make(map[string]any, len(n.Content)/2)
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := resolve(n.Content[i])
			if k.Kind != yaml.ScalarNode {
				return nil, fmt.Errorf("line %d: a key must be text", k.Line)
			}
			if _, dup := m[k.Value]; dup {
				return nil, fmt.Errorf("line %d: key %q given twice", k.Line, k.Value)
			}
			v, err := toValue(n.Content[i+1], depth+1, budget)
			if err != nil {
				return nil, err
			}
			m[k.Value] = v
		}
		return m, nil
	case yaml.SequenceNode:
		out := make([]any, 0, len(n.Content))
		for _, c := range n.Content {
			v, err := toValue(c, depth+1, budget)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return out, nil
	case yaml.ScalarNode:
		return scalar(n)
	}
	return nil, fmt.Errorf("line %d: not a value", n.Line)
}

func scalar(n *yaml.Node) (any, error) {
	switch n.Tag {
	case "!!null":
		return nil, nil
	case "!!bool":
		return strconv.ParseBool(n.Value)
	case "!!int", "!!float":
		var f float64
		if err := n.Decode(&f); err != nil {
			return nil, fmt.Errorf("line %d: %q is not a number", n.Line, n.Value)
		}
		if f != f || f > 1e308 || f < -1e308 {
			return nil, fmt.Errorf("line %d: %q is not a finite number", n.Line, n.Value)
		}
		return f, nil
	}
	return n.Value, nil
}

// resolve follows an alias to the node it names.
func resolve(n *yaml.Node) *yaml.Node {
	for i := 0; n.Kind == yaml.AliasNode && n.Alias != nil && i < maxDepth; i++ {
		n = n.Alias
	}
	return n
}

func kindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		if n.Tag == "!!null" {
			return "null"
		}
		return fmt.Sprintf("%q", n.Value)
	}
	return "nothing"
}

type byLine struct{ d *decoder }

func (b byLine) Len() int           { return len(b.d.errs) }
func (b byLine) Less(i, j int) bool { return b.d.at[i] < b.d.at[j] }
func (b byLine) Swap(i, j int) {
	b.d.errs[i], b.d.errs[j] = b.d.errs[j], b.d.errs[i]
	b.d.at[i], b.d.at[j] = b.d.at[j], b.d.at[i]
}

func join(at, name string) string {
	if at == "scenario" {
		return name
	}
	return at + "." + name
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
