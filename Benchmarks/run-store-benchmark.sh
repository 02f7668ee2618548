#!/usr/bin/env bash
# Store benchmark: PhotoKit's fetches on a library of N assets (default 1,000,000) against the
# sqlite3 command running the same SQL on the same file, in one process, in a release build.
#
#   Benchmarks/run-store-benchmark.sh                     # 1,000,000 assets; updates docs/performance.md
#   Benchmarks/run-store-benchmark.sh --assets 100000     # quick run; prints the table only
#   Benchmarks/run-store-benchmark.sh --only changes      # just the change-observation benchmark
#   Benchmarks/run-store-benchmark.sh --only engines      # PhotoKit on SQLite against PostgreSQL
#   Benchmarks/run-store-benchmark.sh --only search       # search (PHAsset.fetchAssets(matching:)) on both engines
#
# Two benchmarks run, each in a fresh process: `measure` (fetches against sqlite3) and `changes`
# (observer latency in-process and from a child process, details against a reload, on a copy).
# Options: --assets N, --repeats R (default 5), --random-reads K (default 100000),
#          --only store|changes|engines|search, --docs FILE (write the tables there), --no-docs (don't).
# `engines` (not part of the default run) copies the library into a throwaway PostgreSQL server
# in Benchmarks/.data/postgres with `photos migrate` (timed; kept between runs; `photos` built
# as make demo builds it) and runs the same fetches, random reads and favorite toggles on both,
# alternating, in one process. run-revisions-ab.sh runs it for two revisions side by side.
# The generated library is cached in Benchmarks/.data/library-N.photoslibrary (gitignored);
# delete it to regenerate.
set -euo pipefail

# shellcheck source=peers/bench-common.sh
. "$(dirname "${BASH_SOURCE[0]}")/peers/bench-common.sh"
ASSETS=1000000
REPEATS=5
RANDOM_READS=100000
DOCS=default
ONLY=all

parse_options "$@" <<'OPTIONS'
--assets ASSETS
--repeats REPEATS
--random-reads RANDOM_READS
--docs DOCS
--no-docs DOCS=none
--only ONLY
OPTIONS
ASSETS="${ASSETS//[,_]/}"
if [ "$DOCS" = default ]; then
    if [ "$ASSETS" = 1000000 ]; then DOCS="$ROOT/docs/performance.md"; else DOCS=none; fi
fi
command -v sqlite3 >/dev/null || { echo "the sqlite3 command is needed (apt-get install sqlite3)" >&2; exit 1; }

BUILD=(swift build -c release --package-path "$HERE")
echo "Building Benchmarks in release…" >&2
BUILD_LOG="$(mktemp)"
trap 'rm -f "$BUILD_LOG"' EXIT
"${BUILD[@]}" >"$BUILD_LOG" 2>&1 || { cat "$BUILD_LOG" >&2; exit 1; }
BIN="$("${BUILD[@]}" --show-bin-path)/StoreBenchmark"

export STORE_BENCHMARK_SWIFT_VERSION="$(swift --version 2>&1 | grep -m1 'Swift version')"
COMMIT="$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)"
git -C "$ROOT" diff --quiet HEAD -- Sources Benchmarks/Sources 2>/dev/null || COMMIT="$COMMIT plus uncommitted changes"
export STORE_BENCHMARK_COMMIT="$COMMIT"

"$BIN" prepare --assets "$ASSETS" --data "$HERE/.data"
DOCS_ARGS=()
if [ "$DOCS" != none ]; then DOCS_ARGS=(--docs "$DOCS"); fi
read -r LOAD _ < /proc/loadavg
if [ "$ONLY" = all ] || [ "$ONLY" = store ]; then
    echo "Measuring fetches in a fresh process (load average $LOAD on $(nproc) cores)…" >&2
    "$BIN" measure --assets "$ASSETS" --data "$HERE/.data" --repeats "$REPEATS" --random-reads "$RANDOM_READS" "${DOCS_ARGS[@]}"
fi
if [ "$ONLY" = engines ]; then
    command -v psql >/dev/null || { echo "PostgreSQL is needed (apt-get install postgresql)" >&2; exit 1; }
    build_photos "$ROOT" "$BUILD_LOG"
    PG="$HERE/.data/postgres"
    SERVER=$("$ROOT/scripts/throwaway-postgres.sh" start "$PG" "${PGPORT:-55499}")
    trap 'rm -f "$BUILD_LOG"; "$ROOT/scripts/throwaway-postgres.sh" stop "$PG"' EXIT
    FILES="$HERE/.data/postgres-files-$ASSETS"
    DATABASE=$(postgres_copy "$PHOTOS" "$HERE/.data/library-$ASSETS.photoslibrary" "$SERVER" "library_$ASSETS" "$FILES")
    read -r LOAD _ < /proc/loadavg
    echo "Measuring SQLite against PostgreSQL in a fresh process (load average $LOAD on $(nproc) cores)…" >&2
    "$BIN" engines --assets "$ASSETS" --data "$HERE/.data" --repeats "$REPEATS" --random-reads "$RANDOM_READS" --database "$DATABASE" --files "$FILES"
fi
if [ "$ONLY" = search ]; then
    # Search (issue 37) on both engines: the PostgreSQL copy as `engines` makes it.
    command -v psql >/dev/null || { echo "PostgreSQL is needed (apt-get install postgresql)" >&2; exit 1; }
    build_photos "$ROOT" "$BUILD_LOG"
    PG="$HERE/.data/postgres"
    # The server as Immich's PostgreSQL image sets it up (immich-app/base-images,
    # postgres/postgresql.ssd.conf): Debian's default 128 MB of shared buffers hold less than
    # the search's table and indexes (284 MB at 1,000,000 assets), so each search read them
    # from the kernel's cache again (france: 119 ms for the documents' pages alone, 47 ms with
    # 512 MB).
    SERVER=$(PGSERVER_SETTINGS="-c shared_buffers=512MB -c work_mem=16MB -c random_page_cost=1.2 -c effective_io_concurrency=200" \
        "$ROOT/scripts/throwaway-postgres.sh" start "$PG" "${PGPORT:-55499}")
    trap 'rm -f "$BUILD_LOG"; "$ROOT/scripts/throwaway-postgres.sh" stop "$PG"' EXIT
    # A copy of its own, made after the SQLite library has its words (its first open writes them).
    FILES="$HERE/.data/postgres-search-files-$ASSETS"
    DATABASE=$(postgres_copy "$PHOTOS" "$HERE/.data/library-$ASSETS.photoslibrary" "$SERVER" "search_$ASSETS" "$FILES")
    read -r LOAD _ < /proc/loadavg
    echo "Measuring search on SQLite and PostgreSQL in a fresh process (load average $LOAD on $(nproc) cores)…" >&2
    "$BIN" search --assets "$ASSETS" --data "$HERE/.data" --repeats "$REPEATS" --database "$DATABASE" --files "$FILES"
fi
if [ "$ONLY" = all ] || [ "$ONLY" = changes ]; then
    read -r LOAD _ < /proc/loadavg
    echo "Measuring change observation in a fresh process (load average $LOAD on $(nproc) cores)…" >&2
    "$BIN" changes --assets "$ASSETS" --data "$HERE/.data" --repeats "$REPEATS" "${DOCS_ARGS[@]}"
fi
