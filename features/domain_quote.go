package features

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/conform-suite/conform/internal/jsonv"
)

// registerQuote registers the phrasings of the quote suite's stories: a
// citation built member by member, cited (quote.format), read back
// (quote.parse) and found in a message (quote.collect).
func (s *scenario) registerQuote(sc steps) {
	sc.Step(`^a citation of message `+q+` in thread `+q+` of environment `+q+`$`, s.aCitation)
	sc.Step(`^the quoted text is `+q+`$`, at("text", withValue(stringValue, s.citation.setNamed)))
	sc.Step(`^the quoted text is:$`, at("text", withValue(docValue, s.citation.setNamed)))
	sc.Step(`^the quote spans (\d+) to (\d+)$`, s.quoteSpans)
	sc.Step(`^the context before it is `+q+` and after it is `+q+`$`, s.quoteContext)
	sc.Step(`^the user comments `+q+`$`, at("comment", withValue(stringValue, s.citation.setNamed)))
	sc.Step(`^the citation member `+q+` is `+q+`$`, withValue(stringValue, s.citation.setNamed))
	sc.Step(`^the citation member `+q+` is `+lit+`$`, withValue(jsonValue, s.citation.setNamed))
	sc.Step(`^the citation member `+q+` is the JSON (.+)$`, withValue(jsonValue, s.citation.setNamed))
	sc.Step(`^the user cites it$`, s.citationOp("quote.format"))
	sc.Step(`^the (link|href) is `+q+`$`, withValue(stringValue, s.outputMember))
	sc.Step(`^a client reads the href back$`, s.readHrefBack)
	sc.Step(`^a client reads the href `+q+`$`, withValue(stringValue, s.readHref))
	sc.Step(`^a client reads the href:$`, withValue(docValue, s.readHref))
	sc.Step(`^a client reads an href whose (\w+) is `+q+` repeated (\d+) times$`, s.readLongHref)
	sc.Step(`^it gets the citation back unchanged$`, func() error { return s.outputMember("citation", s.citation.json()) })
	sc.Step(`^the citation's members come in the order (.+)$`, s.memberOrder)
	sc.Step(`^the citation's (\w+) is `+q+`$`, under("citation.", withValue(stringValue, s.outputMember)))
	sc.Step(`^the citation's (\w+) is `+lit+`$`, under("citation.", withValue(jsonValue, s.outputMember)))
	sc.Step(`^the citation has no (\w+)$`, func(name string) error { return s.outputHasNo("citation." + name) })

	sc.Step(`^a message:$`, at("text", withValue(docValue, s.setMember)))
	sc.Step(`^a message `+q+`$`, at("text", withValue(stringValue, s.setMember)))
	sc.Step(`^a client collects the citations in it$`, s.callOp("quote.collect"))
	sc.Step(`^it finds (\d+) citations?$`, func(n string) error { return s.outputMemberLen(`citations`, n) })
	sc.Step(`^citation (\d+) spans (\d+) to (\d+)$`, s.collectedSpans)
	sc.Step(`^citation (\d+) quotes `+q+`$`, func(n int, text string) error {
		return s.outputMemberIs(fmt.Sprintf("citations[%d].citation.text", n-1))(text)
	})
}

func (s *scenario) aCitation(message, thread, env string) error {
	s.citation = object{{"version", json.RawMessage("1")}}
	for _, m := range [][2]string{{"environmentId", env}, {"threadId", thread}, {"messageId", message}} {
		v, err := stringValue(m[1])
		if err != nil {
			return err
		}
		s.citation.set(m[0], v)
	}
	return nil
}

func (s *scenario) quoteSpans(start, end string) error {
	s.citation.set("start", json.RawMessage(start))
	s.citation.set("end", json.RawMessage(end))
	return nil
}

func (s *scenario) quoteContext(prefix, suffix string) error {
	set := withValue(stringValue, s.citation.setNamed)
	if err := set("prefix", prefix); err != nil {
		return err
	}
	return set("suffix", suffix)
}

// citationOp calls op with the citation the story built.
func (s *scenario) citationOp(op string) func(context.Context) error {
	return func(ctx context.Context) error {
		return s.call(ctx, op, object{{"citation", s.citation.json()}}.json())
	}
}

func (s *scenario) readHrefBack(ctx context.Context) error {
	href, err := s.member(s.resp, "the previous output", "href")
	if err != nil {
		return err
	}
	return s.readHref(ctx, href)
}

// readHref reads the href back with quote.parse.
func (s *scenario) readHref(ctx context.Context, href json.RawMessage) error {
	return s.call(ctx, "quote.parse", object{{"href", href}}.json())
}

// longHrefs are the hrefs a story varies one field of, by field: %s stands
// for the field, a path segment for an id and a query value otherwise.
var longHrefs = map[string]string{
	"environmentId": "t3-citation://v1/%s/thread/msg?text=q&start=0&end=1&prefix=&suffix=",
	"threadId":      "t3-citation://v1/env/%s/msg?text=q&start=0&end=1&prefix=&suffix=",
	"messageId":     "t3-citation://v1/env/thread/%s?text=q&start=0&end=1&prefix=&suffix=",
	"text":          "t3-citation://v1/env/thread/msg?text=%s&start=0&end=1&prefix=&suffix=",
	"start":         "t3-citation://v1/env/thread/msg?text=q&start=%s&end=1&prefix=&suffix=",
	"end":           "t3-citation://v1/env/thread/msg?text=q&start=0&end=%s&prefix=&suffix=",
	"prefix":        "t3-citation://v1/env/thread/msg?text=q&start=0&end=1&prefix=%s&suffix=",
	"suffix":        "t3-citation://v1/env/thread/msg?text=q&start=0&end=1&prefix=&suffix=%s",
	"comment":       "t3-citation://v1/env/thread/msg?text=q&start=0&end=1&prefix=&suffix=&comment=%s",
}

// readLongHref reads the href of longHrefs whose field is made of an
// href-encoded unit repeated n times.
func (s *scenario) readLongHref(ctx context.Context, field, unit, n string) error {
	value, err := repeated("", unit, n, "")
	if err != nil {
		return err
	}
	href, ok := longHrefs[field]
	if !ok {
		return fmt.Errorf("a citation has no field %q", field)
	}
	return s.readHref(ctx, marshal(fmt.Sprintf(href, value)))
}

// memberOrder checks the order in which the output's citation writes its
// members (QUOTE-LINK-001), which a comparison of JSON values ignores.
func (s *scenario) memberOrder(list string) error {
	c, err := s.member(s.resp, "the output", "citation")
	if err != nil {
		return err
	}
	v, err := jsonv.Parse(c)
	if err != nil || v.Type != jsonv.Object {
		return s.failf("the citation is not an object")
	}
	var want, got []string
	for _, m := range quotedName.FindAllStringSubmatch(list, -1) {
		want = append(want, m[1])
	}
	for _, m := range v.Members {
		got = append(got, jsonv.Key(m.Name))
	}
	if !slices.Equal(got, want) {
		return s.failf("the citation's members come in the order %q, want %q", got, want)
	}
	return nil
}

func (s *scenario) callOp(op string) func(context.Context) error {
	return func(ctx context.Context) error { return s.call(ctx, op, nil) }
}

// collectedSpans checks citation n, counted from 1, of those collected.
func (s *scenario) collectedSpans(n int, start, end string) error {
	p := fmt.Sprintf("citations[%d]", n-1)
	if err := s.outputMember(p+".start", json.RawMessage(start)); err != nil {
		return err
	}
	return s.outputMember(p+".end", json.RawMessage(end))
}
