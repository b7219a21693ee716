package main

import (
	"bytes"
	"fmt"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/conform-suite/conform/protocol"
)

// runScript runs the action's run step as the runner does, with env, and
// returns its exit code and the job log: stdout and stderr as one stream,
// in the order they were written.
func runScript(t *testing.T, dir string, env []string) (int, string) {
	t.Helper()
	script, _ := filepath.Abs("../../.github/action/run.sh")
	cmd := exec.Command("bash", script)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var log bytes.Buffer
	cmd.Stdout, cmd.Stderr = &log, &log
	code := exitCode(t, cmd.Run())
	return code, log.String()
}

// hostileFiles writes a vector file and a profile file whose every string
// conform may print is forged text, and returns the vector directory and
// the profile file.
func hostileFiles(t *testing.T) (string, string) {
	t.Helper()
	dir := t.TempDir()
	vectors := filepath.Join(dir, "vectors")
	os.MkdirAll(vectors, 0o755)
	esc := strings.NewReplacer("\n", `\n`, `"`, `\"`).Replace(forged)
	id := "quote.normalize/" + strings.NewReplacer("\n", " ", `"`, "").Replace(forged)
	file := `{"op":"quote.normalize","description":"` + esc + `","vectors":[` +
		`{"id":"` + id + `","description":"` + esc + `","requirements":["QUOTE-ANCHOR-003"],"input":{"text":"a  b"},"expect":{"output":{"text":"a b"}}},` +
		`{"id":"quote.normalize/plain","description":"` + esc + `","requirements":["QUOTE-ANCHOR-003"],"input":{"text":"a"},"expect":{"output":{"text":"a"}}}]}`
	os.WriteFile(filepath.Join(vectors, "hostile.json"), []byte(file), 0o644)
	profile := filepath.Join(dir, "profile.json")
	os.WriteFile(profile, []byte(`{"profile":"hostile","records":[{"vector":"quote.normalize/plain","reason":"`+esc+`","output":{"text":"`+esc+`"}}]}`), 0o644)
	return vectors, profile
}

// Nothing an implementation or a file prints through the action's run step
// is read by GitHub's runner as a workflow command: whatever the hostile
// implementations (stdio and HTTP: hello, answers, error messages, stderr)
// and the hostile vector and profile files print, the commands of the job
// log are conform's own, every annotation conform wrote among them. The
// same log without the step's stop-commands lines is full of forged
// commands, which shows the implementations are hostile.
func TestActionLogCarriesNoForgedCommand(t *testing.T) {
	bin := build(t)
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(protocol.DefaultServeOptions().Handler(&hostile{}))
	t.Cleanup(srv.Close)
	vectorDir, profileFile := hostileFiles(t)

	cases := []struct {
		name string
		env  []string
	}{
		{"stdio", []string{"INPUT_STDIO=" + self, "INPUT_OP=quote.normalize,quote.parse", "INPUT_SUITE=quote",
			"INPUT_FEATURES=true", "INPUT_FUZZ_TIME=1s"}},
		{"http", []string{"INPUT_HTTP=" + srv.URL, "INPUT_OP=quote.normalize,quote.parse", "INPUT_SUITE=quote",
			"INPUT_FEATURES=true", "INPUT_FUZZ_TIME=1s"}},
		{"files", []string{"INPUT_STDIO=" + self, "INPUT_ARGS=--vectors " + vectorDir + " --profile-file " + profileFile}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			work := t.TempDir()
			env := append([]string{"CONFORM=" + bin, hostileEnv + "=" + hostileLog, "INPUT_REPORT_DIR=out",
				"GITHUB_STEP_SUMMARY=" + filepath.Join(work, "summary.md"), "GITHUB_OUTPUT=" + filepath.Join(work, "output.txt")}, c.env...)
			code, log := runScript(t, work, env)
			if code != 1 {
				t.Fatalf("run.sh = exit %d, want 1 (the hostile answers fail)\n%s", code, log)
			}
			annotations, err := os.ReadFile(filepath.Join(work, "out", "annotations.txt"))
			if err != nil || len(annotations) == 0 {
				t.Fatalf("no annotations written: %v", err)
			}
			own := strings.Split(strings.TrimSuffix(string(annotations), "\n"), "\n")

			cmds := workflowCommands(log)
			token := ""
			var shown []string
			for _, cmd := range cmds {
				switch {
				case cmd.name == "stop-commands" && token == "":
					token = cmd.data
				case cmd.name == "stop-commands" && cmd.data == token, strings.EqualFold(cmd.name, token) && cmd.line == "::"+token+"::":
				case (cmd.name == "error" || cmd.name == "notice") && slices.Contains(own, cmd.line):
					shown = append(shown, cmd.line)
				default:
					t.Errorf("a command that is not conform's own: %q", cmd.line)
				}
			}
			if len(token) != 32 {
				t.Errorf("the step stopped the runner's commands with token %q, want 32 hex digits", token)
			}
			if !slices.Equal(shown, own) {
				t.Errorf("conform's annotations shown: %d of %d\nshown: %q\nwritten: %q", len(shown), len(own), shown, own)
			}

			// the liar: the same log, the stop-commands lines left out
			var bare []string
			for _, l := range strings.Split(log, "\n") {
				if l != "::stop-commands::"+token && l != "::"+token+"::" {
					bare = append(bare, l)
				}
			}
			forgedSeen := 0
			for _, cmd := range workflowCommands(strings.Join(bare, "\n")) {
				if cmd.name == "add-mask" || cmd.name == "stop-commands" || strings.Contains(cmd.props, "forged") {
					forgedSeen++
				}
			}
			if forgedSeen == 0 {
				t.Errorf("without the stop-commands lines, the log holds no forged command: the implementation is not hostile\n%s", log)
			}
		})
	}
}

