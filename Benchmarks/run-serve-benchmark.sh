#!/usr/bin/env bash
# Server load benchmark: `photos serve` under wrk on loopback, side by side with nginx serving the
# same thumbnail bytes as static files, in a release build.
#
#   Benchmarks/run-serve-benchmark.sh                       # 3 runs; updates docs/performance.md
#   Benchmarks/run-serve-benchmark.sh --runs 1 --seconds 5 --mixed-seconds 10 --no-docs   # quick
#
# Imports the 66 real photos of the image benchmark's set (Benchmarks/.data/bench-set/, built once
# as run-image-benchmark.sh does) into a fresh library, starts `photos serve` with a read-write
# token, asks once for every 256 × 256 grid thumbnail (aspectFill, with the asset's version, as
# the gallery does) and writes those exact bytes to files that nginx (Debian, 2 workers,
# sendfile, open_file_cache) serves. Then, --runs times, alternating: wrk (2 threads, 64
# connections, --seconds each, default 30) on cached thumbnails from ours, then from nginx; and
# once, a mixed load on ours for --mixed-seconds (default 60): 19 thumbnail reads to 1 favorite
# toggle (POST /api/changes), then favorite toggles alone for --favorites-seconds (default 30).
# The server's resident memory and the library's write-ahead log are sampled every 0.5 s.
# Options: --runs R, --seconds S, --mixed-seconds S, --favorites-seconds S, --connections C,
# --docs FILE, --no-docs.
# Installs wrk and nginx when missing (apt-get, as root or with sudo).
set -euo pipefail

# shellcheck source=peers/bench-common.sh
. "$(dirname "${BASH_SOURCE[0]}")/peers/bench-common.sh"
RUNS=3
SECONDS_EACH=30
MIXED_SECONDS=60
FAVORITES_SECONDS=30
CONNECTIONS=64
THREADS=2
DOCS=default

parse_options "$@" <<'OPTIONS'
--runs RUNS
--seconds SECONDS_EACH
--mixed-seconds MIXED_SECONDS
--favorites-seconds FAVORITES_SECONDS
--connections CONNECTIONS
--docs DOCS
--no-docs DOCS=none
OPTIONS
check_runs_and_docs "$ROOT"

DATA="$HERE/.data"
CORPUS="$DATA/corpus"
SET="$DATA/bench-set"
WORK="$DATA/serve-work"
LOG="$WORK/logs"
RESULTS="$WORK/results.txt"
MACHINE="$WORK/machine.tsv"
LIBRARY="$WORK/Library.photoslibrary"
STATIC="$WORK/static"
SERVER_PID=""
NGINX_PID=""
SAMPLER_PID=""

trap 'stop_processes "$SAMPLER_PID" "$SERVER_PID" "$NGINX_PID"' EXIT

record() {   # record NAME RUN "key=value …"
    echo "peer=$1 run=$2 load=$(load1) $3" >> "$RESULTS"
}

sample_memory() {   # every 0.5 s: "seconds RSS-KiB WAL-bytes" into $WORK/memory.txt
    : > "$WORK/memory.txt"
    local wal="$LIBRARY/database/Photos.sqlite-wal"
    ( while kill -0 "$SERVER_PID" 2>/dev/null; do
        echo "$(date +%s.%N) $(rss_kb "$SERVER_PID") $(stat -c %s "$wal" 2>/dev/null || echo 0)" >> "$WORK/memory.txt"
        sleep 0.5
    done ) &
    SAMPLER_PID=$!
}

memory_during() {   # memory_during FROM TO: RSS at the start, peaks of each half, WAL peak
    awk -v from="$1" -v to="$2" '
        $1 >= from && $1 <= to {
            if (!started) { first = $2; started = 1 }
            if ($1 < (from + to) / 2) { if ($2 > early) early = $2 } else if ($2 > late) late = $2
            if ($3 > wal) wal = $3; last = $2
        }
        END { printf "RSS %.0f MiB at the start, peak %.0f MiB in the first half and %.0f MiB in the second, %.0f MiB at the end; write-ahead log at most %.1f MB", first / 1024, early / 1024, late / 1024, last / 1024, wal / 1e6 }
    ' "$WORK/memory.txt"
}

run_wrk() {   # run_wrk NAME RUN SECONDS URL PATHS [IDS]: one wrk run, its RESULT line recorded
    local name="$1" run="$2" seconds="$3" url="$4"; shift 4
    local log="$LOG/$name-$run.log" before after
    before="$(rss_kb "$SERVER_PID")"
    wrk -t "$THREADS" -c "$CONNECTIONS" -d "${seconds}s" -s "$PEERS/wrk_load.lua" "$url" -- "$@" > "$log" 2>&1 \
        || { cat "$log" >&2; exit 1; }
    after="$(rss_kb "$SERVER_PID")"
    local line; line="$(grep '^RESULT ' "$log" | sed 's/^RESULT //')"
    record "$name" "$run" "$line rss_before_kb=$before rss_after_kb=$after"
    say "$name run $run: $line"
}

