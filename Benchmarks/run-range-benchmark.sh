#!/usr/bin/env bash
# Byte-range benchmark: `photos serve` answering random ranges of a large video
# (GET /api/assets/{id}/original with a Range header) under wrk on loopback, side by side with
# nginx serving the same file, in a release build.
#
#   Benchmarks/run-range-benchmark.sh                        # 3 runs of 20 s; updates docs/performance.md
#   Benchmarks/run-range-benchmark.sh --runs 1 --seconds 5 --no-docs   # quick
#
# Makes once, with ffmpeg, an H.264 MP4 of --size-mb MB (default 200: a 1080p test pattern with
# noise, cut at that size; Benchmarks/.data/range-video-<MB>mb.mp4), imports it into a fresh
# library, starts `photos serve` with a read-write token and nginx (Debian, 2 workers, sendfile,
# open_file_cache) on a hard link of the same file, checks that both answer a range with 206 and
# the file's exact bytes, then --runs times, alternating: wrk (2 threads, --connections, default
# 16, --seconds each) asking each for --range-kib KiB (default 1024) at random offsets
# (Benchmarks/peers/wrk_range.lua). Both read the file from the page cache (it is read once
# before the runs). The servers' CPU time (user + system; nginx's workers included) and our
# resident memory are read before and after each run.
# Options: --runs R, --seconds S, --size-mb M, --range-kib K, --connections C, --docs FILE, --no-docs.
# Installs wrk, nginx and ffmpeg when missing (apt-get, as root or with sudo).
set -euo pipefail

# shellcheck source=peers/bench-common.sh
. "$(dirname "${BASH_SOURCE[0]}")/peers/bench-common.sh"
RUNS=3
SECONDS_EACH=20
SIZE_MB=200
RANGE_KIB=1024
CONNECTIONS=16
THREADS=2
DOCS=default

parse_options "$@" <<'OPTIONS'
--runs RUNS
--seconds SECONDS_EACH
--size-mb SIZE_MB
--range-kib RANGE_KIB
--connections CONNECTIONS
--docs DOCS
--no-docs DOCS=none
OPTIONS
check_runs_and_docs "$ROOT"

DATA="$HERE/.data"
VIDEO="$DATA/range-video-${SIZE_MB}mb.mp4"
WORK="$DATA/range-work"
LOG="$WORK/logs"
RESULTS="$WORK/results.txt"
MACHINE="$WORK/machine.tsv"
LIBRARY="$WORK/Library.photoslibrary"
STATIC="$WORK/static"
RANGE_BYTES=$((RANGE_KIB * 1024))
SERVER_PID=""
NGINX_PID=""

trap 'stop_processes "$SERVER_PID" "$NGINX_PID"' EXIT

# cpu_ticks PID...: user + system clock ticks of these processes and their children's threads.
cpu_ticks() { local pid total=0; for pid in "$@"; do total=$((total + $(awk '{print $14 + $15}' "/proc/$pid/stat"))); done; echo "$total"; }
nginx_pids() { echo "$NGINX_PID $(pgrep -P "$NGINX_PID" | tr '\n' ' ')"; }

# check_range NAME URL [CURL-ARGS...]: one range answered 206, with the file's bytes.
check_range() {
    local name="$1" url="$2"; shift 2
    local first=$((SIZE / 3 + 12345)) status
    status="$(curl -s -o "$WORK/check-$name.bin" -w '%{http_code}' -r "$first-$((first + RANGE_BYTES - 1))" "$@" "$url")"
    [ "$status" = 206 ] || { echo "$name answered $status to a range" >&2; exit 1; }
    cmp -s -i "$first:0" -n "$RANGE_BYTES" "$VIDEO" "$WORK/check-$name.bin" \
        || { echo "$name sent other bytes than the file's" >&2; exit 1; }
}

run_wrk() {   # run_wrk NAME RUN URL PATH PID...: one wrk run, its RESULT line recorded with the servers' CPU
    local name="$1" run="$2" url="$3" path="$4"; shift 4
    local log="$LOG/$name-$run.log" before after rss_before line
    before="$(cpu_ticks "$@")"
    rss_before="$(rss_kb "$SERVER_PID")"
    wrk -t "$THREADS" -c "$CONNECTIONS" -d "${SECONDS_EACH}s" -s "$PEERS/wrk_range.lua" "$url" -- "$path" "$SIZE" "$RANGE_BYTES" \
        > "$log" 2>&1 || { cat "$log" >&2; exit 1; }
    after="$(cpu_ticks "$@")"
    line="$(grep '^RESULT ' "$log" | sed 's/^RESULT //')"
    echo "peer=$name run=$run load=$(load1) $line cpu_s=$(awk -v t=$((after - before)) -v hz="$(getconf CLK_TCK)" 'BEGIN {printf "%.2f", t / hz}') rss_before_kb=$rss_before rss_after_kb=$(rss_kb "$SERVER_PID")" >> "$RESULTS"
    say "$name run $run: $line"
}

