package features

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
)

// registerCompose registers the phrasings of the composer stories: the user
// comments a citation (quote.comment), writes a prompt that is expanded for a
// provider (quote.expand), checked against the input limit
// (quote.submit_check, quote.send_turn), rendered as text (quote.plaintext,
// quote.markdown), and follows a citation to its source (quote.nav_encode,
// quote.nav_decode).
func (s *scenario) registerCompose(sc steps) {
	sc.Step(`^the user sets the comment `+q+`$`, withValue(stringValue, s.setComment))
	sc.Step(`^the user writes the prompt:$`, keep(&s.prompt, docText))
	sc.Step(`^the user writes the prompt `+q+`$`, keep(&s.prompt, quoted))
	sc.Step(`^the user writes a prompt of `+q+` repeated (\d+) times(?: then `+q+`)?$`, s.promptRepeated)
	sc.Step(`^the prompt is sent to a provider$`, s.promptOp("quote.expand", "prompt"))
	sc.Step(`^the prompt is shown as plain text$`, s.promptOp("quote.plaintext", "prompt"))
	sc.Step(`^the prompt is shown as Markdown$`, s.promptOp("quote.markdown", "prompt"))
	sc.Step(`^the server receives it as a provider turn$`, s.promptOp("quote.send_turn", "input"))
	sc.Step(`^the server receives it as the answer to a pending question$`, s.promptOp("quote.send_turn", "input", target("pending-user-input")))
	sc.Step(`^the user cites the commented citation$`, s.citeCommented)
	sc.Step(`^the source thread's history has (\d+) earlier pages?$`, s.historyPages)
	sc.Step(`^the source thread's history has the pages `+lit+`$`, at("cursors", withValue(jsonValue, s.input.setNamed)))
	sc.Step(`^the source is on page (\d+)$`, func(n string) error { s.input.set("source_page", json.RawMessage(n)); return nil })
	sc.Step(`^the user opens a citation whose source is not loaded$`, s.callOp("quote.nav_history"))
	sc.Step(`^(\d+) pages? (?:is|are) loaded and loading stops: (found|exhausted|page_limit|repeated_cursor)$`, s.historyLoaded)
	sc.Step(`^(a|no) warning is shown$`, func(w string) error { return s.outputMember("warning", marshal(w == "a")) })
	sc.Step(`^it reads:$`, at("text", withValue(docValue, s.outputMember)))
	sc.Step(`^it reads `+q+`$`, s.outputMemberIs("text"))
	sc.Step(`^the composer checks it before a provider turn$`, s.promptOp("quote.submit_check", "prompt", target("provider-turn")))
	sc.Step(`^the composer checks it as the answer to a pending question$`, s.promptOp("quote.submit_check", "prompt", target("pending-user-input")))
	sc.Step(`^the send may go ahead$`, func() error { return s.outputInline(`{"ok": true}`) })
	sc.Step(`^the send is blocked, (\d+) over, with the message `+q+`$`, s.blocked)
	sc.Step(`^the user opens the citation's source$`, s.citationOp("quote.nav_encode"))
	sc.Step(`^the location hash is `+q+`$`, s.outputMemberIs("hash"))
	sc.Step(`^the source thread opens the location `+q+`$`, s.navDecode)
	sc.Step(`^the source thread opens a location ending in that hash$`, s.navDecodeHash)
	sc.Step(`^the source thread opens the location `+q+` followed by `+q+` repeated (\d+) times$`, s.navDecodeLong)
}

// setComment sets the citation's comment with quote.comment.
func (s *scenario) setComment(ctx context.Context, comment json.RawMessage) error {
	return s.call(ctx, "quote.comment", object{{"citation", s.citation.json()}, {"comment", comment}}.json())
}

func (s *scenario) promptRepeated(unit, n, tail string) error {
	t, err := repeated("", unit, n, tail)
	s.prompt = t
	return err
}

// promptOp sends the prompt as the member named as of op's input, followed
// by the members of more.
func (s *scenario) promptOp(op, as string, more ...member) func(context.Context) error {
	return func(ctx context.Context) error {
		return s.call(ctx, op, append(object{{as, marshal(s.prompt)}}, more...).json())
	}
}

// target is the member naming what a prompt is sent as: "provider-turn",
// or "pending-user-input" for the answer to a pending question.
func target(t string) member { return member{"target", marshal(t)} }

func (s *scenario) blocked(excess, message string) error {
	m, err := quoted(message)
	if err != nil {
		return err
	}
	want := object{{"ok", json.RawMessage("false")}, {"excess", json.RawMessage(excess)}, {"message", marshal(m)}}
	return s.outputIs(want.json())
}

func (s *scenario) navDecode(ctx context.Context, location string) error {
	l, err := quoted(location)
	if err != nil {
		return err
	}
	return s.call(ctx, "quote.nav_decode", object{{"location", marshal(l)}}.json())
}

func (s *scenario) navDecodeHash(ctx context.Context) error {
	hash, err := s.outputString("hash")
	if err != nil {
		return err
	}
	return s.navDecode(ctx, marshalString(fmt.Sprintf("https://app.example/env-1/thread-1#%s", hash)))
}

func (s *scenario) navDecodeLong(ctx context.Context, head, unit, n string) error {
	location, err := repeated(head, unit, n, "")
	if err != nil {
		return err
	}
	return s.navDecode(ctx, marshalString(location))
}

// marshalString returns s in the quoted-argument form: JSON string content.
func marshalString(s string) string {
	b := marshal(s)
	return string(b[1 : len(b)-1])
}

// citeCommented formats the citation that the last quote.comment answered,
// so that a story can follow a comment edit into the serialized link.
func (s *scenario) citeCommented(ctx context.Context) error {
	if s.op != "quote.comment" {
		return s.failf("the last request was %q, not quote.comment", s.op)
	}
	c, ok, _ := lookup(s.resp.Output, "citation")
	if !ok {
		return s.failf("quote.comment answered no citation")
	}
	return s.call(ctx, "quote.format", object{{"citation", c}}.json())
}

// historyPages sets a history of n pages with distinct cursors p1, p2, ...
func (s *scenario) historyPages(n int) error {
	cursors := make([]string, n)
	for i := range cursors {
		cursors[i] = "p" + strconv.Itoa(i+1)
	}
	s.input.set("cursors", marshal(cursors))
	return nil
}

func (s *scenario) historyLoaded(pages, stop string) error {
	if err := s.outputMember("pages", json.RawMessage(pages)); err != nil {
		return err
	}
	return s.outputMember("stop", marshal(stop))
}
