package cli

import (
	"context"
	"errors"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"time"

	"github.com/conform-suite/conform/runner"
)

const serveHead = `Usage: conform serve --stdio
       conform serve --http ADDR

Serves the reference implementation over protocol v1: on stdin and stdout
(one request per line; end of input ends the server), or over HTTP at ADDR
(POST one request object, or an array as a batch). An ADDR without a host,
like ":8080" or "8080", binds to the loopback interface only; give a host
(0.0.0.0:8080) to listen elsewhere.
`

func (e *env) serve(args []string) int {
	fs := e.newFlags("serve", serveHead)
	stdio := fs.Bool("stdio", false, "serve on stdin and stdout")
	addr := fs.String("http", "", "serve HTTP on `ADDR` (host:port; loopback when the host is omitted)")
	maxBody := fs.Int64("max-body", runner.DefaultMaxBody, "largest HTTP request body accepted, in `bytes`")
	maxLine := fs.Int("max-line", runner.DefaultMaxLine, "longest request line accepted on stdin, in `bytes`")
	if done, code := e.parse(fs, args, 0); done {
		return code
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	switch {
	case *stdio && *addr != "":
		e.errorf("give one of --stdio and --http")
		return ExitUsage
	case *stdio:
		if err := runner.ServeStdio(ctx, runner.InProcess{}, e.stdin, e.stdout, *maxLine); err != nil {
			e.errorf("%v", err)
			return ExitFailed
		}
		return ExitOK
	case *addr != "":
		return e.serveHTTP(ctx, *addr, *maxBody)
	}
	e.errorf("give --stdio or --http ADDR")
	e.hintf("'conform serve -h' shows the flags")
	return ExitUsage
}

// loopbackAddr binds an address without a host to the loopback interface.
func loopbackAddr(addr string) string {
	if !strings.Contains(addr, ":") {
		return "127.0.0.1:" + addr
	}
	if strings.HasPrefix(addr, ":") {
		return "127.0.0.1" + addr
	}
	return addr
}

func (e *env) serveHTTP(ctx context.Context, addr string, maxBody int64) int {
	ln, err := net.Listen("tcp", loopbackAddr(addr))
	if err != nil {
		e.errorf("--http %s: %v", addr, err)
		return ExitUsage
	}
	srv := &http.Server{
		Handler:           runner.HTTPHandler(runner.InProcess{}, maxBody),
		ReadHeaderTimeout: 10 * time.Second,
	}
	e.infof("serving the reference at http://%s/", ln.Addr())
	go func() {
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		srv.Shutdown(sctx)
	}()
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		e.errorf("%v", err)
		return ExitFailed
	}
	return ExitOK
}
