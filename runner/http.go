package runner

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"strconv"
	"strings"
	"syscall"

	"github.com/conform-suite/conform/protocol"
)

// HTTP is an implementation served over HTTP: every request is POSTed as a
// JSON object to URL, and a batch as a JSON array, answered in kind
// (PROTO-HTTP). Answers to a batch may come in any order; they are matched by
// id.
type HTTP struct {
	URL    string
	Client *http.Client // nil for a client of its own; redirects are never followed either way
	// MaxBody caps an answer body, in bytes, as sent and as read: an answer
	// is never decoded (compression is not asked for, and a Content-Encoding
	// other than identity is refused). 0 means DefaultMaxAnswerBody.
	MaxBody int64
	// MaxLine caps each answer, in bytes: the answer to one request, or
	// each answer of a batch's array. 0 means no cap but MaxBody.
	MaxLine int
	Grease  bool // add an unknown member to every request

	budget // each answer's share of the run's memory budget
}

// DefaultMaxAnswerBody is the default cap on an HTTP answer body.
const DefaultMaxAnswerBody = 16 << 20

// NewHTTP returns an HTTP transport for url.
func NewHTTP(url string) *HTTP {
	return &HTTP{URL: url, Client: NewHTTPClient()}
}

// NewHTTPClient returns an HTTP client with the runner's rules: it never
// follows a redirect (the 3xx answer is returned as is) and never asks for
// compression, so that it never inflates an answer. Requests made with it
// should still say "Accept-Encoding: identity" and refuse an answer with a
// Content-Encoding, as HTTP does.
func NewHTTPClient() *http.Client {
	return &http.Client{
		Transport: &http.Transport{
			Proxy:               http.ProxyFromEnvironment,
			MaxIdleConnsPerHost: protocol.DefaultMaxConns,
			// No more connections than a server of conform's accepts: a
			// request written on a connection the server has not accepted
			// yet (it waits in the listen backlog) would go unanswered
			// until another one closes.
			MaxConnsPerHost:    protocol.DefaultMaxConns,
			DisableCompression: true,
		},
		CheckRedirect: NoRedirect,
	}
}

// NoRedirect is the CheckRedirect of a client that never follows a
// redirect: the 3xx answer itself is returned.
func NoRedirect(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }

// Call POSTs one request.
func (h *HTTP) Call(ctx context.Context, req protocol.Request) (protocol.Response, error) {
	body, err := appendRequestLine(nil, req, h.grease(0))
	if err != nil {
		return protocol.Response{}, callErr(ProtocolErr, "%v", err)
	}
	data, err := h.post(ctx, body)
	if err != nil {
		return protocol.Response{}, err
	}
	data = bytes.Trim(data, " \t\r\n") // JSON white space only: any other is garbage
	if h.MaxLine > 0 && len(data) > h.MaxLine {
		return protocol.Response{}, callErr(ProtocolErr, "the answer is %d bytes, longer than the limit of %d (--max-line)", len(data), h.MaxLine)
	}
	resp, err := protocol.ParseAnswer(data, h.limits().Values)
	if err != nil {
		return protocol.Response{}, callErr(ProtocolErr, "%s", h.refused(err))
	}
	if !bytes.Equal(resp.ID, compactID(req.ID)) {
		return protocol.Response{}, callErr(ProtocolErr, "the answer's id %s is not the request's id %s", resp.ID, req.ID)
	}
	return resp, nil
}

// CallBatch POSTs reqs (at least one) as one array. It returns one answer
// or error per request, in the order of reqs; ids must be distinct.
func (h *HTTP) CallBatch(ctx context.Context, reqs []protocol.Request) ([]protocol.Response, []error) {
	resps := make([]protocol.Response, len(reqs))
	errs := make([]error, len(reqs))
	fail := func(err error) ([]protocol.Response, []error) {
		for i := range errs {
			if errs[i] == nil {
				errs[i] = err
			}
		}
		return resps, errs
	}
	body := []byte{'['}
	for i, req := range reqs {
		var err error
		if body, err = appendRequestLine(body, req, h.grease(i)); err != nil {
			return fail(callErr(ProtocolErr, "%v", err))
		}
		body[len(body)-1] = ',' // the line's newline separates it from the next
	}
	body[len(body)-1] = ']' // the last one's ends the array
	data, err := h.post(ctx, body)
	if err != nil {
		return fail(err)
	}
	var answers []json.RawMessage
	if err := json.Unmarshal(data, &answers); err != nil {
		return fail(callErr(ProtocolErr, "the answer to a batch is not a JSON array: %v", err))
	}
	index := make(map[string]int, len(reqs))
	for i, req := range reqs {
		index[string(compactID(req.ID))] = i
	}
	values := max(1, h.limits().Values/len(reqs)) // the batch's share, split among its answers
	for _, a := range answers {
		resp, perr := protocol.ParseAnswer(a, values)
		if perr == nil && h.MaxLine > 0 && len(a) > h.MaxLine {
			perr = fmt.Errorf("the answer is %d bytes, longer than the limit of %d (--max-line)", len(a), h.MaxLine)
		}
		i, ok := index[string(resp.ID)]
		switch {
		case !ok:
			return fail(callErr(ProtocolErr, "an answer in the batch has id %s, which matches no request of the batch", resp.ID))
		case perr != nil:
			errs[i] = callErr(ProtocolErr, "%s", h.refused(perr))
		default:
			resps[i] = resp
		}
		delete(index, string(resp.ID))
	}
	for _, i := range index {
		errs[i] = callErr(ProtocolErr, "the answer to the batch has no answer with this request's id")
	}
	return resps, errs
}

