package features

import (
	"cmp"
	"context"
	"encoding/json"
	"strconv"
	"strings"
)

// registerSelref registers the phrasings of the selref suite's stories: an
// app declares a reference (selref.ingest) and a later turn replays the
// message that made it (selref.replay).
func (s *scenario) registerSelref(sc steps) {
	sc.Step(`^an app declares a reference labelled `+q+`$`, s.declareLabelled)
	sc.Step(`^an app declares a reference whose label is `+q+` repeated (\d+) times(?: then `+q+`)?$`, s.declareRepeated)
	sc.Step(`^an app declares a reference without a label$`, func() { s.reference = object{} })
	sc.Step(`^its (vance|web) address is `+q+`$`, func(kind, v string) error { return withValue(stringValue, s.reference.setNamed)(addresses[kind], v) })
	sc.Step(`^its (vance|web) address is `+q+` followed by `+q+` repeated (\d+) times$`, s.longAddress)
	sc.Step(`^the reference member `+q+` is the JSON (.+)$`, withValue(jsonValue, s.reference.setNamed))
	sc.Step(`^the reference is ingested$`, func(ctx context.Context) error { return s.call(ctx, "selref.ingest", s.reference.json()) })
	sc.Step(`^the stored reference is ingested again$`, s.ingestAgain)
	sc.Step(`^the stored label is `+q+`$`, s.outputMemberIs("reference.label"))
	sc.Step(`^the stored label is `+q+` repeated (\d+) times(?: then `+q+`)?$`, s.storedLabelRepeated)
	sc.Step(`^the stored (vance|web) address is `+q+`$`, func(kind, v string) error { return s.outputMemberIs("reference." + addresses[kind])(v) })
	sc.Step(`^the reference has no (vance|web) address$`, func(kind string) error { return s.outputHasNo("reference." + addresses[kind]) })
	sc.Step(`^the message `+q+` is replayed with it$`, func(ctx context.Context, body string) error {
		return s.replay(ctx, body, member{"reference", s.reference.json()})
	})
	sc.Step(`^the message `+q+` is replayed without a reference$`, func(ctx context.Context, body string) error { return s.replay(ctx, body) })
	sc.Step(`^the message `+q+` is replayed with the stored reference (.+)$`, s.replayWithJSON)
	sc.Step(`^the message `+q+` of (the current|an earlier) turn is replayed with it$`, s.replayTurn)
	sc.Step(`^the reference is shown in the chat$`, func(ctx context.Context) error { return s.bubble(ctx, s.reference.json()) })
	sc.Step(`^the stored reference (.+) is shown in the chat$`, withValue(jsonValue, s.bubble))
	sc.Step(`^a message without a reference is shown in the chat$`, func(ctx context.Context) error { return s.bubble(ctx, nil) })
	sc.Step(`^the bubble reads `+q+`$`, s.outputMemberIs("markdown"))
	sc.Step(`^the bubble reads:$`, at("markdown", withValue(docValue, s.outputMember)))
	sc.Step(`^there is no bubble$`, func() error { return s.outputMember("markdown", marshal("")) })
	sc.Step(`^the model reads `+q+`$`, s.outputMemberIs("text"))
	sc.Step(`^the model reads:$`, at("text", withValue(docValue, s.outputMember)))
}

// addresses are the reference's members of its vance and web addresses.
var addresses = map[string]string{"vance": "vanceUri", "web": "url"}

func (s *scenario) declareLabelled(label string) error {
	s.reference = object{}
	return withValue(stringValue, s.reference.setNamed)("label", label)
}

// repeated builds a string of head, n copies of unit, then tail, all
// quoted arguments but n.
func repeated(head, unit, n, tail string) (string, error) {
	h, errHead := quoted(head)
	u, errUnit := quoted(unit)
	t, errTail := quoted(tail)
	count, errN := strconv.Atoi(n)
	if err := cmp.Or(errHead, errUnit, errTail, errN); err != nil {
		return "", err
	}
	return h + strings.Repeat(u, count) + t, nil
}

func (s *scenario) declareRepeated(unit, n, tail string) error {
	label, err := repeated("", unit, n, tail)
	if err != nil {
		return err
	}
	s.reference = object{{"label", marshal(label)}}
	return nil
}

func (s *scenario) longAddress(kind, head, unit, n string) error {
	v, err := repeated(head, unit, n, "")
	if err != nil {
		return err
	}
	s.reference.set(addresses[kind], marshal(v))
	return nil
}

func (s *scenario) ingestAgain(ctx context.Context) error {
	stored, err := s.member(s.resp, "the previous output", "reference")
	if err != nil {
		return err
	}
	return s.call(ctx, "selref.ingest", stored)
}

func (s *scenario) storedLabelRepeated(unit, n, tail string) error {
	label, err := repeated("", unit, n, tail)
	if err != nil {
		return err
	}
	return s.outputMember("reference.label", marshal(label))
}

// replay replays the message body with the members of more: its
// reference, whether it belongs to the current turn.
func (s *scenario) replay(ctx context.Context, body string, more ...member) error {
	b, err := stringValue(body)
	if err != nil {
		return err
	}
	return s.call(ctx, "selref.replay", append(object{{"body", b}}, more...).json())
}

// replayTurn replays the message with the declared reference, saying
// explicitly whether it belongs to the current turn (SELREF-REPLAY-007).
func (s *scenario) replayTurn(ctx context.Context, body, turn string) error {
	return s.replay(ctx, body, member{"reference", s.reference.json()}, member{"current", marshal(turn == "the current")})
}

// bubble asks for the history bubble of a stored reference; nil sends none.
func (s *scenario) bubble(ctx context.Context, reference json.RawMessage) error {
	var in object
	if reference != nil {
		in.set("reference", reference)
	}
	return s.call(ctx, "selref.bubble", in.json())
}

func (s *scenario) replayWithJSON(ctx context.Context, body, reference string) error {
	v, err := jsonValue(reference)
	if err != nil {
		return err
	}
	return s.replay(ctx, body, member{"reference", v})
}
