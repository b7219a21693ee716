package features

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"strconv"
	"strings"
	"sync"
	"time"

	gherkin "github.com/cucumber/gherkin/go/v42"
	messages "github.com/cucumber/messages/go/v34"
)

// The scenario runner of conform features: it reads the feature files with
// the Gherkin parser, compiles them to pickles (a scenario, or one row of a
// scenario outline, with the background's steps first and the tags of
// everything around it), runs each pickle's steps against the definitions
// of the registry, and hands the results to the formatters of format.go.
// Steps run in strict mode: an undefined or ambiguous step fails its
// scenario, as does a step that returns an error or panics; a step whose
// error wraps errSkip skips the rest of the scenario.

// feature is one parsed feature file.
type feature struct {
	uri       string
	doc       *messages.GherkinDocument
	pickles   []*messages.Pickle
	scenarios map[string]*messages.Scenario // by AST node id
	steps     map[string]*messages.Step     // by AST node id
	rows      map[string]*messages.TableRow // example rows, by AST node id
	tags      map[string]*messages.Tag      // by AST node id
}

// scenarioOf is the scenario (or outline) pickle p was compiled from.
func (f *feature) scenarioOf(p *messages.Pickle) *messages.Scenario {
	return f.scenarios[p.AstNodeIds[0]]
}

// line is the line of p: its example row, or its scenario.
func (f *feature) line(p *messages.Pickle) int64 {
	if len(p.AstNodeIds) > 1 {
		if row := f.rows[p.AstNodeIds[len(p.AstNodeIds)-1]]; row != nil {
			return row.Location.Line
		}
	}
	if sc := f.scenarioOf(p); sc != nil {
		return sc.Location.Line
	}
	return 0
}

// stepOf is the AST step of a pickle step: its keyword and line.
func (f *feature) stepOf(st *messages.PickleStep) *messages.Step {
	if s := f.steps[st.AstNodeIds[0]]; s != nil {
		return s
	}
	return &messages.Step{Location: &messages.Location{}}
}

func (f *feature) index() {
	f.scenarios, f.steps = map[string]*messages.Scenario{}, map[string]*messages.Step{}
	f.rows, f.tags = map[string]*messages.TableRow{}, map[string]*messages.Tag{}
	addTags := func(tags []*messages.Tag) {
		for _, t := range tags {
			f.tags[t.Id] = t
		}
	}
	addSteps := func(steps []*messages.Step) {
		for _, s := range steps {
			f.steps[s.Id] = s
		}
	}
	var children func(bg *messages.Background, sc *messages.Scenario, rule *messages.Rule)
	children = func(bg *messages.Background, sc *messages.Scenario, rule *messages.Rule) {
		switch {
		case bg != nil:
			addSteps(bg.Steps)
		case sc != nil:
			f.scenarios[sc.Id] = sc
			addTags(sc.Tags)
			addSteps(sc.Steps)
			for _, ex := range sc.Examples {
				addTags(ex.Tags)
				for _, row := range ex.TableBody {
					f.rows[row.Id] = row
				}
			}
		case rule != nil:
			addTags(rule.Tags)
			for _, c := range rule.Children {
				children(c.Background, c.Scenario, nil)
			}
		}
	}
	addTags(f.doc.Feature.Tags)
	for _, c := range f.doc.Feature.Children {
		children(c.Background, c.Scenario, c.Rule)
	}
}

// loadFeatures parses the feature files of paths (files, directories, or
// "file.feature:LINE" for the scenario on that line) and keeps the pickles
// the tag expression selects. A file is read once, however many paths
// name it; a feature left without pickles is dropped.
func loadFeatures(fsys fs.FS, paths []string, tags string) ([]*feature, error) {
	newID := (&messages.Incrementing{}).NewId
	var list []*feature
	seen := map[string]bool{}
	add := func(p string, line int64) error {
		if seen[p] {
			return nil
		}
		seen[p] = true
		f, err := parseFeature(fsys, p, newID)
		if err != nil {
			return err
		}
		if line >= 0 {
			var kept []*messages.Pickle
			for _, pk := range f.pickles {
				if sc := f.scenarioOf(pk); sc != nil && sc.Location.Line == line {
					kept = append(kept, pk)
				}
			}
			f.pickles = kept
		}
		list = append(list, f)
		return nil
	}
	for _, p := range paths {
		p, line := pathLine(p)
		info, err := fs.Stat(fsys, p)
		if err != nil {
			return nil, fmt.Errorf("feature path %q is not available", p)
		}
		if !info.IsDir() {
			if err := add(p, line); err != nil {
				return nil, err
			}
			continue
		}
		err = fs.WalkDir(fsys, p, func(q string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(q, ".feature") {
				return err
			}
			return add(q, -1)
		})
		if err != nil {
			return nil, err
		}
	}
	var kept []*feature
	for _, f := range list {
		var pickles []*messages.Pickle
		for _, p := range f.pickles {
			if matchTags(tags, p.Tags) {
				pickles = append(pickles, p)
			}
		}
		if f.pickles = pickles; len(pickles) > 0 {
			kept = append(kept, f)
		}
	}
	return kept, nil
}

