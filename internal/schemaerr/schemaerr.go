// Package schemaerr words a JSON Schema validation failure for a person,
// the same way wherever a value is checked against a schema (an MCP tool's
// arguments, an llm node's structured reply).
package schemaerr

import (
	"fmt"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// FirstViolation renders the first leaf error of a validation, e.g.
// `at /qty: got string, want integer`, and never the value itself. The
// root is shown as (root), since its JSON pointer is the empty string.
func FirstViolation(ve *jsonschema.ValidationError) string {
	unit := ve.BasicOutput()
	for _, u := range append([]jsonschema.OutputUnit{*unit}, unit.Errors...) {
		if u.Error == nil {
			continue
		}
		at := u.InstanceLocation
		if at == "" {
			at = "(root)"
		}
		return fmt.Sprintf("at %s: %s", at, u.Error)
	}
	return ve.Error()
}
