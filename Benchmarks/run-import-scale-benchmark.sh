#!/usr/bin/env bash
# Import at scale (issue 19, aim 5): `photos import --in-place` of N distinct small real JPEGs
# (default 1,000,000), interrupted with Ctrl-C (SIGINT) half-way and resumed, then the unchanged
# tree imported again (a rescan), side by side with the peers' work on the same files.
#
#   Benchmarks/run-import-scale-benchmark.sh                     # 1,000,000 files
#   Benchmarks/run-import-scale-benchmark.sh --files 200000 --peer-files 20000
#
# Files: Benchmarks/peers/make-small-jpegs.py (1,546-byte JPEGs with camera EXIF, a unique
# DateTimeOriginal and ImageUniqueID each, all of one size; 200 a day, 1,000 a folder), made once
# and cached in $DATA/small-N. Runs, one after another:
#   ours         a fresh library; the import is sent SIGINT once half the files are committed
#                and run again on the same folder (a resume: the committed half is known by
#                stat and path, the rest imported). Every 10 s the script samples the library's
#                asset count (sqlite3, read-only) and the process's resident set (VmRSS,
#                RssAnon: the heap; RssFile: mapped files, mostly the memory-mapped database),
#                so the rate is seen from the first file to the last, not only on average.
#   rescan       the same folder imported again, nothing changed.
#   exiftool     the peers' metadata step: Immich extracts metadata with exiftool (exiftool-
#                vendored), PhotoPrism and digiKam with exiftool/Exiv2. `exiftool -fast -json`
#                over the first --peer-files files (default 20,000), 2 processes (2 cores), and
#                ours importing the same files into a fresh library, for the ratio.
#   stat walk    `find -printf '%s %T@'` over the whole tree: the floor of any rescan that
#                stats every file (what ours does before its one index probe a file).
# Aims: >= 500 files/s in every 10 s window from the first file to the last, RSS <= 500 MB,
# the resumed run at the same rate, the rescan >= 2,000 files/s. Prints RESULT lines and
# verdicts; figures go to docs/performance.md by hand. Options: --files N, --peer-files M;
# IMPORT_SCALE_DATA=DIR puts files and libraries there (default Benchmarks/.data).
set -euo pipefail

# shellcheck source=peers/bench-common.sh
. "$(dirname "${BASH_SOURCE[0]}")/peers/bench-common.sh"
FILES=1000000
PEER_FILES=20000
parse_options "$@" <<'OPTIONS'
--files FILES
--peer-files PEER_FILES
OPTIONS
[[ "$FILES" =~ ^[1-9][0-9]*$ && "$PEER_FILES" =~ ^[1-9][0-9]*$ ]] || { echo "--files and --peer-files need positive numbers" >&2; exit 2; }
[ "$PEER_FILES" -le "$FILES" ] || PEER_FILES="$FILES"

DATA="${IMPORT_SCALE_DATA:-$HERE/.data}"
SET="$DATA/small-$FILES"
WORK="$DATA/import-scale-work"
LOG="$WORK/logs"
mkdir -p "$LOG"
install_missing libvips-tools libimage-exiftool-perl sqlite3 time

if [ ! -f "$SET/.complete" ]; then
    say "Making $FILES small JPEGs in $SET (once)"
    rm -rf "$SET"
    python3 "$PEERS/make-small-jpegs.py" "$FILES" "$SET" >&2
    touch "$SET/.complete"
fi

build_photos "$ROOT" "$LOG/build.log"
RESULTS="$WORK/results.txt"
: > "$RESULTS"

count_assets() { sqlite3 "file:$1/database/Photos.sqlite?mode=ro" "SELECT count(*) FROM asset" 2>/dev/null || echo 0; }

