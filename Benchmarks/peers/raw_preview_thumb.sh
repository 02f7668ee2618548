#!/usr/bin/env bash
# raw_preview_thumb.sh OUT FILE...
# The RAW peer: each file's embedded preview extracted with exiftool (`-b -PreviewImage`, one
# exiftool process for all FILEs), then thumbnailed by vipsthumbnail (one process for all the
# previews, 256 x 256 fit, JPEG Q80, stripped). Previews go to OUT/previews/, thumbnails to OUT/.
set -euo pipefail
OUT=${1:?out dir}; shift
mkdir -p "$OUT/previews"
exiftool -q -b -PreviewImage -w "$OUT/previews/%f.jpg" "$@"
previews=()
for f in "$@"; do b="$(basename "$f")"; previews+=("$OUT/previews/${b%.*}.jpg"); done
vipsthumbnail -s 256x256 -o "$OUT/%s.jpg[Q=80,strip]" "${previews[@]}"
