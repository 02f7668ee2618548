#!/usr/bin/env bash
# Cached thumbnails while heavy work runs: `photos serve` under wrk on loopback, idle and with a
# background load of edits, uploads and big renders, for one or more builds side by side.
#
#   Benchmarks/run-eventloop-benchmark.sh                                   # this tree alone
#   Benchmarks/run-eventloop-benchmark.sh --photos before=OLD --photos after=NEW --rounds 5
#
# Each --photos NAME=BINARY is one build (without any, this tree is built in release with
# cross-module optimization, as run-serve-benchmark.sh does, and named "this"). The 66 real
# photos of the image benchmark's set (Benchmarks/.data/bench-set/, or --set DIR) are imported
# once into a library that every run starts from a copy of. Then --rounds times, the builds in
# turn (alternating, so the machine's other load falls on all of them): start the server, ask
# once for every 256 x 256 grid thumbnail (as run-serve-benchmark.sh, so they are cached), then
#   (a) idle: wrk (2 threads, 64 connections) on the cached thumbnails for --seconds (20);
#   (b) loaded: the same wrk run while Benchmarks/peers/serve_background_load.py runs edits
#       (POST /api/changes, exposure/saturation of a random photo: a full-size render), uploads
#       (POST /api/uploads of a 12-megapixel photo: import, hashing, thumbnail) and renders
#       (GET image at a random 800-2400 px size and quality: never cached), one client thread
#       each (--edits/--uploads/--renders N), started 2 s before wrk, each at a fixed rate
#       (--pace EDITS,UPLOADS,RENDERS per second and thread, default 0.4,2,1: what every build
#       keeps up with, so each does the same work) or in a closed loop (--closed-loop).
# Reports per build the medians over the rounds of (a), (b), (b)/(a) with each round's
# figures, and the background work done during (b). --idle-only runs (a) alone: the serve
# benchmark's cached thumbnails, build against build (run-revisions-ab.sh --only serve).
# Results: Benchmarks/.data/eventloop-work/, or --work DIR.
set -euo pipefail

# shellcheck source=peers/bench-common.sh
. "$(dirname "${BASH_SOURCE[0]}")/peers/bench-common.sh"
ROUNDS=3
SECONDS_EACH=20
CONNECTIONS=64
THREADS=2
EDITS=1
UPLOADS=1
RENDERS=1
PACE="0.4,2,1"
IDLE_ONLY=0
BUILDS=()
DATA="$HERE/.data"
SET="$DATA/bench-set"
WORK="$DATA/eventloop-work"

parse_options "$@" <<'OPTIONS'
--photos BUILDS+
--rounds ROUNDS
--seconds SECONDS_EACH
--connections CONNECTIONS
--edits EDITS
--uploads UPLOADS
--renders RENDERS
--pace PACE
--closed-loop PACE=0,0,0
--idle-only IDLE_ONLY=1
--set SET
--work WORK
OPTIONS

LOG="$WORK/logs"
RESULTS="$WORK/results.txt"
PRISTINE="$WORK/pristine.photoslibrary"
LIBRARY="$WORK/Library.photoslibrary"
SERVER_PID=""
LOAD_PID=""

trap 'stop_processes "$LOAD_PID" "$SERVER_PID"' EXIT

mkdir -p "$WORK" "$LOG"
rm -f "$RESULTS" "$LOG"/*.log
install_missing wrk curl python3
build_bench_set "$ROOT" "$DATA/corpus" "$SET" "$LOG"

if [ ${#BUILDS[@]} -eq 0 ]; then
    build_photos "$ROOT" "$LOG/build.log"
    BUILDS+=("this=$PHOTOS")
fi

# One library for every run: imported once by the first build, copied before each run.
FIRST="${BUILDS[0]#*=}"
say "Importing $(find "$SET" -name '*.jpg' | wc -l) photos into the library every run starts from"
rm -rf "$PRISTINE"
"$FIRST" import --library "$PRISTINE" "$SET" > "$LOG/import.log"
TOKEN="$("$FIRST" token create --library "$PRISTINE" --level read-write --name bench --quiet)"
export PHOTOS_TOKEN="$TOKEN"

rps() { echo "$1" | sed -n 's/.*rps=\([0-9.]*\).*/\1/p'; }   # rps RESULT-LINE: its requests/s

one_run() {   # one_run NAME BINARY ROUND
    local name="$1" binary="$2" round="$3" port idle loaded load
    rm -rf "$LIBRARY"
    cp -a "$PRISTINE" "$LIBRARY"
    start_server "$binary" "$LIBRARY" "$LOG/server-$name-$round.log"
    port="$PORT"
    curl -sf -H "Authorization: Bearer $TOKEN" "http://127.0.0.1:$port/api/assets?limit=1000" \
        | python3 -c 'import json,sys; [print(a["id"], a["version"]) for a in json.load(sys.stdin)["assets"]]' > "$WORK/assets.txt"
    : > "$WORK/paths.txt"; : > "$WORK/ids.txt"
    while read -r id version; do
        path="/api/assets/$id/image?w=256&h=256&mode=fill&v=$version"
        curl -sf -o /dev/null -H "Authorization: Bearer $TOKEN" "http://127.0.0.1:$port$path"
        echo "$path" >> "$WORK/paths.txt"
        echo "$id" >> "$WORK/ids.txt"
    done < "$WORK/assets.txt"

    wrk -t "$THREADS" -c "$CONNECTIONS" -d "${SECONDS_EACH}s" -s "$PEERS/wrk_load.lua" "http://127.0.0.1:$port" -- "$WORK/paths.txt" \
        > "$LOG/idle-$name-$round.log" 2>&1 || { cat "$LOG/idle-$name-$round.log" >&2; exit 1; }
    idle="$(grep '^RESULT ' "$LOG/idle-$name-$round.log" | sed 's/^RESULT //')"
    loaded="-"; load="-"
    [ "$IDLE_ONLY" = 1 ] || loaded_run "$name" "$round" "$port"
    kill "$SERVER_PID" 2>/dev/null || true
    wait "$SERVER_PID" 2>/dev/null || true
    SERVER_PID=""
    echo "build=$name round=$round load1=$(load1) idle: $idle | loaded: $loaded | background: $load" >> "$RESULTS"
    if [ "$IDLE_ONLY" = 1 ]; then say "$name round $round: $(rps "$idle") req/s"
    else say "$name round $round: idle $(rps "$idle") req/s, loaded $(rps "$loaded") req/s; background $load"; fi
}

