package report

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/conform-suite/conform/runner"
	"github.com/conform-suite/conform/spec"
)

// TestConformanceInReports checks that the text report ends its summary
// with one line per exercised level and that the JSON report carries the
// same roll-up.
func TestConformanceInReports(t *testing.T) {
	r := rollupReport(t)
	var text bytes.Buffer
	if err := Text(&text, r, TextOptions{}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"requirements: conforms to 1 of 2 MUST requirements run (1 more unsupported)\n",
		"requirements: conforms to 1 of 1 SHOULD requirements run\n",
		"requirements: conforms to 0 of 1 MAY requirements run\n",
	} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("Text() = %q, want it to contain %q", text.String(), want)
		}
	}
	var js bytes.Buffer
	if err := JSON(&js, r); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Conformance []runner.LevelRollup `json:"conformance"`
	}
	if err := json.Unmarshal(js.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if want := r.Conformance(); !slices.Equal(got.Conformance, want) {
		t.Errorf("JSON() conformance = %+v, want %+v", got.Conformance, want)
	}
}

func TestConformance(t *testing.T) {
	got := rollupReport(t).Conformance()
	want := []runner.LevelRollup{
		{Level: spec.Must, Tested: 2, Conforming: 1, Unsupported: 1},
		{Level: spec.Should, Tested: 1, Conforming: 1},
		{Level: spec.May, Tested: 1, Conforming: 0},
	}
	if !slices.Equal(got, want) {
		t.Errorf("Conformance() = %+v, want %+v", got, want)
	}
}

func TestLevelSummary(t *testing.T) {
	tests := []struct {
		l    runner.LevelRollup
		want string
	}{
		{runner.LevelRollup{Level: spec.Must, Tested: 214, Conforming: 212}, "conforms to 212 of 214 MUST requirements run"},
		{runner.LevelRollup{Level: spec.Must, Tested: 2, Conforming: 1, Unsupported: 3}, "conforms to 1 of 2 MUST requirements run (3 more unsupported)"},
		{runner.LevelRollup{Level: spec.May}, "no MAY requirement run"},
		{runner.LevelRollup{Level: spec.Should, Unsupported: 3}, "no SHOULD requirement run (3 unsupported)"},
	}
	for _, tt := range tests {
		if got := tt.l.Summary(); got != tt.want {
			t.Errorf("%+v.Summary() = %q, want %q", tt.l, got, tt.want)
		}
	}
}
