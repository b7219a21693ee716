package runner

import (
	"fmt"
	"io"
	"slices"

	"github.com/conform-suite/conform/spec"
)

// Requirement statuses in a [Rollup].
const (
	RequirementConforms    = "conforms"    // every vector of the requirement that ran passed
	RequirementFails       = "fails"       // at least one of its vectors did not pass
	RequirementUnsupported = "unsupported" // every vector of it ran against an op the implementation does not offer
	RequirementUntested    = "untested"    // no vector of it ran
)

// RequirementOutcome is the outcome of one requirement over a run: the
// outcomes of the vectors that name it.
type RequirementOutcome struct {
	ID          string     `json:"id"`
	Level       spec.Level `json:"level"`
	Status      string     `json:"status"`
	Passed      int        `json:"passed"`
	Failed      int        `json:"failed"`
	Unsupported int        `json:"unsupported"`
	Failing     []string   `json:"failing,omitempty"` // the ids of the vectors that did not pass
}

// LevelRollup counts the requirements of one strength. MUST counts MUST and
// MUST NOT, SHOULD counts SHOULD and SHOULD NOT.
type LevelRollup struct {
	Level       spec.Level `json:"level"`
	Tested      int        `json:"tested"` // requirements with a supported vector in the run
	Conforming  int        `json:"conforming"`
	Unsupported int        `json:"unsupported"`
	Untested    int        `json:"untested"`
}

// Summary is the level's line of a report: "conforms to 212 of 214 MUST
// requirements", followed by the unsupported and untested counts when any.
func (l LevelRollup) Summary() string {
	s := fmt.Sprintf("conforms to %d of %d %s requirements", l.Conforming, l.Tested, l.Level)
	switch {
	case l.Unsupported > 0 && l.Untested > 0:
		s += fmt.Sprintf(" (%d unsupported, %d untested)", l.Unsupported, l.Untested)
	case l.Unsupported > 0:
		s += fmt.Sprintf(" (%d unsupported)", l.Unsupported)
	case l.Untested > 0:
		s += fmt.Sprintf(" (%d untested)", l.Untested)
	}
	return s
}

// Rollup is a run's results rolled up by requirement.
type Rollup struct {
	Requirements []RequirementOutcome `json:"requirements"` // in spec order
	Levels       []LevelRollup        `json:"levels"`       // MUST, SHOULD, MAY
}

// rollupLevels are the strengths a Rollup reports, strongest first.
var rollupLevels = []spec.Level{spec.Must, spec.Should, spec.May}

func rollupLevel(l spec.Level) spec.Level {
	switch l {
	case spec.Must, spec.MustNot:
		return spec.Must
	case spec.Should, spec.ShouldNot:
		return spec.Should
	case spec.May:
		return spec.May
	}
	return ""
}

// RollUp rolls results up by the requirements their vectors name. A
// requirement conforms when every vector naming it that ran passed; a vector
// whose op the implementation does not offer counts for neither side.
// Requirements of s that no result names are untested; informative ones
// appear in Requirements but in no level.
func RollUp(results []Result, s *spec.Spec) *Rollup {
	index := map[string]int{}
	r := &Rollup{}
	for _, req := range s.Requirements {
		index[req.ID] = len(r.Requirements)
		r.Requirements = append(r.Requirements, RequirementOutcome{ID: req.ID, Level: req.Level})
	}
	for i := range results {
		res := &results[i]
		if res.Vector == nil {
			continue
		}
		for _, id := range res.Vector.Requirements {
			j, ok := index[id]
			if !ok {
				continue // the corpus lint reports undefined ids
			}
			ro := &r.Requirements[j]
			switch {
			case res.Outcome == Pass:
				ro.Passed++
			case res.Outcome == Unsupported:
				ro.Unsupported++
			default:
				ro.Failed++
				if !slices.Contains(ro.Failing, res.Vector.ID) {
					ro.Failing = append(ro.Failing, res.Vector.ID)
				}
			}
		}
	}
	levels := map[spec.Level]*LevelRollup{}
	for _, l := range rollupLevels {
		levels[l] = &LevelRollup{Level: l}
	}
	for i := range r.Requirements {
		ro := &r.Requirements[i]
		switch {
		case ro.Failed > 0:
			ro.Status = RequirementFails
		case ro.Passed > 0:
			ro.Status = RequirementConforms
		case ro.Unsupported > 0:
			ro.Status = RequirementUnsupported
		default:
			ro.Status = RequirementUntested
		}
		l := levels[rollupLevel(ro.Level)]
		if l == nil {
			continue
		}
		switch ro.Status {
		case RequirementConforms:
			l.Tested++
			l.Conforming++
		case RequirementFails:
			l.Tested++
		case RequirementUnsupported:
			l.Unsupported++
		default:
			l.Untested++
		}
	}
	for _, l := range rollupLevels {
		r.Levels = append(r.Levels, *levels[l])
	}
	return r
}

// Level returns the roll-up of one level (MUST, SHOULD or MAY).
func (r *Rollup) Level(l spec.Level) LevelRollup {
	for _, lr := range r.Levels {
		if lr.Level == rollupLevel(l) {
			return lr
		}
	}
	return LevelRollup{Level: l}
}

// WriteText writes one line per failing requirement, strongest level first,
// then the summary line of each level that has tested requirements.
func (r *Rollup) WriteText(w io.Writer) {
	for _, l := range rollupLevels {
		for _, ro := range r.Requirements {
			if ro.Status == RequirementFails && rollupLevel(ro.Level) == l {
				fmt.Fprintf(w, "requirement %s (%s) fails: %d of %d vectors: %v\n", ro.ID, ro.Level, ro.Failed, ro.Failed+ro.Passed, ro.Failing)
			}
		}
	}
	for _, l := range r.Levels {
		if l.Tested+l.Unsupported > 0 {
			fmt.Fprintln(w, l.Summary())
		}
	}
}
