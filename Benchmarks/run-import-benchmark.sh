#!/usr/bin/env bash
# Import benchmark: `photos import` on N 12-megapixel JPEGs (default 1,000) side by side with the
# peers, run one after another in this script on the same files, in a release build.
#
#   Benchmarks/run-import-benchmark.sh                    # 1,000 files, all runs; updates docs/performance.md
#   Benchmarks/run-import-benchmark.sh --files 200        # quick run; prints the table only
#   Benchmarks/run-import-benchmark.sh --only digikam     # one side: ours|digikam|shotwell|baseline
#
# Runs: ours (metadata-only import into a fresh library, then the same files again: all
# duplicates; the same with --in-place, originals referenced where they are; then with
# --thumbnails, a 256 px grid square per photo; and `cp -r` of the corpus, the floor of any
# import that copies), digiKam's startup scan, Shotwell's auto-import, an exiftool +
# vipsthumbnail pipeline. Each is timed --runs times (default 3) and the medians are compared.
# Options: --files N, --runs R, --only ours|digikam|shotwell|baseline, --docs FILE (write the
#          table there), --no-docs (don't; the default writes docs/performance.md only for a
#          full run: 1,000 files, every side).
# Installs the Debian packages the peers need when missing (apt-get, as root or with sudo).
# The corpus is cached in Benchmarks/.data/import-N/, the peers' state in
# Benchmarks/.data/import-work/ (both gitignored); `photos` is built in Benchmarks/.build-import.
# Peer scripts and their provenance: Benchmarks/peers/README.md.
set -euo pipefail

# shellcheck source=peers/bench-common.sh
. "$(dirname "${BASH_SOURCE[0]}")/peers/bench-common.sh"
FILES=1000
RUNS=3
ONLY=all
DOCS=default

parse_options "$@" <<'OPTIONS'
--files FILES
--runs RUNS
--only ONLY
--docs DOCS
--no-docs DOCS=none
OPTIONS
FILES="${FILES//[,_]/}"
case "$ONLY" in all|ours|digikam|shotwell|baseline) ;; *) echo "--only: ours, digikam, shotwell or baseline" >&2; exit 2 ;; esac
if [ "$DOCS" = default ]; then
    if [ "$FILES" = 1000 ] && [ "$ONLY" = all ]; then DOCS="$ROOT/docs/performance.md"; else DOCS=none; fi
fi

DATA="$HERE/.data"
CORPUS="$DATA/import-$FILES"
WORK="$DATA/import-work"
SCRATCH="$HERE/.build-import"
LOG="$WORK/logs"
RESULTS="$WORK/results.txt"
MACHINE="$WORK/machine.tsv"

wants() { [ "$ONLY" = all ] || [ "$ONLY" = "$1" ]; }

# --- set-up -----------------------------------------------------------------------------------

install_packages() {
    local packages=(imagemagick libimage-exiftool-perl sqlite3 python3)
    if wants digikam || wants shotwell; then packages+=(xvfb xauth xdotool dbus dbus-x11); fi
    if wants digikam; then packages+=(digikam); fi
    if wants shotwell; then packages+=(shotwell); fi
    if wants baseline; then packages+=(libvips-tools); fi
    install_missing "${packages[@]}"
}

build_ours() {
    say "Building photos in release (scratch path ${SCRATCH#"$ROOT"/})"
    local build=(swift build -c release --product photos --package-path "$ROOT" --scratch-path "$SCRATCH")
    "${build[@]}" > "$LOG/build.log" 2>&1 || { cat "$LOG/build.log" >&2; exit 1; }
    PHOTOS="$("${build[@]}" --show-bin-path)/photos"
}

XVFB_PID=""
start_xvfb() {
    local n
    for n in $(seq 99 140); do
        [ -e "/tmp/.X$n-lock" ] || [ -e "/tmp/.X11-unix/X$n" ] || break
    done
    Xvfb ":$n" -screen 0 1600x1000x24 -nolisten tcp > "$LOG/xvfb.log" 2>&1 &
    XVFB_PID=$!
    for _ in $(seq 100); do [ -e "/tmp/.X11-unix/X$n" ] && break; sleep 0.1; done
    [ -e "/tmp/.X11-unix/X$n" ] || { echo "Xvfb :$n did not start (see $LOG/xvfb.log)" >&2; exit 1; }
    DISPLAY_NUMBER=":$n"
}
stop_xvfb() {
    if [ -n "$XVFB_PID" ]; then kill "$XVFB_PID" 2>/dev/null || true; wait "$XVFB_PID" 2>/dev/null || true; XVFB_PID=""; fi
}
trap stop_xvfb EXIT


