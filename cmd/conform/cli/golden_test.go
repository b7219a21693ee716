package cli

import (
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/conform-suite/conform/internal/fakeimpl"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// durations are the only part of a report that changes from run to run.
var durations = regexp.MustCompile(`\b[0-9.]+(ns|µs|ms|s)\)`)

// TestGolden compares whole outputs with testdata/*.golden; run the tests
// with -update to rewrite them after a deliberate change.
func TestGolden(t *testing.T) {
	dir := echoDir(t)
	tests := []struct {
		name string
		args func() []string
	}{
		{"help", func() []string { return []string{"help"} }},
		{"run-wrong", func() []string {
			return []string{"run", "--vectors", dir, "--stdio", self(t, fakeimpl.Wrong)}
		}},
		{"run-wrong-markdown", func() []string {
			return []string{"run", "--vectors", dir, "--stdio", self(t, fakeimpl.Wrong), "--text", os.DevNull, "--markdown", "-"}
		}},
		{"list", func() []string { return []string{"list", "--vectors", dir, "--op", "echo.echo"} }},
		{"list-help", func() []string { return []string{"list", "-h"} }},
		{"report-help", func() []string { return []string{"report", "-h"} }},
		{"version-help", func() []string { return []string{"version", "-h"} }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, stdout, _ := conform(t, "", tt.args()...)
			got := strings.ReplaceAll(stdout, quoteArg(os.Args[0]), "IMPL")
			got = strings.ReplaceAll(got, os.Args[0], "IMPL")
			got = durations.ReplaceAllString(got, "DURATION)")
			path := filepath.Join("testdata", tt.name+".golden")
			if *update {
				if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run 'go test ./cmd/conform/cli -run TestGolden -update' to create it)", err)
			}
			if got != string(want) {
				t.Errorf("conform %s output differs from %s:\n--- got\n%s\n--- want\n%s", tt.name, path, got, want)
			}
		})
	}
}
