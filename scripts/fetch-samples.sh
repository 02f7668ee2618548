#!/usr/bin/env bash
# fetch-samples.sh DIR: puts the 24 real photos of KPhotoAlbum's demo album (Debian package
# kphotoalbum, 2003-2006, five cameras, EXIF dates) into DIR, without installing anything:
# apt-get download + dpkg-deb -x into a cache.
set -euo pipefail
target=${1:?usage: fetch-samples.sh DIR}
cache=${XDG_CACHE_HOME:-$HOME/.cache}/photokit-samples
mkdir -p "$cache" "$target"

if ! compgen -G "$cache/kphotoalbum_*.deb" >/dev/null; then
  if ! apt-cache show kphotoalbum >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ]; then apt-get update -qq; else sudo apt-get update -qq; fi
  fi
  (cd "$cache" && apt-get download -q kphotoalbum 2>&1 | grep -v unsandboxed >&2 || true)
fi
deb=$(ls -t "$cache"/kphotoalbum_*.deb | head -1)
if [ ! -d "$cache/kphotoalbum" ] || [ "$deb" -nt "$cache/kphotoalbum" ]; then
  rm -rf "$cache/kphotoalbum"
  dpkg-deb -x "$deb" "$cache/kphotoalbum"
fi
cp -u "$cache"/kphotoalbum/usr/share/kphotoalbum/demo/*.jpg "$target"/
echo "$(ls "$target"/*.jpg | wc -l) sample photos in $target" >&2
