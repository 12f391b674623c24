package server

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/parser"

	"github.com/wetel/wetel/client"
)

func repeat(s string, n int) string { return strings.Repeat(s+" ", n) }

// The document limits, each at its edge.
func TestDocumentLimits(t *testing.T) {
	t.Parallel()
	bomb := "fragment F0 on Me { role }\n"
	for i := 1; i <= 12; i++ {
		bomb += fmt.Sprintf("fragment F%d on Me { ...F%d ...F%d }\n", i, i-1, i-1)
	}
	tests := []struct {
		name, query string
		refused     string // "" when accepted
	}{
		{"ordinary", `{ me { role } agents { id name } }`, ""},
		{"fields at the limit", "{ " + repeat("me { role }", maxQueryFields/2) + "}", ""},
		{"fields over", "{ " + repeat("me { role }", maxQueryFields/2+1) + "}", "fields"},
		{"fragment spread many times", "{ me { " + repeat("...F", maxQueryFields) + "} } fragment F on Me { role }", "fields"},
		{"doubling fragments", "{ me { ...F12 } }\n" + bomb, "fields"},
		{"aliases at the limit", "{ " + aliases(maxQueryAliases) + "}", ""},
		{"aliases over", "{ " + aliases(maxQueryAliases+1) + "}", "aliased"},
		{"operations over", repeat("query { me { role } }", 0) + ops(maxQueryOperations+1), "operations"},
		{"operations at the limit", ops(maxQueryOperations), ""},
		{"depth over", "{ a: __schema { types { fields { type { " + strings.Repeat("ofType { ", 9) + "name" + strings.Repeat(" }", 9) + " } } } } }", "levels deep"},
		{"depth through a fragment", "{ __schema { types { ...T } } } fragment T on __Type { fields { type { " + strings.Repeat("ofType { ", 9) + "name" + strings.Repeat(" }", 9) + " } } }", "levels deep"},
		{"mutations at the limit", "mutation { " + mutations(maxMutationFields) + "}", ""},
		{"mutations over", "mutation { " + mutations(maxMutationFields+1) + "}", "mutation asks for"},
		{"mutations through a fragment", "mutation { ...M } fragment M on Mutation { " + mutations(maxMutationFields+1) + "}", "mutation asks for"},
		{"a self-spreading fragment", "{ me { ...F } } fragment F on Me { role ...F }", ""},
	}
	for _, tt := range tests {
		doc, err := parser.ParseQuery(&ast.Source{Input: tt.query})
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		got := checkDocument(doc)
		switch {
		case tt.refused == "" && got != nil:
			t.Errorf("%s: refused: %v", tt.name, got)
		case tt.refused != "" && (got == nil || !strings.Contains(got.Message, tt.refused)):
			t.Errorf("%s: got %v, want a refusal naming %q", tt.name, got, tt.refused)
		case got != nil && got.Extensions["code"] != "LIMIT":
			t.Errorf("%s: code %v, want LIMIT", tt.name, got.Extensions["code"])
		}
	}
}

func aliases(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "a%d: me { role } ", i)
	}
	return b.String()
}

func ops(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "query q%d { me { role } } ", i)
	}
	return b.String()
}

func mutations(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "m%d: endSession(id: %d) { id } ", i, i+1)
	}
	return b.String()
}

// Issue 10: 8,000 repeated fields cost 6.8 s of validation before the
// complexity limit refused them. A document over a limit is refused
// before validation: the server's validation count does not move.
func TestFloodRefusedBeforeValidation(t *testing.T) {
	t.Parallel()
	ts := startServer(t, Config{})
	do(t, ts.c, `{ me { role } }`, nil, nil)
	validated := ts.s.validations.Load()
	if validated == 0 {
		t.Fatal("an ordinary query was not counted as validated")
	}
	for _, q := range []string{
		"{ " + repeat("me { role }", 8000) + "}",
		"{ " + strings.Repeat(" ", maxQueryBytes) + "me { role } }",
		"{ " + repeat("__typename", maxQueryTokens) + "}",
		"mutation($s: Int!) { " + sendMessages(60) + "}",
	} {
		wantCode(t, ts.c, "LIMIT", q, map[string]any{"s": 1})
	}
	if n := ts.s.validations.Load(); n != validated {
		t.Errorf("%d documents over the limits were validated", n-validated)
	}
}

func sendMessages(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "m%d: sendMessage(sessionId: $s, text: \"hi\") { runs { id } } ", i)
	}
	return b.String()
}

// BenchmarkFloodRefusal is the time to refuse the 8,000-field document of
// issue 10, parse and count included.
func BenchmarkFloodRefusal(b *testing.B) {
	ts := startServerB(b, Config{RateLimits: &RateLimits{}})
	c := client.New(ts.url, testKey)
	q := "{ " + repeat("me { role }", 8000) + "}"
	ctx := context.Background()
	for b.Loop() {
		if err := c.Do(ctx, q, nil, nil); err == nil {
			b.Fatal("the flood was answered")
		}
	}
}

// BenchmarkFloodCheck is the parse and count of the 8,000-field document
// alone, without the HTTP round trip.
func BenchmarkFloodCheck(b *testing.B) {
	p := &graphql.RawParams{Query: "{ " + repeat("me { role }", 8000) + "}"}
	for b.Loop() {
		if (documentLimits{}).MutateOperationParameters(context.Background(), p) == nil {
			b.Fatal("the flood was accepted")
		}
	}
}

// Introspection needs a key unless the operator opens it to anonymous
// callers.
func TestIntrospectionNeedsAKey(t *testing.T) {
	t.Parallel()
	const q = `{ __schema { queryType { name } } }`
	ts := startServer(t, Config{})
	do(t, ts.c, q, nil, nil)
	anon := client.New(ts.url, "")
	wantCode(t, anon, "UNAUTHENTICATED", q, nil)
	wantCode(t, anon, "UNAUTHENTICATED", `{ ...F } fragment F on Query { __type(name: "Query") { name } }`, nil)
	open := startServer(t, Config{AnonymousIntrospection: true})
	do(t, client.New(open.url, ""), q, nil, nil)
}
