#!/usr/bin/env bash
# The run step of the conform GitHub Action (action.yml): builds the
# 'conform run' command line from the INPUT_* variables, writes the JSON,
# JUnit and Markdown reports to INPUT_REPORT_DIR, appends the Markdown report
# to $GITHUB_STEP_SUMMARY, writes the report paths and the exit code to
# $GITHUB_OUTPUT, and exits with conform's exit code. CONFORM names the
# binary (default: conform on PATH). Tested by TestActionRunScript in
# cmd/conform/main_test.go.
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

args=(run --json "$json" --junit "$junit" --markdown "$markdown")
[[ -n ${INPUT_STDIO:-} ]] && args+=(--stdio "$INPUT_STDIO")
[[ -n ${INPUT_HTTP:-} ]] && args+=(--http "$INPUT_HTTP")
[[ -n ${INPUT_SUITE:-} ]] && args+=(--suite "$INPUT_SUITE")
[[ -n ${INPUT_OP:-} ]] && args+=(--op "$INPUT_OP")
[[ -n ${INPUT_PROFILE:-} ]] && args+=(--profile "$INPUT_PROFILE")
[[ -n ${INPUT_EXPECTATIONS:-} ]] && args+=(--expectations "$INPUT_EXPECTATIONS")
case ${INPUT_REQUIRE_OPS:-} in
  "" | false) ;;
  true) args+=(--require-ops) ;;
  *) args+=("--require-ops=$INPUT_REQUIRE_OPS") ;;
esac
[[ ${INPUT_REQUIRE_CODES:-false} == true ]] && args+=(--require-codes)
[[ -n ${INPUT_SHARD:-} ]] && args+=(--shard "$INPUT_SHARD")
if [[ -n ${INPUT_ARGS:-} ]]; then
  read -r -a extra <<< "$INPUT_ARGS"
  args+=("${extra[@]}")
fi

echo "conform ${args[*]}"
"$conform" "${args[@]}"
code=$?

if [[ -n ${GITHUB_STEP_SUMMARY:-} ]]; then
  if [[ -s $markdown ]]; then
    cat "$markdown" >> "$GITHUB_STEP_SUMMARY"
  else
    printf '## conform: no report\n\nconform exited with code %d before writing a report; see the step log.\n' "$code" >> "$GITHUB_STEP_SUMMARY"
  fi
fi
if [[ -n ${GITHUB_OUTPUT:-} ]]; then
  {
    echo "json=$json"
    echo "junit=$junit"
    echo "markdown=$markdown"
    echo "exit-code=$code"
  } >> "$GITHUB_OUTPUT"
fi
exit "$code"