# watch_import NAME LIBRARY STOP_AT [import arguments...]: runs the import, samples every 10 s
# into $LOG/NAME.samples (t assets rss_mb anon_mb file_mb cpu_s busy,iowait,steal_jiffies
# io_pressure); SIGINT once STOP_AT assets are
# committed (0: never). Leaves the exit status in $WATCH_STATUS and the wall time in $WATCH_SECONDS.
watch_import() {
    local name="$1" library="$2" stop_at="$3"; shift 3
    local start now pid status samples="$LOG/$name.samples" sent=0
    : > "$samples"
    start=$(date +%s.%N)
    "$PHOTOS" import --in-place --quiet --library "$library" "$@" > "$LOG/$name.out" 2> "$LOG/$name.err" &
    pid=$!
    while kill -0 "$pid" 2>/dev/null; do
        sleep 10
        [ -r "/proc/$pid/status" ] || break
        now=$(date +%s.%N)
        local assets rss anon file
        assets=$(count_assets "$library")
        read -r rss anon file < <(awk '/^VmRSS/{r=$2} /^RssAnon/{a=$2} /^RssFile/{f=$2} END{print int(r/1024), int(a/1024), int(f/1024)}' "/proc/$pid/status" 2>/dev/null || echo "0 0 0")
        # What bounds a slow window: the importer's CPU seconds so far, and the machine's
        # cumulative jiffies (user+nice+system, iowait, steal) and IO pressure (some avg10).
        local cpu machine pressure
        cpu=$(awk '{printf "%.1f", ($14 + $15) / 100}' "/proc/$pid/stat" 2>/dev/null || echo 0)
        machine=$(awk '/^cpu /{print $2 + $3 + $4 "," $6 "," $9; exit}' /proc/stat)
        pressure=$(awk -F'[ =]' '/^some/{print $3}' /proc/pressure/io 2>/dev/null || echo -)
        echo "$(echo "$now - $start" | bc) $assets $rss $anon $file $cpu $machine $pressure" >> "$samples"
        if [ "$stop_at" -gt 0 ] && [ "$sent" = 0 ] && [ "$assets" -ge "$stop_at" ]; then
            say "$name: $assets assets committed, sending SIGINT (Ctrl-C)"
            kill -INT "$pid"; sent=1
        fi
    done
    status=0; wait "$pid" || status=$?
    WATCH_STATUS=$status
    WATCH_SECONDS=$(echo "$(date +%s.%N) - $start" | bc)
}

# summarize NAME FILES_DONE START_COUNT: window rates and resident sets of a watched run. Windows
# before the first commit (the walk; a resume's rescan of what it committed) and the last one
# (the final commit, the report) are listed but left out of the minimum.
summarize() {
    python3 - "$LOG/$1.samples" "$2" "$WATCH_SECONDS" "${3:-0}" <<'PY'
import sys
rows = [list(map(float, line.split()[:5])) for line in open(sys.argv[1]) if line.strip()]
done, seconds, start = int(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4])
rates, previous = [], (0.0, start)
for t, assets, *_ in rows:
    rates.append((assets, (assets - previous[1]) / (t - previous[0])))
    previous = (t, assets)
final = rates[-1][0] if rates else start
flowing = [rate for assets, rate in rates if start < assets < final]
body = flowing[1:] if len(flowing) > 1 else flowing
waiting = sum(1 for assets, _ in rates if assets <= start)
ending = sum(1 for assets, _ in rates if assets >= final) - 1
print(f"files={done} seconds={seconds:.1f} files_per_s={done / seconds:.0f} before_first_commit_s={10 * waiting} "
      f"after_last_commit_s={10 * max(0, ending)} "
      f"window_min={min(body) if body else 0:.0f} window_median={sorted(body)[len(body) // 2] if body else 0:.0f} "
      f"windows_below_500={sum(1 for r in body if r < 500)}/{len(body)} "
      f"rss_max_mb={max((r[2] for r in rows), default=0):.0f} anon_max_mb={max((r[3] for r in rows), default=0):.0f} "
      f"file_max_mb={max((r[4] for r in rows), default=0):.0f} windows={','.join(f'{r:.0f}' for _, r in rates)}")
PY
}

LIBRARY="$WORK/Scale.photoslibrary"
rm -rf "$LIBRARY"
say "Ours: importing $FILES files in place, SIGINT at $((FILES / 2)) (load $(load1))"
watch_import first "$LIBRARY" $((FILES / 2)) "$SET"
[ "$WATCH_STATUS" = 130 ] || { echo "the interrupted import exited $WATCH_STATUS, not 130" >&2; cat "$LOG/first.err" >&2; exit 1; }
FIRST=$(count_assets "$LIBRARY")
echo "RESULT run=first $(summarize first "$FIRST") exit=$WATCH_STATUS load=$(load1)" | tee -a "$RESULTS"
say "Ours: the same folder again, resuming after $FIRST assets (load $(load1))"
watch_import resumed "$LIBRARY" 0 "$SET"
[ "$WATCH_STATUS" = 0 ] || { echo "the resumed import exited $WATCH_STATUS" >&2; tail -5 "$LOG/resumed.err" >&2; exit 1; }
TOTAL=$(count_assets "$LIBRARY")
[ "$TOTAL" = "$FILES" ] || { echo "the library holds $TOTAL assets, not $FILES" >&2; exit 1; }
echo "RESULT run=resumed $(summarize resumed $((FILES - FIRST)) "$FIRST") rescanned=$FIRST load=$(load1)" | tee -a "$RESULTS"