loaded_run() {   # loaded_run NAME ROUND PORT: (b), into one_run's loaded and load
    local name="$1" round="$2" port="$3"
    python3 "$PEERS/serve_background_load.py" "http://127.0.0.1:$port" "$WORK/ids.txt" "$SET" \
        --edits "$EDITS" --uploads "$UPLOADS" --renders "$RENDERS" \
        --edit-rate "${PACE%%,*}" --upload-rate "$(echo "$PACE" | cut -d, -f2)" --render-rate "${PACE##*,}" > "$LOG/load-$name-$round.log" 2> "$LOG/load-errors-$name-$round.log" &
    LOAD_PID=$!
    sleep 2
    wrk -t "$THREADS" -c "$CONNECTIONS" -d "${SECONDS_EACH}s" -s "$PEERS/wrk_load.lua" "http://127.0.0.1:$port" -- "$WORK/paths.txt" \
        > "$LOG/loaded-$name-$round.log" 2>&1 || { cat "$LOG/loaded-$name-$round.log" >&2; exit 1; }
    kill -TERM "$LOAD_PID"
    wait "$LOAD_PID" || true
    LOAD_PID=""
    loaded="$(grep '^RESULT ' "$LOG/loaded-$name-$round.log" | sed 's/^RESULT //')"
    load="$(grep '^LOAD ' "$LOG/load-$name-$round.log" | sed 's/^LOAD //')"
}

for round in $(seq "$ROUNDS"); do
    for build in "${BUILDS[@]}"; do
        one_run "${build%%=*}" "${build#*=}" "$round"
    done
done

python3 - "$RESULTS" "$SECONDS_EACH" <<'PY'
import re, statistics, sys
rows = {}
for line in open(sys.argv[1]):
    name = re.search(r"build=(\S+)", line).group(1)
    idle = float(re.search(r"idle: .*?rps=([0-9.]+)", line).group(1))
    if "loaded: -" in line:   # --idle-only
        p50, p99 = (float(re.search(key + r"=([0-9.]+)", line).group(1)) for key in ("p50_ms", "p99_ms"))
        rows.setdefault(name, []).append((idle, p50, p99, re.search(r"load1=(\S+)", line).group(1)))
        continue
    loaded = float(re.search(r"loaded: .*?rps=([0-9.]+)", line).group(1))
    p99 = [float(x) for x in re.findall(r"p99_ms=([0-9.]+)", line)]
    status = [int(x) for x in re.findall(r" status=([0-9]+)", line)]
    background = dict((k, float(v)) for k, v in re.findall(r"(\w+)=([0-9.]+)", line.split("background:")[1]))
    load1 = re.search(r"load1=(\S+)", line).group(1)
    rows.setdefault(name, []).append((idle, loaded, loaded / idle, p99, status, background, load1))
print()
if all(len(run) == 4 for runs in rows.values() for run in runs):
    print("| Build | Idle req/s (median; rounds) | p50 ms (median) | p99 ms (median) |")
    print("| --- | --- | --- | --- |")
    for name, runs in rows.items():
        idle = [r[0] for r in runs]
        print(f"| {name} | **{statistics.median(idle):,.0f}** ({', '.join(f'{v:,.0f}' for v in idle)}) "
              f"| {statistics.median(r[1] for r in runs):.2f} | {statistics.median(r[2] for r in runs):.2f} |")
        print(f"  ({name}: load average at each round's end: {', '.join(r[3] for r in runs)})")
    sys.exit(0)
print("| Build | Idle req/s (median; rounds) | Under load req/s (median; rounds) | Under load ÷ idle (median; rounds) | p99 idle / loaded, ms (medians) | Background work done while loaded (median per run: edits / uploads / renders / errors) |")
print("| --- | --- | --- | --- | --- | --- |")
for name, runs in rows.items():
    fmt = lambda values, f: ", ".join(f.format(v) for v in values)
    idle = [r[0] for r in runs]; loaded = [r[1] for r in runs]; ratio = [r[2] for r in runs]
    p99i = statistics.median(r[3][0] for r in runs); p99l = statistics.median(r[3][1] for r in runs)
    bg = {k: statistics.median(r[5].get(k, 0) for r in runs) for k in ("edits", "uploads", "renders", "errors")}
    print(f"| {name} | **{statistics.median(idle):,.0f}** ({fmt(idle, '{:,.0f}')}) | **{statistics.median(loaded):,.0f}** ({fmt(loaded, '{:,.0f}')}) "
          f"| **{statistics.median(ratio):.2f}×** ({fmt(ratio, '{:.2f}')}) | {p99i:.1f} / {p99l:.1f} "
          f"| {bg['edits']:.0f} / {bg['uploads']:.0f} / {bg['renders']:.0f} / {bg['errors']:.0f} |")
    bad = [r[4] for r in runs if any(r[4])]
    if bad: print(f"  ({name}: non-2xx responses in wrk runs: {bad})")
    print(f"  ({name}: load average at each round's end: {', '.join(r[6] for r in runs)})")
PY
