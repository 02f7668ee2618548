#!/usr/bin/env bash
# Import rate, before and after: two `photos` binaries import the same folder into fresh
# libraries, alternating (A B A B ...), page cache warm (a first untimed run of each reads
# the files in). Prints each run and the medians of each binary's wall time and CPU time
# (user + system, steadier on a machine others load), as files/s, and B's ratio to A, and how
# many files each imported (from `--json`; a difference is reported).
#
#   Benchmarks/run-import-ab.sh PHOTOS_A PHOTOS_B FOLDER [RUNS=5] [-- IMPORT_OPTIONS...]
#
# Used for issue 18 (structural checks at import): A = main's release build, B = the branch's,
# FOLDER = the corpus' decodable media (every top-level file of `.corpus`: JPEG, PNG, GIF,
# HEIC/HEIF, CR2, MP4/MOV/3GP), see docs/performance.md. run-revisions-ab.sh --only import runs
# it on the import benchmark's 12-megapixel JPEGs.
set -euo pipefail
A=${1:?photos binary A}; B=${2:?photos binary B}; FOLDER=${3:?folder}; RUNS=${4:-5}
shift $(( $# >= 4 ? 4 : 3 ))
[ "${1:-}" = "--" ] && shift
EXTRA=("$@")
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
FILES=$(find -L "$FOLDER" -type f ! -name '*.tsv' | wc -l)

run() {  # binary -> "wall-seconds cpu-seconds imported" (CPU: user + system of the whole process)
    local library="$WORK/lib-$RANDOM$RANDOM.photoslibrary" imported
    /usr/bin/time -f "%e %U %S" -o "$WORK/time" \
        "$1" import "$FOLDER" --library "$library" --json ${EXTRA[@]+"${EXTRA[@]}"} >"$WORK/out.json" 2>/dev/null || true
    rm -rf "$library"
    imported=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["imported"])' "$WORK/out.json" 2>/dev/null || echo 0)
    awk -v imported="$imported" '{printf "%s %.2f %s\n", $1, $2 + $3, imported}' "$WORK/time"
}

run "$A" >/dev/null; run "$B" >/dev/null   # warm the page cache
: >"$WORK/a"; : >"$WORK/b"
for i in $(seq "$RUNS"); do
    a=$(run "$A"); b=$(run "$B")
    read -r aw ac an <<<"$a"; read -r bw bc bn <<<"$b"
    echo "run $i: A $aw s wall, $ac s CPU, $an imported;  B $bw s wall, $bc s CPU, $bn imported  (load $(cut -d' ' -f1 /proc/loadavg))"
    echo "$a" >>"$WORK/a"; echo "$b" >>"$WORK/b"
done
python3 - "$FILES" "$WORK/a" "$WORK/b" <<'PY'
import statistics, sys
files = int(sys.argv[1])
a = [tuple(map(float, line.split())) for line in open(sys.argv[2])]
b = [tuple(map(float, line.split())) for line in open(sys.argv[3])]
for name, k in (("wall", 0), ("CPU", 1)):
    ma, mb = statistics.median(x[k] for x in a), statistics.median(x[k] for x in b)
    print(f"{files} files, {name}: A median {ma:.2f} s = {files / ma:.1f} files/s; B median {mb:.2f} s = {files / mb:.1f} files/s; "
          f"B/A rate {ma / mb:.3f} ({(ma / mb - 1) * 100:+.1f} %)")
imported = {name: sorted({int(x[2]) for x in runs}) for name, runs in (("A", a), ("B", b))}
if imported["A"] != imported["B"] or len(imported["A"]) > 1:
    print(f"imported differ: A {imported['A']}, B {imported['B']} (of {files} files)")
PY
