#!/usr/bin/env bash
# make-heic-set.sh BENCH_SET OUT_DIR [JOBS]
# The image benchmark's HEIC set: every JPEG of the benchmark set (make-bench-set.sh) as an
# iPhone-size HEIC, made with Debian's libheif tools:
#   1. vips thumbnail IN 4032 --height 3024 --crop centre --size force: turned upright (EXIF
#      orientation), scaled to fill 4032 x 3024 and the centre cut out (the iPhone 12 MP size,
#      landscape), JPEG Q95 (an intermediate, deleted);
#   2. heif-enc -q 60 -t 320 (x265, 4:2:0, 8 bits): one HEVC-coded 4032 x 3024 image (libheif
#      1.15's heif-enc writes no grid; iPhones write 512 x 512 tiles) and, like an iPhone's, a
#      320 x 240 HEVC thumbnail item (thmb); the EXIF and XMP of the JPEG are kept.
# JOBS encodes at once (default 2; x265 takes ~10 s of one core per file). Files already in
# OUT_DIR are kept, so an interrupted run resumes. Needs: vips (libvips-tools), heif-enc
# (libheif-examples).
set -euo pipefail
SET=${1:?bench set dir}; O=${2:?out dir}; JOBS=${3:-2}
mkdir -p "$O"
export O
encode() {
    local in="$1" stem out tmp
    stem="$(basename "${in%.*}")"
    out="$O/$stem.heic"
    [ -e "$out" ] && return 0
    tmp="$O/.$stem.tmp.jpg"
    vips thumbnail "$in" "$tmp[Q=95]" 4032 --height 3024 --crop centre --size force
    heif-enc -q 60 -t 320 -o "$O/.$stem.tmp.heic" "$tmp" > /dev/null
    rm -f "$tmp"
    mv "$O/.$stem.tmp.heic" "$out"
}
export -f encode
printf '%s\n' "$SET"/*.jpg | xargs -d '\n' -P "$JOBS" -n 1 bash -c 'encode "$1"' _
echo "heic set: $(ls "$O"/*.heic | wc -l) files in $O" >&2
