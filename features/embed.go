package features

import (
	"embed"
	"io/fs"
)

// The scenarios, one directory per suite. README.md files are embedded too
// and ignored: only *.feature files are read.
//
//go:embed quote marker selref protocol
var files embed.FS

// The scenarios about conform's own runner, which need its test fakes.
//
//go:embed runner
var runnerFiles embed.FS

// FS returns the embedded feature files an implementation is judged by,
// one directory per suite.
func FS() fs.FS { return files }

// RunnerFS returns the embedded scenarios about conform's own runner,
// under runner/: they start fake implementations that only the package's
// tests can play, so `conform features` never runs them, but they exercise
// requirements and count in coverage.
func RunnerFS() fs.FS { return runnerFiles }
