package node

import (
	"fmt"
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/wetel/wetel/expression"
	"github.com/wetel/wetel/tmpl"
	"github.com/wetel/wetel/vocab"
)

// variableName is the shape of a name a node writes: a dot in it would read
// back as a path, and a leading digit cannot be read by an expression.
var variableName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// ValidateConfig checks a decoded config against the type's fields: unknown
// fields, JSON types, enums, ranges, lengths, nested required fields, and that
// templates and expressions compile. Top-level required fields are a publish
// rule (MissingRequired), so a draft may be saved half-written.
func ValidateConfig(s *Spec, cfg map[string]any) []FieldError {
	var errs []FieldError
	keys := make([]string, 0, len(cfg))
	for k := range cfg {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		f, ok := s.Field(k)
		if !ok {
			errs = append(errs, FieldError{Path: k, Rule: fmt.Sprintf("is not a field of %s nodes", s.Type), Kind: FieldUnknown})
			continue
		}
		errs = append(errs, validateValue(k, f, cfg[k])...)
	}
	if len(errs) == 0 && s.Check != nil {
		errs = append(errs, s.Check(cfg)...)
	}
	return errs
}

// MissingRequired lists the required top-level fields absent from cfg.
func MissingRequired(s *Spec, cfg map[string]any) []string {
	var out []string
	for _, f := range s.Fields {
		if v, ok := cfg[f.Name]; f.Required && (!ok || v == nil) {
			out = append(out, f.Name)
		}
	}
	return out
}

func validateValue(path string, f Field, v any) []FieldError {
	bad := func(rule string) []FieldError { return []FieldError{{Path: path, Rule: rule}} }
	if v == nil && f.Kind != KindAny {
		return bad("must not be null")
	}
	switch f.Kind {
	case KindAny:
		return nil
	case KindString:
		s, ok := v.(string)
		if !ok {
			return bad("must be a string, not " + jsonKind(v))
		}
		return validateString(path, f, s)
	case KindInteger, KindNumber:
		n, ok := v.(float64)
		if !ok {
			return bad("must be a number, not " + jsonKind(v))
		}
		if f.Kind == KindInteger && n != math.Trunc(n) {
			return bad(fmt.Sprintf("must be a whole number%s, not %s", rangeText(f), formatNumber(n)))
		}
		if (f.Min != nil && n < *f.Min) || (f.Max != nil && n > *f.Max) {
			return bad(fmt.Sprintf("must be %s, not %s", strings.TrimPrefix(rangeText(f), " "), formatNumber(n)))
		}
	case KindBoolean:
		if _, ok := v.(bool); !ok {
			return bad("must be true or false, not " + jsonKind(v))
		}
	case KindArray:
		return validateArray(path, f, v)
	case KindObject:
		return validateObject(path, f, v)
	}
	return nil
}

func validateString(path string, f Field, s string) []FieldError {
	bad := func(rule string) []FieldError { return []FieldError{{Path: path, Rule: rule}} }
	if len(f.Enum) > 0 {
		for _, e := range f.Enum {
			if s == e {
				return nil
			}
		}
		return bad(fmt.Sprintf("must be one of %s, not %q", quoteList(f.Enum), s))
	}
	if f.MaxLength > 0 && len(s) > f.MaxLength {
		return bad(fmt.Sprintf("must be at most %d bytes long, not %d", f.MaxLength, len(s)))
	}
	if len(s) < f.MinLength {
		return bad(fmt.Sprintf("must be at least %d characters long", f.MinLength))
	}
	switch f.Format {
	case FormatTemplate:
		if _, err := tmpl.Parse(s); err != nil {
			return bad("is not a valid template: " + err.Error())
		}
	case FormatJSONTemplate:
		if _, err := tmpl.ParseJSON(s); err != nil {
			return bad("is not a valid JSON body template: " + err.Error())
		}
	case FormatExpression:
		if strings.TrimSpace(s) == "" {
			return bad("must not be empty")
		}
		if _, err := expression.Compile(s); err != nil {
			return bad("is not a valid expression: " + err.Error())
		}
	case FormatVariable:
		if !variableName.MatchString(s) {
			return bad(fmt.Sprintf("%q is not a variable name: use letters, digits and _, not starting with a digit", s))
		}
		if why := vocab.ReservedReason(s); why != "" {
			return []FieldError{{Path: path, Rule: fmt.Sprintf("%q is a reserved name (%s)", s, why), Kind: FieldReserved}}
		}
	case FormatPath, FormatNodeID:
		if s == "" || (f.Format == FormatPath && strings.Contains("."+s+".", "..")) {
			return bad("must be a dot path such as orderLookup.data")
		}
	}
	return nil
}

func validateArray(path string, f Field, v any) []FieldError {
	arr, ok := v.([]any)
	if !ok {
		return []FieldError{{Path: path, Rule: "must be an array, not " + jsonKind(v)}}
	}
	if f.MaxItems > 0 && len(arr) > f.MaxItems {
		return []FieldError{{Path: path, Rule: fmt.Sprintf("must have at most %d entries, not %d", f.MaxItems, len(arr))}}
	}
	if len(arr) < f.MinItems {
		return []FieldError{{Path: path, Rule: fmt.Sprintf("must have at least %d entries", f.MinItems)}}
	}
	var errs []FieldError
	if f.Items != nil {
		for i, item := range arr {
			errs = append(errs, validateValue(fmt.Sprintf("%s[%d]", path, i), *f.Items, item)...)
		}
	}
	return errs
}

func validateObject(path string, f Field, v any) []FieldError {
	obj, ok := v.(map[string]any)
	if !ok {
		return []FieldError{{Path: path, Rule: "must be an object, not " + jsonKind(v)}}
	}
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var errs []FieldError
	if f.Values != nil {
		for _, k := range keys {
			errs = append(errs, validateValue(path+"."+k, *f.Values, obj[k])...)
		}
		return errs
	}
	known := map[string]Field{}
	for _, sub := range f.Fields {
		known[sub.Name] = sub
		if _, has := obj[sub.Name]; sub.Required && !has {
			errs = append(errs, FieldError{Path: path + "." + sub.Name, Rule: "is required"})
		}
	}
	for _, k := range keys {
		sub, ok := known[k]
		if !ok {
			errs = append(errs, FieldError{Path: path + "." + k, Rule: "is not a known field", Kind: FieldUnknown})
			continue
		}
		errs = append(errs, validateValue(path+"."+k, sub, obj[k])...)
	}
	return errs
}

func rangeText(f Field) string {
	switch {
	case f.Min != nil && f.Max != nil:
		return fmt.Sprintf(" from %s to %s", formatNumber(*f.Min), formatNumber(*f.Max))
	case f.Min != nil:
		return " of at least " + formatNumber(*f.Min)
	case f.Max != nil:
		return " of at most " + formatNumber(*f.Max)
	}
	return ""
}

func formatNumber(n float64) string { return strconv.FormatFloat(n, 'f', -1, 64) }

func jsonKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case string:
		return "a string"
	case float64:
		return "a number"
	case bool:
		return "a boolean"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%T", v)
}

func quoteList(vals []string) string {
	q := make([]string, len(vals))
	for i, v := range vals {
		q[i] = strconv.Quote(v)
	}
	return strings.Join(q, ", ")
}
