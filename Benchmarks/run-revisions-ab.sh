#!/usr/bin/env bash
# Two revisions side by side in one run: A (default edf6cfa, the commit before issue 33's
# redesign) against B (default this checkout's HEAD). Each is checked out in a git worktree of
# its own (Benchmarks/.data/ab/A and B, gitignored; kept between runs and moved to the asked
# revision, so builds are incremental), built there in release, and measured alternately
# (A B A B …) so that the machine's other load falls on both. Prints per measure each side's
# median over the rounds and B / A as a Markdown table to paste; writes nothing into docs/.
#
#   Benchmarks/run-revisions-ab.sh                          # every part, full size, 3 rounds
#   Benchmarks/run-revisions-ab.sh --assets 100000 --rounds 1 --seconds 5 --files 100   # quick
#   Benchmarks/run-revisions-ab.sh --only serve --a main~3 --b house-branch
#
# Parts (all by default, in this order; --only one of them):
#   store   the store benchmark's `engines` mode (run-store-benchmark.sh --only engines): each
#           revision's own StoreBenchmark (its Benchmarks/ in release) times fetches (until
#           `count`; until the first object), random object(at:) and favorite toggles on the
#           generated library of --assets rows (Benchmarks/.data/library-N, made once) and on
#           its copy in a throwaway PostgreSQL (Benchmarks/.data/postgres, `photos migrate`, made
#           once; both as run-store-benchmark.sh makes and keeps them), one process per revision
#           and round. A and B share the library and its copy when a new library's schema
#           (SQLite's sqlite_master, PostgreSQL's pg_dump, whitespace folded) is the same for
#           both; otherwise each gets a copy of its own, migrated by its own `photos`.
#   serve   the serve benchmark's cached thumbnails: run-eventloop-benchmark.sh --idle-only
#           with A's and B's `photos`: per round and revision a server on a copy of one library
#           of the 66-photo bench set, one pass over every 256 x 256 grid thumbnail (cached
#           then), and wrk (2 threads, 64 connections) on them for --seconds; requests/s, p50, p99.
#   import  run-import-ab.sh: `photos import` into a fresh library of the import benchmark's
#           --files 12-megapixel JPEGs (gen_corpus.sh, cached in Benchmarks/.data/import-N),
#           page cache warm; wall time and CPU time (user + system).
# `photos` is built as run-serve-benchmark.sh builds it (release, cross-module optimization,
# scratch path .build-cmo in each worktree), StoreBenchmark as run-store-benchmark.sh builds it.
# Both worktrees get this checkout's Package.resolved files, so they build the same
# dependency versions. `uptime` is recorded before each part and each store process.
# Options: --a REV, --b REV, --rounds R (default 3), --only store|serve|import,
#          --assets N (default 1,000,000), --repeats R (StoreBenchmark's runs of each measure in
#          a process, default 5), --random-reads K (default 100,000), --seconds S (each wrk
#          run, default 30), --files N (default 1,000), --import-runs N (timed imports of
#          each, default 5: run-import-ab.sh's), --worktrees DIR (default Benchmarks/.data/ab).
# Logs and raw figures: Benchmarks/.data/ab-work/.
set -euo pipefail

# shellcheck source=peers/bench-common.sh
. "$(dirname "${BASH_SOURCE[0]}")/peers/bench-common.sh"
A_REV=edf6cfa
B_REV=HEAD
ROUNDS=3
ONLY=all
ASSETS=1000000
REPEATS=5
RANDOM_READS=100000
SECONDS_EACH=30
FILES=1000
IMPORT_RUNS=5
WORKTREES=""

