package fuzz

// This file builds the signature of a finding: what two divergences must
// share to count as one finding.

import (
	"encoding/json"
	"regexp"
	"slices"
	"strings"

	"github.com/conform-suite/conform/internal/jsonv"
	"github.com/conform-suite/conform/protocol"
	"github.com/conform-suite/conform/runner"
)

// The signature of a finding is its de-duplication key: the op, the kind,
// and what the implementation did wrong, as the class of its answer
// against the class of the expected one, never which of the reference's
// many refusal codes an input happened to reach: an implementation that
// refuses every href holding a comment with one code makes one finding
// (two at most: where the reference accepts, and where it refuses for
// another reason), however many rules of the format those inputs break.
// Values the implementation chose are kept out of it, but for a refusal
// code, of which each op's signatures name at most maxCodes (engine.key):
// an implementation that answers at random makes a bounded number of
// findings, while two faults answering different codes stay two.

// compareSig is the signature part of a comparison (runner.Comparison),
// and the implementation's refusal code when the signature ends with it;
// who names the side whose answer was expected ("reference" or "oracle"):
//   - accepted-wrongly: the reference's refusal ("reference rejected:CODE"):
//     which rule the implementation does not check;
//   - rejected-wrongly: the kind of refusal the implementation made and
//     whether it carries a code ("rejected with a code", "dropped without a
//     code"), not the code itself;
//   - mismatch: the shape of the difference (diffShape); when both refused,
//     the implementation's refusal ("$.rejected.code=value; answered
//     rejected:CODE"), when only the reference did, its refusal.
func compareSig(cmp runner.Comparison, expected, actual json.RawMessage, diffs []string, who string) (sig, code string) {
	ref := parseRefusal(expected)
	switch cmp {
	case runner.AcceptedWrongly:
		return who + " " + ref.String(), ""
	case runner.RejectedWrongly:
		got := parseRefusal(actual)
		if got.key == "" {
			return "refused", ""
		}
		if got.hasCode {
			return got.key + " with a code", ""
		}
		return got.key + " without a code", ""
	}
	sig = diffShape(diffs)
	if ref.key == "" {
		return sig, ""
	}
	if got := parseRefusal(actual); got.key != "" && got.hasCode {
		return sig + "; answered " + got.key + ":" + got.code, got.code
	}
	return sig + "; " + who + " " + ref.String(), ""
}

// refusalOf is the refusal member of an output, if it has one.
type refusalOf struct {
	key     string // "rejected" or "dropped"; "" when the output is no refusal
	hasCode bool   // the refusal has a "code" member
	code    string // the code when it is a string
}

func (r refusalOf) String() string {
	switch {
	case r.key == "":
		return "no refusal"
	case !r.hasCode:
		return r.key + " without a code"
	}
	return r.key + ":" + r.code
}

// parseRefusal returns the refusal of an output text, read as the judge
// reads it (protocol.Refusal): an output that is not JSON the judge takes
// (a duplicate member, ill-formed UTF-8) is no refusal.
func parseRefusal(out json.RawMessage) refusalOf {
	v, err := jsonv.Parse(out)
	if err != nil {
		return refusalOf{}
	}
	key, body := protocol.Refusal(v)
	r := refusalOf{key: key}
	if c := body.Get("code"); c != nil {
		r.hasCode, r.code = true, "(not a string)"
		if c.Type == jsonv.String {
			r.code = jsonv.Key(c.Units)
		}
	}
	return r
}

// errorKindSig is the signature part of a protocol error answer: its kind
// when the protocol defines it, else "another kind" (an implementation that
// invents kinds must not multiply its findings).
func errorKindSig(kind string) string {
	switch kind {
	case protocol.KindBadRequest, protocol.KindInternal:
		return kind
	}
	return "another kind"
}

// outputRefusal returns "MEMBER:CODE" for a refusal output ("MEMBER:" when
// its code is missing), or "" for any other output.
func outputRefusal(out json.RawMessage) string {
	if r := parseRefusal(out); r.key != "" {
		return r.key + ":" + r.code
	}
	return ""
}

var (
	diffIndex = regexp.MustCompile(`\[\d+\]`)
	diffLen   = regexp.MustCompile(`^want \d+ elements, got \d+`)
)

// diffShape reduces runner.Compare's diff lines to their paths and
// categories, without values or array indexes: two inputs failing the same
// way have the same shape.
func diffShape(diffs []string) string {
	var parts []string
	for _, d := range diffs {
		path, rest, _ := strings.Cut(d, ": ")
		path = diffIndex.ReplaceAllString(path, "[*]")
		cat := "value"
		switch {
		case strings.HasPrefix(rest, "missing"):
			cat = "missing"
		case strings.HasPrefix(rest, "unexpected member"):
			// The member's name is the implementation's choice: only the
			// object that holds it is part of the shape.
			cat, path = "extra", memberParent(path)+".*"
		case diffLen.MatchString(rest):
			cat = "length"
		}
		parts = append(parts, path+"="+cat)
	}
	slices.Sort(parts)
	return strings.Join(slices.Compact(parts), ",")
}

// memberParent returns the path of the object holding the member at path
// ($.a.b or $.a["b c"] gives $.a). A quoted key cannot hold `["` (its quote
// marks are escaped), so the last one starts the member.
func memberParent(path string) string {
	if strings.HasSuffix(path, `"]`) {
		if i := strings.LastIndex(path, `["`); i > 0 {
			return path[:i]
		}
	}
	if i := strings.LastIndexByte(path, '.'); i > 0 {
		return path[:i]
	}
	return path
}
