package expression

import (
	"errors"
	"testing"

	"github.com/expr-lang/expr/file"
)

func TestEvalBool(t *testing.T) {
	t.Parallel()
	vars := testVars()
	vars["three"] = 3.0
	tests := []struct {
		src     string
		want    bool
		wantErr string
	}{
		{src: "userAge > 18", want: true},
		{src: `tier == "silver"`, want: false},
		{src: "three", wantErr: `expression "three" returned a number (3), want true or false`},
		{src: "v7 + 1", wantErr: `expression "v7 + 1" returned a number (8), want true or false`},
		{src: "tier", wantErr: `expression "tier" returned a string ("gold"), want true or false`},
		{src: "nothing", wantErr: `expression "nothing" returned nil, want true or false`},
		{src: "items", wantErr: `expression "items" returned a list (3 items), want true or false`},
		{src: "user", wantErr: `expression "user" returned an object (5 keys), want true or false`},
		{src: `date("2024-01-02")`, wantErr: `expression "date(\"2024-01-02\")" returned a time.Time, want true or false`},
		{src: "1..2", wantErr: `expression "1..2" returned a list (2 items), want true or false`},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			t.Parallel()
			p, err := Compile(tt.src)
			if err != nil {
				t.Fatalf("Compile: %v", err)
			}
			got, err := p.EvalBool(vars)
			if tt.wantErr != "" {
				if err == nil || err.Error() != tt.wantErr {
					t.Errorf("EvalBool error = %v, want %s", err, tt.wantErr)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Errorf("EvalBool = %v, %v; want %v", got, err, tt.want)
			}
		})
	}
}

func TestCompileErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		src, want string
	}{
		{"a >", `expression "a >": unexpected token EOF (1:3)`},
		{"(a", `expression "(a": unexpected token EOF (1:2)`},
		{"foo(1)", `expression "foo(1)": unknown function foo (1:1)`},
		{"items | foo()", `expression "items | foo()": unknown function foo (1:9)`},
		{"now()", `expression "now()": now() is not available: results must not depend on the wall clock (1:1)`},
		{"upper(1)", `expression "upper(1)": cannot use int as argument (type string) to call upper  (1:7)`},
		{"upper(a, b)", `expression "upper(a, b)": too many arguments to call upper (1:1)`},
		{`"a" + 1`, `expression "\"a\" + 1": invalid operation: + (mismatched types string and int) (1:5)`},
		{"x ?? 0 > 1", `expression "x ?? 0 > 1": Operator (>) and coalesce expressions (??) cannot be mixed. Wrap either by parentheses. (1:8)`},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			t.Parallel()
			p, err := Compile(tt.src)
			if err == nil || err.Error() != tt.want {
				t.Fatalf("Compile = %v, %v; want error %s", p, err, tt.want)
			}
			var fe *file.Error
			if !errors.As(err, &fe) {
				t.Errorf("error %v does not wrap a *file.Error", err)
			}
		})
	}
}

func TestEvalErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		src, want string
	}{
		{"tier + 1", `expression "tier + 1": invalid operation: string + int (1:6)`},
		{"v7 % 0", `expression "v7 % 0": runtime error: integer divide by zero (1:4)`},
		{"items[5]", `expression "items[5]": index out of range: 5 (array length is 2) (1:6)`},
		{"upper(v7)", `expression "upper(v7)": interface conversion: interface {} is int, not string (1:1)`},
		{"let x = 1; upper(v7)", `expression "let x = 1; upper(v7)": interface conversion: interface {} is int, not string (1:12)`},
		{`fromJSON(tier)`, `expression "fromJSON(tier)": invalid character 'g' looking for beginning of value (1:1)`},
	}
	vars := map[string]any{"tier": "gold", "v7": 7, "items": []any{1.0, 2.0}}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			t.Parallel()
			p, err := Compile(tt.src)
			if err != nil {
				t.Fatalf("Compile: %v", err)
			}
			got, err := p.Eval(vars)
			if err == nil || err.Error() != tt.want {
				t.Fatalf("Eval = %v, %v; want error %s", got, err, tt.want)
			}
			var fe *file.Error
			if !errors.As(err, &fe) {
				t.Errorf("error %v does not wrap a *file.Error", err)
			}
		})
	}
}

func TestNilProgram(t *testing.T) {
	t.Parallel()
	var p *Program
	if _, err := p.Eval(nil); err == nil {
		t.Error("Eval on a nil Program succeeded")
	}
}
