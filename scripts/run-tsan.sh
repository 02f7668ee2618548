#!/usr/bin/env bash
# Runs the test suite built with --sanitize=thread (in the scratch folder given) and fails if
# ThreadSanitizer reported anything, in the test process or in the processes it starts (exit
# tests, the CLI). Reports are written to .build/tsan-reports/ and printed.
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
scratch="${1:-.build-tsan}"
reports="$repo/.build/tsan-reports"
rm -rf "$reports"
mkdir -p "$reports"
# ThreadSanitizer slows everything down: the tests' time limits stretch tenfold.
export PHOTOKIT_TEST_TIME_SCALE="${PHOTOKIT_TEST_TIME_SCALE:-10}"
export TSAN_OPTIONS="halt_on_error=0 second_deadlock_stack=1 history_size=4 log_path=$reports/report suppressions=$repo/scripts/tsan-suppressions.txt"
status=0
"${SWIFT:-swift}" test --skip-build --sanitize=thread --scratch-path "$scratch" "${@:2}" || status=$?
if compgen -G "$reports/report*" >/dev/null; then
  cat "$reports"/report* >&2
  echo "run-tsan: ThreadSanitizer reported $(grep -h -c '^WARNING: ThreadSanitizer' "$reports"/report* | awk '{ s += $1 } END { print s }') problem(s); see $reports" >&2
  exit 1
fi
if [ "$status" -ne 0 ]; then
  echo "run-tsan: the tests failed (exit $status)" >&2
  exit "$status"
fi
echo "run-tsan: no ThreadSanitizer reports" >&2
