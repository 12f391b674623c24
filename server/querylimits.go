package server

import (
	"context"
	"fmt"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
	"github.com/vektah/gqlparser/v2/lexer"
	"github.com/vektah/gqlparser/v2/parser"

	"github.com/wetel/wetel/server/gql"
)

// Document limits, checked on the parsed document before it is validated.
// Validation costs grow with the square of a document's fields (8,000
// repeated fields took 6.8 s of CPU before the complexity limit refused
// them), while parsing is linear: so the document is parsed and counted
// first, and a document over a limit is refused without being validated.
// Fields, aliases and depth count fragments expanded where they are spread,
// so a fragment spread many times counts each time.
const (
	// maxQueryBytes bounds the query text; data belongs in variables.
	maxQueryBytes = 128 << 10
	// maxQueryTokens bounds the tokens of the query text, counted by the
	// lexer alone before anything is parsed: parsing 8,000 fields costs
	// several milliseconds, lexing the first 10,000 tokens well under one.
	maxQueryTokens = 10000
	// maxQueryFields bounds the fields of the whole document. Validating
	// 500 fields of one name costs about 25 ms.
	maxQueryFields = 500
	// maxQueryAliases bounds the aliased fields of the document.
	maxQueryAliases = 50
	// maxQueryOperations bounds the operations of one document: every one
	// is validated, though only one runs.
	maxQueryOperations = 20
	// maxQueryDepth bounds how deep selections nest.
	maxQueryDepth = 12
	// maxMutationFields bounds the top-level fields of one mutation: each
	// may start a turn or write, and aliases would let one request do
	// hundreds (660 aliased sendMessage ran 660 turns).
	maxMutationFields = 5
	// maxQueryComplexity bounds a validated query's cost, one per field
	// unless the schema says otherwise.
	maxQueryComplexity = 2000
)

// documentLimits refuses documents over the limits above before gqlgen
// parses and validates them.
type documentLimits struct{}

var _ interface {
	graphql.HandlerExtension
	graphql.OperationParameterMutator
} = documentLimits{}

func (documentLimits) ExtensionName() string                   { return "DocumentLimits" }
func (documentLimits) Validate(graphql.ExecutableSchema) error { return nil }

// MutateOperationParameters parses the query and counts it. A query that
// does not parse is left to gqlgen, which reports the parse error itself.
func (documentLimits) MutateOperationParameters(_ context.Context, p *graphql.RawParams) *gqlerror.Error {
	if len(p.Query) > maxQueryBytes {
		return limitErr("the query is %d bytes; the limit is %d (pass data in variables)", len(p.Query), maxQueryBytes)
	}
	src := &ast.Source{Input: p.Query}
	if n := countTokens(src, maxQueryTokens+1); n > maxQueryTokens {
		return limitErr("the query has over %d tokens; the limit is %d", maxQueryTokens, maxQueryTokens)
	}
	doc, err := parser.ParseQuery(src)
	if err != nil {
		return nil
	}
	return checkDocument(doc)
}

// countTokens counts the tokens of src up to limit; a lexing error stops
// the count (gqlgen reports it).
func countTokens(src *ast.Source, limit int) int {
	l := lexer.New(src)
	n := 0
	for n < limit {
		tok, err := l.ReadToken()
		if err != nil || tok.Kind == lexer.EOF {
			break
		}
		n++
	}
	return n
}

func limitErr(format string, args ...any) *gqlerror.Error {
	return &gqlerror.Error{Message: fmt.Sprintf(format, args...), Extensions: map[string]any{"code": gql.CodeLimit}}
}

// checkDocument applies the document limits to a parsed document.
func checkDocument(doc *ast.QueryDocument) *gqlerror.Error {
	if n := len(doc.Operations); n > maxQueryOperations {
		return limitErr("the document has %d operations; the limit is %d", n, maxQueryOperations)
	}
	c := counter{frags: doc.Fragments, memo: map[string]*tally{}}
	var total tally
	for _, op := range doc.Operations {
		t := c.set(op.SelectionSet)
		total.add(t)
		if t.depth > maxQueryDepth {
			return limitErr("the query nests %d levels deep; the limit is %d", t.depth, maxQueryDepth)
		}
		if op.Operation == ast.Mutation {
			if n := c.rootFields(op.SelectionSet, map[string]bool{}); n > maxMutationFields {
				return limitErr("the mutation asks for %d fields; the limit is %d per request", n, maxMutationFields)
			}
		}
	}
	for _, f := range doc.Fragments {
		// Fragments are validated where they are defined too, spread or not.
		total.add(c.fragment(f.Name))
	}
	if total.fields > maxQueryFields {
		return limitErr("the document has %d fields (fragments counted where spread); the limit is %d", total.fields, maxQueryFields)
	}
	if total.aliases > maxQueryAliases {
		return limitErr("the document has %d aliased fields; the limit is %d", total.aliases, maxQueryAliases)
	}
	return nil
}

