package cli

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// htmlPage renders the JSON reports with conform report --html and returns
// the page's number of implementation columns and, for each row ("op
// requirement"), the state of each cell, as the page marks them.
func htmlPage(t *testing.T, reports ...string) (int, map[string][]string) {
	t.Helper()
	page := filepath.Join(t.TempDir(), "page.html")
	if code, _, stderr := conform(t, "", append([]string{"report", "--html", page}, reports...)...); code != ExitOK {
		t.Fatalf("conform report --html: exit %d\n%s", code, stderr)
	}
	data, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	root, err := html.Parse(strings.NewReader(string(data)))
	if err != nil {
		t.Fatal(err)
	}
	attr := func(n *html.Node, key string) string {
		for _, a := range n.Attr {
			if a.Key == key {
				return a.Val
			}
		}
		return ""
	}
	columns, cells := 0, map[string][]string{}
	var walk func(n *html.Node, op string)
	walk = func(n *html.Node, op string) {
		if n.Type == html.ElementNode {
			switch {
			case n.Data == "th" && strings.Contains(" "+attr(n, "class")+" ", " impl "):
				columns++
			case n.Data == "tbody" && attr(n, "data-op") != "":
				op = attr(n, "data-op")
			case n.Data == "tr" && attr(n, "class") == "row":
				key := op + " " + attr(n, "data-req")
				for c := n.FirstChild; c != nil; c = c.NextSibling {
					if c.Type == html.ElementNode && c.Data == "td" && attr(c, "data-state") != "" {
						cells[key] = append(cells[key], attr(c, "data-state"))
					}
				}
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c, op)
		}
	}
	walk(root, "")
	return columns, cells
}

// diffCells lists the rows of a that b lacks or has otherwise, for a
// failure message.
func diffCells(a, b map[string][]string) []string {
	var out []string
	for k, v := range a {
		if !slices.Equal(v, b[k]) {
			out = append(out, k+"="+strings.Join(v, ","))
		}
	}
	slices.Sort(out)
	return out[:min(len(out), 10)]
}

// TestReportHTMLRunsAndShards: conform report --html over reports written
// by conform run keeps two runs of the same implementation apart (a column
// each), and joins the shards of one split into one column.
func TestReportHTMLRunsAndShards(t *testing.T) {
	dir := t.TempDir()
	run := func(name string, extra ...string) string {
		path := filepath.Join(dir, name)
		args := append([]string{"run", "--op", "quote.format", "--text", os.DevNull, "--json", path}, extra...)
		if code, _, stderr := conform(t, "", args...); code != ExitOK {
			t.Fatalf("conform %v: exit %d\n%s", args, code, stderr)
		}
		return path
	}
	a, b := run("a.json"), run("b.json")
	s1, s2 := run("s1.json", "--shard", "1/2"), run("s2.json", "--shard", "2/2")
	other := run("other.json", "--shard", "1/3")
	for _, tt := range []struct {
		name    string
		reports []string
		columns int
	}{
		{"two whole runs", []string{a, b}, 2},
		{"the two shards of one split", []string{s1, s2}, 1},
		{"the same shard twice", []string{s1, s1}, 2},
		{"shards of two splits", []string{s1, other}, 2},
		{"a whole run and a shard", []string{a, s2}, 2},
	} {
		if cols, cells := htmlPage(t, tt.reports...); cols != tt.columns {
			t.Errorf("%s: %d columns, want %d", tt.name, cols, tt.columns)
		} else if len(cells) == 0 {
			t.Errorf("%s: the page has no rows", tt.name)
		}
	}
	// Some shards of a split only: the column says which are missing, and
	// its verdict is not "passed".
	for _, tt := range []struct {
		reports []string
		want    string
	}{
		{[]string{s1}, "shard 2/2 not given"},
		{[]string{other}, "shards 2/3 and 3/3 not given"},
		{[]string{s1, s2}, ""},
		{[]string{a}, ""},
	} {
		page := filepath.Join(dir, "page.html")
		if code, _, stderr := conform(t, "", append([]string{"report", "--html", page}, tt.reports...)...); code != ExitOK {
			t.Fatalf("conform report --html: exit %d\n%s", code, stderr)
		}
		data, _ := os.ReadFile(page)
		incomplete := strings.Contains(string(data), "verdict: incomplete")
		if tt.want != "" && (!strings.Contains(string(data), tt.want) || !incomplete || strings.Contains(string(data), "verdict: passed")) {
			t.Errorf("%v: the page does not say %q with an incomplete verdict", tt.reports, tt.want)
		}
		if tt.want == "" && (incomplete || strings.Contains(string(data), "not given")) {
			t.Errorf("%v: a whole run is called incomplete", tt.reports)
		}
	}
}
