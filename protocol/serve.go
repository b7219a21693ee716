package protocol

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"reflect"
	"runtime"
	"sync"
	"time"

	"golang.org/x/net/netutil"

	"github.com/conform-suite/conform/internal/jsonv"
)

// Answerer answers protocol v1 requests: the in-process reference, or
// any implementation that conform serves (conform serve) or talks to.
// Call returns the answer to one request; a non-nil error means no answer
// could be had.
type Answerer interface {
	Call(ctx context.Context, req Request) (Response, error)
}

// ServeStdio answers protocol v1 requests read from r, one per line, writing
// one answer line per request to w, until r ends (PROTO-STDIO-003). A line
// that is not a request is answered with a bad_request error whose id is the
// request's when it can be read, null otherwise; a blank line (BlankLine)
// is not answered (PROTO-FRAME-008).
//
// Answers are written in the order of the requests. A request line of more
// than concurrentLine bytes that arrives while more input is waiting is
// answered on a goroutine of its own, up to GOMAXPROCS at once, so that a
// pipelining client keeps every core busy with large requests; a small one
// is answered at once, which costs less than handing it over. Answers are
// flushed whenever no more input is waiting, so a pipelining client gets
// them in batches.
func ServeStdio(ctx context.Context, impl Answerer, r io.Reader, w io.Writer, maxLine int) error {
	lr := NewLineReader(r, maxLine)
	bw := bufio.NewWriterSize(w, 64<<10)
	var out []byte
	var queue []*answerLine // answers not yet written, in request order
	workers := runtime.GOMAXPROCS(0)
	// drain writes the answers at the head of the queue that are ready, or
	// (all) every one, waiting for them.
	drain := func(all bool) {
		for len(queue) > 0 {
			if !all {
				select {
				case <-queue[0].ready:
				default:
					return
				}
			}
			<-queue[0].ready
			bw.Write(queue[0].out)
			queue[0] = nil
			queue = queue[1:]
		}
	}
	for {
		line, err := lr.ReadLine()
		if err != nil {
			tooLong, ok := errors.AsType[*LineTooLongError](err)
			if !ok {
				drain(true)
				if flushErr := bw.Flush(); flushErr != nil || errors.Is(err, io.EOF) {
					return flushErr
				}
				return err
			}
			out = AppendAnswer(out[:0], ErrorAnswer(nil, KindBadRequest, tooLong.Error()))
		} else {
			if BlankLine(line) {
				if lr.Buffered() == 0 { // the answers before it are due
					drain(true)
					if err := bw.Flush(); err != nil {
						return err
					}
				}
				continue
			}
			if len(line) > concurrentLine && lr.Buffered() > 0 {
				for len(queue) >= workers { // at most GOMAXPROCS lines held
					<-queue[0].ready
					drain(false)
				}
				a := &answerLine{ready: make(chan struct{})}
				go func(data []byte) {
					a.out = appendServe(nil, ctx, impl, data)
					close(a.ready)
				}(bytes.Clone(line))
				queue = append(queue, a)
				drain(false)
				continue
			}
			out = appendServe(out[:0], ctx, impl, line)
		}
		if len(queue) > 0 {
			queue = append(queue, &answerLine{out: bytes.Clone(out), ready: closed})
			drain(false)
		} else {
			bw.Write(out)
		}
		if lr.Buffered() == 0 {
			drain(true)
			if err := bw.Flush(); err != nil {
				return err
			}
		}
	}
}

// concurrentLine is the length of a request line, in bytes, above which
// ServeStdio may answer it on a goroutine of its own.
const concurrentLine = 4 << 10

// closed is a channel that is closed: an answer ready from the start.
var closed = func() chan struct{} { c := make(chan struct{}); close(c); return c }()

// answerLine is the answer line to one request, ready when ready is
// closed.
type answerLine struct {
	out   []byte
	ready chan struct{}
}

// ServeLine answers one request line as ServeStdio does, returning the
// answer line (with its newline).
func ServeLine(ctx context.Context, impl Answerer, line []byte) []byte {
	return appendServe(nil, ctx, impl, line)
}

