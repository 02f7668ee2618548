#!/usr/bin/env bash
# make-raw-set.sh CORPUS_DIR OUT_DIR [COPIES]
# The image benchmark's RAW set: the corpus has one camera RAW file, the Canon EOS 30D's CR2
# (rawtran__IMG_5952.CR2, 8.2 MP, 7.2 MB, a 1728 x 1152 JPEG preview in IFD0), so the set is
# COPIES (default 24) copies of it, each made distinct with exiftool (a different
# ImageUniqueID; nothing else changes: the same preview, the same raw data), because the
# library's import skips files it already holds. Needs: exiftool (libimage-exiftool-perl).
set -euo pipefail
C=${1:?corpus dir}; O=${2:?out dir}; N=${3:-24}
RAW="$C/rawtran__IMG_5952.CR2"
[ -f "$RAW" ] || { echo "no $RAW (run scripts/fetch-corpus.sh)" >&2; exit 1; }
mkdir -p "$O"
for i in $(seq -w 1 "$N"); do
    out="$O/raw-$i.cr2"
    [ -e "$out" ] && continue
    cp "$RAW" "$O/.raw-$i.tmp.cr2"
    exiftool -q -overwrite_original -ImageUniqueID="$(printf '%032x' "$((10#$i))")" "$O/.raw-$i.tmp.cr2"
    mv "$O/.raw-$i.tmp.cr2" "$out"
done
echo "raw set: $(ls "$O"/*.cr2 | wc -l) files in $O" >&2
