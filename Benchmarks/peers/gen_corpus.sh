#!/usr/bin/env bash
# Generate a synthetic photo corpus: N distinct JPEGs (W x H) with realistic EXIF
# (DateTimeOriginal + OffsetTimeOriginal, Make/Model, GPS, unique ImageUniqueID),
# so that hash-based dedup in any peer sees N distinct files.
# Needs Debian packages: imagemagick libimage-exiftool-perl
# usage: gen_corpus.sh OUT_DIR [N=1000] [W=4032] [H=3024]
#
# Vendored from the peer study (shared/bench/peers/gen_corpus.sh, see Benchmarks/peers/README.md).
# Changes: does nothing when OUT_DIR already holds exactly the N finished files (an interrupted
# run leaves .exif_args behind and is redone); the 10 plasma base images are cached per size in
# OUT_DIR/../corpus-base-WxH instead of OUT_DIR.base.
set -euo pipefail
OUT=${1:?out dir}; N=${2:-1000}; W=${3:-4032}; H=${4:-3024}
CONVERT=/usr/bin/convert   # real ImageMagick (a stand-in may shadow `convert` in PATH)
OUT=${OUT%/}
if [ -d "$OUT" ] && [ ! -e "$OUT/.exif_args" ] \
   && [ "$(find "$OUT" -maxdepth 1 -type f -name 'IMG_*.JPG' | wc -l)" -eq "$N" ] \
   && [ "$(find "$OUT" -mindepth 1 | wc -l)" -eq "$N" ]; then
  echo "corpus: reusing $N files in $OUT ($(du -sh "$OUT" | cut -f1))"
  exit 0
fi
rm -rf "$OUT"; mkdir -p "$OUT"
BASE="$(dirname "$OUT")/corpus-base-${W}x${H}"; mkdir -p "$BASE"
colors=(skyblue-forestgreen orange-purple gray-white navy-gold tan-brown pink-teal khaki-olive red-black lightblue-navy yellow-green)
for b in $(seq 0 9); do
  [ -f "$BASE/b$b.jpg" ] || { "$CONVERT" -seed $((b+1)) -size ${W}x${H} "plasma:${colors[$b]}" -quality 90 "$BASE/b$b.tmp.jpg" && mv "$BASE/b$b.tmp.jpg" "$BASE/b$b.jpg"; }
done
ARGS="$OUT/.exif_args"; : > "$ARGS"
for i in $(seq 0 $((N-1))); do
  f=$(printf "%s/IMG_%05d.JPG" "$OUT" "$i")
  cp "$BASE/b$((i%10)).jpg" "$f"
  # one photo per 37 minutes starting 2019-01-01, so timeline/moment grouping has something to do
  ts=$(( 1546300800 + i*2220 ))
  d=$(date -u -d "@$ts" +"%Y:%m:%d %H:%M:%S")
  lat=$(awk -v i=$i 'BEGIN{printf "%.6f", 48.0 + (i%97)*0.01}')
  lon=$(awk -v i=$i 'BEGIN{printf "%.6f", 11.0 + (i%89)*0.01}')
  printf -- "-DateTimeOriginal=%s\n-CreateDate=%s\n-OffsetTimeOriginal=+01:00\n-Make=Canon\n-Model=Canon EOS 5D Mark IV\n-ISO=%d\n-FNumber=2.8\n-ExposureTime=1/250\n-FocalLength=35\n-GPSLatitude=%s\n-GPSLatitudeRef=N\n-GPSLongitude=%s\n-GPSLongitudeRef=E\n-ImageUniqueID=%032x\n-overwrite_original\n%s\n-execute\n" \
     "$d" "$d" $((100 + i%32*100)) "$lat" "$lon" "$i" "$f" >> "$ARGS"
done
exiftool -q -q -@ "$ARGS" >/dev/null
rm -f "$ARGS"
echo "corpus: generated $N files in $OUT ($(du -sh "$OUT" | cut -f1))"
