package vectors

import (
	"crypto/sha256"
	"encoding/hex"
	"testing"
	"testing/fstest"
)

// The digest follows its documented definition, computed here by hand.
func TestDigestDefinition(t *testing.T) {
	fsys := fstest.MapFS{
		"b/x.json":  {Data: []byte(`{"b":1}`)},
		"a.json":    {Data: []byte(`[]`)},
		"notes.txt": {Data: []byte("ignored")},
	}
	sum := sha256.Sum256([]byte("a.json\n2\n[]b/x.json\n7\n{\"b\":1}"))
	want := "sha256:" + hex.EncodeToString(sum[:])
	got, err := Digest(fsys)
	if err != nil || got != want {
		t.Fatalf("Digest = %q, %v; want %q", got, err, want)
	}
}

// Changing one byte of one file, or moving bytes between files, changes
// the digest; files that are not vectors do not.
func TestDigestSensitivity(t *testing.T) {
	base := fstest.MapFS{"a.json": {Data: []byte(`ab`)}, "b.json": {Data: []byte(`c`)}}
	d0, _ := Digest(base)
	for name, fsys := range map[string]fstest.MapFS{
		"one byte":    {"a.json": {Data: []byte(`aB`)}, "b.json": {Data: []byte(`c`)}},
		"moved bytes": {"a.json": {Data: []byte(`a`)}, "b.json": {Data: []byte(`bc`)}},
		"renamed":     {"a.json": {Data: []byte(`ab`)}, "c.json": {Data: []byte(`c`)}},
	} {
		if d, _ := Digest(fsys); d == d0 {
			t.Errorf("%s: digest unchanged", name)
		}
	}
	extra := fstest.MapFS{"a.json": {Data: []byte(`ab`)}, "b.json": {Data: []byte(`c`)}, "README.md": {Data: []byte(`x`)}}
	if d, _ := Digest(extra); d != d0 {
		t.Errorf("a non-vector file changed the digest")
	}
	if d, err := Digest(FS()); err != nil || len(d) != len("sha256:")+64 {
		t.Errorf("embedded corpus digest = %q, %v", d, err)
	}
}
