package runner

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Verdict classifies a comparison of an actual output with an expected one.
type Verdict int

const (
	Match           Verdict = iota
	Mismatch                // a wrong answer
	AcceptedWrongly         // expected a rejection, got an ordinary output
	RejectedWrongly         // expected an ordinary output, got a rejection
)

func (v Verdict) String() string {
	return [...]string{"match", "mismatch", "accepted-wrongly", "rejected-wrongly"}[v]
}

// refusalKeys are the output members that mark a refusal of the input. A
// refusal's "code" is compared only when the implementation gives one.
var refusalKeys = []string{"rejected", "dropped"}

// Compare compares an implementation's output with a vector's expected one.
// JSON values are compared canonically: member order is irrelevant and
// numbers are compared exactly. diffs lists each difference by JSON path.
func Compare(expected, actual json.RawMessage) (v Verdict, diffs []string, err error) {
	if sameBytes(expected, actual) {
		return Match, nil, nil // the common case, without decoding
	}
	want, err := decodeJSON(expected)
	if err != nil {
		return Mismatch, nil, fmt.Errorf("expected output: %w", err)
	}
	got, err := decodeJSON(actual)
	if err != nil {
		return Mismatch, []string{"output is not valid JSON: " + err.Error()}, nil
	}
	wantRefusal, gotRefusal := refusal(want), refusal(got)
	switch {
	case wantRefusal != "" && gotRefusal == "":
		return AcceptedWrongly, []string{fmt.Sprintf("$: want %s, got %s", short(want), short(got))}, nil
	case wantRefusal == "" && gotRefusal != "":
		return RejectedWrongly, []string{fmt.Sprintf("$: want %s, got %s", short(want), short(got))}, nil
	}
	diff("$", want, got, &diffs)
	if len(diffs) > 0 {
		return Mismatch, diffs, nil
	}
	return Match, nil, nil
}

// sameBytes reports whether two JSON texts are byte for byte equal once
// insignificant white space is removed: then they are equal values.
func sameBytes(a, b []byte) bool {
	if bytes.Equal(a, b) {
		return json.Valid(a)
	}
	var ca, cb bytes.Buffer
	if json.Compact(&ca, a) != nil || json.Compact(&cb, b) != nil {
		return false
	}
	return bytes.Equal(ca.Bytes(), cb.Bytes())
}

func decodeJSON(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, fmt.Errorf("trailing data")
	}
	return v, nil
}

// refusal returns the refusal key of an output object, or "".
func refusal(v any) string {
	m, ok := v.(map[string]any)
	if !ok {
		return ""
	}
	for _, k := range refusalKeys {
		if _, ok := m[k]; ok {
			return k
		}
	}
	return ""
}

func diff(path string, want, got any, out *[]string) {
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			*out = append(*out, fmt.Sprintf("%s: want %s, got %s", path, short(want), short(got)))
			return
		}
		isRefusal := slices.Contains(refusalKeys, lastKey(path))
		keys := make([]string, 0, len(w)+len(g))
		for k := range w {
			keys = append(keys, k)
		}
		for k := range g {
			if _, ok := w[k]; !ok {
				keys = append(keys, k)
			}
		}
		slices.Sort(keys)
		for _, k := range keys {
			p := path + "." + k
			if !identifier(k) {
				p = path + "[" + strconv.Quote(k) + "]"
			}
			wv, inW := w[k]
			gv, inG := g[k]
			switch {
			case isRefusal && k == "code" && !inG:
				// An implementation may omit the code of a refusal.
			case isRefusal && k != "code":
				// A refusal's other members (a message) are never compared.
			case !inG:
				*out = append(*out, fmt.Sprintf("%s: missing, want %s", p, short(wv)))
			case !inW:
				*out = append(*out, fmt.Sprintf("%s: unexpected member %s", p, short(gv)))
			default:
				diff(p, wv, gv, out)
			}
		}
	case []any:
		g, ok := got.([]any)
		if !ok {
			*out = append(*out, fmt.Sprintf("%s: want %s, got %s", path, short(want), short(got)))
			return
		}
		if len(w) != len(g) {
			*out = append(*out, fmt.Sprintf("%s: want %d elements, got %d", path, len(w), len(g)))
		}
		for i := range min(len(w), len(g)) {
			diff(fmt.Sprintf("%s[%d]", path, i), w[i], g[i], out)
		}
	case json.Number:
		g, ok := got.(json.Number)
		if !ok || !numbersEqual(w, g) {
			*out = append(*out, fmt.Sprintf("%s: want %s, got %s", path, short(want), short(got)))
		}
	default: // string, bool, nil
		if want != got {
			*out = append(*out, fmt.Sprintf("%s: want %s, got %s", path, short(want), short(got)))
		}
	}
}

func numbersEqual(a, b json.Number) bool {
	if a == b {
		return true
	}
	x, ok1 := new(big.Float).SetPrec(256).SetString(string(a))
	y, ok2 := new(big.Float).SetPrec(256).SetString(string(b))
	return ok1 && ok2 && x.Cmp(y) == 0
}

func lastKey(path string) string {
	i := strings.LastIndexByte(path, '.')
	if i < 0 {
		return ""
	}
	return path[i+1:]
}

func identifier(k string) bool {
	if k == "" {
		return false
	}
	for _, r := range k {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// short renders a JSON value for a diff line, eliding the middle of long ones.
func short(v any) string {
	if v == nil {
		return "null"
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return fmt.Sprint(v)
	}
	s := strings.TrimSuffix(buf.String(), "\n")
	const max = 200
	if len(s) > max {
		head := truncateUTF8(s, max/2)
		tail := s[len(s)-max/2:]
		for len(tail) > 0 && !utf8.RuneStart(tail[0]) {
			tail = tail[1:]
		}
		s = head + fmt.Sprintf("…(%d bytes)…", len(s)-len(head)-len(tail)) + tail
	}
	return s
}

// truncateUTF8 returns the longest prefix of s of at most n bytes that does
// not cut a UTF-8 sequence.
func truncateUTF8(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
