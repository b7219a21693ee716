package runner

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
)

// ServeStdio answers protocol v1 requests read from r, one per line, writing
// one answer line per request to w, until r ends (PROTO-STDIO-003). A line
// that is not a request is answered with a bad_request error whose id is the
// request's when it can be read, null otherwise. Answers are flushed whenever
// no more input is waiting, so a pipelining client gets them in batches.
func ServeStdio(ctx context.Context, impl Implementation, r io.Reader, w io.Writer, maxLine int) error {
	lr := newLineReader(r, maxLine)
	bw := bufio.NewWriterSize(w, 64<<10)
	var out []byte
	for {
		line, err := lr.ReadLine()
		var tooLong *LineTooLongError
		switch {
		case errors.As(err, &tooLong):
			out = appendAnswer(out[:0], errorResponse(nil, KindBadRequest, tooLong.Error()))
		case errors.Is(err, io.EOF):
			return bw.Flush()
		case err != nil:
			bw.Flush()
			return err
		case len(bytes.TrimSpace(line)) == 0:
			continue
		default:
			out = appendAnswer(out[:0], serveOne(ctx, impl, line))
		}
		bw.Write(out)
		if lr.r.Buffered() == 0 {
			if err := bw.Flush(); err != nil {
				return err
			}
		}
	}
}

// ServeLine answers one request line as ServeStdio does, returning the
// answer line (with its newline).
func ServeLine(ctx context.Context, impl Implementation, line []byte) []byte {
	return appendAnswer(nil, serveOne(ctx, impl, line))
}

// serveOne decodes one request and answers it.
func serveOne(ctx context.Context, impl Implementation, data []byte) Response {
	var req Request
	if err := json.Unmarshal(data, &req); err != nil {
		var probe struct {
			ID json.RawMessage `json:"id"`
		}
		json.Unmarshal(data, &probe)
		id := probe.ID
		if !validID(id) {
			id = nil
		}
		return errorResponse(id, KindBadRequest, "not a request: "+err.Error())
	}
	switch {
	case !validID(req.ID):
		return errorResponse(nil, KindBadRequest, `the request's "id" is missing or not a string or integer`)
	case req.Op == "":
		return errorResponse(req.ID, KindBadRequest, `the request has no "op"`)
	case len(req.Input) == 0 || req.Input[0] != '{':
		return errorResponse(req.ID, KindBadRequest, `the request's "input" is not an object`)
	}
	resp, err := impl.Call(ctx, req)
	if err != nil {
		return errorResponse(req.ID, KindInternal, err.Error())
	}
	resp.ID = req.ID
	return resp
}

func errorResponse(id json.RawMessage, kind, msg string) Response {
	if id == nil {
		id = json.RawMessage("null")
	}
	return Response{ID: id, Error: &ErrorBody{Kind: kind, Message: msg}}
}

// appendAnswer appends resp as one line.
func appendAnswer(buf []byte, resp Response) []byte {
	data, err := json.Marshal(resp)
	if err != nil {
		data, _ = json.Marshal(errorResponse(resp.ID, KindInternal, "marshal answer: "+err.Error()))
	}
	buf = append(buf, data...)
	return append(buf, '\n')
}

// DefaultMaxBody is the default cap on an HTTP request body, in bytes.
const DefaultMaxBody = 16 << 20

// HTTPHandler serves impl over HTTP (PROTO-HTTP): a POST of one request
// object is answered with one answer object, a POST of an array with an
// array of answers in the same order. A body that is not JSON, or longer than
// maxBody bytes, is answered with a bad_request error (status 400 or 413);
// any method but POST with 405.
func HTTPHandler(impl Implementation, maxBody int64) http.Handler {
	if maxBody <= 0 {
		maxBody = DefaultMaxBody
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		reply := func(status int, v any) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(status)
			data, _ := json.Marshal(v)
			w.Write(append(data, '\n'))
		}
		if r.Method != http.MethodPost {
			w.Header().Set("Allow", http.MethodPost)
			reply(http.StatusMethodNotAllowed, errorResponse(nil, KindBadRequest, "POST a request object or an array of them"))
			return
		}
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
		if err != nil {
			var tooBig *http.MaxBytesError
			if errors.As(err, &tooBig) {
				reply(http.StatusRequestEntityTooLarge, errorResponse(nil, KindBadRequest, fmt.Sprintf("the body is longer than the limit of %d bytes", maxBody)))
				return
			}
			reply(http.StatusBadRequest, errorResponse(nil, KindBadRequest, "reading the body: "+err.Error()))
			return
		}
		body = bytes.TrimSpace(body)
		if len(body) > 0 && body[0] == '[' {
			var items []json.RawMessage
			if err := json.Unmarshal(body, &items); err != nil {
				reply(http.StatusBadRequest, errorResponse(nil, KindBadRequest, "the body is not a JSON array of requests: "+err.Error()))
				return
			}
			answers := make([]Response, len(items))
			for i, item := range items {
				answers[i] = serveOne(r.Context(), impl, item)
			}
			reply(http.StatusOK, answers)
			return
		}
		if !json.Valid(body) {
			reply(http.StatusBadRequest, errorResponse(nil, KindBadRequest, "the body is not JSON"))
			return
		}
		reply(http.StatusOK, serveOne(r.Context(), impl, body))
	})
}
