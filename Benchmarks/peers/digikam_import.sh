#!/usr/bin/env bash
# Time digiKam 7.9 (Debian 12 package) importing a folder: the startup collection scan
# (file walk + Exiv2 metadata + unique hash -> digikam4.db SQLite). Thumbnails are NOT made
# by the scan (digiKam makes them lazily when shown, into thumbnails-digikam.db as PGF).
# Prereq (once): digikam_firstrun.sh DK (scripted first run: collection $DK/coll, DB dir
# $DK/home/dkdb, the whole $HOME kept as $DK/pristine/home).
# usage: digikam_import.sh SRC_DIR [DK=/tmp/peers/dk] [DISPLAY=:99]
# Prints a human line, then "RESULT files=N launch_s=… steady_s=… rate=… thumbnails=…".
#
# Vendored from the peer study (shared/bench/peers/digikam_import.sh, see
# Benchmarks/peers/README.md). Changes: restores the whole pristine $HOME (not only the DB and
# digikamrc); runs digiKam in its own session and ends that session by its id; fails (exit 1)
# unless all N images reached the DB; prints the RESULT line.
set -euo pipefail
SRC=${1:?src dir}; DK=${2:-/tmp/peers/dk}; export DISPLAY=${3:-:99}
export HOME=$DK/home XDG_RUNTIME_DIR=$DK/run QTWEBENGINE_CHROMIUM_FLAGS=--no-sandbox LC_ALL=C.UTF-8
[ -d "$DK/pristine/home" ] || { echo "digikam: no first run in $DK (run digikam_firstrun.sh $DK)" >&2; exit 1; }
N=$(find "$SRC" -maxdepth 1 -type f | wc -l)
rm -rf "$HOME" "$DK/coll" "$XDG_RUNTIME_DIR"; cp -a "$DK/pristine/home" "$HOME"
mkdir -p "$XDG_RUNTIME_DIR"; chmod 700 "$XDG_RUNTIME_DIR"
mkdir -p "$DK/coll"; cp -al "$SRC"/. "$DK/coll/"    # hardlinks: no copy cost, same inode data
sync; echo 3 > /proc/sys/vm/drop_caches 2>/dev/null || true
DB=$HOME/dkdb/digikam4.db
t0=$(date +%s.%N)
setsid dbus-run-session -- digikam > "$DK/last.log" 2>&1 &
PID=$!   # setsid did not fork: this is the session (and process group) id
trap 'kill -- -$PID 2>/dev/null || true' EXIT
# Polled without taking a lock (immutable=1): a reader's shared lock can make the app's own
# write fail ("database is locked" killed Shotwell). The count is checked again, locked, at the end.
COUNT="select count(*) from Images i join ImageInformation ii on ii.imageid=i.id where i.status=1"
first=""; last=""; c=0
while :; do
  c=$(sqlite3 "file:$DB?immutable=1" "$COUNT" 2>/dev/null || true)
  c=${c//[^0-9]/}; c=${c:-0}
  now=$(date +%s.%N)
  [ -z "$first" ] && [ "$c" -gt 0 ] && first=$now
  if [ "$c" -ge "$N" ]; then last=$now; break; fi
  if awk -v a="$now" -v b="$t0" 'BEGIN{exit !(a-b>1800)}'; then echo "digikam: timeout at $c/$N" >&2; break; fi
  kill -0 "$PID" 2>/dev/null || { echo "digikam: exited early at $c/$N (log $DK/last.log)" >&2; break; }
  sleep 0.25
done
sleep 3
th=$(sqlite3 "file:$HOME/dkdb/thumbnails-digikam.db?mode=ro" "select count(*) from Thumbnails" 2>/dev/null || echo "?")
kill "$(pgrep -P "$PID" -x digikam)" 2>/dev/null || true
for _ in $(seq 20); do kill -0 "$PID" 2>/dev/null || break; sleep 0.25; done
kill -- -"$PID" 2>/dev/null || true; wait "$PID" 2>/dev/null || true; trap - EXIT
[ -n "$last" ] || exit 1
rows=$(sqlite3 -cmd ".timeout 5000" "$DB" "$COUNT")
[ "$rows" -ge "$N" ] || { echo "$(basename "$0" _import.sh): only $rows of $N rows in $DB" >&2; exit 1; }
awk -v t0="$t0" -v f="$first" -v l="$last" -v n="$N" -v th="$th" 'BEGIN{
  printf "digikam: %d files, launch->all-in-db %.1fs, first-insert->all-in-db %.1fs (%.1f files/s), thumbnails in db: %s\n", n, l-t0, l-f, (n>1? (n-1)/(l-f) : 0), th
  printf "RESULT files=%d launch_s=%.3f steady_s=%.3f rate=%.2f thumbnails=%s\n", n, l-t0, l-f, (n>1? (n-1)/(l-f) : 0), th }'
