package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"unicode"

	"github.com/conform-suite/conform/spec"
)

// The tests run from the module root, where the generator's paths are.
func TestMain(m *testing.M) {
	if err := os.Chdir("../.."); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	os.Exit(m.Run())
}

// check reports the first row of rows whose line differs from data's line of the same key.
func check(data []byte, rows []*raw) error {
	have := map[string][]byte{}
	for _, l := range bytes.SplitAfter(data, []byte("\n")) {
		have[keyOf(l)] = l
	}
	for _, r := range rows {
		row, err := r.row()
		if err != nil {
			return err
		}
		want, err := marshal(row)
		if err != nil {
			return err
		}
		got, ok := have[row.Key]
		if !ok {
			return fmt.Errorf("%s: no such row in %s: run 'make platform'", row.Key, dataFile)
		}
		if !bytes.Equal(got, want) {
			i := 0
			for i < len(got) && i < len(want) && got[i] == want[i] {
				i++
			}
			return fmt.Errorf("%s: %s differs from the measurement at byte %d (%.60q, measured %.60q): run 'make platform'",
				row.Key, dataFile, i, got[min(i, len(got)):], want[min(i, len(want)):])
		}
	}
	return nil
}

func data(t *testing.T) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.FromSlash(dataFile))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(b, []byte(header)) {
		t.Fatalf("%s does not start with its generated-file header", dataFile)
	}
	return b
}

func ins(t *testing.T) inputs {
	t.Helper()
	in, err := readInputs()
	if err != nil {
		t.Fatal(err)
	}
	return in
}

// measuredGo is the Go rows, measured once for the tests that need them.
var measuredGo = sync.OnceValue(func() []*raw {
	in, err := readInputs()
	if err != nil {
		panic(err)
	}
	return goRows(in)
})

func TestGoAndDocumentedRowsAreCurrent(t *testing.T) {
	t.Parallel()
	if unicode.Version != spec.UnicodeVersion {
		t.Skipf("the Go toolchain has the tables of Unicode %s, the documented rows are derived with those of %s", unicode.Version, spec.UnicodeVersion)
	}
	if err := check(data(t), slices.Concat(measuredGo(), swiftRows(ins(t)))); err != nil {
		t.Error(err)
	}
}

// probe runs a probe of another runtime, or skips (fails in CI) when the runtime is missing.
func probe(t *testing.T, name string, args ...string) []*raw {
	t.Helper()
	if _, err := exec.LookPath(name); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s is not on PATH: the platform tables cannot be checked", name)
		}
		t.Skipf("%s is not on PATH: its rows of %s are not checked", name, dataFile)
	}
	rows, err := runProbe(name, args...)
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

func TestNodeRowsAreCurrent(t *testing.T) {
	t.Parallel()
	if err := check(data(t), probe(t, "node", "scripts/platform/probe.mjs", inputsFile)); err != nil {
		t.Error(err)
	}
}

func TestPythonRowsAreCurrent(t *testing.T) {
	t.Parallel()
	if err := check(data(t), probe(t, "python3", "scripts/platform/probe.py", inputsFile)); err != nil {
		t.Error(err)
	}
}

// A data file with one point changed fails the check: the comparison is not the happy path only.
func TestCheckCatchesALiar(t *testing.T) {
	t.Parallel()
	d := data(t)
	rows := measuredGo()
	if err := check(d, rows); err != nil {
		t.Skip("the Go rows are not current:", err)
	}
	for _, lie := range []struct{ from, to string }{
		{`"members":"0009-000D 0020 0085 00A0`, `"members":"0009-000D 0020 00A0`}, // unicode.IsSpace without NEL
		{`["017F","s"],["212A","k"]`, `["017F","s"]`},                             // EqualFold without the Kelvin sign
		{`["1_0","refused"]`, `["1_0","10"]`},                                     // Atoi reading 1_0
	} {
		liar := bytes.Replace(d, []byte(lie.from), []byte(lie.to), 1)
		if bytes.Equal(liar, d) {
			t.Fatalf("%q is not in the data", lie.from)
		}
		if err := check(liar, rows); err == nil {
			t.Errorf("the data with %q for %q passes the check", lie.to, lie.from)
		}
	}
	if err := check(bytes.Replace(d, []byte(`"key":"go:strings.TrimSpace"`), []byte(`"key":"go:strings.Trim"`), 1), rows); err == nil {
		t.Error("the data without the row go:strings.TrimSpace passes the check")
	}
}

func TestDocIsCurrent(t *testing.T) {
	want, err := renderDoc()
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.FromSlash(docFile))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s is stale: run 'go run ./tools/platformtables -doc' (make platform) and commit the result", docFile)
	}
	for _, c := range []string{"quote.space", "selref.label", "marker.line", "quote.elements"} {
		if !strings.Contains(string(got), "## "+c+"\n") {
			t.Errorf("%s has no section %s", docFile, c)
		}
	}
}
