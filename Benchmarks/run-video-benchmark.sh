#!/usr/bin/env bash
# Video rendition benchmark: `photos cache warm --videos` making browser renditions (H.264/AAC,
# fast start, fitted in 1920x1080) of real-length HEVC clips, side by side with the plain
# `ffmpeg` command doing the same conversion of the same files, in a release build.
#
#   Benchmarks/run-video-benchmark.sh                      # 3 runs; updates docs/performance.md
#   Benchmarks/run-video-benchmark.sh --runs 1 --no-docs   # quick run; prints the table only
#
# The clip set (--clips N, default 6, of --seconds S, default 20: 1920x1080 30 fps HEVC in MOV
# with AAC sound, as iPhones record, made by ffmpeg from its test sources) is made once into
# Benchmarks/.data/video-set/. Each run: ours imports the set into a fresh library (untimed),
# then times `photos cache warm --videos` (one rendition at a time, as the library's workers
# run); the peer times `ffmpeg` with the arguments the export session passes, on the same files,
# one at a time. Throughput ratio = peer seconds / our seconds (aim >= 0.95: the wrapper costs
# under 5 %). Then, in headless Chromium, the time from setting a <video>'s source to its first
# frame, for one of the renditions served by `photos serve` (Benchmarks/peers/first_frame.py).
# Options: --runs R, --clips N, --seconds S, --no-docs.
set -euo pipefail

# shellcheck source=peers/bench-common.sh
. "$(dirname "${BASH_SOURCE[0]}")/peers/bench-common.sh"
RUNS=3
CLIPS=6
SECONDS_PER_CLIP=20
DOCS=default
parse_options "$@" <<'OPTIONS'
--runs RUNS
--clips CLIPS
--seconds SECONDS_PER_CLIP
--no-docs DOCS=none
OPTIONS
if [ "$DOCS" = default ]; then
    if [ "$RUNS" -ge 3 ]; then DOCS="$ROOT/docs/performance.md"; else DOCS=none; fi
fi

install_missing ffmpeg
DATA="$HERE/.data"
SET="$DATA/video-set-${CLIPS}x${SECONDS_PER_CLIP}"
WORK="$DATA/video-work"
SCRATCH="$HERE/.build-video"
mkdir -p "$WORK"
now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN{printf "%.3f", b-a}'; }

if [ ! -d "$SET" ]; then
    say "Making $CLIPS HEVC clips of ${SECONDS_PER_CLIP}s (once) into ${SET#"$ROOT"/}"
    rm -rf "$SET.partial" && mkdir -p "$SET.partial"
    for i in $(seq 1 "$CLIPS"); do
        ffmpeg -v error -nostdin -y -f lavfi -i "testsrc2=size=1920x1080:rate=30:duration=$SECONDS_PER_CLIP" \
            -f lavfi -i "sine=frequency=$((200 + i * 50)):sample_rate=48000:duration=$SECONDS_PER_CLIP" \
            -c:v libx265 -preset ultrafast -pix_fmt yuv420p -tag:v hvc1 -x265-params log-level=error \
            -c:a aac -b:a 128k -f mov "$SET.partial/IMG_$((1000 + i)).MOV"
    done
    mv "$SET.partial" "$SET"
fi

say "Building photos (release) in ${SCRATCH#"$ROOT"/}"
swift build -c release --product photos --package-path "$ROOT" --scratch-path "$SCRATCH" >"$WORK/build.log" 2>&1 \
    || { tail -30 "$WORK/build.log" >&2; exit 1; }
PHOTOS="$SCRATCH/release/photos"

