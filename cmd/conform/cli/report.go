package cli

import (
	"bufio"
	"io"
	"os"
	"path/filepath"

	"github.com/conform-suite/conform/report"
)

const reportHead = `Usage: conform report --html OUT.html REPORT.json...

Reads JSON reports (conform run --json) of one or more implementations and
writes one self-contained HTML page comparing them: for each suite and op, a
matrix of requirements against implementations (pass, fail, unsupported,
diverging under a profile, with counts), each requirement's text on its id,
a filter box, a switch that hides the rows no implementation ran, and each
failure's request and difference on demand. The page loads nothing from
elsewhere and runs offline. Reports of the same implementation, profile and
transport that are distinct shards of one split (run with --shard i/n, the
same n) are one run and share a column; any other report of the same
implementation (a second whole run, the same shard twice) gets a column of
its own, named by its file. A result graded against a recorded answer
(--profile) is diverging.

Exit code 0 when the page was written; 2 on bad usage or a file that is not
a conform JSON report.
`

func (e *env) report(args []string) int {
	fs := e.newFlags("report", reportHead)
	out := fs.String("html", "", "write the HTML page to `FILE`")
	if done, code := e.parse(fs, args, 1<<20); done {
		return code
	}
	if *out == "" {
		return e.usageHint("report needs --html OUT.html", "conform report --html conformance.html a.json b.json")
	}
	if fs.NArg() == 0 {
		return e.usageHint("report needs one or more JSON reports", "write them with 'conform run --json FILE'")
	}
	sp := embeddedSpec()
	var reports []report.Page
	for _, p := range fs.Args() {
		f, err := os.Open(p)
		if err != nil {
			return e.usagef("%v", err)
		}
		r, err := report.ReadJSON(bufio.NewReader(f), sp)
		f.Close()
		if err != nil {
			return e.usagef("%s: %v", p, err)
		}
		reports = append(reports, report.Page{File: filepath.Base(p), Report: r})
	}
	text := func(id string) string {
		r, _ := sp.Lookup(id)
		return r.Text
	}
	// The page is written as it is rendered, never held whole.
	err := e.writeTo(*out, func(w io.Writer) error {
		bw := bufio.NewWriter(w)
		if err := report.HTML(bw, reports, text); err != nil {
			return err
		}
		return bw.Flush()
	})
	if err != nil {
		return e.usagef("--html: %v", err)
	}
	e.infof("wrote %s: %d %s", *out, len(reports), report.Plural(len(reports), "report", "reports"))
	return ExitOK
}
