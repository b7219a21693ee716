#!/usr/bin/env bash
# make fuzzkit-check: writes the fuzz kit of quote.parse, then runs the
# examples/fuzzkit targets for at most 2 minutes each: Atheris on the small
# Python quote.parse and Jazzer on the small Java one, each carrying a
# planted bug. It passes when both fuzzers find their bug, and prints how
# long each took (docs/fuzzing.md records a run). Atheris comes from PyPI
# and Jazzer from Maven Central when they are missing.
set -euo pipefail
cd "$(dirname "$0")/.."
kit=$PWD/build/fuzzkit
rm -rf "$kit" build/fuzzkit-work
mkdir -p build/fuzzkit-work/atheris-corpus
go run ./cmd/conform fuzzkit --op quote.parse --out "$kit"
python3 -c 'import atheris' 2> /dev/null || python3 -m pip install --quiet atheris

start=$(date +%s)
set +e
(cd examples/fuzzkit/atheris && python3 fuzz_quote_parse.py -dict="$kit/ops/quote.parse/quote.parse.dict" \
  -max_total_time=120 -artifact_prefix="$PWD/../../../build/fuzzkit-work/atheris-" \
  "$PWD/../../../build/fuzzkit-work/atheris-corpus" "$kit/ops/quote.parse/seeds-raw") > build/fuzzkit-work/atheris.log 2>&1
atheris_code=$?
set -e
atheris_time=$(($(date +%s) - start))
if [[ $atheris_code == 0 ]] || ! grep -q 'IndexError' build/fuzzkit-work/atheris.log; then
  tail -20 build/fuzzkit-work/atheris.log
  echo "fuzzkit-check: Atheris did not find the planted bug in 2 minutes" >&2
  exit 1
fi
echo "Atheris found the planted bug (IndexError) in ${atheris_time}s: $(cat build/fuzzkit-work/atheris-crash-* | head -c 120)"

# The same without the seeds, from the dictionary alone: the fuzzer, not a
# seed, reaches the bug.
mkdir -p build/fuzzkit-work/atheris-empty
start=$(date +%s)
set +e
(cd examples/fuzzkit/atheris && python3 fuzz_quote_parse.py -dict="$kit/ops/quote.parse/quote.parse.dict" -seed=1 \
  -max_total_time=120 -artifact_prefix="$PWD/../../../build/fuzzkit-work/atheris-dict-" \
  "$PWD/../../../build/fuzzkit-work/atheris-empty") > build/fuzzkit-work/atheris-dict.log 2>&1
atheris_code=$?
set -e
if [[ $atheris_code == 0 ]] || ! grep -q 'IndexError' build/fuzzkit-work/atheris-dict.log; then
  tail -20 build/fuzzkit-work/atheris-dict.log
  echo "fuzzkit-check: Atheris with the dictionary alone did not find the planted bug in 2 minutes" >&2
  exit 1
fi
echo "Atheris with the dictionary alone (no seed) found it in $(($(date +%s) - start))s, $(grep -o '^#[0-9]*' build/fuzzkit-work/atheris-dict.log | tail -1 | tr -d '#') executions: $(cat build/fuzzkit-work/atheris-dict-crash-* | head -c 120)"

start=$(date +%s)
set +e
(cd examples/fuzzkit/jazzer && JAZZER_FUZZ=1 mvn -q -B test -Dtest='QuoteParseFuzzTest#parse' -Dconform.kit="$kit") > build/fuzzkit-work/jazzer.log 2>&1
jazzer_code=$?
set -e
jazzer_time=$(($(date +%s) - start))
rm -f examples/fuzzkit/jazzer/crash-*
if [[ $jazzer_code == 0 ]] || ! grep -q 'StringIndexOutOfBoundsException' build/fuzzkit-work/jazzer.log; then
  tail -20 build/fuzzkit-work/jazzer.log
  echo "fuzzkit-check: Jazzer did not find the planted bug in 2 minutes" >&2
  exit 1
fi
echo "Jazzer found the planted bug (StringIndexOutOfBoundsException) in ${jazzer_time}s, Maven's start included"
# Replayed as plain tests, the kit's raw seeds alone hit the planted bug too
# (the vectors hold truncated percent escapes).
set +e
(cd examples/fuzzkit/jazzer && mvn -q -B test -Dtest='QuoteParseFuzzTest#seeds' -Dconform.kit="$kit") > build/fuzzkit-work/seeds.log 2>&1
seeds_code=$?
set -e
if [[ $seeds_code == 0 ]] || ! grep -q 'StringIndexOutOfBoundsException' build/fuzzkit-work/seeds.log; then
  tail -20 build/fuzzkit-work/seeds.log
  echo "fuzzkit-check: the kit's seeds, replayed, do not show the planted bug" >&2
  exit 1
fi
echo "the kit's $(ls "$kit/ops/quote.parse/seeds-raw" | wc -l) raw seeds, replayed as a JUnit test, hit it too"
echo "fuzzkit-check: passed"