// recorder is a conform that records each command line it is given (its
// words NUL-separated, one command a line, to $RECORD) and passes.
const recorder = "#!/bin/sh\n{ printf '%s\\0' \"$@\"; echo; } >> \"$RECORD\"\n"

// recorded runs the run step with a recording conform and returns the
// command lines it was given, by subcommand, and the step's exit code and
// log.
func recorded(t *testing.T, inputs map[string]string) (map[string][]string, int, string) {
	t.Helper()
	work := t.TempDir()
	bin := filepath.Join(work, "conform")
	os.WriteFile(bin, []byte(recorder), 0o755)
	record := filepath.Join(work, "record")
	env := []string{"CONFORM=" + bin, "RECORD=" + record}
	for name, v := range inputs {
		env = append(env, "INPUT_"+strings.ToUpper(strings.ReplaceAll(name, "-", "_"))+"="+v)
	}
	code, log := runScript(t, work, env)
	data, _ := os.ReadFile(record)
	cmds := map[string][]string{}
	for _, l := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		if words := strings.Split(strings.TrimSuffix(l, "\x00"), "\x00"); l != "" {
			cmds[words[0]] = words[1:]
		}
	}
	return cmds, code, log
}

// hasArgs reports whether args holds want, in order, side by side.
func hasArgs(args []string, want ...string) bool {
	for i := 0; i+len(want) <= len(args); i++ {
		if slices.Equal(args[i:i+len(want)], want) {
			return true
		}
	}
	return false
}

