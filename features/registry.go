package features

import (
	"context"
	"errors"
	"fmt"
	"path"
	"reflect"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"

	messages "github.com/cucumber/messages/go/v34"
)

// The step definitions register into a registry of their own, which two
// drivers run: the scenario runner of this package (driver.go), used by
// [Run] and so by `conform features`, and godog, to which the package's
// tests hand every step and hook. The registry depends on neither.

// stepStatus is what happened to one step.
type stepStatus int

const (
	stepPassed stepStatus = iota
	stepFailed
	stepSkipped
	stepUndefined
	stepPending
	stepAmbiguous
)

func (s stepStatus) String() string {
	switch s {
	case stepPassed:
		return "passed"
	case stepFailed:
		return "failed"
	case stepSkipped:
		return "skipped"
	case stepUndefined:
		return "undefined"
	case stepPending:
		return "pending"
	case stepAmbiguous:
		return "ambiguous"
	}
	return "unknown"
}

// errSkip, wrapped by a step's or a hook's error, skips the scenario: its
// further steps are not run, and it is neither passed nor failed. The text
// after "skipped: " is the reason.
var errSkip = errors.New("skipped")

// The errors of steps that cannot run; their texts are godog's.
var (
	errUndefined = errors.New("step is undefined")
	errAmbiguous = errors.New("ambiguous step definition")
)

// skipReason is the reason an error wrapping errSkip gives.
func skipReason(err error) string {
	return strings.TrimPrefix(err.Error(), errSkip.Error()+": ")
}

type (
	beforeHook    func(context.Context, *messages.Pickle) (context.Context, error)
	afterHook     func(context.Context, *messages.Pickle, error) (context.Context, error)
	afterStepHook func(context.Context, *messages.PickleStep, stepStatus, error) (context.Context, error)
)

// stepDef is one step definition: the expression the step's text must
// match and the function its captured groups are passed to.
type stepDef struct {
	expr *regexp.Regexp
	fn   reflect.Value
	// where is the file and line that registered it: "steps.go:58".
	where string
}

// registry holds the step definitions and hooks of one scenario.
type registry struct {
	steps     []*stepDef
	before    []beforeHook
	after     []afterHook
	afterStep []afterStepHook
}

var (
	typeContext = reflect.TypeFor[context.Context]()
	typeError   = reflect.TypeFor[error]()
	typeDoc     = reflect.TypeFor[*messages.PickleDocString]()
	typeTable   = reflect.TypeFor[*messages.PickleTable]()
	typeBytes   = reflect.TypeFor[[]byte]()
)

// compiled caches the step expressions: every scenario registers the same
// ones.
var compiled sync.Map // string -> *regexp.Regexp

// Step defines a step: expr is a regular expression the step's text must
// match, fn a function taking an optional context.Context, one parameter per
// captured group (string, []byte, an integer or a float) and, for a step
// with a doc string or a table, a *messages.PickleDocString or
// *messages.PickleTable last. fn returns nothing, an error, a
// context.Context, or both. A definition that breaks these rules is a
// programming error and panics at once.
func (r *registry) Step(expr string, fn any) {
	re, ok := compiled.Load(expr)
	if !ok {
		re, _ = compiled.LoadOrStore(expr, regexp.MustCompile(expr))
	}
	v := reflect.ValueOf(fn)
	if v.Kind() != reflect.Func {
		panic(fmt.Sprintf("features: step %q: %T is not a function", expr, fn))
	}
	t := v.Type()
	switch {
	case t.NumOut() == 0:
	case t.NumOut() == 1 && (t.Out(0) == typeError || t.Out(0) == typeContext):
	case t.NumOut() == 2 && t.Out(0) == typeContext && t.Out(1) == typeError:
	default:
		panic(fmt.Sprintf("features: step %q: %v must return nothing, error, context.Context or (context.Context, error)", expr, t))
	}
	where := ""
	if _, file, line, ok := runtime.Caller(1); ok {
		where = path.Base(file) + ":" + strconv.Itoa(line)
	}
	r.steps = append(r.steps, &stepDef{expr: re.(*regexp.Regexp), fn: v, where: where})
}

// Before runs f before the first step of the scenario.
func (r *registry) Before(f beforeHook) { r.before = append(r.before, f) }

