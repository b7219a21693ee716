#!/usr/bin/env bash
# Runs every native fuzz target of the module for FUZZTIME each (go test runs
# one fuzz target per invocation). Fails on the first target that finds a crash.
set -euo pipefail
FUZZTIME=${FUZZTIME:-60s}
GO=${GO:-go}
found=0
while read -r pkg; do
  for target in $($GO test -list '^Fuzz' "$pkg" | grep '^Fuzz' || true); do
    found=1
    echo "fuzz: $pkg $target ($FUZZTIME)"
    $GO test -run '^$' -fuzz "^${target}\$" -fuzztime "$FUZZTIME" "$pkg"
  done
done < <($GO list ./...)
if [ "$found" = 0 ]; then echo "fuzz: no fuzz targets found"; fi
