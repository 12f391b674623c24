package mcpclient

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/wetel/wetel/internal/canon"
	"github.com/wetel/wetel/internal/schemaerr"
)

// schemaURL is the name a tool's input schema is compiled under. It is
// never fetched: compileSchema refuses every external reference.
const schemaURL = "https://wetel.invalid/mcp/input-schema.json"

// errExternalRef is what a $ref to another document gets: the schema comes
// from the MCP server, and following its references would let a server
// make the engine read local files or fetch URLs.
var errExternalRef = errors.New("external $ref is not allowed in an MCP input schema")

// noLoader refuses to load any referenced document.
type noLoader struct{}

func (noLoader) Load(url string) (any, error) {
	return nil, fmt.Errorf("%w: %s", errExternalRef, url)
}

// compileSchema compiles a tool's input schema. A schema without $schema
// is read as draft 2020-12, the dialect the MCP specification names.
func compileSchema(raw json.RawMessage) (*jsonschema.Schema, error) {
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
	return c.Compile(schemaURL)
}

// checkArgs validates args against a compiled input schema and returns the
// first violation with its JSON pointer, or "" when the arguments match.
// The arguments go through JSON first so that the validator sees exactly
// what the server will receive, whatever Go types the caller used.
func checkArgs(schema *jsonschema.Schema, args map[string]any) (string, error) {
	raw, err := json.Marshal(args)
	if err != nil {
		return "", fmt.Errorf("encoding arguments: %w", err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return "", fmt.Errorf("decoding arguments: %w", err)
	}
	err = schema.Validate(doc)
	if err == nil {
		return "", nil
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return "", err
	}
	return schemaerr.FirstViolation(ve), nil
}

// sameSchema reports whether two input schemas are the same JSON value,
// whatever their key order or spacing.
func sameSchema(a, b json.RawMessage) bool {
	if eq, err := canon.Equal(a, b); err == nil {
		return eq
	}
	return bytes.Equal(a, b)
}
