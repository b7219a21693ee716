package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/conform-suite/conform/cmd/conform/cli"
	"github.com/conform-suite/conform/protocol"
	"github.com/conform-suite/conform/reference"
)

// serveEnv makes this binary (the command or its test) serve the reference
// over stdio: the port models start it as their child through
// CONFORM_REFERENCE.
const serveEnv = "CONFORM_PORTMODELS_SERVE"

func init() {
	if os.Getenv(serveEnv) == "" {
		return
	}
	if err := protocol.ServeStdio(context.Background(), reference.InProcess{}, os.Stdin, os.Stdout, 0); err != nil {
		fmt.Fprintln(os.Stderr, "portmodels: serving the reference:", err)
		os.Exit(1)
	}
	os.Exit(0)
}

// referenceEnv sets the environment the models read: CONFORM_REFERENCE, this
// binary, serving the reference (serveEnv).
func referenceEnv() error {
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	if strings.ContainsAny(exe, " \t\n'\"\\") {
		// the models split CONFORM_REFERENCE at spaces
		return fmt.Errorf("the path of this binary, %q, holds a space or a quote: the port models cannot start it", exe)
	}
	if err := os.Setenv(serveEnv, "1"); err != nil {
		return err
	}
	return os.Setenv("CONFORM_REFERENCE", exe)
}

// A check is one way of failing a model: conform run on its ops, conform
// features, or conform fuzz from the generators alone.
type check string

const (
	checkRun      check = "run"
	checkFeatures check = "features"
	checkFuzz     check = "fuzz"
)

// A verdict is what one check of conform said of a model.
type verdict struct {
	code   int    // conform's exit code
	output string // the last lines of what it printed
}

// failed reports whether conform failed the model: exit code 1. Exit 2 (the
// model could not be started, or bad usage) is no verdict.
func (v verdict) failed() bool { return v.code == cli.ExitFailed }

// judge runs one check of conform against m; fuzz writes its findings in
// the directory out. Features run the scenarios under paths (every one when
// none is given).
func judge(m *model, c check, fuzzCount int, out string, paths ...string) verdict {
	stdio, err := m.stdio()
	if err != nil {
		return verdict{code: cli.ExitUsage, output: err.Error()}
	}
	args := []string{string(c), "--stdio", stdio}
	switch c {
	case checkRun:
		if m.Check == "features" {
			return verdict{code: cli.ExitUsage, output: "no vector holds a slip in the protocol"}
		}
		if m.Model != identity {
			args = append(args, "--op", strings.Join(m.Ops, ","))
		}
	case checkFeatures:
		// a model that answers a line it must not answer leaves a wait per exchange: bound it
		args = append(append(args, "--format", "conform", "--timeout", "10s"), paths...)
	case checkFuzz:
		args = append(args, "--count", strconv.Itoa(fuzzCount), "--seed", "1", "--out", out)
		if m.Check == "features" { // a slip in the protocol: the malformed lines of --envelopes
			args = append(args, "--envelopes")
			break
		}
		args = append(args, "--no-corpus")
		for _, op := range m.Ops {
			args = append(args, "--op", op)
		}
	}
	var printed bytes.Buffer
	code := cli.Main(args, strings.NewReader(""), &printed, &printed)
	return verdict{code: code, output: lastLines(printed.String(), 6)}
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}
