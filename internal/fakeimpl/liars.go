package fakeimpl

import (
	"strings"

	"github.com/conform-suite/conform/internal/jsonv"
)

// Liars rewrite a correct output into a wrong one that a lossy comparison
// would take for the same: tests wrap the reference with one and check that
// the runner, features and the CLI fail it. Each takes the JSON text of an
// output and returns the rewritten text (the input unchanged when it is not
// JSON).

// LoneSurrogates writes the lone surrogate \ud83d wherever the output holds
// U+FFFD, in strings and member names: an implementation that keeps a broken
// half of an emoji where the spec requires the replacement character.
func LoneSurrogates(out []byte) []byte {
	replace := func(u []uint16) {
		for i := range u {
			if u[i] == 0xfffd {
				u[i] = 0xd83d
			}
		}
	}
	return rewrite(out, func(v *jsonv.Value) {
		replace(v.Units)
		for i := range v.Members {
			replace(v.Members[i].Name)
		}
	})
}

// TinyFractions adds 1e-81 to every integer of the output, in its text:
// 4 becomes 4.000…(80 zeros)…1.
func TinyFractions(out []byte) []byte { return fractions(out, 80) }

// HugeDigits adds a fraction of 4 million zeros and a 1 to every integer of
// the output: 4 becomes 4.000…(4,000,000 zeros)…1, 4 MB of digits.
func HugeDigits(out []byte) []byte { return fractions(out, HugeDigitCount) }

// HugeDigitCount is the number of zeros HugeDigits adds.
const HugeDigitCount = 4_000_000

func fractions(out []byte, zeros int) []byte {
	tail := "." + strings.Repeat("0", zeros) + "1"
	return rewrite(out, func(v *jsonv.Value) {
		if v.Type == jsonv.Number && !strings.ContainsAny(v.Num, ".eE") {
			v.Num += tail
		}
	})
}

func rewrite(out []byte, f func(*jsonv.Value)) []byte {
	v, err := jsonv.Parse(out)
	if err != nil {
		return out
	}
	walk(v, f)
	return jsonv.Append(nil, v)
}

func walk(v *jsonv.Value, f func(*jsonv.Value)) {
	f(v)
	for i := range v.Elems {
		walk(&v.Elems[i], f)
	}
	for i := range v.Members {
		walk(&v.Members[i].Value, f)
	}
}
