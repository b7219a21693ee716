package runner

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/conform-suite/conform/internal/jsonv"
	"github.com/conform-suite/conform/internal/safetext"
	"github.com/conform-suite/conform/protocol"
)

// Comparison is how an actual output compares with the expected one.
type Comparison int

const (
	Match           Comparison = iota
	Mismatch                   // a wrong answer
	AcceptedWrongly            // expected a rejection, got an ordinary output
	RejectedWrongly            // expected an ordinary output, got a rejection
)

func (v Comparison) String() string {
	return [...]string{"match", "mismatch", "accepted-wrongly", "rejected-wrongly"}[v]
}

// Compare compares an implementation's output with a vector's expected one.
//
// Both are decoded faithfully (internal/jsonv): member order is irrelevant;
// numbers are compared by exact decimal value ("4" equals "4.0" and "40e-1",
// never "4.000…01"), in time linear in their length; strings are compared
// code unit by code unit, so a lone surrogate escape such as \ud83d in the
// answer is not U+FFFD. A lone surrogate in the expected output stands for
// itself or U+FFFD: vectors write one where the spec lets an implementation
// keep the unit or replace it. An answer that repeats a member name, holds
// bytes that are not UTF-8 or has anything but white space after its value is
// a mismatch. diffs lists each difference by JSON path; a lone surrogate is
// shown as its \uXXXX escape.
func Compare(expected, actual json.RawMessage) (v Comparison, diffs []string, err error) {
	want, err := jsonv.Parse(expected)
	if err != nil {
		return Mismatch, nil, fmt.Errorf("expected output: %w", err)
	}
	v, diffs, _ = compareDecoded(want, expected, actual, nil)
	return v, diffs, nil
}

// compareDecoded is Compare with the expected output already decoded (want)
// and, when the transport decoded it (protocol.Response.Value), the actual
// one too (got, else nil). It returns the decoded actual output as well, nil
// when the answer is byte for byte the expected output (never decoded) or
// not well-formed.
func compareDecoded(want *jsonv.Value, expected, actual json.RawMessage, got *jsonv.Value) (Comparison, []string, *jsonv.Value) {
	if bytes.Equal(expected, actual) {
		return Match, nil, nil // the common case, the expectation decoded once
	}
	if got == nil {
		var err error
		if got, err = jsonv.Parse(actual); err != nil {
			if e, ok := errors.AsType[*jsonv.Error](err); ok && errors.Is(err, jsonv.ErrDuplicateName) {
				return Mismatch, []string{fmt.Sprintf("%s: duplicate member %s", e.Path, e.Detail)}, nil
			}
			return Mismatch, []string{"output is not valid JSON: " + err.Error()}, nil
		}
	}
	wantRefusal, _ := protocol.Refusal(want)
	gotRefusal, _ := protocol.Refusal(got)
	switch {
	case wantRefusal != "" && gotRefusal == "":
		return AcceptedWrongly, []string{fmt.Sprintf("$: want %s, got %s", short(want), short(got))}, got
	case wantRefusal == "" && gotRefusal != "":
		return RejectedWrongly, []string{fmt.Sprintf("$: want %s, got %s", short(want), short(got))}, got
	}
	var d diffList
	diff("$", false, want, got, &d)
	if len(d.lines) > 0 {
		if d.more > 0 {
			d.lines = append(d.lines, moreDiffs(d.more))
		}
		return Mismatch, d.lines, got
	}
	return Match, nil, got
}

// diffList collects difference lines: the first MaxDiffs are formatted,
// the rest only counted, so that an answer of a million extra members costs
// twenty lines, not a million.
type diffList struct {
	lines []string
	more  int
}

func (d *diffList) add(format string, args ...any) {
	if len(d.lines) < MaxDiffs {
		d.lines = append(d.lines, fmt.Sprintf(format, args...))
	} else {
		d.more++
	}
}

// moreDiffs is the last line of a list of differences cut short.
func moreDiffs(n int) string { return fmt.Sprintf("… and %d more differences", n) }