// pathLine splits "file.feature:12" into the file and the line; a path
// without a line has line -1.
func pathLine(p string) (string, int64) {
	i := strings.LastIndexByte(p, ':')
	if i < 0 {
		return p, -1
	}
	n, err := strconv.ParseInt(p[i+1:], 10, 64)
	if err != nil || n < 0 || strings.HasPrefix(p[i+1:], "+") {
		return p, -1
	}
	return p[:i], n
}

func parseFeature(fsys fs.FS, p string, newID func() string) (*feature, error) {
	data, err := fs.ReadFile(fsys, p)
	if err != nil {
		return nil, err
	}
	doc, err := gherkin.ParseGherkinDocument(bytes.NewReader(data), newID)
	if err != nil {
		return nil, fmt.Errorf("%s - %v", p, err)
	}
	doc.Uri = p
	f := &feature{uri: p, doc: doc}
	if doc.Feature == nil {
		return f, nil // an empty file: no pickles
	}
	f.pickles = gherkin.Pickles(*doc, p, newID)
	f.index()
	return f, nil
}

// matchTags reports whether tags satisfy the expression: alternatives
// separated by commas, each a conjunction of tags separated by "&&", a tag
// negated by a leading "~". The empty expression selects everything.
func matchTags(expr string, tags []*messages.PickleTag) bool {
	if expr == "" {
		return true
	}
	has := func(name string) bool {
		for _, t := range tags {
			if strings.ReplaceAll(t.Name, "@", "") == name {
				return true
			}
		}
		return false
	}
	for alt := range strings.SplitSeq(expr, ",") {
		ok := alt != ""
		for term := range strings.SplitSeq(alt, "&&") {
			term = strings.ReplaceAll(strings.TrimSpace(term), "@", "")
			switch {
			case term == "":
				ok = false
			case term[0] == '~':
				ok = ok && !has(term[1:])
			default:
				ok = ok && has(term)
			}
		}
		if ok {
			return true
		}
	}
	return false
}

// stepResult is what happened to one step of a pickle.
type stepResult struct {
	step   *messages.PickleStep
	def    *stepDef // nil when undefined or ambiguous
	status stepStatus
	err    error
	// shown is false for a step the reports leave out: an ambiguous step
	// after the scenario had already failed or been skipped.
	shown bool
	took  time.Duration
}

// pickleResult is what happened to one pickle.
type pickleResult struct {
	feature    *feature
	pickle     *messages.Pickle
	steps      []stepResult
	failed     bool
	start, end time.Time
}

// drive is the driver of [Run].
func drive(h *harness, opts Options, paths []string) int {
	feats, err := loadFeatures(opts.FS, paths, opts.Tags)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return StatusOptions
	}
	rep, closeAll, err := newReports(opts, &h.verdicts)
	if err != nil {
		fmt.Fprintln(os.Stderr, "features:", err)
		return StatusOptions
	}
	defer closeAll()
	start := time.Now()
	status := StatusOK
	for _, f := range feats {
		rep.feature(f)
		for _, r := range h.runPickles(f, opts.Concurrency) {
			rep.pickle(r)
			if r.failed {
				status = StatusFailed
			}
		}
	}
	rep.summary(time.Since(start))
	return status
}

// runPickles runs the pickles of f, up to n at once, and returns their
// results in order.
func (h *harness) runPickles(f *feature, n int) []*pickleResult {
	results := make([]*pickleResult, len(f.pickles))
	if n <= 1 {
		for i, p := range f.pickles {
			results[i] = h.runPickle(f, p)
		}
		return results
	}
	var wg sync.WaitGroup
	sem := make(chan struct{}, n)
	for i, p := range f.pickles {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			results[i] = h.runPickle(f, p)
		}()
	}
	wg.Wait()
	return results
}

