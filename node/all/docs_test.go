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

// The reference pages and their index are generated from the specs; this
// keeps them honest. Run `go test ./node/all -update` after changing a spec.
func TestReferencePagesUpToDate(t *testing.T) {
	dir := filepath.Join("..", "..", "docs", "nodes")
	pages := map[string]string{"README.md": node.Index(node.Default)}
	for _, typ := range node.Default.Types() {
		spec, _ := node.Default.Lookup(typ)
		pages[typ+".md"] = node.Markdown(spec)
	}
	for name, want := range pages {
		path := filepath.Join(dir, name)
		if *update {
			if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		got, err := os.ReadFile(path)
		if err != nil || string(got) != want {
			t.Errorf("%s is out of date with the node specs; run go test ./node/all -update", path)
		}
	}
}

// The seed's 17 types are registered with the capabilities and places the
// seeds and this build give them. A type added beside them changes nothing
// here.
func TestSeventeenNodeTypes(t *testing.T) {
	t.Parallel()
	everywhere, mockOnly := node.OnServer|node.Offline, node.Place(0)
	seed := []struct {
		typ             string
		mockable, retry bool
		runs            node.Place
	}{
		{"action", true, true, everywhere},
		{"approval", false, false, node.OnServer},
		{"await_reply", false, false, everywhere},
		{"condition", false, false, everywhere},
		{"end_session", false, false, everywhere},
		{"generate_artifact", false, false, mockOnly},
		{"knowledge_search", false, false, mockOnly},
		{"llm", true, false, everywhere},
		{"pdf_export", true, false, everywhere},
		{"response", false, false, everywhere},
		{"router", false, false, everywhere},
		{"set_variable", false, false, everywhere},
		{"start", false, false, everywhere},
		{"sub_agent", true, false, node.OnServer},
		{"switch", false, false, everywhere},
		{"tool", true, true, everywhere},
		{"webhook", true, true, everywhere},
	}
	for _, want := range seed {
		s, ok := node.Default.Lookup(want.typ)
		if !ok {
			t.Errorf("seed type %s is not registered", want.typ)
			continue
		}
		if s.Mockable != want.mockable || s.Retry != want.retry || s.Runs != want.runs {
			t.Errorf("%s: mockable %v, retry %v, runs %q; want %v, %v, %q", want.typ, s.Mockable, s.Retry, s.Runs.Name(), want.mockable, want.retry, want.runs.Name())
		}
		if s.Entry != (want.typ == "start") {
			t.Errorf("%s: Entry %v", want.typ, s.Entry)
		}
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
