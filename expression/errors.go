package expression

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"unicode/utf8"

	"github.com/expr-lang/expr/file"
)

// maxQuotedSource is how much of a source error messages repeat, so a long
// expression does not drown the message.
const maxQuotedSource = 80

// MissingVariableError reports that an expression reads a context variable
// the run has not set.
type MissingVariableError struct {
	Name   string // the variable that is not set
	Source string // the expression's full source
}

// Error returns a message such as
// `expression "v8 > 5": variable "v8" is not set`.
func (e *MissingVariableError) Error() string {
	return fmt.Sprintf("expression %s: variable %q is not set", quote(e.Source), e.Name)
}

// exprError is any other compile or evaluation failure. It keeps expr's
// error reachable through errors.As for callers that want its position.
type exprError struct {
	source string
	msg    string
	err    error
}

func (e *exprError) Error() string {
	return fmt.Sprintf("expression %s: %s", quote(e.source), e.msg)
}

func (e *exprError) Unwrap() error {
	return e.err
}

func newError(src, msg string, cause error) error {
	return &exprError{source: src, msg: msg, err: cause}
}

// wrapError rewords expr's errors: its own Error() spans several lines with
// a caret drawing, which reads badly in a single log line or API response.
func wrapError(src string, err error) error {
	var fe *file.Error
	if !errors.As(err, &fe) {
		return newError(src, err.Error(), err)
	}
	msg := fe.Message
	switch {
	case strings.Contains(msg, "maximum allowed nodes"):
		msg = fmt.Sprintf("expression has more than MaxNodes (%d) nodes", MaxNodes)
	case msg == "memory budget exceeded":
		msg = fmt.Sprintf("memory budget exceeded: more than MemoryBudget (%d) elements built", MemoryBudget)
	}
	if fe.Line > 0 {
		msg = fmt.Sprintf("%s (%d:%d)", msg, fe.Line, fe.Column+1)
	}
	return newError(src, msg, err)
}

// quote returns src as a Go string literal, shortened to maxQuotedSource
// bytes without splitting a character.
func quote(src string) string {
	if len(src) <= maxQuotedSource {
		return fmt.Sprintf("%q", src)
	}
	cut := maxQuotedSource - 3
	for cut > 0 && !utf8.RuneStart(src[cut]) {
		cut--
	}
	return fmt.Sprintf("%q", src[:cut]+"...")
}

// describe names a result's JSON kind for EvalBool's message.
func describe(v any) string {
	switch v := v.(type) {
	case nil:
		return "nil"
	case bool:
		return fmt.Sprintf("a boolean (%t)", v)
	case string:
		return fmt.Sprintf("a string (%s)", quote(v))
	case int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64, float32, float64:
		return fmt.Sprintf("a number (%v)", v)
	}
	switch rv := reflect.ValueOf(v); rv.Kind() {
	case reflect.Slice, reflect.Array:
		return fmt.Sprintf("a list (%d items)", rv.Len())
	case reflect.Map:
		return fmt.Sprintf("an object (%d keys)", rv.Len())
	default:
		return fmt.Sprintf("a %T", v)
	}
}
