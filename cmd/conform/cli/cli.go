// Package cli is the conform command line: a thin layer over the runner.
// Every command prints errors as "conform: error: ..." and, where there is
// something to do about it, "conform: hint: ...", and never panics on bad
// flags or input.
package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"slices"
	"strings"

	"github.com/conform-suite/conform/internal/safetext"
	"github.com/conform-suite/conform/spec"
	"github.com/conform-suite/conform/vectors"
)

// Exit codes.
const (
	ExitOK     = 0 // vectors were judged and every one passed
	ExitFailed = 1 // a vector failed, nothing was judged, or the run was interrupted
	ExitUsage  = 2 // bad usage, or nothing could be run
)

const usage = `conform checks an implementation of the quote, marker and selref suites
against the conformance vectors, over protocol v1 (docs/runner.md).

Usage:
  conform run [flags]            run the vectors and report (default: the in-process reference)
  conform list [flags]           list the vectors, filtered like run
  conform explain ID             show a vector, its requirements and the request line to replay
  conform doctor [flags]         check an implementation's protocol: handshake, schemas, overhead
  conform fuzz [flags]           fuzz an implementation against the reference or an --oracle (docs/fuzzing.md)
  conform serve --stdio          serve the reference implementation on stdin/stdout
  conform serve --http ADDR      serve the reference implementation over HTTP
  conform features [flags]       run the Gherkin scenarios against an implementation
  conform coverage [--json]      list each requirement with the vectors and scenarios exercising it
  conform export --out DIR       write the vectors, their schemas and an index as data for any test framework
  conform profile export NAME    write a built-in profile as a profile file (run --profile-file reads it)
  conform fuzzkit --out DIR      seeds, a dictionary and properties for a client's own fuzzer
  conform report --html OUT R... compare JSON reports of several implementations on one HTML page
  conform version [--json]       print the conform version, revision and corpus digest
  conform help                   show this help

Point conform at an implementation with --stdio "CMD", --http URL or --spawn "CMD".
Run 'conform help COMMAND' (or 'conform COMMAND -h') for the flags of a command.

Exit codes: 0 all judged passed, 1 some failed or nothing was judged (every vector
skipped) or the run was interrupted, 2 usage error or an implementation that
cannot be started. The CI gate:
  conform run --stdio CMD --require-ops --require-codes --junit report.xml
`

// env carries the streams of one invocation.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
}

// errorf, hintf and infof print to stderr; what they say may quote an
// implementation's words, so each line is rendered with safetext.Text: no
// control character or newline of theirs reaches the terminal. errorf
// prints an error of several lines (every problem of a corpus, say) a line
// each, the first maxErrorLines of them; the others print one line.
func (e *env) errorf(format string, args ...any) {
	lines := strings.Split(strings.TrimRight(fmt.Sprintf(format, args...), "\n"), "\n")
	for i, l := range lines {
		if i == maxErrorLines && len(lines) > maxErrorLines+1 {
			fmt.Fprintf(e.stderr, "conform: error: … and %d more\n", len(lines)-i)
			break
		}
		fmt.Fprintf(e.stderr, "conform: error: %s\n", safetext.Text(l))
	}
}

// maxErrorLines bounds the lines of one error.
const maxErrorLines = 20

func (e *env) hintf(format string, args ...any) {
	fmt.Fprintf(e.stderr, "conform: hint: %s\n", safetext.Text(fmt.Sprintf(format, args...)))
}

// usagef prints an error as errorf does and returns ExitUsage, for a
// command that ends on it.
func (e *env) usagef(format string, args ...any) int {
	e.errorf(format, args...)
	return ExitUsage
}

// usageHint prints msg as errorf does, then hint as hintf does, and
// returns ExitUsage.
func (e *env) usageHint(msg, hint string) int {
	e.errorf("%s", msg)
	e.hintf("%s", hint)
	return ExitUsage
}

// failf prints an error as errorf does and returns ExitFailed.
func (e *env) failf(format string, args ...any) int {
	e.errorf(format, args...)
	return ExitFailed
}

