#!/usr/bin/env bash
# Fetches the real photos the tests use into <repo>/.fixtures/ (git-ignored).
#
# Idempotent: .debs are cached in ${XDG_CACHE_HOME:-$HOME/.cache}/photokit-fixtures/debs and only
# downloaded when missing; files are copied only when missing or different. Nothing is installed
# system-wide (`apt-get download` + `dpkg-deb -x` into the cache).
#
# Sources (Debian 12 packages, DFSG-free):
#   golang-github-rwcarlsen-goexif-dev  sample1.jpg (Nikon D2H, GPS), f1..f8-exif.jpg (orientations),
#                                       exif/corrupt/*.jpg (corrupt EXIF)
#   gdk-pixbuf-tests                    bug143608-comment.jpg (Panasonic DMC-GF1, Orientation 6)
#   kphotoalbum                         demo/*.jpg (24 real photos, 2003-2006)
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
dest="$repo/.fixtures"
cache="${XDG_CACHE_HOME:-$HOME/.cache}/photokit-fixtures"
debs="$cache/debs"
tree="$cache/tree"
packages=(golang-github-rwcarlsen-goexif-dev kphotoalbum gdk-pixbuf-tests)

mkdir -p "$debs" "$tree" "$dest" "$dest/kphotoalbum"

have_deb() { compgen -G "$debs/${1}_*.deb" >/dev/null; }

missing=()
for p in "${packages[@]}"; do have_deb "$p" || missing+=("$p"); done

if ((${#missing[@]})); then
    download() { (cd "$debs" && apt-get download "${missing[@]}") ; }
    if ! download; then
        # Empty apt lists on a fresh machine: refresh them once (only possible as root).
        if [ "$(id -u)" = 0 ]; then
            apt-get update -qq
            download
        else
            echo "fetch-fixtures: apt-get download failed and not root (cannot apt-get update)" >&2
            exit 1
        fi
    fi
fi

for p in "${packages[@]}"; do
    deb=$(ls "$debs/${p}"_*.deb | sort | tail -n1)
    stamp="$tree/.$(basename "$deb").extracted"
    if [ ! -e "$stamp" ]; then
        dpkg-deb -x "$deb" "$tree"
        touch "$stamp"
    fi
done

put() { # put SRC DESTFILE
    if [ ! -f "$1" ]; then echo "fetch-fixtures: missing $1" >&2; exit 1; fi
    if ! cmp -s "$1" "$2" 2>/dev/null; then cp "$1" "$2"; fi
}

goexif="$tree/usr/share/gocode/src/github.com/rwcarlsen/goexif/exif"
put "$goexif/sample1.jpg" "$dest/sample1.jpg"
for i in 1 2 3 4 5 6 7 8; do
    put "$goexif/samples/f$i-exif.jpg" "$dest/f$i-exif.jpg"
done
mkdir -p "$dest/corrupt"
for f in "$goexif"/corrupt/*.jpg; do
    put "$f" "$dest/corrupt/$(basename "$f")"
done

put "$tree/usr/libexec/installed-tests/gdk-pixbuf/bug143608-comment.jpg" "$dest/bug143608-comment.jpg"

for f in "$tree"/usr/share/kphotoalbum/demo/*.jpg; do
    put "$f" "$dest/kphotoalbum/$(basename "$f")"
done

count=$(find "$dest" -type f | wc -l)
echo "fetch-fixtures: $count files in $dest"
