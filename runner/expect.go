package runner

import (
	"bufio"
	"bytes"
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/conform-suite/conform/internal/safetext"
	"github.com/conform-suite/conform/vectors"
)

// Expectations is a known-failures file used as a ratchet: one vector id per
// line, optionally followed by "# reason". Blank lines and lines starting
// with "#" are ignored. A listed vector that fails is an xfail; one that
// passes is an xpass and fails the run; an entry that names no vector of the
// corpus is stale and fails the run too.
type Expectations struct {
	Entries []Expectation
}

// Expectation is one entry of an expectations file.
type Expectation struct {
	ID     string `json:"id"`
	Reason string `json:"reason"`
	Line   int    `json:"line"`
}

// ParseExpectations reads an expectations file.
func ParseExpectations(r io.Reader) (*Expectations, error) {
	e := &Expectations{}
	seen := map[string]int{}
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		id, reason, _ := strings.Cut(line, "#")
		id, reason = strings.TrimSpace(id), strings.TrimSpace(reason)
		if strings.ContainsAny(id, " \t") {
			return nil, fmt.Errorf("line %d: %q is not one vector id (write the reason after '#')", n, id)
		}
		if prev, dup := seen[id]; dup {
			return nil, fmt.Errorf("line %d: %s is already listed on line %d", n, id, prev)
		}
		seen[id] = n
		e.Entries = append(e.Entries, Expectation{ID: id, Reason: reason, Line: n})
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	return e, nil
}

// Apply turns failures of listed vectors into xfail and passes of listed
// vectors into xpass, and returns the entries that name no vector of corpus
// (stale entries). An unsupported or interrupted vector stays as it is.
func (e *Expectations) Apply(results []Result, corpus []*vectors.Vector) (stale []Expectation) {
	if e == nil {
		return nil
	}
	byID := make(map[string]*Expectation, len(e.Entries))
	for i := range e.Entries {
		byID[e.Entries[i].ID] = &e.Entries[i]
	}
	for i := range results {
		res := &results[i]
		x, ok := byID[res.Vector.ID]
		if !ok || res.Outcome == Unsupported || res.Outcome == Interrupted {
			continue
		}
		res.Original, res.Reason = res.Outcome, x.Reason
		if res.Outcome == Pass {
			res.Outcome = XPass
		} else {
			res.Outcome = XFail
		}
	}
	known := make(map[string]bool, len(corpus))
	for _, v := range corpus {
		known[v.ID] = true
	}
	for _, x := range e.Entries {
		if !known[x.ID] {
			stale = append(stale, x)
		}
	}
	return stale
}

// WriteExpectations writes an expectations file listing every failing
// result, with its outcome and first difference as the reason.
func WriteExpectations(w io.Writer, results []Result) error {
	var b bytes.Buffer
	b.WriteString("# conform expectations: known failures, one 'vector-id  # reason' per line.\n")
	b.WriteString("# A listed vector that passes, or an entry that names no vector, fails the run.\n")
	var lines []string
	for i := range results {
		res := &results[i]
		switch res.Outcome {
		case Pass, Unsupported, XPass, Interrupted: // an xfail's original outcome failed
			continue
		}
		reason := res.Kind()
		if res.Outcome == XFail {
			reason = cmp.Or(res.Reason, string(res.Original))
		} else if d := res.FirstLine(); d != "" {
			reason += ": " + d
		}
		lines = append(lines, fmt.Sprintf("%s  # %s", res.Vector.ID, safetext.Head(safetext.Text(reason), 160)))
	}
	slices.Sort(lines)
	for _, l := range lines {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	_, err := w.Write(b.Bytes())
	return err
}
