package fuzz

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/conform-suite/conform/protocol"
	"github.com/conform-suite/conform/reference"
	"github.com/conform-suite/conform/runner"
	"github.com/conform-suite/conform/vectors"
)

// plusKeeper is an incumbent with a planted divergence: quote.parse keeps a
// '+' of the text as written, where the specification reads it as a space.
type plusKeeper struct{}

func (plusKeeper) Call(ctx context.Context, req protocol.Request) (protocol.Response, error) {
	resp, err := reference.InProcess{}.Call(ctx, req)
	if err != nil || req.Op != "quote.parse" || resp.Output == nil {
		return resp, err
	}
	var in struct{ Href string }
	var out map[string]map[string]any
	if json.Unmarshal(req.Input, &in) != nil || json.Unmarshal(resp.Output, &out) != nil || out["citation"] == nil {
		return resp, nil
	}
	_, query, _ := strings.Cut(in.Href, "?")
	for _, field := range strings.Split(query, "&") {
		if v, ok := strings.CutPrefix(field, "text="); ok && strings.Contains(v, "+") && !strings.Contains(v, "%") {
			out["citation"]["text"] = v
			resp.Output = mustJSON(out)
		}
	}
	return resp, nil
}

func (plusKeeper) Close() error { return nil }

// TestThreeWayTriage fuzzes, against an incumbent with a planted
// divergence as the oracle, a correct port and a port with a planted bug:
// each finding is labelled by who is off the specification, only the
// port's bug becomes vectors (expecting the specification, failing the
// buggy port, passing the reference), and the incumbent's divergence goes
// to a profile file under which the incumbent passes its own findings.
func TestThreeWayTriage(t *testing.T) {
	run := func(port runner.Implementation) *Report {
		t.Helper()
		rep := parseRun(t, 2, Config{Impl: port, Ref: plusKeeper{}})
		for _, f := range rep.Findings {
			t.Logf("%s: %.160s", f.Signature, f.Input)
		}
		return rep
	}
	triages := func(rep *Report) []Triage {
		var ts []Triage
		for _, f := range rep.Findings {
			if !slices.Contains(ts, f.Triage) {
				ts = append(ts, f.Triage)
			}
		}
		slices.Sort(ts)
		return ts
	}

	// The correct port: only the incumbent is off the specification.
	correct := run(reference.InProcess{})
	if got := triages(correct); !slices.Equal(got, []Triage{TriageIncumbent}) {
		t.Fatalf("the correct port: triages %v, want [%s]", got, TriageIncumbent)
	}
	dir := t.TempDir()
	emitted, err := WriteVectors(dir, correct.Findings, corpusOf(t), Provenance{Impl: "port", Oracle: "incumbent", Date: time.Now()})
	if err != nil || len(emitted) != 0 {
		t.Errorf("the correct port: %d vectors written (%v), want none", len(emitted), err)
	}
	profile := filepath.Join(dir, "incumbent.json")
	added, err := RecordProfile(profile, "incumbent", correct.Findings, corpusOf(t), Provenance{Impl: "port", Oracle: "incumbent", Date: time.Now()})
	if err != nil || added != len(correct.Findings) {
		t.Fatalf("RecordProfile = %d, %v; want %d records", added, err, len(correct.Findings))
	}
	if again, err := RecordProfile(profile, "incumbent", correct.Findings, corpusOf(t), Provenance{Oracle: "incumbent", Date: time.Now()}); err != nil || again != 0 {
		t.Errorf("recording the same findings again added %d (%v), want 0", again, err)
	}
	// Under the profile file the incumbent passes its findings, and under
	// the specification it fails them while the reference passes.
	data, _ := os.ReadFile(profile)
	c, err := vectors.Load(os.DirFS(t.TempDir()))
	if err != nil {
		t.Fatal(err)
	}
	name, err := c.ApplyProfile(profile, data)
	if err != nil || name != "incumbent" || len(c.Vectors()) != added {
		t.Fatalf("ApplyProfile = %q, %v, %d vectors; want incumbent and %d", name, err, len(c.Vectors()), added)
	}
	for _, tc := range []struct {
		impl    runner.Implementation
		profile string
		pass    bool
	}{{plusKeeper{}, "incumbent", true}, {plusKeeper{}, "", false}, {reference.InProcess{}, "", true}} {
		for _, res := range (&runner.Runner{Impl: tc.impl, Profile: tc.profile}).Run(context.Background(), c.Vectors()) {
			if (res.Outcome == runner.Pass) != tc.pass {
				t.Errorf("%s on %T under %q: %s, want pass=%v", res.Vector.ID, tc.impl, tc.profile, res.Outcome, tc.pass)
			}
		}
	}

	// The buggy port: its bug is port-off-spec and becomes vectors that fail
	// it and pass the reference; the incumbent's divergence stays out of them.
	buggy := run(commentRefuser{})
	got := triages(buggy)
	if !slices.Contains(got, TriagePort) || !slices.Contains(got, TriageIncumbent) {
		t.Fatalf("the buggy port: triages %v, want %s and %s among them", got, TriagePort, TriageIncumbent)
	}
	for _, f := range buggy.Findings {
		if !strings.Contains(f.Signature, " "+string(f.Triage)+" ") {
			t.Errorf("signature %q does not name its triage %s", f.Signature, f.Triage)
		}
		if strings.Contains(f.Signature, "reference rejected") && f.Triage == TriagePort && f.Class == ClassAcceptedWrongly {
			t.Errorf("signature %q calls the oracle the reference", f.Signature)
		}
	}
	dir = t.TempDir()
	emitted, err = WriteVectors(dir, buggy.Findings, corpusOf(t), Provenance{Impl: "buggy", Oracle: "incumbent", Date: time.Now()})
	portOff := 0
	for _, f := range buggy.Findings {
		if f.Triage.PortOffSpec() && f.Class != ClassOracle {
			portOff++
		}
	}
	if err != nil || len(emitted) != portOff || portOff == 0 {
		t.Fatalf("the buggy port: %d vectors (%v), want one per finding where it is off the specification (%d)", len(emitted), err, portOff)
	}
	replays(t, dir, commentRefuser{})

	// A port that kept the incumbent's divergence agrees with it, and both
	// are off the specification.
	if got := triages(run(plusKeeper{})); !slices.Equal(got, []Triage{TriageBoth}) {
		t.Errorf("a port with the incumbent's divergence: triages %v, want [%s]", got, TriageBoth)
	}
}