// runPickle runs the steps of p with a fresh registry of step definitions.
func (h *harness) runPickle(f *feature, p *messages.Pickle) *pickleResult {
	r := &pickleResult{feature: f, pickle: p, start: time.Now()}
	reg := &registry{}
	h.initScenario(reg)
	if len(p.Steps) == 0 {
		r.failed, r.end = true, time.Now()
		return r
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var scenarioErr error
	for i, st := range p.Steps {
		var err error
		ctx, err = reg.runStep(ctx, r, st, scenarioErr, i == 0, i == len(p.Steps)-1)
		if scenarioErr == nil || shouldFail(err) {
			scenarioErr = err
		}
	}
	r.failed, r.end = shouldFail(scenarioErr), time.Now()
	return r
}

// shouldFail reports whether err fails a scenario: any error but a skip.
func shouldFail(err error) bool { return err != nil && !errors.Is(err, errSkip) }

// statusOf is the status of a step that ended with err, in a scenario that
// scenarioErr had already failed or skipped.
func statusOf(err, scenarioErr error) stepStatus {
	switch {
	case errors.Is(err, errAmbiguous):
		return stepAmbiguous
	case errors.Is(err, errSkip), err == nil && scenarioErr != nil:
		return stepSkipped
	case errors.Is(err, errUndefined):
		return stepUndefined
	case err != nil:
		return stepFailed
	}
	return stepPassed
}

// runStep runs one step and records its result in r. A step after one that
// failed or skipped the scenario is not run: it is skipped, or undefined
// when no definition matches it.
func (reg *registry) runStep(ctx context.Context, r *pickleResult, st *messages.PickleStep, scenarioErr error, first, last bool) (context.Context, error) {
	start := time.Now()
	var err, hookErr error
	if first {
		ctx, hookErr = reg.runBefore(ctx, r.pickle)
		err = hookErr
	}
	def, args, matchErr := reg.match(st.Text)
	switch {
	case hookErr != nil:
	case matchErr != nil:
		err = matchErr
	case def == nil:
		err = fmt.Errorf("%w: %s", errUndefined, st.Text)
	case scenarioErr != nil:
	default:
		ctx, err = def.safeCall(ctx, args, st.Argument)
	}
	status := statusOf(err, scenarioErr)
	ctx, err = reg.runAfterStep(ctx, st, status, err)
	if !shouldFail(scenarioErr) && (last || shouldFail(err)) {
		ctx, err = reg.runAfter(ctx, r.pickle, err)
	}
	res := stepResult{step: st, def: def, err: err, shown: true, took: time.Since(start)}
	switch {
	case hookErr != nil:
		res.status = statusOf(err, nil)
	case matchErr != nil && scenarioErr != nil:
		res.shown = false
	case matchErr != nil:
		res.status = statusOf(err, nil)
	case def == nil:
		res.status = stepUndefined
	case scenarioErr != nil:
		res.status, res.err = stepSkipped, nil
	default:
		res.status = statusOf(err, nil)
	}
	r.steps = append(r.steps, res)
	return ctx, err
}

// safeCall calls the step's function; a panic is the step's error.
func (d *stepDef) safeCall(ctx context.Context, args []string, arg *messages.PickleStepArgument) (rctx context.Context, err error) {
	defer func() {
		if e := recover(); e != nil {
			rctx, err = ctx, fmt.Errorf("%v", e)
		}
	}()
	return d.call(ctx, args, arg)
}

func (reg *registry) runBefore(ctx context.Context, p *messages.Pickle) (context.Context, error) {
	var err error
	for _, f := range reg.before {
		c, herr := f(ctx, p)
		if c != nil {
			ctx = c
		}
		err = joinHookErr(err, herr)
	}
	if err != nil {
		err = fmt.Errorf("before scenario hook failed: %w", err)
	}
	return ctx, err
}

func (reg *registry) runAfterStep(ctx context.Context, st *messages.PickleStep, status stepStatus, err error) (context.Context, error) {
	for _, f := range reg.afterStep {
		c, herr := f(ctx, st, status, err)
		if c != nil {
			ctx = c
		}
		err = joinHookErr(err, herr)
	}
	return ctx, err
}

func (reg *registry) runAfter(ctx context.Context, p *messages.Pickle, err error) (context.Context, error) {
	for _, f := range reg.after {
		c, herr := f(ctx, p, err)
		if c != nil {
			ctx = c
		}
		err = joinHookErr(err, herr)
	}
	return ctx, err
}

// joinHookErr adds a hook's error to the step's.
func joinHookErr(err, herr error) error {
	switch {
	case herr == nil:
		return err
	case err == nil:
		return herr
	}
	return fmt.Errorf("%v, %w", herr, err)
}

// newReports opens the formatters format names: "name" writes to
// opts.Output, "name:FILE" to FILE.
func newReports(opts Options, vs *verdicts) (report, func(), error) {
	var reps multiReport
	var files []*os.File
	closeAll := func() {
		for _, f := range files {
			f.Close()
		}
	}
	for spec := range strings.SplitSeq(opts.Format, ",") {
		name, file, hasFile := strings.Cut(spec, ":")
		var w io.Writer = opts.Output
		if hasFile {
			f, err := os.Create(file)
			if err != nil {
				closeAll()
				return nil, nil, fmt.Errorf("--format %s: %v", spec, err)
			}
			files = append(files, f)
			w = f
		}
		reps = append(reps, formats[name](w, paint(!opts.NoColors), vs))
	}
	return reps, closeAll, nil
}

// uriLine is "uri:line".
func uriLine(uri string, line int64) string {
	return path.Clean(uri) + ":" + strconv.FormatInt(line, 10)
}
