#!/usr/bin/env bash
# Builds the Go port models (this directory, standard library only) into the cache
# (${XDG_CACHE_HOME:-~/.cache}/conform/portmodels-go, once per version of the source) and prints
# the binary's path, so that `"$(build.sh)" MODEL` starts without compiling each time.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cache=${XDG_CACHE_HOME:-$HOME/.cache}/conform/portmodels-go
sum=$(cat "$here"/*.go | sha256sum | cut -c1-16)
bin=$cache/models-$sum
if [[ ! -x $bin ]]; then
  mkdir -p "$cache"
  tmp=$(mktemp "$cache/models.XXXXXX")
  (cd "$here" && go build -o "$tmp" .) >&2
  mv -f "$tmp" "$bin"
fi
echo "$bin"