mkdir -p "$WORK" "$LOG"
rm -f "$RESULTS" "$LOG"/*.log
install_missing wrk nginx curl ffmpeg

if [ ! -f "$VIDEO" ]; then
    say "Making a ${SIZE_MB} MB H.264 video with ffmpeg (once)"
    ffmpeg -hide_banner -loglevel error -y -f lavfi -i "testsrc2=size=1920x1080:rate=30,noise=alls=8:allf=t" -t 3600 \
        -fs "${SIZE_MB}M" -c:v libx264 -preset ultrafast -crf 18 -pix_fmt yuv420p -movflags +faststart "$VIDEO.partial.mp4"
    mv "$VIDEO.partial.mp4" "$VIDEO"
fi
SIZE="$(stat -c %s "$VIDEO")"

build_photos "$ROOT" "$LOG/build.log"

say "Importing the video into a fresh library"
rm -rf "$LIBRARY" "$STATIC"
"$PHOTOS" import --library "$LIBRARY" "$VIDEO" > "$LOG/import.log"
export PHOTOS_TOKEN
PHOTOS_TOKEN="$("$PHOTOS" token create --library "$LIBRARY" --level read-write --name bench --quiet)"
start_server "$PHOTOS" "$LIBRARY" "$LOG/server.log"
ID="$(curl -sf -H "Authorization: Bearer $PHOTOS_TOKEN" "http://127.0.0.1:$PORT/api/assets?limit=1" \
    | python3 -c 'import json,sys; print(json.load(sys.stdin)["assets"][0]["id"])')"
OURS_PATH="/api/assets/$ID/original"
mkdir -p "$STATIC"
ln "$VIDEO" "$STATIC/video.mp4"
start_static_nginx "$WORK/nginx" "$STATIC" "video/mp4 mp4;" "private, no-cache" /video.mp4 "$LOG/nginx.log"

say "Checking a range from each, and reading the file once from each (page cache)"
check_range ours "http://127.0.0.1:$PORT$OURS_PATH" -H "Authorization: Bearer $PHOTOS_TOKEN"
check_range nginx "http://127.0.0.1:$NGINX_PORT/video.mp4"
curl -sf -H "Authorization: Bearer $PHOTOS_TOKEN" -o /dev/null "http://127.0.0.1:$PORT$OURS_PATH"
curl -sf -o /dev/null "http://127.0.0.1:$NGINX_PORT/video.mp4"
START_RSS="$(rss_kb "$SERVER_PID")"

{
    machine_basics
    printf 'Load\twrk %s (%s threads, %s connections, keep-alive) on the same machine, loopback; each request a %s KiB range at a random offset\n' \
        "$(version wrk)" "$THREADS" "$CONNECTIONS" "$RANGE_KIB"
    printf 'File\t%s bytes, H.264 MP4 made by ffmpeg (%s), in the page cache\n' "$SIZE" \
        "$(ffprobe -v error -show_entries format=duration -of default=nw=1:nk=1 "$VIDEO" | awk '{printf "%.0f s", $1}'), 1080p"
    printf 'ours\tphotos serve, swift build -c release -Xswiftc -cross-module-optimization, %s, commit %s; %s KiB reads on NIO'"'"'s thread pool\n' \
        "$(swift_version)" "$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?')" \
        "$(sed -n 's/.*static let chunkSize = \([0-9]*\) << 10.*/\1/p' "$ROOT/Sources/PhotosServer/Support/FileResponse.swift")"
    printf 'nginx\tnginx %s, 2 workers, sendfile, open_file_cache, etag\n' "$(version nginx-common)"
    printf 'Server RSS\tafter reading the whole file once %s KiB\n' "$START_RSS"
} > "$MACHINE"

for run in $(seq "$RUNS"); do
    say "Run $run of $RUNS: random ${RANGE_KIB} KiB ranges, $SECONDS_EACH s each"
    run_wrk ours-ranges "$run" "http://127.0.0.1:$PORT" "$OURS_PATH" "$SERVER_PID"
    # shellcheck disable=SC2046
    PHOTOS_TOKEN="" run_wrk nginx-ranges "$run" "http://127.0.0.1:$NGINX_PORT" /video.mp4 $(nginx_pids)
done
printf 'Server RSS at the end\t%s KiB\n' "$(rss_kb "$SERVER_PID")" >> "$MACHINE"

report python3 "$PEERS/range_report.py" "$RESULTS" "$MACHINE"
