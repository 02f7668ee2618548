#!/usr/bin/env bash
# Sharing benchmark: password guessing against sign-in and a link's password (peers/signin_bruteforce.py: checked
# guesses per minute for a name that exists and one that doesn't, and their answers' time), then
# how long a change to a shared album takes to reach every member's live
# page (issue 34: a shared album of 5 members, each client within 100 ms). Release build (the
# demo's: cross-module optimization), loopback, one machine. A library of the corpus's first 20
# photos gets Ana and MEMBERS people; Ana's shared album holds the photos, each member is a
# contributor with a WebSocket on the album's fetch; Ana toggles favorites one at a time
# (peers/shared_album_latency.py). Prints the RESULT line: delay from Ana's answer to each
# member's `changes` message, p50 / p90 / p99 / max over all arrivals. Last, a public link's
# visitor against its maker side by side: wrk (2 threads, 16 connections, 8 s, ROUNDS rounds
# alternating) on one cached thumbnail, with Ana's token and with the link's cookie (the link
# shows the 20 photos): the RESULT line gives both rates and their ratio.
#
#   Benchmarks/run-sharing-benchmark.sh                      # 5 members, 200 toggles, 60 s of guessing each
#   Benchmarks/run-sharing-benchmark.sh --members 10 --toggles 50 --guessing 20
set -euo pipefail

# shellcheck source=peers/bench-common.sh
. "$(dirname "${BASH_SOURCE[0]}")/peers/bench-common.sh"
MEMBERS=5
TOGGLES=200
GUESSING=60
ROUNDS=3
parse_options "$@" <<'OPTIONS'
--members MEMBERS
--toggles TOGGLES
--guessing GUESSING
--rounds ROUNDS
OPTIONS
python3 -c 'import websocket' 2>/dev/null || python3 -m pip install --quiet 'websocket-client>=1.6'
mkdir -p "$HERE/.data"
build_photos "$ROOT" "$HERE/.data/sharing-build.log"
[ -d "$ROOT/.corpus" ] || "$ROOT/scripts/fetch-corpus.sh" "$ROOT/.corpus" --minimal >/dev/null
mapfile -t photos < <(ls "$ROOT"/.corpus/*.jpg | head -20)
say "uptime: $(uptime)"
python3 "$PEERS/signin_bruteforce.py" "$PHOTOS" "${photos[0]}" --seconds "$GUESSING"
python3 "$PEERS/shared_album_latency.py" "$PHOTOS" "${photos[@]}" --members "$MEMBERS" --toggles "$TOGGLES"

# A link's visitor against its maker, side by side on one server.
work="$(mktemp -d)"
trap 'stop_processes "${SERVER_PID:-}"; rm -rf "$work"' EXIT
library="$work/Library.photoslibrary"
"$PHOTOS" import --library "$library" "${photos[@]}" >/dev/null
echo "ana's password" | "$PHOTOS" user add --library "$library" ana >/dev/null
token=$("$PHOTOS" token create --library "$library" --level read-write --user ana --quiet)
start_server "$PHOTOS" "$library" "$work/serve.log"
base="http://127.0.0.1:$PORT"
ids=$(curl -sf -H "Authorization: Bearer $token" "$base/api/assets?limit=20" | python3 -c 'import json, sys; print(json.dumps([a["id"] for a in json.load(sys.stdin)["assets"]]))')
secret=$(curl -sf -H "Authorization: Bearer $token" -H 'Content-Type: application/json' -d "{\"assets\":$ids}" "$base/api/links" \
    | python3 -c 'import json, sys; print(json.load(sys.stdin)["secret"])')
first=$(python3 -c 'import json, sys; print(json.loads(sys.argv[1])[0])' "$ids")
url="$base/api/assets/$first/image?width=256&height=256"
curl -sf -o /dev/null -H "Authorization: Bearer $token" "$url"
rate() { wrk -t2 -c16 -d8s -H "$1" "$url" | awk '/Requests\/sec/ {print $2}'; }
tokens=(); links=()
for _ in $(seq "$ROUNDS"); do
    tokens+=("$(rate "Authorization: Bearer $token")")
    links+=("$(rate "Cookie: photos_link=$secret")")
done
python3 - "${tokens[*]}" "${links[*]}" <<'PY'
import statistics, sys
tokens, links = [list(map(float, s.split())) for s in sys.argv[1:3]]
t, l = statistics.median(tokens), statistics.median(links)
print(f"RESULT link_thumbnails token_rps={t:.0f} link_rps={l:.0f} link/token={l / t:.2f} "
      f"rounds token={' '.join(f'{x:.0f}' for x in tokens)} link={' '.join(f'{x:.0f}' for x in links)}")
PY
