#!/usr/bin/env bash
# Builds the libFuzzer targets in Fuzz/ (AddressSanitizer, leak detection on), makes their seed
# corpora from the real corpus, runs each for a bounded time and prints what each did. Exits 1
# when any target found a crash, a hang, a leak or an out-of-memory; the inputs are kept in
# .build-fuzz/findings/<target>/ (see docs/reliability.md for reproducing and minimising).
#
#   scripts/fuzz.sh [TARGET...]        every target when none is named
#
# FUZZ_TIME    seconds per target (default 90; 0 = no limit, with FUZZ_RUNS)
# FUZZ_RUNS    executions per target (default: no limit, FUZZ_TIME bounds the run)
# FUZZ_CORPUS  the real corpus the seeds are made from (default .corpus, which `make fixtures`
#              fetches; /work/shared/corpus/fetch-corpus.sh DIR makes a fuller one)
# FUZZ_ARGS    more libFuzzer options for every target (e.g. -seed=1 or -jobs=2)
#
# The working corpus each target grows is kept in .build-fuzz/corpus/<target>/, so a later run
# starts where this one stopped. Everything is under .build-fuzz/ (git-ignored).
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"
swift="${SWIFT:-swift}"
scratch=.build-fuzz
corpus_source="${FUZZ_CORPUS:-.corpus}"
runs="${FUZZ_RUNS:-}"
seconds="${FUZZ_TIME:-$([ -n "$runs" ] && echo 0 || echo 90)}"

# target | largest input | dictionary
table="
FuzzTIFF|65536|tiff
FuzzJPEG|65536|jpeg
FuzzPNG|65536|png
FuzzISOBMFF|65536|isobmff
FuzzQuickTime|131072|isobmff
FuzzAppleMakerNote|8192|tiff
FuzzProbe|65537|probe
FuzzPredicate|1024|predicate
FuzzQuery|2048|query
FuzzMultipart|32768|multipart
"
all=$(echo "$table" | cut -d'|' -f1 | grep .)
targets=("$@")
[ ${#targets[@]} -gt 0 ] || mapfile -t targets <<<"$all"
for target in "${targets[@]}"; do
  grep -qx "$target" <<<"$all" || { echo "fuzz: no target $target (one of: $(echo $all))" >&2; exit 2; }
done

# 1. Build. `--sanitize=fuzzer` makes SwiftPM link libFuzzer's main instead of the target's;
# `-sanitize=fuzzer,address` (as one flag: the last -sanitize wins) instruments every Swift
# module for coverage and ASan; `-enable-testing` lets the targets `@testable import` the
# internal parsers.
mkdir -p "$scratch/logs"
for target in "${targets[@]}"; do
  echo "fuzz: building $target" >&2
  if ! PHOTOKIT_FUZZ=1 "$swift" build -c release --scratch-path "$scratch" --sanitize=fuzzer \
      -Xswiftc -sanitize=fuzzer,address -Xswiftc -enable-testing --product "$target" >"$scratch/logs/build-$target.log" 2>&1; then
    grep -E "error:" "$scratch/logs/build-$target.log" >&2 || tail -30 "$scratch/logs/build-$target.log" >&2
    echo "fuzz: $target does not build (log: $scratch/logs/build-$target.log)" >&2
    exit 1
  fi
done
bin="$(PHOTOKIT_FUZZ=1 "$swift" build -c release --scratch-path "$scratch" --show-bin-path 2>/dev/null)"

# 2. Seeds, made again each run (a few seconds).
if [ ! -d "$corpus_source" ] || [ -z "$(ls -A "$corpus_source" 2>/dev/null)" ]; then
  echo "fuzz: no real corpus in $corpus_source (run \`make fixtures\`, or set FUZZ_CORPUS)" >&2
  exit 1
fi
rm -rf "$scratch/seeds"
python3 scripts/fuzz-seeds.py "$corpus_source" "$scratch/seeds"

# 3. Run. A hang is an input that runs over 10 s; an out-of-memory is 2 GB resident or one
# allocation over 1 GB. Leaks are checked after every input that allocated more than it freed.
export SWIFT_BACKTRACE=enable=no  # libFuzzer reports crashes and keeps the input
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:malloc_context_size=8}"
status=0
summary=()
for target in "${targets[@]}"; do
  IFS='|' read -r _ max_len dict < <(grep "^$target|" <<<"$table")
  work="$scratch/corpus/$target" findings="$scratch/findings/$target" log="$scratch/logs/$target.log"
  rm -rf "$findings"
  mkdir -p "$work" "$findings"
  echo "fuzz: running $target (${runs:-unbounded} runs, ${seconds}s)" >&2
  options=(-max_len="$max_len" -timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=1024 -detect_leaks=1
    -max_total_time="$seconds" -print_final_stats=1 -dict="Fuzz/Dictionaries/$dict.dict" -artifact_prefix="$findings/")
  [ -n "$runs" ] && options+=(-runs="$runs")
  # shellcheck disable=SC2086
  "$bin/$target" "${options[@]}" ${FUZZ_ARGS:-} "$work" "$scratch/seeds/$target" >"$log" 2>&1 || true
  executions=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || true)
  [ -n "$executions" ] || executions=$(grep -oE '^#[0-9]+' "$log" | tail -1 | tr -d '#' || true)
  speed=$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo "?")
  count() { find "$findings" -name "$1-*" | wc -l; }
  crashes=$(count crash) hangs=$(count timeout) leaks=$(count leak) ooms=$(count oom)
  # A leak found only by LeakSanitizer's check at exit leaves a report but no input.
  [ "$leaks" -gt 0 ] || leaks=$(grep -c "ERROR: LeakSanitizer" "$log" || true)
  line=$(printf '%-19s %10s runs %7s exec/s  corpus %5s  crashes %s  hangs %s  leaks %s  ooms %s' \
    "$target" "${executions:-0}" "$speed" "$(ls "$work" | wc -l)" "$crashes" "$hangs" "$leaks" "$ooms")
  # Targets with deeper paths say how many inputs reached them ("FuzzPredicate: N inputs, ...").
  reached=$(grep -E "^$target: [0-9]+ inputs" "$log" | tail -1 || true)
  [ -n "$reached" ] && line+=$'\n'"    ${reached#*: }"
  summary+=("$line")
  echo "$line" >&2
  if [ $((crashes + hangs + leaks + ooms)) -gt 0 ]; then
    status=1
    grep -m1 -E "ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|Fatal error" "$log" >&2 || true
    echo "fuzz: $target: input in $findings/, log in $log" >&2
  fi
done
echo >&2
printf '%s\n' "${summary[@]}" >&2
exit $status
