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
# on PATH). Tested by TestActionRunScript in cmd/conform/main_test.go.
set -uo pipefail

conform=${CONFORM:-conform}
dir=${INPUT_REPORT_DIR:-conform-reports}
tag=""
if [[ -n ${INPUT_SHARD:-} ]]; then
  tag="-shard-${INPUT_SHARD//\//-of-}"
fi
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
args=(run --json "$json" --junit "$junit" --markdown "$markdown" --annotations "$annotations" "${impl[@]}")
[[ -n ${INPUT_SUITE:-} ]] && args+=(--suite "$INPUT_SUITE")
[[ -n ${INPUT_OP:-} ]] && args+=(--op "$INPUT_OP")
[[ -n ${INPUT_PROFILE:-} ]] && args+=(--profile "$INPUT_PROFILE")
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
  # and nothing expanded or run: xargs only splits.
  mapfile -d '' extra < <(printf '%s' "$INPUT_ARGS" | xargs printf '%s\0') || exit 2
  args+=("${extra[@]}")
fi

echo "conform ${args[*]}"
"$conform" "${args[@]}"
code=$?
[[ -s $annotations ]] && cat "$annotations"

# worse keeps the worst exit code: 2 (cannot run) over 1 (failed) over 0.
worse() { if (($1 > code)); then code=$1; fi; }

features_xml=""
if [[ ${INPUT_FEATURES:-false} == true ]]; then
  features_xml="$dir/features$tag.xml"
  fargs=(features "${impl[@]}" "${gate[@]}" --no-color --format "progress,junit:$features_xml")
  echo "conform ${fargs[*]}"
  "$conform" "${fargs[@]}" | tee "$dir/features$tag.txt"
  worse "${PIPESTATUS[0]}"
fi

findings=""
if [[ -n ${INPUT_FUZZ_TIME:-} ]]; then
  findings="$dir/findings$tag"
  zargs=(fuzz "${impl[@]}" --time "$INPUT_FUZZ_TIME" --out "$findings")
  [[ -n ${INPUT_OP:-} ]] && zargs+=(--op "$INPUT_OP")
  echo "conform ${zargs[*]}"
  "$conform" "${zargs[@]}" | tee "$dir/fuzz$tag.txt"
  worse "${PIPESTATUS[0]}"
fi

if [[ -n ${GITHUB_STEP_SUMMARY:-} ]]; then
  if [[ -s $markdown ]]; then
    cat "$markdown" >> "$GITHUB_STEP_SUMMARY"
  else
    printf '## conform: no report\n\nconform exited with code %d before writing a report; see the step log.\n' "$code" >> "$GITHUB_STEP_SUMMARY"
  fi
  for part in features fuzz; do
    if [[ -s $dir/$part$tag.txt ]]; then
      printf '\n### conform %s\n\n```\n%s\n```\n' "$part" "$(tail -n 40 "$dir/$part$tag.txt")" >> "$GITHUB_STEP_SUMMARY"
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
