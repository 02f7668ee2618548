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
