#!/usr/bin/env bash
# Makes sure the runtimes of the port models (tools/portmodels: Python 3, Node.js, a JDK and
# Maven, which fetches the Java models' jars from Maven Central) and of the platform tables'
# probes are there for make test: does nothing for those on PATH, otherwise installs Debian's
# packages with apt-get (as root). When it cannot, it fails in CI (CI=true), where the tests
# that need them must run, and only warns elsewhere (those tests then skip).
set -euo pipefail
declare -A pkg=([python3]=python3 [node]=nodejs [java]=default-jdk-headless [javac]=default-jdk-headless [mvn]=maven)
missing=()
for b in python3 node java javac mvn; do
  command -v "$b" >/dev/null 2>&1 || missing+=("${pkg[$b]}")
done
[[ ${#missing[@]} -eq 0 ]] && exit 0
readarray -t missing < <(printf '%s\n' "${missing[@]}" | sort -u)
if [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null 2>&1; then
  echo "installing the port models' runtimes (apt-get install -y ${missing[*]})"
  if { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"; } >/tmp/ensure-runtimes.log 2>&1; then
    exit 0
  fi
  tail -20 /tmp/ensure-runtimes.log >&2
fi
if [[ ${CI:-} == true ]]; then
  echo "ensure-runtimes: ${missing[*]} missing and could not be installed; the port models need them" >&2
  exit 1
fi
echo "ensure-runtimes: ${missing[*]} missing (not root, or apt-get failed); their tests will skip" >&2
