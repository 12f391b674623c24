package expression

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"
)

func TestSourceLimit(t *testing.T) {
	t.Parallel()
	fits := `"` + strings.Repeat("x", MaxSourceBytes-2) + `"`
	if _, err := Compile(fits); err != nil {
		t.Errorf("Compile of %d bytes: %v", len(fits), err)
	}
	tooLong := fits + " "
	_, err := Compile(tooLong)
	want := fmt.Sprintf(`expression "\"%s...": source is 2049 bytes, more than MaxSourceBytes (2048)`, strings.Repeat("x", 76))
	if err == nil || err.Error() != want {
		t.Errorf("Compile error = %v, want %s", err, want)
	}
}

func TestNodeLimit(t *testing.T) {
	t.Parallel()
	if _, err := Compile(strings.Repeat("1 + ", 120) + "1"); err != nil {
		t.Errorf("Compile of 241 nodes: %v", err)
	}
	src := strings.Repeat("1+", 200) + "1"
	_, err := Compile(src)
	want := fmt.Sprintf(`expression %q: expression has more than MaxNodes (256) nodes (1:258)`, src[:77]+"...")
	if err == nil || err.Error() != want {
		t.Errorf("Compile error = %v, want %s", err, want)
	}
}

// TestBudgets checks that expressions built to exhaust memory or CPU fail
// with an error naming the limit. Each takes milliseconds; a regression
// would show as a hang, which go test's timeout reports.
func TestBudgets(t *testing.T) {
	t.Parallel()
	list := make([]any, 100)
	for i := range list {
		list[i] = 1.0
	}
	vars := map[string]any{
		"big": strings.Repeat("x", 1000),
		// upper returns an upper-case string without copying it, but the
		// meter charges it anyway, which keeps this case fast.
		"bigUpper": strings.Repeat("X", 1000),
		"huge":     strings.Repeat("x", MaxBuiltBytes+1),
		"kb":       strings.Repeat("x", 1024),
		"list":     list,
	}
	const memory = "memory budget exceeded: more than MemoryBudget (100000) elements built"
	const loops = "loops ran more than MaxIterations (100000) times"
	built := func(name string) string {
		return name + " would build more than MaxBuiltBytes (1048576 bytes)"
	}
	spent := func(name string) string {
		return name + " would bring the bytes built past BuildBudget (16777216 bytes)"
	}
	tests := []struct {
		src, want string
	}{
		{"1..100000000", memory + " (1:2)"},
		{"len(1..100000000)", memory + " (1:6)"},
		{"map(1..1000, map(1..1000, #))", memory + " (1:19)"},
		{"count(1..99999, true) + count(1..99999, true)", memory + " (1:32)"},
		{"all(list, all(list, all(list, true)))", loops + " (1:31)"},
		{"sum(list, sum(list, sum(list, #)))", loops + " (1:31)"},
		{`repeat("ab", 1000000)`, built("repeat") + " (1:1)"},
		{`repeat(big, 2000)`, built("repeat") + " (1:1)"},
		{`replace(kb, "", kb)`, built("replace") + " (1:1)"},
		{`upper(huge)`, built("upper") + " (1:1)"},
		{`toJSON(1..90000)`, built("toJSON") + " (1:1)"},
		{`reduce(1..60, #acc + #acc, "x")`, built("concatenation") + " (1:20)"},
		{`join(map(1..40000, "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"), "")`, built("join") + " (1:1)"},
		{`map(1..20000, upper(bigUpper))`, spent("upper") + " (1:15)"},
		{`map(1..20000, string([big]))`, spent("string") + " (1:15)"},
		{`reduce(1..1000, #acc + kb, "")`, spent("concatenation") + " (1:22)"},
		{doubling(20), built("concatenation") + " (1:351)"},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			t.Parallel()
			p, err := Compile(tt.src)
			if err != nil {
				t.Fatalf("Compile: %v", err)
			}
			got, err := p.Eval(vars)
			want := fmt.Sprintf("expression %s: %s", quote(tt.src), tt.want)
			if err == nil || err.Error() != want {
				t.Errorf("Eval = %.40v, %v\nwant error %s", got, err, want)
			}
		})
	}
}

// TestHugeRangeAllocatesNothing checks the range is refused before it is
// built. It does not run in parallel, so that the process-wide allocation
// counter only sees this evaluation.
func TestHugeRangeAllocatesNothing(t *testing.T) {
	p, err := Compile("len(1..100000000)")
	if err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	start := time.Now()
	_, err = p.Eval(nil)
	took := time.Since(start)
	runtime.ReadMemStats(&after)
	if err == nil {
		t.Fatal("Eval succeeded")
	}
	if n := after.TotalAlloc - before.TotalAlloc; n > 64<<10 {
		t.Errorf("Eval allocated %d bytes", n)
	}
	if took > time.Second {
		t.Errorf("Eval took %v", took)
	}
}

// doubling builds `let s0 = "xx…"; let s1 = s0 + s0; …`, which doubles a
// string n times.
func doubling(n int) string {
	var b strings.Builder
	b.WriteString(`let s0 = "xxxxxxxxxxxxxxxx"; `)
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "let s%d = s%d + s%d; ", i, i-1, i-1)
	}
	fmt.Fprintf(&b, "len(s%d)", n)
	return b.String()
}

// TestBudgetsAllowRealisticWork checks the limits leave room for what
// graphs actually do, and that the byte budget is per evaluation.
func TestBudgetsAllowRealisticWork(t *testing.T) {
	t.Parallel()
	vars := map[string]any{"kb": strings.Repeat("x", 1024)}
	tests := []struct {
		src  string
		want any
	}{
		{"len(1..99999)", 99999},
		{"count(1..300, any(1..300, # == 7))", 300},
		{`len(repeat("ab", 500000))`, 1000000},
		{`len(join(map(1..40000, "xxxxxxxxxxxxxxxxxxxx"), ""))`, 800000},
		{`len(reduce(1..150, #acc + kb, ""))`, 153600},
		{doubling(10), 16384},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			t.Parallel()
			p, err := Compile(tt.src)
			if err != nil {
				t.Fatalf("Compile: %v", err)
			}
			for range 2 {
				got, err := p.Eval(vars)
				if err != nil || got != tt.want {
					t.Fatalf("Eval = %v, %v; want %v", got, err, tt.want)
				}
			}
		})
	}
}
