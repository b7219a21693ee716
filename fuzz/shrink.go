package fuzz

import (
	"context"
	"slices"
	"strconv"
	"time"

	"github.com/conform-suite/conform/internal/jsonv"
)

// shrink reduces a diverging input to a small one that diverges the same
// way (same signature), by delta debugging: array elements and object
// members are removed, then every string is cut to the shortest head that
// still diverges (by halves: a finding that needs a length limit keeps what
// the limit needs in a few runs), its other characters made plain ASCII of
// the same length in UTF-16 units where that keeps it, and then cut down
// segment by segment and code point by code point (a surrogate pair is one
// step, a lone surrogate another), then numbers are simplified. It stops at a fixed point or when the budget of
// Config.ShrinkExecs executions or Config.ShrinkTime is spent.
func (e *engine) shrink(ctx context.Context, op string, in *jsonv.Value, first probe) *Finding {
	s := &shrinker{
		ctx:      ctx,
		e:        e,
		op:       op,
		sig:      first.sig,
		budget:   e.cfg.ShrinkExecs,
		deadline: time.Now().Add(e.cfg.ShrinkTime),
	}
	if e.cfg.Duration > 0 {
		// Leave the run's own bound intact: never shrink past its end by more
		// than a tenth of it.
		if end := e.start.Add(e.cfg.Duration + e.cfg.Duration/10); end.Before(s.deadline) && end.After(time.Now()) {
			s.deadline = end
		}
	}
	cur := clone(in)
	for s.left() {
		before := s.runs
		changed := s.structure(cur) || s.strings(cur) || s.numbers(cur)
		if !changed || s.runs == before {
			break
		}
	}
	f := &Finding{Op: op, Class: first.class, Signature: first.sig, Input: encode(in), Original: encode(in), ShrinkRuns: s.runs, Triage: first.triage}
	final := first
	if s.runs > 0 {
		if o := e.check(ctx, op, encode(cur)); o.sig == first.sig {
			final, f.Input = o, encode(cur)
		}
	}
	f.answers(final)
	e.stats.Shrinks += s.runs
	return f
}

type shrinker struct {
	ctx      context.Context
	e        *engine
	op       string
	sig      string
	budget   int
	runs     int
	deadline time.Time
}

func (s *shrinker) left() bool {
	return s.runs < s.budget && time.Now().Before(s.deadline) && s.ctx.Err() == nil
}

// keeps reports whether root, as it is now, still diverges the same way.
func (s *shrinker) keeps(root *jsonv.Value) bool {
	if !s.left() {
		return false
	}
	s.runs++
	o := s.e.check(s.ctx, s.op, encode(root))
	if !o.skip && o.sig == s.sig && !s.e.alive(s.ctx, s.op, o) {
		s.budget = 0 // a dead implementation fails every input: nothing more to learn
		return false
	}
	return !o.skip && o.sig == s.sig
}

// attempt sets *field to v and keeps it if root still diverges the same
// way; otherwise it puts the old value back.
func attempt[T any](s *shrinker, root *jsonv.Value, field *T, v T) bool {
	old := *field
	*field = v
	if s.keeps(root) {
		return true
	}
	*field = old
	return false
}

// structure removes array elements and object members, one at a time, in
// document order. A removal kept replaces the list it was made in, so the
// tree is walked afresh from the node after the one whose list changed:
// the nodes of a removed subtree are gone from it.
func (s *shrinker) structure(root *jsonv.Value) bool {
	changed := false
	nodes := walkNodes(root, nil)
	for k := 0; k < len(nodes) && s.left(); k++ {
		n := nodes[k]
		if n.Type == jsonv.Array && removeEach(s, root, &n.Elems) || n.Type == jsonv.Object && removeEach(s, root, &n.Members) {
			changed = true
			nodes = walkNodes(root, nil)
		}
	}
	return changed
}

// removeEach tries removing each entry of list, last first, keeping every
// removal after which root still diverges the same way.
func removeEach[T any](s *shrinker, root *jsonv.Value, list *[]T) bool {
	changed := false
	for i := len(*list) - 1; i >= 0 && s.left(); i-- {
		changed = attempt(s, root, list, slices.Delete(slices.Clone(*list), i, i+1)) || changed
	}
	return changed
}

