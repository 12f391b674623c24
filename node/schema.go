package node

// Schema returns the JSON Schema (draft 2020-12) of a node type's config, as
// nodeConfigSchema serves it: derived from the same fields the save checks
// read, so the two never disagree.
func Schema(s *Spec) map[string]any {
	obj := objectSchema(s.Fields)
	obj["$schema"] = "https://json-schema.org/draft/2020-12/schema"
	obj["title"] = s.Type + " node config"
	obj["description"] = s.Summary
	if len(s.Examples) > 0 {
		ex := make([]any, len(s.Examples))
		for i, e := range s.Examples {
			ex[i] = e
		}
		obj["examples"] = ex
	}
	return obj
}

func objectSchema(fields []Field) map[string]any {
	props := map[string]any{}
	var required []string
	for _, f := range fields {
		props[f.Name] = fieldSchema(f)
		if f.Required {
			required = append(required, f.Name)
		}
	}
	out := map[string]any{"type": "object", "properties": props, "additionalProperties": false}
	if len(required) > 0 {
		out["required"] = required
	}
	return out
}

func fieldSchema(f Field) map[string]any {
	var out map[string]any
	switch f.Kind {
	case KindObject:
		if f.Values != nil {
			out = map[string]any{"type": "object", "additionalProperties": fieldSchema(*f.Values)}
		} else {
			out = objectSchema(f.Fields)
		}
	case KindArray:
		out = map[string]any{"type": "array"}
		if f.Items != nil {
			out["items"] = fieldSchema(*f.Items)
		}
		if f.MaxItems > 0 {
			out["maxItems"] = f.MaxItems
		}
		if f.MinItems > 0 {
			out["minItems"] = f.MinItems
		}
	case KindAny:
		out = map[string]any{}
	default:
		out = map[string]any{"type": string(f.Kind)}
	}
	if f.Description != "" {
		out["description"] = f.Description
	}
	if f.Default != nil {
		out["default"] = f.Default
	}
	if len(f.Enum) > 0 {
		out["enum"] = f.Enum
	}
	if f.Min != nil {
		out["minimum"] = *f.Min
	}
	if f.Max != nil {
		out["maximum"] = *f.Max
	}
	if f.MaxLength > 0 {
		// JSON Schema counts characters and the save checks count bytes, so
		// the schema is the looser of the two only for non-ASCII text.
		out["maxLength"] = f.MaxLength
	}
	if f.MinLength > 0 {
		out["minLength"] = f.MinLength
	}
	if f.Format != FormatPlain {
		out["x-wetel-format"] = string(f.Format)
	}
	return out
}
