package features

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"reflect"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/cucumber/godog"
	messages "github.com/cucumber/messages/go/v34"

	"github.com/conform-suite/conform/internal/safetext"
	"github.com/conform-suite/conform/internal/schemaset"
	"github.com/conform-suite/conform/protocol"
	"github.com/conform-suite/conform/runner"
)

// Exit statuses of [Run]: 0 every scenario judged passed, 1 some
// failed or none was judged (every one skipped), 2 the options were
// unusable (an unknown formatter, an unparsable feature).
const (
	StatusOK      = 0
	StatusFailed  = 1
	StatusOptions = 2
)

// DefaultTimeout bounds one call to the implementation when Options.Timeout is zero.
const DefaultTimeout = 10 * time.Second

// Options configure a run of the scenarios.
type Options struct {
	// Impl answers every request. It is not closed by Run.
	Impl runner.Implementation
	// Raw, when set, carries the raw protocol lines of the framing
	// scenarios (features/protocol) to the same implementation; without it
	// those scenarios are skipped.
	Raw Raw
	// FS holds the feature files; nil means the embedded ones ([FS]).
	FS fs.FS
	// Paths are the files or directories of FS to run; none means all.
	Paths []string
	// Tags is a tag expression: "@QUOTE-LINK-004", "~@slow",
	// "@MARKER-STRIP-001,@MARKER-STRIP-002" (or), "@a && @b".
	Tags string
	// Format names formatters, comma separated: pretty and progress
	// (godog's, ended by conform's summary), cucumber (godog's), junit
	// (conform's) and conform (the summary alone: every failure again with
	// the command that runs it alone, skipped scenarios by reason, refusals
	// without a code, the tally, profile and diverging scenarios).
	// "name:FILE" writes that formatter to FILE. Empty means progress. The
	// summary alone is added on Output when no formatter writes there.
	Format string
	// Output receives the formatters' output; nil means os.Stdout.
	Output   io.Writer
	NoColors bool
	// Timeout bounds each call to the implementation.
	Timeout time.Duration
	// Context, when set, ends every call to the implementation once it is
	// done (a signal that stops conform): the scenarios still to run fail
	// at once, and the reports are written.
	Context context.Context
	// ExitWithin, when positive, is how long an implementation may take
	// to exit once its standard input has ended, in place of the bound
	// the scenario names (PROTO-STDIO-003): a loaded machine, or a
	// runtime that is slow to stop, may need more.
	ExitWithin time.Duration
	// RequireOps names the ops the implementation must offer: a scenario
	// calling one it does not offer fails instead of being skipped.
	RequireOps runner.RequiredOps
	// RequireCodes fails a refusal that matched without the code its step
	// expects (--require-codes); without it such a refusal passes, and the
	// reports count and list it.
	RequireCodes bool
	// Tally, when set, receives the count of passed, failed and skipped
	// scenarios.
	Tally *Tally
	// Profile names the profile the scenarios are judged under: "" or
	// runner.DefaultProfile judges every scenario; a system's name leaves
	// the scenarios and example rows tagged @divergence:<system> unrun,
	// reported as diverging.
	Profile string

	// Replay, when set, is the command that runs one scenario again, to
	// which the summary adds the scenario's "file:line":
	// "conform features --stdio 'python3 adapter.py'".
	Replay string
	// Answered, when set, is told of every n answers Impl gives (or calls
	// that failed), hello's included: conform's progress line counts them.
	Answered func(n int)

	// statuses, when set, receives what happened to each scenario.
	statuses *[]scenarioStatus
	// more, when set, registers more step definitions after conform's:
	// the package's tests add those of the scenarios about the runner.
	more func(*godog.ScenarioContext, *scenario)
}

// formats are the formatters --format may name: godog's, and conform's
// summary.
var formats = []string{"conform", "cucumber", "junit", "pretty", "progress"}

// Formats returns the names of the available formatters, sorted.
func Formats() []string { return slices.Clone(formats) }

// CheckFormat reports an error if format names a formatter that does not
// exist, gives NAME: without a file, or has two formatters write to one
// place (standard output, or a file): their reports would interleave.
func CheckFormat(format string) error {
	_, err := engineFormats(format)
	return err
}

// CheckTags reports an error if expr is not a tag expression godog reads
// as written: alternatives separated by ",", each of terms separated by
// "&&", each term a tag, "@" optional, "~" before it for not. godog reads
// anything, but an empty term stops it, a lone "~" matches every scenario
// and the words of another syntax ("not @slow", "@a and @b") are read as
// one tag that matches none: each is an error here, never a silent
// selection.
func CheckTags(expr string) error {
	if expr == "" {
		return nil
	}
	for alt := range strings.SplitSeq(expr, ",") {
		for term := range strings.SplitSeq(alt, "&&") {
			name := strings.TrimPrefix(strings.TrimPrefix(strings.TrimSpace(term), "~"), "@")
			if name == "" || strings.ContainsAny(name, " \t&~@") {
				return fmt.Errorf("%q: %q is not a tag; write @a,@b for a or b, @a && @b for a and b, ~@a for not a", expr, strings.TrimSpace(term))
			}
		}
	}
	return nil
}

