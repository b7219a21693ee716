#!/usr/bin/env bash
# make unicode: fetches the Unicode data packages @unicode/unicode-<version>
# from the npm registry (Unicode 15.0.0, which the spec pins, and the
# versions before and after it that platforms ship), writes the punctuation
# tables of spec/data/punctuation.txt from them, and the reference's snap set
# (reference/marker/snapset.go) from that file. Needs node and npm.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
args=()
# Unicode version @ the version of its npm package.
for vp in 13.0.0@2.0.7 14.0.0@2.0.7 15.0.0@2.0.7 15.1.0@2.0.7 16.0.0@2.0.7 17.0.0@2.1.0; do
  v=${vp%@*}
  mkdir -p "$work/$v"
  (cd "$work/$v" && npm pack --silent "@unicode/unicode-$vp" >/dev/null && tar xzf ./*.tgz)
  args+=("$v=$work/$v/package")
done
node "$root/scripts/unicode-tables.mjs" "${args[@]}" >"$root/spec/data/punctuation.txt"
cd "$root" && go run ./tools/unicodetables
