package features

import (
	"encoding/json"
	"testing"

	"github.com/cucumber/godog"
	messages "github.com/cucumber/messages/go/v34"
)

func TestLiteral(t *testing.T) {
	tests := []struct {
		in, want string
		err      bool
	}{
		{`plain`, "plain", false},
		{`a\u{E200}b`, "a\uE200b", false},
		{`\u{1F600}\u{20}`, "😀 ", false},
		{`\n stays \uE200`, `\n stays \uE200`, false},
		{`\u{D83D}`, "", true},
		{`\u{110000}`, "", true},
	}
	for _, tt := range tests {
		got, err := literal(tt.in)
		if (err != nil) != tt.err || err == nil && got != tt.want {
			t.Errorf("literal(%q) = %q, %v; want %q, error %v", tt.in, got, err, tt.want, tt.err)
		}
	}
}

func TestQuoted(t *testing.T) {
	tests := []struct {
		in, want string
		err      bool
	}{
		{`plain`, "plain", false},
		{`a \"b\" \\ c`, `a "b" \ c`, false},
		{`\uE200\u{E201}`, "\uE200\uE201", false},
		{`\u{1F600}`, "😀", false},
		{"raw\nnewline\ttab", "raw\nnewline\ttab", false},
		{`\ud83d`, "\uFFFD", false},
		{`bad \q escape`, "", true},
	}
	for _, tt := range tests {
		got, err := quoted(tt.in)
		if (err != nil) != tt.err || err == nil && got != tt.want {
			t.Errorf("quoted(%q) = %q, %v; want %q, error %v", tt.in, got, err, tt.want, tt.err)
		}
	}
}

func TestCellValue(t *testing.T) {
	tests := []struct{ in, want string }{
		{`12`, `12`},
		{`"12"`, `"12"`},
		{`[1, {"a": null}]`, `[1, {"a": null}]`},
		{`plain words`, `"plain words"`},
		{``, `""`},
		{`\u{E200} <b>`, `"` + "\uE200" + ` <b>"`},
	}
	for _, tt := range tests {
		got, err := cellValue(tt.in)
		if err != nil || string(got) != tt.want {
			t.Errorf("cellValue(%q) = %s, %v; want %s", tt.in, got, err, tt.want)
		}
	}
}

func TestDocValue(t *testing.T) {
	tests := []struct {
		doc  messages.PickleDocString
		want string
		err  bool
	}{
		{godog.DocString{MediaType: "json", Content: ` {"a": "\ud83d"} `}, `{"a": "\ud83d"}`, false},
		{godog.DocString{MediaType: "json", Content: `{"a":`}, "", true},
		{godog.DocString{Content: "line one\nline" + `\u{20}` + "two"}, `"line one\nline two"`, false},
		{godog.DocString{Content: `mark \u{E202}`}, `"mark ` + "\uE202" + `"`, false},
	}
	for _, tt := range tests {
		got, err := docValue(&tt.doc)
		if (err != nil) != tt.err || err == nil && string(got) != tt.want {
			t.Errorf("docValue(%q) = %s, %v; want %s, error %v", tt.doc.Content, got, err, tt.want, tt.err)
		}
	}
}

func TestLookup(t *testing.T) {
	doc := json.RawMessage(`{"a": {"b": [10, {"c": "x"}]}, "d": null}`)
	tests := []struct {
		path, want string
		ok, err    bool
	}{
		{"", string(doc), true, false},
		{"a.b[0]", "10", true, false},
		{"a.b[1].c", `"x"`, true, false},
		{"d", "null", true, false},
		{"a.b[2]", "", false, false},
		{"a.z", "", false, false},
		{"d.e", "", false, false},
		{"a.b.c", "", false, false},
		{".a", "", false, true},
		{"a..b", "", false, true},
		{"a[x]", "", false, true},
	}
	for _, tt := range tests {
		got, ok, err := lookup(doc, tt.path)
		if (err != nil) != tt.err || ok != tt.ok || ok && string(got) != tt.want {
			t.Errorf("lookup(%q) = %s, %v, %v; want %s, %v, error %v", tt.path, got, ok, err, tt.want, tt.ok, tt.err)
		}
	}
}

func TestTableObject(t *testing.T) {
	table := &messages.PickleTable{Rows: []*messages.PickleTableRow{
		{Cells: []*messages.PickleTableCell{{Value: "b"}, {Value: "2"}}},
		{Cells: []*messages.PickleTableCell{{Value: "a"}, {Value: "text"}}},
		{Cells: []*messages.PickleTableCell{{Value: "b"}, {Value: "3"}}},
	}}
	got, err := tableObject(table)
	if want := `{"b":3,"a":"text"}`; err != nil || string(got) != want {
		t.Errorf("tableObject() = %s, %v; want %s", got, err, want)
	}
	bad := &messages.PickleTable{Rows: []*messages.PickleTableRow{{Cells: []*messages.PickleTableCell{{Value: "only"}}}}}
	if _, err := tableObject(bad); err == nil {
		t.Error("tableObject(one cell) = nil error, want an error")
	}
}

func TestExpandMarkers(t *testing.T) {
	const s, d, e = "\uE200", "\uE202", "\uE201"
	tests := []struct{ in, want string }{
		{"a{cite:p1}.", "a" + s + "cite" + d + "p1" + e + "."},
		{"{cite:p1:/a/0}", s + "cite" + d + "p1" + d + "/a/0" + e},
		{"{cite:p1:}", s + "cite" + d + "p1" + d + e},
		{"{cite:}", s + "cite" + d + e},
		{"{START}x{DELIM}{STOP}", s + "x" + d + e},
		{"{other} {cite p1}", "{other} {cite p1}"},
	}
	for _, tt := range tests {
		if got := expandMarkers(tt.in); got != tt.want {
			t.Errorf("expandMarkers(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestUTF16Len(t *testing.T) {
	tests := []struct {
		in   string
		want int
	}{{"", 0}, {"abc", 3}, {"😀", 2}, {"線", 1}, {"e\u0301", 2}}
	for _, tt := range tests {
		if got := utf16Len(tt.in); got != tt.want {
			t.Errorf("utf16Len(%q) = %d, want %d", tt.in, got, tt.want)
		}
	}
}
