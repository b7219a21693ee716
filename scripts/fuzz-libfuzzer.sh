#!/usr/bin/env bash
# Builds the module's native Go fuzz targets as libFuzzer binaries, the way
# OSS-Fuzz and ClusterFuzzLite do, and runs them. .clusterfuzzlite/build.sh
# calls `build` inside the OSS-Fuzz image; `make fuzz-libfuzzer` runs
# `deps build run check` here, with the OSS-Fuzz variables given local
# values.
#
#   scripts/fuzz-libfuzzer.sh list    print "PKGDIR TARGET" for every native fuzz target
#   scripts/fuzz-libfuzzer.sh deps    install clang, its libFuzzer runtime and go-118-fuzz-build when missing
#   scripts/fuzz-libfuzzer.sh build   build every target (FUZZ_TARGETS: only these) into $OUT
#   scripts/fuzz-libfuzzer.sh run     run each binary in $OUT for FUZZ_SECONDS (default 5) and summarise it
#   scripts/fuzz-libfuzzer.sh check   build FuzzSeededCrash and assert the binary finds its planted failure
#
# Variables (OSS-Fuzz sets them in its image; the defaults are for here):
#   CONFORM_SRC  the module's source tree (default: this checkout; not
#        OSS-Fuzz's SRC, which is the directory holding the checkouts)
#   OUT  where the binaries go (default: build/libfuzzer)
#   WORK scratch space (default: a temporary directory)
#   CXX, CXXFLAGS, LIB_FUZZING_ENGINE  the link (default: clang++, none, -fsanitize=fuzzer)
#
# How one target is built (the steps of OSS-Fuzz's compile_native_go_fuzzer):
#   1. the module is copied to $WORK/mod, where its go.mod is given the
#      go-118-fuzz-build testing shim (the source tree is never touched);
#   2. tools/fuzzprep gathers the target and the test helpers it reaches
#      into one test file of its package and removes the other test files
#      there (the libFuzzer build sees only the file holding the target);
#   3. inside the OSS-Fuzz image, compile_native_go_fuzzer builds it (so
#      coverage builds work as OSS-Fuzz intends); elsewhere the two commands
#      it runs for a fuzzing build: go-118-fuzz-build -tags gofuzz -func
#      TARGET, which rewrites the target's testing import to the shim and
#      builds an instrumented C archive, then $CXX $CXXFLAGS
#      $LIB_FUZZING_ENGINE linking it into $OUT/TARGET.
set -euo pipefail

# The go-118-fuzz-build version: the tool and its testing shim must match.
G118_VERSION=${G118_VERSION:-v0.0.0-20250520111509-a70c2aa677fa}
G118=github.com/AdamKorcz/go-118-fuzz-build
MODULE=github.com/conform-suite/conform

here=$(cd "$(dirname "$0")/.." && pwd)
SRC_TREE=${CONFORM_SRC:-$here}
OUT=${OUT:-$here/build/libfuzzer}
CXX=${CXX:-clang++}
CXXFLAGS=${CXXFLAGS:-}
LIB_FUZZING_ENGINE=${LIB_FUZZING_ENGINE:--fsanitize=fuzzer}
FUZZ_SECONDS=${FUZZ_SECONDS:-5}
GOBIN_DIR=$(go env GOPATH)/bin
export PATH="$GOBIN_DIR:$PATH"
if [ -z "${WORK:-}" ]; then
  WORK=$(mktemp -d)
  trap 'rm -rf "$WORK"' EXIT
fi

say() { echo "fuzz-libfuzzer: $*"; }

# fuzzprep builds tools/fuzzprep into $WORK once.
fuzzprep() {
  [ -x "$WORK/fuzzprep" ] || (cd "$SRC_TREE" && go build -o "$WORK/fuzzprep" ./tools/fuzzprep)
}

