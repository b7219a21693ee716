package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/conform-suite/conform/internal/safetext"
	"github.com/conform-suite/conform/protocol"

	"github.com/conform-suite/conform/reference"
	"github.com/conform-suite/conform/runner"
)

// implFlags choose and tune the implementation under test.
type implFlags struct {
	stdio, http, spawn string
	timeout            time.Duration
	restarts           int
	maxLine            int
	maxBody            int64
	noGrease           bool
}

// register adds the flags to fs, with restarts the default of --restarts.
func (f *implFlags) register(fs *flag.FlagSet, restarts int) {
	fs.StringVar(&f.stdio, "stdio", "", "run `CMD` as a persistent child process speaking protocol v1 on stdin/stdout")
	fs.StringVar(&f.http, "http", "", "POST protocol v1 requests to `URL`")
	fs.StringVar(&f.spawn, "spawn", "", "start `CMD` once per request (slow fallback)")
	fs.DurationVar(&f.timeout, "timeout", 10*time.Second, "per-request time limit")
	fs.IntVar(&f.restarts, "restarts", restarts, "how many times a crashed --stdio child is restarted")
	fs.IntVar(&f.maxLine, "max-line", protocol.DefaultMaxLine, "longest answer accepted, in `bytes` (a line on stdio; over HTTP each answer, of a batch too)")
	fs.Int64Var(&f.maxBody, "max-body", runner.DefaultMaxAnswerBody, "longest HTTP answer body accepted, in `bytes`; answers are never decompressed and redirects never followed")
	fs.BoolVar(&f.noGrease, "no-grease", false, "do not add an unknown member to requests (grease)")
}

// check reports bad flags before anything is started.
func (f *implFlags) check() error {
	_, _, err := f.build()
	return err
}

// build makes the implementation and describes its transport; nothing is
// started until its first call.
func (f *implFlags) build() (runner.Implementation, string, error) {
	given := slices.DeleteFunc([]string{f.stdio, f.http, f.spawn}, func(s string) bool { return s == "" })
	if len(given) > 1 {
		return nil, "", errors.New("give at most one of --stdio, --http and --spawn")
	}
	switch {
	case f.timeout <= 0:
		return nil, "", fmt.Errorf("--timeout %v: give a positive duration, such as 10s", f.timeout)
	case f.restarts < 0:
		return nil, "", fmt.Errorf("--restarts %d: give zero or more", f.restarts)
	case f.maxLine <= 0:
		return nil, "", fmt.Errorf("--max-line %d: give a positive number of bytes", f.maxLine)
	case f.maxBody <= 0:
		return nil, "", fmt.Errorf("--max-body %d: give a positive number of bytes", f.maxBody)
	}
	switch {
	case f.stdio != "":
		argv, err := splitCommand(f.stdio)
		if err != nil {
			return nil, "", fmt.Errorf("--stdio: %v", err)
		}
		s := runner.NewStdio(argv...)
		s.MaxLine, s.Restarts, s.Grease = f.maxLine, f.restarts, !f.noGrease
		s.StartTimeout = max(f.timeout, time.Second) // as the first start's hello (connect)
		return s, "stdio: " + f.stdio, nil
	case f.http != "":
		if !strings.HasPrefix(f.http, "http://") && !strings.HasPrefix(f.http, "https://") {
			return nil, "", fmt.Errorf("--http %q: not an http:// or https:// URL", f.http)
		}
		h := runner.NewHTTP(f.http)
		h.Grease, h.MaxBody, h.MaxLine = !f.noGrease, f.maxBody, f.maxLine
		return h, "http: " + f.http, nil
	case f.spawn != "":
		argv, err := splitCommand(f.spawn)
		if err != nil {
			return nil, "", fmt.Errorf("--spawn: %v", err)
		}
		return &runner.Spawn{Command: argv, MaxLine: f.maxLine}, "spawn: " + f.spawn, nil
	}
	return reference.InProcess{}, "in-process", nil
}

// connect opens the implementation and performs the handshake. On failure it
// prints the error and returns false: nothing can be run (exit code 2).
func (e *env) connect(ctx context.Context, f *implFlags) (runner.Implementation, *protocol.Hello, string, bool) {
	impl, transport, err := f.build()
	if err != nil {
		e.errorf("%v", err)
		return nil, nil, "", false
	}
	hctx, cancel := context.WithTimeout(ctx, max(f.timeout, time.Second))
	defer cancel()
	hello, err := runner.Connect(hctx, impl)
	if err != nil {
		impl.Close()
		e.errorf("cannot start the implementation (%s): %v", transport, err)
		se, isStart := errors.AsType[*runner.StartError](err)
		if isStart && strings.TrimSpace(se.Stderr) != "" {
			fmt.Fprintln(e.stderr, "conform: its stderr (tail):")
			for _, l := range safetext.Tail(strings.TrimRight(se.Stderr, "\n"), 20, 300) {
				fmt.Fprintf(e.stderr, "  | %s\n", l)
			}
		}
		if isStart && se.Timeout && f.stdio != "" {
			e.hintf("an implementation over stdio must flush each answer line: stdout to a pipe is buffered (Python: print(..., flush=True); Node: process.stdout.write; C: fflush(stdout))")
		}
		e.hintf("check the command or URL by hand: 'conform explain' prints request lines to send it")
		return nil, nil, "", false
	}
	return impl, hello, transport, true
}

// splitCommand splits a command line into words: words are separated by
// blanks; single quotes keep everything literally, double quotes keep
// blanks, and a backslash escapes the next character outside single quotes.
// There is no other shell syntax.
func splitCommand(s string) ([]string, error) {
	var (
		words  []string
		cur    strings.Builder
		inWord bool
		quote  rune
		esc    bool
	)
	for _, r := range s {
		switch {
		case esc:
			cur.WriteRune(r)
			esc = false
		case quote == '\'':
			if r == '\'' {
				quote = 0
			} else {
				cur.WriteRune(r)
			}
		case r == '\\':
			esc, inWord = true, true
		case quote == '"':
			if r == '"' {
				quote = 0
			} else {
				cur.WriteRune(r)
			}
		case r == '\'' || r == '"':
			quote, inWord = r, true
		case r == ' ' || r == '\t' || r == '\n':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteRune(r)
			inWord = true
		}
	}
	switch {
	case esc:
		return nil, errors.New("the command ends with a backslash")
	case quote != 0:
		return nil, fmt.Errorf("unterminated %c quote in the command", quote)
	}
	if inWord {
		words = append(words, cur.String())
	}
	if len(words) == 0 {
		return nil, errors.New("empty command")
	}
	return words, nil
}