ours=()
peer=()
for run in $(seq 1 "$RUNS"); do
    library="$WORK/library-$run"
    rm -rf "$library" "$WORK/peer-out"
    "$PHOTOS" import "$SET" --library "$library" >/dev/null
    start=$(now)
    "$PHOTOS" cache warm --videos --library "$library" >"$WORK/warm-$run.txt"
    ours+=("$(elapsed "$start" "$(now)")")
    grep -q "Videos: $CLIPS renditions made" "$WORK/warm-$run.txt" || { cat "$WORK/warm-$run.txt" >&2; exit 1; }

    mkdir -p "$WORK/peer-out"
    start=$(now)
    for clip in "$SET"/*.MOV; do
        ffmpeg -nostdin -hide_banner -v error -i "$clip" -dn -sn -c:v libx264 -preset veryfast -crf 23 -pix_fmt yuv420p \
            -vf scale=1920:1080 -c:a aac -b:a 160k -movflags +faststart -f mp4 -y "$WORK/peer-out/$(basename "$clip").mp4"
    done
    peer+=("$(elapsed "$start" "$(now)")")
    say "run $run: photos cache warm --videos ${ours[-1]} s, ffmpeg ${peer[-1]} s"
    [ "$run" -lt "$RUNS" ] && rm -rf "$library"
done

# Request to first frame in Chromium: the last run's library, a 1080p rendition, on loopback.
asset=$("$PHOTOS" ls --library "$library" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)[0]["localIdentifier"][:36])')
say "Timing the first frame of $asset in Chromium"
python3 "$HERE/peers/first_frame.py" "$PHOTOS" "$library" "$asset" 15 | tee "$WORK/first-frame.txt" >&2
first_frame=$(awk '/^median/ {print $2}' "$WORK/first-frame.txt")
rm -rf "$library"

our_median=$(printf '%s\n' "${ours[@]}" | median)
peer_median=$(printf '%s\n' "${peer[@]}" | median)
ratio=$(awk -v p="$peer_median" -v o="$our_median" 'BEGIN{printf "%.3f", p/o}')
video_seconds=$((CLIPS * SECONDS_PER_CLIP))
table=$(cat <<TABLE
| What | Median of $RUNS runs | Video seconds per second | vs ffmpeg |
| --- | --- | --- | --- |
| \`photos cache warm --videos\` ($CLIPS × ${SECONDS_PER_CLIP} s 1080p HEVC → H.264/AAC MP4) | $our_median s | $(awk -v v="$video_seconds" -v s="$our_median" 'BEGIN{printf "%.2f", v/s}') | **${ratio}×** |
| \`ffmpeg\` with the same arguments, one file at a time | $peer_median s | $(awk -v v="$video_seconds" -v s="$peer_median" 'BEGIN{printf "%.2f", v/s}') | 1× |

| Chromium, loopback | Median of 15 | Aim |
| --- | --- | --- |
| From setting a \`<video>\`'s source to its first frame (1080p rendition from \`photos serve\`) | ${first_frame} ms | < 300 ms |
TABLE
)
echo "$table"

if [ "$DOCS" != none ]; then
    machine="$(nproc) cores, $(awk '/^MemTotal/ {printf "%.1f GiB", $2/1048576}' /proc/meminfo), $(ffmpeg -version | head -1 | cut -d' ' -f1-3)"
    section=$(cat <<SECTION
<!-- video-benchmark:start -->
## Video renditions (\`make bench-video\`)

Browser renditions of HEVC clips, as iPhones record them, made by \`photos cache warm --videos\`
(probe with ffprobe, AVAssetExportSession running ffmpeg, the library's bookkeeping) against
the plain \`ffmpeg\` command with the same conversion arguments, one file at a time each, release
build, $(date -u +%Y-%m-%d), $machine. Aim: at least 0.95× ffmpeg's throughput.

$table
<!-- video-benchmark:end -->
SECTION
)
    python3 - "$DOCS" "$section" <<'PY'
import re, sys
path, section = sys.argv[1], sys.argv[2]
text = open(path).read()
pattern = re.compile(r"<!-- video-benchmark:start -->.*?<!-- video-benchmark:end -->", re.S)
text = pattern.sub(lambda _: section, text) if pattern.search(text) else text.rstrip("\n") + "\n\n" + section + "\n"
open(path, "w").write(text)
PY
    say "Wrote the table to ${DOCS#"$ROOT"/}"
fi
