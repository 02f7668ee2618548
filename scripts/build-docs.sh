#!/usr/bin/env bash
# Builds the Photos documentation (DocC, through swift-docc-plugin) into .build/docs, as a
# static site for hosting under /docs/. Any DocC warning
# (an unresolved link, a parameter documented under the wrong name) fails the build.
#
# The plugin is a dependency only when PHOTOKIT_DOCS is set (see Package.swift), so packages
# that depend on this one never resolve it; its own build folder keeps the main one untouched.
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"
output="$repo/.build/docs"
log="$repo/.build/docs-build.log"
mkdir -p "$repo/.build"
rm -rf "$output"
export PHOTOKIT_DOCS=1
status=0
"${SWIFT:-swift}" package --scratch-path .build-docs --allow-writing-to-directory "$output" \
  generate-documentation --target Photos --output-path "$output" \
  --transform-for-static-hosting --hosting-base-path docs --warnings-as-errors >"$log" 2>&1 || status=$?
if [ "$status" -ne 0 ] || grep -q "warning:" "$log"; then
  grep -E -A4 "warning:|error:" "$log" >&2 || tail -40 "$log" >&2
  echo "build-docs: DocC reported problems (full log: $log)" >&2
  exit 1
fi
echo "build-docs: the Photos documentation is in $output (a static site for /docs/)" >&2
