package graph

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/wetel/wetel/internal/jsonpos"
)

// Decode reads a graph document strictly: unknown fields anywhere in the
// envelope, trailing data and oversized documents are refused with an error
// that names where the problem is. Node configs are kept raw; the save checks
// read them against each type's spec.
func Decode(data []byte) (*Graph, error) {
	if len(data) > MaxDocumentBytes {
		return nil, fmt.Errorf("graph document is %d bytes, exceeding the maximum of %d", len(data), MaxDocumentBytes)
	}
	var doc struct {
		Nodes []json.RawMessage `json:"nodes"`
		Edges []json.RawMessage `json:"edges"`
	}
	// No "graph:" prefix: every caller names what it decoded, and the API
	// already says "graph: ".
	if err := strictUnmarshal(data, nil, data, &doc); err != nil {
		return nil, err
	}
	// Counting before decoding each entry keeps a hostile document from
	// costing more than the cap allows; the exact message is the save check's.
	if len(doc.Nodes) > MaxNodes*4 || len(doc.Edges) > MaxEdges*4 {
		return nil, fmt.Errorf("graph has %d nodes and %d edges, far beyond the maximum of %d and %d", len(doc.Nodes), len(doc.Edges), MaxNodes, MaxEdges)
	}
	g := &Graph{Nodes: make([]Node, len(doc.Nodes)), Edges: make([]Edge, len(doc.Edges))}
	for i, raw := range doc.Nodes {
		if err := strictUnmarshal(data, elementAt("nodes", i), raw, &g.Nodes[i]); err != nil {
			return nil, fmt.Errorf("nodes[%d]: %w", i, err)
		}
		n := &g.Nodes[i]
		cfg := bytes.TrimSpace(n.Config)
		switch {
		case len(cfg) == 0 || bytes.Equal(cfg, []byte("null")):
			n.Config = json.RawMessage("{}")
		case cfg[0] != '{':
			return nil, fmt.Errorf("nodes[%d] (%q): config must be a JSON object", i, n.ID)
		default:
			n.Config = cfg
		}
	}
	for i, raw := range doc.Edges {
		if err := strictUnmarshal(data, elementAt("edges", i), raw, &g.Edges[i]); err != nil {
			return nil, fmt.Errorf("edges[%d]: %w", i, err)
		}
	}
	return g, nil
}

// elementAt names element i of the array under key of the document, the
// part an error was found in.
type element struct {
	key string
	i   int
}

func elementAt(key string, i int) *element { return &element{key, i} }

// strictUnmarshal decodes part of the whole document (all of it when at is
// nil) and says at which line and column of the document a JSON error is.
// Where an element starts is looked for only once it has failed.
func strictUnmarshal(whole []byte, at *element, part []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(part))
	dec.DisallowUnknownFields()
	err := dec.Decode(v)
	end := dec.InputOffset()
	if err == nil {
		if _, tail := dec.Token(); errors.Is(tail, io.EOF) {
			return nil
		}
	}
	var base int64
	if at != nil {
		base, _ = jsonpos.ElementOffset(whole, at.key, at.i)
	}
	if err != nil {
		return jsonpos.Locate(whole, base, err, explainJSON(err))
	}
	end += int64(len(part[end:]) - len(bytes.TrimLeft(part[end:], " \t\r\n")))
	line, col := jsonpos.Position(whole, base+end+1)
	return &jsonpos.Error{Line: line, Column: col, Err: errors.New("unexpected data after the JSON value")}
}

// explainJSON turns encoding/json's messages into ones that name the field.
func explainJSON(err error) error {
	var typeErr *json.UnmarshalTypeError
	if errors.As(err, &typeErr) {
		return fmt.Errorf("field %q must be %s, not a JSON %s", typeErr.Field, goTypeName(typeErr.Type.Kind().String()), typeErr.Value)
	}
	msg := err.Error()
	if rest, ok := strings.CutPrefix(msg, "json: unknown field "); ok {
		return fmt.Errorf("unknown field %s", rest)
	}
	if errors.Is(err, io.EOF) {
		return errors.New("empty document")
	}
	return fmt.Errorf("not valid JSON: %s", strings.TrimPrefix(msg, "json: "))
}

func goTypeName(kind string) string {
	switch kind {
	case "string":
		return "a string"
	case "float64", "float32", "int", "int64":
		return "a number"
	case "slice":
		return "an array"
	case "struct", "map", "ptr":
		return "an object"
	}
	return kind
}
