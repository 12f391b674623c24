package expression_test

import (
	"errors"
	"fmt"

	"github.com/wetel/wetel/expression"
)

func Example() {
	// A run's context, as decoded from JSON plus values set by earlier nodes.
	vars := map[string]any{
		"userAge": 21.0,
		"tier":    "gold",
		"v7":      7,
		"profile": map[string]any{"city": "Paris"},
	}

	adult, _ := expression.Compile(`userAge > 18 && tier == "gold"`)
	ok, err := adult.EvalBool(vars)
	fmt.Println(ok, err)

	next, _ := expression.Compile("v7 + 1")
	fmt.Println(next.Eval(vars))

	// ?? tolerates a variable the run never set; other reads do not.
	zip, _ := expression.Compile(`zip ?? profile?.zip ?? "unknown"`)
	fmt.Println(zip.Eval(vars))
	fmt.Println(zip.Variables())

	typo, _ := expression.Compile("userAeg > 18")
	_, err = typo.EvalBool(vars)
	var missing *expression.MissingVariableError
	fmt.Println(errors.As(err, &missing), err)

	// Output:
	// true <nil>
	// 8 <nil>
	// unknown <nil>
	// [profile zip]
	// true expression "userAeg > 18": variable "userAeg" is not set
}

func ExampleProgram_Variables() {
	p, err := expression.Compile(`len(items) > limit.max && (coupon?.code ?? "") != ""`)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(p.Variables())
	// Output:
	// [coupon items limit]
}

func ExampleProgram_EvalBool() {
	p, _ := expression.Compile("amount")
	_, err := p.EvalBool(map[string]any{"amount": 3.0})
	fmt.Println(err)
	// Output:
	// expression "amount" returned a number (3), want true or false
}
