#!/usr/bin/env bash
# The run step of the conform GitHub Action (action.yml): builds the
# 'conform run' command line from the INPUT_* variables, writes the JSON,
# JUnit and Markdown reports to INPUT_REPORT_DIR, prints an error annotation
# per failing vector (a GitHub workflow command, naming its requirements and
# the command that replays it), appends the Markdown report to
# $GITHUB_STEP_SUMMARY, and writes the report paths and the exit code to
# $GITHUB_OUTPUT. With INPUT_FEATURES=true it runs 'conform features' too
# (JUnit beside the others); with INPUT_FUZZ_TIME (such as 60s) a time-boxed
# 'conform fuzz' whose findings go to REPORT_DIR/findings. The exit code is
# the worst of the commands run. CONFORM names the binary (default: conform
# on PATH); CONFORM_SHA256, when set, is the SHA-256 the install step
# recorded for it. Tested by TestActionRunScript and the tests of
# cmd/conform/action_test.go.
#
# The job log: everything an implementation or a file can put into it (the
# reports, the implementation's stderr, the names and messages conform
# prints) is printed between "::stop-commands::TOKEN" and "::TOKEN::", so
# that the runner reads no line of it as a workflow command, whatever it
# holds ("##[" anywhere in a line, "::" at its start). TOKEN is drawn here
# from /dev/urandom and is in no argument and no environment of anything
# this step starts. conform's own annotations are printed after, with
# commands on; they escape what they quote (report/annotations.go).
set -uo pipefail

conform=${CONFORM:-conform}
dir=${INPUT_REPORT_DIR:-conform-reports}
tag=""
if [[ -n ${INPUT_SHARD:-} ]]; then
  tag="-shard-${INPUT_SHARD//\//-of-}"
fi