# targets prints "PKGDIR TARGET" for every native fuzz target of the module,
# the targets `go test -list '^Fuzz'` lists (scripts/fuzz.sh runs those):
# tools/fuzzprep -list reads the declarations of the test files go list
# gives, so build constraints count (FuzzSeededCrash, behind a tag, is
# built by `check` only) and a declaration quoted in a string does not. It
# fails when two packages declare the same target name, as both would be
# built into $OUT/TARGET.
targets() {
  fuzzprep
  "$WORK/fuzzprep" -list -root "$SRC_TREE"
}

# engine_links reports whether $CXX can link a libFuzzer target.
engine_links() {
  local dir
  dir=$(mktemp -d)
  printf '#include <stddef.h>\n#include <stdint.h>\nextern "C" int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { return 0; }\n' >"$dir/t.cc"
  local ok=0
  # shellcheck disable=SC2086
  $CXX $CXXFLAGS $LIB_FUZZING_ENGINE "$dir/t.cc" -o "$dir/t" >/dev/null 2>&1 || ok=1
  rm -rf "$dir"
  return $ok
}

deps() {
  if ! command -v "$CXX" >/dev/null || ! engine_links; then
    say "installing clang and its libFuzzer runtime (Debian packages clang, libclang-rt-dev)"
    if [ "$(id -u)" != 0 ]; then
      say "not root: install the Debian packages clang and libclang-rt-dev, then run again"
      exit 1
    fi
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq clang libclang-rt-dev >/dev/null ||
      { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq clang libclang-rt-dev >/dev/null; }
    engine_links || { say "$CXX still cannot link with $LIB_FUZZING_ENGINE"; exit 1; }
  fi
  if ! command -v go-118-fuzz-build >/dev/null || [ "$(cat "$GOBIN_DIR/.go-118-fuzz-build-version" 2>/dev/null)" != "$G118_VERSION" ]; then
    say "installing go-118-fuzz-build $G118_VERSION"
    go install "$G118@$G118_VERSION"
    echo "$G118_VERSION" >"$GOBIN_DIR/.go-118-fuzz-build-version"
  fi
}

# prepare_module copies the source tree to $WORK/mod and adds the shim.
prepare_module() {
  if [ -f "$WORK/mod/.prepared" ]; then return; fi
  rm -rf "$WORK/mod"
  mkdir -p "$WORK/mod"
  tar -C "$SRC_TREE" --exclude=./.git --exclude=./build --exclude=./bin -cf - . | tar -C "$WORK/mod" -xf -
  fuzzprep
  (cd "$WORK/mod" && go get "$G118/testing@$G118_VERSION" >/dev/null 2>&1) ||
    (cd "$WORK/mod" && go get "$G118/testing@$G118_VERSION")
  touch "$WORK/mod/.prepared"
}

