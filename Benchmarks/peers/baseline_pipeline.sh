#!/usr/bin/env bash
# Reference pipeline with the same building blocks Immich/PhotoPrism/Photoview use, no DB:
# SHA-1 of each original + one exiftool pass (stay-open batch, JSON) + libvips thumbnails at
# Immich's defaults (250px WebP q80 thumbnail, 1440px JPEG q80 preview), J parallel workers.
# Needs Debian packages: libimage-exiftool-perl libvips-tools
# usage: baseline_pipeline.sh SRC_DIR [J=$(nproc)] [OUT=/tmp/peers/baseline]
# Prints a human line, then "RESULT files=N launch_s=… steady_s=… rate=… previews=… thumbs=…".
#
# Vendored from the peer study (shared/bench/peers/baseline_pipeline.sh, see
# Benchmarks/peers/README.md). Changes: drops the page cache before the start, like
# digikam_import.sh; fails (exit 1) unless every file got its preview and thumbnail and its
# exiftool record; prints the RESULT line (no DB, so launch and steady are the same time).
set -euo pipefail
SRC=${1:?src}; J=${2:-$(nproc)}; OUT=${3:-/tmp/peers/baseline}
rm -rf "$OUT"; mkdir -p "$OUT/thumb" "$OUT/preview"
N=$(find "$SRC" -maxdepth 1 -type f | wc -l)
sync; echo 3 > /proc/sys/vm/drop_caches 2>/dev/null || true
t0=$(date +%s.%N)
find "$SRC" -maxdepth 1 -type f -print0 | xargs -0 -P "$J" -n 64 sha1sum > "$OUT/sha1.txt"
t1=$(date +%s.%N)
exiftool -q -json -n -DateTimeOriginal -OffsetTimeOriginal -Make -Model -ImageWidth -ImageHeight \
  -Orientation -GPSLatitude -GPSLongitude -LensModel -FNumber -ExposureTime -ISO -FocalLength \
  -ContentIdentifier -BurstUUID -ImageUniqueID "$SRC" > "$OUT/exif.json"
t2=$(date +%s.%N)
find "$SRC" -maxdepth 1 -type f -print0 | xargs -0 -P "$J" -n 16 sh -c '
  for f in "$@"; do b=$(basename "$f" .JPG)
    vipsthumbnail "$f" --size 1440x1440 -o "'"$OUT"'/preview/$b.jpg[Q=80,strip]"
    vipsthumbnail "'"$OUT"'/preview/$b.jpg" --size 250x250 -o "'"$OUT"'/thumb/$b.webp[Q=80]"
  done' sh
t3=$(date +%s.%N)
hashes=$(wc -l < "$OUT/sha1.txt"); records=$(grep -c '"SourceFile"' "$OUT/exif.json" || true)
previews=$(find "$OUT/preview" -type f | wc -l); thumbs=$(find "$OUT/thumb" -type f | wc -l)
for check in "$hashes:hashes" "$records:exiftool records" "$previews:previews" "$thumbs:thumbnails"; do
  [ "${check%%:*}" -eq "$N" ] || { echo "baseline: ${check%%:*} ${check#*:} for $N files" >&2; exit 1; }
done
awk -v n="$N" -v a="$t0" -v b="$t1" -v c="$t2" -v d="$t3" -v j="$J" -v p="$previews" -v t="$thumbs" 'BEGIN{
 printf "baseline (J=%d): %d files  sha1 %.1fs | exiftool %.1fs | vips preview+thumb %.1fs | total %.1fs = %.1f files/s\n", j, n, b-a, c-b, d-c, d-a, n/(d-a)
 printf "RESULT files=%d launch_s=%.3f steady_s=%.3f rate=%.2f jobs=%d sha1_s=%.3f exiftool_s=%.3f vips_s=%.3f previews=%d thumbs=%d\n", n, d-a, d-a, n/(d-a), j, b-a, c-b, d-c, p, t }'