// engineFormats checks format (CheckFormat) and returns it as godog is
// given it: pretty, progress and junit are conform's (godog's pretty and
// progress ended by conform's summary), and the summary alone is added on
// the run's output when nothing writes there (a JUnit or Cucumber document
// written there must stay whole).
func engineFormats(format string) (string, error) {
	places := map[string]string{} // file ("" for standard output) -> format
	var list []string
	summary := true
	for f := range strings.SplitSeq(format, ",") {
		name, file, toFile := strings.Cut(f, ":")
		if !slices.Contains(formats, name) {
			return "", fmt.Errorf("unknown format %q (want one of %s)", name, strings.Join(formats, ", "))
		}
		if toFile && file == "" {
			return "", fmt.Errorf("%q: give a file after the colon, or leave the colon out for standard output", f)
		}
		if other, ok := places[file]; ok {
			if file == "" {
				return "", fmt.Errorf("%s and %s both write to standard output: give one of them a file (%s:FILE)", other, name, name)
			}
			return "", fmt.Errorf("%s and %s both write to %s: give each a file of its own", other, name, file)
		}
		places[file] = name
		if name == "conform" || !toFile {
			summary = false
		}
		if name == "pretty" || name == "progress" || name == "junit" {
			f = "conform-" + f
		}
		list = append(list, f)
	}
	if summary {
		list = append(list, "conform")
	}
	return strings.Join(list, ","), nil
}

// godog keeps some state of a run in the process's environment and its
// formatters know nothing of the run but its name, so the runs of one
// process take turns; current is the harness of the run under way, which
// conform's summary formatter reports on.
var (
	runMu   sync.Mutex
	current *harness
)

// Run runs the scenarios of opts against opts.Impl with godog, in strict
// mode, and returns an exit status: [StatusOK], [StatusFailed] or
// [StatusOptions].
func Run(opts Options) int {
	if opts.Impl == nil {
		fmt.Fprintln(os.Stderr, "features: no implementation")
		return StatusOptions
	}
	if opts.FS == nil {
		opts.FS = FS()
	}
	if opts.Format == "" {
		opts.Format = "progress"
	}
	if opts.Output == nil {
		opts.Output = os.Stdout
	}
	format, err := engineFormats(opts.Format)
	if err != nil {
		fmt.Fprintln(os.Stderr, "features:", err)
		return StatusOptions
	}
	if err := CheckTags(opts.Tags); err != nil {
		fmt.Fprintln(os.Stderr, "features: tags", err)
		return StatusOptions
	}
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	paths := opts.Paths
	if len(paths) == 0 {
		if paths, err = featureDirs(opts.FS); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return StatusOptions
		}
	}
	if err := runner.CheckProfile(opts.Profile); err != nil {
		fmt.Fprintln(os.Stderr, "features:", err)
		return StatusOptions
	}
	h := &harness{Options: opts}
	h.calls = &runner.Runner{Impl: opts.Impl, Timeout: opts.Timeout, Answered: opts.Answered}
	h.records.profile = runner.ProfileName(opts.Profile)
	if p := h.records.profile; p != runner.DefaultProfile {
		h.divergenceTag = "@divergence:" + p
	}
	runMu.Lock()
	current = h
	suite := godog.TestSuite{
		Name:                "conform",
		ScenarioInitializer: h.initScenario,
		Options: &godog.Options{
			Strict: true, Format: format, Tags: opts.Tags, Paths: paths, FS: opts.FS,
			Output: opts.Output, NoColors: opts.NoColors,
		},
	}
	status := suite.Run()
	current = nil
	runMu.Unlock()
	if h.session != nil {
		h.session.Close()
	}
	t := h.records.tally()
	if opts.Tally != nil {
		*opts.Tally = t
	}
	if opts.statuses != nil {
		*opts.statuses = h.records.statuses()
	}
	switch {
	case status != StatusOK && status != StatusFailed:
		return StatusOptions
	case status == StatusOK && (t.Failed > 0 || t.Judged() == 0):
		status = StatusFailed
	}
	return status
}

// featureDirs returns the top-level entries of fsys that hold feature files.
func featureDirs(fsys fs.FS) ([]string, error) {
	var paths []string
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || path.Ext(p) != ".feature" {
			return err
		}
		top, _, _ := strings.Cut(p, "/")
		if !slices.Contains(paths, top) {
			paths = append(paths, top)
		}
		return nil
	})
	if err == nil && len(paths) == 0 {
		err = fmt.Errorf("features: no .feature files")
	}
	return paths, err
}

// harness is the state shared by every scenario of one run; godog runs
// them one at a time.
type harness struct {
	Options                // the run's, completed with their defaults
	calls   *runner.Runner // sends a scenario's requests as conform run does
	lastID  int64
	records records
	// divergenceTag is "@divergence:<system>" under a system's profile:
	// scenarios carrying it are not run.
	divergenceTag string

	// session is the process of a StdioRaw that the framing scenarios
	// share.
	session *Session

	helloOnce sync.Once
	hello     *protocol.Hello // nil when the implementation does not know hello
	helloErr  error
}

