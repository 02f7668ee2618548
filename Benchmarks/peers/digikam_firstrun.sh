#!/usr/bin/env bash
# digiKam's one-time first run, scripted: drives the first-run assistant of digiKam 7.9 (Debian 12
# package) under an X server (Xvfb) with xdotool, so that the collection is $DK/coll and the SQLite
# databases are in $DK/home/dkdb, then keeps the whole resulting $HOME as $DK/pristine/home.
# digikam_import.sh restores that copy before every run, so each run starts from the same empty,
# already-configured library.
# Needs Debian packages: digikam xdotool dbus dbus-x11 sqlite3 imagemagick (screenshots on failure)
# usage: digikam_firstrun.sh [DK=/tmp/peers/dk] [DISPLAY=:99]
#
# The peer study (Benchmarks/peers/README.md) did these steps by hand: "Next; type collection
# path; Next; type DB dir; Next x6". This script replays them: the assistant is a 600x600 window;
# Alt+N is Next, Alt+F is Finish; the two path fields take focus only from a click, at fixed
# offsets in that window. Whatever the clicks achieve, the result is then made exact: the DB
# files are moved to $DK/home/dkdb if the assistant put them elsewhere, and the collection's
# AlbumRoots row is set to volumeid:?path=$DK/coll (the form digiKam itself writes when the
# volume has no UUID).
set -euo pipefail
DK=${1:-/tmp/peers/dk}; export DISPLAY=${2:-:99}
export HOME=$DK/home XDG_RUNTIME_DIR=$DK/run QTWEBENGINE_CHROMIUM_FLAGS=--no-sandbox LC_ALL=C.UTF-8
COLL=$DK/coll; DBDIR=$HOME/dkdb; RC=$HOME/.config/digikamrc
rm -rf "$HOME" "$COLL" "$DK/pristine" "$DK/run"
mkdir -p "$HOME" "$DBDIR" "$COLL" "$XDG_RUNTIME_DIR"; chmod 700 "$XDG_RUNTIME_DIR"

setsid dbus-run-session -- digikam > "$DK/firstrun.log" 2>&1 &
PID=$!   # setsid did not fork: this is the session (and process group) id
stop() {
  kill -- -"$PID" 2>/dev/null || true
  wait "$PID" 2>/dev/null || true
}
trap stop EXIT
fail() { import -window root "$DK/firstrun-failed.png" 2>/dev/null || true
         echo "digikam first run: $* (screenshot $DK/firstrun-failed.png, log $DK/firstrun.log)" >&2; exit 1; }

# The assistant's window: digiKam's visible window that is 600 px wide.
assistant() {
  local w
  for w in $(xdotool search --onlyvisible --class digikam 2>/dev/null); do
    [[ "$(xdotool getwindowgeometry "$w" 2>/dev/null)" == *"Geometry: 600x"* ]] && { echo "$w"; return 0; }
  done
  return 1
}
W=""
for _ in $(seq 240); do W=$(assistant) && break; sleep 0.5; done
[ -n "$W" ] || fail "the first-run assistant did not appear within 120 s"
sleep 2
xdotool windowfocus --sync "$W"
next() { xdotool key alt+n; sleep 1.5; }
field() {   # click the page's path field (x, y inside the window), replace its text
  xdotool mousemove --window "$W" "$1" "$2" click 1; sleep 0.3
  xdotool key ctrl+a; xdotool type --delay 10 "$3"; sleep 0.5
}
next                                   # Welcome -> "Configure where you keep your images"
field 336 411 "$COLL"
next                                   # -> "Configure where you will store databases" (SQLite)
field 336 477 "$DBDIR"
for _ in 1 2 3 4 5 6; do next; done    # Raw, Metadata, Preview, Open file, Tooltips -> "Scan your collection"
xdotool key alt+f; sleep 1            # Finish: digiKam creates the databases and opens its main window

for _ in $(seq 240); do [ -s "$RC" ] && grep -q '^Database Name=' "$RC" && [ -f "$(sed -n 's/^Database Name=//p' "$RC")/digikam4.db" ] && break; sleep 0.5; done
sleep 5                                # let it finish its first (empty) collection scan
kill "$(pgrep -P "$PID" -x digikam)" 2>/dev/null || true
for _ in $(seq 40); do kill -0 "$PID" 2>/dev/null || break; sleep 0.25; done
stop; trap - EXIT

[ -f "$RC" ] || fail "no digikamrc was written"
db=$(sed -n 's/^Database Name=//p' "$RC"); db=${db%/}
[ -f "$db/digikam4.db" ] || fail "no digikam4.db (Database Name=$db)"
if [ "$db" != "$DBDIR" ]; then
  echo "digikam first run: the databases went to $db; moving them to $DBDIR" >&2
  mv "$db"/*.db "$DBDIR/"
  sed -i "s#^\(Database Name[A-Za-z ]*\)=.*#\1=$DBDIR/#" "$RC"
fi
roots=$(sqlite3 "$DBDIR/digikam4.db" "select count(*) from AlbumRoots")
[ "$roots" = 1 ] || fail "expected one collection, found $roots"
sqlite3 "$DBDIR/digikam4.db" "update AlbumRoots set label='coll', identifier='volumeid:?path=$COLL', specificPath='/'"
images=$(sqlite3 "$DBDIR/digikam4.db" "select count(*) from Images")
[ "$images" = 0 ] || fail "the new library already holds $images images"

mkdir -p "$DK/pristine"; cp -a "$HOME" "$DK/pristine/home"
dpkg-query -W -f='${Version}\n' digikam > "$DK/pristine/version"
echo "digikam first run: done (collection $COLL, databases $DBDIR, pristine copy in $DK/pristine)"
