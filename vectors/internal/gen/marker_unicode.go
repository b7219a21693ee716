package main

// The snap set by Unicode version (MARKER-OFFSET-004): the vectors come
// from the tables the spec pins (spec/data/punctuation.txt, written by
// 'make unicode' from the Unicode data files), never from Go's unicode
// package or the reference. Each rune follows a marker and precedes a
// space, so its citation's offset is after it exactly when it snaps.
// Beside the whole set of Unicode 15.0.0, the runes that entered it in
// each version before, and those that enter Po, Pe or Pf in each version
// after it, have a vector each, named by the version: the vectors an
// implementation fails name the Unicode version of its tables.

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/conform-suite/conform/spec"
	"github.com/conform-suite/conform/vectors"
	"github.com/conform-suite/conform/vectors/internal/vectorkit"
)

func init() {
	vectorkit.Register("marker/strip-unicode.gen.json", func() (*vectors.File, error) {
		vs, err := stripUnicode()
		if err != nil {
			return nil, err
		}
		return file("marker.strip", "The snap set is Unicode "+spec.UnicodeVersion+"'s, whatever the tables of the implementation's platform: every rune of it, and the runes that entered it or enter Po, Pe and Pf in the versions before and after, by version.", vs), nil
	})
}

// unicodeRunesPerVector is how many runes of the snap set one vector
// checks.
const unicodeRunesPerVector = 64

func stripUnicode() ([]vec, error) {
	pinned, err := spec.SnapSet(spec.UnicodeVersion)
	if err != nil {
		return nil, err
	}
	p, err := spec.Punctuation()
	if err != nil {
		return nil, err
	}
	versions := slices.SortedFunc(maps.Keys(p), compareVersions)
	rq := ids("MARKER-OFFSET-004")
	var vs []vec
	for lo := 0; lo < len(pinned); lo += unicodeRunesPerVector {
		rs := pinned[lo:min(lo+unicodeRunesPerVector, len(pinned))]
		vs = append(vs, snapVec(fmt.Sprintf("unicode-%s-snap-set-%02d", dashed(spec.UnicodeVersion), lo/unicodeRunesPerVector+1),
			fmt.Sprintf("Runes %d to %d of the Unicode %s snap set (%U to %U) are each passed", lo+1, lo+len(rs), spec.UnicodeVersion, rs[0], rs[len(rs)-1]), rq, rs, true))
	}
	prev := []rune(nil)
	for _, v := range versions {
		set, err := spec.SnapSet(v)
		if err != nil {
			return nil, err
		}
		if prev != nil {
			// Up to the pinned version the runes a version adds snap, and
			// none of the version before may leave; after it, the runes a
			// version adds to Po, Pe or Pf stop the snap, and none of the
			// pinned set may leave.
			snaps, kept := compareVersions(v, spec.UnicodeVersion) <= 0, pinned
			if snaps {
				kept = prev
			}
			if gone := spec.Without(kept, set); len(gone) > 0 {
				return nil, fmt.Errorf("the snap set of Unicode %s leaves out %U: no vector says so yet", v, gone)
			}
			id, desc := "additions-snap", "Runes that entered the snap set in Unicode %s (%d) snap: tables older than %s miss them"
			if !snaps {
				id, desc = "additions-do-not-snap", "Runes that entered Po, Pe or Pf in Unicode %s (%d) stop the snap: tables of %s or later pass them"
			}
			if added := spec.Without(set, prev); len(added) > 0 {
				vs = append(vs, snapVec("unicode-"+dashed(v)+"-"+id, fmt.Sprintf(desc, v, len(added), v), rq, added, snaps))
			}
		}
		prev = set
	}
	return vs, nil
}

// snapVec is a vector citing after each rune of rs: "w" marker rune, then a
// space; the citation is after the rune when snap is set, else before it.
func snapVec(id, desc string, rq []string, rs []rune, snap bool) vec {
	var text, out strings.Builder
	cs := cites()
	for i, r := range rs {
		if i > 0 {
			text.WriteString(" ")
			out.WriteString(" ")
		}
		text.WriteString("w" + mk(t1) + string(r))
		out.WriteString("w")
		offset := runes(out.String())
		if snap {
			offset++
		}
		out.WriteRune(r)
		cs = append(cs, c(t1, offset, ""))
	}
	return vec{id: id, desc: desc, reqs: rq, tags: ids("unicode"), in: in(text.String()), out: stripOut{out.String(), cs, ids(t1)}}
}

// compareVersions orders Unicode versions "15.0.0" by their numbers.
func compareVersions(a, b string) int {
	var x, y [3]int
	fmt.Sscanf(a, "%d.%d.%d", &x[0], &x[1], &x[2])
	fmt.Sscanf(b, "%d.%d.%d", &y[0], &y[1], &y[2])
	return slices.Compare(x[:], y[:])
}

// dashed writes a version for an id: "15.0.0" is "15-0".
func dashed(v string) string { return strings.ReplaceAll(strings.TrimSuffix(v, ".0"), ".", "-") }
