package cli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/conform-suite/conform/protocol"
	"github.com/conform-suite/conform/reference"

	"github.com/conform-suite/conform/runner"
	"github.com/conform-suite/conform/vectors"
)

// replayEnv makes the test binary a replay of a real system over stdio: to
// a vector's input it answers the answer recorded for the system named by
// the variable, byte for byte as the vector file writes it (a lone
// surrogate escape stays one), and the reference's answer to any other
// request.
const replayEnv = "CONFORM_TEST_REPLAY"

func init() {
	system := os.Getenv(replayEnv)
	if system == "" {
		return
	}
	if err := serveReplay(system, os.Stdin, os.Stdout); err != nil {
		os.Stderr.WriteString("replay: " + err.Error() + "\n")
		os.Exit(1)
	}
	os.Exit(0)
}

// replayKey identifies a request by its op and its input, compacted.
func replayKey(op string, input []byte) (string, error) {
	var b bytes.Buffer
	if err := json.Compact(&b, input); err != nil {
		return "", err
	}
	return op + "\x00" + b.String(), nil
}

// recordedAnswers maps each request of the corpus to the answer recorded
// for system. ambiguous lists the requests that two vectors make with
// different records (one recorded, one not, or two different answers): a
// replay cannot tell them apart.
func recordedAnswers(c *vectors.Corpus, system string) (answers map[string]*vectors.Divergence, ambiguous []string, err error) {
	answers = map[string]*vectors.Divergence{}
	owner := map[string]*vectors.Vector{}
	for _, v := range c.Vectors() {
		k, err := replayKey(v.Op, v.Input)
		if err != nil {
			return nil, nil, err
		}
		d := v.Divergence(system)
		if prev, seen := owner[k]; seen {
			if p := prev.Divergence(system); (p == nil) != (d == nil) || p != nil && !bytes.Equal(p.Answer(), d.Answer()) {
				ambiguous = append(ambiguous, prev.ID+" and "+v.ID)
			}
			continue
		}
		owner[k] = v
		if d != nil {
			answers[k] = d
		}
	}
	return answers, ambiguous, nil
}

