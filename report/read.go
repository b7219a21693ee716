package report

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/conform-suite/conform/internal/safetext"
	"github.com/conform-suite/conform/protocol"
	"github.com/conform-suite/conform/runner"
	"github.com/conform-suite/conform/spec"
	"github.com/conform-suite/conform/vectors"
)

// jsonReport is a JSON report as ReadJSON decodes it: the members JSON
// writes that it reads, with the profile read as it is (an older report
// may name it in an object) and the results whole.
type jsonReport struct {
	SuiteVersion   string               `json:"suite_version"`
	Implementation *protocol.Hello      `json:"implementation"`
	Conform        *runner.Identity     `json:"conform,omitempty"`
	Transport      string               `json:"transport"`
	Profile        json.RawMessage      `json:"profile"`
	Shard          *string              `json:"shard"`
	Started        string               `json:"started"`
	DurationMS     float64              `json:"duration_ms"`
	Stale          []runner.Expectation `json:"stale_expectations"`
	Codeless       []jsonCodeless       `json:"codeless_refusals"`
	Results        []jsonResult         `json:"results"`
}

// ReadJSON reads a JSON report (schemas/report.schema.json, as JSON writes
// it) back into the runner's types: each result with the outcome the run
// gave it, its requirements, what went wrong and the answers a failure
// kept. sp, when not nil, gives the requirements their levels and texts.
// Members it does not know are ignored, so a newer conform's reports
// read; the totals, verdict and roll-ups are not read but made again from
// the results, as they were made when the report was written. A result
// without its id, op or a known outcome is an error.
//
// The report is read as a stream, a result at a time, and at most
// MaxReportInput bytes of it: what it holds is the results, decoded, never
// the text whole besides them.
func ReadJSON(rd io.Reader, sp *spec.Spec) (*runner.Report, error) {
	return readJSON(rd, sp, MaxReportInput)
}

// readJSON is ReadJSON reading at most limit bytes.
func readJSON(rd io.Reader, sp *spec.Spec, limit int64) (*runner.Report, error) {
	lr := &io.LimitedReader{R: rd, N: limit + 1}
	jr, err := decodeReport(json.NewDecoder(lr))
	if lr.N <= 0 {
		return nil, fmt.Errorf("the report is longer than the limit of %s bytes", safetext.Thousands(int(limit)))
	}
	if err != nil {
		return nil, fmt.Errorf("not a conform JSON report: %v", err)
	}
	r := &runner.Report{
		SuiteVersion: jr.SuiteVersion, Implementation: jr.Implementation, Transport: jr.Transport,
		Duration: time.Duration(jr.DurationMS * float64(time.Millisecond)), Conform: jr.Conform, Spec: sp,
		Profile: profileName(jr.Profile),
	}
	if jr.Started != "" {
		t, err := time.Parse(time.RFC3339Nano, jr.Started)
		if err != nil {
			return nil, fmt.Errorf("started: %v", err)
		}
		r.Started = t
	}
	if jr.Shard != nil && *jr.Shard != "" {
		sh, err := runner.ParseShard(*jr.Shard)
		if err != nil {
			return nil, fmt.Errorf("shard: %v", err)
		}
		r.Shard = sh
	}
	r.Stale = append(r.Stale, jr.Stale...) // nil when the report lists none
	codes := map[string]string{}
	for _, c := range jr.Codeless {
		codes[c.ID] = c.Code
	}
	for i, x := range jr.Results {
		if x.ID == "" || x.Op == "" || !slices.Contains(runner.Outcomes, x.Outcome) {
			return nil, fmt.Errorf("result %d lacks its id, op or a known outcome", i)
		}
		res := runner.Result{
			Vector:  &vectors.Vector{ID: x.ID, Op: x.Op, Requirements: x.Requirements},
			Outcome: x.Outcome, Required: x.Required, Detail: x.Detail, Diffs: x.Diffs, Reason: x.Reason,
			Expected: x.Expected, Actual: x.Actual, Clipped: x.Clipped, ActualNote: x.ActualNote, Stderr: x.Stderr,
			Duration: time.Duration(x.DurationMS * float64(time.Millisecond)),
		}
		switch x.Kind {
		case runner.AcceptedWrongly.String():
			res.Comparison = runner.AcceptedWrongly
		case runner.RejectedWrongly.String():
			res.Comparison = runner.RejectedWrongly
		}
		if x.Request != "" {
			req, bad := protocol.ParseRequest([]byte(x.Request))
			if bad != nil {
				return nil, fmt.Errorf("result %s: the request is not a protocol request: %s", x.ID, bad.Error.Message)
			}
			res.Request = req
		}
		if d := x.Recorded; d != nil {
			res.Recorded = &vectors.Divergence{System: d.System, Record: vectors.Record{Reason: d.Reason}}
		}
		if x.Codeless != "" {
			res.Codeless = &runner.CodelessRefusal{Member: x.Codeless, Code: codes[x.ID]}
		}
		r.Results = append(r.Results, res)
	}
	return r, nil
}

// MaxReportInput is the longest JSON report ReadJSON reads: about twice
// the report of a whole corpus failing with every answer kept at its limit.
const MaxReportInput = 256 << 20

// decodeReport decodes a report member by member, the results one by one.
func decodeReport(dec *json.Decoder) (*jsonReport, error) {
	if t, err := dec.Token(); err != nil {
		return nil, err
	} else if t != json.Delim('{') {
		return nil, errors.New("it is not a JSON object")
	}
	head := map[string]json.RawMessage{}
	var jr jsonReport
	results := false
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, err
		}
		name, _ := t.(string)
		if name != "results" {
			var raw json.RawMessage
			if err := dec.Decode(&raw); err != nil {
				return nil, err
			}
			head[name] = raw
			continue
		}
		results = true
		if t, err := dec.Token(); err != nil {
			return nil, err
		} else if t != json.Delim('[') {
			return nil, errors.New(`its "results" is not an array`)
		}
		for dec.More() {
			var x jsonResult
			if err := dec.Decode(&x); err != nil {
				return nil, fmt.Errorf("result %d: %v", len(jr.Results), err)
			}
			jr.Results = append(jr.Results, x)
		}
		if _, err := dec.Token(); err != nil {
			return nil, err
		}
	}
	if _, err := dec.Token(); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("data after the report's object")
	}
	if !results {
		return nil, errors.New(`it has no "results" member (write one with 'conform run --json FILE')`)
	}
	data, err := json.Marshal(head)
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(data, &jr); err != nil { // Results is not in head: it stays
		return nil, err
	}
	return &jr, nil
}

// profileName is a report's profile: a string, or an object's "name".
func profileName(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var o struct {
		Name string `json:"name"`
	}
	json.Unmarshal(raw, &o)
	return o.Name
}
