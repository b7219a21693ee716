package spec

import (
	"regexp"
	"testing"
)

// Every built-in has its own tag, and every tag is one a vector may carry
// (schemas/vector.schema.json's pattern of a tag).
func TestBuiltinTags(t *testing.T) {
	builtins, err := PlatformBuiltins()
	if err != nil {
		t.Fatal(err)
	}
	tagPattern := regexp.MustCompile(`^[a-z0-9]+([:._-][a-z0-9]+)*$`)
	seen := map[string]string{}
	for key := range builtins {
		tag := BuiltinTag(key)
		if !tagPattern.MatchString(tag) {
			t.Errorf("%s: tag %q is not a vector tag", key, tag)
		}
		if other, ok := seen[tag]; ok {
			t.Errorf("%s and %s share the tag %q", key, other, tag)
		}
		seen[tag] = key
	}
	for key, want := range map[string]string{
		"python:str.isspace":          "builtin:python-str-isspace",
		"javascript:split(/\\r?\\n/)": "builtin:javascript-split-r-n",
		"java:Character.isWhitespace": "builtin:java-character-iswhitespace",
	} {
		if got := BuiltinTag(key); got != want {
			t.Errorf("BuiltinTag(%q) = %q, want %q", key, got, want)
		}
	}
}