func serveReplay(system string, r io.Reader, w io.Writer) error {
	c, err := vectors.Load(vectors.FS())
	if err != nil {
		return err
	}
	answers, _, err := recordedAnswers(c, system)
	if err != nil {
		return err
	}
	in := bufio.NewReaderSize(r, 1<<20)
	out := bufio.NewWriter(w)
	defer out.Flush()
	for {
		line, err := in.ReadBytes('\n')
		if !protocol.BlankLine(bytes.TrimSuffix(line, []byte("\n"))) { // as the reference serves (PROTO-FRAME-008)
			if werr := replayLine(answers, line, out); werr != nil {
				return werr
			}
			if in.Buffered() == 0 {
				if ferr := out.Flush(); ferr != nil {
					return ferr
				}
			}
		}
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

func replayLine(answers map[string]*vectors.Divergence, line []byte, out *bufio.Writer) error {
	var req protocol.Request
	if json.Unmarshal(line, &req) == nil && len(req.ID) > 0 {
		if k, err := replayKey(req.Op, req.Input); err == nil && answers[k] != nil {
			var body bytes.Buffer
			if err := json.Compact(&body, answers[k].Answer()); err != nil {
				return err
			}
			out.WriteString(`{"id":`)
			out.Write(req.ID)
			out.WriteByte(',')
			out.Write(body.Bytes()[1:]) // the answer's members, and its closing brace
			return out.WriteByte('\n')
		}
	}
	_, err := out.Write(protocol.ServeLine(context.Background(), reference.InProcess{}, line))
	return err
}

// TestReplayedIncumbents is the check that the recorded divergences are
// complete and not stale, through the command line: for every system, an
// implementation answering exactly as recorded (a replay) passes every
// vector under that system's profile, and under the default profile fails
// exactly the vectors 'conform list --profile SYSTEM --divergent' prints;
// and conform features under that profile fails no scenario of it.
func TestReplayedIncumbents(t *testing.T) {
	c, err := vectors.Load(vectors.FS())
	if err != nil {
		t.Fatal(err)
	}
	for _, system := range vectors.Systems {
		t.Run(system, func(t *testing.T) {
			if _, ambiguous, err := recordedAnswers(c, system); err != nil || len(ambiguous) > 0 {
				t.Fatalf("vectors making the same request with different records for %s: %v %v", system, ambiguous, err)
			}
			code, stdout, stderr := conform(t, "", "list", "--profile", system, "--divergent")
			if code != ExitOK {
				t.Fatalf("list --divergent: exit %d\n%s", code, stderr)
			}
			var listed []string
			for line := range strings.Lines(stdout) {
				id, _, _ := strings.Cut(line, "\t")
				listed = append(listed, strings.TrimSpace(id))
			}
			if len(listed) == 0 {
				t.Fatalf("list --profile %s --divergent lists nothing", system)
			}
			t.Setenv(replayEnv, system)
			impl := quoteArg(os.Args[0])
			dir := t.TempDir()

			own := filepath.Join(dir, "own.json")
			code, stdout, stderr = conform(t, "", "run", "--stdio", impl, "--profile", system, "--require-ops", "--text", os.DevNull, "--json", own)
			if code != ExitOK {
				t.Errorf("the replay of %s under its own profile: exit %d, want %d\n%s%s", system, code, ExitOK, stdout, stderr)
			}
			rep := readJSONReport(t, own)
			if rep.Profile != system || rep.Totals.Passed != len(c.Vectors()) {
				t.Errorf("own profile: profile %q, %d of %d vectors passed", rep.Profile, rep.Totals.Passed, len(c.Vectors()))
			}
			recorded := 0
			for _, r := range rep.Results {
				if r.Recorded != nil {
					recorded++
				}
			}
			if recorded != len(listed) {
				t.Errorf("own profile: %d results graded against a recorded answer, %d vectors listed", recorded, len(listed))
			}
			// The HTML page of that run shows each requirement whose vectors
			// were graded against a recorded answer as diverging, and every
			// other as passed.
			want := map[string][]string{}
			for _, r := range rep.Results {
				for _, req := range r.Requirements {
					k := r.Op + " " + req
					if r.Recorded != nil {
						want[k] = []string{"diverging"}
					} else if want[k] == nil {
						want[k] = []string{"pass"}
					}
				}
			}
			if cols, got := htmlPage(t, own); cols != 1 || !maps.EqualFunc(got, want, slices.Equal) {
				t.Errorf("the HTML page of the run under its own profile: %d columns, cells %v; want 1 column, cells %v", cols, diffCells(got, want), diffCells(want, got))
			}

			spec := filepath.Join(dir, "spec.json")
			code, _, stderr = conform(t, "", "run", "--stdio", impl, "--require-ops", "--text", os.DevNull, "--json", spec)
			if code != ExitFailed {
				t.Errorf("the replay of %s under the default profile: exit %d, want %d\n%s", system, code, ExitFailed, stderr)
			}
			rep = readJSONReport(t, spec)
			var failing []string
			for _, r := range rep.Results {
				switch r.Outcome {
				case "pass":
				case "fail", "error":
					failing = append(failing, r.ID)
				default:
					t.Errorf("default profile: %s: outcome %s (%s)", r.ID, r.Outcome, r.Detail)
				}
			}
			slices.Sort(failing)
			slices.Sort(listed)
			if rep.Profile != "spec" {
				t.Errorf("default profile named %q", rep.Profile)
			}
			for _, id := range failing {
				if !slices.Contains(listed, id) {
					t.Errorf("%s fails for the replay of %s under the default profile but records no divergence of it", id, system)
				}
			}
			for _, id := range listed {
				if !slices.Contains(failing, id) {
					t.Errorf("%s records a divergence of %s, but the replay passes it under the default profile: the record is the expected answer", id, system)
				}
			}

			// The scenarios agree with the records: under the system's
			// profile the replay fails none (a scenario row that sends a
			// recorded request is tagged @divergence:SYSTEM, and skipped).
			code, stdout, _ = conform(t, "", "features", "--stdio", impl, "--profile", system, "--format", "progress", "--no-color", "--exit-within", "10m")
			if code != ExitOK {
				t.Errorf("features against the replay of %s under its own profile: exit %d, want %d\n%s", system, code, ExitOK, lastLines(stdout, 40))
			}
		})
	}
}

// TestReplayIsByteExact checks the replay itself: the answer to a vector
// whose recorded output holds a lone surrogate escape is that escape, not
// U+FFFD, so the test above compares what was recorded.
func TestReplayIsByteExact(t *testing.T) {
	c, err := vectors.Load(vectors.FS())
	if err != nil {
		t.Fatal(err)
	}
	for _, system := range vectors.Systems {
		answers, _, err := recordedAnswers(c, system)
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range c.Divergent(system) {
			d := v.Divergence(system)
			if d.Output == nil || !bytes.Contains(bytes.ToLower(d.Output), []byte(`\ud`)) {
				continue
			}
			line, err := runner.RequestLine(protocol.Request{ID: protocol.IntID(7), Op: v.Op, Input: v.Input})
			if err != nil {
				t.Fatal(err)
			}
			var out bytes.Buffer
			w := bufio.NewWriter(&out)
			if err := replayLine(answers, []byte(line), w); err != nil {
				t.Fatal(err)
			}
			w.Flush()
			var want bytes.Buffer
			json.Compact(&want, d.Output)
			if got := out.String(); got != `{"id":7,"output":`+want.String()+"}\n" {
				t.Errorf("%s: replay answered %s, want the recorded %s", v.ID, got, want.String())
			}
			return
		}
	}
	t.Fatal("no recorded output holds a lone surrogate escape")
}

// TestUnknownProfile: every command taking --profile refuses a name it does
// not know, naming the known ones.
func TestUnknownProfile(t *testing.T) {
	for _, cmd := range []string{"run", "list", "features"} {
		code, _, stderr := conform(t, "", cmd, "--profile", "t3")
		if code != ExitUsage || !strings.Contains(stderr, `--profile: unknown profile "t3" (known: spec, seed, t3code, vance)`) {
			t.Errorf("conform %s --profile t3 = exit %d, stderr %q", cmd, code, stderr)
		}
	}
	code, stdout, stderr := conform(t, "", "list", "--divergent")
	if code != ExitOK || stdout != "" || !strings.Contains(stderr, "under the default profile no expectation differs") {
		t.Errorf("list --divergent under spec = exit %d, %q, %q", code, stdout, stderr)
	}
}
