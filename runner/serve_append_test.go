package runner

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/conform-suite/conform/protocol"
	"pgregory.net/rapid"
)

// upper is the reference with its Call overridden (a proxy that rewrites
// answers): the server must answer it through that Call.
type upper struct{ InProcess }

func (u upper) Call(ctx context.Context, req protocol.Request) (protocol.Response, error) {
	resp, err := u.InProcess.Call(ctx, req)
	resp.Output = bytes.ToUpper(resp.Output)
	return resp, err
}

// TestAppendAnswerNotForEmbedders: a type that embeds the reference and
// overrides Call is answered through its Call, not the embedded
// AppendAnswer.
func TestAppendAnswerNotForEmbedders(t *testing.T) {
	out := protocol.ServeLine(context.Background(), upper{}, []byte(`{"id":1,"op":"hello","input":{"protocol":1}}`))
	if !bytes.Contains(out, []byte(`"NAME":"CONFORM-REFERENCE"`)) {
		t.Errorf("ServeLine(upper) = %s, want the answer of upper's Call", out)
	}
}

// callOnly hides every method of an Implementation but Call and Close, so
// that the server answers through Call.
type callOnly struct{ Implementation }

// TestAppendAnswerAsCall: the in-process reference's own answer lines
// (AnswerAppender) are byte for byte the lines the server makes of Call's
// answers, for every vector of the corpus, and for request lines with
// escapes, lone surrogates, big numbers and members named twice.
func TestAppendAnswerAsCall(t *testing.T) {
	ctx := context.Background()
	same := func(t interface{ Fatalf(string, ...any) }, line []byte) {
		got, want := protocol.ServeLine(ctx, InProcess{}, line), protocol.ServeLine(ctx, callOnly{InProcess{}}, line)
		// quote.format names the first missing member it finds in a map's
		// order, which changes from call to call: such an answer is
		// matched against a few more of Call's.
		for i := 0; i < 50 && !bytes.Equal(got, want) && bytes.Contains(got, []byte(`"message":"input: citation: missing `)); i++ {
			want = protocol.ServeLine(ctx, callOnly{InProcess{}}, line)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("ServeLine(%.300q):\nappended %.300s\nCall     %.300s", line, got, want)
		}
	}
	for i, v := range corpus(t) {
		line, err := RequestLine(protocol.Request{ID: protocol.IntID(int64(i)), Op: v.Op, Input: v.Input})
		if err != nil {
			t.Fatal(err)
		}
		same(t, []byte(line[:len(line)-1]))
	}
	for _, line := range []string{
		`{"id":"é\u0026","op":"quote.parse","input":{"href":"t3-citation://v1/e/t/m?text=a&start=0&end=1"}}`,
		`{"id":1,"op":"quote.parse","input":{"href":"t3-citation://v1/e/t/m?text=\ud83d&start=0&end=1"}}`,
		`{"id":1,"op":"quote.parse","input":{"href":"x","href":"y"}}`,
		`{"id":1,"op":"quote.parse","input":{"Href":"x"}}`,
		`{"id":1,"op":"quote.parse","input":{"href":"x","extra":1e999999}}`,
		`{"id":1,"op":"quote.format","input":{"citation":{"version":1e400,"environmentId":"e","threadId":"t","messageId":"m","text":"a","start":0,"end":1,"prefix":"","suffix":""}}}`,
		`{"id":1,"op":"quote.format","input":{"citation":{"version":1,"environmentId":"\udc00","threadId":"t","messageId":"m","text":"a","start":0,"end":1,"prefix":"","suffix":""}}}`,
		`{"id":9223372036854775807,"op":"nosuch.op","input":{}}`,
		`{"id":1,"op":"hello","input":{"protocol":1}}`,
	} {
		same(t, []byte(line))
	}
	// A context that has ended is answered alike.
	done, cancel := context.WithCancel(ctx)
	cancel()
	line := []byte(`{"id":3,"op":"quote.parse","input":{"href":"x"}}`)
	if got, want := protocol.ServeLine(done, InProcess{}, line), protocol.ServeLine(done, callOnly{InProcess{}}, line); !bytes.Equal(got, want) {
		t.Errorf("ended context: appended %s, Call %s", got, want)
	}
	// quote.parse on hrefs drawn from a few tricky pieces.
	pieces := []string{"t3-citation://v1/", "e", "/", "?", "&", "=", "text=", "start=", "end=", "0", "1", "99999999999999999999",
		"%E4%B8%AD", "%F0%9F%98%80", "%ED%A0%80", "%FF", "%", "é", "😀", `\ud83d`, `\u0000`, `\"`, `\\`, "<&>", "\u2028"}
	rapid.Check(t, func(rt *rapid.T) {
		href := strings.Join(rapid.SliceOfN(rapid.SampledFrom(pieces), 0, 30).Draw(rt, "href"), "")
		same(rt, []byte(`{"id":7,"op":"quote.parse","input":{"href":"`+href+`"}}`))
	})
}
