package safetext

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestText(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"plain text, é and 😀", "plain text, é and 😀"},
		{"\x1b]0;title\x07", `\x1b]0;title\x07`},
		{"\x1b]52;c;aGk=\x07", `\x1b]52;c;aGk=\x07`},
		{"\x1b[2J", `\x1b[2J`},
		{"a\x00b", `a\x00b`},
		{"line\n999 passed, 0 failed\r\n", `line\n999 passed, 0 failed\r\n`},
		{"tab\there", `tab\there`},
		{"del\x7f", `del\x7f`},
		{"c1 \u0085 \u009b", `c1 \u0085 \u009b`},
		{"abc\u202edcba", `abc\u202edcba`},
		{"\u2066x\u2069 \u200e\u200f\u061c", `\u2066x\u2069 \u200e\u200f\u061c`},
		{"zero\u200bwidth\ufeff", `zero\u200bwidth\ufeff`},
		{"sep\u2028\u2029", `sep\u2028\u2029`},
		{"tag\U000E0041", `tag\U000e0041`},
		{"bad \xff\xfe utf-8 \xe2\x82", `bad \xff\xfe utf-8 \xe2\x82`},
		{"real \ufffd stays", "real \ufffd stays"},
	} {
		got := Text(c.in)
		if got != c.want {
			t.Errorf("Text(%q) = %q, want %q", c.in, got, c.want)
		}
		if !Safe(got) {
			t.Errorf("Text(%q) = %q is not Safe", c.in, got)
		}
		if Safe(c.in) != (c.in == c.want) {
			t.Errorf("Safe(%q) = %v, want %v", c.in, Safe(c.in), c.in == c.want)
		}
	}
}

// JSON keeps JSON text valid and denoting the same value.
func TestJSON(t *testing.T) {
	for _, v := range []string{"\x1b[2J", "a\u202eb", "del\x7f", "c1\u0085", "tag\U000E0041", "ok é"} {
		data, err := json.Marshal(map[string]string{"k": v})
		if err != nil {
			t.Fatal(err)
		}
		got := JSON(string(data))
		if !Safe(got) {
			t.Errorf("JSON(%s) = %q is not Safe", data, got)
		}
		var back map[string]string
		if err := json.Unmarshal([]byte(got), &back); err != nil || back["k"] != v {
			t.Errorf("JSON(%s) = %s, decodes to %q (%v), want %q", data, got, back["k"], err, v)
		}
	}
}

func TestClip(t *testing.T) {
	s := strings.Repeat("é", 100) + "\x1b"
	got := Clip(s, 51)
	if !utf8.ValidString(got) || !strings.HasPrefix(got, strings.Repeat("é", 25)+"…") || !strings.HasSuffix(got, "(201 bytes in all)") {
		t.Errorf("Clip() = %q, want 25 é, an ellipsis and the size", got)
	}
	if got := Clip("\x1b", 10); got != `\x1b` {
		t.Errorf("Clip(ESC) = %q", got)
	}
}

func TestTail(t *testing.T) {
	var lines []string
	for i := range 30 {
		lines = append(lines, strings.Repeat("x", i)+"\x1b[2J")
	}
	got := Tail(strings.Join(lines, "\r\n"), 20, 300)
	if len(got) != 21 || got[0] != "[10 earlier lines]" || got[20] != strings.Repeat("x", 29)+`\x1b[2J` {
		t.Errorf("Tail() = %q", got)
	}
}

// stripCodeSpans removes the code spans of Markdown inline text, as
// CommonMark finds them: a run of n backticks opens one that the next run
// of exactly n backticks closes.
func stripCodeSpans(s string) string {
	var out strings.Builder
	for i := 0; i < len(s); {
		if s[i] != '`' {
			out.WriteByte(s[i])
			i++
			continue
		}
		n := 0
		for i+n < len(s) && s[i+n] == '`' {
			n++
		}
		end := -1
		for j := i + n; j < len(s); {
			if s[j] != '`' {
				j++
				continue
			}
			m := 0
			for j+m < len(s) && s[j+m] == '`' {
				m++
			}
			if m == n {
				end = j + m
				break
			}
			j += m
		}
		if end < 0 {
			out.WriteString(s[i : i+n])
			i += n
			continue
		}
		i = end
	}
	return out.String()
}

func TestCodeSpan(t *testing.T) {
	for _, in := range []string{
		"![](http://x.test/i.png)", "[x](javascript:alert(1))", "<img src=x onerror=alert(1)>",
		"`", "``a```b`", "`start", "end`", " both ", "", "a|b", `a\|b ![](u)`, `a\\|b <b>`, "line\n| x | y |",
	} {
		for _, cell := range []bool{false, true} {
			got := CodeSpan(in, cell)
			if rest := stripCodeSpans(got); rest != "" {
				t.Errorf("CodeSpan(%q, %v) = %q leaves %q outside a code span", in, cell, got, rest)
			}
			if strings.Contains(got, "\n") {
				t.Errorf("CodeSpan(%q, %v) = %q holds a newline", in, cell, got)
			}
			if cell {
				// Every '|' is escaped by exactly one backslash, so a table
				// row never splits inside the span.
				for i := 0; i < len(got); i++ {
					if got[i] == '|' && (i == 0 || got[i-1] != '\\' || i >= 2 && got[i-2] == '\\') {
						t.Errorf("CodeSpan(%q, true) = %q has a '|' not escaped by one backslash", in, got)
					}
				}
			}
		}
	}
}

// TestIndentJSONDepth checks that a value nested deeper than MaxIndentDepth
// is shown on one line, in bytes linear in its size, and a shallow one
// indented; brackets inside strings do not count.
func TestIndentJSONDepth(t *testing.T) {
	deep := strings.Repeat("[", 500) + strings.Repeat("]", 500)
	if got := IndentJSON([]byte(deep), "", "  "); got != deep {
		t.Errorf("500 levels: %d bytes, want the %d of the value on one line", len(got), len(deep))
	}
	atLimit := strings.Repeat("[", MaxIndentDepth) + strings.Repeat("]", MaxIndentDepth)
	if got := IndentJSON([]byte(atLimit), "", "  "); !strings.Contains(got, "\n") {
		t.Errorf("%d levels: %q, want it indented", MaxIndentDepth, got)
	}
	if got := IndentJSON([]byte(`{"a":"[[[[[[[[[[[[[[[[[[[[\"[[["}`), "", "  "); got != "{\n  \"a\": \"[[[[[[[[[[[[[[[[[[[[\\\"[[[\"\n}" {
		t.Errorf("brackets in a string: %q", got)
	}
}
