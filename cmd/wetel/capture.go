package main

import (
	"bytes"
	"encoding/json"
	"sync"

	"github.com/wetel/wetel/engine"
	"github.com/wetel/wetel/graph"
	"github.com/wetel/wetel/node"
	"github.com/wetel/wetel/vocab"
)

// capture records, per run, what `wetel run` shows beyond the stored run:
// the value each completed node wrote to its output variables and the
// run's context when it finished. Offline the user owns the whole context,
// so nothing is held back; the server never records either (seed 000: a
// paused run's stored context is not exposed over the API).
type capture struct {
	outVars map[string][]string // node id → the variables it writes

	mu   sync.Mutex
	runs map[int64]*runCapture
}

type runCapture struct {
	outputs []nodeOutput // one per COMPLETED dispatch, in order
	vars    json.RawMessage
}

type nodeOutput struct {
	nodeID string
	values json.RawMessage // {"var": value, ...}; nil when the node wrote none
}

func newCapture(g *graph.Graph, reg *node.Registry) *capture {
	c := &capture{outVars: map[string][]string{}, runs: map[int64]*runCapture{}}
	for _, n := range g.Nodes {
		spec, ok := reg.Lookup(n.Type)
		// A question's saveAs is written when the next message resumes the
		// run, not by the row that asked: it shows in the resumed run's vars.
		if !ok || spec.Pauses {
			continue
		}
		var cfg map[string]any
		_ = json.Unmarshal(n.Config, &cfg)
		c.outVars[n.ID] = variableNames(spec.Fields, cfg, nil)
	}
	return c
}

// variableNames collects the values of the fields whose format names a
// variable the node writes, at any depth (set_variable's assignments[].var).
func variableNames(fields []node.Field, cfg map[string]any, out []string) []string {
	for _, f := range fields {
		v, ok := cfg[f.Name]
		if !ok {
			continue
		}
		switch {
		case f.Format == node.FormatVariable:
			if s, ok := v.(string); ok && s != "" {
				out = append(out, s)
			}
		case f.Kind == node.KindObject:
			if m, ok := v.(map[string]any); ok {
				out = variableNames(f.Fields, m, out)
			}
		case f.Kind == node.KindArray && f.Items != nil:
			items, _ := v.([]any)
			for _, it := range items {
				if m, ok := it.(map[string]any); ok {
					out = variableNames(f.Items.Fields, m, out)
				}
			}
		}
	}
	return out
}

// observe is the offline turn service's Observer.
func (c *capture) observe(_, _ int64, e engine.Event) {
	switch {
	case e.Kind == engine.EventNodeCompleted && e.Status == vocab.TraceCompleted:
		o := nodeOutput{nodeID: e.NodeID}
		written := map[string]any{}
		for _, name := range c.outVars[e.NodeID] {
			if v, ok := e.Vars[name]; ok {
				written[name] = v
			}
		}
		if len(written) > 0 {
			o.values = marshalValue(written)
		}
		c.mu.Lock()
		r := c.run(e.RunID)
		r.outputs = append(r.outputs, o)
		c.mu.Unlock()
	case e.Kind == engine.EventRunFinished:
		// Encoded now: the map belongs to the run, and a resumed run's
		// snapshot starts from it.
		b := marshalValue(e.Vars)
		c.mu.Lock()
		c.run(e.RunID).vars = b
		c.mu.Unlock()
	}
}

func (c *capture) run(id int64) *runCapture {
	r := c.runs[id]
	if r == nil {
		r = &runCapture{}
		c.runs[id] = r
	}
	return r
}

// annotate returns the run's trace with an "output" member on each
// COMPLETED row whose node wrote its output variables, and the run's
// variables; both are as recorded while it ran.
func (c *capture) annotate(runID int64, trace json.RawMessage) (json.RawMessage, json.RawMessage) {
	if c == nil {
		return trace, nil
	}
	c.mu.Lock()
	r := c.runs[runID]
	c.mu.Unlock()
	if r == nil {
		return trace, nil
	}
	var rows []json.RawMessage
	if err := json.Unmarshal(trace, &rows); err != nil {
		return trace, r.vars
	}
	next := 0
	for i, row := range rows {
		var head struct{ NodeID, Status string }
		if json.Unmarshal(row, &head) != nil || head.Status != vocab.TraceCompleted || next >= len(r.outputs) {
			continue
		}
		o := r.outputs[next]
		next++
		if o.nodeID != head.NodeID || o.values == nil {
			continue
		}
		rows[i] = withMember(row, "output", o.values)
	}
	out, err := json.Marshal(rows)
	if err != nil {
		return trace, r.vars
	}
	return out, r.vars
}

// withMember appends "name": value to a JSON object, keeping its members'
// order (the seed's field order of a trace row).
func withMember(obj json.RawMessage, name string, value json.RawMessage) json.RawMessage {
	obj = bytes.TrimSpace(obj)
	if len(obj) < 2 || obj[len(obj)-1] != '}' {
		return obj
	}
	var b bytes.Buffer
	b.Write(obj[:len(obj)-1])
	if len(bytes.TrimSpace(obj[1:len(obj)-1])) > 0 {
		b.WriteByte(',')
	}
	key, _ := json.Marshal(name)
	b.Write(key)
	b.WriteByte(':')
	b.Write(value)
	b.WriteByte('}')
	return b.Bytes()
}

func marshalValue(v any) json.RawMessage {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		b, _ := json.Marshal(err.Error())
		return b
	}
	return bytes.TrimSpace(b.Bytes())
}
