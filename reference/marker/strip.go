package marker

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Citation is one entry of the citations array.
type Citation struct {
	DataPartID string `json:"data_part_id"`
	Offset     int    `json:"offset"`  // runes into the joined, stripped text
	Locator    string `json:"locator"` // "" cites the whole part
}

// Result is the outcome of stripping a whole text.
type Result struct {
	Text      string     // the text without its valid markers
	Citations []Citation // sorted by offset, ties in text order
	Parts     []string   // ids of the data parts cited, in catalog order
	// Retry is true when the artifact is not to be completed: at least one
	// marker cited a user-origin id, every marker did, and the text is
	// white space only (spec/marker.md, MARKER-STRIP-010).
	Retry bool
}

// Catalog is the ordered set of data parts a text may cite, by id.
type Catalog struct {
	ids   []string
	index map[string]int
}

// NewCatalog returns the catalog of the given part ids, in order. Two equal
// ids are rejected with [CodeDuplicatePartID].
func NewCatalog(ids []string) (*Catalog, error) {
	c := &Catalog{ids: ids, index: make(map[string]int, len(ids))}
	for i, id := range ids {
		if _, dup := c.index[id]; dup {
			return nil, reject(CodeDuplicatePartID, -1, "parts", "part id "+strconv.Quote(id)+" given twice")
		}
		c.index[id] = i
	}
	return c, nil
}

// citable returns the catalog index of id, or false when the id is unknown
// or of user origin.
func (c *Catalog) citable(id string) (int, bool) {
	if c == nil || UserOrigin(id) {
		return 0, false
	}
	i, ok := c.index[id]
	return i, ok
}

// UserOrigin reports whether id names a user-origin part: it begins with
// "user_data_" or "user_text_", compared without regard to ASCII case.
func UserOrigin(id string) bool {
	for _, p := range [...]string{"user_data_", "user_text_"} {
		if prefixCaseClass(id, p) {
			return true
		}
	}
	return false
}

// hasPrefixFold reports whether s begins with the ASCII string p compared
// without regard to ASCII case.
func hasPrefixFold(s, p string) bool {
	return len(s) >= len(p) && strings.EqualFold(s[:len(p)], p)
}

// Snaps reports whether a citation offset moves past r: r is in the
// Unicode 15.0.0 general category Po, Pe or Pf, and is not one of the
// inverted marks U+00A1, U+00BF, U+2E18, which open a clause. The set is
// the generated snapSet, from the tables the spec pins: the Go toolchain's
// own Unicode version does not change it.
func Snaps(r rune) bool { return unicode.Is(snapSet, r) }

// sink receives the released (final) text in order and keeps the runes
// released so far and the citations, snapping their offsets.
type sink struct {
	cat     *Catalog
	runes   int // runes released so far
	cites   []Citation
	pending int // cites[pending:] still snap past punctuation
	cited   []bool
	markers int  // valid markers seen
	users   int  // of which cite a user-origin id
	spoken  bool // a rune other than white space was released
}

func (k *sink) cite(id, locator string) {
	k.markers++
	if UserOrigin(id) {
		k.users++
		return
	}
	i, ok := k.cat.citable(id)
	if !ok {
		return // unknown: removed, no entry
	}
	if k.cited == nil {
		k.cited = make([]bool, len(k.cat.ids))
	}
	k.cited[i] = true
	k.cites = append(k.cites, Citation{DataPartID: id, Offset: k.runes, Locator: locator})
}

// settle fixes the offsets of the pending citations at the current position.
func (k *sink) settle() {
	for i := k.pending; i < len(k.cites); i++ {
		k.cites[i].Offset = k.runes
	}
	k.pending = len(k.cites)
}

func (k *sink) releaseString(s string) {
	if !k.spoken {
		k.spoken = strings.IndexFunc(s, notSpaceClass) >= 0
	}
	// Pending citations snap past the leading punctuation of s; the first
	// other rune settles them.
	for i, r := range s {
		if !Snaps(r) {
			k.settle()
			k.runes += utf8.RuneCountInString(s[i:])
			return
		}
		k.runes++
	}
}

// notSpace reports whether r is not white space: the Unicode 15.0.0
// property White_Space, written out (MARKER-STRIP-010), so that no Go
// toolchain's tables change it.
func notSpace(r rune) bool {
	switch {
	case r >= 0x09 && r <= 0x0d, r >= 0x2000 && r <= 0x200a:
		return false
	}
	switch r {
	case 0x20, 0x85, 0xa0, 0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000:
		return false
	}
	return true
}

// retry reports whether the artifact is to be retried: some marker cited a
// user-origin id, every marker did, and no rune but white space was released.
func (k *sink) retry() bool { return k.users > 0 && k.users == k.markers && !k.spoken }

// finish settles the last citations and returns them with the cited parts.
func (k *sink) finish() ([]Citation, []string) {
	k.settle()
	parts := []string{}
	for i, c := range k.cited {
		if c {
			parts = append(parts, k.cat.ids[i])
		}
	}
	cites := k.cites
	if cites == nil {
		cites = []Citation{}
	}
	return cites, parts
}

// Strip removes the valid markers of a whole text and returns the clean
// text, the citations of the markers whose id the catalog holds (and is not
// of user origin), and the parts they cite. It never fails: text that is not
// a valid marker stays as it is.
func Strip(text string, cat *Catalog) Result {
	k := sink{cat: cat}
	i := strings.Index(text, startS)
	if i < 0 { // no marker: nothing cited, nothing to retry
		cites, parts := k.finish()
		return Result{Text: text, Citations: cites, Parts: parts}
	}
	var b strings.Builder
	b.Grow(len(text))
	pos := 0 // text[:pos] is dealt with
	for i >= 0 {
		lit := text[pos : pos+i]
		b.WriteString(lit)
		k.releaseString(lit)
		pos += i
		m := newMachine()
		v, j := more, pos+len(startS)
		for v == more && j < len(text) {
			r, n := utf8.DecodeRuneInString(text[j:])
			v = m.step(r, n)
			j += n
		}
		if v == done {
			k.cite(m.fields(text[pos : j-len("\uE201")]))
		} else {
			// Not a marker: the candidate and the rune that ended it
			// (or the rest of the text) are literal.
			b.WriteString(text[pos:j])
			k.releaseString(text[pos:j])
		}
		pos = j
		i = strings.Index(text[pos:], startS)
	}
	b.WriteString(text[pos:])
	k.releaseString(text[pos:])
	cites, parts := k.finish()
	return Result{Text: b.String(), Citations: cites, Parts: parts, Retry: k.retry()}
}
