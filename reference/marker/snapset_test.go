package marker

import (
	"slices"
	"testing"
	"unicode"

	"github.com/conform-suite/conform/spec"
)

// The reference snaps past exactly the snap set of the Unicode version the
// spec pins (spec/data/punctuation.txt), rune by rune over the whole code
// space: not by the tables of the Go toolchain that built it.
func TestSnapsIsThePinnedSet(t *testing.T) {
	set, err := spec.SnapSet(spec.UnicodeVersion)
	if err != nil {
		t.Fatal(err)
	}
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if _, in := slices.BinarySearch(set, r); Snaps(r) != in {
			t.Errorf("Snaps(%U) = %v; Unicode %s says %v", r, Snaps(r), spec.UnicodeVersion, in)
		}
	}
}

// Where the Go toolchain's tables are of the pinned version, they agree
// with the pinned data: an independent check of spec/data/punctuation.txt.
func TestPinnedSetAgreesWithGo(t *testing.T) {
	if unicode.Version != spec.UnicodeVersion {
		t.Skipf("Go's tables are Unicode %s, not %s", unicode.Version, spec.UnicodeVersion)
	}
	for r := rune(0); r <= unicode.MaxRune; r++ {
		want := unicode.In(r, unicode.Po, unicode.Pe, unicode.Pf) && !slices.Contains(spec.SnapExceptions, r)
		if Snaps(r) != want {
			t.Errorf("Snaps(%U) = %v; Go's Unicode %s tables say %v", r, Snaps(r), unicode.Version, want)
		}
	}
}

// The white space of MARKER-STRIP-010 is the property White_Space, which
// Go's unicode.IsSpace gives too: held to it over the whole code space.
func TestWhiteSpaceIsThePinnedSet(t *testing.T) {
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if notSpace(r) == unicode.IsSpace(r) {
			t.Errorf("notSpace(%U) = %v; White_Space says %v", r, notSpace(r), unicode.IsSpace(r))
		}
	}
}
