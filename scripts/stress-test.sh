#!/usr/bin/env bash
# Proves that `make test` does not depend on an idle machine: it clones the
# committed HEAD twice, runs `make test` twice in a row in the first clone
# while the second clone runs `make test` over and over beside it, and fails
# if any of those runs fails. Both clones share Go's module and build caches,
# as two checkouts on a developer's machine do.
#
#   scripts/stress-test.sh              (or: make stress)
#   STRESS_RUNS=3 scripts/stress-test.sh    runs in the first clone (default 2)
#   STRESS_KEEP=1 scripts/stress-test.sh    keep the clones and logs
#
# Each run's log is kept in the work directory it prints; on a failure the
# end of the failing log is shown.
set -euo pipefail
top=$(git rev-parse --show-toplevel)
runs=${STRESS_RUNS:-2}
if ! [[ $runs =~ ^[1-9][0-9]*$ ]]; then
  echo "stress-test: STRESS_RUNS=$runs: want a whole number of runs, at least 1" >&2
  exit 2
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/conform-stress.XXXXXX")
rev=$(git -C "$top" rev-parse --short HEAD)
echo "stress-test: commit $rev, work directory $work"
if [ -n "$(git -C "$top" status --porcelain)" ]; then
  echo "stress-test: note: the work tree has uncommitted changes; the clones test the commit $rev only"
fi
git clone -q "$top" "$work/a"
git clone -q "$top" "$work/b"

beside_pid=
# stop_beside lets the run beside finish the make test it is in (so that
# every run it began is judged whole) and stops its loop.
stop_beside() {
  touch "$work/stop"
  if [ -n "$beside_pid" ]; then
    wait "$beside_pid" 2>/dev/null || true
  fi
  beside_pid=
}
cleanup() {
  if [ -n "$beside_pid" ]; then
    kill -TERM -- "-$beside_pid" 2>/dev/null || true
    wait "$beside_pid" 2>/dev/null || true
  fi
  if [ -z "${STRESS_KEEP:-}" ] && [ "${failed:-1}" = 0 ]; then
    rm -rf "$work"
  fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# The load beside: make test in clone b, again and again, each run's exit
# status written beside its log, until the runs in clone a have ended. Its
# own process group lets an interrupt stop all of it.
set -m
(
  n=0
  while ! [ -e "$work/stop" ]; do
    n=$((n + 1))
    status=0
    make -C "$work/b" --no-print-directory test >"$work/beside-$n.log" 2>&1 || status=$?
    echo "$status" >"$work/beside-$n.status"
  done
) &
beside_pid=$!
set +m

failed=0
for i in $(seq "$runs"); do
  start=$(date +%s)
  status=0
  make -C "$work/a" --no-print-directory test >"$work/run-$i.log" 2>&1 || status=$?
  took=$(($(date +%s) - start))
  load=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)
  if [ "$status" = 0 ]; then
    echo "stress-test: run $i of $runs passed in ${took}s (load average $load)"
  else
    echo "stress-test: run $i of $runs FAILED (exit $status) after ${took}s; the end of $work/run-$i.log:"
    tail -40 "$work/run-$i.log"
    failed=1
    break
  fi
done
stop_beside

beside_runs=0
for s in "$work"/beside-*.status; do
  [ -e "$s" ] || continue
  beside_runs=$((beside_runs + 1))
  if [ "$(cat "$s")" != 0 ]; then
    log=${s%.status}.log
    echo "stress-test: a make test beside FAILED (exit $(cat "$s")); the end of $log:"
    tail -40 "$log"
    failed=1
  fi
done
echo "stress-test: $beside_runs make test run(s) beside, each passed unless said above"
if [ "$failed" != 0 ]; then
  echo "stress-test: FAILED; logs in $work"
  exit 1
fi
echo "stress-test: passed: $runs make test run(s) in a row, with another make test running beside them, on $rev"
