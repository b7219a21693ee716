package jsonv

import (
	"strconv"
	"strings"
)

// Decimal is the exact value of a JSON number in a normal form:
// ±0.Digits × 10^Exp, with Digits free of leading and trailing zeros. Zero
// (also "-0", "0e5", "0.000") has Digits "" and Exp "0" and is never Neg. Exp
// is a decimal integer of any length ("-7", "0", "999999999999999999999"):
// an exponent is never converted to a machine integer it could overflow.
type Decimal struct {
	Neg    bool
	Digits string
	Exp    string
}

// ParseDecimal returns the normal form of a JSON number literal, in time
// linear in its length; ok is false when lit is not a JSON number.
func ParseDecimal(lit string) (d Decimal, ok bool) {
	if !IsNumber(lit) {
		return Decimal{}, false
	}
	neg := lit[0] == '-'
	if neg {
		lit = lit[1:]
	}
	mant, exp := lit, ""
	if i := strings.IndexAny(lit, "eE"); i >= 0 {
		mant, exp = lit[:i], lit[i+1:]
	}
	intPart, frac := mant, ""
	if i := strings.IndexByte(mant, '.'); i >= 0 {
		intPart, frac = mant[:i], mant[i+1:]
	}
	all := intPart + frac
	lead := 0
	for lead < len(all) && all[lead] == '0' {
		lead++
	}
	if lead == len(all) {
		return Decimal{Exp: "0"}, true
	}
	end := len(all)
	for all[end-1] == '0' {
		end--
	}
	// 0.all × 10^(len(intPart)) is the mantissa; dropping lead leading
	// zeros scales it by 10^lead.
	return Decimal{Neg: neg, Digits: all[lead:end], Exp: addExponent(exp, int64(len(intPart))-int64(lead))}, true
}

// NumberEqual reports whether two JSON number literals have the same exact
// value (4, 4.0, 40e-1 and 0.4e1 do; -0 and 0 do). It is false when either
// is not a number literal. The time is linear in the literals' lengths.
func NumberEqual(a, b string) bool {
	if a == b {
		return IsNumber(a)
	}
	x, ok1 := ParseDecimal(a)
	y, ok2 := ParseDecimal(b)
	return ok1 && ok2 && x == y
}

// IsInteger reports whether d has no fractional part.
func (d Decimal) IsInteger() bool {
	if d.Digits == "" {
		return true
	}
	if strings.HasPrefix(d.Exp, "-") {
		return false
	}
	if len(d.Exp) > 18 {
		return true // an exponent of 10^18 or more exceeds any number of digits held in memory
	}
	e, _ := strconv.ParseInt(d.Exp, 10, 64)
	return int64(len(d.Digits)) <= e
}

// addExponent returns the canonical decimal text of exp + adj, where exp is
// the exponent of a literal as written (optional sign, digits, possibly
// empty for none) and adj is small (a length: far below 10^18).
func addExponent(exp string, adj int64) string {
	neg := false
	switch {
	case strings.HasPrefix(exp, "-"):
		neg, exp = true, exp[1:]
	case strings.HasPrefix(exp, "+"):
		exp = exp[1:]
	}
	exp = strings.TrimLeft(exp, "0")
	if len(exp) <= 18 {
		n, _ := strconv.ParseInt("0"+exp, 10, 64) // < 10^18: no overflow, nor with adj added
		if neg {
			n = -n
		}
		return strconv.FormatInt(n+adj, 10)
	}
	// A long exponent: at least 10^18, so larger than adj, whose sign it
	// keeps. Add adj to its magnitude digit by digit, from the last, with
	// the carry (or borrow) as long as one is left.
	if neg {
		adj = -adj
	}
	mag := []byte(exp)
	for i := len(mag) - 1; i >= 0 && adj != 0; i-- {
		v := int64(mag[i]-'0') + adj
		d := (v%10 + 10) % 10
		mag[i] = byte('0' + d)
		adj = (v - d) / 10
	}
	out := strings.TrimLeft(strconv.FormatInt(adj, 10)+string(mag), "0")
	if neg {
		return "-" + out
	}
	return out
}