say "Ours: the unchanged tree again (rescan)"
watch_import rescan "$LIBRARY" 0 "$SET"
[ "$WATCH_STATUS" = 0 ] || { echo "the rescan exited $WATCH_STATUS" >&2; exit 1; }
[ "$(count_assets "$LIBRARY")" = "$FILES" ] || { echo "the rescan changed the library" >&2; exit 1; }
echo "RESULT run=rescan $(summarize rescan "$FILES" "$FILES") load=$(load1)" | tee -a "$RESULTS"

say "Stat walk floor: find -printf over $FILES files"
start=$(date +%s.%N)
find "$SET" -type f -printf '%s %T@\n' | wc -l > /dev/null
seconds=$(echo "$(date +%s.%N) - $start" | bc)
echo "RESULT run=stat-walk files=$FILES seconds=$seconds files_per_s=$(echo "$FILES / $seconds" | bc) load=$(load1)" | tee -a "$RESULTS"

# The peers' metadata step and ours on the same first PEER_FILES files (whole folders of 1,000).
PEER_SET="$WORK/peer-set"
rm -rf "$PEER_SET"; mkdir -p "$PEER_SET"
folders=$(( (PEER_FILES + 999) / 1000 ))
for folder in $(ls "$SET" | head -n "$folders"); do ln -s "$SET/$folder" "$PEER_SET/$folder"; done
PEER_COUNT=$(find -L "$PEER_SET" -type f -name '*.JPG' | wc -l)
say "exiftool -fast -json over $PEER_COUNT files, 2 processes (load $(load1))"
start=$(date +%s.%N)
ls -d "$PEER_SET"/*/ | xargs -P2 -n $(( (folders + 1) / 2 )) exiftool -q -fast -json > "$LOG/exiftool.json" 2> "$LOG/exiftool.err"
seconds=$(echo "$(date +%s.%N) - $start" | bc)
read_count=$(grep -c '"SourceFile"' "$LOG/exiftool.json")
echo "RESULT run=exiftool files=$read_count seconds=$seconds files_per_s=$(echo "$read_count / $seconds" | bc) load=$(load1)" | tee -a "$RESULTS"
PEER_LIBRARY="$WORK/Peer.photoslibrary"
rm -rf "$PEER_LIBRARY"
say "Ours over the same $PEER_COUNT files (load $(load1))"
watch_import peer-ours "$PEER_LIBRARY" 0 "$PEER_SET"
echo "RESULT run=ours-peer-set $(summarize peer-ours "$(count_assets "$PEER_LIBRARY")") load=$(load1)" | tee -a "$RESULTS"

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), commit $(git -C "$ROOT" rev-parse --short HEAD)" | tee -a "$RESULTS"
python3 - "$RESULTS" <<'PY'
import sys
runs = {}
for line in open(sys.argv[1]):
    if line.startswith("RESULT "):
        fields = dict(p.split("=", 1) for p in line.split()[1:] if "=" in p)
        runs[fields["run"]] = fields
first, resumed, rescan = runs["first"], runs["resumed"], runs["rescan"]
low = min(float(first["window_min"]), float(resumed["window_min"]))
print(f"AIM5 rate: lowest 10 s window {low:.0f} files/s (first run {first['window_min']}, resumed {resumed['window_min']}) "
      f"{'PASS' if low >= 500 else 'MISS'} (>= 500)")
rss = max(float(first["rss_max_mb"]), float(resumed["rss_max_mb"]))
anon = max(float(first["anon_max_mb"]), float(resumed["anon_max_mb"]))
print(f"AIM5 memory: RSS max {rss:.0f} MB (heap {anon:.0f} MB, mapped files the rest) {'PASS' if rss <= 500 else 'MISS'} (<= 500)")
print(f"AIM5 resume: resumed {resumed['files_per_s']} files/s over its new files vs first {first['files_per_s']}")
print(f"AIM5 rescan: {rescan['files_per_s']} files/s {'PASS' if float(rescan['files_per_s']) >= 2000 else 'MISS'} (>= 2,000); "
      f"stat walk floor {runs['stat-walk']['files_per_s']} files/s")
print(f"AIM5 peer: ours {runs['ours-peer-set']['files_per_s']} files/s (import: probe, signature, rows) vs exiftool "
      f"{runs['exiftool']['files_per_s']} files/s (metadata only) = "
      f"{float(runs['ours-peer-set']['files_per_s']) / float(runs['exiftool']['files_per_s']):.2f}x")
PY
