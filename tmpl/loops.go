package tmpl

import (
	"cmp"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/mailgun/raymond/v2"
)

// eachHelper replaces raymond's {{#each}}. raymond grows the result with
// string +=, quadratic in the number of items, and has no bound: a 100k-item
// array takes seconds and nested loops over it take the process down. This
// one appends to a builder under the per-render budget, and walks map keys in
// sorted order where raymond follows Go's random map order.
func eachHelper(v any, o *raymond.Options) any {
	if !raymond.IsTrue(v) {
		return o.Inverse()
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Array, reflect.Slice:
		return loopSlice(rv, o)
	case reflect.Map:
		keys := rv.MapKeys()
		names := make([]string, len(keys))
		order := make([]int, len(keys))
		for i, k := range keys {
			names[i], order[i] = fmt.Sprint(k.Interface()), i
		}
		slices.SortFunc(order, func(a, b int) int { return cmp.Compare(names[a], names[b]) })
		var out loopOutput
		for i, k := range order {
			out.add(o, rv.MapIndex(keys[k]).Interface(), i, len(keys), keys[k].Interface())
		}
		return out.String()
	}
	return ""
}

// sectionHelperFunc replaces raymond's handling of a block that is not a
// helper call ({{#items}}…{{/items}}): an array loops like each, any other
// truthy value becomes the block's context, a falsy one selects the inverse.
func sectionHelperFunc(v any, o *raymond.Options) any {
	if !raymond.IsTrue(v) {
		return o.Inverse()
	}
	rv := reflect.ValueOf(v)
	if k := rv.Kind(); k == reflect.Array || k == reflect.Slice {
		return loopSlice(rv, o)
	}
	return o.FnWith(v)
}

func loopSlice(rv reflect.Value, o *raymond.Options) string {
	var out loopOutput
	for i := range rv.Len() {
		// raymond leaves @key unset for arrays; so does this.
		out.add(o, rv.Index(i).Interface(), i, rv.Len(), nil)
	}
	return out.String()
}

// loopOutput collects one loop's output. A loop's output is part of the
// final output, so passing MaxOutputBytes is already a failure.
type loopOutput struct{ strings.Builder }

func (out *loopOutput) add(o *raymond.Options, ctx any, i, n int, key any) {
	if b := budgetOf(o); b != nil {
		b.iterations++
		if b.iterations > MaxIterations {
			panic(ErrTooManyIterations)
		}
	}
	frame := o.NewDataFrame()
	frame.Set("index", i)
	frame.Set("key", key)
	frame.Set("first", i == 0)
	frame.Set("last", i == n-1)
	out.WriteString(o.FnCtxData(ctx, frame))
	if out.Len() > MaxOutputBytes {
		panic(ErrOutputTooLarge)
	}
}
