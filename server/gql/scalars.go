package gql

import (
	"encoding/json"
	"fmt"
	"io"
)

// JSON is a JSON value passed through as its bytes: graph documents, node
// traces and schemas keep their exact field names and order.
type JSON json.RawMessage

// MarshalGQL writes the value as it is.
func (j JSON) MarshalGQL(w io.Writer) {
	if len(j) == 0 {
		_, _ = io.WriteString(w, "null")
		return
	}
	_, _ = w.Write(j)
}

// UnmarshalGQL takes any GraphQL input value (an object, a list, a string…)
// and keeps it as JSON.
func (j *JSON) UnmarshalGQL(v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("not a JSON value: %w", err)
	}
	*j = b
	return nil
}
