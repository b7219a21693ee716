package jsonv

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"

	"pgregory.net/rapid"
)

func TestParseKeepsWhatWasWritten(t *testing.T) {
	v, err := Parse([]byte(` {"b": "half \ud83d face", "a": [1.50, -0, 1e999999999999999999], "c": "\ud83d\ude00\u00e9"} `))
	if err != nil {
		t.Fatal(err)
	}
	if got := Key(v.Members[0].Name) + Key(v.Members[1].Name) + Key(v.Members[2].Name); got != "bac" {
		t.Errorf("member order = %q, want bac", got)
	}
	s := v.Get("b").Units
	if len(s) != 11 || s[5] != 0xd83d || !HasLoneSurrogate(s) {
		t.Errorf(`"half \ud83d face" = %x, want the lone unit d83d at 5 of 11`, s)
	}
	if c := v.Get("c").Units; len(c) != 3 || c[0] != 0xd83d || c[1] != 0xde00 || c[2] != 0xe9 || HasLoneSurrogate(c) {
		t.Errorf(`"\ud83d\ude00\u00e9" = %x`, c)
	}
	nums := v.Get("a").Elems
	for i, want := range []string{"1.50", "-0", "1e999999999999999999"} {
		if nums[i].Type != Number || nums[i].Num != want {
			t.Errorf("a[%d] = %v %q, want the literal %q", i, nums[i].Type, nums[i].Num, want)
		}
	}
	if got := string(Append(nil, v)); got != `{"b":"half \ud83d face","a":[1.50,-0,1e999999999999999999],"c":"😀é"}` {
		t.Errorf("Append = %s", got)
	}
}

func TestParseRefuses(t *testing.T) {
	tests := []struct {
		in   string
		err  error
		path string
	}{
		{``, ErrSyntax, "$"},
		{`{"a":1}]`, ErrTrailingData, "$"},
		{`{"a":1}}`, ErrTrailingData, "$"},
		{`[1]]`, ErrTrailingData, "$"},
		{`{"a":1} x`, ErrTrailingData, "$"},
		{`1 2`, ErrTrailingData, "$"},
		{`01`, ErrTrailingData, "$"},
		{"\ufeff{}", ErrSyntax, "$"},
		{`{"a":1,}`, ErrSyntax, "$"},
		{`[1,]`, ErrSyntax, "$[1]"},
		{`{'a':1}`, ErrSyntax, "$"},
		{`{"a" 1}`, ErrSyntax, "$"},
		{`[+1]`, ErrSyntax, "$[0]"},
		{`[1.]`, ErrSyntax, "$[0]"},
		{`[.5]`, ErrSyntax, "$[0]"},
		{`[1e]`, ErrSyntax, "$[0]"},
		{`[-]`, ErrSyntax, "$[0]"},
		{`[NaN]`, ErrSyntax, "$[0]"},
		{`[tru]`, ErrSyntax, "$[0]"},
		{`{"a":nul}`, ErrSyntax, "$.a"},
		{"[\"a\tb\"]", ErrSyntax, "$[0]"},
		{`["\x"]`, ErrSyntax, "$[0]"},
		{`["\u12"]`, ErrSyntax, "$[0]"},
		{`["\u+123"]`, ErrSyntax, "$[0]"},
		{"\v1", ErrSyntax, "$"},
		{"{\"a\":\"\xff\"}", ErrInvalidUTF8, "$.a"},
		{"[\"\xed\xa0\xbd\"]", ErrInvalidUTF8, "$[0]"}, // a surrogate encoded as if it were a character
		{`{"a":1,"a":2}`, ErrDuplicateName, "$"},
		{`{"x":[{"b":1,"c":{},"b":2}]}`, ErrDuplicateName, "$.x[0]"},
		{`{"\ud83d":1,"\uD83D":2}`, ErrDuplicateName, "$"},
		{strings.Repeat("[", DefaultMaxDepth+1) + strings.Repeat("]", DefaultMaxDepth+1), ErrTooDeep, "$" + strings.Repeat("[0]", DefaultMaxDepth)},
	}
	for _, tt := range tests {
		_, err := Parse([]byte(tt.in))
		var e *Error
		if !errors.As(err, &e) || !errors.Is(err, tt.err) || e.Path != tt.path {
			t.Errorf("Parse(%.40q) = %v, want %v at %s", tt.in, err, tt.err, tt.path)
		}
	}
	// Names equal as code units only: these are two members.
	if _, err := Parse([]byte(`{"\ud83d":1,"\ufffd":2,"é":3,"e\u0301":4}`)); err != nil {
		t.Errorf("distinct names refused: %v", err)
	}
	// A large object is checked through an index.
	var b strings.Builder
	b.WriteString("{")
	for i := range 100 {
		b.WriteString(`"k` + strings.Repeat("x", i) + `":0,`)
	}
	b.WriteString(`"kxxxxx":1}`)
	if _, err := Parse([]byte(b.String())); !errors.Is(err, ErrDuplicateName) {
		t.Errorf("duplicate in a 101-member object: %v", err)
	}
}