mkdir -p "$WORK" "$LOG"
rm -f "$RESULTS" "$LOG"/*.log
install_missing wrk nginx curl libvips-tools libimage-exiftool-perl dcraw python3-pip
build_bench_set "$ROOT" "$CORPUS" "$SET" "$LOG"

build_photos "$ROOT" "$LOG/build.log"

say "Importing $(find "$SET" -name '*.jpg' | wc -l) photos into a fresh library"
rm -rf "$LIBRARY" "$STATIC"
"$PHOTOS" import --library "$LIBRARY" "$SET" > "$LOG/import.log"
export PHOTOS_TOKEN
PHOTOS_TOKEN="$("$PHOTOS" token create --library "$LIBRARY" --level read-write --name bench --quiet)"
start_server "$PHOTOS" "$LIBRARY" "$LOG/server.log"
sample_memory
START_RSS="$(rss_kb "$SERVER_PID")"

say "Asking once for every grid thumbnail (256 x 256 aspectFill) and writing the same bytes for nginx"
mkdir -p "$STATIC"
curl -sf -H "Authorization: Bearer $PHOTOS_TOKEN" "http://127.0.0.1:$PORT/api/assets?limit=1000" \
    | python3 -c 'import json,sys; [print(a["id"], a["version"]) for a in json.load(sys.stdin)["assets"]]' > "$WORK/assets.txt"
: > "$WORK/ours-paths.txt"; : > "$WORK/nginx-paths.txt"; : > "$WORK/ids.txt"
while read -r id version; do
    path="/api/assets/$id/image?w=256&h=256&mode=fill&v=$version"
    curl -sf -H "Authorization: Bearer $PHOTOS_TOKEN" -o "$STATIC/$id.jpg" "http://127.0.0.1:$PORT$path"
    echo "$path" >> "$WORK/ours-paths.txt"
    echo "/$id.jpg" >> "$WORK/nginx-paths.txt"
    echo "$id" >> "$WORK/ids.txt"
done < "$WORK/assets.txt"
N="$(wc -l < "$WORK/ids.txt")"
THUMB_BYTES="$(du -cb "$STATIC"/*.jpg | tail -1 | cut -f1)"
start_static_nginx "$WORK/nginx" "$STATIC" "image/jpeg jpg;" "private, max-age=31536000, immutable" / "$LOG/nginx.log"
curl -sf -o /dev/null "http://127.0.0.1:$NGINX_PORT/$(head -1 "$WORK/ids.txt").jpg"
WARM_RSS="$(rss_kb "$SERVER_PID")"

{
    machine_basics
    printf 'Load\twrk %s (%s threads, %s connections, keep-alive) on the same machine, loopback\n' "$(version wrk)" "$THREADS" "$CONNECTIONS"
    printf 'Thumbnails\t%s real photos (the image benchmark set), 256 x 256 aspectFill JPEG, %s bytes in all (mean %s)\n' \
        "$N" "$THUMB_BYTES" "$((THUMB_BYTES / N))"
    printf 'ours\tphotos serve, swift build -c release -Xswiftc -cross-module-optimization, %s, commit %s\n' \
        "$(swift_version)" "$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?')"
    printf 'nginx\tnginx %s, 2 workers, sendfile, open_file_cache, etag\n' "$(version nginx-common)"
    printf 'Server RSS\tafter start %s KiB, after the first pass over the thumbnails %s KiB\n' "$START_RSS" "$WARM_RSS"
} > "$MACHINE"

for run in $(seq "$RUNS"); do
    say "Run $run of $RUNS: cached thumbnails, $SECONDS_EACH s each"
    run_wrk ours-thumbnails "$run" "$SECONDS_EACH" "http://127.0.0.1:$PORT" "$WORK/ours-paths.txt"
    PHOTOS_TOKEN="" run_wrk nginx-thumbnails "$run" "$SECONDS_EACH" "http://127.0.0.1:$NGINX_PORT" "$WORK/nginx-paths.txt"
done
say "Mixed load: thumbnails and favorite toggles, $MIXED_SECONDS s"
from="$(date +%s.%N)"
run_wrk ours-mixed 1 "$MIXED_SECONDS" "http://127.0.0.1:$PORT" "$WORK/ours-paths.txt" "$WORK/ids.txt"
printf 'Memory under the mixed load\t%s\n' "$(memory_during "$from" "$(date +%s.%N)")" >> "$MACHINE"
say "Favorite toggles alone, $FAVORITES_SECONDS s"
from="$(date +%s.%N)"
run_wrk ours-favorites 1 "$FAVORITES_SECONDS" "http://127.0.0.1:$PORT" "$WORK/ours-paths.txt" "$WORK/ids.txt" 1
printf 'Memory under favorite toggles\t%s\n' "$(memory_during "$from" "$(date +%s.%N)")" >> "$MACHINE"
kill "$SAMPLER_PID" 2>/dev/null || true
printf 'Server RSS peak\t%s KiB over the whole run (sampled every 0.5 s), %s KiB at the end\n' \
    "$(awk '{print $2}' "$WORK/memory.txt" | sort -n | tail -1)" "$(rss_kb "$SERVER_PID")" >> "$MACHINE"
FAVORITES="$("$PHOTOS" ls --library "$LIBRARY" --predicate 'isFavorite == YES' | grep -c . || true)"
printf 'After the mixed load\t%s favorites in the library (toggled at random), server log lines: %s\n' \
    "$FAVORITES" "$(wc -l < "$LOG/server.log")" >> "$MACHINE"

report python3 "$PEERS/serve_report.py" "$RESULTS" "$MACHINE"
