package main

import (
	"strings"
	"testing"
)

// TestRead: top-level tests that passed or failed, slowest first; subtests,
// skips, package events and lines that are not JSON are left out.
func TestRead(t *testing.T) {
	in := `{"Action":"pass","Package":"p","Test":"TestA","Elapsed":1.5}
{"Action":"pass","Package":"p","Test":"TestA/sub","Elapsed":9}
{"Action":"fail","Package":"q","Test":"TestB","Elapsed":3}
{"Action":"skip","Package":"q","Test":"TestC","Elapsed":7}
{"Action":"pass","Package":"q","Elapsed":20}
# a build error line
{"Action":"pass","Package":"a","Test":"TestD","Elapsed":1.5}
`
	got, err := read(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	want := []timing{{3, "q", "TestB"}, {1.5, "a", "TestD"}, {1.5, "p", "TestA"}}
	if len(got) != len(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("got[%d] = %v, want %v", i, got[i], want[i])
		}
	}
}
