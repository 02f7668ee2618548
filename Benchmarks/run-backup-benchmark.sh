#!/usr/bin/env bash
# Backup benchmark: `photos backup` beside a plain copy of the same library.
#
#   Benchmarks/run-backup-benchmark.sh                     # the fixture photos, 3 runs
#   Benchmarks/run-backup-benchmark.sh --photos .corpus    # a larger folder of photos
#   Benchmarks/run-backup-benchmark.sh --snapshot-assets 10000
#
# Imports --photos (default .fixtures: the KPhotoAlbum demo photos and the EXIF samples) into a
# fresh library, edits two of them and makes an album, then times (best of --runs):
#   photos backup DEST (first run)   vs  cp -r LIBRARY + sqlite3 .backup (what a careful copy does)
#   photos backup DEST (re-run)      vs  rsync -a LIBRARY (re-run), when rsync is installed
#   photos restore DEST --to NEW + photos check --contents
# and the cost of the automatic database snapshot: a library of --snapshot-assets assets (rows
# copied from the imported ones with SQL; default 10,000), opened with `photos ls --limit 1`
# when a snapshot is due and when it is not, and `sqlite3 VACUUM INTO` of its database alone.
# Uses the debug build unless --release. Prints RESULT lines; figures go to docs/reliability.md.
set -euo pipefail

# shellcheck source=peers/bench-common.sh
. "$(dirname "${BASH_SOURCE[0]}")/peers/bench-common.sh"
PHOTOS_DIR="$ROOT/.fixtures"
RUNS=3
SNAPSHOT_ASSETS=10000
CONFIG=debug
parse_options "$@" <<'OPTIONS'
--photos PHOTOS_DIR
--runs RUNS
--snapshot-assets SNAPSHOT_ASSETS
--release CONFIG=release
OPTIONS

(cd "$ROOT" && swift build -c "$CONFIG" --product photos >/dev/null)
PHOTOS="$ROOT/.build/$CONFIG/photos"
WORK="$(mktemp -d /tmp/photokit-backup-bench.XXXXXX)"
trap 'rm -rf "$WORK"' EXIT
LIB="$WORK/Library.photoslibrary"
now() { date +%s.%N; }
# best_of CMD...: the fastest of $RUNS runs, in seconds; `prepare` (a function) runs before each.
best_of() {
    local best=""
    for _ in $(seq "$RUNS"); do
        prepare
        local start end
        start=$(now)
        "$@" >/dev/null
        end=$(now)
        best=$(python3 -c "import sys; a=float(sys.argv[1]); b=sys.argv[2]; print(a if b=='' or a<float(b) else b)" "$(python3 -c "print($end-$start)")" "$best")
    done
    printf '%.3f' "$best"
}

mapfile -t FILES < <(find -L "$PHOTOS_DIR" -type f \( -iname '*.jpg' -o -iname '*.jpeg' -o -iname '*.heic' -o -iname '*.png' -o -iname '*.mov' -o -iname '*.mp4' \) -not -path '*/corrupt/*' | sort)
"$PHOTOS" import --library "$LIB" "${FILES[@]}" >/dev/null 2>&1 || true
mapfile -t IDS < <("$PHOTOS" ls --library "$LIB" | awk '{print $1}')
"$PHOTOS" edit --library "$LIB" "${IDS[0]}" --rotate 90 >/dev/null
"$PHOTOS" edit --library "$LIB" "${IDS[1]}" --exposure 0.5 >/dev/null
"$PHOTOS" album create --library "$LIB" Bench >/dev/null
"$PHOTOS" album add --library "$LIB" Bench "${IDS[2]}" "${IDS[3]}" >/dev/null
SIZE=$(du -sb "$LIB/originals" "$LIB/renders" | awk '{s+=$1} END {print s}')
echo "library: ${#IDS[@]} assets, $(python3 -c "print(round($SIZE/1e6,1))") MB of originals and renders"

prepare() { rm -rf "$WORK/backup" "$WORK/copy" "$WORK/copy.sqlite"; }
FIRST=$(best_of "$PHOTOS" backup --library "$LIB" "$WORK/backup")
copy_peer() { cp -r "$LIB" "$WORK/copy" && sqlite3 "$LIB/database/Photos.sqlite" ".backup '$WORK/copy.sqlite'"; }
PEER=$(best_of copy_peer)
echo "RESULT first backup: photos backup ${FIRST} s, cp -r + sqlite3 .backup ${PEER} s"

