#!/usr/bin/env bash
# Originals in a bucket against originals in a folder, side by side in one run, in a release
# build (issue 36). The bucket is moto's S3 server on loopback (`moto_server`, PyPI's
# `moto[server]`), the folder the same disk.
#
#   Benchmarks/run-bucket-benchmark.sh                  # 1,000 12 MP JPEGs, 3 runs; updates docs/performance.md
#   Benchmarks/run-bucket-benchmark.sh --files 200 --runs 1   # quick; prints the table only
#
# Measures, alternating the two sides each run:
#   import    `photos import` of the import benchmark's N 12-megapixel JPEGs into a fresh
#             library: originals into its folder, or into the bucket (--originals s3://...,
#             each object's SHA-256 confirmed by the store before its rows commit)
#   cold      the first byte of an original (`GET /api/assets/ID/original`) and of a 256 px
#             thumbnail made on demand (`GET /api/assets/ID/image?w=256`) through `photos serve`,
#             page cache dropped, with no local copy and no thumbnail yet: from the bucket (fetched)
#             against from the folder, 20 photos each
#   cached    wrk on 100 256 px thumbnails once made, 10 s: a bucket library against a folder
#             library (the same files served from the folder either way)
# Options: --files N, --runs R, --docs FILE | --no-docs (a full run, 1,000 files and 3 runs,
#          writes docs/performance.md).
# The corpus is cached in Benchmarks/.data/import-N/ (Benchmarks/peers/gen_corpus.sh).
set -euo pipefail

# shellcheck source=peers/bench-common.sh
. "$(dirname "${BASH_SOURCE[0]}")/peers/bench-common.sh"
FILES=1000
RUNS=3
DOCS=default

parse_options "$@" <<'OPTIONS'
--files FILES
--runs RUNS
--docs DOCS
--no-docs DOCS=none
OPTIONS
FILES="${FILES//[,_]/}"
if [ "$DOCS" = default ]; then
    if [ "$FILES" = 1000 ] && [ "$RUNS" -ge 3 ]; then DOCS="$ROOT/docs/performance.md"; else DOCS=none; fi
fi

DATA="$HERE/.data"
CORPUS="$DATA/import-$FILES"
WORK="$DATA/bucket-work"
LOG="$WORK/logs"
mkdir -p "$LOG"

install_missing imagemagick libimage-exiftool-perl wrk curl python3
python3 -c 'import moto.server, boto3' 2>/dev/null || python3 -m pip install --quiet --break-system-packages 'moto[server]>=5' boto3 >&2
build_photos "$ROOT" "$LOG/build.log"
"$PEERS/gen_corpus.sh" "$CORPUS" "$FILES" >&2

python3 "$PEERS/bucket_bench.py" --photos "$PHOTOS" --corpus "$CORPUS" --work "$WORK" --runs "$RUNS" \
    --docs "$DOCS" --machine "$(machine_basics | tr '\n' ';')"
