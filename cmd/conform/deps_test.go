package main

import (
	"os/exec"
	"strings"
	"testing"
)

// TestDeps checks what the conform binary links: not the testing package,
// not godog (the scenarios run on conform's own runner; godog drives them
// only in go test ./features), and not the fake implementations of the
// tests.
func TestDeps(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps: %v\n%s", err, out)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 10 || deps[len(deps)-1] != "github.com/conform-suite/conform/cmd/conform" {
		t.Fatalf("go list -deps gave no list of packages ending with the binary's:\n%s", out)
	}
	for _, p := range deps {
		if p == "testing" || strings.HasPrefix(p, "testing/") || strings.Contains(p, "godog") || strings.HasSuffix(p, "/internal/fakeimpl") {
			t.Errorf("the conform binary depends on %s", p)
		}
	}
}