// strings cuts every string leaf down: longest first, to its shortest
// diverging head and to plain characters (truncate, plain); then, shortest
// first, with ddmin over its segments (the fields of a query, the steps of
// a path, the lines and words of a text), then over its code points.
func (s *shrinker) strings(root *jsonv.Value) bool {
	leaves := slices.DeleteFunc(walkNodes(root, nil), func(n *jsonv.Value) bool { return n.Type != jsonv.String || len(n.Units) == 0 })
	slices.SortStableFunc(leaves, func(a, b *jsonv.Value) int { return len(b.Units) - len(a.Units) })
	changed := false
	for _, n := range leaves {
		changed = s.truncate(root, n) || changed
		changed = s.plain(root, n) || changed
	}
	// ddmin takes the shortest strings first: a string held at the length a
	// limit needs can take the whole budget without losing a unit, and must
	// not leave the others as they were.
	slices.SortStableFunc(leaves, func(a, b *jsonv.Value) int { return len(a.Units) - len(b.Units) })
	for _, n := range leaves {
		changed = s.ddmin(root, n, splitSegments) || changed
		changed = s.ddmin(root, n, splitAtoms) || changed
	}
	return changed
}

// truncateFrom is the length in atoms from which a string is first cut by
// halves: a shorter one is left to ddmin alone.
const truncateFrom = 64

