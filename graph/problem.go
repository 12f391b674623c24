package graph

import (
	"fmt"
	"strings"

	"github.com/wetel/wetel/node"
)

// Problem is one finding of the save checks, the publish checks or the
// diagnostics: a stable code, what it is about, and a sentence.
type Problem struct {
	Code    string `json:"code"`
	NodeID  string `json:"nodeId,omitempty"`
	EdgeID  string `json:"edgeId,omitempty"`
	Field   string `json:"field,omitempty"`
	Message string `json:"message"`
}

func (p Problem) String() string { return p.Message }

// Problem codes of the save and publish checks (errors: they refuse the graph).
const (
	CodeGraphTooLarge         = "GRAPH_TOO_LARGE"
	CodeMaxVisits             = "MAX_VISITS_INVALID"
	CodeMissingID             = "MISSING_ID"
	CodeUnknownType           = "UNKNOWN_NODE_TYPE"
	CodeInvalidConfig         = "INVALID_CONFIG"
	CodeUnknownField          = "UNKNOWN_CONFIG_FIELD"
	CodeMockNotAllowed        = "MOCK_NOT_ALLOWED"
	CodeMockTooLarge          = "MOCK_TOO_LARGE"
	CodeRetryNotAllowed       = "RETRY_NOT_ALLOWED"
	CodeReservedName          = "RESERVED_NAME"
	CodeStartNode             = "START_NODE_COUNT"
	CodeDuplicateID           = "DUPLICATE_ID"
	CodeDanglingEdge          = "EDGE_UNKNOWN_NODE"
	CodeUnreachable           = "NODE_UNREACHABLE"
	CodeRequiredField         = "REQUIRED_FIELD_MISSING"
	CodeFailureWithoutSuccess = "FAILURE_WITHOUT_SUCCESS"
	// The codes of types' own rules are declared in node, beside them.
	CodeAwaitReplyEdges = node.CodeAwaitReplyEdges
	CodeSwitchLabels    = node.CodeSwitchLabels
)

// Errors is a list of problems that refuse a graph; it is an error so callers
// can return it.
type Errors []Problem

func (e Errors) Error() string {
	msgs := make([]string, len(e))
	for i, p := range e {
		msgs[i] = p.Message
	}
	return strings.Join(msgs, "\n")
}

func nodeProblem(code, nodeID, field, format string, args ...any) Problem {
	return Problem{Code: code, NodeID: nodeID, Field: field, Message: fmt.Sprintf(format, args...)}
}
