package quote

import (
	"net/url"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Parse parses a t3-citation href strictly (spec/quote-link.md, "Parser").
// It returns the citation, or an *[Error] whose Code names the first rule the
// href breaks, in the order the specification lists them. Parse validates
// the payload only, never the existence of its source.
func Parse(href string) (Citation, error) {
	c, err := parse(href)
	if err != nil {
		return Citation{}, err
	}
	return c, nil
}

// query field indexes, in the order of the serialized form.
const (
	fText = iota
	fStart
	fEnd
	fPrefix
	fSuffix
	fComment
	nFields
)

var fieldNames = [nFields]string{"text", "start", "end", "prefix", "suffix", "comment"}

func parse(href string) (Citation, *Error) {
	rest, ok := strings.CutPrefix(href, "t3-citation://")
	if !ok {
		return Citation{}, fail(CodeScheme, "")
	}
	// A string of at most MaxHrefLength bytes cannot exceed it in UTF-16
	// units; only longer strings need counting.
	if len(href) > MaxHrefLength && UTF16Len(href) > MaxHrefLength {
		return Citation{}, fail(CodeHrefTooLong, "")
	}
	for i := 0; i < len(href); i++ {
		if c := href[i]; c < 0x21 || c > 0x7E {
			return Citation{}, fail(CodeInvalidCharacter, "")
		}
	}
	end := strings.IndexAny(rest, "/?#")
	if end < 0 {
		end = len(rest)
	}
	authority, rest := rest[:end], rest[end:]
	switch {
	case strings.Contains(authority, "@"):
		return Citation{}, fail(CodeCredentials, "")
	case strings.Contains(authority, ":"):
		return Citation{}, fail(CodePort, "")
	case authority != "v1":
		return Citation{}, fail(CodeVersion, "")
	case strings.Contains(rest, "#"):
		return Citation{}, fail(CodeFragment, "")
	}
	path, query, _ := strings.Cut(rest, "?")
	path, ok = strings.CutPrefix(path, "/")
	if !ok || strings.Count(path, "/") != 2 {
		return Citation{}, fail(CodePath, "")
	}

	var ids [3]string
	for i := range ids {
		seg, tail, _ := strings.Cut(path, "/")
		path = tail
		id, ok := unescape(seg, false)
		if !ok {
			return Citation{}, fail(CodePercentEncoding, idNames[i])
		}
		ids[i] = TrimSpace(id)
	}
	fields, err := parseQuery(query)
	if err != nil {
		return Citation{}, err
	}
	return assemble(ids, fields)
}

// parseQuery reads the query's fields: each key=value once, every field
// named, all but comment present.
func parseQuery(query string) (*[nFields]*string, *Error) {
	type pair struct {
		key, value string
		bare       bool
	}
	var pairs []pair
	for part := range strings.SplitSeq(query, "&") {
		if part == "" {
			continue
		}
		k, v, hasValue := strings.Cut(part, "=")
		key, ok1 := unescape(k, true)
		value, ok2 := unescape(v, true)
		if !ok1 || !ok2 {
			return nil, fail(CodePercentEncoding, key)
		}
		pairs = append(pairs, pair{key, value, !hasValue})
	}
	var fields [nFields]*string
	for i := range pairs {
		p := &pairs[i]
		if p.bare {
			return nil, fail(CodeBareField, p.key)
		}
		f := slices.Index(fieldNames[:], p.key)
		if f < 0 {
			return nil, fail(CodeUnknownField, p.key)
		}
		if fields[f] != nil {
			return nil, fail(CodeDuplicateField, p.key)
		}
		fields[f] = &p.value
	}
	for f := range fComment {
		if fields[f] == nil {
			return nil, fail(CodeMissingField, fieldNames[f])
		}
	}
	return &fields, nil
}

// assemble makes the citation of the ids and fields of an href and checks
// its values: the head (ids, text, context, comment), the offsets, the tail
// (their order).
func assemble(ids [3]string, fields *[nFields]*string) (Citation, *Error) {
	c := Citation{
		Version:       1,
		EnvironmentID: ids[0],
		ThreadID:      ids[1],
		MessageID:     ids[2],
		Text:          *fields[fText],
		Comment:       fields[fComment],
		Prefix:        *fields[fPrefix],
		Suffix:        *fields[fSuffix],
	}
	if err := c.checkHead(); err != nil {
		return Citation{}, err
	}
	var err *Error
	if c.Start, err = offsetClass(*fields[fStart], "start"); err != nil {
		return Citation{}, err
	}
	if c.End, err = offsetClass(*fields[fEnd], "end"); err != nil {
		return Citation{}, err
	}
	if err := c.checkTail(); err != nil {
		return Citation{}, err
	}
	return c, nil
}

var idNames = [3]string{"environmentId", "threadId", "messageId"}

// parseOffset reads an offset: 1 to 16 ASCII digits (leading zeros allowed)
// whose value is at most MaxOffset.
func parseOffset(s, field string) (int64, *Error) {
	v, err := strconv.ParseUint(s, 10, 64) // 16 digits cannot overflow
	if len(s) > 16 || err != nil {
		return 0, fail(CodeOffsetSyntax, field)
	}
	if v > MaxOffset {
		return 0, fail(CodeOffsetRange, field)
	}
	return int64(v), nil
}

// unescape percent-decodes s (with form, '+' also stands for a space). It
// reports false for a '%' not followed by two hex digits and for decoded
// bytes that are not well-formed UTF-8.
func unescape(s string, form bool) (string, bool) {
	unesc := url.PathUnescape
	if form {
		unesc = url.QueryUnescape
	}
	v, err := unesc(s)
	if err != nil || !utf8.ValidString(v) {
		return "", false
	}
	return v, true
}
