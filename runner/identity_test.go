package runner

import (
	"testing"
)

// TestStampedIdentity: a version and revision set at link time (a release
// build, or a build from a source tree without .git) are the identity's,
// whatever the build information says; unset, the build information rules.
func TestStampedIdentity(t *testing.T) {
	plain := NewIdentity("sha256:x")
	t.Cleanup(func() { StampedVersion, StampedRevision = "", "" })
	StampedVersion, StampedRevision = "v1.2.3", "0123456789abcdef0123456789abcdef01234567"
	id := NewIdentity("sha256:x")
	if id.Version != "v1.2.3" || id.Revision != StampedRevision || id.Modified {
		t.Errorf("stamped identity = %+v", id)
	}
	if want := "conform v1.2.3 (0123456789ab), protocol 1, suite " + SuiteVersion + ", corpus sha256:x"; id.String() != want {
		t.Errorf("String() = %q, want %q", id.String(), want)
	}
	StampedVersion, StampedRevision = "", ""
	if again := NewIdentity("sha256:x"); *again != *plain {
		t.Errorf("unstamped identity = %+v, want the build information's %+v", again, plain)
	}
}
