#!/usr/bin/env bash
# A PostgreSQL server in a folder, started as an ordinary user: for `make demo-cluster`, the
# cluster test and the PostgreSQL benchmarks (Swift tests use ThrowawayPostgres, the same
# recipe). Nothing is installed system-wide and nothing listens beyond 127.0.0.1.
#
#   scripts/throwaway-postgres.sh start DIR [PORT]   initdb DIR/data if new, start, print the URL
#   scripts/throwaway-postgres.sh stop DIR           stop it (immediate shutdown)
#
# PGSERVER_SETTINGS adds server settings to start with ("-c shared_buffers=512MB ...").
#
# As root the cluster belongs to the `postgres` user (initdb refuses to run as root).
set -euo pipefail
command=${1:?start or stop}
dir=${2:?the cluster folder}
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
[ -x "$bin/initdb" ] || { echo "PostgreSQL is not installed (apt install postgresql)" >&2; exit 1; }
as=()
if [ "$(id -u)" = 0 ]; then as=(runuser -u postgres --); fi
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
[ ${#as[@]} -eq 0 ] || chown postgres "$dir"
case "$command" in
start)
  port=${3:-55432}
  if [ ! -f "$dir/data/PG_VERSION" ]; then
    "${as[@]}" "$bin/initdb" -D "$dir/data" -U postgres -A trust -E UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1 \
      || { cat "$dir/initdb.log" >&2; exit 1; }
  fi
  "${as[@]}" "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
    -o "-p $port -c listen_addresses=127.0.0.1 -c unix_socket_directories= -c max_connections=200 ${PGSERVER_SETTINGS:-}" start >/dev/null \
    || { cat "$dir/server.log" >&2; exit 1; }
  echo "postgres://postgres@127.0.0.1:$port/postgres"
  ;;
stop)
  [ -f "$dir/data/postmaster.pid" ] || exit 0
  "${as[@]}" "$bin/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null
  ;;
*) echo "start or stop, not $command" >&2; exit 2 ;;
esac
