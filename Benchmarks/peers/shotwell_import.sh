#!/usr/bin/env bash
# Time Shotwell 0.30 (Debian 12 package) importing a folder through its library-directory
# auto-import at startup: file walk + metadata (gexiv2) + MD5 dedup + 2 thumbnails per photo
# (128px and 360px JPEG in $SW/data/thumbs) + rows in photo.db (SQLite).
# Runs under an X server (Xvfb) given by DISPLAY; uses the GSettings keyfile backend.
# usage: shotwell_import.sh SRC_DIR [SW=/tmp/peers/sw] [DISPLAY=:99]
# Prints a human line, then "RESULT files=N launch_s=… steady_s=… rate=… thumbs128=… thumbs360=…".
#
# Vendored from the peer study (shared/bench/peers/shotwell_import.sh, see
# Benchmarks/peers/README.md). Changes: drops the page cache before the start, like
# digikam_import.sh; runs Shotwell in its own session and ends that session by its id; fails
# (exit 1) unless all N rows and both thumbnails of every photo exist; prints the RESULT line.
set -euo pipefail
SRC=${1:?src dir}; SW=${2:-/tmp/peers/sw}; export DISPLAY=${3:-:99}
export HOME=$SW/home XDG_RUNTIME_DIR=$SW/run GSETTINGS_BACKEND=keyfile XDG_CONFIG_HOME=$SW/home/.config
N=$(find "$SRC" -maxdepth 1 -type f | wc -l)
rm -rf "$SW/home" "$SW/data" "$SW/lib" "$SW/run"; mkdir -p "$SW/run" "$XDG_CONFIG_HOME/glib-2.0/settings" "$SW/lib"; chmod 700 "$SW/run"
cat > "$XDG_CONFIG_HOME/glib-2.0/settings/keyfile" <<KF
[org/yorba/shotwell/preferences/files]
import-dir='$SW/lib'
auto-import=true

[org/yorba/shotwell/preferences/ui]
show-welcome-dialog=false
KF
cp -al "$SRC"/. "$SW/lib/"
sync; echo 3 > /proc/sys/vm/drop_caches 2>/dev/null || true
DB=$SW/data/data/photo.db
t0=$(date +%s.%N)
setsid dbus-run-session -- shotwell -d "$SW/data" > "$SW/last.log" 2>&1 &
PID=$!   # setsid did not fork: this is the session (and process group) id
trap 'kill -- -$PID 2>/dev/null || true' EXIT
# Polled without taking a lock (immutable=1): a reader's shared lock can make the app's own
# write fail ("database is locked" killed Shotwell). The count is checked again, locked, at the end.
COUNT="select count(*) from PhotoTable"
first=""; last=""; c=0; t=0
while :; do
  c=$(sqlite3 "file:$DB?immutable=1" "$COUNT" 2>/dev/null || true)
  c=${c//[^0-9]/}; c=${c:-0}
  t=$( (find "$SW/data/thumbs/thumbs360" -type f 2>/dev/null || true) | wc -l)
  now=$(date +%s.%N)
  [ -z "$first" ] && [ "$c" -gt 0 ] && first=$now
  if [ "$c" -ge "$N" ] && [ "$t" -ge "$N" ]; then last=$now; break; fi
  if awk -v a="$now" -v b="$t0" 'BEGIN{exit !(a-b>1800)}'; then echo "shotwell: timeout at $c rows / $t thumbs of $N" >&2; break; fi
  kill -0 "$PID" 2>/dev/null || { echo "shotwell: exited early at $c rows / $t thumbs of $N (log $SW/last.log)" >&2; break; }
  sleep 0.25
done
t128=$( (find "$SW/data/thumbs/thumbs128" -type f 2>/dev/null || true) | wc -l)
t360=$( (find "$SW/data/thumbs/thumbs360" -type f 2>/dev/null || true) | wc -l)
kill "$(pgrep -P "$PID" -x shotwell)" 2>/dev/null || true
for _ in $(seq 20); do kill -0 "$PID" 2>/dev/null || break; sleep 0.25; done
kill -- -"$PID" 2>/dev/null || true; wait "$PID" 2>/dev/null || true; trap - EXIT
[ -n "$last" ] || exit 1
rows=$(sqlite3 -cmd ".timeout 5000" "$DB" "$COUNT")
[ "$rows" -ge "$N" ] || { echo "$(basename "$0" _import.sh): only $rows of $N rows in $DB" >&2; exit 1; }
[ "$t128" -ge "$N" ] || { echo "shotwell: only $t128 of $N 128px thumbnails" >&2; exit 1; }
awk -v t0="$t0" -v f="$first" -v l="$last" -v n="$N" -v a="$t128" -v b="$t360" 'BEGIN{
  printf "shotwell: %d files, launch->all-imported %.1fs, first-row->all-imported %.1fs (%.1f files/s), thumbs128=%d thumbs360=%d\n", n, l-t0, l-f, (n>1?(n-1)/(l-f):0), a, b
  printf "RESULT files=%d launch_s=%.3f steady_s=%.3f rate=%.2f thumbs128=%d thumbs360=%d\n", n, l-t0, l-f, (n>1?(n-1)/(l-f):0), a, b }'