machine_info() {
    local corpus_size rev dirty
    corpus_size="$(du -sm "$CORPUS" | cut -f1)"
    rev="$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo "?")"
    dirty=""; [ -n "$(git -C "$ROOT" status --porcelain -- Sources Package.swift 2>/dev/null)" ] && dirty=" plus uncommitted changes"
    {
        machine_basics
        printf 'Corpus\t%s × 4032×3024 JPEG (gen_corpus.sh: plasma content, camera EXIF, GPS, unique dates and IDs), %s MiB\n' "$FILES" "$corpus_size"
        printf 'ours\tphotos, swift build -c release, %s, commit %s%s\n' "$(swift_version)" "$rev" "$dirty"
        printf 'digiKam\t%s (Debian package), run under Xvfb\n' "$(version digikam)"
        printf 'digiKam version\t%s\n' "$(version digikam | sed 's/^[0-9]*://; s/-.*//')"
        printf 'Shotwell\t%s (Debian package), run under Xvfb\n' "$(version shotwell)"
        printf 'Shotwell version\t%s\n' "$(version shotwell | sed 's/^[0-9]*://; s/-.*//')"
        printf 'Baseline tools\texiftool %s, libvips-tools %s, coreutils sha1sum %s\n' "$(version libimage-exiftool-perl)" "$(version libvips-tools)" "$(version coreutils)"
        printf 'Xvfb\t%s, 1600×1000×24\n' "$(version xvfb)"
    } > "$MACHINE"
}

# --- the runs ---------------------------------------------------------------------------------

record() {   # record PEER RUN LOAD "key=value …"
    echo "peer=$1 run=$2 load=$3 $4" >> "$RESULTS"
}

json_field() {   # json_field FILE KEY
    python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' "$1" "$2"
}

run_ours() {   # run_ours NAME [import flags…]: a fresh library, then the same files again (all duplicates)
    local name="$1"; shift
    local run lib load t0 t1 status out pass
    for run in $(seq "$RUNS"); do
        lib="$WORK/ours/library.photoslibrary"
        rm -rf "$WORK/ours"; mkdir -p "$WORK/ours"
        for pass in first again; do
            out="$LOG/$name-$run-$pass.json"
            load="$(load1)"
            drop_caches || true
            t0=$(date +%s.%N)
            status=0; "$PHOTOS" import "$CORPUS" --library "$lib" --json "$@" > "$out" 2> "$LOG/$name-$run-$pass.err" || status=$?
            t1=$(date +%s.%N)
            [ "$status" = 0 ] || { echo "photos import $* exited with $status (see $LOG/$name-$run-$pass.err)" >&2; exit 1; }
            local imported duplicates failed seconds originals
            imported="$(json_field "$out" imported)"; duplicates="$(json_field "$out" duplicates)"
            failed="$(json_field "$out" failed)"; seconds="$(json_field "$out" seconds)"
            originals="$(find "$lib/originals" -type f | wc -l)"
            local wall; wall="$(awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.3f", b-a}')"
            if [ "$pass" = first ]; then
                [ "$imported" = "$FILES" ] && [ "$failed" = 0 ] || { echo "$name: imported $imported of $FILES, $failed failed ($out)" >&2; exit 1; }
                record "$name" "$run" "$load" "files=$FILES launch_s=$wall steady_s=$seconds imported=$imported duplicates=$duplicates failed=$failed originals=$originals"
            else
                [ "$imported" = 0 ] && [ "$duplicates" = "$FILES" ] || { echo "$name, again: imported $imported, $duplicates duplicates of $FILES ($out)" >&2; exit 1; }
                record "$name-rescan" "$run" "$load" "files=$FILES launch_s=$wall steady_s=$seconds imported=$imported duplicates=$duplicates failed=$failed originals=$originals"
            fi
            say "$name run $run ($pass): $FILES files in $wall s, $imported imported, $duplicates duplicates, $originals files in originals/ (load $load)"
        done
    done
    rm -rf "$WORK/ours"   # (copy mode) a copy of every original: don't keep it around
}

run_copy_floor() {   # `cp -r` of the corpus onto the same file system: what copying in costs here
    local run load t0 t1 wall
    for run in $(seq "$RUNS"); do
        rm -rf "$WORK/cp"
        load="$(load1)"
        drop_caches || true
        t0=$(date +%s.%N)
        cp -r "$CORPUS" "$WORK/cp"
        t1=$(date +%s.%N)
        wall="$(awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.3f", b-a}')"
        record copy-floor "$run" "$load" "files=$FILES launch_s=$wall"
        say "cp -r run $run: $FILES files in $wall s (load $load)"
        rm -rf "$WORK/cp"
    done
}

run_ours_thumbnails() {   # the same import with --thumbnails: a 256 px grid square per photo
    local run lib load t0 t1 status out wall
    for run in $(seq "$RUNS"); do
        lib="$WORK/ours/library.photoslibrary"
        rm -rf "$WORK/ours"; mkdir -p "$WORK/ours"
        out="$LOG/ours-thumbnails-$run.json"
        load="$(load1)"
        drop_caches || true
        t0=$(date +%s.%N)
        status=0; "$PHOTOS" import "$CORPUS" --library "$lib" --thumbnails --json > "$out" 2> "$LOG/ours-thumbnails-$run.err" || status=$?
        t1=$(date +%s.%N)
        [ "$status" = 0 ] || { echo "photos import --thumbnails exited with $status" >&2; exit 1; }
        local imported thumbs seconds
        imported="$(json_field "$out" imported)"; seconds="$(json_field "$out" seconds)"
        thumbs="$(find "$lib/derivatives" -name '*_thumbnail.jpg' | wc -l)"
        [ "$imported" = "$FILES" ] && [ "$thumbs" = "$FILES" ] || { echo "ours --thumbnails: $imported imported, $thumbs thumbnails of $FILES" >&2; exit 1; }
        wall="$(awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.3f", b-a}')"
        record ours-thumbnails "$run" "$load" "files=$FILES launch_s=$wall steady_s=$seconds imported=$imported thumbnails=$thumbs"
        say "ours --thumbnails run $run: $FILES files in $wall s, $thumbs thumbnails (load $load)"
    done
    rm -rf "$WORK/ours"
}

