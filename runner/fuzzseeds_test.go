package runner

import "flag"

// Under -test.fuzz the engine runs every seed to gather baseline coverage
// before it mutates anything: FuzzServeLine seeded with every vector (over a
// thousand request lines) spent a short run replaying them and never
// fuzzed. There the seeds are thinned to fuzzSeedCount lines of at most
// fuzzSeedBytes, spread evenly over the corpus; plain `go test` replays
// every vector's request line. Not under go test at all (a libFuzzer build,
// whose f.Add is a no-op and whose setup runs before every input), no seed
// is made.
const (
	fuzzSeedCount = 24
	fuzzSeedBytes = 4 << 10
)

// thinSeedLines returns the seeds to add out of all.
func thinSeedLines(all [][]byte) [][]byte {
	f := flag.Lookup("test.fuzz")
	switch {
	case f == nil:
		return nil
	case f.Value.String() == "":
		return all
	}
	var small [][]byte
	for _, s := range all {
		if len(s) <= fuzzSeedBytes {
			small = append(small, s)
		}
	}
	if len(small) <= fuzzSeedCount {
		return small
	}
	out := make([][]byte, 0, fuzzSeedCount)
	for i := range fuzzSeedCount {
		out = append(out, small[i*len(small)/fuzzSeedCount])
	}
	return out
}
