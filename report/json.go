package report

import (
	"bufio"
	"encoding/json"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/conform-suite/conform/internal/jsonv"
	"github.com/conform-suite/conform/protocol"
	"github.com/conform-suite/conform/runner"
)

type jsonCodeless struct {
	ID      string         `json:"id"`
	Outcome runner.Outcome `json:"outcome"`
	Member  string         `json:"member"`
	Code    string         `json:"code"`
}

type jsonVerdict struct {
	Passed   bool     `json:"passed"`
	Problems []string `json:"problems"`
}

type jsonResult struct {
	ID           string          `json:"id"`
	Op           string          `json:"op"`
	Outcome      runner.Outcome  `json:"outcome"`
	Kind         string          `json:"kind"`
	Required     bool            `json:"required,omitempty"`
	Codeless     string          `json:"codeless,omitempty"`
	Requirements []string        `json:"requirements"`
	DurationMS   float64         `json:"duration_ms"`
	Detail       string          `json:"detail,omitempty"`
	Diffs        []string        `json:"diffs,omitempty"`
	Reason       string          `json:"reason,omitempty"`
	Request      string          `json:"request,omitempty"`
	Expected     json.RawMessage `json:"expected,omitempty"`
	Actual       json.RawMessage `json:"actual,omitempty"`
	Clipped      *runner.Clipped `json:"actual_clipped,omitempty"`
	ActualNote   string          `json:"actual_note,omitempty"`
	Stderr       string          `json:"stderr,omitempty"`
	Recorded     *jsonRecorded   `json:"recorded,omitempty"`
}

// jsonRecorded is the divergence record a result was graded against.
type jsonRecorded struct {
	System string `json:"system"`
	Reason string `json:"reason"`
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// JSON writes the JSON report. Failing results carry the request line,
// the expected and actual outputs and the details; passing ones only their
// outcome and duration. An actual output longer than MaxAnswerKept is given
// by its size, SHA-256 and first bytes (actual_clipped). The results are
// written one at a time: the report is never held whole in memory.
func JSON(w io.Writer, r *runner.Report) error {
	var shard *string
	if sh := r.Shard.String(); sh != "" {
		shard = &sh
	}
	codeless := []jsonCodeless{}
	for _, res := range r.CodelessResults() {
		codeless = append(codeless, jsonCodeless{res.Vector.ID, res.Outcome, res.Codeless.Member, res.Codeless.Code})
	}
	verdict := jsonVerdict{Passed: !r.Failed(), Problems: r.Problems()}
	if verdict.Problems == nil {
		verdict.Problems = []string{}
	}
	bw := bufio.NewWriter(w)
	jw := &jsonWriter{w: bw}
	jw.raw("{\n")
	jw.member("$schema", "https://conform-suite.github.io/schemas/report.schema.json")
	jw.member("suite_version", r.SuiteVersion)
	jw.member("protocol", protocol.Version)
	jw.member("implementation", r.Implementation)
	if r.Conform != nil {
		jw.member("conform", r.Conform)
	}
	jw.member("transport", r.Transport)
	jw.member("profile", runner.ProfileName(r.Profile))
	jw.member("shard", shard)
	jw.member("started", r.Started.UTC().Format(time.RFC3339Nano))
	jw.member("duration_ms", ms(r.Duration))
	jw.member("totals", r.Totals())
	if len(r.Results) == 0 {
		jw.raw(`  "results": [],` + "\n")
	} else {
		jw.raw(`  "results": [`)
		for i := range r.Results {
			if i > 0 {
				jw.raw(",")
			}
			jw.raw("\n    ")
			jw.value(jsonResultOf(&r.Results[i]), "", "")
		}
		jw.raw("\n  ],\n")
	}
	jw.member("stale_expectations", append([]runner.Expectation{}, r.Stale...))
	jw.member("codeless_refusals", codeless)
	jw.member("verdict", verdict)
	jw.member("requirements", r.Requirements())
	jw.last("conformance", r.Conformance())
	jw.raw("\n}\n")
	if jw.err != nil {
		return jw.err
	}
	return bw.Flush()
}

// jsonResultOf is one result of the JSON report.
func jsonResultOf(res *runner.Result) jsonResult {
	jr := jsonResult{
		ID: res.Vector.ID, Op: res.Vector.Op, Outcome: res.Outcome, Kind: res.Kind(),
		Requirements: res.Vector.Requirements, DurationMS: ms(res.Duration),
		Detail: res.Detail, Diffs: res.Diffs, Reason: res.Reason, Required: res.Required,
	}
	if d := res.Recorded; d != nil {
		jr.Recorded = &jsonRecorded{d.System, d.Reason}
	}
	if c := res.Codeless; c != nil {
		jr.Codeless = c.Member
	}
	if jr.Requirements == nil {
		jr.Requirements = []string{}
	}
	if res.Failed() || res.Outcome == runner.XFail {
		jr.Request, _ = runner.RequestLine(res.Request)
		jr.Request = strings.TrimSuffix(jr.Request, "\n")
		jr.Expected, jr.Actual, jr.ActualNote, jr.Stderr = res.Expected, res.Actual, res.ActualNote, res.Stderr
		jr.Clipped = res.Clipped
	}
	return jr
}

// jsonWriter writes an indented JSON object member by member, keeping the
// first error.
type jsonWriter struct {
	w   *bufio.Writer
	err error
}

func (j *jsonWriter) raw(s string) {
	if j.err == nil {
		_, j.err = j.w.WriteString(s)
	}
}

// value writes v indented as a value nested at the given prefix; with
// indent "" it writes v on one line (a result: its answer is written as it
// was kept, never indented, since indenting costs its depth on every line).
func (j *jsonWriter) value(v any, prefix, indent string) {
	if j.err != nil {
		return
	}
	var data []byte
	if data, j.err = jsonv.MarshalIndent(v, prefix, indent); j.err == nil {
		_, j.err = j.w.Write(data)
	}
}

func (j *jsonWriter) member(name string, v any) {
	j.last(name, v)
	j.raw(",\n")
}

func (j *jsonWriter) last(name string, v any) {
	j.raw("  " + strconv.Quote(name) + ": ")
	j.value(v, "  ", "  ")
}
