#!/usr/bin/env bash
# Distance benchmark (issue 35): what a network's round trips to PostgreSQL cost `photos serve`.
# One instance on a throwaway PostgreSQL reached directly, then through a delaying TCP proxy
# (peers/delay_proxy.py: DELAY ms added each way to every chunk; `tc netem` isn't available
# here) at each DELAYS value: favorite toggles per second (wrk, wrk_load.lua) and a cached
# thumbnail's requests per second (wrk on one URL; it must not wait on the database); then, at
# each delay, toggles per second through two instances behind nginx (each reaching the
# database through the proxy). Release build (cross-module optimization), loopback, one
# machine. Prints RESULT lines with the rates and their ratio to the direct connection.
#
#   Benchmarks/run-distance-benchmark.sh                         # delays 0.5 and 2 ms, 10 s each
#   Benchmarks/run-distance-benchmark.sh --delays "0.5" --seconds 5
set -euo pipefail

# shellcheck source=peers/bench-common.sh
. "$(dirname "${BASH_SOURCE[0]}")/peers/bench-common.sh"
DELAYS="0.5 2"
SECONDS_EACH=10
CONNECTIONS=16
parse_options "$@" <<'OPTIONS'
--delays DELAYS
--seconds SECONDS_EACH
--connections CONNECTIONS
OPTIONS
install_missing wrk postgresql nginx
mkdir -p "$HERE/.data"
build_photos "$ROOT" "$HERE/.data/distance-build.log"
[ -d "$ROOT/.corpus" ] || "$ROOT/scripts/fetch-corpus.sh" "$ROOT/.corpus" --minimal >/dev/null
WORK="$(mktemp -d)"
chmod 755 "$WORK"
postgres_library "$PHOTOS" "$ROOT" "$WORK"
PG_PORT="${SERVER##*:}"; PG_PORT="${PG_PORT%%/*}"
say "uptime: $(uptime)"

measure() {   # measure NAME DATABASE-PORT
    local name=$1 port=$2 http
    http=$(free_port)
    "$PHOTOS" serve --open --port "$http" --database "postgres://postgres@127.0.0.1:$port/photos?sslmode=disable" \
        --library "$WORK/files" >>"$WORK/serve-$name.log" 2>&1 &
    local pid=$!
    for _ in $(seq 600); do curl -sf "http://127.0.0.1:$http/api/assets?limit=1" >/dev/null && break; sleep 0.05; done
    curl -sf "http://127.0.0.1:$http/api/assets?limit=1000" | python3 -c 'import json,sys; print("\n".join(a["id"] for a in json.load(sys.stdin)["assets"]))' >"$WORK/ids.txt"
    echo "/api/assets?limit=1" >"$WORK/paths.txt"
    # The cached thumbnail first, on an idle instance and database: after the toggles, the
    # instance's and PostgreSQL's own tail of them (autovacuum of ~10,000 updated rows, the
    # last deliveries through the proxy) fell into its run (0.81x at both delays, 12-03).
    local thumbnail="http://127.0.0.1:$http/api/assets/$(head -1 "$WORK/ids.txt")/image?width=256&height=256"
    curl -sf -o /dev/null "$thumbnail"
    wrk -t 2 -c "$CONNECTIONS" -d "${SECONDS_EACH}s" "$thumbnail" >"$WORK/thumb-$name.txt" 2>&1
    wrk -t 2 -c "$CONNECTIONS" -d "${SECONDS_EACH}s" -s "$HERE/peers/wrk_load.lua" "http://127.0.0.1:$http" -- "$WORK/paths.txt" "$WORK/ids.txt" 1 \
        >"$WORK/toggle-$name.txt" 2>&1
    kill "$pid"; wait "$pid" 2>/dev/null || true
    local toggles thumbs
    toggles=$(grep RESULT "$WORK/toggle-$name.txt" | sed 's/.*rps=\([0-9.]*\).*/\1/')
    thumbs=$(awk '/Requests\/sec/ {print $2}' "$WORK/thumb-$name.txt")
    echo "$name $toggles $thumbs"
}
measure_two() {   # measure_two NAME DATABASE-PORT: toggles/s through two instances behind nginx
    local name=$1 port=$2 a b front pids=()
    a=$(free_port) b=$(free_port) front=$(free_port)
    for http in "$a" "$b"; do
        "$PHOTOS" serve --open --port "$http" --database "postgres://postgres@127.0.0.1:$port/photos?sslmode=disable" \
            --library "$WORK/files" >>"$WORK/serve-$name-$http.log" 2>&1 &
        pids+=($!)
        for _ in $(seq 600); do curl -sf "http://127.0.0.1:$http/api/assets?limit=1" >/dev/null && break; sleep 0.05; done
    done
    nginx_conf "$WORK/nginx-$name" 1 <<CONF
  access_log off;
  upstream two { server 127.0.0.1:$a; server 127.0.0.1:$b; keepalive 32; }
  server { listen 127.0.0.1:$front; location / { proxy_pass http://two; proxy_http_version 1.1; proxy_set_header Connection ""; proxy_set_header Host \$http_host; } }
CONF
    nginx -p "$WORK/nginx-$name" -c "$WORK/nginx-$name/nginx.conf" -g 'daemon off;' & pids+=($!)
    for _ in $(seq 100); do curl -sf "http://127.0.0.1:$front/api/assets?limit=1" >/dev/null && break; sleep 0.05; done
    wrk -t 2 -c "$CONNECTIONS" -d "${SECONDS_EACH}s" -s "$HERE/peers/wrk_load.lua" "http://127.0.0.1:$front" -- "$WORK/paths.txt" "$WORK/ids.txt" 1 \
        >"$WORK/toggle-two-$name.txt" 2>&1
    kill "${pids[@]}"; wait "${pids[@]}" 2>/dev/null || true
    echo "RESULT setup=two-instances-$name toggles_per_s=$(grep RESULT "$WORK/toggle-two-$name.txt" | sed 's/.*rps=\([0-9.]*\).*/\1/')" >&2
}
rtt() {   # rtt NAME PORT: pgbench's average time of a SELECT 1 (one client, 3 s): the round trip
    echo "SELECT 1;" >"$WORK/select1.sql"
    echo "RESULT setup=$1 select1_ms=$(pgbench -n -c 1 -T 3 -f "$WORK/select1.sql" "postgres://postgres@127.0.0.1:$2/photos?sslmode=disable" 2>/dev/null \
        | awk '/latency average/ {print $4}')" >&2
}
rtt direct "$PG_PORT"
rows=("$(measure direct "$PG_PORT")")
measure_two direct "$PG_PORT"
for delay in $DELAYS; do
    proxy=$(free_port)
    python3 "$HERE/peers/delay_proxy.py" "$proxy" "$PG_PORT" "$delay" & PIDS+=($!)
    sleep 0.3
    rtt "delay-${delay}ms" "$proxy"
    rows+=("$(measure "delay-${delay}ms" "$proxy")")
    measure_two "delay-${delay}ms" "$proxy"
done
python3 - "${rows[@]}" <<'PY'
import sys
rows = [line.split() for line in sys.argv[1:]]
_, toggles0, thumbs0 = rows[0]
for name, toggles, thumbs in rows:
    print(f"RESULT setup={name} toggles_per_s={float(toggles):.1f} ({float(toggles) / float(toggles0):.2f}x direct) "
          f"cached_thumbnails_per_s={float(thumbs):.0f} ({float(thumbs) / float(thumbs0):.2f}x direct)")
PY
