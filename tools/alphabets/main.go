// Command alphabets writes fuzz/alphabet_data.gen.go, the alphabets the
// fuzzer's generators draw from, from the platform tables
// (spec/data/platform.jsonl): make alphabets runs it.
package main

import (
	"fmt"
	"os"

	"github.com/conform-suite/conform/fuzz"
)

func main() {
	src, err := fuzz.AlphabetSource()
	if err == nil {
		err = os.WriteFile("fuzz/alphabet_data.gen.go", src, 0o644)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "alphabets:", err)
		os.Exit(1)
	}
}