// After runs f once the scenario has ended: after its last step, or after
// the step that failed it.
func (r *registry) After(f afterHook) { r.after = append(r.after, f) }

// AfterStep runs f after every step, with the step's status and error.
func (r *registry) AfterStep(f afterStepHook) { r.afterStep = append(r.afterStep, f) }

// match finds the one definition the text matches and the groups it
// captured. None is (nil, nil, nil); several are an error wrapping
// errAmbiguous that lists them.
func (r *registry) match(text string) (*stepDef, []string, error) {
	var found *stepDef
	var args []string
	var exprs []string
	for _, d := range r.steps {
		m := d.expr.FindStringSubmatch(text)
		if m == nil {
			continue
		}
		exprs = append(exprs, d.expr.String())
		if found == nil {
			found, args = d, m[1:]
		}
	}
	if len(exprs) > 1 {
		return nil, nil, fmt.Errorf("%w, step text: %s\n    matches:\n        %s", errAmbiguous, text, strings.Join(exprs, "\n        "))
	}
	return found, args, nil
}

// call converts args (and the step's doc string or table) to fn's
// parameters and calls it.
func (d *stepDef) call(ctx context.Context, args []string, arg *messages.PickleStepArgument) (context.Context, error) {
	t := d.fn.Type()
	var in []reflect.Value
	first := 0
	if t.NumIn() > 0 && t.In(0) == typeContext {
		in = append(in, reflect.ValueOf(ctx))
		first = 1
	}
	n := t.NumIn() - first
	given := len(args)
	if arg != nil && (arg.DocString != nil || arg.DataTable != nil) {
		given++
	}
	if given < n {
		return ctx, fmt.Errorf("the step definition %s expects %d arguments, the step gives %d", d.expr, n, given)
	}
	for i := range n {
		p := t.In(first + i)
		if i == len(args) {
			v, err := docOrTable(p, i, arg)
			if err != nil {
				return ctx, err
			}
			in = append(in, v)
			continue
		}
		v, err := convert(p, i, args[i])
		if err != nil {
			return ctx, err
		}
		in = append(in, v)
	}
	out := d.fn.Call(in)
	var err error
	for _, o := range out {
		switch x := o.Interface().(type) {
		case context.Context:
			ctx = x
		case error:
			err = x
		}
	}
	return ctx, err
}

// convert turns the captured group s into a value of type p, the parameter
// i of a step function.
func convert(p reflect.Type, i int, s string) (reflect.Value, error) {
	v := reflect.New(p).Elem()
	switch p.Kind() {
	case reflect.String:
		v.SetString(s)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		n, err := strconv.ParseInt(s, 10, p.Bits())
		if err != nil {
			return v, fmt.Errorf("cannot convert argument %d: %q to %s: %v", i, s, p, err)
		}
		v.SetInt(n)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		n, err := strconv.ParseUint(s, 10, p.Bits())
		if err != nil {
			return v, fmt.Errorf("cannot convert argument %d: %q to %s: %v", i, s, p, err)
		}
		v.SetUint(n)
	case reflect.Float32, reflect.Float64:
		f, err := strconv.ParseFloat(s, p.Bits())
		if err != nil {
			return v, fmt.Errorf("cannot convert argument %d: %q to %s: %v", i, s, p, err)
		}
		v.SetFloat(f)
	default:
		if p != typeBytes {
			return v, fmt.Errorf("parameter %d of type %s is not supported", i, p)
		}
		v.SetBytes([]byte(s))
	}
	return v, nil
}

// docOrTable is the step's doc string or table as parameter i of type p.
func docOrTable(p reflect.Type, i int, arg *messages.PickleStepArgument) (reflect.Value, error) {
	switch {
	case p == typeDoc && arg.DocString != nil:
		return reflect.ValueOf(arg.DocString), nil
	case p == typeTable && arg.DataTable != nil:
		return reflect.ValueOf(arg.DataTable), nil
	case p == typeDoc, p == typeTable:
		return reflect.Value{}, fmt.Errorf("cannot convert argument %d: the step's argument is not a %s", i, p)
	}
	return reflect.Value{}, fmt.Errorf("parameter %d of type %s is not supported", i, p)
}
