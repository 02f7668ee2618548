#!/usr/bin/env bash
# Import rate, before and after: two `photos` binaries import the same folder into fresh
# libraries, alternating (A B A B ...), page cache warm (a first untimed run of each reads
# the files in). Prints each run and the median files/s of each binary, and B's ratio to A.
#
#   Benchmarks/run-import-ab.sh PHOTOS_A PHOTOS_B FOLDER [RUNS=5] [-- IMPORT_OPTIONS...]
#
# Used for issue 18 (structural checks at import): A = main's release build, B = the branch's,
# FOLDER = the corpus' decodable media (every top-level file of `.corpus`: JPEG, PNG, GIF,
# HEIC/HEIF, CR2, MP4/MOV/3GP), see docs/performance.md.
set -euo pipefail
A=${1:?photos binary A}; B=${2:?photos binary B}; FOLDER=${3:?folder}; RUNS=${4:-5}
shift $(( $# >= 4 ? 4 : 3 ))
[ "${1:-}" = "--" ] && shift
EXTRA=("$@")
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
FILES=$(find -L "$FOLDER" -type f ! -name '*.tsv' | wc -l)

run() {  # binary -> seconds
    local library="$WORK/lib-$RANDOM$RANDOM.photoslibrary" start end
    start=$(date +%s.%N)
    "$1" import "$FOLDER" --library "$library" --json ${EXTRA[@]+"${EXTRA[@]}"} >"$WORK/out.json" 2>/dev/null || true
    end=$(date +%s.%N)
    rm -rf "$library"
    echo "$end - $start" | bc
}

median() { sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }

run "$A" >/dev/null; run "$B" >/dev/null   # warm the page cache
: >"$WORK/a"; : >"$WORK/b"
for i in $(seq "$RUNS"); do
    a=$(run "$A"); b=$(run "$B")
    echo "run $i: A ${a}s  B ${b}s  (load $(cut -d' ' -f1 /proc/loadavg))"
    echo "$a" >>"$WORK/a"; echo "$b" >>"$WORK/b"
done
ma=$(median <"$WORK/a"); mb=$(median <"$WORK/b")
python3 - "$FILES" "$ma" "$mb" <<'PY'
import sys
files, a, b = int(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3])
print(f"{files} files: A median {a:.2f} s = {files / a:.1f} files/s; B median {b:.2f} s = {files / b:.1f} files/s; "
      f"B/A rate {a / b:.3f} ({(a / b - 1) * 100:+.1f} %)")
PY
