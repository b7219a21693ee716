#!/usr/bin/env bash
# Makes sure headless Chromium is there for the HTML report's browser test
# (report/html_browser_test.go): does nothing when a chromium is on PATH,
# otherwise installs Debian's chromium package with apt-get (as root). When
# it cannot, it fails in CI (CI=true), where the test must run, and only
# warns elsewhere (the test then skips).
set -euo pipefail
for b in chromium chromium-browser google-chrome; do
  if command -v "$b" >/dev/null 2>&1; then
    exit 0
  fi
done
if [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null 2>&1; then
  echo "installing chromium for the browser test (apt-get install -y chromium)"
  if { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; } >/tmp/ensure-chromium.log 2>&1; then
    exit 0
  fi
  tail -20 /tmp/ensure-chromium.log >&2
fi
if [[ ${CI:-} == true ]]; then
  echo "ensure-chromium: chromium is missing and could not be installed; the browser test needs it" >&2
  exit 1
fi
echo "ensure-chromium: no chromium (not root, or apt-get failed); the browser test will skip" >&2