parse_options "$@" <<'OPTIONS'
--a A_REV
--b B_REV
--rounds ROUNDS
--only ONLY
--assets ASSETS
--repeats REPEATS
--random-reads RANDOM_READS
--seconds SECONDS_EACH
--files FILES
--import-runs IMPORT_RUNS
--worktrees WORKTREES
OPTIONS
ASSETS="${ASSETS//[,_]/}"; FILES="${FILES//[,_]/}"; RANDOM_READS="${RANDOM_READS//[,_]/}"
for value in "$ROUNDS" "$ASSETS" "$REPEATS" "$RANDOM_READS" "$SECONDS_EACH" "$FILES" "$IMPORT_RUNS"; do
    [[ "$value" =~ ^[1-9][0-9]*$ ]] || { echo "not a positive number: $value" >&2; exit 2; }
done
case "$ONLY" in all|store|serve|import) ;; *) echo "--only: store, serve or import" >&2; exit 2 ;; esac
wants() { [ "$ONLY" = all ] || [ "$ONLY" = "$1" ]; }

mkdir -p "$HERE/.data"
DATA="$(cd -P "$HERE/.data" && pwd)"   # one place however this checkout reaches it
WORKTREES="${WORKTREES:-$DATA/ab}"
WORK="$DATA/ab-work"
LOG="$WORK/logs"
MACHINE="$WORK/machine.tsv"
PG="$DATA/postgres"
PG_STARTED=""

cleanup() {
    if [ -n "$PG_STARTED" ]; then "$ROOT/scripts/throwaway-postgres.sh" stop "$PG" || true; fi
}
trap cleanup EXIT

rm -rf "$WORK"
mkdir -p "$LOG"
row() { printf '%s\t%s\n' "$1" "$2" >> "$MACHINE"; }   # row KEY VALUE: a header row of the table
note_uptime() { row "uptime, $1" "$(uptime | sed 's/^ *//')"; }   # note_uptime WHEN

declare -A SHA PHOTOS_OF STORE_OF
SHA[A]="$(git -C "$ROOT" rev-parse --verify "$A_REV^{commit}")"
SHA[B]="$(git -C "$ROOT" rev-parse --verify "$B_REV^{commit}")"

# --- the two worktrees and their builds -------------------------------------------------------

checkout() {   # checkout SIDE: WORKTREES/SIDE at SHA[SIDE], with this checkout's dependency pins
    local dir="$WORKTREES/$1" pins
    if [ -e "$dir/.git" ]; then
        git -C "$dir" checkout --quiet --detach "${SHA[$1]}"
    else
        mkdir -p "$WORKTREES"
        git -C "$ROOT" worktree prune
        git -C "$ROOT" worktree add --quiet --detach "$dir" "${SHA[$1]}"
    fi
    for pins in Package.resolved Benchmarks/Package.resolved; do
        if [ -f "$ROOT/$pins" ] && ! cmp -s "$ROOT/$pins" "$dir/$pins"; then cp "$ROOT/$pins" "$dir/$pins"; fi
    done
}

build() {   # build SIDE: its photos and (for the store part) its StoreBenchmark, in release
    local dir="$WORKTREES/$1"
    say "$1: $(git -C "$dir" log -1 --format='%h %cs') in $dir"
    build_photos "$dir" "$LOG/build-photos-$1.log"
    PHOTOS_OF[$1]="$PHOTOS"
    if wants store; then
        say "$1: building StoreBenchmark in release"
        local store=(swift build -c release --package-path "$dir/Benchmarks" --product StoreBenchmark)
        "${store[@]}" > "$LOG/build-store-$1.log" 2>&1 || { cat "$LOG/build-store-$1.log" >&2; exit 1; }
        STORE_OF[$1]="$("${store[@]}" --show-bin-path)/StoreBenchmark"
    fi
}

# --- store: engines, A B A B … -----------------------------------------------------------------

