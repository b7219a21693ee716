#!/usr/bin/env bash
# Checks scripts/fuzz-classify.sh on go's own output for a real finding: it
# fuzzes, in a throwaway module, a planted target that fails on any input but
# its seed, and fails unless the log of that run is classified "finding".
# `make fuzz-smoke` runs it after the targets, when the instrumented build of
# the standard library is in Go's build cache, so it takes a few seconds.
#
# Usage: scripts/fuzz-classify-check.sh
set -euo pipefail
GO=${GO:-go}
here=$(cd "$(dirname "$0")" && pwd)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
printf 'module example.test/finding\n\ngo 1.26\n' >"$dir/go.mod"
cat >"$dir/f_test.go" <<'GO'
package finding

import "testing"

func FuzzPlanted(f *testing.F) {
	f.Add("seed")
	f.Fuzz(func(t *testing.T, s string) {
		if s != "seed" {
			t.Fatalf("planted failure on %q", s)
		}
	})
}
GO
status=0
(cd "$dir" && $GO test -run '^$' -fuzz '^FuzzPlanted$' -fuzztime 60s . >"$dir/fuzz.log" 2>&1) || status=$?
if [ "$status" = 0 ]; then
  echo "fuzz-classify-check: the planted target found nothing in 60s:" >&2
  cat "$dir/fuzz.log" >&2
  exit 1
fi
got=$("$here/fuzz-classify.sh" "$dir/fuzz.log")
if [ "$got" != finding ]; then
  echo "fuzz-classify-check: go's log of a real finding is classified \"$got\", want \"finding\":" >&2
  cat "$dir/fuzz.log" >&2
  exit 1
fi
echo "fuzz-classify-check: go's log of a real finding ($($GO env GOVERSION)) is classified \"finding\""