// Main runs the command line with args (without the program name) and
// returns the process exit code.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) (code int) {
	e := &env{stdin: stdin, stdout: stdout, stderr: stderr}
	defer func() {
		if r := recover(); r != nil {
			e.errorf("internal error: %v", r)
			e.hintf("this is a bug in conform; please report it with the command line")
			code = ExitUsage
		}
	}()
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return ExitUsage
	}
	if run, ok := handlers[args[0]]; ok {
		return run(e, args[1:])
	}
	switch args[0] {
	case "help", "-h", "-help", "--help":
		if len(args) > 1 && args[0] == "help" && args[1] != "help" && slices.Contains(commands, args[1]) {
			return Main([]string{args[1], "-h"}, stdin, stdout, stderr) // conform help run: run's own help
		}
		fmt.Fprint(stdout, usage)
		return ExitOK
	default:
		msg := fmt.Sprintf("unknown command %q", args[0])
		if near := nearest(strings.TrimLeft(args[0], "-"), commands); near != "" {
			msg += "; did you mean " + near + "?"
		}
		return e.usageHint(msg, fmt.Sprintf("the commands are %s and %s; see 'conform help'", strings.Join(commands[:len(commands)-1], ", "), commands[len(commands)-1]))
	}
}

// commands are the command names, for suggestions.
var commands = []string{"run", "list", "explain", "doctor", "fuzz", "serve", "features", "coverage", "report", "export", "profile", "fuzzkit", "version", "help"}

// handlers run the commands but help, by name.
var handlers = map[string]func(*env, []string) int{
	"run": (*env).run, "list": (*env).list, "explain": (*env).explain, "doctor": (*env).doctor,
	"fuzz": (*env).fuzz, "serve": (*env).serve, "features": (*env).features, "coverage": (*env).coverage,
	"report": (*env).report, "export": (*env).export, "profile": (*env).profile, "fuzzkit": (*env).fuzzkit,
	"version": (*env).version, "--version": (*env).version,
}

// newFlags returns a flag set whose usage text is head followed by the
// flags. The flag package's own messages are silenced: parse reports a bad
// flag in conform's words, and -h prints the usage text to stdout.
func (e *env) newFlags(name, head string) *flag.FlagSet {
	fs := flag.NewFlagSet("conform "+name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), head)
		fmt.Fprint(fs.Output(), "\nFlags:\n")
		fs.PrintDefaults()
	}
	return fs
}

// implFlag names the flags that choose the implementation under test.
var implFlag = map[string]bool{"stdio": true, "http": true, "spawn": true}

// parse parses args, flags and arguments in any order (everything after
// "--" is an argument); done is true when the command is over (help or a
// bad flag), with code its exit code. A misspelt flag gets the nearest
// defined one as a suggestion, not the whole usage text.
func (e *env) parse(fs *flag.FlagSet, args []string, maxArgs int) (done bool, code int) {
	var positional []string
	var at []int // where each argument stands in args
	err := fs.Parse(args)
	for err == nil && fs.NArg() > 0 {
		rest := fs.Args()
		i := len(args) - len(rest) // fs.Args() is always a suffix of args
		if i > 0 && args[i-1] == "--" {
			for k := range rest {
				positional, at = append(positional, rest[k]), append(at, i+k)
			}
			break
		}
		positional, at = append(positional, rest[0]), append(at, i)
		err = fs.Parse(rest[1:])
	}
	if err == nil {
		err = fs.Parse(append([]string{"--"}, positional...)) // fs.Args() is the arguments
	}
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fs.SetOutput(e.stdout)
			fs.Usage()
			return true, ExitOK
		}
		msg := err.Error()
		if name, ok := strings.CutPrefix(msg, "flag provided but not defined: "); ok {
			var names []string
			fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
			if near := nearest(strings.TrimLeft(name, "-"), names); near != "" {
				msg += "; did you mean --" + near + "?"
			}
		}
		return true, e.usageHint(msg, fmt.Sprintf("see '%s -h'", fs.Name()))
	}
	var blank string
	fs.Visit(func(f *flag.Flag) {
		if blank == "" && !isBoolFlag(f) && strings.TrimSpace(f.Value.String()) == "" {
			blank = f.Name
		}
	})
	// A flag given an empty value is never what was meant: a variable
	// meant to hold it is unset. Left alone, an empty --stdio, --http,
	// --spawn or --oracle would judge conform's own reference and pass a CI
	// gate, and an empty report path would write no report.
	if blank != "" {
		e.errorf("--%s was given an empty value", blank)
		switch {
		case strings.HasPrefix(blank, "oracle"):
			e.hintf("name the oracle's command or URL (a variable meant to hold it is empty or unset?): without an oracle, the reference's answers are expected")
		case implFlag[blank] && fs.Name() != "conform serve":
			e.hintf("name the implementation's command or URL (a variable meant to hold it is empty or unset?): without --stdio, --http or --spawn, conform runs against its own reference")
		default:
			e.hintf("give --%s a value, or leave the flag out (see '%s -h')", blank, fs.Name())
		}
		return true, ExitUsage
	}
	if fs.NArg() > maxArgs {
		arg := fs.Arg(maxArgs)
		e.errorf("unexpected argument %q", arg)
		if prev := boolFlagBefore(fs, args, at[maxArgs]); prev != "" {
			e.hintf("--%s takes a value only after '=': --%s=%s", prev, prev, arg)
		}
		return true, ExitUsage
	}
	return false, ExitOK
}

