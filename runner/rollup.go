package runner

import (
	"fmt"
	"slices"

	"github.com/conform-suite/conform/spec"
)

// LevelRollup counts, for one strength of requirement, how many the run
// exercised and how many of those the implementation conforms to. MUST
// counts MUST and MUST NOT requirements, SHOULD counts SHOULD and SHOULD NOT.
type LevelRollup struct {
	Level       spec.Level `json:"level"`
	Tested      int        `json:"tested"`      // requirements with at least one supported vector in the run
	Conforming  int        `json:"conforming"`  // of those, the ones whose vectors all passed
	Unsupported int        `json:"unsupported"` // requirements whose vectors all used ops the implementation does not offer
}

// Summary is the level's line of a report: "conforms to 212 of 214 MUST
// requirements run", and the unsupported count when there are any. Only the
// requirements that the run's vectors name are counted: those exercised by
// scenarios alone are checked by conform features.
// A level none of whose requirements was judged says so ("no SHOULD
// requirement run (3 unsupported)"), never "conforms to 0 of 0".
func (l LevelRollup) Summary() string {
	if l.Tested == 0 {
		s := fmt.Sprintf("no %s requirement run", l.Level)
		if l.Unsupported > 0 {
			s += fmt.Sprintf(" (%d unsupported)", l.Unsupported)
		}
		return s
	}
	s := fmt.Sprintf("conforms to %d of %d %s requirements run", l.Conforming, l.Tested, l.Level)
	if l.Unsupported > 0 {
		s += fmt.Sprintf(" (%d more unsupported)", l.Unsupported)
	}
	return s
}

// conformanceLevels are the strengths Conformance reports, strongest first.
var conformanceLevels = []spec.Level{spec.Must, spec.Should, spec.May}

// strength folds a level into the one Conformance reports it under; a level
// missing (informative, or not in the specification at hand) is reported
// under none.
var strength = map[spec.Level]spec.Level{
	spec.Must: spec.Must, spec.MustNot: spec.Must,
	spec.Should: spec.Should, spec.ShouldNot: spec.Should,
	spec.May: spec.May,
}

// Conformance rolls the run up by requirement level: for MUST, SHOULD and
// MAY, how many requirements the run exercised and how many of those the
// implementation conforms to (Requirements gives each one's outcome). A
// requirement conforms when every vector naming it passed; an expected
// failure (xfail) does not conform.
func (r *Report) Conformance() []LevelRollup {
	out := make([]LevelRollup, len(conformanceLevels))
	for i, l := range conformanceLevels {
		out[i].Level = l
	}
	for _, rr := range r.Requirements() {
		i := slices.Index(conformanceLevels, strength[rr.Level])
		if i < 0 {
			continue
		}
		if rr.Outcome == Unsupported {
			out[i].Unsupported++
			continue
		}
		out[i].Tested++
		if rr.Outcome == Pass {
			out[i].Conforming++
		}
	}
	return out
}
