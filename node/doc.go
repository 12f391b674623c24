package node

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Markdown renders a node type's reference page from its spec.
func Markdown(s *Spec) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\n%s\n\n%s\n\n", s.Type, s.Summary, s.Description)
	b.WriteString("## Config\n\n| Field | Type | Required | Default | Description |\n|---|---|---|---|---|\n")
	for _, f := range s.Fields {
		writeFieldRows(&b, "", f)
	}
	b.WriteString("\n## Edges\n\n")
	b.WriteString(routingText(s))
	b.WriteString("\n\nAny node may also have one edge labeled `loop_exhausted`, taken at most once per run when the node has used up its maxVisits and the graph reaches it again.\n")
	b.WriteString("\n## Where it runs\n\n" + RunsText(s) + "\n")
	b.WriteString("\n## Capabilities\n\n")
	fmt.Fprintf(&b, "- mockResponse / mockError: %s\n- failure edges (success / failure): %s\n- retry policy: %s\n", yesNo(s.Mockable), yesNo(s.FailureEdges), yesNo(s.Retry))
	if len(s.Examples) > 0 {
		b.WriteString("\n## Example\n\n```json\n")
		var v any
		_ = json.Unmarshal(s.Examples[0], &v)
		pretty, _ := json.MarshalIndent(v, "", "  ")
		b.Write(pretty)
		b.WriteString("\n```\n")
	}
	return b.String()
}

func writeFieldRows(b *strings.Builder, prefix string, f Field) {
	name := prefix + f.Name
	typ := string(f.Kind)
	if f.Format != FormatPlain {
		typ += " (" + string(f.Format) + ")"
	}
	if len(f.Enum) > 0 {
		typ += ": " + strings.Join(f.Enum, ", ")
	}
	def := ""
	if f.Default != nil {
		d, _ := json.Marshal(f.Default)
		def = "`" + string(d) + "`"
	}
	req := ""
	if f.Required {
		req = "yes"
	}
	fmt.Fprintf(b, "| `%s` | %s | %s | %s | %s |\n", name, typ, req, def, strings.ReplaceAll(f.Description, "|", "\\|"))
	sub := f.Fields
	child := name + "."
	if f.Items != nil {
		sub, child = f.Items.Fields, name+"[]."
	}
	for _, s := range sub {
		writeFieldRows(b, child, s)
	}
}

func routingText(s *Spec) string {
	switch s.Routing {
	case RouteValue:
		return "Each edge's label is matched by plain string equality against the variable's value; unmatched values go to defaultTarget."
	case RouteBool:
		return "Exactly two edges, labeled `true` and `false`."
	case RouteCase:
		return "One edge per case label, plus exactly one labeled `default`."
	case RouteOutcome:
		return "Edges labeled with the node's outcome: `" + strings.Join(s.Outcomes, "`, `") + "`."
	}
	if s.FailureEdges {
		return "Unlabeled edges are followed unconditionally. Give the node one edge labeled `success` and one labeled `failure` to keep the conversation going when it fails: it then follows only those."
	}
	return "Every outgoing edge is followed, whatever its label."
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}
