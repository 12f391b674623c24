package llm

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/wetel/wetel/internal/schemaerr"
)

const schemaURL = "wetel:llm/outputSchema.json"

// schema is a compiled outputSchema.
type schema struct{ s *jsonschema.Schema }

type noLoader struct{}

func (noLoader) Load(url string) (any, error) {
	return nil, fmt.Errorf("outputSchema may not refer to other documents (%s)", url)
}

// compileSchema compiles an outputSchema; one without $schema is draft 2020-12.
func compileSchema(raw []byte) (*schema, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.UseLoader(noLoader{})
	if err := c.AddResource(schemaURL, doc); err != nil {
		return nil, err
	}
	s, err := c.Compile(schemaURL)
	if err != nil {
		return nil, err
	}
	return &schema{s: s}, nil
}

// parse reads a structured reply and validates it. A reply wrapped in a
// Markdown code fence (models without structured output often do that) is
// read inside the fence.
func (s *schema) parse(text string) (any, error) {
	text = unfence(text)
	doc, err := jsonschema.UnmarshalJSON(strings.NewReader(text))
	if err != nil {
		return nil, fmt.Errorf("the reply is not JSON: %v", err)
	}
	if err := s.s.Validate(doc); err != nil {
		var ve *jsonschema.ValidationError
		if errors.As(err, &ve) {
			return nil, errors.New(schemaerr.FirstViolation(ve))
		}
		return nil, err
	}
	// The context holds what encoding/json decodes (float64 numbers), as
	// every other node's output does.
	var v any
	if err := json.Unmarshal([]byte(text), &v); err != nil {
		return nil, fmt.Errorf("the reply is not JSON: %v", err)
	}
	return v, nil
}

func unfence(text string) string {
	t := strings.TrimSpace(text)
	if !strings.HasPrefix(t, "```") || !strings.HasSuffix(t, "```") || len(t) < 6 {
		return t
	}
	t = strings.TrimSuffix(t[3:], "```")
	if i := strings.IndexByte(t, '\n'); i >= 0 && !strings.ContainsAny(t[:i], "{[\"") {
		t = t[i+1:] // the fence's language tag
	}
	return strings.TrimSpace(t)
}
