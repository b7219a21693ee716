package cli

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/signal"
	"strings"

	"github.com/conform-suite/conform/protocol"
	"github.com/conform-suite/conform/reference"
)

const serveHead = `Usage: conform serve --stdio
       conform serve --http ADDR

Serves the reference implementation over protocol v1: on stdin and stdout
(one request per line; end of input ends the server), or over HTTP at ADDR
(POST one request object, or an array as a batch). An ADDR without a host,
like ":8080", "[]:8080" or "8080", binds to the loopback interface only;
give a host (0.0.0.0:8080) to listen elsewhere.

Over HTTP the server bounds what a client can make it hold: a body of at
most --max-body bytes, a batch of at most 10000 requests (both refused with
status 413), 128 MiB of request bodies held at once (503 past it), 256 MiB
of what they decode into, counted before decoding (a body over all of it is
refused with 413, one over what is left with 503 and Retry-After), 64
connections open at once (more wait to be accepted), 10 s to send the
headers, 1 min to send the whole request, 2 min to serve a POST and write
its answer (answers of a batch are written as they are made, and work stops
when the client goes away), and 1 min of idle keep-alive.
`

func (e *env) serve(args []string) int {
	fs := e.newFlags("serve", serveHead)
	stdio := fs.Bool("stdio", false, "serve on stdin and stdout")
	addr := fs.String("http", "", "serve HTTP on `ADDR` (host:port; loopback when the host is omitted)")
	maxBody := fs.Int64("max-body", protocol.DefaultMaxBody, "largest HTTP request body accepted, in `bytes`")
	maxLine := fs.Int("max-line", protocol.DefaultMaxLine, "longest request line accepted on stdin, in `bytes`")
	if done, code := e.parse(fs, args, 0); done {
		return code
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	switch {
	case *stdio && *addr != "":
		return e.usagef("give one of --stdio and --http")
	case *stdio:
		if err := protocol.ServeStdio(ctx, reference.InProcess{}, e.stdin, e.stdout, *maxLine); err != nil {
			return e.failf("%v", err)
		}
		return ExitOK
	case *addr == "":
		return e.usageHint("give --stdio or --http ADDR", "'conform serve -h' shows the flags")
	}
	bind, err := loopbackAddr(*addr)
	if err != nil {
		return e.usagef("--http %s: %v", *addr, err)
	}
	ln, err := net.Listen("tcp", bind)
	if err != nil {
		return e.usagef("--http %s: %v", *addr, err)
	}
	e.infof("serving the reference at http://%s/", ln.Addr())
	opts := protocol.DefaultServeOptions()
	opts.MaxBody = *maxBody
	if err := opts.Serve(ctx, reference.InProcess{}, ln); err != nil {
		return e.failf("%v", err)
	}
	return ExitOK
}

// loopbackAddr binds an address without a host (":8080", "[]:8080",
// "8080") to the loopback interface; any other host is kept as given.
func loopbackAddr(addr string) (string, error) {
	if scheme, rest, ok := strings.Cut(addr, "://"); ok {
		hostPort, _, _ := strings.Cut(rest, "/")
		return "", fmt.Errorf("give the address to listen on (%s), not a %s:// URL", hostPort, scheme)
	}
	if !strings.Contains(addr, ":") {
		addr = ":" + addr
	}
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "", err
	}
	if port == "" {
		return "", errors.New("no port: give host:port or a port alone")
	}
	if host == "" {
		host = "127.0.0.1"
	}
	return net.JoinHostPort(host, port), nil
}
