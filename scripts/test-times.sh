#!/usr/bin/env bash
# Measures the test loop on the committed HEAD, in a fresh clone: the time
# of `make test` there (cold: a clone has no test results cached, though Go's
# module and build caches are the machine's, as on a developer's machine),
# then of `go test -count=1 ./...` (warm: built by the first), and the ten
# slowest tests of that second run. README's figures come from this script.
#
#   scripts/test-times.sh        (or: make test-times)
set -euo pipefail
top=$(git rev-parse --show-toplevel)
work=$(mktemp -d "${TMPDIR:-/tmp}/conform-times.XXXXXX")
trap 'rm -rf "$work"' EXIT
git clone -q "$top" "$work/c"
cd "$work/c"
rev=$(git rev-parse --short HEAD)
echo "test-times: commit $rev, $(go env GOVERSION), $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown) before"

start=$(date +%s)
if ! make --no-print-directory test >"$work/make-test.log" 2>&1; then
  tail -40 "$work/make-test.log"
  echo "test-times: make test failed" >&2
  exit 1
fi
echo "test-times: make test (fresh clone): $(($(date +%s) - start))s"

start=$(date +%s)
status=0
go test -count=1 -json ./... >"$work/go-test.json" 2>"$work/go-test.err" || status=$?
took=$(($(date +%s) - start))
if [ "$status" != 0 ]; then
  cat "$work/go-test.err"
  echo "test-times: go test ./... failed" >&2
  exit 1
fi
echo "test-times: go test -count=1 ./... (warm): ${took}s"
echo "test-times: load average $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown) after"
echo "test-times: the ten slowest tests of that run:"
go run ./tools/slowest <"$work/go-test.json"
