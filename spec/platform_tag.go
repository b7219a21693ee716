package spec

import "strings"

// BuiltinTag is the vector tag of a built-in: "builtin:" and its key in lower
// case, each run of other characters than ASCII letters and digits written
// as one "-" ("python:str.isspace" is "builtin:python-str-isspace"). A
// platform vector carries the tags of the built-ins it catches, so that a
// porting team finds the vectors of the built-ins its code calls.
func BuiltinTag(key string) string {
	var b strings.Builder
	b.WriteString("builtin:")
	dash := false
	for _, r := range strings.ToLower(key) {
		if 'a' <= r && r <= 'z' || '0' <= r && r <= '9' {
			if dash && b.Len() > len("builtin:") {
				b.WriteByte('-')
			}
			dash = false
			b.WriteRune(r)
			continue
		}
		dash = true
	}
	return b.String()
}
