#!/usr/bin/env bash
# make platform: measures the built-ins a port would reach for in each client
# language and writes spec/data/platform.jsonl, then docs/platforms.md from it
# (go run ./tools/platformtables). Installs what it runs: the Gson, Jackson and
# kotlin-stdlib jars from Maven Central with mvn into a cache directory
# (PLATFORM_JARS, default ~/.cache/conform/platform-jars) and Debian's chromium
# (scripts/ensure-chromium.sh). Needs node, python3, java and javac 17 and mvn.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
jars=${PLATFORM_JARS:-${XDG_CACHE_HOME:-$HOME/.cache}/conform/platform-jars}
mkdir -p "$jars"
for a in com.google.code.gson:gson:2.11.0 \
         com.fasterxml.jackson.core:jackson-databind:2.17.2 \
         com.fasterxml.jackson.core:jackson-core:2.17.2 \
         com.fasterxml.jackson.core:jackson-annotations:2.17.2 \
         org.jetbrains.kotlin:kotlin-stdlib:2.0.21; do
  IFS=: read -r _ name version <<<"$a"
  [[ -f $jars/$name-$version.jar ]] || mvn -q -B dependency:copy -Dartifact="$a" -DoutputDirectory="$jars"
done
"$root/scripts/ensure-chromium.sh"
chromium=$(command -v chromium || command -v chromium-browser || command -v google-chrome)
node --version >/dev/null && python3 --version >/dev/null && javac -version >/dev/null 2>&1
cd "$root"
go run ./tools/platformtables -jars "$jars" -chromium "$chromium"
go run ./tools/platformtables -doc
go run ./tools/alphabets
