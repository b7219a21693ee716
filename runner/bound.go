package runner

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/conform-suite/conform/internal/jsonv"

	"github.com/conform-suite/conform/internal/safetext"
)

// The bounds on what a Result keeps of what the implementation said, so
// that a run's memory and its reports stay bounded whatever the answers:
// a result keeps at most about 100 KiB, whatever the implementation sent.
const (
	// MaxAnswerKept is the largest answer a Result keeps whole (in Actual);
	// a longer one is replaced by its size, its SHA-256 and its first
	// AnswerPrefix bytes (Result.Clipped).
	MaxAnswerKept = 64 << 10
	// AnswerPrefix is the number of bytes kept of a longer answer.
	AnswerPrefix = 4 << 10
	// MaxDiffs is the number of difference lines a Result keeps, and the
	// number Compare formats; a last line says how many more there were.
	MaxDiffs = 20
	// MaxDiffLine caps each difference line, in bytes.
	MaxDiffLine = 1000
	// MaxDetail caps a result's detail (an error message, say), in bytes.
	MaxDetail = 4 << 10
	// MaxStderrKept is the tail of the implementation's stderr a Result
	// keeps, in bytes.
	MaxStderrKept = 8 << 10
)

// Clipped describes an answer too long to keep whole: its size in bytes,
// its SHA-256 (hex) and its first AnswerPrefix bytes.
type Clipped struct {
	Size   int    `json:"size"`
	SHA256 string `json:"sha256"`
	Prefix string `json:"prefix"`
}

// bound cuts what res keeps of the implementation's words to the bounds
// above. It runs once the answer has been compared.
func (res *Result) bound() {
	if len(res.Actual) > MaxAnswerKept {
		sum := sha256.Sum256(res.Actual)
		res.Clipped = &Clipped{
			Size:   len(res.Actual),
			SHA256: hex.EncodeToString(sum[:]),
			Prefix: safetext.Head(string(res.Actual[:min(len(res.Actual), AnswerPrefix+4)]), AnswerPrefix),
		}
		res.Actual = nil
	}
	if len(res.Actual) > 0 && !utf8.Valid(res.Actual) {
		sum := sha256.Sum256(res.Actual)
		res.ActualNote = fmt.Sprintf("the answer held bytes that are not UTF-8, kept here as U+FFFD (as sent: %s bytes, sha256 %s)", safetext.Thousands(len(res.Actual)), hex.EncodeToString(sum[:]))
		v, err := jsonv.Options{AllowDuplicateNames: true, ReplaceInvalidUTF8: true}.Parse(res.Actual)
		res.Actual = nil
		if err == nil {
			res.Actual = jsonv.Append(nil, v)
		}
	}
	res.Actual = bytes.Clone(res.Actual) // not a window on a larger buffer
	if len(res.Diffs) > MaxDiffs+1 {     // a list cut short by Compare ends with its count already
		res.Diffs = append(res.Diffs[:MaxDiffs:MaxDiffs], moreDiffs(len(res.Diffs)-MaxDiffs))
	}
	for i, d := range res.Diffs {
		res.Diffs[i] = strings.Clone(clipText(d, MaxDiffLine))
	}
	res.Diffs = slices.Clone(res.Diffs) // let go of the rest
	res.Detail = strings.Clone(clipText(res.Detail, MaxDetail))
	if len(res.Stderr) > MaxStderrKept {
		tail := res.Stderr[len(res.Stderr)-MaxStderrKept:]
		if i := strings.IndexByte(tail, '\n'); i >= 0 && i < len(tail)-1 {
			tail = tail[i+1:] // start at a line
		}
		res.Stderr = tail
	}
	res.Stderr = strings.Clone(res.Stderr)
}

// clipText cuts s to at most n bytes (at a character boundary), saying how
// long it was; the result does not share memory with a longer s.
func clipText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return safetext.Head(s, n) + fmt.Sprintf("… (%s bytes in all)", safetext.Thousands(len(s)))
}
