package all_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/wetel/wetel/engine"
	"github.com/wetel/wetel/graph"
	"github.com/wetel/wetel/node"
	"github.com/wetel/wetel/vocab"
)

// A new node type is its own package plus a line in the registry list
// (node/all). These scratch types stand in for such a package: each is a
// Spec registered into a clone of the default registry, and nothing in
// graph/, engine/ or the docs generator is edited for it, yet the save and
// publish checks run its rules, the diagnostics know its labels, the
// reference pages and the schema include it, and a run routes through it.
//
// The pausing case (a type whose Execute returns a pause of its own kind and
// whose Spec's Resume hook picks the edge on the next input) needs a store
// to pause into, so it lives with the turns: turn/newtype_test.go.

// greet is a plain type: it says hello and follows every edge.
func greetSpec() *node.Spec {
	return &node.Spec{
		Type:     "greet",
		Summary:  "Says hello.",
		Routing:  node.RouteAll,
		Runs:     node.OnServer | node.Offline,
		Fields:   []node.Field{{Name: "name", Kind: node.KindString, Required: true, MaxLength: 64, Description: "Who to greet."}},
		Examples: node.Examples(`{"name": "Ada"}`),
		Build: func(b node.BuildInput) (node.Executor, error) {
			var cfg struct{ Name string }
			if err := b.Decode(&cfg); err != nil {
				return nil, err
			}
			return node.ExecutorFunc(func(_ context.Context, x *node.Exec) (node.Outcome, error) {
				x.Say("Hello "+cfg.Name, "")
				return node.Outcome{}, nil
			}), nil
		},
	}
}

// CodeVoteEdges is the scratch type's own problem code, declared with it.
const CodeVoteEdges = "VOTE_EDGES"

// vote routes on its outcome, yes or no, and carries its own edge-label
// rule: a vote needs a 'yes' edge, and a 'no' one unless it is unanimous.
func voteSpec() *node.Spec {
	return &node.Spec{
		Type:     "vote",
		Summary:  "Routes yes when the ballot variable is true.",
		Routing:  node.RouteOutcome,
		Outcomes: []string{"yes", "no"},
		Runs:     node.OnServer,
		Fields: []node.Field{
			{Name: "ballot", Kind: node.KindString, Format: node.FormatPath, Required: true, MaxLength: 64, Description: "Dot path of the ballot."},
			{Name: "unanimous", Kind: node.KindBoolean, Description: "Only yes counts."},
		},
		Examples: node.Examples(`{"ballot": "agreed"}`),
		Rules: node.Rules{
			Labels: func(n *node.View) []string {
				if n.Bool("unanimous") {
					return []string{"yes"}
				}
				return []string{"yes", "no"}
			},
			Save: func(n *node.View) []node.Problem {
				var out []node.Problem
				for _, l := range []string{"yes", "no"} {
					if l == "no" && n.Bool("unanimous") {
						continue
					}
					if !n.HasLabel(l) {
						out = append(out, node.Problemf(CodeVoteEdges, "", "Vote node %q has no edge labeled '%s'.", n.ID, l))
					}
				}
				return out
			},
		},
		Build: func(b node.BuildInput) (node.Executor, error) {
			var cfg struct{ Ballot string }
			if err := b.Decode(&cfg); err != nil {
				return nil, err
			}
			return node.ExecutorFunc(func(_ context.Context, x *node.Exec) (node.Outcome, error) {
				if v, _ := node.Lookup(x.Vars, cfg.Ballot); v == true {
					return node.Outcome{Route: "yes"}, nil
				}
				return node.Outcome{Route: "no"}, nil
			}), nil
		},
	}
}

func scratchRegistry(t *testing.T) *node.Registry {
	t.Helper()
	reg := node.Default.Clone()
	for _, s := range []*node.Spec{greetSpec(), voteSpec()} {
		if err := reg.Add(s); err != nil {
			t.Fatal(err)
		}
	}
	if _, ok := node.Default.Lookup("vote"); ok {
		t.Fatal("the clone leaked into the default registry")
	}
	return reg
}

func nodeJSON(id, typ, cfg string) string {
	return fmt.Sprintf(`{"id":%q,"type":%q,"config":%s}`, id, typ, cfg)
}

func edgeJSON(id, src, dst, label string) string {
	return fmt.Sprintf(`{"id":%q,"source":%q,"target":%q,"label":%q}`, id, src, dst, label)
}

