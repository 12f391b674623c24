package tmpl

import (
	"errors"
	"math"
	"runtime"
	"strings"
	"testing"
	"time"
)

// words returns n 20-byte strings: enough of them pass MaxOutputBytes
// before MaxIterations.
func words(n int) []any {
	out := make([]any, n)
	for i := range out {
		out[i] = "01234567890123456789"
	}
	return out
}

func TestLimits(t *testing.T) {
	t.Parallel()
	big := strings.Repeat("x", 100<<10)
	tests := []struct {
		name string
		src  string
		vars map[string]any
		want error
	}{
		{"each over a huge array", "{{#each a}}{{this}}{{/each}}", map[string]any{"a": words(200_000)}, ErrOutputTooLarge},
		{"each printing static text", "{{#each a}}01234567890123456789{{/each}}", map[string]any{"a": words(200_000)}, ErrOutputTooLarge},
		{"section over a huge array", "{{#a}}01234567890123456789{{/a}}", map[string]any{"a": words(200_000)}, ErrOutputTooLarge},
		{"nested loops printing nothing", "{{#each a}}{{#each ../a}}{{/each}}{{/each}}", map[string]any{"a": words(400)}, ErrTooManyIterations},
		{"nested sections", "{{#a}}{{#a}}{{#a}}{{/a}}{{/a}}{{/a}}", map[string]any{"a": words(50)}, ErrTooManyIterations},
		{"fast path repeating a value", strings.Repeat("{{big}}", 11), map[string]any{"big": big}, ErrOutputTooLarge},
		{"engine repeating a value", "{{#if big}}" + strings.Repeat("{{big}}", 11) + "{{/if}}", map[string]any{"big": big}, ErrOutputTooLarge},
		{"block param", "{{#each a as |x|}}{{x}}{{/each}}", map[string]any{"a": words(200_000)}, ErrOutputTooLarge},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tp, err := Parse(tc.src)
			if err != nil {
				t.Fatal(err)
			}
			start := time.Now()
			out, err := tp.Render(tc.vars)
			if !errors.Is(err, tc.want) {
				t.Fatalf("Render = %d bytes, %v; want %v", len(out), err, tc.want)
			}
			if d := time.Since(start); d > 20*time.Second { // generous: CI machines are shared
				t.Errorf("Render took %v to fail", d)
			}
		})
	}
}

func TestRenderErrorsInsteadOfPanics(t *testing.T) {
	t.Parallel()
	vars := map[string]any{"items": []any{"a"}, "nan": map[string]any{"x": math.NaN()}}
	for _, src := range []string{
		"{{items.-1}}",         // raymond indexes with -1 and panics
		"{{nan}}",              // NaN has no JSON form
		"{{#each}}{{/each}}",   // each needs an argument
		"{{> missingPartial}}", // no partials are registered
		"{{lookup}}",           // wrong argument count
	} {
		tp, err := Parse(src)
		if err != nil {
			t.Fatalf("Parse(%q): %v", src, err)
		}
		if out, err := tp.Render(vars); err == nil {
			t.Errorf("Render(%q) = %q, want an error", src, out)
		}
	}
}

func TestFastPathHandsOverUnknownTypes(t *testing.T) {
	t.Parallel()
	type person struct{ Name string }
	tp, err := Parse("{{p.name}} {{q.name}} {{n}}")
	if err != nil {
		t.Fatal(err)
	}
	if tp.fast == nil {
		t.Fatal("template should qualify for the fast path")
	}
	got, err := tp.Render(map[string]any{"p": &person{"Ada"}, "q": person{"Bob"}, "n": uint8(7)})
	if err != nil {
		t.Fatal(err)
	}
	if want := "Ada Bob 7"; got != want {
		t.Errorf("Render = %q, want %q", got, want)
	}
}

// TestParseDoesNotLeak is not parallel: it counts goroutines, which other
// tests start and stop.
func TestParseDoesNotLeak(t *testing.T) {
	before := runtime.NumGoroutine()
	for range 200 {
		if _, err := Parse("{{#if x}}{{/each}} and {{more}} {{tokens}}"); err == nil {
			t.Fatal("Parse accepted a mismatched block")
		}
	}
	// Lexer goroutines finish just after handing over their last token;
	// give them a moment. A leak would keep all 200.
	after := runtime.NumGoroutine()
	for deadline := time.Now().Add(2 * time.Second); after > before+20 && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
		after = runtime.NumGoroutine()
	}
	if after > before+20 {
		t.Errorf("goroutines grew from %d to %d over 200 failed parses", before, after)
	}
}
