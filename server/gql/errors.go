package gql

import (
	"context"
	"errors"
	"fmt"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/wetel/wetel/store"
	"github.com/wetel/wetel/turn"
)

// Error codes in extensions.code (PLATFORM §5).
const (
	CodeValidation      = "VALIDATION"
	CodeNotFound        = "NOT_FOUND"
	CodeForbidden       = "FORBIDDEN"
	CodeConflict        = "CONFLICT"
	CodeLimit           = "LIMIT"
	CodeUnauthenticated = "UNAUTHENTICATED"
	CodeInternal        = "INTERNAL"
)

// Error is an error meant for the client: its message is safe to show.
type Error struct {
	Code    string
	Message string
	// Problems are the graph checks that refused a save or publish.
	Problems any
}

func (e *Error) Error() string { return e.Message }

// Errorf returns a client error with code.
func Errorf(code, format string, args ...any) error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// notFound is the answer for an id the caller's workspace does not hold,
// whether it exists elsewhere or not.
func notFound(what string, id int) error {
	return Errorf(CodeNotFound, "%s %d not found", what, id)
}

// storeErr maps a store error to a client error; other errors pass
// through to the presenter, which hides them.
func storeErr(err error, what string, id int) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, store.ErrNotFound):
		return notFound(what, id)
	case errors.Is(err, store.ErrConflict):
		return Errorf(CodeConflict, "%s %d was changed by another request; try again", what, id)
	case errors.Is(err, store.ErrWaitExists):
		return Errorf(CodeConflict, "%s", store.ErrWaitExists.Error())
	case errors.Is(err, turn.ErrSessionEnded):
		return Errorf(CodeValidation, "session %d has ended", id)
	case errors.Is(err, turn.ErrChildSession):
		return Errorf(CodeValidation, "session %d is a sub_agent's child session: only its dispatch sends it a message", id)
	case errors.Is(err, turn.ErrQuestionOpen):
		return Errorf(CodeConflict, "session %d has an open question waiting for the user's reply; a task runs once it is answered, expires or is cancelled", id)
	}
	return err
}

// Presenter turns errors into GraphQL errors with extensions.code. Errors
// that are not client errors are logged by the caller's hook and shown as
// "internal error": never a stack trace, a query or a secret.
func Presenter(log func(ctx context.Context, err error)) graphql.ErrorPresenterFunc {
	return func(ctx context.Context, err error) *gqlerror.Error {
		var ge *gqlerror.Error
		var inner *gqlerror.Error
		if errors.As(err, &ge) && (ge.Err == nil || errors.As(ge.Err, &inner)) {
			// Parse and validation errors of the query itself.
			if ge.Extensions == nil {
				ge.Extensions = map[string]any{}
			}
			switch ge.Extensions["code"] {
			case CodeLimit, CodeUnauthenticated:
			case "COMPLEXITY_LIMIT_EXCEEDED":
				ge.Extensions["code"] = CodeLimit
			default:
				// GRAPHQL_PARSE_FAILED, GRAPHQL_VALIDATION_FAILED and the
				// like: the query itself is wrong.
				ge.Extensions["code"] = CodeValidation
			}
			return ge
		}
		out := graphql.DefaultErrorPresenter(ctx, err)
		var ce *Error
		if errors.As(err, &ce) {
			out.Message = ce.Message
			out.Extensions = map[string]any{"code": ce.Code}
			if ce.Problems != nil {
				out.Extensions["problems"] = ce.Problems
			}
			return out
		}
		if log != nil {
			log(ctx, err)
		}
		out.Message = "internal error"
		out.Extensions = map[string]any{"code": CodeInternal}
		return out
	}
}
