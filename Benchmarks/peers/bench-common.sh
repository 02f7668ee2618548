# Shared by Benchmarks/run-*.sh and scripts/demo*.sh (sourced, not run): where things are, the
# command line, messages, packages, the release build of `photos`, servers on free ports and what
# waits for them, nginx run by this user, the machine's description, the report.

# Where things are, from this file's place: PEERS this folder, HERE the Benchmarks folder (the
# run-*.sh scripts' own), ROOT the repository.
PEERS="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
HERE="$(dirname "$PEERS")"
ROOT="$(dirname "$HERE")"

say() { echo "== $*" >&2; }
load1() { cut -d' ' -f1 /proc/loadavg; }
# median: the median of the numbers on standard input, one a line.
median() { sort -g | awk '{v[NR]=$1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }

# Page cache: a cold run starts with nothing of the photos in memory (needs root).
drop_caches() {
    sync
    echo 3 > /proc/sys/vm/drop_caches 2>/dev/null
}

# install_missing PACKAGE...: apt-get install the Debian packages not installed yet (as root, or
# with sudo).
install_missing() {
    local missing=() package
    for package in "$@"; do
        dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    say "Installing ${missing[*]}"
    local sudo=""
    if [ "$(id -u)" != 0 ]; then sudo="sudo"; fi
    export DEBIAN_FRONTEND=noninteractive
    $sudo apt-get update -qq
    $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

# version PACKAGE: the installed Debian package's version, or "?".
version() { dpkg-query -W -f='${Version}' "$1" 2>/dev/null || echo "?"; }

# build_bench_set ROOT CORPUS SET LOG: once, the real-photo corpus, then the 66-photo benchmark set
# (Benchmarks/peers/make-bench-set.sh), renamed into place only when complete.
build_bench_set() {
    local root="$1" corpus="$2" set="$3" log="$4"
    if [ -d "$set" ]; then return 0; fi
    say "Building the benchmark set (once) into ${set#"$root"/}"
    install_missing libvips-tools libimage-exiftool-perl dcraw python3
    "$root/scripts/fetch-corpus.sh" "$corpus" > "$log/fetch-corpus.log" 2>&1 \
        || { tail -20 "$log/fetch-corpus.log" >&2; exit 1; }
    rm -rf "$set.partial"
    "$root/Benchmarks/peers/make-bench-set.sh" "$corpus" "$set.partial" >&2
    mv "$set.partial" "$set"
}

# build_photos ROOT [LOGFILE]: `photos` in release with cross-module optimization, in
# ROOT/.build-cmo as `make demo` builds it (the server's generic code, Hummingbird's and NIO's,
# specialised for ours: ~20 % more requests per second, docs/performance.md); PHOTOS is its path.
# With LOGFILE, the build's output goes there and is shown only when the build fails.
build_photos() {
    local root="$1" log="${2:-}"
    local build=(swift build -c release --product photos --package-path "$root" --scratch-path "$root/.build-cmo"
        -Xswiftc -cross-module-optimization)
    say "Building photos in release with cross-module optimization (scratch path .build-cmo)"
    if [ -n "$log" ]; then
        "${build[@]}" > "$log" 2>&1 || { cat "$log" >&2; exit 1; }
    else
        "${build[@]}" >&2
    fi
    PHOTOS="$("${build[@]}" --show-bin-path)/photos"
}

# postgres_copy PHOTOS LIBRARY SERVER NAME FILES: the database NAME on SERVER (a
# scripts/throwaway-postgres.sh URL) as `PHOTOS migrate` copies LIBRARY into it, its files in
# FILES; made (timed, then VACUUM ANALYZE) only when NAME does not exist yet, dropped again when
# the copy fails. Prints the database's URL.
postgres_copy() {
    local photos="$1" library="$2" server="$3" name="$4" files="$5" start
    if ! psql "$server" -Atc "SELECT 1 FROM pg_database WHERE datname = '$name'" | grep -q 1; then
        rm -rf "$files"
        psql "$server" -qc "CREATE DATABASE $name"
        echo "Copying ${library##*/} into PostgreSQL with photos migrate…" >&2
        start=$(date +%s.%N)
        "$photos" migrate --from "$library" --to "${server%/*}/$name" --to-files "$files" >&2 \
            || { psql "$server" -qc "DROP DATABASE $name"; exit 1; }
        printf 'photos migrate of %s: %.1f s\n' "${library##*/}" "$(echo "$(date +%s.%N) - $start" | bc)" >&2
        psql "${server%/*}/$name" -qc "VACUUM ANALYZE"
    fi
    echo "${server%/*}/$name"
}

# postgres_library PHOTOS ROOT WORK: the cluster benchmarks' library. A throwaway PostgreSQL
# server in WORK/postgres (stopped on exit, after every pid in PIDS), the first 40 corpus photos
# imported into WORK/sqlite and copied by `photos migrate` (timed: RESULT migrate) into its
# database `photos`, the files in WORK/files. Sets SERVER (the server's URL), DATABASE (the
# copy's) and PIDS.
postgres_library() {
    local photos="$1" root="$2" work="$3" start
    SERVER=$("$root/scripts/throwaway-postgres.sh" start "$work/postgres" "$(free_port)")
    PIDS=()
    POSTGRES_LIBRARY_CLEANUP=("$root/scripts/throwaway-postgres.sh" stop "$work/postgres")
    trap 'stop_processes "${PIDS[@]}"; "${POSTGRES_LIBRARY_CLEANUP[@]}" || true' EXIT
    psql "$SERVER" -qc "CREATE DATABASE photos"
    DATABASE="${SERVER%/*}/photos"
    local corpus
    mapfile -t corpus < <(ls "$root"/.corpus/*.jpg | head -40)
    "$photos" import --library "$work/sqlite" "${corpus[@]}" >/dev/null
    start=$(date +%s.%N)
    "$photos" migrate --from "$work/sqlite" --to "$DATABASE" --to-files "$work/files" >/dev/null
    printf 'RESULT migrate assets=%d seconds=%.2f\n' "${#corpus[@]}" "$(echo "$(date +%s.%N) - $start" | bc)"
}

# free_port: a TCP port nothing listens on at loopback now.
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

# wait_for URL [SECONDS]: returns once URL answers (any status); after SECONDS (default 10)
# without an answer, says so and exits.
wait_for() {
    local url="$1" tries=$((${2:-10} * 10)) i
    for i in $(seq "$tries"); do
        curl -s -o /dev/null "$url" && return 0
        sleep 0.1
    done
    echo "nothing answers at $url" >&2; exit 1
}

# start_server PHOTOS LIBRARY LOGFILE [SERVE-ARGUMENTS...]: `PHOTOS serve` on the library at a
# free loopback port, its output in LOGFILE, waited for until it answers (up to 20 s); PORT and
# SERVER_PID say where it is.
start_server() {
    local photos="$1" library="$2" log="$3"; shift 3
    PORT="$(free_port)"
    "$photos" serve --library "$library" --port "$PORT" "$@" > "$log" 2>&1 &
    SERVER_PID=$!
    wait_for "http://127.0.0.1:$PORT/openapi.json" 20
}

# stop_processes PID...: ends these background processes (empty arguments are skipped) and waits
# for the script's background jobs.
stop_processes() {
    local pid
    for pid in "$@"; do
        [ -n "$pid" ] && kill "$pid" 2>/dev/null || true
    done
    wait 2>/dev/null || true
}

# rss_kb PID: the process's resident memory in KiB (0 once it is gone).
rss_kb() { awk '/^VmRSS/ {print $2}' "/proc/$1/status" 2>/dev/null || echo 0; }

# nginx_conf DIR WORKERS: writes DIR/nginx.conf for an nginx run by this user, with everything of
# its own in DIR (pid file, logs/error.log, temporary files) and WORKERS worker processes; the
# directives of its http block come on standard input.
nginx_conf() {
    local dir="$1" workers="$2"
    mkdir -p "$dir/logs"
    {
        echo "worker_processes $workers;"
        echo "pid $dir/nginx.pid;"
        echo "error_log $dir/logs/error.log;"
        echo "events { worker_connections 1024; }"
        echo "http {"
        echo "  client_body_temp_path $dir/body; proxy_temp_path $dir/proxy; fastcgi_temp_path $dir/fastcgi;"
        echo "  uwsgi_temp_path $dir/uwsgi; scgi_temp_path $dir/scgi;"
        cat
        echo "}"
    } > "$dir/nginx.conf"
}

# start_static_nginx DIR ROOT TYPES CACHE-CONTROL PROBE LOGFILE: nginx on a free loopback port
# serving the files in ROOT the way a tuned static server does (2 workers, sendfile,
# open_file_cache, ETags), its configuration in DIR, its output in LOGFILE; TYPES is the body of
# its `types` block (e.g. "video/mp4 mp4;"), CACHE-CONTROL its answers' Cache-Control. Waits
# until the path PROBE answers; NGINX_PORT and NGINX_PID say where it is.
start_static_nginx() {
    local dir="$1" root="$2" types="$3" cache="$4" probe="$5" log="$6"
    NGINX_PORT="$(free_port)"
    nginx_conf "$dir" 2 <<CONF
  access_log off;
  sendfile on;
  tcp_nopush on;
  keepalive_requests 100000;
  open_file_cache max=1000 inactive=60s;
  types { $types }
  server {
    listen 127.0.0.1:$NGINX_PORT;
    root $root;
    etag on;
    add_header Cache-Control "$cache";
  }
CONF
    nginx -c "$dir/nginx.conf" -p "$dir" -g 'daemon off;' > "$log" 2>&1 &
    NGINX_PID=$!
    wait_for "http://127.0.0.1:$NGINX_PORT$probe"
}

# machine_basics: the Date, CPU, Memory and Kernel lines of a machine.tsv ("key<TAB>value").
machine_basics() {
    local cpu
    cpu="$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)"
    printf 'Date\t%s\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)"
    printf 'CPU\t%s, nproc %s\n' "${cpu:-?}" "$(nproc)"
    printf 'Memory\t%s\n' "$(awk '/^MemTotal/ {printf "%.1f GiB", $2/1048576}' /proc/meminfo)"
    printf 'Kernel\t%s, %s\n' "$(uname -r)" "$(. /etc/os-release && echo "$PRETTY_NAME")"
}

# swift_version: "Swift version X.Y.Z" of the swift on PATH.
swift_version() { swift --version 2>&1 | grep -m1 -o 'Swift version [^ ]*'; }

# usage: the script's header comment, from its second line to the one before `set -euo pipefail`.
usage() { sed -n '2,/^set -euo pipefail$/p' "$0" | sed '$d'; }

# parse_options ARGUMENTS... < TABLE: reads the command line by a table of options, one a line:
# "--name VARIABLE" takes a value into VARIABLE, "--name VARIABLE=VALUE" is a switch setting
# VARIABLE to VALUE, "--name ARRAY+" appends the value to the array ARRAY. -h and --help print
# the script's header (usage); anything else is refused (exit 2).
parse_options() {
    local -A takes=()
    local name target
    while read -r name target; do
        [ -n "$name" ] && takes["$name"]="$target"
    done
    while [ $# -gt 0 ]; do
        case "$1" in -h|--help) usage; exit 0 ;; esac
        [ -n "${takes["$1"]+set}" ] || { echo "unknown option: $1" >&2; exit 2; }
        target="${takes["$1"]}"
        if [[ "$target" == *=* ]]; then
            printf -v "${target%%=*}" '%s' "${target#*=}"
            shift
            continue
        fi
        [ $# -ge 2 ] || { echo "$1 needs a value" >&2; exit 2; }
        if [[ "$target" == *+ ]]; then
            eval "${target%+}+=(\"\$2\")"
        else
            printf -v "$target" '%s' "$2"
        fi
        shift 2
    done
}

# check_runs_and_docs ROOT: RUNS must be a positive number; DOCS left at "default" becomes
# ROOT/docs/performance.md for a full run (3 runs or more) and none for a quicker one.
check_runs_and_docs() {
    [[ "$RUNS" =~ ^[1-9][0-9]*$ ]] || { echo "--runs needs a positive number" >&2; exit 2; }
    if [ "$DOCS" = default ]; then
        if [ "$RUNS" -ge 3 ]; then DOCS="$1/docs/performance.md"; else DOCS=none; fi
    fi
}

# report PYTHON SCRIPT RESULTS MACHINE: the benchmark's Markdown table from its results and
# machine description, written into DOCS too unless DOCS is none.
report() {
    local python="$1" script="$2" results="$3" machine="$4"
    local docs=()
    if [ "$DOCS" != none ]; then docs=(--docs "$DOCS"); fi
    "$python" "$script" --results "$results" --machine "$machine" "${docs[@]}"
}
