// Command conform checks implementations of the quote, marker and selref
// suites against the conformance vectors. See 'conform help'.
package main

import (
	"os"
	"runtime/debug"

	"github.com/conform-suite/conform/cmd/conform/cli"
)

func main() {
	cli.RouteLibraryLog(os.Stderr)
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(cli.MemoryLimit)
	}
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(cli.GCPercent)
	}
	os.Exit(cli.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
