#!/usr/bin/env bash
# Prints the classpath of tools/portmodels/java/Models.java: the Gson, Jackson and kotlin-stdlib
# jars, fetched from Maven Central with mvn into the platform probe's cache (PLATFORM_JARS,
# default ~/.cache/conform/platform-jars, as scripts/platform-tables.sh) when missing. With
# --compiled, the class Models compiled from the source (once per version of the source, into
# the same cache) comes first, so that `java -cp "$(jars.sh --compiled)" Models MODEL` starts
# without compiling the source each time.
set -euo pipefail
jars=${PLATFORM_JARS:-${XDG_CACHE_HOME:-$HOME/.cache}/conform/platform-jars}
mkdir -p "$jars"
cp=()
for a in com.google.code.gson:gson:2.11.0 \
         com.fasterxml.jackson.core:jackson-databind:2.17.2 \
         com.fasterxml.jackson.core:jackson-core:2.17.2 \
         com.fasterxml.jackson.core:jackson-annotations:2.17.2 \
         org.jetbrains.kotlin:kotlin-stdlib:2.0.21; do
  IFS=: read -r _ name version <<<"$a"
  [[ -f $jars/$name-$version.jar ]] || mvn -q -B dependency:copy -Dartifact="$a" -DoutputDirectory="$jars" >&2
  cp+=("$jars/$name-$version.jar")
done
if [[ ${1:-} == --compiled ]]; then
  src=$(dirname "$0")/Models.java
  classes=$jars/models-$(sha256sum "$src" | cut -c1-16)
  if [[ ! -f $classes/Models.class ]]; then
    tmp=$(mktemp -d "$jars/models.XXXXXX")
    (IFS=:; javac -nowarn -d "$tmp" -cp "${cp[*]}" "$src") >&2
    mv -T "$tmp" "$classes" 2>/dev/null || rm -rf "$tmp" # another build of the same source won
  fi
  cp=("$classes" "${cp[@]}")
fi
(IFS=:; echo "${cp[*]}")
