package opkit

import (
	"math"
	"strconv"
	"strings"

	"github.com/conform-suite/conform/internal/jsonv"
)

// Integer reads a JSON number literal by its exact decimal value, never
// through a float (spec/README.md, Numbers): 1, 1.0, 1E0, 10e-1, -0 and
// 100000000000e-10 are integers whatever their spelling, and 1.5 and 1e-400
// are not. isInt is false for a fraction and for a literal that is not a JSON
// number. v is the value and exact is true when the integer fits an int64;
// one beyond gives the bound of its sign with exact false (1e400 is
// math.MaxInt64, not exact). The time is linear in the literal's length.
func Integer(lit string) (v int64, isInt, exact bool) {
	d, ok := jsonv.ParseDecimal(lit)
	if !ok || !d.IsInteger() {
		return 0, false, false
	}
	if d.Digits == "" {
		return 0, true, true // zero, however written (-0, 0.0, 0e-400)
	}
	bound := int64(math.MaxInt64)
	if d.Neg {
		bound = math.MinInt64
	}
	// The value is 0.Digits × 10^Exp, an integer: Exp is at least
	// len(Digits), and an int64 has at most 19 digits.
	e, err := strconv.ParseInt(d.Exp, 10, 64)
	if err != nil || e > 19 {
		return bound, true, false
	}
	s := d.Digits + strings.Repeat("0", int(e)-len(d.Digits))
	if d.Neg {
		s = "-" + s
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return bound, true, false
	}
	return n, true, true
}
