#!/usr/bin/env bash
# Fails when a function of the module is unreachable from its commands
# (go tool deadcode ./...), unless scripts/deadcode-allow.txt lists it with a
# reason, and when an entry of that list matches nothing (a stale entry).
set -euo pipefail
cd "$(dirname "$0")/.."
allow=scripts/deadcode-allow.txt
found=$(go tool deadcode -f '{{range .Funcs}}{{$.Path}} {{.Name}}{{"\n"}}{{end}}' ./...)
entries=$(sed -e 's/#.*//' -e 's/[[:space:]]*$//' "$allow" | grep -v '^$' || true)
status=0
while read -r pkg fn; do
  [[ -z $pkg ]] && continue
  if ! grep -qxF -e "$pkg $fn" -e "$pkg *" <<<"$entries"; then
    echo "deadcode: $pkg.$fn is unreachable from the commands: remove it, move it into a test file, or list it in $allow with a reason" >&2
    status=1
  fi
done <<<"$found"
while read -r pkg fn; do
  [[ -z $pkg ]] && continue
  if [[ $fn == '*' ]]; then
    grep -q "^$pkg " <<<"$found" && continue
  else
    grep -qxF "$pkg $fn" <<<"$found" && continue
  fi
  echo "deadcode: $allow: $pkg $fn matches nothing unreachable: remove the entry" >&2
  status=1
done <<<"$entries"
exit $status