// AnswerAppender is an Answerer that can write its answer line
// itself, straight into the server's buffer (the in-process reference
// does): AppendAnswer appends to buf exactly the line that the answer of
// its Call would be (AppendAnswer; an internal error when ctx has
// ended). AnswerType is the type that declares that Call: the server
// appends only for an implementation of that very type, so that a type
// embedding it and overriding Call (a proxy that rewrites answers) is
// answered through its own Call.
type AnswerAppender interface {
	AppendAnswer(ctx context.Context, req Request, buf []byte) []byte
	AnswerType() reflect.Type
}

// appendServe decodes the request line data, in one pass, and appends the
// line of its answer to buf.
func appendServe(buf []byte, ctx context.Context, impl Answerer, data []byte) []byte {
	req, refusal := ParseRequest(data)
	if refusal != nil {
		return AppendAnswer(buf, *refusal)
	}
	if a, ok := impl.(AnswerAppender); ok && a.AnswerType() == reflect.TypeOf(impl) {
		return a.AppendAnswer(ctx, req, buf)
	}
	resp, err := impl.Call(ctx, req)
	if err != nil {
		return AppendAnswer(buf, ErrorAnswer(req.ID, KindInternal, err.Error()))
	}
	resp.ID = req.ID
	return AppendAnswer(buf, resp)
}

// Defaults of [ServeOptions].
const (
	// DefaultMaxBody is the default cap on an HTTP request body, in bytes.
	DefaultMaxBody = 16 << 20
	// DefaultMaxBatch is the default cap on the requests of one batch: the
	// runner sends 32 (--batch), and a batch of 5,000,000 one-byte items
	// fits in a 10 MB body.
	DefaultMaxBatch = 10000
	// DefaultBodyBudget is the default cap on the request bytes that all
	// requests together hold in memory at once.
	DefaultBodyBudget = 128 << 20
	// DefaultDecodedBudget is the default cap on what the bodies being
	// served decode into, all together, in bytes: a body's JSON values
	// counted at jsonv.ValueCost each, and its strings at two bytes a byte.
	DefaultDecodedBudget = 256 << 20
	// DefaultMaxConns is the default cap on connections open at once.
	DefaultMaxConns = 64
)

// ServeOptions bound what a client of [HTTPHandler] can make the server
// hold and for how long. A zero field takes its default, given in
// [DefaultServeOptions].
type ServeOptions struct {
	MaxBody    int64 // longest request body, in bytes
	MaxBatch   int   // most requests in one batch
	BodyBudget int64 // request bytes held at once by all requests together
	// DecodedBudget bounds what the bodies being served decode into, all
	// together (DefaultDecodedBudget says how it is counted).
	DecodedBudget int64

	// ReadHeaderTimeout bounds reading the headers of a request,
	// ReadTimeout reading the whole request (headers and body), WriteTimeout
	// everything from the end of the headers to the last byte of the answer
	// (work on a batch stops there), and IdleTimeout a keep-alive connection
	// waiting for its next request.
	ReadHeaderTimeout, ReadTimeout, WriteTimeout, IdleTimeout time.Duration
	MaxHeaderBytes                                            int
	MaxConns                                                  int // connections open at once; more wait to be accepted
}

// DefaultServeOptions are the limits of 'conform serve --http'.
//
// The timeouts are sized for the largest legitimate exchange: a body of
// MaxBody bytes takes seconds to send even over a slow link, so ReadTimeout
// is a minute. WriteTimeout bounds the work on one POST: the runner gives a
// whole batch its --timeout (10 s by default) and drops a later answer, so
// two minutes leave room for a raised --timeout and a batch of MaxBatch
// slow requests, while a client that never reads its answer loses its
// connection (and what it holds) within two minutes.
func DefaultServeOptions() ServeOptions {
	return ServeOptions{
		MaxBody:           DefaultMaxBody,
		MaxBatch:          DefaultMaxBatch,
		BodyBudget:        DefaultBodyBudget,
		DecodedBudget:     DefaultDecodedBudget,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       time.Minute,
		WriteTimeout:      2 * time.Minute,
		IdleTimeout:       time.Minute,
		MaxHeaderBytes:    64 << 10,
		MaxConns:          DefaultMaxConns,
	}
}

