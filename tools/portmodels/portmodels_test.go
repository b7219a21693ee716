package main

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/conform-suite/conform/spec"
)

// The tests run from the module root, where the programs' paths are, with
// this test binary as the models' reference.
func TestMain(m *testing.M) {
	if err := os.Chdir("../.."); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	if err := referenceEnv(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	os.Exit(m.Run())
}

// checkModel is the promise of a model: conform fails it (its ops' vectors,
// or the scenarios for a model whose slip only they can see); with pass, the
// promise of the identity model: conform run passes it on the whole corpus,
// and conform features on the protocol's scenarios.
func checkModel(m *model, pass bool) error {
	switch {
	case pass:
		if v := judge(m, checkRun, 0, ""); v.code != 0 {
			return fmt.Errorf("conform run fails the proxy alone (exit %d): the proxy is not faithful\n%s", v.code, v.output)
		}
		if v := judge(m, checkFeatures, 0, "", "protocol"); v.code != 0 {
			return fmt.Errorf("conform features protocol fails the proxy alone (exit %d): the proxy is not faithful\n%s", v.code, v.output)
		}
	case m.Check == "features":
		// the models the scenarios catch slip in the protocol: its scenarios say
		if v := judge(m, checkFeatures, 0, "", "protocol"); !v.failed() {
			return fmt.Errorf("conform features does not fail it (exit %d): a scenario is missing for %s\n%s", v.code, m.Slip, v.output)
		}
	default:
		if v := judge(m, checkRun, 0, ""); !v.failed() {
			return fmt.Errorf("conform run --op %s does not fail it (exit %d): a vector is missing for %s\n%s",
				strings.Join(m.Ops, ","), v.code, m.Slip, v.output)
		}
	}
	return nil
}

// Every port model fails conform on its own ops, and the proxy alone
// passes. A model that passes is a failing test: the fix is a vector or a
// spec decision, never deleting the model.
func TestPortModelsFail(t *testing.T) {
	models, missing, err := all()
	if err != nil {
		t.Fatal(err)
	}
	for _, lang := range missing {
		if os.Getenv("CI") == "true" {
			t.Errorf("the runtime of the %s port models is not on PATH", lang)
		} else {
			t.Logf("the runtime of the %s port models is not on PATH: they are not run", lang)
		}
	}
	for _, m := range models {
		// one at a time: a model, its reference and conform's judge keep both
		// cores of a CI machine busy while the other packages test beside them
		t.Run(m.lang.name+"/"+m.Model, func(t *testing.T) {
			if err := checkModel(m, m.Model == identity); err != nil {
				t.Error(err)
			}
		})
	}
}

// The promise is checked, not assumed: the proxy alone, checked as a slip
// of quote.normalize, is reported as a model conform does not fail.
func TestCheckModelCatchesAPassingModel(t *testing.T) {
	models, _, err := all()
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range models {
		if m.Model != identity {
			continue
		}
		liar := *m
		liar.Ops, liar.Slip = []string{"quote.normalize"}, "nothing at all"
		if err := checkModel(&liar, false); err == nil {
			t.Errorf("%s: the proxy alone, checked as a slip, was not reported", m.lang.name)
		}
		return
	}
	t.Skip("no port model program to borrow a proxy from")
}

// Every row an op can show, of a language with a program of port models,
// has a model; the languages with no program are named.
func TestEveryObservableRowHasAModel(t *testing.T) {
	models, missing, err := all()
	if err != nil {
		t.Fatal(err)
	}
	if len(missing) > 0 && os.Getenv("CI") != "true" {
		t.Logf("not listed, their runtime not on PATH: %s", strings.Join(missing, ", "))
	}
	rows, err := observable()
	if err != nil {
		t.Fatal(err)
	}
	unmodelledRows, noProgram := unmodelled(models, rows)
	for _, key := range unmodelledRows {
		t.Errorf("row %s: a vector shows it (tag %s) and no port model stands for it", key, spec.BuiltinTag(key))
	}
	for _, l := range noProgram {
		t.Logf("%s: %d observable rows, no program of port models (its runtime does not run here)", l, len(rows[l]))
	}

	// the liar: the listing without the models of one row is reported
	for _, m := range models {
		if m.Row == nil {
			continue
		}
		row := *m.Row
		liar := slices.DeleteFunc(slices.Clone(models), func(o *model) bool { return o.Row != nil && *o.Row == row })
		if got, _ := unmodelled(liar, rows); !slices.Contains(got, row) {
			t.Errorf("the listing without the models of row %s: the row is not reported (got %v)", row, got)
		}
		break
	}
}
