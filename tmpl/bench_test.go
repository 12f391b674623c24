package tmpl

import "testing"

func BenchmarkRenderFast(b *testing.B) {
	tp, err := Parse("Done {{v8}} for {{userMessage}}")
	if err != nil || tp.fast == nil {
		b.Fatalf("fast path not taken: %v", err)
	}
	vars := map[string]any{"v8": 8.0, "userMessage": "book a table for two tonight"}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := tp.Render(vars); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkRenderStatic(b *testing.B) {
	tp, err := Parse("Thanks, we will get back to you shortly.")
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := tp.Render(nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRenderEach is an await_reply question listing its options,
// which the fast path renders.
func BenchmarkRenderEach(b *testing.B) {
	benchEach(b, (*Template).Render)
}

// BenchmarkRenderEachRaymond is the same template rendered by raymond.
func BenchmarkRenderEachRaymond(b *testing.B) {
	benchEach(b, (*Template).renderEngine)
}

func benchEach(b *testing.B, render func(*Template, map[string]any) (string, error)) {
	tp, err := Parse("{{question}}\n{{#each awaitReplyOptions}}{{slot}}. {{label}}\n{{/each}}")
	if err != nil {
		b.Fatal(err)
	}
	vars := map[string]any{
		"question": "Which order?",
		"awaitReplyOptions": []any{
			map[string]any{"slot": 1.0, "label": "Order #1041, 2 items"},
			map[string]any{"slot": 2.0, "label": "Order #1042, 1 item"},
			map[string]any{"slot": 3.0, "label": "Order #1043, 5 items"},
		},
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := render(tp, vars); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkJSONTemplate(b *testing.B) {
	jt, err := ParseJSON(`{"orderId": "{{chosenOrder.id}}", "quantity": "{{qty}}", "note": "Customer said: {{userMessage}}", "meta": {"channel": "chat", "tags": ["a", "b"]}}`)
	if err != nil {
		b.Fatal(err)
	}
	vars := map[string]any{
		"chosenOrder": map[string]any{"id": "ord_1042", "total": 12.5},
		"qty":         2.0,
		"userMessage": `please "hurry" <now>`,
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := jt.RenderBytes(vars); err != nil {
			b.Fatal(err)
		}
	}
}