func decodeDoc(t *testing.T, nodes, edges []string) *graph.Graph {
	t.Helper()
	g, err := graph.Decode([]byte(`{"nodes":[` + strings.Join(nodes, ",") + `],"edges":[` + strings.Join(edges, ",") + `]}`))
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func TestNewTypeWithItsOwnEdgeRule(t *testing.T) {
	t.Parallel()
	reg := scratchRegistry(t)
	nodes := func(voteCfg string) []string {
		return []string{nodeJSON("s", "start", `{}`), nodeJSON("v", "vote", voteCfg), nodeJSON("ok", "greet", `{"name":"yes"}`), nodeJSON("nay", "greet", `{"name":"no"}`)}
	}
	cases := []struct {
		name  string
		cfg   string
		edges []string
		want  []string // publish problems, "CODE: message"
	}{
		{"both edges", `{"ballot":"agreed"}`, []string{edgeJSON("e1", "s", "v", ""), edgeJSON("e2", "v", "ok", "yes"), edgeJSON("e3", "v", "nay", "no")}, nil},
		{"no 'no' edge", `{"ballot":"agreed"}`, []string{edgeJSON("e1", "s", "v", ""), edgeJSON("e2", "v", "ok", "yes"), edgeJSON("e3", "s", "nay", "")},
			[]string{`VOTE_EDGES: Vote node "v" has no edge labeled 'no'.`}},
		{"unanimous needs only yes", `{"ballot":"agreed","unanimous":true}`, []string{edgeJSON("e1", "s", "v", ""), edgeJSON("e2", "v", "ok", "yes"), edgeJSON("e3", "s", "nay", "")}, nil},
		{"missing required field too", `{}`, []string{edgeJSON("e1", "s", "v", ""), edgeJSON("e3", "s", "nay", ""), edgeJSON("e4", "s", "ok", "")},
			[]string{`VOTE_EDGES: Vote node "v" has no edge labeled 'yes'.`, `VOTE_EDGES: Vote node "v" has no edge labeled 'no'.`,
				`REQUIRED_FIELD_MISSING: Node "v" (vote) is missing the required config field "ballot".`}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var got []string
			for _, p := range graph.CheckPublish(decodeDoc(t, nodes(tc.cfg), tc.edges), reg) {
				got = append(got, p.Code+": "+p.Message)
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Fatalf("publish problems\n got: %q\nwant: %q", got, tc.want)
			}
		})
	}

	// The diagnostics read its labels from the same rule, and the place
	// from its spec.
	g := decodeDoc(t, append(nodes(`{"ballot":"agreed","unanimous":true}`), nodeJSON("x", "greet", `{"name":"x"}`)),
		[]string{edgeJSON("e1", "s", "v", ""), edgeJSON("e2", "v", "ok", "yes"), edgeJSON("e3", "v", "nay", "no"), edgeJSON("e4", "v", "x", "failure")})
	want := []string{
		`NODE_TYPE_UNAVAILABLE: Node "v": vote nodes are not available offline, so every run that reaches the node fails there; the type has no mock mode to stand in for it.`,
		`BRANCH_NEVER_TAKEN: Edge "e3" out of vote node "v" is labeled "no", which is not one of its outcomes (yes).`,
		`FAILURE_EDGE_ON_UNROUTABLE_NODE: Edge "e4" out of vote node "v" is labeled "failure", but vote routes by its own outcome labels, so it is never taken.`,
	}
	var got []string
	for _, p := range graph.Diagnose(g, reg, graph.At(node.Offline)) {
		got = append(got, p.Code+": "+p.Message)
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("diagnostics\n got: %q\nwant: %q", got, want)
	}

	// A run routes through it with the registry it was added to.
	plan, err := engine.Compile(decodeDoc(t, nodes(`{"ballot":"agreed"}`),
		[]string{edgeJSON("e1", "s", "v", ""), edgeJSON("e2", "v", "ok", "yes"), edgeJSON("e3", "v", "nay", "no")}), reg)
	if err != nil {
		t.Fatal(err)
	}
	eng, _ := engine.New(engine.Options{Place: node.OnServer})
	res := eng.Run(context.Background(), plan, engine.Input{Vars: map[string]any{"agreed": true}})
	if res.Status != vocab.RunCompleted || len(res.Messages) != 1 || res.Messages[0].Text != "Hello yes" {
		t.Fatalf("run %s %+v", res.Status, res.Messages)
	}
}

// The generated docs and schema take a new type from its spec alone.
func TestNewTypeInDocsAndSchema(t *testing.T) {
	t.Parallel()
	reg := scratchRegistry(t)
	index := node.Index(reg)
	for _, row := range []string{"| [`greet`](greet.md) | server, offline | Says hello. |", "| [`vote`](vote.md) | server | Routes yes when the ballot variable is true. |"} {
		if !strings.Contains(index, row) {
			t.Errorf("index lacks %q:\n%s", row, index)
		}
	}
	vote, _ := reg.Lookup("vote")
	page := node.Markdown(vote)
	for _, want := range []string{"# vote\n", "| `ballot` | string (path) | yes |", "Edges labeled with the node's outcome: `yes`, `no`.",
		"## Where it runs\n\nOn the server (`wetel serve`) only; a live run offline fails."} {
		if !strings.Contains(page, want) {
			t.Errorf("vote page lacks %q:\n%s", want, page)
		}
	}
	schemaDoc, _ := json.Marshal(node.Schema(vote))
	parsed, err := jsonschema.UnmarshalJSON(bytesReader(schemaDoc))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("vote.json", parsed); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("vote.json")
	if err != nil {
		t.Fatal(err)
	}
	good, _ := jsonschema.UnmarshalJSON(strings.NewReader(`{"ballot":"agreed","maxVisits":2}`))
	bad, _ := jsonschema.UnmarshalJSON(strings.NewReader(`{"ballot":"agreed","mockResponse":"yes"}`))
	if sch.Validate(good) != nil || sch.Validate(bad) == nil {
		t.Errorf("vote schema: good %v, bad accepted %v", sch.Validate(good), sch.Validate(bad) == nil)
	}
}
