package vectors_test

import (
	"encoding/json"
	"fmt"
	"math/big"
	"strings"
	"testing"

	"github.com/conform-suite/conform/internal/jsonv"
	"github.com/conform-suite/conform/internal/schemaset"
	"github.com/conform-suite/conform/vectors"
)

// TestDivergences checks every divergence record of the corpus: its answer
// fits the op's output schema (unless it is an error), and it differs from
// the standard expectation when compared as the runner judges (a refusal
// matches whatever its code, when the answer gives none) but faithfully: a
// lone surrogate escape is that code unit, not U+FFFD.
func TestDivergences(t *testing.T) {
	set, err := schemaset.Load()
	if err != nil {
		t.Fatal(err)
	}
	c, err := vectors.Load(vectors.FS())
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, v := range c.Vectors() {
		for _, d := range v.Divergences {
			n++
			for _, fault := range divergenceFaults(set, v, d) {
				t.Errorf("%s: %s: %s", v.File, v.ID, fault)
			}
			if !v.HasTag(vectors.DivergencePrefix + d.System) {
				t.Errorf("%s: %s: recorded for %s but not selected by --tag %s%s", v.File, v.ID, d.System, vectors.DivergencePrefix, d.System)
			}
		}
	}
	if n == 0 {
		t.Fatal("no divergence recorded in the corpus")
	}
	// Every system has at least one record: a profile that records nothing
	// would grade exactly as the default one.
	for _, sys := range vectors.Systems {
		if len(c.Divergent(sys)) == 0 {
			t.Errorf("no vector records a divergence for %s", sys)
		}
	}
}

// divergenceFaults returns what is wrong with the divergence record d of
// vector v: an output answer that fails the op's output schema, or an answer
// (output or error) that the runner would judge the standard expectation.
func divergenceFaults(set *schemaset.Set, v *vectors.Vector, d *vectors.Divergence) []string {
	var faults []string
	if d.Error != nil {
		// The runner passes an error answer of the expected kind whatever
		// its message.
		if v.Expect.Error != nil && v.Expect.Error.Kind == d.Error.Kind {
			faults = append(faults, fmt.Sprintf("the error recorded for %s is the expected one (kind %s): not a divergence", d.System, d.Error.Kind))
		}
		return faults
	}
	if err := set.Validate("ops/"+v.Op+".json", "/$defs/output", d.Output); err != nil {
		faults = append(faults, fmt.Sprintf("answer of %s: %v", d.System, err))
	}
	for _, o := range v.AllowedOutputs() {
		same, err := sameAnswer(o, d.Output)
		if err != nil {
			faults = append(faults, err.Error())
		} else if same {
			faults = append(faults, fmt.Sprintf("the answer recorded for %s is the expected one: not a divergence", d.System))
		}
	}
	return faults
}

// TestDivergenceFaults: records the lint must refuse are refused, with the
// fault named, and a record that differs passes.
func TestDivergenceFaults(t *testing.T) {
	set, err := schemaset.Load()
	if err != nil {
		t.Fatal(err)
	}
	const head = `{"op":"quote.parse","description":"d","vectors":[{"id":"quote.parse/x","description":"d","requirements":["QUOTE-LINK-001"],"input":{"href":""},`
	for _, tc := range []struct{ body, want string }{
		{`"expect":{"error":{"kind":"bad_request"}},"divergences":[{"system":"t3code","reason":"r","error":{"kind":"bad_request","message":"other words"}}]}]}`, "the error recorded for t3code is the expected one"},
		{`"expect":{"output":{"rejected":{"code":"QUOTE_SCHEME"}}},"divergences":[{"system":"t3code","reason":"r","output":{"rejected":{}}}]}]}`, "the answer recorded for t3code is the expected one"},
		{`"expect":{"output":{"rejected":{"code":"QUOTE_SCHEME"}}},"divergences":[{"system":"t3code","reason":"r","output":{"nonsense":1}}]}]}`, "answer of t3code"},
		{`"expect":{"error":{"kind":"bad_request"}},"divergences":[{"system":"t3code","reason":"r","error":{"kind":"internal"}}]}]}`, ""},
		{`"expect":{"output":{"rejected":{"code":"QUOTE_SCHEME"}}},"divergences":[{"system":"t3code","reason":"r","error":{"kind":"bad_request"}}]}]}`, ""},
	} {
		f, err := vectors.Parse("x.json", []byte(head+tc.body))
		if err != nil {
			t.Fatalf("%s: %v", tc.body, err)
		}
		v := f.Vectors[0]
		v.Op = f.Op
		faults := divergenceFaults(set, v, v.Divergences[0])
		switch {
		case tc.want == "" && len(faults) > 0:
			t.Errorf("%s: faults %q, want none", tc.body, faults)
		case tc.want != "" && (len(faults) == 0 || !strings.Contains(strings.Join(faults, "; "), tc.want)):
			t.Errorf("%s: faults %q, want one saying %q", tc.body, faults, tc.want)
		}
	}
}