new_schema() {   # new_schema SIDE SERVER: a new library's schemas as SIDE makes them, one statement a line
    local side="$1" server="$2" dir="$WORK/schema-$1" db="schema_check_${1,,}"
    local pg_bin; pg_bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
    mkdir -p "$dir"
    "${PHOTOS_OF[$side]}" ls --library "$dir/new.photoslibrary" > /dev/null
    psql "$server" -qc "DROP DATABASE IF EXISTS $db" -c "CREATE DATABASE $db"
    "${PHOTOS_OF[$side]}" ls --database "${server%/*}/$db" --library "$dir/files" > /dev/null
    "$pg_bin/pg_dump" --schema-only "${server%/*}/$db" > "$dir/pg_dump.sql"
    psql "$server" -qc "DROP DATABASE $db"
    python3 - "$dir/new.photoslibrary/database/Photos.sqlite" "$dir/pg_dump.sql" <<'PY'
import re, sqlite3, sys
fold = lambda sql: re.sub(r"\s+", " ", sql).replace("( ", "(").replace(" )", ")").strip()
for kind, name, sql in sqlite3.connect(sys.argv[1]).execute("SELECT type, name, sql FROM sqlite_master ORDER BY type, name"):
    print("sqlite", kind, name, fold(sql or ""))
dump = "\n".join(l for l in open(sys.argv[2]).read().splitlines() if l and not l.startswith(("--", "\\restrict", "\\unrestrict")))
for statement in dump.split(";\n"):
    print("postgres", fold(statement))
PY
}

store_part() {
    local side round server shared
    declare -A store_data database files
    for tool in psql sqlite3 bc; do command -v "$tool" >/dev/null || { echo "$tool is needed (apt-get install postgresql sqlite3 bc)" >&2; exit 1; }; done
    note_uptime "store, start"
    "${STORE_OF[B]}" prepare --assets "$ASSETS" --data "$DATA" >&2
    server=$("$ROOT/scripts/throwaway-postgres.sh" start "$PG" "$(free_port)")
    PG_STARTED=1
    new_schema A "$server" > "$WORK/schema-A.txt"
    new_schema B "$server" > "$WORK/schema-B.txt"
    if cmp -s "$WORK/schema-A.txt" "$WORK/schema-B.txt"; then
        shared=$(postgres_copy "${PHOTOS_OF[B]}" "$DATA/library-$ASSETS.photoslibrary" "$server" "library_$ASSETS" "$DATA/postgres-files-$ASSETS")
        for side in A B; do
            store_data[$side]="$DATA"; database[$side]="$shared"; files[$side]="$DATA/postgres-files-$ASSETS"
        done
        row "Store libraries" "one of each for A and B (a new library's schema is the same for both): $ASSETS assets in Benchmarks/.data/library-$ASSETS.photoslibrary, its PostgreSQL copy library_$ASSETS"
    else
        say "A and B make different schemas (diff $WORK/schema-A.txt $WORK/schema-B.txt): a copy of the library each"
        for side in A B; do
            store_data[$side]="$WORK/store-$side"; files[$side]="$WORK/store-$side/postgres-files"
            mkdir -p "${store_data[$side]}"
            cp -a "$DATA/library-$ASSETS.photoslibrary" "${store_data[$side]}/"
            psql "$server" -qc "DROP DATABASE IF EXISTS library_${ASSETS}_${side,,}"
            database[$side]=$(postgres_copy "${PHOTOS_OF[$side]}" "${store_data[$side]}/library-$ASSETS.photoslibrary" "$server" "library_${ASSETS}_${side,,}" "${files[$side]}")
        done
        row "Store libraries" "a copy each: A and B make different schemas (diff in Benchmarks/.data/ab-work/schema-A.txt and -B.txt)"
    fi
    git -C "$ROOT" diff --quiet "${SHA[A]}" "${SHA[B]}" -- Benchmarks/Sources/StoreBenchmark \
        || row "StoreBenchmark" "its sources differ between A and B ($(git -C "$ROOT" diff --name-only "${SHA[A]}" "${SHA[B]}" -- Benchmarks/Sources/StoreBenchmark | sed 's|.*/||' | paste -sd, | sed 's/,/, /g')); each revision ran its own"
    for round in $(seq "$ROUNDS"); do
        for side in A B; do
            say "store: $side, round $round of $ROUNDS (load $(load1))"
            echo "store $side round $round: $(uptime)" >> "$WORK/uptimes.txt"
            "${STORE_OF[$side]}" engines --assets "$ASSETS" --data "${store_data[$side]}" --repeats "$REPEATS" \
                --random-reads "$RANDOM_READS" --database "${database[$side]}" --files "${files[$side]}" \
                > "$WORK/store-$side-$round.md" 2> "$LOG/store-$side-$round.log" \
                || { tail -20 "$LOG/store-$side-$round.log" >&2; exit 1; }
        done
    done
    row "Store rounds" "$ROUNDS × (A, B), one StoreBenchmark engines process each (--repeats $REPEATS, --random-reads $RANDOM_READS); 1-min load at each start: $(sed -n 's/^store \([AB]\) round \([0-9]*\):.*load average: \([0-9.]*\),.*/\1\2 \3/p' "$WORK/uptimes.txt" | paste -sd, | sed 's/,/, /g')"
    "$ROOT/scripts/throwaway-postgres.sh" stop "$PG"
    PG_STARTED=""
}

