#!/usr/bin/env bash
# People benchmark (issue 34): a person's fetches in the generated library of 1,000,000 assets
# shared among 10 people, side by side in one process with the same fetches in a generated
# library of 100,000 assets without people (StoreBenchmark `people`, release build). The
# libraries are made once and kept in Benchmarks/.data (the people's copy: the 1,000,000-asset
# library with sqlite3 giving asset id to person id % 10 + 1).
#
#   Benchmarks/run-people-benchmark.sh                       # 1,000,000 among 10, 5 repeats
#   Benchmarks/run-people-benchmark.sh --assets 100000 --people 10 --repeats 3
set -euo pipefail

# shellcheck source=peers/bench-common.sh
. "$(dirname "${BASH_SOURCE[0]}")/peers/bench-common.sh"
ASSETS=1000000
PEOPLE=10
REPEATS=5
parse_options "$@" <<'OPTIONS'
--assets ASSETS
--people PEOPLE
--repeats REPEATS
OPTIONS
command -v sqlite3 >/dev/null || { echo "the sqlite3 command is needed (apt-get install sqlite3)" >&2; exit 1; }
build=(swift build -c release --package-path "$HERE" --product StoreBenchmark)
say "Building StoreBenchmark in release"
"${build[@]}" >&2
say "uptime: $(uptime)"
"$("${build[@]}" --show-bin-path)/StoreBenchmark" people --assets "$ASSETS" --people "$PEOPLE" --data "$HERE/.data" --repeats "$REPEATS"
