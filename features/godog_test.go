package features

import (
	"context"
	"errors"
	"reflect"
	"testing"

	"github.com/cucumber/godog"
)

// runGodog runs the scenarios of opts as [Run] does, but through godog:
// the same step definitions and hooks, registered into godog by adapt.
// When t is not nil every scenario is a subtest of it.
func runGodog(t *testing.T, opts Options) int {
	return run(opts, func(h *harness, opts Options, paths []string) int {
		suite := godog.TestSuite{
			Name: "conform",
			ScenarioInitializer: func(sc *godog.ScenarioContext) {
				reg := &registry{}
				h.initScenario(reg)
				adapt(sc, reg)
			},
			Options: &godog.Options{
				Strict: true, Format: opts.Format, Tags: opts.Tags, Paths: paths, FS: opts.FS,
				Output: opts.Output, NoColors: opts.NoColors, Concurrency: opts.Concurrency,
			},
		}
		if t != nil {
			suite.Options.TestingT = t
		}
		return suite.Run()
	})
}

// adapt registers the step definitions and hooks of reg into sc. A skip
// (an error wrapping errSkip) becomes godog's, and godog's step statuses
// become the registry's.
func adapt(sc *godog.ScenarioContext, reg *registry) {
	for _, d := range reg.steps {
		sc.Step(d.expr, godogStep(d.fn))
	}
	for _, f := range reg.before {
		sc.Before(func(ctx context.Context, p *godog.Scenario) (context.Context, error) {
			ctx, err := f(ctx, p)
			return ctx, toGodog(err)
		})
	}
	for _, f := range reg.after {
		sc.After(func(ctx context.Context, p *godog.Scenario, err error) (context.Context, error) {
			ctx, err = f(ctx, p, err)
			return ctx, toGodog(err)
		})
	}
	for _, f := range reg.afterStep {
		sc.StepContext().After(func(ctx context.Context, st *godog.Step, status godog.StepResultStatus, err error) (context.Context, error) {
			ctx, err = f(ctx, st, fromGodogStatus(status), err)
			return ctx, toGodog(err)
		})
	}
}

// godogStep wraps a step function in one of the same type whose error
// results godog understands.
func godogStep(fn reflect.Value) any {
	return reflect.MakeFunc(fn.Type(), func(in []reflect.Value) []reflect.Value {
		out := fn.Call(in)
		for i, o := range out {
			if o.Type() == typeError && !o.IsNil() {
				out[i] = reflect.ValueOf(toGodog(o.Interface().(error))).Convert(typeError)
			}
		}
		return out
	}).Interface()
}

// godogSkip is a skip as godog knows it, with the registry's error inside.
type godogSkip struct{ err error }

func (e godogSkip) Error() string        { return e.err.Error() }
func (e godogSkip) Unwrap() error        { return e.err }
func (e godogSkip) Is(target error) bool { return target == godog.ErrSkip }

func toGodog(err error) error {
	if err != nil && errors.Is(err, errSkip) {
		return godogSkip{err}
	}
	return err
}

func fromGodogStatus(s godog.StepResultStatus) stepStatus {
	switch s {
	case godog.StepPassed:
		return stepPassed
	case godog.StepSkipped:
		return stepSkipped
	case godog.StepUndefined:
		return stepUndefined
	case godog.StepPending:
		return stepPending
	case godog.StepAmbiguous:
		return stepAmbiguous
	}
	return stepFailed
}
