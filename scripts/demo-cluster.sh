#!/usr/bin/env bash
# The cluster demo: the demo's sample photos in a library whose rows are in PostgreSQL (a
# throwaway server in .demo/cluster/postgres, run as an ordinary user) and whose files are in
# .demo/cluster/files, served by two `photos serve` instances with nginx in front balancing
# them: http://127.0.0.1:${PORT:-8080}/ (loopback only). Ctrl-C stops all of it.
#
# Every instance could run on another machine with the files folder mounted there: they share
# nothing but the database and the files (changes reach each other's observers and live
# clients through LISTEN/NOTIFY, work such as video renditions is claimed through the database).
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=../Benchmarks/peers/bench-common.sh
. Benchmarks/peers/bench-common.sh
port=${PORT:-8080}
first=$((port + 1)) second=$((port + 2)) pgport=${PGPORT:-55432}
build_photos "$PWD"
photos=$PHOTOS
command -v nginx >/dev/null || { echo "nginx is not installed (make deps, or apt install nginx)" >&2; exit 1; }
scripts/fetch-samples.sh .demo/samples

cluster=$PWD/.demo/cluster
scripts/throwaway-postgres.sh stop "$cluster/postgres" || true
rm -rf "$cluster/files" "$cluster/nginx"
server=$(scripts/throwaway-postgres.sh start "$cluster/postgres" "$pgport")
pids=()
stop() {
  stop_processes "${pids[@]}"
  scripts/throwaway-postgres.sh stop "$cluster/postgres"
}
trap stop EXIT
trap 'exit 130' INT TERM
psql "$server" -qc "DROP DATABASE IF EXISTS photos" -c "CREATE DATABASE photos"
export PHOTOS_DATABASE=${server%/*}/photos PHOTOS_LIBRARY=$cluster/files
"$photos" import .demo/samples --album "KPhotoAlbum demo" --thumbnails

nginx_conf "$cluster/nginx" 1 <<CONF
  access_log $cluster/nginx/logs/access.log;
  upstream photos { server 127.0.0.1:$first; server 127.0.0.1:$second; keepalive 32; }
  # WebSocket upgrades on connections of their own: photos serve (swift-nio's upgrader) takes
  # an upgrade only as a connection's first request, and kept-alive ones have had others.
  upstream live { server 127.0.0.1:$first; server 127.0.0.1:$second; }
  map \$http_upgrade \$connection_upgrade { default upgrade; '' ''; }
  server {
    listen 127.0.0.1:$port;
    client_max_body_size 1024m;
    proxy_request_buffering off;
    proxy_buffering off;
    location / {
      proxy_pass http://photos;
      proxy_http_version 1.1;
      proxy_set_header Host \$http_host;
      proxy_set_header Connection "";
    }
    location = /api/live {
      proxy_pass http://live;
      proxy_http_version 1.1;
      proxy_set_header Host \$http_host;
      proxy_set_header Upgrade \$http_upgrade;
      proxy_set_header Connection \$connection_upgrade;
      proxy_read_timeout 1h;
    }
  }
CONF
"$photos" serve --open --port "$first" & pids+=($!)
"$photos" serve --open --port "$second" & pids+=($!)
echo
echo "== Two instances (:$first, :$second) over $PHOTOS_DATABASE, nginx on http://127.0.0.1:$port/ =="
echo "Try: PHOTOS_DATABASE=$PHOTOS_DATABASE $photos favorite --library $PHOTOS_LIBRARY ID   (every open gallery updates)"
nginx -p "$cluster/nginx" -c "$cluster/nginx/nginx.conf" -g 'daemon off;' & pids+=($!)
wait "${pids[-1]}"
