package main

import (
	"bytes"
	"encoding/json"
	"net/url"
	"strings"
)

// The JSON and percent encoders of a Go port: quote.json, quote.path.

func init() {
	builtin("go:json.Marshal", "quote.json", "quote.expand", []string{"QUOTE-COMPOSE-016"},
		"writes each string of the block's data with json.Marshal(s): U+2028 and U+2029 become \\u2028 and \\u2029",
		expandStrings(func(s string) []byte {
			b, err := json.Marshal(s)
			if err != nil {
				fatal(err)
			}
			return b
		}))
	builtin("go:json.Encoder(SetEscapeHTML(false))", "quote.json", "quote.expand", []string{"QUOTE-COMPOSE-017"},
		"writes each string of the block's data with a json.Encoder after SetEscapeHTML(false): <, > and & stay as they are",
		expandStrings(func(s string) []byte {
			var b bytes.Buffer
			enc := json.NewEncoder(&b)
			enc.SetEscapeHTML(false)
			if err := enc.Encode(s); err != nil {
				fatal(err)
			}
			return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
		}))
	builtin("go:url.PathEscape", "quote.path", "quote.format", []string{"QUOTE-LINK-010"},
		"percent-encodes each id with url.PathEscape(id): $ & + : = and @ stay literal in a path segment",
		formatIDs(url.PathEscape))
	builtin("go:url.QueryEscape", "quote.path", "quote.format", []string{"QUOTE-LINK-010"},
		"percent-encodes each id with url.QueryEscape(id): a space is +, ~ is %7E",
		formatIDs(url.QueryEscape))
}

const blockOpen, blockClose = "<assistant_citations>\n", "\n</assistant_citations>"

// expandStrings writes every string literal of the expansion block's data
// again with write(its value); everything between them stays as written.
func expandStrings(write func(string) []byte) func(*reference, *request, *answer) []byte {
	return func(_ *reference, _ *request, a *answer) []byte {
		text, ok := str(a.Output, "text")
		if !ok {
			return nil
		}
		i := strings.Index(text, blockOpen)
		if i < 0 {
			return nil
		}
		j := strings.Index(text[i:], "\n[")
		if j < 0 {
			return nil
		}
		j += i + 1
		k := strings.Index(text[j:], blockClose)
		if k < 0 {
			return nil
		}
		k += j
		var b bytes.Buffer
		data := text[j:k]
		for len(data) > 0 {
			q := strings.IndexByte(data, '"')
			if q < 0 {
				b.WriteString(data)
				break
			}
			b.WriteString(data[:q])
			end := literalEnd(data[q:])
			var s string
			if end < 0 || json.Unmarshal([]byte(data[q:q+end]), &s) != nil {
				return nil
			}
			b.Write(write(s))
			data = data[q+end:]
		}
		return line(a.ID, with(a.Output, "text", text[:j]+b.String()+text[k:]))
	}
}

// literalEnd is the length of the JSON string literal s begins with, or -1.
func literalEnd(s string) int {
	for i := 1; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return -1
}

const hrefHead = "t3-citation://v1/"

// formatIDs writes the href's three ids again with escape(id), in the href
// and in the link that holds it.
func formatIDs(escape func(string) string) func(*reference, *request, *answer) []byte {
	return func(_ *reference, r *request, a *answer) []byte {
		old, ok := str(a.Output, "href")
		cit, isObject := object(r.Input, "citation")
		if !ok || !isObject || !strings.HasPrefix(old, hrefHead) {
			return nil
		}
		var ids []string
		for _, k := range []string{"environmentId", "threadId", "messageId"} {
			id, ok := str(cit, k)
			if !ok {
				return nil
			}
			ids = append(ids, escape(id))
		}
		_, query, _ := strings.Cut(old, "?")
		href := hrefHead + strings.Join(ids, "/") + "?" + query
		out := with(a.Output, "href", href)
		if link, ok := str(a.Output, "link"); ok {
			out["link"] = strings.ReplaceAll(link, old, href)
		}
		return line(a.ID, out)
	}
}
