package marker_test

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"unicode"

	"github.com/conform-suite/conform/fuzz"
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
	set, err := spec.SnapSet(v)
	if err != nil {
		if t == nil {
			panic(err)
		}
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
		{"16.0.0", []string{"unicode-16-0-additions-do-not-snap"}, []string{"unicode-14-0-additions-snap", "unicode-15-0-additions-snap", "unicode-17-0-additions-do-not-snap"}},
		{"17.0.0", []string{"unicode-16-0-additions-do-not-snap", "unicode-17-0-additions-do-not-snap"}, []string{"unicode-15-0-additions-snap"}},
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

// fakeUnicodeEnv makes the test binary a protocol v1 server over stdio
// whose snap set is that of the Unicode version it names: the
// platform-table fake, as a process of its own, so that an oracle in the
// test process keeps the pinned set.
const fakeUnicodeEnv = "CONFORM_FAKE_UNICODE"

func TestMain(m *testing.M) {
	if v := os.Getenv(fakeUnicodeEnv); v != "" {
		marker.UseSnapSet(tableOf(nil, v))
		if err := protocol.ServeStdio(context.Background(), reference.InProcess{}, os.Stdin, os.Stdout, 0); err != nil {
			fmt.Fprintln(os.Stderr, "fake:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// conform fuzz, seeded, finds the fake on Unicode 14.0.0 tables out: its
// generators draw punctuation from the pinned tables and their edge
// between versions, not from ASCII alone. The run is bounded by a count of
// executions, so its findings depend on the seed only.
func TestFuzzFindsPlatformTables(t *testing.T) {
	impl := runner.NewStdio(os.Args[0])
	impl.Env = append(os.Environ(), fakeUnicodeEnv+"=14.0.0")
	defer impl.Close()
	// Without the vectors of the Unicode tables, whose inputs the fuzzer
	// would otherwise mutate: the generators must find it themselves.
	files := fstest.MapFS{}
	err := fs.WalkDir(vectors.FS(), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || p == "marker/strip-unicode.gen.json" {
			return err
		}
		data, err := fs.ReadFile(vectors.FS(), p)
		files[p] = &fstest.MapFile{Data: data}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	corpus, err := vectors.Load(files)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := fuzz.Run(context.Background(), fuzz.Config{Impl: impl, Corpus: corpus, Ops: []string{"marker.strip"}, Seed: 1, Count: 3000, Parallel: 4})
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Diverged() {
		t.Fatalf("3,000 executions of marker.strip against Unicode 14.0.0 tables found nothing")
	}
	t.Logf("%d findings in %d executions; the first: %s", len(rep.Findings), rep.Execs, rep.Findings[0].Input)
}