// Every input of action.yml reaches the run step, and from it every
// command it applies to (action.yml's descriptions say which); where it
// does not apply, it is not passed.
func TestActionInputsReachTheirSteps(t *testing.T) {
	a := readAction(t)
	var runStep *actionStep
	for i, s := range a.Runs.Steps {
		if s.ID == "run" {
			runStep = &a.Runs.Steps[i]
		}
	}
	if runStep == nil {
		t.Fatal("action.yml has no step with id run")
	}
	base := map[string]string{"stdio": "impl --serve", "features": "true", "fuzz-time": "1s"}
	type want struct{ run, features, fuzz []string } // nil: the command is not given the input
	cases := map[string]struct {
		value string
		want  want
	}{
		"stdio":         {"my impl", want{[]string{"--stdio", "my impl"}, []string{"--stdio", "my impl"}, []string{"--stdio", "my impl"}}},
		"http":          {"http://127.0.0.1:1/", want{[]string{"--http", "http://127.0.0.1:1/"}, []string{"--http", "http://127.0.0.1:1/"}, []string{"--http", "http://127.0.0.1:1/"}}},
		"suite":         {"quote,marker", want{[]string{"--suite", "quote,marker"}, []string{"quote", "marker", "protocol"}, nil}},
		"op":            {"quote.parse", want{[]string{"--op", "quote.parse"}, nil, []string{"--op", "quote.parse"}}},
		"profile":       {"t3code", want{[]string{"--profile", "t3code"}, []string{"--profile", "t3code"}, []string{"--profile", "t3code"}}},
		"expectations":  {"known.txt", want{[]string{"--expectations", "known.txt"}, nil, nil}},
		"require-ops":   {"true", want{[]string{"--require-ops"}, []string{"--require-ops"}, nil}},
		"require-codes": {"true", want{[]string{"--require-codes"}, []string{"--require-codes"}, nil}},
		"shard":         {"1/2", want{[]string{"--shard", "1/2"}, []string{"--format"}, []string{"--time"}}},
		"features":      {"true", want{nil, []string{"--format"}, nil}},
		"fuzz-time":     {"7s", want{nil, nil, []string{"--time", "7s"}}},
		"args":          {`--timeout 30s --choice "a=b c"`, want{[]string{"--timeout", "30s", "--choice", "a=b c"}, nil, nil}},
		"report-dir":    {"rd", want{[]string{"--json", "rd/conform-shard-1-of-2.json"}, nil, nil}},
	}
	for name := range a.Inputs {
		c, ok := cases[name]
		if !ok {
			t.Errorf("input %s: no case of this test says which commands it reaches", name)
			continue
		}
		t.Run(name, func(t *testing.T) {
			env := "INPUT_" + strings.ToUpper(strings.ReplaceAll(name, "-", "_"))
			if got := runStep.Env[env]; got != "${{ inputs."+name+" }}" {
				t.Errorf("the run step's %s = %q, want the input", env, got)
			}
			inputs := map[string]string{}
			for k, v := range base {
				inputs[k] = v
			}
			inputs[name] = c.value
			if name == "http" {
				delete(inputs, "stdio")
			}
			if name == "report-dir" {
				inputs["shard"] = "1/2"
			}
			cmds, code, log := recorded(t, inputs)
			if code != 0 {
				t.Fatalf("run.sh = exit %d\n%s", code, log)
			}
			for _, w := range []struct {
				cmd  string
				args []string
			}{{"run", c.want.run}, {"features", c.want.features}, {"fuzz", c.want.fuzz}} {
				got, ran := cmds[w.cmd]
				switch {
				case w.args == nil && ran && slices.Contains(got, c.value):
					t.Errorf("conform %s was given the %s input, which does not apply to it: %q", w.cmd, name, got)
				case w.args != nil && !hasArgs(got, w.args...):
					t.Errorf("conform %s = %q, want %q in it (ran: %v)", w.cmd, got, w.args, ran)
				}
			}
		})
	}

	// in a later shard, the scenarios and the fuzzer do not run again
	t.Run("shard 2/2", func(t *testing.T) {
		cmds, code, _ := recorded(t, map[string]string{"stdio": "x", "features": "true", "fuzz-time": "1s", "shard": "2/2"})
		if _, ran := cmds["features"]; ran || code != 0 {
			t.Errorf("shard 2/2 ran the scenarios (exit %d): %v", code, cmds)
		}
		if _, ran := cmds["fuzz"]; ran {
			t.Errorf("shard 2/2 ran the fuzzer: %v", cmds)
		}
	})
}

// An args input with a quote left open fails the step with an annotation,
// and conform does not run: everything after the quote would be lost.
func TestActionArgsWithAnOpenQuoteFail(t *testing.T) {
	cmds, code, log := recorded(t, map[string]string{"stdio": "x", "args": `--timeout 30s --choice=style="it's --require-codes`})
	if code != 2 || len(cmds) != 0 || !strings.Contains(log, "::error title=conform::the args input does not split into words") {
		t.Errorf("run.sh with an open quote = exit %d, commands %v, want 2, none and an annotation\n%s", code, cmds, log)
	}
}

// unescapeData reads the message of a workflow command back.
func unescapeData(s string) string {
	return strings.NewReplacer("%0D", "\r", "%0A", "\n", "%25", "%").Replace(s)
}

