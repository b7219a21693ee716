package runner

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/conform-suite/conform/internal/jsonv"
	"github.com/conform-suite/conform/internal/safetext"
	"github.com/conform-suite/conform/internal/schemaset"
	"github.com/conform-suite/conform/protocol"
	"github.com/conform-suite/conform/vectors"
)

// DoctorOptions configure Doctor.
type DoctorOptions struct {
	Schemas *schemaset.Set // the schemas messages are checked against
	Timeout time.Duration  // bounds each request
	Pings   int            // hello round trips timed; 0 times none
}

// A DoctorLine is one line of a doctor's findings: a check that passed
// (Mark "ok") or failed ("FAIL"), a note ("note") or a figure (""). Text
// is safe to print (safetext).
type DoctorLine struct {
	Mark, Text string
}

// Doctor checks how impl speaks the protocol, without judging its answers:
// the hello handshake (hello is the handshake's answer, nil when impl does
// not know hello), the answer to an unknown op, the shape of every answer
// to the vectors vs and of every output (schemas/protocol.schema.json,
// schemas/ops/OP.json), and the time a request takes. Each finding goes to
// emit as it is made; Doctor returns the number of checks passed and
// failed.
func Doctor(ctx context.Context, impl Implementation, hello *protocol.Hello, vs []*vectors.Vector, o DoctorOptions, emit func(DoctorLine)) (passed, failed int) {
	d := &doctorRun{ctx: ctx, im: impl, DoctorOptions: o, emit: emit}
	d.hello(hello)
	d.unknownOp()
	d.answers(hello, vs)
	d.overhead(o.Pings)
	return d.passed, d.failed
}

// doctorRun is one run of Doctor: the implementation, its options (the
// schemas its messages are checked against), and the checks passed and
// failed.
type doctorRun struct {
	ctx context.Context
	im  Implementation
	DoctorOptions
	emit           func(DoctorLine)
	passed, failed int
}

// check reports one check and counts it.
func (d *doctorRun) check(ok bool, format string, args ...any) {
	mark := "ok"
	if ok {
		d.passed++
	} else {
		mark = "FAIL"
		d.failed++
	}
	d.emit(DoctorLine{mark, safetext.Clip(fmt.Sprintf(format, args...), 2000)})
}

// line reports a line that is not a check.
func (d *doctorRun) line(mark, format string, args ...any) {
	d.emit(DoctorLine{mark, fmt.Sprintf(format, args...)})
}

// call sends one request, bounded by the timeout.
func (d *doctorRun) call(req protocol.Request) (protocol.Response, error) {
	cctx, cancel := context.WithTimeout(d.ctx, d.Timeout)
	defer cancel()
	return d.im.Call(cctx, req)
}

// rawAnswer returns the answer line as received, or as re-encoded when the
// transport kept no bytes.
func rawAnswer(resp protocol.Response) []byte {
	if resp.Raw != nil {
		return resp.Raw
	}
	data, _ := json.Marshal(resp)
	return data
}

// hello checks the handshake's answer: a hello output that matches its
// schema and names itself in plain text, or (hello nil) error kind
// unsupported, well-formed, when asked again.
func (d *doctorRun) hello(hello *protocol.Hello) {
	if hello == nil {
		// The handshake took the answer for error kind unsupported: check
		// that it is a well-formed protocol answer saying so.
		d.unsupportedAnswer(protocol.HelloRequest(), "hello: no answer the second time: %v",
			"hello: answered %s the second time, error kind unsupported the first",
			"hello: answered error kind unsupported; every op is assumed offered (PROTO-HELLO-003)%s")
		return
	}
	data, _ := json.Marshal(hello)
	err := d.Schemas.Validate("protocol.schema.json", "/$defs/hello_output", data)
	d.check(err == nil, "hello: %s %s (%s), protocol %d, ops offered: %d%s", hello.Name, hello.Version, hello.Language, hello.Protocol, len(hello.Ops), errSuffix(err))
	var unsafe []string
	for _, f := range []struct{ name, value string }{{"name", hello.Name}, {"version", hello.Version}, {"language", hello.Language}} {
		if !safetext.Safe(f.value) {
			unsafe = append(unsafe, fmt.Sprintf("%s %q", f.name, f.value))
		}
	}
	notSo := ""
	if len(unsafe) > 0 {
		notSo = ": not so: " + strings.Join(unsafe, ", ")
	}
	d.check(len(unsafe) == 0, "hello: name, version and language are plain text, without control or format characters (PROTO-HELLO-001)%s", notSo)
	for _, op := range hello.Ops {
		if !d.Schemas.Has("ops/" + op + ".json") {
			d.line("note", "hello lists %s, an op this suite has no schema for", safetext.Text(op))
		}
	}
}