// tally is what a selection set holds, fragments expanded. Counts saturate
// at saturated so that a fragment spread in a doubling chain cannot
// overflow.
type tally struct{ fields, aliases, depth int }

const saturated = 1 << 30

func (t *tally) add(o tally) {
	t.fields = min(t.fields+o.fields, saturated)
	t.aliases = min(t.aliases+o.aliases, saturated)
	t.depth = max(t.depth, o.depth)
}

// counter counts selection sets, each fragment once (memo).
type counter struct {
	frags ast.FragmentDefinitionList
	memo  map[string]*tally
}

func (c counter) set(set ast.SelectionSet) tally {
	var t tally
	for _, sel := range set {
		switch s := sel.(type) {
		case *ast.Field:
			sub := c.set(s.SelectionSet)
			sub.fields = min(sub.fields+1, saturated)
			if s.Alias != "" && s.Alias != s.Name {
				sub.aliases = min(sub.aliases+1, saturated)
			}
			sub.depth++
			t.add(sub)
		case *ast.InlineFragment:
			t.add(c.set(s.SelectionSet))
		case *ast.FragmentSpread:
			t.add(c.fragment(s.Name))
		}
	}
	return t
}

// fragment tallies a named fragment once. A fragment that spreads itself
// counts nothing the second time round: validation refuses the cycle.
func (c counter) fragment(name string) tally {
	if t, ok := c.memo[name]; ok {
		if t == nil {
			return tally{}
		}
		return *t
	}
	c.memo[name] = nil
	f := c.frags.ForName(name)
	if f == nil {
		return tally{}
	}
	t := c.set(f.SelectionSet)
	c.memo[name] = &t
	return t
}

// rootFields counts the top-level fields of an operation, through
// fragments.
func (c counter) rootFields(set ast.SelectionSet, seen map[string]bool) int {
	n := 0
	for _, sel := range set {
		switch s := sel.(type) {
		case *ast.Field:
			n++
		case *ast.InlineFragment:
			n += c.rootFields(s.SelectionSet, seen)
		case *ast.FragmentSpread:
			if f := c.frags.ForName(s.Name); f != nil && !seen[s.Name] {
				seen[s.Name] = true
				n += c.rootFields(f.SelectionSet, seen)
			}
		}
	}
	return n
}

// introspection allows schema introspection to callers with a key, and to
// anonymous callers only when the operator asked for it.
type introspection struct{ anonymous bool }

var _ interface {
	graphql.HandlerExtension
	graphql.OperationContextMutator
} = introspection{}

func (introspection) ExtensionName() string                   { return "Introspection" }
func (introspection) Validate(graphql.ExecutableSchema) error { return nil }

// MutateOperationContext refuses an anonymous introspection up front with
// UNAUTHENTICATED; gqlgen's own refusal would read as an internal error.
func (i introspection) MutateOperationContext(ctx context.Context, oc *graphql.OperationContext) *gqlerror.Error {
	if _, ok := gql.CallerFrom(ctx); ok || i.anonymous {
		oc.DisableIntrospection = false
		return nil
	}
	if oc.Operation != nil && introspects(oc.Operation.SelectionSet, oc.Doc.Fragments, map[string]bool{}) {
		return &gqlerror.Error{Message: `introspection needs an API key: send "Authorization: Bearer <key>"`,
			Extensions: map[string]any{"code": gql.CodeUnauthenticated}}
	}
	return nil
}

// introspects reports whether a root selection set asks for __schema or
// __type, through fragments.
func introspects(set ast.SelectionSet, frags ast.FragmentDefinitionList, seen map[string]bool) bool {
	for _, sel := range set {
		switch s := sel.(type) {
		case *ast.Field:
			if s.Name == "__schema" || s.Name == "__type" {
				return true
			}
		case *ast.InlineFragment:
			if introspects(s.SelectionSet, frags, seen) {
				return true
			}
		case *ast.FragmentSpread:
			if f := frags.ForName(s.Name); f != nil && !seen[s.Name] {
				seen[s.Name] = true
				if introspects(f.SelectionSet, frags, seen) {
					return true
				}
			}
		}
	}
	return false
}
