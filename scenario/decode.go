package scenario

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/wetel/wetel/failure"
	"github.com/wetel/wetel/internal/jsonpos"
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