// diff adds the differences between want and got at path to out;
// inRefusal says that path names a refusal's body.
func diff(path string, inRefusal bool, want, got *jsonv.Value, out *diffList) {
	differ := func() { out.add("%s: want %s, got %s", path, lazy{want}, lazy{got}) }
	if want.Type != got.Type {
		differ()
		return
	}
	switch want.Type {
	case jsonv.Object:
		type pair struct {
			name   []uint16
			wv, gv *jsonv.Value // nil for a member the one side lacks
		}
		byKey := make(map[string]*pair, len(want.Members)+len(got.Members))
		for i := range want.Members {
			m := &want.Members[i]
			byKey[jsonv.Key(m.Name)] = &pair{name: m.Name, wv: &m.Value}
		}
		for i := range got.Members {
			m := &got.Members[i]
			k := jsonv.Key(m.Name)
			if p, ok := byKey[k]; ok {
				p.gv = &m.Value
			} else {
				byKey[k] = &pair{name: m.Name, gv: &m.Value}
			}
		}
		for _, k := range slices.Sorted(maps.Keys(byKey)) {
			p := byKey[k]
			at := path + jsonv.PathStep(p.name)
			code := k == "code"
			switch {
			case inRefusal && code && (p.gv == nil || p.wv == nil):
				// An implementation may omit the code of a refusal, and a
				// refusal expected without one (a real system's recorded
				// answer: it refuses without reasons) matches any code.
			case inRefusal && !code:
				// A refusal's other members (a message) are never compared.
			case p.gv == nil:
				out.add("%s: missing, want %s", at, lazy{p.wv})
			case p.wv == nil:
				out.add("%s: unexpected member %s", at, lazy{p.gv})
			default:
				diff(at, slices.Contains(protocol.RefusalMembers, k), p.wv, p.gv, out)
			}
		}
	case jsonv.Array:
		if len(want.Elems) != len(got.Elems) {
			out.add("%s: want %d elements, got %d", path, len(want.Elems), len(got.Elems))
		}
		for i := range min(len(want.Elems), len(got.Elems)) {
			diff(path+"["+strconv.Itoa(i)+"]", false, &want.Elems[i], &got.Elems[i], out)
		}
	case jsonv.Number:
		if !jsonv.NumberEqual(want.Num, got.Num) {
			differ()
		}
	case jsonv.String:
		if !sameUnits(want.Units, got.Units) {
			differ()
		}
	}
}

// sameUnits reports whether the string got is the string want, unit by unit,
// where a lone surrogate of want may also be answered as U+FFFD (never the
// other way round).
func sameUnits(want, got []uint16) bool {
	if len(want) != len(got) {
		return false
	}
	for i := 0; i < len(want); i++ {
		w, g := want[i], got[i]
		if w >= 0xd800 && w < 0xdc00 && i+1 < len(want) && want[i+1] >= 0xdc00 && want[i+1] <= 0xdfff {
			if g != w || got[i+1] != want[i+1] {
				return false
			}
			i++ // a well-formed pair, compared whole
			continue
		}
		if w != g && !(w >= 0xd800 && w <= 0xdfff && g == 0xfffd) {
			return false
		}
	}
	return true
}

// lazy is a value rendered by short only when a line is formatted.
type lazy struct{ v *jsonv.Value }

func (l lazy) String() string { return short(l.v) }

// short renders a JSON value (a *jsonv.Value, or a Go value for
// encoding/json) for a diff line, eliding the middle of long ones.
func short(v any) string {
	var s string
	switch v := v.(type) {
	case *jsonv.Value:
		s = string(jsonv.Append(nil, v))
	default:
		data, err := jsonv.Marshal(v)
		if err != nil {
			return fmt.Sprint(v)
		}
		s = string(data)
	}
	// A value is shown as JSON whose invisible and control characters are
	// escapes, wherever the diff goes (every report, the HTML page, the
	// expectations file).
	s = safetext.JSON(s)
	const max = 200
	if len(s) > max {
		head := safetext.Head(s, max/2)
		tail := s[len(s)-max/2:]
		for len(tail) > 0 && !utf8.RuneStart(tail[0]) {
			tail = tail[1:]
		}
		s = head + fmt.Sprintf("…(%d bytes)…", len(s)-len(head)-len(tail)) + tail
	}
	return s
}
