package tmpl_test

import (
	"fmt"

	"github.com/wetel/wetel/tmpl"
)

func ExampleParse() {
	t, err := tmpl.Parse("Done {{v8}} for {{userMessage}}{{#if vip}} ★{{/if}}")
	if err != nil {
		panic(err)
	}
	out, err := t.Render(map[string]any{"v8": 8.0, "userMessage": "<Ada & Bob>", "vip": true})
	if err != nil {
		panic(err)
	}
	fmt.Println(out)
	// Output: Done 8 for <Ada & Bob> ★
}

func ExampleParseJSON() {
	t, err := tmpl.ParseJSON(`{"orderId": "{{order.id}}", "qty": "{{qty}}", "note": "said: {{msg}}"}`)
	if err != nil {
		panic(err)
	}
	body, err := t.RenderBytes(map[string]any{
		"order": map[string]any{"id": "A-7"},
		"qty":   2.0,
		"msg":   `", "admin": true`,
	})
	if err != nil {
		panic(err)
	}
	fmt.Println(string(body))
	// Output: {"note":"said: \", \"admin\": true","orderId":"A-7","qty":2}
}

func ExampleTemplate_RenderWith() {
	t, err := tmpl.Parse("{{question}}\n{{#each awaitReplyOptions}}{{slot}}. {{label}}\n{{/each}}")
	if err != nil {
		panic(err)
	}
	vars := map[string]any{"question": "Which size?"}
	options := map[string]any{"awaitReplyOptions": []any{
		map[string]any{"slot": 1.0, "label": "Small"},
		map[string]any{"slot": 2.0, "label": "Large"},
	}}
	out, err := t.RenderWith(vars, options)
	if err != nil {
		panic(err)
	}
	fmt.Print(out)
	// Output:
	// Which size?
	// 1. Small
	// 2. Large
}
