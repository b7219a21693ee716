package runner

import (
	"cmp"
	"fmt"
	"runtime/debug"

	"github.com/conform-suite/conform/protocol"
)

// Identity says which conform made a report and with which vectors: the
// module version and VCS revision of the binary (from its build
// information), the protocol and suite versions, and the digest of the
// corpus that ran (vectors.Digest). Two reports with the same corpus digest
// used the same vectors.
type Identity struct {
	Module       string `json:"module"`
	Version      string `json:"version"`            // "(devel)" for a build from a work tree
	Revision     string `json:"revision,omitempty"` // VCS revision, when the build recorded it
	Modified     bool   `json:"modified,omitempty"` // the work tree had uncommitted changes
	Protocol     int    `json:"protocol"`
	Suite        string `json:"suite_version"`
	CorpusDigest string `json:"corpus_digest"`
}

// StampedVersion and StampedRevision, when set at link time
// (-ldflags "-X github.com/conform-suite/conform/runner.StampedVersion=v1.2.3
// -X ...StampedRevision=SHA"), are the binary's version and revision: a
// release build, or a build from a source tree without .git (the Action's),
// has no VCS information of its own. They take precedence over the build
// information.
var StampedVersion, StampedRevision string

// NewIdentity returns the identity of this binary with the given corpus
// digest.
func NewIdentity(corpusDigest string) *Identity {
	id := &Identity{Module: "github.com/conform-suite/conform", Version: "unknown",
		Protocol: protocol.Version, Suite: SuiteVersion, CorpusDigest: corpusDigest}
	if info, ok := debug.ReadBuildInfo(); ok {
		id.Module = cmp.Or(info.Main.Path, id.Module)
		id.Version = cmp.Or(info.Main.Version, id.Version)
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				id.Revision = s.Value
			case "vcs.modified":
				id.Modified = s.Value == "true"
			}
		}
	}
	id.Version = cmp.Or(StampedVersion, id.Version)
	if StampedRevision != "" {
		id.Revision, id.Modified = StampedRevision, false
	}
	return id
}

// String is the one-line form used by the text and Markdown reports and
// 'conform version': "conform VERSION (REVISION), protocol N, suite V,
// corpus sha256:...".
func (id *Identity) String() string {
	rev := ""
	if id.Revision != "" {
		r := id.Revision[:min(len(id.Revision), 12)]
		if id.Modified {
			r += "+dirty"
		}
		rev = " (" + r + ")"
	}
	return fmt.Sprintf("conform %s%s, protocol %d, suite %s, corpus %s", id.Version, rev, id.Protocol, id.Suite, id.CorpusDigest)
}