func TestSameAnswer(t *testing.T) {
	for _, tc := range []struct {
		want, got string
		same      bool
	}{
		{`{"a":1,"b":"x"}`, `{"b":"x","a":1.0}`, true},
		{`{"t":"\ud83d\ude00"}`, `{"t":"😀"}`, true},
		{`{"t":"\ud83d"}`, `{"t":"\ufffd"}`, false},
		{`{"t":"\ud83d"}`, `{"t":"\uD83D"}`, true},
		{`{"t":"\ude00"}`, `{"t":"\ud83d"}`, false},
		{`{"t":"\ud83d x"}`, `{"t":"\ud83d x"}`, true},
		{`{"rejected":{"code":"A"}}`, `{"rejected":{}}`, true},
		{`{"rejected":{"code":"A"}}`, `{"rejected":{"code":"A","message":"m"}}`, true},
		{`{"rejected":{"code":"A"}}`, `{"rejected":{"code":"B"}}`, false},
		{`{"rejected":{"code":"A"}}`, `{"dropped":{"code":"A"}}`, false},
		{`{"a":[1,2]}`, `{"a":[2,1]}`, false},
		{`{"a":1}`, `{"a":1,"b":null}`, false},
		{`{"n":9007199254740993}`, `{"n":9007199254740992}`, false},
	} {
		same, err := sameAnswer(json.RawMessage(tc.want), json.RawMessage(tc.got))
		if err != nil {
			t.Errorf("%s vs %s: %v", tc.want, tc.got, err)
		} else if same != tc.same {
			t.Errorf("%s vs %s: same = %v, want %v", tc.want, tc.got, same, tc.same)
		}
	}
}

