package marker_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/conform-suite/conform/protocol"
	"github.com/conform-suite/conform/reference"
	"github.com/conform-suite/conform/reference/marker"
	"github.com/conform-suite/conform/runner"
	"github.com/conform-suite/conform/spec"
	"github.com/conform-suite/conform/vectors"
)

// tableOf is the snap set an implementation would use on the tables of
// Unicode version v.
func tableOf(t testing.TB, v string) *unicode.RangeTable {
	t.Helper()
	set, err := spec.SnapSet(v)
	if err != nil {
		t.Fatal(err)
	}
	tab := &unicode.RangeTable{}
	for _, r := range set {
		if r <= 0xFFFF {
			tab.R16 = append(tab.R16, unicode.Range16{Lo: uint16(r), Hi: uint16(r), Stride: 1})
		} else {
			tab.R32 = append(tab.R32, unicode.Range32{Lo: uint32(r), Hi: uint32(r), Stride: 1})
		}
	}
	return tab
}

// An implementation that snaps by its platform's Unicode tables instead of
// the pinned 15.0.0 ones (the reference made to use another version's)
// fails the marker.strip vectors, and the one named for the versions
// between its tables and 15.0.0 among them: the failures name the version.
func TestPlatformTablesFailNamingTheirVersion(t *testing.T) {
	c, err := vectors.Load(vectors.FS())
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		version     string
		named, kept []string // vectors that must fail, and must pass
	}{
		{"13.0.0", []string{"unicode-14-0-additions-snap", "unicode-15-0-additions-snap"}, []string{"unicode-16-0-additions-do-not-snap"}},
		{"14.0.0", []string{"unicode-15-0-additions-snap"}, []string{"unicode-14-0-additions-snap", "unicode-16-0-additions-do-not-snap"}},
		{"16.0.0", []string{"unicode-16-0-additions-do-not-snap"}, []string{"unicode-14-0-additions-snap", "unicode-15-0-additions-snap"}},
	} {
		t.Run(tt.version, func(t *testing.T) {
			defer marker.UseSnapSet(tableOf(t, tt.version))()
			var failing []string
			for _, v := range c.Vectors() {
				if v.Op != "marker.strip" {
					continue
				}
				resp, err := reference.InProcess{}.Call(context.Background(), protocol.Request{ID: protocol.IntID(1), Op: v.Op, Input: v.Input})
				if err != nil {
					t.Fatal(err)
				}
				if resp.Output == nil {
					continue
				}
				if cmp, _, err := runner.Compare(v.Expect.Output, resp.Output); err != nil || cmp != runner.Match {
					failing = append(failing, strings.TrimPrefix(v.ID, "marker.strip/"))
				}
			}
			for _, id := range tt.named {
				if !slices.Contains(failing, id) {
					t.Errorf("on Unicode %s tables, marker.strip/%s passes; want it failed (failing: %v)", tt.version, id, failing)
				}
			}
			for _, id := range tt.kept {
				if slices.Contains(failing, id) {
					t.Errorf("on Unicode %s tables, marker.strip/%s fails; want it passed", tt.version, id)
				}
			}
			for _, id := range failing {
				if !strings.HasPrefix(id, "unicode-") {
					t.Errorf("on Unicode %s tables, marker.strip/%s fails: only the vectors of the Unicode tables should", tt.version, id)
				}
			}
		})
	}
}