// unknownOp checks that an op nobody offers is answered error kind
// unsupported, in a well-formed response.
func (d *doctorRun) unknownOp() {
	d.unsupportedAnswer(protocol.Request{ID: protocol.IntID(1), Op: "conform.no-such-op", Input: json.RawMessage(`{}`)},
		"unknown op: no answer: %v", "unknown op: answered %s, want error kind unsupported (PROTO-ERROR-002)",
		"unknown op: answered error kind unsupported%s")
}

// unsupportedAnswer sends req and checks that it is answered error kind
// unsupported, in a well-formed response. The check's line is noAnswer
// with the error when no answer came, wrong with the answer when it is
// another, and ok with what the schema found wrong ("" for nothing).
func (d *doctorRun) unsupportedAnswer(req protocol.Request, noAnswer, wrong, ok string) {
	resp, err := d.call(req)
	switch {
	case err != nil:
		d.check(false, noAnswer, err)
	case resp.Error == nil || resp.Error.Kind != protocol.KindUnsupported:
		d.check(false, wrong, rawAnswer(resp))
	default:
		verr := d.Schemas.Validate("protocol.schema.json", "/$defs/response", rawAnswer(resp))
		d.check(verr == nil, ok, errSuffix(verr))
	}
}

// answers sends every selected vector of an offered op and checks that each
// answer is a protocol response and each output matches its op's schema;
// the first ten failures are shown.
func (d *doctorRun) answers(hello *protocol.Hello, vs []*vectors.Vector) {
	bad, noSchema, unsupported, sent := 0, map[string]bool{}, 0, 0
	fail := func(format string, args ...any) {
		bad++
		if bad <= 10 {
			d.line("FAIL", format, args...)
		}
	}
	for i, v := range vs {
		if !hello.Supports(v.Op) {
			unsupported++
			continue
		}
		sent++
		resp, err := d.call(protocol.Request{ID: protocol.IntID(int64(i + 2)), Op: v.Op, Input: v.Input})
		if err != nil {
			fail("%s: %s", v.ID, safetext.Clip(err.Error(), 2000))
			continue
		}
		// The answer must decode faithfully (one value, UTF-8, no member
		// name written twice, nothing after it), which the schema
		// validator, reading through encoding/json, cannot see, and be a
		// protocol response.
		raw := rawAnswer(resp)
		_, verr := jsonv.Parse(raw)
		if verr == nil {
			verr = d.Schemas.Validate("protocol.schema.json", "/$defs/response", raw)
		}
		if verr != nil {
			fail("%s: the answer is not a protocol response: %s", v.ID, safetext.Clip(verr.Error(), 2000))
			continue
		}
		if resp.Output == nil {
			continue
		}
		if !d.Schemas.Has("ops/" + v.Op + ".json") {
			noSchema[v.Op] = true
			continue
		}
		if verr := d.Schemas.Validate("ops/"+v.Op+".json", "/$defs/output", resp.Output); verr != nil {
			fail("%s: the output does not match schemas/ops/%s.json: %s", v.ID, v.Op, safetext.Clip(verr.Error(), 2000))
		}
	}
	if bad > 10 {
		d.line("", "     … %d more", bad-10)
	}
	d.check(bad == 0, "answers: %d of %d vectors sent were answered with well-formed messages (%d more not sent: their op is not in hello)", sent-bad, sent, unsupported)
	for _, op := range slices.Sorted(maps.Keys(noSchema)) {
		d.line("note", "no schemas/ops/%s.json: outputs of %s not checked", safetext.Text(op), safetext.Text(op))
	}
}

// overhead times pings hello round trips, one at a time, and prints their
// mean, median and 99th percentile.
func (d *doctorRun) overhead(pings int) {
	if pings <= 0 {
		return
	}
	var times []time.Duration
	for i := range pings {
		start := time.Now()
		_, err := d.call(protocol.Request{ID: protocol.IntID(int64(100000 + i)), Op: "hello", Input: json.RawMessage(`{"protocol":1}`)})
		if err != nil {
			d.check(false, "overhead: hello round trip %d failed: %v", i+1, err)
			return
		}
		times = append(times, time.Since(start))
	}
	slices.Sort(times)
	var sum time.Duration
	for _, t := range times {
		sum += t
	}
	d.line("", "time per request (hello, one at a time, %d round trips): mean %v, p50 %v, p99 %v",
		pings, (sum / time.Duration(pings)).Round(time.Microsecond), times[pings/2].Round(time.Microsecond), times[pings*99/100].Round(time.Microsecond))
}

func errSuffix(err error) string {
	if err == nil {
		return ""
	}
	return ": " + err.Error()
}
