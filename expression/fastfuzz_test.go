package expression

import (
	"strings"
	"testing"
)

// FuzzFastPathMatchesVM builds small expressions of the shapes the fast
// path covers, and a context for them, from the fuzzer's bytes, and checks
// that Eval gives exactly what the VM gives: value, type and error. Its
// seeds, in testdata, spell out what they build in their names.
func FuzzFastPathMatchesVM(f *testing.F) {
	values := fastValues()
	f.Fuzz(func(t *testing.T, data []byte) {
		g := &grammar{data: data}
		src := g.expr(4)
		vars := map[string]any{}
		for _, name := range []string{"a", "b", "c", "m"} {
			// One choice past the values leaves the variable unset.
			if i := int(g.next()) % (len(values) + 1); i < len(values) {
				vars[name] = values[i]
			}
		}
		p, err := Compile(src)
		if err != nil {
			// Literal mistakes such as "a" + 1 fail at compile time.
			return
		}
		if err := agree(p, vars); err != nil {
			t.Fatalf("vars %#v: %v", vars, err)
		}
	})
}

// grammar reads choices from fuzz bytes, zeros once they run out.
type grammar struct {
	data []byte
}

func (g *grammar) next() byte {
	if len(g.data) == 0 {
		return 0
	}
	b := g.data[0]
	g.data = g.data[1:]
	return b
}

func (g *grammar) pick(options []string) string {
	return options[int(g.next())%len(options)]
}

var (
	fuzzLiterals = []string{
		"0", "1", "-1", "7", "2.5", "0.0", "-0.0", "1e308", "9223372036854775807",
		`""`, `"a"`, `"gold"`, "true", "false", "nil",
	}
	fuzzOperands = []string{
		"a", "b", "c", "m", "m.x", "m.x.y", "m.k", "m.n", `m["k"]`, "a.x", "m.missing.y",
	}
	fuzzUnary  = []string{"!", "not ", "-", "+"}
	fuzzBinary = []string{
		"+", "-", "*", "/", "%", "==", "!=", "<", "<=", ">", ">=", "&&", "||", "and", "or",
	}
	// Shapes the fast path leaves to the VM, so that mixing them in checks
	// the choice is made for the whole program.
	fuzzOthers = []string{"a ?? 1", "m?.x", "a in [1, 2]", "len(m)", "$env.a"}
)

// expr returns an expression at most depth operators deep.
func (g *grammar) expr(depth int) string {
	choice := g.next()
	if depth == 0 {
		choice %= 2
	}
	switch choice % 8 {
	case 0:
		return g.pick(fuzzLiterals)
	case 1, 2:
		return g.pick(fuzzOperands)
	case 3:
		return g.pick(fuzzUnary) + "(" + g.expr(depth-1) + ")"
	case 7:
		if g.next()%4 == 0 {
			return "(" + g.pick(fuzzOthers) + ")"
		}
	}
	var b strings.Builder
	b.WriteString("(")
	b.WriteString(g.expr(depth - 1))
	b.WriteString(" " + g.pick(fuzzBinary) + " ")
	b.WriteString(g.expr(depth - 1))
	b.WriteString(")")
	return b.String()
}
