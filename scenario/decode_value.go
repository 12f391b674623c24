package scenario

import (
	"encoding/json"
	"fmt"
	"strconv"

	"go.yaml.in/yaml/v3"
)

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
