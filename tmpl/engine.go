package tmpl

import (
	"fmt"
	"strings"

	"github.com/mailgun/raymond/v2"
)

// engine is a rewritten template parsed by raymond, with the helpers that
// make it behave as this package promises. raymond templates are safe to
// execute concurrently: the program is read-only and each execution has its
// own evaluator.
type engine struct {
	tpl *raymond.Template
}

// newEngine parses the rewritten source and registers the helpers the
// rewrite refers to, plus replacements for built-ins that misbehave here.
func newEngine(rewritten string) (e *engine, err error) {
	defer func() {
		if r := recover(); r != nil {
			e, err = nil, fmt.Errorf("invalid template: %v", r)
		}
	}()
	tpl, err := raymond.Parse(rewritten)
	if err != nil {
		return nil, fmt.Errorf("invalid template: %w", err)
	}
	tpl.RegisterHelper(textHelper, textHelperFunc)
	// raymond's lookup returns Str(value), turning a map into Go syntax before
	// textHelper sees it; returning the value itself also lets
	// {{#with (lookup a b)}} reach into the result.
	tpl.RegisterHelper("lookup", func(obj any, field string, o *raymond.Options) any {
		return o.Eval(obj, field)
	})
	// Templates are written by workflow authors and fed user data: {{log}}
	// would let either flood the server log.
	tpl.RegisterHelper("log", func(string) any { return "" })
	tpl.RegisterHelper("each", eachHelper)
	tpl.RegisterHelper(sectionHelper, sectionHelperFunc)
	return &engine{tpl: tpl}, nil
}

// budgetKey names the per-render budget in raymond's private data frame,
// which every helper can read and every iteration frame copies. Templates
// reach data by @name or @[name]; neither can spell a newline.
const budgetKey = "tmpl\nbudget"

// budget is the work one render may do. Output and iterations are counted
// as they happen, so a loop over a huge array, or loops nested over the same
// array, fail early instead of building gigabytes or spinning for minutes.
type budget struct {
	text       int // bytes written by mustaches
	iterations int // block bodies run by loops
}

func budgetOf(o *raymond.Options) *budget {
	b, _ := o.Data(budgetKey).(*budget)
	return b
}

func (e *engine) render(vars map[string]any) (out string, err error) {
	defer func() {
		if r := recover(); r != nil {
			out, err = "", fmt.Errorf("render template: %v", r)
			if rerr, ok := r.(error); ok {
				err = fmt.Errorf("render template: %w", rerr)
			}
		}
	}()
	frame := raymond.NewDataFrame()
	frame.Set(budgetKey, &budget{})
	out, err = e.tpl.ExecWith(vars, frame)
	if err != nil {
		if isLimit(err) {
			return "", err
		}
		return "", fmt.Errorf("render template: %w", err)
	}
	if len(out) > MaxOutputBytes {
		return "", ErrOutputTooLarge
	}
	return out, nil
}

// textHelperFunc renders one mustache's value. Every mustache it renders ends
// up in the output (no built-in helper drops a rendered block), so the running
// total is a lower bound of the output size and can stop a render early.
func textHelperFunc(v any, o *raymond.Options) string {
	var b strings.Builder
	if err := writeText(&b, v); err != nil {
		panic(err)
	}
	if bud := budgetOf(o); bud != nil {
		bud.text += b.Len()
		if bud.text > MaxOutputBytes {
			panic(ErrOutputTooLarge)
		}
	}
	return b.String()
}
