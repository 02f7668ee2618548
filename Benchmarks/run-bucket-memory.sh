#!/usr/bin/env bash
# Memory while a large video goes into a bucket and streams back out, in a release build
# (issue 36): the peak resident set of `photos import` of a ~20 MB and a ~2 GB H.264 movie into
# a library whose originals are in moto's S3 server on loopback, beside botocore's upload_file of
# the same files; then `photos serve`'s peak while /original streams each back from the bucket.
#
#   Benchmarks/run-bucket-memory.sh                 # 2 GB; updates docs/performance.md
#   Benchmarks/run-bucket-memory.sh --gigabytes 0.5 --no-docs
#
# The movies are cached in Benchmarks/.data/movies/ (made with ffmpeg).
set -euo pipefail

# shellcheck source=peers/bench-common.sh
. "$(dirname "${BASH_SOURCE[0]}")/peers/bench-common.sh"
GIGABYTES=2
DOCS="$ROOT/docs/performance.md"

parse_options "$@" <<'OPTIONS'
--gigabytes GIGABYTES
--docs DOCS
--no-docs DOCS=none
OPTIONS

DATA="$HERE/.data"
WORK="$DATA/bucket-memory"
mkdir -p "$WORK"

install_missing ffmpeg curl python3 time
python3 -c 'import moto.server, boto3' 2>/dev/null || python3 -m pip install --quiet --break-system-packages 'moto[server]>=5' boto3 >&2
build_photos "$ROOT" "$WORK/build.log"

python3 "$PEERS/bucket_memory.py" --photos "$PHOTOS" --work "$WORK/run" --movies "$DATA/movies" --gigabytes "$GIGABYTES" \
    --docs "$DOCS" --machine "$(machine_basics | tr '\n' ';')"
