package quote

import (
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
		f := fieldIndex(p.key)
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
	if c.Start, err = parseOffset(*fields[fStart], "start"); err != nil {
		return Citation{}, err
	}
	if c.End, err = parseOffset(*fields[fEnd], "end"); err != nil {
		return Citation{}, err
	}
	if err := c.checkTail(); err != nil {
		return Citation{}, err
	}
	return c, nil
}

var idNames = [3]string{"environmentId", "threadId", "messageId"}

func fieldIndex(key string) int {
	for i, name := range fieldNames {
		if key == name {
			return i
		}
	}
	return -1
}

// parseOffset reads an offset: 1 to 16 ASCII digits (leading zeros allowed)
// whose value is at most MaxOffset.
func parseOffset(s, field string) (int64, *Error) {
	if len(s) < 1 || len(s) > 16 {
		return 0, fail(CodeOffsetSyntax, field)
	}
	var v int64
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, fail(CodeOffsetSyntax, field)
		}
		v = v*10 + int64(c-'0') // 16 digits cannot overflow int64
	}
	if v > MaxOffset {
		return 0, fail(CodeOffsetRange, field)
	}
	return v, nil
}

// unescape percent-decodes s (with form, '+' also stands for a space). It
// reports false for a '%' not followed by two hex digits and for decoded
// bytes that are not well-formed UTF-8.
func unescape(s string, form bool) (string, bool) {
	if !strings.ContainsAny(s, "%+") {
		return s, true
	}
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '%':
			if i+2 >= len(s) {
				return "", false
			}
			hi, ok1 := unhex(s[i+1])
			lo, ok2 := unhex(s[i+2])
			if !ok1 || !ok2 {
				return "", false
			}
			b = append(b, hi<<4|lo)
			i += 2
		case c == '+' && form:
			b = append(b, ' ')
		default:
			b = append(b, c)
		}
	}
	if !utf8.Valid(b) {
		return "", false
	}
	return string(b), true
}

func unhex(c byte) (byte, bool) {
	switch {
	case '0' <= c && c <= '9':
		return c - '0', true
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10, true
	case 'A' <= c && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}