// truncate cuts leaf n to the shortest head of its atoms with which root
// still diverges, found by bisection: a divergence that needs a length
// limit passed (a text over 8,000 units) keeps just over the limit in about
// log2(length) runs, where ddmin's chunks would spend the budget before
// they are small enough to keep it. A divergence that does not grow with
// the length still ends at a head that keeps it.
func (s *shrinker) truncate(root, n *jsonv.Value) bool {
	atoms := splitAtoms(n.Units)
	if len(atoms) < truncateFrom {
		return false
	}
	lo, hi := 0, len(atoms) // the head of hi atoms keeps the divergence
	for lo < hi && s.left() {
		mid := (lo + hi) / 2
		if attempt(s, root, &n.Units, slices.Concat(atoms[:mid]...)) {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return hi < len(atoms)
}

// plain replaces every character of leaf n outside printable ASCII by as
// many 'x' as it has UTF-16 units, in one run: lengths in units stay, the
// input gets smaller and easier to read ('x' is no hex digit, so that no
// percent escape is made of what was not one). It is kept only where root still
// diverges the same way (a divergence about the characters themselves
// does not).
func (s *shrinker) plain(root, n *jsonv.Value) bool {
	out := slices.Clone(n.Units)
	changed := false
	for i, u := range out {
		if u < 0x20 || u > 0x7e {
			out[i], changed = 'x', true
		}
	}
	return changed && s.left() && attempt(s, root, &n.Units, out)
}

// ddmin removes chunks of code points from leaf n while root keeps
// diverging: halves first, then quarters, down to single code points,
// then pairs of neighbouring ones. Integer members next to n in its object
// (start and end offsets into it) are tried shifted along with each
// removal first, then left as they are.
func (s *shrinker) ddmin(root, n *jsonv.Value, split func([]uint16) [][]uint16) bool {
	atoms := split(n.Units)
	offsets := siblingInts(root, n)
	// try removes atoms[lo:hi] and keeps the result if root still diverges.
	try := func(lo, hi int) bool {
		cand := slices.Concat(atoms[:lo], atoms[hi:])
		n.Units = slices.Concat(cand...)
		from, cut := len(slices.Concat(atoms[:lo]...)), len(slices.Concat(atoms[lo:hi]...))
		if len(offsets) > 0 && s.keepsShifted(root, offsets, from, cut) || s.keeps(root) {
			atoms = cand
			return true
		}
		return false
	}
	changed := false
	parts := 2
	for len(atoms) > 0 && s.left() {
		size := (len(atoms) + parts - 1) / parts
		removed := false
		for lo := 0; lo < len(atoms) && s.left(); lo += size {
			if try(lo, min(len(atoms), lo+size)) {
				removed, changed = true, true
				parts = max(parts-1, 2)
				break
			}
		}
		if !removed && size == 1 {
			// One-minimal; also try pairs, which keep parities and
			// alignments that single removals break.
			for lo := 0; lo+2 <= len(atoms) && s.left() && !removed; lo++ {
				removed = try(lo, lo+2)
			}
			if !removed {
				break
			}
			changed, parts = true, 2
		} else if !removed {
			parts = min(parts*2, len(atoms))
		}
	}
	n.Units = slices.Concat(atoms...)
	return changed
}

// keepsShifted reports whether root still diverges the same way with the
// offsets moved as removing cut units at from moves the text under them
// (shiftOffset); where it does not, they are put back.
func (s *shrinker) keepsShifted(root *jsonv.Value, offsets []*intMember, from, cut int) bool {
	for _, o := range offsets {
		o.node.Num = strconv.FormatInt(shiftOffset(o.value, int64(from), int64(cut)), 10)
	}
	kept := s.keeps(root)
	for _, o := range offsets {
		if kept {
			o.value = shiftOffset(o.value, int64(from), int64(cut))
		}
		o.node.Num = strconv.FormatInt(o.value, 10)
	}
	return kept
}

// intMember is an integer literal of the input and its value.
type intMember struct {
	node  *jsonv.Value
	value int64
}

// siblingInts returns the integer members of the object that holds leaf as
// a member: offsets into it, in the ops that take a text and offsets.
func siblingInts(root, leaf *jsonv.Value) []*intMember {
	for _, n := range walkNodes(root, nil) {
		holds := false
		for i := range n.Members {
			holds = holds || &n.Members[i].Value == leaf
		}
		if n.Type != jsonv.Object || !holds {
			continue
		}
		var out []*intMember
		for i := range n.Members {
			m := &n.Members[i].Value
			if m.Type != jsonv.Number {
				continue
			}
			if v, err := strconv.ParseInt(m.Num, 10, 64); err == nil {
				out = append(out, &intMember{m, v})
			}
		}
		return out
	}
	return nil
}

// shiftOffset moves offset v as removing cut units at from moves the text
// under it: offsets after the cut move back, offsets inside it go to its
// start.
func shiftOffset(v, from, cut int64) int64 {
	switch {
	case v >= from+cut:
		return v - cut
	case v > from:
		return from
	}
	return v
}

// numbers tries smaller values for every integer literal: 0, then halving.
func (s *shrinker) numbers(root *jsonv.Value) bool {
	changed := false
	for _, n := range walkNodes(root, nil) {
		if n.Type != jsonv.Number {
			continue
		}
		v, err := strconv.ParseInt(n.Num, 10, 64)
		if err != nil || v == 0 {
			continue
		}
		for _, c := range []int64{0, v / 2, v - 1} {
			if c == v || c < 0 && v > 0 || !s.left() {
				continue
			}
			if attempt(s, root, &n.Num, strconv.FormatInt(c, 10)) {
				changed = true
				break
			}
		}
	}
	return changed
}

// splitAtoms cuts UTF-16 units into the smallest pieces worth removing: a
// valid surrogate pair is one atom, and so is a percent-escaped UTF-8
// character (%E5%9B%BD), so that shrinking never breaks an encoding by
// accident; anything else is one unit.
func splitAtoms(u []uint16) [][]uint16 {
	var atoms [][]uint16
	for i := 0; i < len(u); {
		n := 1
		switch {
		case u[i] >= 0xd800 && u[i] < 0xdc00 && i+1 < len(u) && u[i+1] >= 0xdc00 && u[i+1] <= 0xdfff:
			n = 2
		case u[i] == '%':
			if b, ok := escapedByte(u[i:]); ok {
				n = 3
				for k := 0; k < utf8Continuations(b); k++ {
					if c, ok := escapedByte(u[i+n:]); !ok || c&0xc0 != 0x80 {
						break
					}
					n += 3
				}
			}
		}
		atoms = append(atoms, u[i:i+n])
		i += n
	}
	return atoms
}

// escapedByte decodes a %XX escape at the start of u.
func escapedByte(u []uint16) (byte, bool) {
	if len(u) < 3 || u[0] != '%' {
		return 0, false
	}
	b, err := strconv.ParseUint(string([]rune{rune(u[1]), rune(u[2])}), 16, 8)
	return byte(b), err == nil
}

// utf8Continuations returns how many continuation bytes follow lead byte b.
func utf8Continuations(b byte) int {
	switch {
	case b >= 0xf0:
		return 3
	case b >= 0xe0:
		return 2
	case b >= 0xc0:
		return 1
	}
	return 0
}

// splitSegments cuts units before every separator of a URL or a text (& ? /
// # = space newline), so each segment starts with its separator.
func splitSegments(u []uint16) [][]uint16 {
	var segs [][]uint16
	start := 0
	for i := 1; i < len(u); i++ {
		switch u[i] {
		case '&', '?', '/', '#', '=', ' ', '\n', '.', 0xe200:
			segs = append(segs, u[start:i])
			start = i
		}
	}
	if len(u) > 0 {
		segs = append(segs, u[start:])
	}
	return segs
}
