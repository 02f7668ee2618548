# Shared by Benchmarks/run-*-benchmark.sh (sourced, not run).

say() { echo "== $*" >&2; }
load1() { cut -d' ' -f1 /proc/loadavg; }

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

# build_bench_set ROOT CORPUS SET LOG: once, the real-photo corpus, then the 66-photo benchmark set
# (Benchmarks/peers/make-bench-set.sh), renamed into place only when complete.
build_bench_set() {
    local root="$1" corpus="$2" set="$3" log="$4"
    if [ -d "$set" ]; then return 0; fi
    say "Building the benchmark set (once) into ${set#"$root"/}"
    "$root/scripts/fetch-corpus.sh" "$corpus" > "$log/fetch-corpus.log" 2>&1 \
        || { tail -20 "$log/fetch-corpus.log" >&2; exit 1; }
    rm -rf "$set.partial"
    "$root/Benchmarks/peers/make-bench-set.sh" "$corpus" "$set.partial" >&2
    mv "$set.partial" "$set"
}
