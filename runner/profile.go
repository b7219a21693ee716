package runner

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/conform-suite/conform/protocol"
	"github.com/conform-suite/conform/vectors"
)

// DefaultProfile grades every vector against its standard expectation: the
// specification.
const DefaultProfile = "spec"

// Profiles returns the profiles a run may grade under: the default one and
// one per real system a divergence record may name (vectors.Systems).
func Profiles() []string { return append([]string{DefaultProfile}, vectors.Systems...) }

// CheckProfile returns an error naming the known profiles when name is not
// one of them. The empty name is the default profile.
func CheckProfile(name string) error {
	if name == "" || slices.Contains(Profiles(), name) {
		return nil
	}
	return fmt.Errorf("unknown profile %q (known: %s)", name, strings.Join(Profiles(), ", "))
}

// ProfileName returns the name reports give a profile: the default one for "".
func ProfileName(name string) string { return cmp.Or(name, DefaultProfile) }

// Recorded returns the divergence record a vector is graded against under
// profile: the answer the profile's system is recorded to give, or nil when
// the vector is graded against its standard expectation (always, under the
// default profile).
func Recorded(profile string, v *vectors.Vector) *vectors.Divergence {
	if profile == "" || profile == DefaultProfile {
		return nil
	}
	return v.Divergence(profile)
}

// judgeRecordedError judges an answer to a vector whose profile's system is
// recorded to answer with a protocol error: an error of the same kind
// passes (messages are never compared), anything else is a wrong answer.
func judgeRecordedError(res *Result, resp protocol.Response, d *vectors.Divergence) {
	want := fmt.Sprintf("error kind %s (the answer recorded for %s)", d.Error.Kind, d.System)
	switch {
	case resp.Error != nil && resp.Error.Kind == d.Error.Kind:
		res.Outcome = Pass
		return
	case resp.Error != nil:
		res.Diffs = []string{fmt.Sprintf("$: want %s, got error kind %s: %s", want, resp.Error.Kind, short(resp.Error.Message))}
	default:
		res.Actual = resp.Output
		res.Diffs = []string{fmt.Sprintf("$: want %s, got output %s", want, short(resp.Output))}
	}
	res.Outcome, res.Comparison = Fail, Mismatch
}