// call sends one request and waits for its answer, as conform run does:
// within the per-request limit, and again when it failed for another
// request's fault.
func (h *harness) call(ctx context.Context, op string, input json.RawMessage) (protocol.Response, error) {
	h.lastID++
	req := protocol.Request{ID: json.RawMessage(fmt.Sprint(h.lastID)), Op: op, Input: input}
	if h.Context != nil {
		var cancel context.CancelFunc
		ctx, cancel = context.WithCancel(ctx)
		defer context.AfterFunc(h.Context, cancel)()
		defer cancel()
	}
	resp, err := h.calls.Call(ctx, req)
	if err != nil {
		return resp, fmt.Errorf("%s: no answer: %w", op, err)
	}
	if string(resp.ID) != string(req.ID) {
		return resp, fmt.Errorf("%s: answer carries id %s, want %s", op, resp.ID, req.ID)
	}
	return resp, nil
}

// handshake performs the hello handshake once per run, as the runner does
// (runner.Connect): an implementation that does not know hello is taken to
// offer every op.
func (h *harness) handshake(ctx context.Context) (*protocol.Hello, error) {
	h.helloOnce.Do(func() {
		ctx, cancel := context.WithTimeout(ctx, h.Timeout)
		defer cancel()
		h.hello, h.helloErr = runner.Connect(ctx, h.Impl)
		if h.Answered != nil {
			h.Answered(1)
		}
	})
	return h.hello, h.helloErr
}

// initScenario registers the step definitions and hooks of one scenario.
func (h *harness) initScenario(sc *godog.ScenarioContext) {
	r := &record{}
	s := &scenario{h: h, r: r}
	s.register(steps{sc})
	if h.more != nil {
		h.more(sc, s)
	}
	h.records.list = append(h.records.list, r)
	sc.Before(func(ctx context.Context, p *godog.Scenario) (context.Context, error) {
		tagged := func(t *messages.PickleTag) bool { return t.Name == h.divergenceTag }
		diverging := h.divergenceTag != "" && slices.ContainsFunc(p.Tags, tagged)
		r.begin(p, diverging)
		if diverging {
			return ctx, fmt.Errorf("%w: diverging: tagged %s, not judged under that profile", errSkip, h.divergenceTag)
		}
		return ctx, nil
	})
	sc.StepContext().After(func(ctx context.Context, st *godog.Step, status godog.StepResultStatus, err error) (context.Context, error) {
		r.step(st.Text, status, err)
		return ctx, nil
	})
}

// shared sends input to the process the framing scenarios share, starting
// it when there is none; a session that timed out or failed is closed, so
// the next exchange starts afresh.
func (h *harness) shared(ctx context.Context, st StdioRaw, input []byte) ([]byte, error) {
	if h.session == nil {
		h.session = NewSession(st)
	}
	return h.session.Exchange(ctx, input)
}

// steps registers conform's step definitions into a godog scenario, each
// function wrapped so that the error it returns is a shownError: godog's
// formatters print a step's error as it is, and a step's error may quote
// an implementation.
type steps struct{ *godog.ScenarioContext }

var typeError = reflect.TypeFor[error]()

// Step registers fn for the steps expr matches.
func (sc steps) Step(expr string, fn any) {
	v := reflect.ValueOf(fn)
	sc.ScenarioContext.Step(expr, reflect.MakeFunc(v.Type(), func(in []reflect.Value) []reflect.Value {
		out := v.Call(in)
		for i, o := range out {
			if o.Type() == typeError && !o.IsNil() {
				out[i] = reflect.ValueOf(error(shownError{o.Interface().(error)}))
			}
		}
		return out
	}).Interface())
}

// shownError is a step's error as godog's formatters print it: each line
// with its invisible and control characters escaped (safetext), whatever
// the step put in it; errors.Is and errors.As see the error inside.
type shownError struct{ err error }

func (e shownError) Error() string {
	lines := strings.Split(e.err.Error(), "\n")
	for i, l := range lines {
		lines[i] = safetext.Text(l)
	}
	return strings.Join(lines, "\n")
}

func (e shownError) Unwrap() error { return e.err }

// outputSchemaError validates output, an accepted answer of op, against the
// op's output schema (schemas/ops/OP.json#/$defs/output); an op without a
// schema file (the fakes' echo.echo) is not checked.
func outputSchemaError(op string, output []byte) error {
	schemas, err := loadSchemas()
	if err != nil {
		return err
	}
	file := "ops/" + op + ".json"
	if !schemas.Has(file) {
		return nil
	}
	return schemas.Validate(file, "/$defs/output", output)
}

// loadSchemas loads the ops' output schemas once, for "the input is
// accepted".
var loadSchemas = sync.OnceValues(schemaset.Load)
