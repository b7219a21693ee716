package features

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/cucumber/godog"
)

// registerQuote registers the phrasings of the quote suite's stories: a
// citation built member by member, cited (quote.format), read back
// (quote.parse) and found in a message (quote.collect).
func (s *scenario) registerQuote(sc *godog.ScenarioContext) {
	sc.Step(`^a citation of message `+q+` in thread `+q+` of environment `+q+`$`, s.aCitation)
	sc.Step(`^the quoted text is `+q+`$`, s.citationString("text"))
	sc.Step(`^the quoted text is:$`, s.citationDoc("text"))
	sc.Step(`^the quote spans (\d+) to (\d+)$`, s.quoteSpans)
	sc.Step(`^the context before it is `+q+` and after it is `+q+`$`, s.quoteContext)
	sc.Step(`^the user comments `+q+`$`, s.citationString("comment"))
	sc.Step(`^the citation member `+q+` is `+q+`$`, s.citationMemberString)
	sc.Step(`^the citation member `+q+` is `+lit+`$`, s.citationMemberJSON)
	sc.Step(`^the citation member `+q+` is the JSON (.+)$`, s.citationMemberJSON)
	sc.Step(`^the user cites it$`, s.citeIt)
	sc.Step(`^the link is `+q+`$`, s.outputMemberIs("link"))
	sc.Step(`^the href is `+q+`$`, s.outputMemberIs("href"))
	sc.Step(`^a client reads the href back$`, s.readHrefBack)
	sc.Step(`^a client reads the href `+q+`$`, s.readHref)
	sc.Step(`^a client reads the href:$`, s.readHrefDoc)
	sc.Step(`^it gets the citation back unchanged$`, s.sameCitation)
	sc.Step(`^the citation's (\w+) is `+q+`$`, s.citationIsString)
	sc.Step(`^the citation's (\w+) is `+lit+`$`, s.citationIsJSON)
	sc.Step(`^the citation has no (\w+)$`, s.citationHasNo)

	sc.Step(`^a message:$`, s.setsMemberDoc("text"))
	sc.Step(`^a message `+q+`$`, s.setsMemberString("text"))
	sc.Step(`^a client collects the citations in it$`, s.callOp("quote.collect"))
	sc.Step(`^it finds (\d+) citations?$`, func(n string) error { return s.outputMemberLen(`citations`, n) })
	sc.Step(`^citation (\d+) spans (\d+) to (\d+)$`, s.collectedSpans)
	sc.Step(`^citation (\d+) quotes `+q+`$`, s.collectedQuotes)
}

func (s *scenario) aCitation(message, thread, env string) error {
	s.citation = object{}
	s.citation.set("version", json.RawMessage("1"))
	for _, m := range [][2]string{{"environmentId", env}, {"threadId", thread}, {"messageId", message}} {
		v, err := quoted(m[1])
		if err != nil {
			return err
		}
		s.citation.set(m[0], marshal(v))
	}
	return nil
}

func (s *scenario) citationString(member string) func(string) error {
	return func(value string) error {
		v, err := quoted(value)
		if err != nil {
			return err
		}
		s.citation.set(member, marshal(v))
		return nil
	}
}

func (s *scenario) citationDoc(member string) func(*godog.DocString) error {
	return func(d *godog.DocString) error {
		v, err := docValue(d)
		if err != nil {
			return err
		}
		s.citation.set(member, v)
		return nil
	}
}

func (s *scenario) quoteSpans(start, end string) error {
	s.citation.set("start", json.RawMessage(start))
	s.citation.set("end", json.RawMessage(end))
	return nil
}

func (s *scenario) quoteContext(prefix, suffix string) error {
	if err := s.citationString("prefix")(prefix); err != nil {
		return err
	}
	return s.citationString("suffix")(suffix)
}

func (s *scenario) citationMemberString(member, value string) error {
	name, err := quoted(member)
	if err != nil {
		return err
	}
	return s.citationString(name)(value)
}

func (s *scenario) citationMemberJSON(member, value string) error {
	name, err := quoted(member)
	if err != nil {
		return err
	}
	v, err := jsonValue(value)
	if err != nil {
		return err
	}
	s.citation.set(name, v)
	return nil
}

func (s *scenario) citeIt(ctx context.Context) error {
	var in object
	in.set("citation", s.citation.json())
	return s.call(ctx, "quote.format", in.json())
}

// outputMemberIs checks a string member of the output at a fixed path.
func (s *scenario) outputMemberIs(path string) func(string) error {
	return func(value string) error { return s.outputMemberString(path, value) }
}

func (s *scenario) readHrefBack(ctx context.Context) error {
	href, err := s.member(s.resp, "the previous output", "href")
	if err != nil {
		return err
	}
	var in object
	in.set("href", href)
	return s.call(ctx, "quote.parse", in.json())
}

func (s *scenario) readHref(ctx context.Context, href string) error {
	v, err := quoted(href)
	if err != nil {
		return err
	}
	var in object
	in.set("href", marshal(v))
	return s.call(ctx, "quote.parse", in.json())
}

func (s *scenario) readHrefDoc(ctx context.Context, d *godog.DocString) error {
	v, err := docValue(d)
	if err != nil {
		return err
	}
	var in object
	in.set("href", v)
	return s.call(ctx, "quote.parse", in.json())
}

func (s *scenario) sameCitation() error {
	return s.outputMember("citation", s.citation.json())
}

func (s *scenario) citationIsString(member, value string) error {
	return s.outputMemberString("citation."+member, value)
}

func (s *scenario) citationIsJSON(member, value string) error {
	return s.outputMemberJSON("citation."+member, value)
}

func (s *scenario) citationHasNo(member string) error {
	return s.outputHasNo("citation." + member)
}

// setsMemberDoc sets an input member of a fixed name from a doc string.
func (s *scenario) setsMemberDoc(member string) func(*godog.DocString) error {
	return func(d *godog.DocString) error { return s.memberDoc(member, d) }
}

// setsMemberString sets an input member of a fixed name from a quoted argument.
func (s *scenario) setsMemberString(member string) func(string) error {
	return func(value string) error { return s.memberString(member, value) }
}

func (s *scenario) callOp(op string) func(context.Context) error {
	return func(ctx context.Context) error { return s.call(ctx, op, nil) }
}

func (s *scenario) collectedSpans(n, start, end string) error {
	p := fmt.Sprintf("citations[%s]", index(n))
	if err := s.outputMemberJSON(p+".start", start); err != nil {
		return err
	}
	return s.outputMemberJSON(p+".end", end)
}

func (s *scenario) collectedQuotes(n, text string) error {
	return s.outputMemberString(fmt.Sprintf("citations[%s].citation.text", index(n)), text)
}

// index turns a 1-based ordinal of a story into a 0-based index.
func index(n string) string {
	var i int
	fmt.Sscan(n, &i)
	return fmt.Sprint(i - 1)
}
