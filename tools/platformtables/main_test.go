package main

import (
	"bytes"
	"encoding/json"
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

// check reports the first row of rows whose line differs from data's line of the same key. A
// row measured on another version of its runtime than the one data records is not compared (the
// table says what it was measured on; 'make platform' measures again): check returns those keys.
func check(data []byte, rows []*raw) (otherVersion []string, err error) {
	have := map[string][]byte{}
	for _, l := range bytes.SplitAfter(data, []byte("\n")) {
		have[keyOf(l)] = l
	}
	for _, r := range rows {
		row, err := r.row()
		if err != nil {
			return nil, err
		}
		want, err := marshal(row)
		if err != nil {
			return nil, err
		}
		got, ok := have[row.Key]
		if !ok {
			return nil, fmt.Errorf("%s: no such row in %s: run 'make platform'", row.Key, dataFile)
		}
		var recorded struct{ Version string }
		if json.Unmarshal(got, &recorded) == nil && recorded.Version != row.Version {
			otherVersion = append(otherVersion, fmt.Sprintf("%s (recorded on %s, measured on %s)", row.Key, recorded.Version, row.Version))
			continue
		}
		if !bytes.Equal(got, want) {
			i := 0
			for i < len(got) && i < len(want) && got[i] == want[i] {
				i++
			}
			return nil, fmt.Errorf("%s: %s differs from the measurement at byte %d (%.60q, measured %.60q): run 'make platform'",
				row.Key, dataFile, i, got[min(i, len(got)):], want[min(i, len(want)):])
		}
	}
	return otherVersion, nil
}

// checkRows runs check and logs the rows of another runtime version; when no row could be
// compared, the test is skipped (it checked nothing).
func checkRows(t *testing.T, rows []*raw) {
	t.Helper()
	other, err := check(data(t), rows)
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range other {
		t.Log("not compared, another runtime version:", o)
	}
	if len(other) == len(rows) {
		t.Skipf("every row was measured on another runtime version than %s records", dataFile)
	}
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
	checkRows(t, slices.Concat(measuredGo(), swiftRows(ins(t))))
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
	checkRows(t, probe(t, "node", "scripts/platform/probe.mjs", inputsFile))
}

func TestPythonRowsAreCurrent(t *testing.T) {
	t.Parallel()
	checkRows(t, probe(t, "python3", "scripts/platform/probe.py", inputsFile))
}

// A data file with one point changed fails the check: the comparison is not the happy path only.
func TestCheckCatchesALiar(t *testing.T) {
	t.Parallel()
	d := data(t)
	rows := measuredGo()
	if other, err := check(d, rows); err != nil || len(other) > 0 {
		t.Skip("the Go rows are not current:", err, other)
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
		if _, err := check(liar, rows); err == nil {
			t.Errorf("the data with %q for %q passes the check", lie.to, lie.from)
		}
	}
	if _, err := check(bytes.Replace(d, []byte(`"key":"go:strings.TrimSpace"`), []byte(`"key":"go:strings.Trim"`), 1), rows); err == nil {
		t.Error("the data without the row go:strings.TrimSpace passes the check")
	}
}

// A row recorded on another runtime version is set aside, named, and not compared; a row of the
// same version that differs still fails.
func TestCheckSetsAsideOtherVersions(t *testing.T) {
	t.Parallel()
	d, rows := data(t), measuredGo()
	if other, err := check(d, rows); err != nil || len(other) > 0 {
		t.Skip("the Go rows are not current:", err, other)
	}
	v := []byte(`"version":"` + rows[0].head.Version + `"`)
	if !bytes.Contains(d, v) {
		t.Fatalf("no %s in the data", v)
	}
	older := bytes.ReplaceAll(d, v, []byte(`"version":"go0.0"`))
	other, err := check(older, rows)
	if err != nil || len(other) != len(rows) {
		t.Errorf("check(data of go0.0) = %d rows set aside, %v; want all %d set aside", len(other), err, len(rows))
	}
}

func TestPortingDocIsCurrent(t *testing.T) {
	want, err := renderPorting()
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.FromSlash(portingFile))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s is stale: run 'go run ./tools/platformtables -doc' (make platform) and commit the result", portingFile)
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
