package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/conform-suite/conform/reference/quote"
	"github.com/conform-suite/conform/vectors"
)

// maxVector is the corpus's largest quote.parse input: every field at its
// limit in CJK.
const maxVector = "quote.parse/max-cjk-citation"

// sideBySide builds the conform binary and times `conform serve --stdio`
// answering the workloads measured against a real parser when the targets were set, best of
// three runs each, process start-up included.
func sideBySide() ([]sideBySideResult, error) {
	dir, err := os.MkdirTemp("", "benchdoc")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	bin := filepath.Join(dir, "conform")
	if out, err := exec.Command("go", "build", "-o", bin, "./cmd/conform").CombinedOutput(); err != nil {
		return nil, fmt.Errorf("go build: %v\n%s", err, out)
	}
	large, err := corpusHref(maxVector)
	if err != nil {
		return nil, err
	}
	small, err := quote.FormatHref(quote.Citation{Version: 1, EnvironmentID: "env-1", ThreadID: "thread-1",
		MessageID: "message-1", Text: "Use the cache.", Start: 0, End: 14, Suffix: " Next."})
	if err != nil {
		return nil, err
	}
	work := []sideBySideResult{
		{name: "maximum-size", requests: 500, theirs: 2.0, then: 2.9},
		{name: "small", requests: 50000, theirs: 0.97, then: 0.79},
	}
	for i, href := range []string{large, small} {
		w := &work[i]
		w.units = quote.UTF16Len(href)
		in, err := requests(href, w.requests)
		if err != nil {
			return nil, err
		}
		for range 3 {
			d, err := serveOnce(bin, in, w.requests)
			if err != nil {
				return nil, fmt.Errorf("%s: %v", w.name, err)
			}
			w.all = append(w.all, d)
			if w.best == 0 || d < w.best {
				w.best = d
			}
		}
	}
	return work, nil
}

func corpusHref(id string) (string, error) {
	c, err := vectors.Load(vectors.FS())
	if err != nil {
		return "", err
	}
	v := c.Lookup(id)
	if v == nil {
		return "", fmt.Errorf("the corpus has no vector %s", id)
	}
	var in struct{ Href string }
	if err := json.Unmarshal(v.Input, &in); err != nil {
		return "", fmt.Errorf("%s: %v", id, err)
	}
	return in.Href, nil
}

// requests returns n quote.parse request lines for href, ids 1 to n.
func requests(href string, n int) ([]byte, error) {
	in, err := json.Marshal(map[string]string{"href": href})
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	for id := 1; id <= n; id++ {
		fmt.Fprintf(&b, `{"id":%d,"op":"quote.parse","input":%s}`+"\n", id, in)
	}
	return b.Bytes(), nil
}

// serveOnce runs `bin serve --stdio` on the request lines and returns its
// wall clock, from start to exit; every request must be answered with an
// output.
func serveOnce(bin string, in []byte, n int) (time.Duration, error) {
	cmd := exec.Command(bin, "serve", "--stdio")
	cmd.Stdin = bytes.NewReader(in)
	cw := &lineCounter{}
	cmd.Stdout = cw
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	start := time.Now()
	if err := cmd.Run(); err != nil {
		return 0, fmt.Errorf("%v: %s", err, stderr.Bytes())
	}
	d := time.Since(start)
	if cw.lines != n || cw.outputs != n {
		return 0, fmt.Errorf("%d answer lines, %d with an output, want %d of each", cw.lines, cw.outputs, n)
	}
	return d, nil
}

// lineCounter counts answer lines and those carrying an output.
type lineCounter struct {
	lines, outputs int
	tail           []byte // the start of the current line
}

func (c *lineCounter) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		line, rest, complete := bytes.Cut(p, []byte("\n"))
		c.tail = append(c.tail, line[:min(len(line), max(0, 64-len(c.tail)))]...)
		if !complete {
			break
		}
		c.lines++
		if bytes.Contains(c.tail, []byte(`"output":`)) {
			c.outputs++
		}
		c.tail, p = c.tail[:0], rest
	}
	return n, nil
}
