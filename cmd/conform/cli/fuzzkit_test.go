package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/conform-suite/conform/spec"
	"github.com/conform-suite/conform/vectors"
)

// TestFuzzkit writes the kit of every op and checks it against the corpus:
// one seed per vector, byte for byte its input; a raw seed for each input
// of one string member; a dictionary whose every line is a well-formed
// libFuzzer entry and holds the format's tokens; the properties with the
// requirements they rest on; and the export the kit is made from.
func TestFuzzkit(t *testing.T) {
	out := filepath.Join(t.TempDir(), "kit")
	code, stdout, stderr := conform(t, "", "fuzzkit", "--out", out)
	if code != ExitOK || !strings.HasPrefix(stdout, "fuzz kit for ") {
		t.Fatalf("fuzzkit = exit %d\n%s%s", code, stdout, stderr)
	}
	corpus, err := vectors.Load(vectors.FS())
	if err != nil {
		t.Fatal(err)
	}
	inputs := map[string][][]byte{} // op -> inputs
	for _, v := range corpus.Vectors() {
		inputs[v.Op] = append(inputs[v.Op], v.Input)
	}
	classes, firstPoint := classPoints(t)
	entry := regexp.MustCompile(`^t\d+="((?:\\x[0-9A-F]{2}|[\x20-\x21\x23-\x5b\x5d-\x7e])*)"$`)
	for op, want := range inputs {
		dir := filepath.Join(out, "ops", op)
		seeds, _ := filepath.Glob(filepath.Join(dir, "seeds", "*.json"))
		if len(seeds) != len(want) {
			t.Errorf("%s: %d seeds for %d vectors", op, len(seeds), len(want))
		}
		for _, p := range seeds {
			data, _ := os.ReadFile(p)
			if !slices.ContainsFunc(want, func(x []byte) bool { return bytes.Equal(x, data) }) {
				t.Errorf("%s: seed %s is no vector's input", op, filepath.Base(p))
			}
		}
		dict, err := os.ReadFile(filepath.Join(dir, op+".dict"))
		if err != nil {
			t.Fatal(err)
		}
		var tokens []string
		for _, l := range strings.Split(strings.TrimSpace(string(dict)), "\n")[1:] {
			m := entry.FindStringSubmatch(l)
			if m == nil {
				t.Errorf("%s: dictionary line %q is not name=\"value\" with \\xNN escapes", op, l)
				continue
			}
			tokens = append(tokens, unescapeDict(t, m[1]))
		}
		props, err := os.ReadFile(filepath.Join(dir, "PROPERTIES.md"))
		if err != nil || !strings.Contains(string(props), "PROTO-ERROR-003 (MUST)") {
			t.Errorf("%s: PROPERTIES.md (%v) lacks the requirement of the no-exception property", op, err)
		}
		suite, _, _ := strings.Cut(op, ".")
		first := map[string]string{"quote": "t3-citation://v1/", "marker": "\ue200", "selref": "vance:"}[suite]
		if op == "quote.nav_history" {
			first = "cursors"
		}
		if !slices.Contains(tokens, first) || !slices.Contains(tokens, "\U0010ffff") {
			t.Errorf("%s: the dictionary lacks %q or the last rune", op, first)
		}
		// The characters of the op's classes: a point where a built-in
		// of each class that applies to the op disagrees with the spec.
		for _, c := range classes {
			if !slices.Contains(c.Ops, op) {
				continue
			}
			if p, ok := firstPoint[c.ID]; ok && !slices.Contains(tokens, p) {
				t.Errorf("%s: the dictionary lacks %q, where a built-in disagrees with class %s", op, p, c.ID)
			}
		}
	}
	raw, _ := filepath.Glob(filepath.Join(out, "ops", "quote.parse", "seeds-raw", "*.txt"))
	for _, p := range raw {
		data, _ := os.ReadFile(p)
		input, _ := json.Marshal(map[string]string{"href": string(data)})
		if !containsJSON(inputs["quote.parse"], input) {
			t.Errorf("raw seed %s is no quote.parse vector's href", filepath.Base(p))
		}
	}
	if len(raw) == 0 {
		t.Error("no raw seed for quote.parse")
	}
	props, _ := os.ReadFile(filepath.Join(out, "ops", "quote.parse", "PROPERTIES.md"))
	if !strings.Contains(string(props), "QUOTE-LINK-022 (MUST)") {
		t.Errorf("quote.parse's properties lack the href limit:\n%s", props)
	}
	if code, stdout, _ := conform(t, "", "run", "--vectors", filepath.Join(out, "vectors")); code != ExitOK || !strings.HasSuffix(stdout, " 0 failed\n") {
		t.Errorf("the kit's export, judged on the reference: exit %d\n%s", code, lastLines(stdout, 3))
	}
}

// containsJSON reports whether one of list is the same JSON value as b.
func containsJSON(list [][]byte, b []byte) bool {
	var want any
	json.Unmarshal(b, &want)
	for _, x := range list {
		var got any
		if json.Unmarshal(x, &got) == nil && jsonEqual(got, want) {
			return true
		}
	}
	return false
}

func jsonEqual(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return bytes.Equal(x, y)
}

// unescapeDict decodes a dictionary value's \xNN escapes.
func unescapeDict(t *testing.T, s string) string {
	t.Helper()
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' {
			n, err := strconv.ParseUint(s[i+2:i+4], 16, 8)
			if err != nil {
				t.Fatalf("escape in %q: %v", s, err)
			}
			b.WriteByte(byte(n))
			i += 3
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// The kit of one op says so in the singular.
// classPoints returns the platform classes and, for each, the lowest code
// point where one of its built-ins disagrees with the spec (or, for the
// classes over inputs, a spelling, an element name or a split probe where
// one does), from spec.Disagreements.
func classPoints(t *testing.T) ([]spec.Class, map[string]string) {
	t.Helper()
	classes, err := spec.PlatformClasses()
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, c := range classes {
		low, word := rune(-1), ""
		for _, k := range c.Builtins {
			ps, err := spec.Disagreements(c, k)
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range ps {
				switch {
				case p.Rune >= 0 && (low < 0 || p.Rune < low):
					low = p.Rune
				case p.Rune < 0 && c.Kind == spec.KindSplit:
					word = spec.SplitProbes[p.Input]
				case p.Rune < 0 && p.Input != "":
					word = p.Input
				}
			}
		}
		if low >= 0 {
			out[c.ID] = string(low)
		} else if word != "" {
			out[c.ID] = word
		}
	}
	return classes, out
}

func TestFuzzkitOneOp(t *testing.T) {
	code, stdout, stderr := conform(t, "", "fuzzkit", "--op", "quote.normalize", "--out", filepath.Join(t.TempDir(), "kit"))
	if code != ExitOK || !strings.HasPrefix(stdout, "fuzz kit for 1 op written to ") {
		t.Errorf("fuzzkit --op quote.normalize = exit %d\n%s%s", code, stdout, stderr)
	}
}