// TestParseDivergences feeds Parse records that break the format; each is
// refused with an error naming the fault.
func TestParseDivergences(t *testing.T) {
	const head = `{"op":"quote.parse","description":"d","vectors":[{"id":"quote.parse/x","description":"d","requirements":["QUOTE-LINK-001"],"input":{"href":""},"expect":{"output":{"rejected":{"code":"QUOTE_SCHEME"}}}`
	for _, tc := range []struct{ tail, want string }{
		{`,"divergences":[{"system":"acme","reason":"r","output":{}}]}]}`, `unknown system "acme"`},
		{`,"divergences":[{"system":"t3code","reason":"r"}]}]}`, "exactly one of output and error"},
		{`,"divergences":[{"system":"t3code","reason":"r","output":{},"error":{"kind":"internal"}}]}]}`, "exactly one of output and error"},
		{`,"divergences":[{"system":"t3code","reason":" ","output":{}}]}]}`, "missing reason"},
		{`,"divergences":[{"system":"t3code","reason":"r","output":{}},{"system":"t3code","reason":"r","output":{}}]}]}`, "recorded twice"},
		{`,"tags":["divergence:t3code"]}]}`, "is derived from the divergences member"},
		{`,"divergences":[{"system":"t3code","reason":"r","answer":{}}]}]}`, `unknown field "answer"`},
	} {
		_, err := vectors.Parse("x.json", []byte(head+tc.tail))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want it to say %q", tc.tail, err, tc.want)
		}
	}
	f, err := vectors.Parse("x.json", []byte(head+`,"tags":["boundary"],"divergences":[{"system":"t3code","reason":"r","output":{"citation":{"t":"\udc00"}}}]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	v := f.Vectors[0]
	if !v.HasTag("divergence:t3code") || v.HasTag("divergence:vance") {
		t.Errorf("tags = %v, want boundary and the derived divergence:t3code", v.AllTags())
	}
	d := v.Divergence("t3code")
	if d == nil || string(d.Answer()) != `{"output":{"citation":{"t":"\udc00"}}}` {
		t.Errorf("Divergence(t3code) = %+v, want the answer kept as written", d)
	}
	if v.Divergence("vance") != nil {
		t.Error("Divergence(vance) is not nil")
	}
	out, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(out), "divergence:") || !strings.Contains(string(out), `"tags":["boundary"]`) || !strings.Contains(string(out), `\udc00`) {
		t.Errorf("marshalled vector %s: want the derived tag left out and the answer as written", out)
	}
}

// sameAnswer reports whether got matches want as the runner judges an
// answer: members in any order, numbers by value, a refusal's code compared
// only when got gives one and its other members never; strings compared as
// sequences of UTF-16 code units, so a lone surrogate stays itself.
func sameAnswer(want, got json.RawMessage) (bool, error) {
	w, err := faithful(want)
	if err != nil {
		return false, fmt.Errorf("expected output: %w", err)
	}
	g, err := faithful(got)
	if err != nil {
		return false, fmt.Errorf("recorded answer: %w", err)
	}
	return equal(w, g, false), nil
}

func equal(w, g any, refusal bool) bool {
	switch w := w.(type) {
	case map[string]any:
		g, ok := g.(map[string]any)
		if !ok {
			return false
		}
		if refusal {
			gc, ok := g[hexUnits("code")]
			return !ok || equal(w[hexUnits("code")], gc, false)
		}
		if len(w) != len(g) {
			return false
		}
		for k, wv := range w {
			gv, ok := g[k]
			if !ok || !equal(wv, gv, k == hexUnits("rejected") || k == hexUnits("dropped")) {
				return false
			}
		}
		return true
	case []any:
		g, ok := g.([]any)
		if !ok || len(w) != len(g) {
			return false
		}
		for i := range w {
			if !equal(w[i], g[i], false) {
				return false
			}
		}
		return true
	case *big.Float:
		g, ok := g.(*big.Float)
		return ok && w.Cmp(g) == 0
	default: // units, bool, nil
		return fmt.Sprint(w) == fmt.Sprint(g) && fmt.Sprintf("%T", w) == fmt.Sprintf("%T", g)
	}
}

// units is a JSON string as its UTF-16 code units.
type units string

// faithful decodes one JSON value with the project's one JSON reader and
// gives it the shape equal compares: strings (member names too) become
// their UTF-16 code units, four hex digits each, numbers exact big floats.
func faithful(data []byte) (any, error) {
	v, err := jsonv.Parse(data)
	if err != nil {
		return nil, err
	}
	return tree(v)
}

func tree(v *jsonv.Value) (any, error) {
	hex := func(us []uint16) units {
		var b strings.Builder
		for _, u := range us {
			fmt.Fprintf(&b, "%04x", u)
		}
		return units(b.String())
	}
	switch v.Type {
	case jsonv.Object:
		m := map[string]any{}
		for i := range v.Members {
			t, err := tree(&v.Members[i].Value)
			if err != nil {
				return nil, err
			}
			m[string(hex(v.Members[i].Name))] = t
		}
		return m, nil
	case jsonv.Array:
		var a []any
		for i := range v.Elems {
			t, err := tree(&v.Elems[i])
			if err != nil {
				return nil, err
			}
			a = append(a, t)
		}
		return a, nil
	case jsonv.String:
		return hex(v.CodeUnits()), nil
	case jsonv.Number:
		f, ok := new(big.Float).SetPrec(256).SetString(v.Num)
		if !ok {
			return nil, fmt.Errorf("bad number %s", v.Num)
		}
		return f, nil
	case jsonv.True:
		return true, nil
	case jsonv.False:
		return false, nil
	}
	return nil, nil
}

// hexUnits is an ASCII name in the form str gives it.
func hexUnits(name string) string {
	var b strings.Builder
	for _, c := range []byte(name) {
		fmt.Fprintf(&b, "%04x", c)
	}
	return b.String()
}