# --- serve and import ---------------------------------------------------------------------------

serve_part() {
    note_uptime "serve, start"
    "$HERE/run-eventloop-benchmark.sh" --idle-only --photos "A=${PHOTOS_OF[A]}" --photos "B=${PHOTOS_OF[B]}" \
        --rounds "$ROUNDS" --seconds "$SECONDS_EACH" --work "$WORK/serve" > "$LOG/serve.txt"
    row "Serve rounds" "$ROUNDS × (A, B): run-eventloop-benchmark.sh --idle-only, wrk $(version wrk) 2 threads, 64 connections, $SECONDS_EACH s on $(wc -l < "$WORK/serve/paths.txt") cached thumbnails; 1-min load at each end: $(sed -n 's/^build=\([AB]\) round=\([0-9]*\) load1=\([0-9.]*\).*/\1\2 \3/p' "$WORK/serve/results.txt" | paste -sd, | sed 's/,/, /g')"
}

import_part() {
    local corpus="$DATA/import-$FILES"
    install_missing imagemagick libimage-exiftool-perl
    "$PEERS/gen_corpus.sh" "$corpus" "$FILES" >&2
    note_uptime "import, start"
    "$HERE/run-import-ab.sh" "${PHOTOS_OF[A]}" "${PHOTOS_OF[B]}" "$corpus" "$IMPORT_RUNS" | tee "$WORK/import.txt" >&2
    row "Import runs" "$IMPORT_RUNS × (A, B) after one untimed run each (page cache warm): run-import-ab.sh on $FILES × 4032×3024 JPEG (gen_corpus.sh, $(du -sm "$corpus" | cut -f1) MiB); 1-min load after each pair: $(sed -n 's/^run \([0-9]*\):.*(load \([0-9.]*\))/run \1 \2/p' "$WORK/import.txt" | paste -sd, | sed 's/,/, /g')"
}

# --- main -----------------------------------------------------------------------------------------

START=$(date +%s)
for side in A B; do checkout "$side"; done
for side in A B; do build "$side"; done
subject() { git -C "$ROOT" log -1 --format='`%h` (%cs) %s' "$1" | sed -E 's/^(.{120}).+/\1…/'; }
row "A" "$(subject "${SHA[A]}")"
row "B" "$(subject "${SHA[B]}")"
machine_basics >> "$MACHINE"
row "Builds" "$(swift_version); photos: swift build -c release -Xswiftc -cross-module-optimization; StoreBenchmark: swift build -c release (each revision's own Benchmarks/)"
wants store && store_part
wants serve && serve_part
wants import && import_part
note_uptime "end"
row "Took" "$(( ($(date +%s) - START) / 60 )) min $(( ($(date +%s) - START) % 60 )) s (builds included)"
echo
python3 "$PEERS/ab_report.py" --work "$WORK"
