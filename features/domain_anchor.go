package features

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/cucumber/godog"
)

// registerAnchor registers the phrasings of the quote anchoring stories: a
// user selects a span of an assistant response (quote.select), and a client
// later finds it again (quote.resolve) in the response as it then reads.
func (s *scenario) registerAnchor(sc steps) {
	sc.Step(`^(?:an assistant response|the response later reads):$`, keep(&s.response, docText))
	sc.Step(`^(?:an assistant response|the response later reads) `+q+`$`, keep(&s.response, quoted))
	sc.Step(`^an assistant response of `+q+` repeated (\d+) times$`, s.responseRepeated)
	sc.Step(`^the user selects (?:occurrence (\d+) of )?`+q+`$`, s.selectNth)
	sc.Step(`^the user selects from (-?\d+) to (-?\d+)$`, s.selectOffsets)
	sc.Step(`^the selector is:$`, at("selector", withValue(docValue, s.outputMember)))
	sc.Step(`^the selector's (\w+) is `+q+`$`, under("selector.", withValue(stringValue, s.outputMember)))
	sc.Step(`^the selector's (\w+) is `+lit+`$`, under("selector.", withValue(jsonValue, s.outputMember)))
	sc.Step(`^the client looks for the saved selector$`, s.resolveSaved)
	sc.Step(`^the client looks for the selector:$`, withValue(jsonDoc, s.resolve))
	sc.Step(`^the client looks for `+q+` between `+q+` and `+q+`$`, s.resolveQuote)
	sc.Step(`^it is found from (\d+) to (\d+)$`, func(start, end string) error {
		return s.outputInline(fmt.Sprintf(`{"match": {"start": %s, "end": %s}}`, start, end))
	})
	sc.Step(`^it is ambiguous$`, func() error { return s.outputInline(`{"match": null, "reason": "ambiguous"}`) })
	sc.Step(`^it is not found$`, func() error { return s.outputInline(`{"match": null, "reason": "not_found"}`) })
	sc.Step(`^the response is normalized$`, func(ctx context.Context) error {
		return s.call(ctx, "quote.normalize", object{{"text", marshalText(s.response)}}.json())
	})
	sc.Step(`^an assistant response rendered from the HTML:$`, s.responseFromHTML)
	sc.Step(`^its text stream reads `+q+`$`, s.outputMemberIs("text"))
	sc.Step(`^its line feeds are inserted at `+lit+`$`, at("breaks", withValue(jsonValue, s.outputMember)))
	sc.Step(`^the user triple-clicks, the browser reporting (\d+) to (\d+)$`, s.tripleClick)
	sc.Step(`^the user drags backward from (\d+) to (\d+)$`, s.dragBackward)
	sc.Step(`^the normalized text is `+q+`$`, s.outputMemberIs("text"))
}

func (s *scenario) responseRepeated(unit, n string) error {
	t, err := repeated("", unit, n, "")
	s.response = t
	return err
}

// utf16Len is the length of s in UTF-16 code units, the unit of the quote suite.
func utf16Len(s string) int { return len(keyUnits(s)) }

// selectNth selects the nth occurrence (1-based, the first when nth is "")
// of text in the response, converting its place to UTF-16 offsets.
func (s *scenario) selectNth(ctx context.Context, nth, text string) error {
	t, err := quoted(text)
	if err != nil {
		return err
	}
	n, _ := strconv.Atoi(cmp.Or(nth, "1"))
	from := 0
	for i := 1; ; i++ {
		j := strings.Index(s.response[from:], t)
		if j < 0 || t == "" {
			return fmt.Errorf("the response holds no occurrence %d of %q", n, t)
		}
		if i == n {
			start := utf16Len(s.response[:from+j])
			return s.selectOffsets(ctx, start, start+utf16Len(t))
		}
		from += j + 1
	}
}

func (s *scenario) selectOffsets(ctx context.Context, start, end int) error {
	return s.selectInput(ctx, object{{"text", marshalText(s.response)}, {"start", marshal(start)}, {"end", marshal(end)}})
}

// selectInput calls quote.select and saves the selector it answers.
func (s *scenario) selectInput(ctx context.Context, in object) error {
	if err := s.call(ctx, "quote.select", in.json()); err != nil {
		return err
	}
	if sel, ok, _ := lookup(s.resp.Output, "selector"); ok {
		s.selector = sel
	}
	return nil
}

func (s *scenario) resolve(ctx context.Context, selector json.RawMessage) error {
	return s.call(ctx, "quote.resolve", object{{"text", marshalText(s.response)}, {"selector", selector}}.json())
}

// resolveSaved looks for the selector the last quote.select answered.
func (s *scenario) resolveSaved(ctx context.Context) error {
	if s.selector == nil {
		return s.failf("no selection was saved before this step")
	}
	return s.resolve(ctx, s.selector)
}

// resolveQuote looks for a quote with its context; the saved offsets are 0
// and the quote's length, which QUOTE-ANCHOR-032 says never matter.
func (s *scenario) resolveQuote(ctx context.Context, text, prefix, suffix string) error {
	t, errText := quoted(text)
	p, errPrefix := quoted(prefix)
	x, errSuffix := quoted(suffix)
	if err := cmp.Or(errText, errPrefix, errSuffix); err != nil {
		return err
	}
	end := json.RawMessage(strconv.Itoa(max(1, utf16Len(t))))
	sel := object{{"text", marshal(t)}, {"start", json.RawMessage("0")}, {"end", end}, {"prefix", marshal(p)}, {"suffix", marshal(x)}}
	return s.resolve(ctx, sel.json())
}

// responseFromHTML builds the response's text stream from HTML with
// quote.dom_text and keeps its inserted line feeds for a later selection.
func (s *scenario) responseFromHTML(ctx context.Context, d *godog.DocString) error {
	html, err := literal(d.Content)
	if err != nil {
		return err
	}
	if err := s.call(ctx, "quote.dom_text", object{{"html", marshal(html)}}.json()); err != nil {
		return err
	}
	text, err := s.outputString("text")
	if err != nil {
		return err
	}
	breaks, ok, _ := lookup(s.resp.Output, "breaks")
	if !ok {
		return s.failf("the output has no member \"breaks\"")
	}
	s.response, s.breaks = text, breaks
	return nil
}

// tripleClick selects the raw range a browser reports for a triple click,
// with the response's inserted line feeds, so the implementation narrows it.
func (s *scenario) tripleClick(ctx context.Context, start, end string) error {
	if s.breaks == nil {
		return s.failf("no response was rendered from HTML before this step")
	}
	return s.selectInput(ctx, object{
		{"text", marshalText(s.response)}, {"start", json.RawMessage(start)}, {"end", json.RawMessage(end)}, {"breaks", s.breaks},
	})
}

// dragBackward selects from anchor back to focus, a backward selection.
func (s *scenario) dragBackward(ctx context.Context, anchor, focus string) error {
	in := object{{"text", marshalText(s.response)}, {"anchor", json.RawMessage(anchor)}, {"focus", json.RawMessage(focus)}}
	if s.breaks != nil {
		in.set("breaks", s.breaks)
	}
	return s.selectInput(ctx, in)
}
