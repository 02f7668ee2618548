#!/usr/bin/env bash
# The demo: a fresh library in .demo/, filled with real sample photos, a summary, then the web
# gallery on it (http://127.0.0.1:8080/, loopback only).
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=../Benchmarks/peers/bench-common.sh
. Benchmarks/peers/bench-common.sh
build_photos "$PWD"
photos=$PHOTOS
rm -rf .demo/Library.photoslibrary
scripts/fetch-samples.sh .demo/samples
"$photos" --help >/dev/null
export PHOTOS_LIBRARY="$PWD/.demo/Library.photoslibrary"
"$photos" import .demo/samples --album "KPhotoAlbum demo" --thumbnails
echo
echo "== Albums =="
"$photos" albums --smart
echo
echo "== The five newest photos =="
"$photos" ls --sort -creationDate --limit 5
echo
echo "Library: $PHOTOS_LIBRARY"
echo "Try: PHOTOS_LIBRARY=$PHOTOS_LIBRARY $photos ls --predicate 'pixelWidth > 700'"
echo
# The gallery, open without a token on this machine only (loopback); Ctrl-C stops it.
echo "== The gallery: open http://127.0.0.1:${PORT:-8080}/ =="
exec "$photos" serve --open --port "${PORT:-8080}"