# build_one PKGDIR TARGET builds $OUT/TARGET.
build_one() {
  local dir=$1 target=$2
  # Put back the package's own test files, then gather the target's.
  rm -f "$WORK/mod/$dir"/*_test.go "$WORK/mod/$dir"/*_fuzz.go
  cp "$SRC_TREE/$dir"/*_test.go "$WORK/mod/$dir/"
  "$WORK/fuzzprep" -dir "$WORK/mod/$dir" -func "$target"
  if command -v compile_native_go_fuzzer >/dev/null && [ -z "${FUZZ_LOCAL_COMPILE:-}" ]; then
    (cd "$WORK/mod" && compile_native_go_fuzzer "$MODULE/$dir" "$target" "$target")
  else
    (cd "$WORK/mod" && go-118-fuzz-build -tags gofuzz -o "$WORK/$target.a" -func "$target" "./$dir")
    # shellcheck disable=SC2086
    $CXX $CXXFLAGS $LIB_FUZZING_ENGINE "$WORK/$target.a" -o "$OUT/$target"
  fi
}

build() {
  mkdir -p "$OUT"
  local list
  list=$(targets) # a failure here stops the script (set -e), unlike in a process substitution
  prepare_module
  local n=0
  while read -r dir target; do
    if [ -n "${FUZZ_TARGETS:-}" ] && ! [[ " $FUZZ_TARGETS " == *" $target "* ]]; then continue; fi
    say "building $dir $target"
    build_one "$dir" "$target"
    n=$((n + 1))
  done <<<"$list"
  [ "$n" -gt 0 ] || { say "no target built"; exit 1; }
  say "built $n target(s) into $OUT"
}

# run_one TARGET runs $OUT/TARGET for FUZZ_SECONDS and prints its summary line.
run_one() {
  local target=$1 log status=0
  log="$WORK/$target.run.log"
  mkdir -p "$WORK/corpus/$target" "$WORK/artifacts/$target"
  (cd "$WORK/artifacts/$target" && "$OUT/$target" -max_total_time="$FUZZ_SECONDS" -print_final_stats=1 \
    -artifact_prefix="$WORK/artifacts/$target/" "$WORK/corpus/$target") >"$log" 2>&1 || status=$?
  local execs rate units
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
  units=$(sed -n 's/^stat::new_units_added: *//p' "$log")
  if [ "$status" = 0 ]; then
    echo "libfuzzer-target $target: ran ${FUZZ_SECONDS}s, ${execs:-?} execs (${rate:-?}/sec), ${units:-?} new units"
  else
    echo "libfuzzer-target $target: FAILED (exit $status); output:"
    tail -40 "$log"
    return 1
  fi
}

run() {
  local failed=0 n=0
  for bin in "$OUT"/Fuzz*; do
    [ -x "$bin" ] || continue
    local target
    target=$(basename "$bin")
    [ "$target" != FuzzSeededCrash ] || continue
    if [ -n "${FUZZ_TARGETS:-}" ] && ! [[ " $FUZZ_TARGETS " == *" $target "* ]]; then continue; fi
    n=$((n + 1))
    run_one "$target" || failed=$((failed + 1))
  done
  [ "$n" -gt 0 ] || { say "no binary in $OUT"; exit 1; }
  say "$((n - failed)) of $n target(s) ran without a finding"
  [ "$failed" = 0 ]
}

# check builds FuzzSeededCrash and asserts its binary reports the planted
# failure: a non-zero exit, the target's message and Go's panic output,
# and the input saved as a crash file holding the planted bytes (after the
# length prefix with which the shim cuts a []byte from libFuzzer's input).
check() {
  mkdir -p "$OUT"
  prepare_module
  say "building fuzz FuzzSeededCrash"
  build_one fuzz FuzzSeededCrash
  local art="$WORK/artifacts/FuzzSeededCrash" log="$WORK/seeded.log" status=0
  rm -rf "$art" && mkdir -p "$art"
  "$OUT/FuzzSeededCrash" -max_total_time=120 -seed=1 -artifact_prefix="$art/" >"$log" 2>&1 || status=$?
  local crash
  crash=$(ls "$art"/crash-* 2>/dev/null | head -1 || true)
  if [ "$status" = 0 ] || ! grep -q 'planted failure on' "$log" || ! grep -qE 'deadly signal|panic:' "$log" ||
    [ -z "$crash" ] || ! grep -q CRSH "$crash"; then
    say "seeded crash NOT reported as expected (exit $status, crash file '${crash}'); output:"
    tail -40 "$log"
    exit 1
  fi
  local runs
  runs=$(grep -oE '^#[0-9]+' "$log" | tail -1 || true)
  say "seeded crash found: exit $status, $(grep -cE 'deadly signal|panic:' "$log") panic/deadly-signal line(s), crash file $(basename "$crash") holds CRSH (last status line ${runs:-none})"
  rm -f "$OUT/FuzzSeededCrash"
}

[ $# -gt 0 ] || { sed -n '2,13p' "$0"; exit 2; }
for cmd in "$@"; do
  case $cmd in
    list) targets ;;
    deps | build | run | check) "$cmd" ;;
    *) say "unknown command $cmd"; exit 2 ;;
  esac
done