func (h *HTTP) grease(i int) string {
	if !h.Grease {
		return ""
	}
	return "grease_" + strconv.Itoa(i%7)
}

// post sends one body and returns the answer body of a 200 answer; every
// other result is a *CallError. No more than MaxBody bytes are read, and
// never decoded: a redirect, a Content-Encoding or a longer body is outcome
// protocol.
func (h *HTTP) post(ctx context.Context, body []byte) ([]byte, error) {
	client := http.Client{Transport: http.DefaultTransport}
	if h.Client != nil {
		client = *h.Client
	}
	client.CheckRedirect = NoRedirect
	hreq, err := http.NewRequestWithContext(ctx, http.MethodPost, h.URL, bytes.NewReader(body))
	if err != nil {
		return nil, &StartError{Msg: fmt.Sprintf("bad URL %q: %v", h.URL, err)}
	}
	hreq.Header.Set("Content-Type", "application/json")
	// Asked for explicitly, identity also keeps any transport from asking
	// for gzip and inflating the answer behind the body cap.
	hreq.Header.Set("Accept-Encoding", "identity")
	hresp, err := client.Do(hreq)
	if err != nil {
		return nil, classifyNetErr(ctx, err)
	}
	defer hresp.Body.Close()
	own := cmp.Or(max(h.MaxBody, 0), DefaultMaxAnswerBody)
	share, why := h.maxBytes(int(min(own, math.MaxInt32)))
	maxBody, limit := int64(share), "(--max-body)"
	if why != "" {
		limit = "(" + why + ")"
	}
	status := statusText(hresp.Status)
	if hresp.StatusCode >= 300 && hresp.StatusCode < 400 {
		loc := hresp.Header.Get("Location")
		if loc == "" {
			return nil, callErr(ProtocolErr, "HTTP %s without a Location: redirects are not followed", status)
		}
		return nil, callErr(ProtocolErr, "HTTP %s to %s: redirects are not followed; give that URL to --http if it is the implementation", status, excerpt(loc))
	}
	if ce := hresp.Header.Get("Content-Encoding"); ce != "" && !strings.EqualFold(ce, "identity") {
		return nil, callErr(ProtocolErr, "HTTP %s with Content-Encoding %s, which was not asked for (Accept-Encoding: identity)", status, excerpt(ce))
	}
	if hresp.ContentLength > maxBody {
		return nil, callErr(ProtocolErr, "the answer body is %d bytes, longer than the limit of %d bytes %s", hresp.ContentLength, maxBody, limit)
	}
	data, err := io.ReadAll(io.LimitReader(hresp.Body, maxBody+1))
	if err != nil {
		return nil, classifyNetErr(ctx, err)
	}
	if int64(len(data)) > maxBody {
		return nil, callErr(ProtocolErr, "the answer body is longer than the limit of %d bytes %s", maxBody, limit)
	}
	switch {
	case hresp.StatusCode == http.StatusOK:
		return data, nil
	case hresp.StatusCode >= 500:
		return nil, callErr(Errored, "HTTP %s: %s", status, excerpt(string(data)))
	default:
		return nil, callErr(ProtocolErr, "HTTP %s: %s", status, excerpt(string(data)))
	}
}

// statusText is an answer's status line for a message: as sent when it is
// short printable ASCII, quoted and cut short otherwise.
func statusText(s string) string {
	if len(s) > 80 || strings.IndexFunc(s, func(r rune) bool { return r < ' ' || r > '~' }) >= 0 {
		return excerpt(s)
	}
	return s
}

func classifyNetErr(ctx context.Context, err error) error {
	switch {
	case errors.Is(err, context.DeadlineExceeded) || ctx.Err() != nil && errors.Is(ctx.Err(), context.DeadlineExceeded):
		return callErr(Timeout, "no answer before the deadline")
	case errors.Is(err, syscall.ECONNREFUSED):
		return callErr(Crash, "connection refused: nothing listens at the URL")
	case errors.Is(err, context.Canceled):
		return err
	}
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return callErr(Timeout, "no answer before the deadline")
	}
	return callErr(Crash, "%s", strings.TrimSpace(err.Error()))
}

// Close releases idle connections.
func (h *HTTP) Close() error {
	if h.Client != nil {
		h.Client.CloseIdleConnections()
	}
	return nil
}

// compactID returns the id without surrounding white space, the form in
// which ids are matched.
func compactID(id json.RawMessage) json.RawMessage { return bytes.TrimSpace(id) }