// The replay line of an annotation, run in a POSIX shell as printed,
// reproduces its failure: under a profile, with a vector directory, and for
// an id that holds a quote, a command substitution and glob characters,
// which run nothing and match the one vector.
func TestAnnotationReplayReproducesTheVerdict(t *testing.T) {
	bin := build(t)
	dir := t.TempDir()
	vectors := filepath.Join(dir, "vectors")
	os.MkdirAll(vectors, 0o755)
	hostileID := `quote.normalize/it's $(touch PWNED) *[x], ok`
	os.WriteFile(filepath.Join(vectors, "v.json"), []byte(`{"op":"quote.normalize","vectors":[`+
		`{"id":"`+hostileID+`","requirements":["QUOTE-ANCHOR-003"],"input":{"text":"a"},"expect":{"output":{"text":"wrong"}}},`+
		`{"id":"quote.normalize/it's $(touch PWNED) *[x]; ok","requirements":["QUOTE-ANCHOR-003"],"input":{"text":"a"},"expect":{"output":{"text":"a"}}}]}`), 0o644)

	cases := []struct {
		name string
		args []string
	}{
		{"profile", []string{"--profile", "t3code", "--op", "quote.collect"}},
		{"vectors", []string{"--vectors", vectors, "--timeout", "30s"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			work := t.TempDir()
			args := append([]string{"run", "--annotations", "a.txt"}, c.args...)
			if code, out, stderr := runIn(t, work, nil, bin, args...); code != 1 {
				t.Fatalf("conform %v = exit %d, want 1\n%s%s", args, code, out, stderr)
			}
			data, _ := os.ReadFile(filepath.Join(work, "a.txt"))
			line, _, _ := strings.Cut(string(data), "\n")
			_, msg, _ := strings.Cut(strings.TrimPrefix(line, "::"), "::")
			_, replay, ok := strings.Cut(unescapeData(msg), "\nreplay: ")
			if !ok || !strings.HasPrefix(replay, "conform run ") {
				t.Fatalf("no replay in the annotation %q", line)
			}
			code, out, stderr := runIn(t, work, []string{"PATH=" + filepath.Dir(bin) + ":" + os.Getenv("PATH")}, "sh", "-c", replay)
			if code != 1 || !strings.HasSuffix(out, "0 passed, 1 failed\n") {
				t.Errorf("the replay %s = exit %d, want 1 with its one vector failing\n%s%s", replay, code, out, stderr)
			}
			if _, err := os.Stat(filepath.Join(work, "PWNED")); err == nil {
				t.Errorf("the replay %s ran a command substitution", replay)
			}
		})
	}
}

// The scenarios' and the fuzzer's output stay inside their code blocks of
// the job summary, whatever runs of backticks they hold. The liar: a fence
// of three backticks, as the step wrote before, is closed by the output.
func TestActionSummaryKeepsOutputInItsBlock(t *testing.T) {
	work := t.TempDir()
	bin := filepath.Join(work, "conform")
	os.WriteFile(bin, []byte("#!/bin/sh\nprintf 'ok\\n````\\n## conform: passed\\n```\\n'\n"), 0o755)
	summary := filepath.Join(work, "summary.md")
	code, log := runScript(t, work, []string{"CONFORM=" + bin, "INPUT_STDIO=x", "INPUT_FEATURES=true", "INPUT_FUZZ_TIME=1s",
		"GITHUB_STEP_SUMMARY=" + summary})
	data, err := os.ReadFile(summary)
	if code != 0 || err != nil {
		t.Fatalf("run.sh = exit %d (%v)\n%s", code, err, log)
	}
	if n := strings.Count(string(data), "### conform "); n != 2 {
		t.Fatalf("the summary has %d parts, want features and fuzz\n%s", n, data)
	}
	if errs := fenceErrors(string(data)); len(errs) > 0 {
		t.Errorf("%s\n%s", strings.Join(errs, "\n"), data)
	}
	liar := strings.ReplaceAll(string(data), "`````", "```")
	if len(fenceErrors(liar)) == 0 {
		t.Errorf("a summary fenced with three backticks is not reported\n%s", liar)
	}
}

// fenceErrors checks that each code block the run step wrote into the job
// summary ends where the step ended it: the first line after its opening
// fence that would close it (a run of at least as many backticks, indented
// at most three spaces) is the step's closing fence, followed by the end of
// the summary or the next part's heading.
func fenceErrors(summary string) []string {
	var errs []string
	lines := strings.Split(summary, "\n")
	for i := 0; i < len(lines); i++ {
		if !strings.HasPrefix(lines[i], "### conform ") {
			continue
		}
		if i+2 >= len(lines) || !strings.HasPrefix(lines[i+2], "```") {
			errs = append(errs, fmt.Sprintf("summary: no code block after %q", lines[i]))
			continue
		}
		open := lines[i+2]
		for j := i + 3; j < len(lines); j++ {
			if trimmed := strings.TrimLeft(lines[j], " "); len(lines[j])-len(trimmed) <= 3 && strings.HasPrefix(trimmed, open) {
				rest := strings.Join(lines[j+1:], "\n")
				if strings.TrimSpace(rest) != "" && !strings.HasPrefix(strings.TrimLeft(rest, "\n"), "### conform ") {
					errs = append(errs, fmt.Sprintf("summary: the code block after %q ends at line %d, before the step ended it: %q", lines[i], j+1, lines[j]))
				}
				i = j
				break
			}
		}
	}
	return errs
}