prepare() { :; }
"$PHOTOS" backup --library "$LIB" "$WORK/backup" >/dev/null
AGAIN=$(best_of "$PHOTOS" backup --library "$LIB" "$WORK/backup" --keep 1)
if command -v rsync >/dev/null; then
    rsync -a "$LIB/" "$WORK/rsync/"
    RSYNC=$(best_of rsync -a "$LIB/" "$WORK/rsync/")
    echo "RESULT re-run, nothing changed: photos backup ${AGAIN} s, rsync -a ${RSYNC} s"
else
    echo "RESULT re-run, nothing changed: photos backup ${AGAIN} s (rsync not installed)"
fi

prepare() { rm -rf "$WORK/restored"; }
RESTORE=$(best_of "$PHOTOS" restore "$WORK/backup" --to "$WORK/restored")
"$PHOTOS" check --contents --library "$WORK/restored" >/dev/null
echo "RESULT restore: ${RESTORE} s; photos check --contents passes on it"

# The automatic snapshot on a library of SNAPSHOT_ASSETS rows (synthetic copies of the real ones).
BIG="$WORK/Big.photoslibrary"
cp -r "$LIB" "$BIG"
rm -rf "$BIG/database/snapshots"
sqlite3 "$BIG/database/Photos.sqlite" <<SQL
PRAGMA foreign_keys = OFF;
CREATE TEMP TABLE n(i INTEGER PRIMARY KEY);
WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < ($SNAPSHOT_ASSETS / (SELECT COUNT(*) FROM asset)) + 1) INSERT INTO n SELECT i FROM c;
CREATE TEMP TABLE src AS SELECT * FROM asset;
INSERT INTO asset (uuid, mediaType, mediaSubtypes, sourceType, pixelWidth, pixelHeight, creationDate, creationTimeZoneOffset,
  modificationDate, addedDate, latitude, longitude, duration, isFavorite, isHidden, playbackStyle, uniformTypeIdentifier, originalFilename,
  traits, cameraMake, cameraModel, lensModel)
  SELECT upper(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-' || hex(randomblob(2)) || '-' || hex(randomblob(2)) || '-' || hex(randomblob(6))),
  mediaType, mediaSubtypes, sourceType, pixelWidth, pixelHeight, creationDate + n.i * 3600, creationTimeZoneOffset, modificationDate, addedDate,
  latitude, longitude, duration, isFavorite, isHidden, playbackStyle, uniformTypeIdentifier, originalFilename, traits, cameraMake, cameraModel, lensModel
  FROM src, n LIMIT $SNAPSHOT_ASSETS - (SELECT COUNT(*) FROM src);
INSERT INTO resource (assetID, type, uniformTypeIdentifier, originalFilename, path, fileSize, pixelWidth, pixelHeight, contentHash, contentSignature)
  SELECT id, 1, uniformTypeIdentifier, 'x.jpg', 'originals/' || substr(uuid, 1, 1) || '/' || uuid || '.jpg', 1000000, pixelWidth, pixelHeight,
  lower(hex(randomblob(32))), NULL FROM asset WHERE id NOT IN (SELECT assetID FROM resource);
SQL
DBSIZE=$(stat -c %s "$BIG/database/Photos.sqlite")
echo "snapshot library: $(sqlite3 "$BIG/database/Photos.sqlite" 'SELECT COUNT(*) FROM asset') assets, database $(python3 -c "print(round($DBSIZE/1e6,1))") MB"
"$PHOTOS" ls --library "$BIG" --limit 1 >/dev/null  # takes the first snapshot
# mean_of N CMD...: the mean of N runs (an open is short: the best of 3 is noise), `prepare` before each.
mean_of() {
    local count="$1" total=0
    shift
    for _ in $(seq "$count"); do
        prepare
        local start end
        start=$(now)
        "$@" >/dev/null
        end=$(now)
        total=$(python3 -c "print($total + $end - $start)")
    done
    python3 -c "print('%.3f' % ($total / $count))"
}
prepare() { :; }
NOT_DUE=$(mean_of 10 "$PHOTOS" ls --library "$BIG" --limit 1)
prepare() { rm -rf "$BIG/database/snapshots"; }
DUE=$(mean_of 10 "$PHOTOS" ls --library "$BIG" --limit 1)
test -n "$(ls "$BIG/database/snapshots")"
prepare() { rm -f "$WORK/vacuum.sqlite"; }
VACUUM=$(best_of sqlite3 "$BIG/database/Photos.sqlite" "VACUUM INTO '$WORK/vacuum.sqlite'")
echo "RESULT open ($SNAPSHOT_ASSETS assets, mean of 10): ${NOT_DUE} s with a recent snapshot, ${DUE} s when one is due; sqlite3 VACUUM INTO alone ${VACUUM} s (best of $RUNS)"
