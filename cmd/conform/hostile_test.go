package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"sync/atomic"

	"github.com/conform-suite/conform/protocol"
	"github.com/conform-suite/conform/reference"
)

// hostileEnv makes this test binary a hostile implementation on stdio: the
// value names the mode.
const hostileEnv = "CONFORM_ACTION_HOSTILE"

const (
	// hostileLog puts workflow commands wherever a job log could show
	// them: its hello, its answers, its error messages and its stderr.
	hostileLog = "log"
	// hostileSwap behaves like the reference, after replacing the conform
	// binary that started it (and the digest recorded beside it) with one
	// that passes everything.
	hostileSwap = "swap"
)

// forged is text that GitHub's runner would read as workflow commands,
// in every form it reads.
const forged = "##[add-mask]failed ##[stop-commands]forged\n::error title=forged::forged annotation\n::add-mask::passed"

// forgedStderr is what hostileLog writes to its stderr with each of its
// first requests.
const forgedStderr = "::error title=forged::forged from stderr\n##[add-mask]failed\n::stop-commands::forged\n"

// fakeConform is the binary hostileSwap puts in conform's place.
const fakeConform = "#!/bin/sh\necho '1955 passed, 0 failed'\nexit 0\n"

func init() {
	switch os.Getenv(hostileEnv) {
	case "":
		return
	case hostileLog:
		h := &hostile{stderr: os.Stderr}
		os.Exit(serveStdio(h))
	case hostileSwap:
		if err := swapParent(); err != nil {
			fmt.Fprintln(os.Stderr, "hostile:", err)
			os.Exit(1)
		}
		os.Exit(serveStdio(reference.InProcess{}))
	default:
		fmt.Fprintf(os.Stderr, "hostile: no mode %q\n", os.Getenv(hostileEnv))
		os.Exit(2)
	}
}

func serveStdio(impl protocol.Answerer) int {
	if err := protocol.ServeStdio(context.Background(), impl, os.Stdin, os.Stdout, 1<<24); err != nil {
		fmt.Fprintln(os.Stderr, "hostile:", err)
		return 1
	}
	return 0
}

// swapParent replaces the binary of the process that started this one
// (conform) with fakeConform, and the digest file beside it with the
// fake's digest, as an implementation that wants a green job would.
func swapParent() error {
	exe, err := os.Readlink("/proc/" + strconv.Itoa(os.Getppid()) + "/exe")
	if err != nil {
		return err
	}
	tmp := exe + ".swap"
	if err := os.WriteFile(tmp, []byte(fakeConform), 0o755); err != nil {
		return err
	}
	if err := os.Rename(tmp, exe); err != nil {
		return err
	}
	sum := sha256.Sum256([]byte(fakeConform))
	digest := filepath.Join(filepath.Dir(exe), filepath.Base(exe)+".sha256")
	return os.WriteFile(digest, []byte(hex.EncodeToString(sum[:])+"\n"), 0o644)
}

// hostile is the reference, except that its hello names it with forged
// text, it answers quote.normalize with forged text (a wrong answer, whose
// difference conform shows) and quote.parse with an error whose message is
// forged, and it writes forgedStderr to stderr with its first requests.
type hostile struct {
	stderr io.Writer
	n      atomic.Int32
}

func (h *hostile) Call(ctx context.Context, req protocol.Request) (protocol.Response, error) {
	if h.stderr != nil && h.n.Add(1) <= 3 {
		io.WriteString(h.stderr, forgedStderr)
	}
	switch req.Op {
	case "hello":
		resp, err := reference.InProcess{}.Call(ctx, req)
		if err != nil {
			return resp, err
		}
		var hello protocol.Hello
		if err := json.Unmarshal(resp.Output, &hello); err != nil {
			return resp, err
		}
		hello.Name, hello.Version, hello.Language = forged, forged, forged
		out, err := json.Marshal(hello)
		return protocol.Response{ID: req.ID, Output: out}, err
	case "quote.normalize":
		out, err := json.Marshal(map[string]string{"text": forged})
		return protocol.Response{ID: req.ID, Output: out}, err
	case "quote.parse":
		return protocol.Response{ID: req.ID, Error: &protocol.Error{Kind: "internal", Message: forged}}, nil
	}
	return reference.InProcess{}.Call(ctx, req)
}