// withDefaults fills the fields of o that are not positive.
func (o ServeOptions) withDefaults() ServeOptions {
	d := DefaultServeOptions()
	orDefault(&o.MaxBody, d.MaxBody)
	orDefault(&o.MaxBatch, d.MaxBatch)
	orDefault(&o.BodyBudget, d.BodyBudget)
	orDefault(&o.DecodedBudget, d.DecodedBudget)
	orDefault(&o.ReadHeaderTimeout, d.ReadHeaderTimeout)
	orDefault(&o.ReadTimeout, d.ReadTimeout)
	orDefault(&o.WriteTimeout, d.WriteTimeout)
	orDefault(&o.IdleTimeout, d.IdleTimeout)
	orDefault(&o.MaxHeaderBytes, d.MaxHeaderBytes)
	orDefault(&o.MaxConns, d.MaxConns)
	return o
}

// orDefault sets *v to d when *v is not positive.
func orDefault[T int | int64 | time.Duration](v *T, d T) {
	if *v <= 0 {
		*v = d
	}
}

// Handler serves impl over HTTP (PROTO-HTTP): a POST of one request object
// is answered with one answer object, a POST of an array with an array of
// answers in the same order, each written as soon as it is made; work stops
// when the client goes away or WriteTimeout has passed. A body that is not
// JSON is answered with status 400, one longer than MaxBody or a batch of
// more than MaxBatch requests with 413 (PROTO-HTTP-004), a body that does
// not fit in the BodyBudget left, or whose decoded cost does not fit in the
// DecodedBudget left, with 503 and Retry-After, one whose decoded cost is
// over the whole DecodedBudget with 413, and any method but POST with 405;
// each with a bad_request error whose id is null.
func (o ServeOptions) Handler(impl Answerer) http.Handler {
	o = o.withDefaults()
	budget := &byteBudget{left: o.BodyBudget}
	decoded := &byteBudget{left: o.DecodedBudget}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// reply answers with an answer line, written as ServeStdio writes
		// it, so that HTTP and stdio answer a request with the same bytes.
		reply := func(status int, line []byte) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(status)
			w.Write(line)
		}
		refuse := func(status int, format string, args ...any) {
			reply(status, AppendAnswer(nil, ErrorAnswer(nil, KindBadRequest, fmt.Sprintf(format, args...))))
		}
		if r.Method != http.MethodPost {
			w.Header().Set("Allow", http.MethodPost)
			refuse(http.StatusMethodNotAllowed, "POST a request object or an array of them")
			return
		}
		body, held, err := readBody(http.MaxBytesReader(w, r.Body, o.MaxBody), budget)
		defer budget.give(held)
		switch {
		case errors.As(err, new(*http.MaxBytesError)):
			refuse(http.StatusRequestEntityTooLarge, "the body is longer than the limit of %d bytes", o.MaxBody)
			return
		case errors.Is(err, errNoBudget):
			w.Header().Set("Retry-After", "1")
			refuse(http.StatusServiceUnavailable, "the server holds too many request bodies at once; try again")
			return
		case err != nil:
			refuse(http.StatusBadRequest, "reading the body: %v", err)
			return
		}
		// The body is read: from here the client may only wait, and the
		// read deadline must not cancel the work (a read deadline passing
		// while a handler works cancels its context).
		rc := http.NewResponseController(w)
		rc.SetReadDeadline(time.Time{})
		ctx, cancel := context.WithTimeout(r.Context(), o.WriteTimeout)
		defer cancel()
		body = bytes.Trim(body, " \t\r\n") // JSON's white space, and no other
		batch := len(body) > 0 && body[0] == '['
		if batch {
			n, err := countBatch(body, o.MaxBatch)
			switch {
			case err != nil:
				refuse(http.StatusBadRequest, "the body is not a JSON array of requests: %v", err)
				return
			case n > o.MaxBatch:
				refuse(http.StatusRequestEntityTooLarge, "the batch holds more than the limit of %d requests", o.MaxBatch)
				return
			}
		} else if !json.Valid(body) {
			refuse(http.StatusBadRequest, "the body is not JSON")
			return
		}
		// What the body decodes into is counted before it is decoded, from
		// its bytes (jsonv.Measure).
		values, _ := jsonv.Measure(body)
		cost := int64(values)*int64(jsonv.ValueCost) + 2*int64(len(body))
		switch {
		case cost > o.DecodedBudget:
			refuse(http.StatusRequestEntityTooLarge, "the body decodes into up to %d JSON values, more than the server holds at once (%d bytes at %d a value)", values, o.DecodedBudget, jsonv.ValueCost)
			return
		case !decoded.take(cost):
			w.Header().Set("Retry-After", "1")
			refuse(http.StatusServiceUnavailable, "the server is decoding too many request bodies at once; try again")
			return
		}
		defer decoded.give(cost)
		if batch {
			serveBatch(ctx, impl, w, body)
			return
		}
		reply(http.StatusOK, appendServe(nil, ctx, impl, body))
	})
}