token=$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')
if [[ ${#token} -ne 32 ]]; then
  echo "::error title=conform::cannot draw a token from /dev/urandom to keep the implementation's output from issuing workflow commands"
  exit 2
fi

# sha256 prints the SHA-256 of a file: sha256sum on Linux, shasum on macOS.
sha256() {
  if command -v sha256sum > /dev/null; then sha256sum "$1"; else shasum -a 256 "$1"; fi | cut -d' ' -f1
}

# untrusted runs a command with the runner's command processing stopped
# around everything it prints. Before that, when CONFORM_SHA256 is set, it
# checks that the conform binary is the one the install step built or
# unpacked: an implementation that replaced the binary during an earlier
# command (the step's own, or a job's before the cache was saved) is caught.
# It returns the command's exit code, or 2 when the binary is not the one
# recorded.
untrusted() {
  if [[ -n ${CONFORM_SHA256:-} ]]; then
    local path got
    path=$(command -v "$conform") || { echo "::error title=conform::no conform binary $conform on PATH"; return 2; }
    got=$(sha256 "$path")
    if [[ $got != "$CONFORM_SHA256" ]]; then
      swapped=true
      echo "::error title=conform::the conform binary $path is not the one the install step recorded (sha256 $got, recorded $CONFORM_SHA256): something replaced it, the implementation under test perhaps; nothing more is run"
      return 2
    fi
  fi
  echo "::stop-commands::$token"
  "$@"
  local status=$?
  # on a line of its own, even after output that did not end its last line
  printf '\n::%s::\n' "$token"
  return "$status"
}

swapped=false
mkdir -p "$dir" || exit 2
json="$dir/conform$tag.json"
junit="$dir/conform$tag.xml"
markdown="$dir/conform$tag.md"
annotations="$dir/annotations$tag.txt"

impl=()
[[ -n ${INPUT_STDIO:-} ]] && impl+=(--stdio "$INPUT_STDIO")
[[ -n ${INPUT_HTTP:-} ]] && impl+=(--http "$INPUT_HTTP")
if ((${#impl[@]} == 0)) && [[ " ${INPUT_ARGS:-} " != *" --spawn"* ]]; then
  # Without an implementation conform judges its own reference and passes:
  # an input left empty (a secret or variable not set) must not look green.
  echo "::error title=conform::no implementation: give the stdio input (a command) or the http input (a URL); an input set from an empty variable or secret is empty"
  exit 2
fi
profile=()
[[ -n ${INPUT_PROFILE:-} ]] && profile+=(--profile "$INPUT_PROFILE")
args=(run --json "$json" --junit "$junit" --markdown "$markdown" --annotations "$annotations" "${impl[@]}" "${profile[@]}")
[[ -n ${INPUT_SUITE:-} ]] && args+=(--suite "$INPUT_SUITE")
[[ -n ${INPUT_OP:-} ]] && args+=(--op "$INPUT_OP")
[[ -n ${INPUT_EXPECTATIONS:-} ]] && args+=(--expectations "$INPUT_EXPECTATIONS")
gate=()
case ${INPUT_REQUIRE_OPS:-} in
  "" | false) ;;
  true) gate+=(--require-ops) ;;
  *) gate+=("--require-ops=$INPUT_REQUIRE_OPS") ;;
esac
[[ ${INPUT_REQUIRE_CODES:-false} == true ]] && gate+=(--require-codes)
args+=("${gate[@]}")
[[ -n ${INPUT_SHARD:-} ]] && args+=(--shard "$INPUT_SHARD")
if [[ -n ${INPUT_ARGS:-} ]]; then
  # Split on spaces, with quotes as a shell reads them ('--choice "a=b c"'),
  # and nothing expanded or run: xargs only splits. A quote left open is an
  # error, not a warning: what follows it would be dropped unseen.
  words=$(mktemp) || exit 2
  if ! printf '%s' "$INPUT_ARGS" | xargs printf '%s\0' > "$words" 2> "$words.err"; then
    reason=$(tr '\n' ' ' < "$words.err")
    echo "::error title=conform::the args input does not split into words (${reason% }): close every quote; nothing was run"
    rm -f "$words" "$words.err"
    exit 2
  fi
  mapfile -d '' extra < "$words"
  rm -f "$words" "$words.err"
  args+=("${extra[@]}")
fi

# run prints a conform command line and runs it without the runner's file
# variables, which the implementation would inherit (nothing it starts is
# told where the step's outputs, summary, PATH and environment files are),
# and with its stderr on its stdout: the runner reads the two streams apart,
# so a line of stderr could otherwise reach it after the line that resumes
# its commands.
run() {
  echo "conform ${*:2}"
  env -u GITHUB_OUTPUT -u GITHUB_STEP_SUMMARY -u GITHUB_ENV -u GITHUB_PATH -u GITHUB_STATE "$@" 2>&1
}

untrusted run "$conform" "${args[@]}"
code=$?
[[ -s $annotations ]] && cat "$annotations"

# worse keeps the worst exit code: 2 (cannot run) over 1 (failed) over 0.
worse() { if (($1 > code)); then code=$1; fi; }

# The scenarios and the fuzzer: the profile and the gate apply to both, the
# op to the fuzzer (scenarios are tagged by requirement, not by op), the
# suite to the scenarios (their directories, with the protocol's, which
# every suite speaks); in a sharded matrix they run in shard 1 only, once.
first_shard=true
[[ -n ${INPUT_SHARD:-} && ${INPUT_SHARD%%/*} != 1 ]] && first_shard=false

# tee_to runs a command with its output copied to a file, and returns the
# command's exit code.
tee_to() {
  local file=$1
  shift
  run "$@" | tee "$file"
  return "${PIPESTATUS[0]}"
}

features_xml=""
if [[ ${INPUT_FEATURES:-false} == true && $swapped == false && $first_shard == true ]]; then
  features_xml="$dir/features$tag.xml"
  fargs=(features "${impl[@]}" "${profile[@]}" "${gate[@]}" --no-color --format "progress,junit:$features_xml")
  if [[ -n ${INPUT_SUITE:-} ]]; then
    IFS=, read -ra suites <<< "$INPUT_SUITE"
    for s in "${suites[@]}"; do
      s=${s// /}
      [[ -n $s ]] && fargs+=("$s")
    done
    fargs+=(protocol)
  fi
  untrusted tee_to "$dir/features$tag.txt" "$conform" "${fargs[@]}"
  worse $?
fi

findings=""
if [[ -n ${INPUT_FUZZ_TIME:-} && $swapped == false && $first_shard == true ]]; then
  findings="$dir/findings$tag"
  zargs=(fuzz "${impl[@]}" "${profile[@]}" --time "$INPUT_FUZZ_TIME" --out "$findings")
  [[ -n ${INPUT_OP:-} ]] && zargs+=(--op "$INPUT_OP")
  untrusted tee_to "$dir/fuzz$tag.txt" "$conform" "${zargs[@]}"
  worse $?
fi

# fence prints a Markdown code fence longer than any run of backticks in
# the file, so that nothing the file holds can close it.
fence() {
  local longest
  longest=$(grep -o '`\+' "$1" | awk '{ if (length($0) > n) n = length($0) } END { print n + 0 }')
  ((longest < 3)) && longest=2
  printf '%*s' $((longest + 1)) '' | tr ' ' '`'
}

if [[ -n ${GITHUB_STEP_SUMMARY:-} ]]; then
  if [[ -s $markdown ]]; then
    cat "$markdown" >> "$GITHUB_STEP_SUMMARY"
  else
    printf '## conform: no report\n\nconform exited with code %d before writing a report; see the step log.\n' "$code" >> "$GITHUB_STEP_SUMMARY"
  fi
  for part in features fuzz; do
    if [[ -s $dir/$part$tag.txt ]]; then
      tail -n 40 "$dir/$part$tag.txt" > "$dir/$part$tag.tail"
      f=$(fence "$dir/$part$tag.tail")
      printf '\n### conform %s\n\n%s\n%s\n%s\n' "$part" "$f" "$(cat "$dir/$part$tag.tail")" "$f" >> "$GITHUB_STEP_SUMMARY"
      rm -f "$dir/$part$tag.tail"
    fi
  done
fi
if [[ -n ${GITHUB_OUTPUT:-} ]]; then
  {
    echo "json=$json"
    echo "junit=$junit"
    echo "markdown=$markdown"
    echo "features-junit=$features_xml"
    echo "findings=$findings"
    echo "findings-artifact=conform-findings$tag"
    echo "exit-code=$code"
  } >> "$GITHUB_OUTPUT"
fi
exit "$code"
