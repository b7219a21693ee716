// Command slowest reads the output of go test -json and prints the slowest
// top-level tests, slowest first, one a line: seconds, package, test.
//
//	go test -json ./... | go run ./tools/slowest [-n 10]
package main

import (
	"bufio"
	"cmp"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
)

// event is the part of a go test -json event that slowest reads.
type event struct {
	Action  string
	Package string
	Test    string
	Elapsed float64
}

// timing is one test that ended, with how long it took.
type timing struct {
	Seconds       float64
	Package, Test string
}

func main() {
	n := flag.Int("n", 10, "how many tests to print")
	flag.Parse()
	if *n < 1 {
		fmt.Fprintln(os.Stderr, "slowest: -n must be at least 1")
		os.Exit(2)
	}
	tests, err := read(os.Stdin)
	if err != nil {
		fmt.Fprintln(os.Stderr, "slowest:", err)
		os.Exit(1)
	}
	for _, t := range tests[:min(*n, len(tests))] {
		fmt.Printf("%7.2fs  %s  %s\n", t.Seconds, t.Package, t.Test)
	}
}

// read returns the top-level tests that passed or failed in the events of
// r, slowest first (ties by package and name). Lines that are not JSON
// events, such as a build error, are skipped.
func read(r io.Reader) ([]timing, error) {
	var tests []timing
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for sc.Scan() {
		var e event
		if json.Unmarshal(sc.Bytes(), &e) != nil {
			continue
		}
		if e.Test == "" || strings.Contains(e.Test, "/") || (e.Action != "pass" && e.Action != "fail") {
			continue
		}
		tests = append(tests, timing{e.Elapsed, e.Package, e.Test})
	}
	slices.SortFunc(tests, func(a, b timing) int {
		return cmp.Or(cmp.Compare(b.Seconds, a.Seconds), strings.Compare(a.Package, b.Package), strings.Compare(a.Test, b.Test))
	})
	return tests, sc.Err()
}