// countBatch checks that body is one JSON array and counts its items, up to
// max+1.
func countBatch(body []byte, max int) (int, error) {
	dec := json.NewDecoder(bytes.NewReader(body))
	if _, err := dec.Token(); err != nil {
		return 0, err
	}
	n := 0
	for dec.More() {
		var item json.RawMessage
		if err := dec.Decode(&item); err != nil {
			return 0, err
		}
		if n++; n > max {
			return n, nil
		}
	}
	if _, err := dec.Token(); err != nil {
		return 0, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return 0, errors.New("data after the array")
	}
	return n, nil
}

// serveBatch answers the items of a checked array one by one, writing each
// answer as it is made. It stops when the client is gone or ctx ends; the
// answer is then cut short and the connection dropped, so that no client
// can mistake a partial array for an answer.
func serveBatch(ctx context.Context, impl Answerer, w http.ResponseWriter, body []byte) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	rc := http.NewResponseController(w)
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.Token()
	sep := []byte{'['}
	var out []byte
	for dec.More() {
		if ctx.Err() != nil {
			panic(http.ErrAbortHandler)
		}
		var item json.RawMessage
		dec.Decode(&item) // countBatch read it already
		out = appendServe(append(out[:0], sep...), ctx, impl, item)
		out = out[:len(out)-1] // the newline
		if _, err := w.Write(out); err != nil {
			panic(http.ErrAbortHandler)
		}
		if err := rc.Flush(); err != nil {
			panic(http.ErrAbortHandler)
		}
		sep = []byte{','}
	}
	if string(sep) == "[" { // no item: the array is empty
		w.Write(sep)
	}
	w.Write([]byte("]\n"))
}

var errNoBudget = errors.New("no budget left for the body")

// byteBudget is the room left for request bodies in memory.
type byteBudget struct {
	mu   sync.Mutex
	left int64
}

func (b *byteBudget) take(n int64) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if n > b.left {
		return false
	}
	b.left -= n
	return true
}

func (b *byteBudget) give(n int64) {
	b.mu.Lock()
	b.left += n
	b.mu.Unlock()
}

// readBody reads r whole, taking from b the memory it holds as it grows:
// the body is read in chunks (a stalled body holds only what came) and
// joined at the end. It returns the bytes taken, to be given back once the
// body is done with.
func readBody(r io.Reader, b *byteBudget) ([]byte, int64, error) {
	const chunk = 64 << 10
	var chunks [][]byte
	var held, size int64
	for {
		if !b.take(chunk) {
			return nil, held, errNoBudget
		}
		held += chunk
		c := make([]byte, chunk)
		n, err := io.ReadFull(r, c)
		chunks = append(chunks, c[:n])
		size += int64(n)
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			break
		}
		if err != nil {
			return nil, held, err
		}
	}
	if !b.take(size) {
		return nil, held, errNoBudget
	}
	body := bytes.Join(chunks, nil)
	b.give(held) // the chunks are garbage now
	return body, size, nil
}

// Serve serves impl on ln with the limits of o, keeping at most MaxConns
// connections open at once (more wait in the kernel's queue), until ctx
// ends, then shuts the server down, giving the requests in progress two
// seconds.
func (o ServeOptions) Serve(ctx context.Context, impl Answerer, ln net.Listener) error {
	o = o.withDefaults()
	srv := &http.Server{
		Handler:           o.Handler(impl),
		ReadHeaderTimeout: o.ReadHeaderTimeout,
		ReadTimeout:       o.ReadTimeout,
		WriteTimeout:      o.WriteTimeout,
		IdleTimeout:       o.IdleTimeout,
		MaxHeaderBytes:    o.MaxHeaderBytes,
		ErrorLog:          log.New(io.Discard, "", 0),
	}
	defer context.AfterFunc(ctx, func() {
		sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		if srv.Shutdown(sctx) != nil {
			srv.Close()
		}
	})()
	err := srv.Serve(netutil.LimitListener(ln, o.MaxConns))
	if errors.Is(err, http.ErrServerClosed) {
		return nil
	}
	return err
}
