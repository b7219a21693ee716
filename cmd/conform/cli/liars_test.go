package cli

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/conform-suite/conform/internal/fakeimpl"
	"github.com/conform-suite/conform/internal/jsonv"
	"github.com/conform-suite/conform/protocol"
	"github.com/conform-suite/conform/reference"
)

// liarEnv makes the test binary serve the reference on stdio through one of
// fakeimpl's liars, which rewrites every output but hello's.
const liarEnv = "CONFORM_TEST_LIAR"

var liars = map[string]func([]byte) []byte{
	"surrogate": fakeimpl.LoneSurrogates,
	"tiny":      fakeimpl.TinyFractions,
	"huge":      fakeimpl.HugeDigits,
	"twice":     twice,
}

// twice writes the first member of an output object a second time.
func twice(out []byte) []byte {
	v, err := jsonv.Parse(out)
	if err != nil || v.Type != jsonv.Object || len(v.Members) == 0 {
		return out
	}
	v.Members = append(v.Members, v.Members[0])
	return jsonv.Append(nil, v)
}

func init() {
	rewrite := liars[os.Getenv(liarEnv)]
	if rewrite == nil {
		return
	}
	if err := protocol.ServeStdio(context.Background(), rewriting(rewrite), os.Stdin, os.Stdout, 0); err != nil {
		os.Exit(1)
	}
	os.Exit(0)
}

type rewriting func([]byte) []byte

func (f rewriting) Call(ctx context.Context, req protocol.Request) (protocol.Response, error) {
	resp, err := reference.InProcess{}.Call(ctx, req)
	if err == nil && resp.Output != nil && req.Op != "hello" {
		resp.Output = f(resp.Output)
	}
	return resp, err
}

func (rewriting) Close() error { return nil }

// TestLiarsFailThroughTheCLI runs conform run and conform features against
// liars over stdio: each fails (exit 1), with the lie in the diff.
func TestLiarsFailThroughTheCLI(t *testing.T) {
	self := quoteArg(os.Args[0])
	tests := []struct {
		liar string
		args []string
		want []string // in stdout
	}{
		{"surrogate", []string{"run", "--stdio", self, "--suite", "selref"},
			[]string{"FAIL        selref.ingest/label-lone-high-surrogate-replaced", "$.reference.label: want \"abc\ufffd\", got \"abc\\ud83d\""}},
		{"tiny", []string{"run", "--stdio", self, "--op", "quote.select"},
			[]string{"FAIL        quote.select/lone-surrogate-counts-one-unit", "$.selector.start: want 2, got 2." + strings.Repeat("0", 80) + "1"}},
		{"twice", []string{"run", "--stdio", self, "--op", "quote.normalize"},
			[]string{"PROTOCOL    quote.normalize/", `the answer's member "output" names the member "text" twice at $`}},
		{"twice", []string{"doctor", "--pings", "0", "--stdio", self},
			[]string{`protocol: the answer's member "output" names the member`, "FAIL answers:"}},
		{"surrogate", []string{"features", "--stdio", self, "--format", "progress", "--no-color", "--tags", "@SELREF-TEXT-002,@QUOTE-ANCHOR-002,@MARKER-STRIP-008"},
			[]string{
				"selref/selref.feature:217: A broken half of an emoji becomes a replacement character", `got "half \ud83d face"`,
				"quote/anchor.feature:164: Half an emoji reads as a replacement character, one unit long", `$.text: want "a� b", got "a\ud83d b"`,
				"marker/strip.feature:272: Half an emoji counts as one replacement character", `$.text: want "� claim.", got "\ud83d claim."`,
			}},
	}
	for _, tt := range tests {
		t.Run(tt.liar+"/"+tt.args[0], func(t *testing.T) {
			t.Setenv(liarEnv, tt.liar)
			code, stdout, stderr := conform(t, "", tt.args...)
			if code != ExitFailed {
				t.Errorf("conform %q against the %s liar = exit %d, want %d\n%s%s", tt.args, tt.liar, code, ExitFailed, stdout, stderr)
			}
			for _, w := range tt.want {
				if !strings.Contains(stdout, w) {
					t.Errorf("conform %q against the %s liar: no %q in\n%s", tt.args, tt.liar, w, stdout)
				}
			}
		})
	}
}
