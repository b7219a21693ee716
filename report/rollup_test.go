package report

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/conform-suite/conform/runner"
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
			t.Errorf("WriteText() = %q, want it to contain %q", text.String(), want)
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
		t.Errorf("WriteJSON() conformance = %+v, want %+v", got.Conformance, want)
	}
}
