package setvariable

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/wetel/wetel/failure"
	"github.com/wetel/wetel/node"
)

// coerce converts v as the assignment's coerce asks. A value that cannot be
// converted fails the node (seed: "coerce: \"number\" on text").
func coerce(to string, v any) (any, error) {
	switch to {
	case "":
		return v, nil
	case "string":
		return toString(v), nil
	case "number":
		return toNumber(v)
	case "boolean":
		return toBool(v)
	case "json":
		s, ok := v.(string)
		if !ok {
			return v, nil
		}
		var out any
		if err := json.Unmarshal([]byte(s), &out); err != nil {
			return nil, invalid("coerce \"json\": the text is not valid JSON: %v", err)
		}
		return out, nil
	}
	return nil, invalid("unknown coerce %q", to)
}

func toString(v any) string {
	if s, ok := node.Scalar(v); ok {
		return s
	}
	if v == nil {
		return ""
	}
	b, _ := json.Marshal(v)
	return string(b)
}

func toNumber(v any) (any, error) {
	switch t := v.(type) {
	case float64, int, int64:
		return t, nil
	case string:
		f, err := strconv.ParseFloat(strings.TrimSpace(t), 64)
		if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
			return nil, invalid("coerce \"number\": %q is not a number", clip(t))
		}
		return f, nil
	}
	return nil, invalid("coerce \"number\": %s is not a number", describe(v))
}

func toBool(v any) (any, error) {
	switch t := v.(type) {
	case bool:
		return t, nil
	case string:
		switch strings.ToLower(strings.TrimSpace(t)) {
		case "true", "yes", "y", "on", "1":
			return true, nil
		case "false", "no", "n", "off", "0":
			return false, nil
		}
		return nil, invalid("coerce \"boolean\": %q is not true or false", clip(t))
	case float64:
		if t == 0 || t == 1 {
			return t == 1, nil
		}
	case int:
		if t == 0 || t == 1 {
			return t == 1, nil
		}
	}
	return nil, invalid("coerce \"boolean\": %s is not true or false", describe(v))
}

func invalid(format string, args ...any) error {
	return &failure.Error{Code: failure.InvalidData, Message: fmt.Sprintf(format, args...)}
}

func describe(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case map[string]any:
		return "an object"
	case []any:
		return "an array"
	}
	return fmt.Sprintf("%v", v)
}

func clip(s string) string {
	if len(s) > 64 {
		return s[:64] + "…"
	}
	return s
}