run_peer() {   # run_peer NAME COMMAND…: runs the peer script --runs times, records its RESULT lines
    local name="$1"; shift
    local run load line
    for run in $(seq "$RUNS"); do
        load="$(load1)"
        "$@" > "$LOG/$name-$run.log" 2>&1 || { cat "$LOG/$name-$run.log" >&2; echo "$name run $run failed" >&2; exit 1; }
        line="$(grep '^RESULT ' "$LOG/$name-$run.log" | tail -1)"
        record "$name" "$run" "$load" "${line#RESULT }"
        say "$(grep -v '^RESULT ' "$LOG/$name-$run.log" | tail -1) (load $load)"
    done
}

digikam_ready() {   # the scripted first run exists, for this digiKam and this collection path
    local dk="$WORK/digikam"
    [ -f "$dk/pristine/version" ] && [ "$(cat "$dk/pristine/version")" = "$(version digikam)" ] \
        && [ "$(sqlite3 "$dk/pristine/home/dkdb/digikam4.db" "select identifier from AlbumRoots" 2>/dev/null)" = "volumeid:?path=$dk/coll" ]
}

run_digikam() {
    if ! digikam_ready; then
        say "digiKam first run (scripted assistant under Xvfb)"
        "$PEERS/digikam_firstrun.sh" "$WORK/digikam" "$DISPLAY_NUMBER" >&2
    fi
    run_peer digikam "$PEERS/digikam_import.sh" "$CORPUS" "$WORK/digikam" "$DISPLAY_NUMBER"
    rm -rf "$WORK/digikam/coll" "$WORK/digikam/home"
}

run_shotwell() {
    run_peer shotwell "$PEERS/shotwell_import.sh" "$CORPUS" "$WORK/shotwell" "$DISPLAY_NUMBER"
    rm -rf "$WORK/shotwell"
}

run_baseline() {
    run_peer baseline "$PEERS/baseline_pipeline.sh" "$CORPUS" "$(nproc)" "$WORK/baseline"
    rm -rf "$WORK/baseline"
}

# --- main -------------------------------------------------------------------------------------

mkdir -p "$WORK" "$LOG"
rm -f "$RESULTS" "$LOG"/*.log "$LOG"/*.json "$LOG"/*.err
install_packages
wants ours && build_ours
say "Corpus: $FILES files"
"$PEERS/gen_corpus.sh" "$CORPUS" "$FILES" >&2
CACHE="dropped before every timed run"
drop_caches || CACHE="NOT dropped (writing /proc/sys/vm/drop_caches needs root): runs after the first start warm"
START_LOAD="$(load1)"
if wants digikam || wants shotwell; then start_xvfb; fi

wants ours && {
    say "ours: photos import, $RUNS runs"
    run_ours ours
    run_ours ours-inplace --in-place
    run_ours_thumbnails
    run_copy_floor
}
wants digikam && { say "digiKam: startup scan, $RUNS runs"; run_digikam; }
wants shotwell && { say "Shotwell: auto-import, $RUNS runs"; run_shotwell; }
wants baseline && { say "Baseline: exiftool + vipsthumbnail, $RUNS runs"; run_baseline; }
stop_xvfb

machine_info
printf 'Load average (1 min), start → end\t%s → %s on %s cores (other processes on the machine add noise)\n' "$START_LOAD" "$(load1)" "$(nproc)" >> "$MACHINE"
printf 'page cache\t%s\n' "$CACHE" >> "$MACHINE"
printf 'Notes\t%s\n' "By default ours copies every original into the library (3.3 MB a file, SHA-256 computed in the same pass); with --in-place it references them where they are and reads each file's headers and a 128 KiB signature, as digiKam and Shotwell index the files where they are (hard links to the corpus), so the digiKam aim is judged on the in-place run. \"Ours + grid thumbnails\" makes the 256 px squares a gallery grid needs; screen-size previews are made on demand (image-manager issue). Peer logs: \`Benchmarks/.data/import-work/logs/\`." >> "$MACHINE"

DOCS_ARGS=()
if [ "$DOCS" != none ]; then DOCS_ARGS=(--docs "$DOCS"); fi
echo
python3 "$PEERS/report.py" --results "$RESULTS" --machine "$MACHINE" "${DOCS_ARGS[@]}"
