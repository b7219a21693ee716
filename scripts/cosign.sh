#!/usr/bin/env bash
# Builds cosign as tools/cosign/go.mod pins it into the cache (${XDG_CACHE_HOME:-~/.cache}/conform,
# once per version of the pin) and prints the binary's path. The tests of the Action's install
# step call it to sign a release fixture with a local key and to verify it offline.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
sum=$(cat "$root/tools/cosign/go.mod" "$root/tools/cosign/go.sum" | sha256sum | cut -c1-16)
dir=${XDG_CACHE_HOME:-$HOME/.cache}/conform/cosign-$sum
if [[ ! -x $dir/cosign ]]; then
  mkdir -p "$dir"
  tmp=$(mktemp "$dir/cosign.XXXXXX")
  (cd "$root" && go build -modfile=tools/cosign/go.mod -o "$tmp" github.com/sigstore/cosign/v2/cmd/cosign) >&2
  mv -f "$tmp" "$dir/cosign"
fi
echo "$dir/cosign"
