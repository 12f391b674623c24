package expression

import "testing"

// benchVars is a context of typical size: fifteen keys of mixed JSON types.
func benchVars() map[string]any {
	return map[string]any{
		"v1": 1.0, "v2": "two", "v3": true, "v4": nil, "v5": 5.0,
		"v6": []any{1.0, 2.0}, "v7": 7, "v8": 8.0, "v9": "nine",
		"trail": "s1,s2,s3,s4,s5,s6,s7",
		"user":  map[string]any{"name": "Ada", "age": 36.0},
		"tier":  "gold", "amount": 1250.0, "items": []any{"a", "b"},
		"_lastNodeErrorCode": "TIMEOUT",
	}
}

func benchmarkEval(b *testing.B, src string) {
	p, err := Compile(src)
	if err != nil {
		b.Fatal(err)
	}
	vars := benchVars()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := p.Eval(vars); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkEvalArith(b *testing.B)   { benchmarkEval(b, "v7 + 1") }
func BenchmarkEvalCompare(b *testing.B) { benchmarkEval(b, "v8 > 5") }
func BenchmarkEvalConcat(b *testing.B)  { benchmarkEval(b, `trail + ",s8"`) }

// BenchmarkEvalCondition is a typical condition node: two comparisons.
func BenchmarkEvalCondition(b *testing.B) {
	benchmarkEval(b, `amount > 1000 && tier == "gold"`)
}

// BenchmarkEvalClosure pays for the metered path: a copy of the context
// and a counted loop body.
func BenchmarkEvalClosure(b *testing.B) { benchmarkEval(b, `any(items, # == "b")`) }

// BenchmarkCompileCached is what compiling an already seen graph costs per
// expression.
func BenchmarkCompileCached(b *testing.B) {
	if _, err := Compile("v7 + 1"); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Compile("v7 + 1"); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkEvalParallel checks the pooled machines scale across cores.
func BenchmarkEvalParallel(b *testing.B) {
	p, err := Compile("v8 > 5")
	if err != nil {
		b.Fatal(err)
	}
	vars := benchVars()
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if _, err := p.Eval(vars); err != nil {
				b.Error(err)
				return
			}
		}
	})
}