func TestOptions(t *testing.T) {
	v, err := Options{ReplaceInvalidUTF8: true, AllowDuplicateNames: true}.Parse([]byte("{\"a\":\"x\xffy\",\"a\":2}"))
	if err != nil {
		t.Fatal(err)
	}
	if u := v.Members[0].Value.Units; len(u) != 3 || u[1] != 0xfffd || len(v.Members) != 2 {
		t.Errorf("lenient reading = %+v", v)
	}
	if _, err := (Options{MaxDepth: 3}).Parse([]byte(`[[[[]]]]`)); !errors.Is(err, ErrTooDeep) {
		t.Errorf("depth 4 with MaxDepth 3: %v", err)
	}
	if _, err := (Options{MaxDepth: 3}).Parse([]byte(`[[[]]]`)); err != nil {
		t.Errorf("depth 3 with MaxDepth 3: %v", err)
	}
	if _, err := (Options{MaxValues: 4}).Parse([]byte(`[1,2,3,4]`)); !errors.Is(err, ErrTooLarge) {
		t.Errorf("5 values with MaxValues 4: %v", err)
	}
	if _, err := (Options{MaxValues: 5}).Parse([]byte(`[1,2,3,4]`)); err != nil {
		t.Errorf("5 values with MaxValues 5: %v", err)
	}
}

// TestParseAgreesWithEncodingJSON checks the syntax against encoding/json's
// on texts both read (well-formed UTF-8, no duplicate names).
func TestParseAgreesWithEncodingJSON(t *testing.T) {
	for _, in := range []string{
		`0`, `-0`, `-0.0e-0`, `1E+2`, `[]`, `{}`, `[[],{}]`, `""`, `"\/\b\f"`, `" é😀"`, `[1,"a",true,false,null]`,
		`00`, `-01`, `1.e1`, `[1 2]`, `{"a":1 "b":2}`, `{,}`, `[,1]`, "\"\x7f\"", `"\u00"`, `{"a"}`, `truee`, `[true false]`,
	} {
		if got, want := Valid([]byte(in)), json.Valid([]byte(in)); got != want {
			t.Errorf("Valid(%q) = %v, encoding/json says %v", in, got, want)
		}
	}
}

func FuzzJSONParse(f *testing.F) {
	for _, s := range []string{`{"a":[1,2.5e-3,"\ud83d"],"b":{"c":null}}`, `[1]]`, `"\u00e9"`, `-0.0`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := Parse(data)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error %v is not an *Error", err)
			}
			return
		}
		if !utf8.Valid(data) || !json.Valid(data) {
			t.Fatalf("Parse accepted %q, which is not JSON in UTF-8", data)
		}
		again, err := Parse(Append(nil, v))
		if err != nil {
			t.Fatalf("Parse(Append(Parse(%q))): %v", data, err)
		}
		if a, b := string(Append(nil, v)), string(Append(nil, again)); a != b {
			t.Fatalf("round trip changed %s into %s", a, b)
		}
	})
}

