package report

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/html"
)

// chromium finds the browser. Missing, the test skips, except in CI
// (CI=true), where it fails: 'make test' installs it first.
func chromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("no chromium on PATH: 'make test' installs it (scripts/ensure-chromium.sh)")
	}
	t.Skip("no chromium on PATH; run scripts/ensure-chromium.sh")
	return ""
}

// browse loads url in headless Chromium and returns the DOM after the
// page's scripts ran, and the console messages Chromium logged.
func browse(t *testing.T, bin, url string, extra ...string) (dom string, console []string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	args := append([]string{"--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
		"--enable-logging=stderr", "--v=0", "--user-data-dir=" + t.TempDir()}, extra...)
	if len(extra) == 0 {
		args = append(args, "--dump-dom")
	}
	cmd := exec.CommandContext(ctx, bin, append(args, url)...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("chromium %s: %v\n%s", url, err, errb.String())
	}
	for _, l := range strings.Split(errb.String(), "\n") {
		if strings.Contains(l, ":CONSOLE") {
			console = append(console, l)
		}
	}
	return out.String(), console
}

type dom struct{ root *html.Node }

func parseDOM(t *testing.T, s string) dom {
	n, err := html.Parse(strings.NewReader(s))
	if err != nil {
		t.Fatal(err)
	}
	return dom{n}
}

func attr(n *html.Node, key string) (string, bool) {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val, true
		}
	}
	return "", false
}

func (d dom) each(f func(*html.Node)) {
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		f(n)
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(d.root)
}

// cells maps "op requirement" to the data-state of each column's cell, for
// the rows the page shows (hidden ones are left out).
func (d dom) cells() map[string][]string {
	out := map[string][]string{}
	d.each(func(n *html.Node) {
		if n.Type != html.ElementNode || n.Data != "tr" {
			return
		}
		if c, _ := attr(n, "class"); c != "row" {
			return
		}
		if _, hidden := attr(n, "hidden"); hidden {
			return
		}
		if _, hidden := attr(n.Parent, "hidden"); hidden {
			return
		}
		op, _ := attr(n.Parent, "data-op")
		req, _ := attr(n, "data-req")
		var states []string
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if s, ok := attr(c, "data-state"); ok {
				states = append(states, s)
			}
		}
		out[op+" "+req] = states
	})
	return out
}

func writePage(t *testing.T) string {
	t.Helper()
	var reports []Page
	for _, name := range []string{"alpha.json", "beta.json"} {
		r, err := ReadJSON(bytes.NewReader(runReport(t, name)), nil)
		if err != nil {
			t.Fatal(err)
		}
		reports = append(reports, Page{File: name, Report: r})
	}
	text := func(id string) string {
		if id == "QUOTE-LINK-001" {
			return "The link text MUST be <Assistant quote>."
		}
		return ""
	}
	var b bytes.Buffer
	if err := HTML(&b, reports, text); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "page.html")
	if err := os.WriteFile(p, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestPageInChromium(t *testing.T) {
	bin := chromium(t)
	page := writePage(t)
	url := "file://" + page

	out, console := browse(t, bin, url)
	d := parseDOM(t, out)
	var ready, pwned bool
	var errs string
	d.each(func(n *html.Node) {
		if n.Type != html.ElementNode {
			return
		}
		if n.Data == "html" {
			_, ready = attr(n, "data-ready")
			errs, _ = attr(n, "data-errors")
			_, pwned = attr(n, "data-pwned")
		}
		if n.Data == "img" || (n.Data == "script" && strings.Contains(textOf(n), "pwned")) {
			pwned = true
		}
	})
	if !ready || errs != "" || len(console) > 0 {
		t.Errorf("page did not load cleanly: ready=%v, errors=%q, console=%q", ready, errs, console)
	}
	if pwned {
		t.Errorf("implementation-written markup became elements of the page")
	}
	// The matrix, worked out by hand from the fixtures (fixtures_test.go).
	want := map[string][]string{
		"marker.strip MARKER-STRIP-001":  {"fail", "unsupported"},
		"quote.parse QUOTE-LINK-001":     {"pass", "diverging"},
		"quote.parse QUOTE-LINK-002":     {"pass", "fail"},
		"marker.strip MARKER-STRIP-002":  {"pass", "unsupported"},
		"selref.ingest SELREF-LABEL-001": {"unsupported", "unsupported"},
	}
	if got := d.cells(); !equalCells(got, want) {
		t.Errorf("matrix = %v, want %v", got, want)
	}
	if !strings.Contains(out, "1 of 2 failed") || !strings.Contains(out, "&lt;script&gt;document") {
		t.Errorf("page lacks the count \"1 of 2 failed\" or the escaped hostile name")
	}

	if !strings.Contains(out, `title="The link text MUST be &lt;Assistant quote&gt;."`) {
		t.Errorf("the requirement's text is not the tooltip of its id")
	}

	// The switch hiding the rows no implementation ran, set from the URL.
	out, console = browse(t, bin, url+"#hide=unrun")
	delete(want, "selref.ingest SELREF-LABEL-001")
	if got := parseDOM(t, out).cells(); !equalCells(got, want) || len(console) > 0 {
		t.Errorf("with the rows nobody ran hidden: rows %v (console %q), want %v", got, console, want)
	}

	// The filter, given as the URL fragment the page reads at load.
	out, console = browse(t, bin, url+"#filter=fail%20quote")
	if got, want := parseDOM(t, out).cells(), map[string][]string{"quote.parse QUOTE-LINK-002": {"pass", "fail"}}; !equalCells(got, want) || len(console) > 0 {
		t.Errorf("filtered on 'fail quote': rows %v (console %q), want %v", got, console, want)
	}
	if !regexp.MustCompile(`data-shown="1"`).MatchString(out) {
		t.Errorf("the filtered page does not count 1 row shown")
	}

	shot := filepath.Join(os.Getenv("CONFORM_SCREENSHOT_DIR"), "conform-report.png")
	if os.Getenv("CONFORM_SCREENSHOT_DIR") == "" {
		shot = filepath.Join(t.TempDir(), "conform-report.png")
	}
	browse(t, bin, url, "--window-size=1200,800", "--screenshot="+shot)
	if st, err := os.Stat(shot); err != nil || st.Size() < 1000 {
		t.Errorf("no screenshot: %v", err)
	}
}

// The console check can fail: a page with a script error is caught.
func TestBrowseSeesErrors(t *testing.T) {
	bin := chromium(t)
	p := filepath.Join(t.TempDir(), "bad.html")
	os.WriteFile(p, []byte(`<html><body><script>nosuch();</script></body></html>`), 0o644)
	if _, console := browse(t, bin, "file://"+p); len(console) == 0 {
		t.Errorf("a page calling an undefined function logged nothing to the console")
	}
}

func textOf(n *html.Node) string {
	var b strings.Builder
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.TextNode {
			b.WriteString(c.Data)
		}
	}
	return b.String()
}

func equalCells(got, want map[string][]string) bool {
	if len(got) != len(want) {
		return false
	}
	for k, w := range want {
		if strings.Join(got[k], ",") != strings.Join(w, ",") {
			return false
		}
	}
	return true
}
