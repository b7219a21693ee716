// Command conform checks implementations of the quote, marker and selref
// suites against the conformance vectors. See 'conform help'.
package main

import (
	"os"

	"github.com/conform-suite/conform/cmd/conform/cli"
)

func main() {
	os.Exit(cli.Main(os.Args[1:], os.Stdout, os.Stderr))
}