// boolFlagBefore returns the name of the flag args[i-1] is when it is one
// that stands alone or takes its value after '=' (a boolean flag, or
// --require-ops), written without '=': the argument at i was then most
// likely meant as its value. "" otherwise.
func boolFlagBefore(fs *flag.FlagSet, args []string, i int) string {
	if i < 1 || !strings.HasPrefix(args[i-1], "-") || strings.Contains(args[i-1], "=") {
		return ""
	}
	name := strings.TrimLeft(args[i-1], "-")
	if f := fs.Lookup(name); f != nil && isBoolFlag(f) {
		return name
	}
	return ""
}

// isBoolFlag reports whether f stands alone, taking a value only after '='.
func isBoolFlag(f *flag.Flag) bool {
	b, ok := f.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

// listFlag is a repeatable flag; each use may also hold a comma-separated
// list.
type listFlag []string

func (l *listFlag) String() string { return strings.Join(*l, ",") }

func (l *listFlag) Set(s string) error {
	for _, part := range strings.Split(s, ",") {
		if part = strings.TrimSpace(part); part != "" {
			*l = append(*l, part)
		}
	}
	return nil
}

// A repeatFlag is a flag given once per value, each value taken whole (an
// id pattern may hold a comma).
type repeatFlag []string

func (r *repeatFlag) String() string { return strings.Join(*r, " ") }

func (r *repeatFlag) Set(s string) error {
	*r = append(*r, s)
	return nil
}

// embeddedSpec returns the specification compiled into the binary, which
// every command reads the same way: it fails only in a broken build, and
// then panics, for Main to report as the internal error it is.
func embeddedSpec() *spec.Spec {
	s, err := spec.Embedded()
	if err != nil {
		panic(fmt.Sprintf("the embedded specification: %v", err))
	}
	return s
}

// embeddedCorpus loads the corpus compiled into the binary: like
// embeddedSpec, it fails only in a broken build, and then panics.
func embeddedCorpus() *vectors.Corpus {
	c, err := vectors.Load(vectors.FS())
	if err != nil {
		panic(fmt.Sprintf("the embedded corpus: %v", err))
	}
	return c
}

// loadCorpus loads the embedded corpus, or the one in dir.
func loadCorpus(dir string) (*vectors.Corpus, error) {
	if dir != "" {
		if st, err := os.Stat(dir); err != nil || !st.IsDir() {
			return nil, fmt.Errorf("--vectors %s: not a directory", dir)
		}
	}
	return vectors.Load(corpusFS(dir))
}

// corpusFS is the embedded corpus's files, or dir's.
func corpusFS(dir string) fs.FS {
	if dir == "" {
		return vectors.FS()
	}
	return os.DirFS(dir)
}

// nearest returns the name of names closest to s by edit distance, or ""
// when none is close enough to be a likely misspelling.
func nearest(s string, names []string) string {
	best, bestD := "", -1
	for _, n := range names {
		if d := editDistance(s, n); bestD < 0 || d < bestD {
			best, bestD = n, d
		}
	}
	if bestD < 0 || bestD > max(2, len([]rune(s))/3) || bestD >= len([]rune(s)) {
		return ""
	}
	return best
}

// editDistance is the Levenshtein distance of a and b, with a swap of two
// neighbouring letters counted as one edit.
func editDistance(a, b string) int {
	x, y := []rune(a), []rune(b)
	d := make([][]int, len(x)+1)
	for i := range d {
		d[i] = make([]int, len(y)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(x); i++ {
		for j := 1; j <= len(y); j++ {
			cost := 1
			if x[i-1] == y[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && x[i-1] == y[j-2] && x[i-2] == y[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(x)][len(y)]
}

func (e *env) infof(format string, args ...any) {
	fmt.Fprintf(e.stderr, "conform: %s\n", safetext.Text(fmt.Sprintf(format, args...)))
}