func TestNumberEqual(t *testing.T) {
	eighty := strings.Repeat("0", 80)
	tests := []struct {
		a, b string
		want bool
	}{
		{"4", "4", true},
		{"4", "4.0", true},
		{"4", "40e-1", true},
		{"4", "0.4e1", true},
		{"4", "0.04E+2", true},
		{"4", "400000e-5", true},
		{"-0", "0", true},
		{"-0.0e7", "0e-99999999999999999999999", true},
		{"4", "4." + eighty + "1", false},
		{"4", "-4", false},
		{"4", "5", false},
		{"9007199254740993", "9007199254740992", false},
		{"1e999999999999999999", "1e999999999999999999", true},
		{"1e999999999999999999", "10e999999999999999998", true},
		{"1e999999999999999999", "1e999999999999999998", false},
		{"1e9999999999999999999999", "0.1e10000000000000000000000", true},
		{"1e-9999999999999999999999", "10e-10000000000000000000000", true},
		{"1e-9999999999999999999999", "1e-9999999999999999999998", false},
		{"123.456e-2", "1.23456", true},
		{"0.000001", "1e-6", true},
		{"1e2", "100", true},
		{"1e2", "1000", false},
		{"4", "four", false},
		{"4.", "4.", false},
	}
	for _, tt := range tests {
		if got := NumberEqual(tt.a, tt.b); got != tt.want {
			t.Errorf("NumberEqual(%.30s, %.30s) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
		if got := NumberEqual(tt.b, tt.a); got != tt.want {
			t.Errorf("NumberEqual(%.30s, %.30s) = %v, want %v", tt.b, tt.a, got, tt.want)
		}
	}
}

// TestNumberEqualHuge compares numbers of 4 million digits once each: the
// answer must be right (a float comparison would call them all equal), and
// the comparison must end (it is linear).
func TestNumberEqualHuge(t *testing.T) {
	zeros := strings.Repeat("0", 4_000_000)
	tests := []struct {
		a, b string
		want bool
	}{
		{"4", "4." + zeros + "1", false},
		{"4", "4." + zeros, true},
		{"4" + zeros, "4e4000000", true},
		{"4" + zeros, "4e3999999", false},
		{"4e" + zeros + "1", "40e" + zeros, true},
		{"1" + zeros + "e-" + zeros + "5", "1" + zeros + "e-" + zeros + "6", false},
	}
	for i, tt := range tests {
		if got := NumberEqual(tt.a, tt.b); got != tt.want {
			t.Errorf("case %d: NumberEqual = %v, want %v", i, got, tt.want)
		}
	}
}

func TestIsInteger(t *testing.T) {
	for lit, want := range map[string]bool{
		"0": true, "-0.0": true, "1.0": true, "1e3": true, "1.5e1": true, "12e-1": false, "1e-400": false,
		"0.5": false, "1e999999999999999999999": true, "1e-999999999999999999999": false, "100e-2": true, "101e-2": false,
	} {
		d, ok := ParseDecimal(lit)
		if !ok || d.IsInteger() != want {
			t.Errorf("ParseDecimal(%s) = %+v, %v; IsInteger want %v", lit, d, ok, want)
		}
	}
}

// TestPlain8 checks the eight-byte test against the byte table, on every
// byte value at every position among plain neighbours and on drawn words.
func TestPlain8(t *testing.T) {
	check := func(w [8]byte) {
		want := true
		for _, c := range w {
			want = want && plain[c]
		}
		if got := plain8(binary.LittleEndian.Uint64(w[:])); got != want {
			t.Fatalf("plain8(%q) = %v, want %v", w, got, want)
		}
	}
	for pos := range 8 {
		for c := range 256 {
			for _, fill := range []byte{'a', ' ', 0x7f, '!', '#', '[', ']'} {
				w := [8]byte{fill, fill, fill, fill, fill, fill, fill, fill}
				w[pos] = byte(c)
				check(w)
			}
		}
	}
	rapid.Check(t, func(rt *rapid.T) {
		var w [8]byte
		for i := range w {
			w[i] = rapid.SampledFrom([]byte{0, 0x1f, 0x20, 0x21, '"', '\\', 0x5b, 0x5d, 0x7f, 0x80, 0xff, 'a', 0x01, 0x23}).Draw(rt, "b")
		}
		check(w)
	})
}

// TestStringAsEncodingJSON: strings of every mix of plain runs (long and
// short, for the eight-byte scan), escapes and multi-byte characters decode
// to the code units of what encoding/json reads.
func TestStringAsEncodingJSON(t *testing.T) {
	pieces := []string{"a", "abcdefgh", "0123456789abcdefghij", " ", "~\x7f", "é", "日本", "😀", `\n`, `\"`, `\\`, `\/`, `\u00e9`, `\u0026`,
		`\ud83d\ude00`, "\u2028", "<&>"}
	rapid.Check(t, func(rt *rapid.T) {
		lit := `"` + strings.Join(rapid.SliceOfN(rapid.SampledFrom(pieces), 0, 40).Draw(rt, "body"), "") + `"`
		v, err := Parse([]byte(lit))
		if err != nil {
			rt.Fatalf("Parse(%s): %v", lit, err)
		}
		var s string
		if err := json.Unmarshal([]byte(lit), &s); err != nil {
			rt.Fatal(err)
		}
		if want := utf16.Encode([]rune(s)); !slices.Equal(v.Units, want) {
			rt.Fatalf("Parse(%s) = %x, want %x", lit, v.Units, want)
		}
	})
}

// TestMeasureBoundsParse checks Measure against the decoder: the values it
// counts are never fewer than Parse decodes, and its depth is the tree's.
func TestMeasureBoundsParse(t *testing.T) {
	for _, text := range []string{`0`, `[]`, `{}`, `[0,1,[2,{"a":3,"b":[4]}]]`, `{"a,b":"[{:,"}`, `"\"[,"`, `[[[[[]]]]]`, `{"a":{"b":{"c":null}}}`} {
		v, err := Parse([]byte(text))
		if err != nil {
			t.Fatalf("Parse(%s): %v", text, err)
		}
		values, depth := Measure([]byte(text))
		if n, d := count(v, 0); values < n || depth != d {
			t.Errorf("Measure(%s) = %d values, depth %d; Parse decodes %d values, depth %d", text, values, depth, n, d)
		}
	}
}

// count returns the values of v and its depth of nesting, from depth d.
func count(v *Value, d int) (int, int) {
	n, deepest := 1, d
	if v.Type == Array || v.Type == Object {
		deepest = d + 1
	}
	for i := range v.Elems {
		k, e := count(&v.Elems[i], d+1)
		n, deepest = n+k, max(deepest, e)
	}
	for i := range v.Members {
		k, e := count(&v.Members[i].Value, d+1)
		n, deepest = n+k, max(deepest, e)
	}
	return n, deepest
}

// UnitsOf agrees with the standard library's utf16.Encode([]rune(s)) on any
// bytes, ill-formed UTF-8 included.
func TestUnitsOf(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := string(rapid.SliceOf(rapid.OneOf(rapid.Byte(), rapid.Just[byte]('a'))).Draw(t, "bytes")) +
			rapid.String().Draw(t, "text")
		if got, want := UnitsOf(s), utf16.Encode([]rune(s)); !slices.Equal(got, want) {
			t.Fatalf("UnitsOf(%q) = %x, want %x", s, got, want)
		}
	})
}
