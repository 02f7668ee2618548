#!/usr/bin/env bash
# Cluster benchmark: favorite toggles per second (POST /api/changes under wrk) through one
# `photos serve` on SQLite, one on PostgreSQL (alone, reached directly as SQLite's; then with a
# second instance running, through nginx), and two on one PostgreSQL library behind nginx;
# and what a change costs to reach a live WebSocket client of the same instance and of the
# other one. Release build (the demo's: cross-module optimization), loopback, one machine: the
# instances, PostgreSQL, nginx and wrk share its cores.
#
#   Benchmarks/run-cluster-benchmark.sh                  # 3 runs of 20 s each
#   Benchmarks/run-cluster-benchmark.sh --runs 1 --seconds 5 --toggles 50   # quick
#
# The library: the first 40 photos of the corpus (.corpus, scripts/fetch-corpus.sh), imported
# into SQLite, then copied to a throwaway PostgreSQL server with `photos migrate` (its time is
# printed). Every wrk request toggles one random asset's favorite (wrk_load.lua, EVERY 1).
# Prints RESULT lines and a markdown table; copy the figures into docs/performance.md.
set -euo pipefail

# shellcheck source=peers/bench-common.sh
. "$(dirname "${BASH_SOURCE[0]}")/peers/bench-common.sh"
RUNS=3
SECONDS_EACH=20
TOGGLES=300
CONNECTIONS=16
parse_options "$@" <<'OPTIONS'
--runs RUNS
--seconds SECONDS_EACH
--toggles TOGGLES
--connections CONNECTIONS
OPTIONS
for tool in wrk nginx psql; do command -v "$tool" >/dev/null || { echo "$tool is needed (apt install wrk nginx postgresql)" >&2; exit 1; }; done

WORK="$HERE/.data/cluster-run"
"$ROOT/scripts/throwaway-postgres.sh" stop "$WORK/postgres" 2>/dev/null || true
rm -rf "$WORK"
mkdir -p "$WORK"
chmod 755 "$WORK"
build_photos "$ROOT" "$WORK/build.log"
[ -d "$ROOT/.corpus" ] || "$ROOT/scripts/fetch-corpus.sh" "$ROOT/.corpus" --minimal >/dev/null

postgres_library "$PHOTOS" "$ROOT" "$WORK"

serve() {   # serve PORT ARGS...: starts an instance, waits until it answers
    local port=$1; shift
    "$PHOTOS" serve --open --port "$port" "$@" >>"$WORK/serve-$port.log" 2>&1 &
    PIDS+=($!)
    for _ in $(seq 600); do curl -sf "http://127.0.0.1:$port/api/assets?limit=1" >/dev/null && return; sleep 0.05; done
    echo "the instance on $port did not start: $(tail -5 "$WORK/serve-$port.log")" >&2; exit 1
}
SQLITE_PORT=$(free_port) A_PORT=$(free_port) B_PORT=$(free_port) ONE_PORT=$(free_port) TWO_PORT=$(free_port)
serve "$SQLITE_PORT" --library "$WORK/sqlite"
serve "$A_PORT" --database "$DATABASE" --library "$WORK/files"

nginx_conf "$WORK/nginx" 1 <<CONF
  access_log off;
  upstream one { server 127.0.0.1:$A_PORT; keepalive 32; }
  upstream two { server 127.0.0.1:$A_PORT; server 127.0.0.1:$B_PORT; keepalive 32; }
  server { listen 127.0.0.1:$ONE_PORT; location / { proxy_pass http://one; proxy_http_version 1.1; proxy_set_header Connection ""; proxy_set_header Host \$http_host; } }
  server { listen 127.0.0.1:$TWO_PORT; location / { proxy_pass http://two; proxy_http_version 1.1; proxy_set_header Connection ""; proxy_set_header Host \$http_host; } }
CONF
nginx -p "$WORK/nginx" -c "$WORK/nginx/nginx.conf" -g 'daemon off;' & PIDS+=($!)
sleep 0.5

curl -sf "http://127.0.0.1:$A_PORT/api/assets?limit=1000" | python3 -c 'import json,sys; print("\n".join(a["id"] for a in json.load(sys.stdin)["assets"]))' >"$WORK/ids.txt"
echo "/api/assets?limit=1" >"$WORK/paths.txt"
toggle() {   # toggle NAME PORT RUN
    local out="$WORK/wrk-$1-$3.txt"
    wrk -t 2 -c "$CONNECTIONS" -d "${SECONDS_EACH}s" -s "$HERE/peers/wrk_load.lua" "http://127.0.0.1:$2" -- "$WORK/paths.txt" "$WORK/ids.txt" 1 >"$out" 2>&1
    echo "RESULT setup=$1 run=$3 $(grep RESULT "$out" | sed 's/^RESULT //')"
}
# One instance alone (the second, which hears of every change through LISTEN and reads it,
# would load the same cores), reached directly as SQLite's is; then two behind nginx.
for run in $(seq "$RUNS"); do
    toggle sqlite-one "$SQLITE_PORT" "$run"
    toggle postgres-one "$A_PORT" "$run"
done
serve "$B_PORT" --database "$DATABASE" --library "$WORK/files"
for run in $(seq "$RUNS"); do
    toggle postgres-one-via-nginx "$ONE_PORT" "$run"
    toggle postgres-two-via-nginx "$TWO_PORT" "$run"
done
python3 "$HERE/peers/cluster_latency.py" "http://127.0.0.1:$SQLITE_PORT" --toggles "$TOGGLES" | sed 's/^RESULT /RESULT engine=sqlite /'
python3 "$HERE/peers/cluster_latency.py" "http://127.0.0.1:$A_PORT" "http://127.0.0.1:$B_PORT" --toggles "$TOGGLES" | sed 's/^RESULT /RESULT engine=postgres /'
echo "Machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs); $(psql --version); $(nginx -v 2>&1); $("$PHOTOS" --version 2>/dev/null || echo photos)"
