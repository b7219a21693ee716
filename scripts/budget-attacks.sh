#!/usr/bin/env bash
# Runs the attacks of docs/runner.md's "Measured at scale" against the conform
# built from this checkout and prints, for each, the peak RSS of the conform
# process (GNU time's %M), the time, and what conform concluded. Needs
# python3, curl and /usr/bin/time. It takes about a minute and a half.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT
go build -o "$work/conform" "$here/../cmd/conform"
c="$work/conform"
cd "$work"
measure() { # NAME COMMAND...: runs it, prints its peak RSS, time and last line
  local name=$1
  shift
  /usr/bin/time -f "%M %e" -o time.txt "$@" >out.txt 2>&1 || true
  read -r rss secs < <(tail -1 time.txt)
  printf '%-34s %6d MB %7.1f s  %s\n' "$name" $((rss / 1024)) "$secs" "$(tail -1 out.txt)"
}
size() { printf '%-34s %s bytes\n' "$1" "$(wc -c <"$2")"; }
stdio="python3 $here/budget/attack_stdio.py"
measure "members 1000000" "$c" run --stdio "$stdio members 1000000" --op quote.parse --json m.json
measure "members 1000000, --parallel 64" "$c" run --stdio "$stdio members 1000000" --op quote.parse --parallel 64
measure "deep, 10 vectors" "$c" run --stdio "$stdio deep" --op quote.parse --shard 1/24 --json deep10.json
measure "deep, 10 vectors, page" "$c" report --html deep10.html deep10.json
size "deep, 10 vectors, report" deep10.json
size "deep, 10 vectors, page" deep10.html
measure "deep, 237 vectors" "$c" run --stdio "$stdio deep" --op quote.parse --json deep.json
measure "deep, 237 vectors, page" "$c" report --html deep.html deep.json
size "deep, 237 vectors, report" deep.json
size "deep, 237 vectors, page" deep.html
measure "not UTF-8" "$c" run --stdio "$stdio notutf8" --op quote.parse --json nu.json
python3 -c "import json,sys; json.load(open('nu.json')); print('not UTF-8: the report reads as JSON in Python')"
python3 - <<'PY'
import json
d = json.load(open("nu.json"))
r = d["results"][0]
r["requirements"] = ["QUOTE-LINK-%04d" % i for i in range(3000)]
r["stderr"] = "a line of diagnostics that goes on and on and on\n" * 4100
d["results"] = [r]
open("crafted.json", "w").write(json.dumps(d))
PY
measure "3,000 requirements, page" "$c" report --html crafted.html crafted.json
size "3,000 requirements, report" crafted.json
size "3,000 requirements, page" crafted.html
python3 "$here/budget/attack_http.py" 18801 250000 &
"$c" run --http http://127.0.0.1:18801/ --op quote.parse --timeout 30s >/dev/null 2>&1 || true # waits for the server
measure "HTTP batches of 16 MB" "$c" run --http http://127.0.0.1:18801/ --op quote.parse
measure "HTTP batches, --parallel 64" "$c" run --http http://127.0.0.1:18801/ --op quote.parse --parallel 64
python3 -c "import sys; sys.stdout.write('{\"id\":1,\"op\":\"quote.parse\",\"input\":{\"href\":\"x\",\"v\":[0' + ',0' * (8 * 1024 * 1024 - 100) + ']}}')" >body16.json
/usr/bin/time -f "%M %e" -o serve-time.txt "$c" serve --http 127.0.0.1:18802 >serve.txt 2>&1 &
serve=$!
"$c" doctor --http http://127.0.0.1:18802/ --pings 0 >/dev/null 2>&1 || true # waits for the server
clients=()
for i in 1 2 3 4 5 6 7; do
  curl -s -o /dev/null -w '%{http_code}\n' -H 'Content-Type: application/json' --data-binary @body16.json http://127.0.0.1:18802/ >"code$i.txt" &
  clients+=($!)
done
wait "${clients[@]}"
pkill -INT -f "conform serve --http 127.0.0.1:18802" || true
wait "$serve" || true
read -r rss _ < <(tail -1 serve-time.txt)
printf '%-34s %6d MB  answers: %s\n' "serve --http, 7 bodies of 16 MB" $((rss / 1024)) "$(sort code*.txt | uniq -c | tr -s ' \n' ' ')"
