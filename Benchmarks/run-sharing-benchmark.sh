#!/usr/bin/env bash
# Sharing benchmark: password guessing against sign-in and a link's password (peers/signin_bruteforce.py: checked
# guesses per minute for a name that exists and one that doesn't, and their answers' time), then
# how long a change to a shared album takes to reach every member's live
# page (issue 34: a shared album of 5 members, each client within 100 ms). Release build (the
# demo's: cross-module optimization), loopback, one machine. A library of the corpus's first 20
# photos gets Ana and MEMBERS people; Ana's shared album holds the photos, each member is a
# contributor with a WebSocket on the album's fetch; Ana toggles favorites one at a time
# (peers/shared_album_latency.py). Prints the RESULT line: delay from Ana's answer to each
# member's `changes` message, p50 / p90 / p99 / max over all arrivals.
#
#   Benchmarks/run-sharing-benchmark.sh                      # 5 members, 200 toggles, 60 s of guessing each
#   Benchmarks/run-sharing-benchmark.sh --members 10 --toggles 50 --guessing 20
set -euo pipefail

# shellcheck source=peers/bench-common.sh
. "$(dirname "${BASH_SOURCE[0]}")/peers/bench-common.sh"
MEMBERS=5
TOGGLES=200
GUESSING=60
parse_options "$@" <<'OPTIONS'
--members MEMBERS
--toggles TOGGLES
--guessing GUESSING
OPTIONS
python3 -c 'import websocket' 2>/dev/null || python3 -m pip install --quiet 'websocket-client>=1.6'
mkdir -p "$HERE/.data"
build_photos "$ROOT" "$HERE/.data/sharing-build.log"
[ -d "$ROOT/.corpus" ] || "$ROOT/scripts/fetch-corpus.sh" "$ROOT/.corpus" --minimal >/dev/null
mapfile -t photos < <(ls "$ROOT"/.corpus/*.jpg | head -20)
say "uptime: $(uptime)"
python3 "$PEERS/signin_bruteforce.py" "$PHOTOS" "${photos[0]}" --seconds "$GUESSING"
python3 "$PEERS/shared_album_latency.py" "$PHOTOS" "${photos[@]}" --members "$MEMBERS" --toggles "$TOGGLES"
