#!/usr/bin/env bash
# The consumer check: builds Tests/Consumers/VersionedClient the way other people's code uses
# PhotoKit for Linux, by URL and version with no extra flags, and runs it on real photos.
#
# 1. A git repository of the current checkout as it is now (tracked and new files, not ignored
#    ones) is made under .build/consumer/ and tagged 1.0.0; PHOTOKIT_URL points the client's
#    `.package(url:from:)` at it. SwiftPM refuses such a dependency if a product's target has
#    unsafe flags, and the client's build fails if a C module's headers need include folders
#    that SwiftPM doesn't find on its own (glib's).
# 2. The client is built in debug and release. Neither may build Hummingbird or SwiftNIO: a
#    program that uses `Photos` pulls in only what Photos needs. (People's passwords are bcrypt
#    hashes made by hummingbird-auth's HummingbirdBcrypt: a C bcrypt and its Swift wrapper,
#    which depend on nothing else; it is the one module of that package Photos builds.)
# 3. Each build runs: a small PhotoKit program (import, observer, fetch, image request), then the
#    sample apps' runtime checks, compiled in Swift 6 and Swift 5 modes.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
client="$repo/Tests/Consumers/VersionedClient"
work="$repo/.build/consumer"
swift="${SWIFT:-swift}"

photos=()
for photo in "$repo"/.fixtures/kphotoalbum/*.jpg; do
  [ -f "$photo" ] && photos+=("$photo")
  [ ${#photos[@]} -ge 6 ] && break
done
if [ ${#photos[@]} -lt 6 ]; then
  echo "check-consumer: needs the fixture photos (scripts/fetch-fixtures.sh)" >&2
  exit 1
fi

# A fresh repository (and URL) per run: a re-made tag 1.0.0 at an old URL would meet the old
# commit in SwiftPM's caches. The build folder is kept between runs, so only what changed is
# compiled again.
rm -rf "$work/repositories" "$work/cache" "$work/run"
snapshot="$work/repositories/$(date +%s%N)/photokit"
mkdir -p "$snapshot" "$work/run"
git -C "$repo" ls-files -z --cached --others --exclude-standard \
  | (cd "$repo" && tar -cf - --null --ignore-failed-read -T - 2>/dev/null) | tar -xf - -C "$snapshot"
git -C "$snapshot" init -q
git -C "$snapshot" add -A
git -C "$snapshot" -c user.name=consumer-check -c user.email=consumer-check@localhost commit -qm "snapshot for the consumer check"
git -C "$snapshot" tag 1.0.0
export PHOTOKIT_URL="file://$snapshot"
rm -f "$client/Package.resolved"

for configuration in debug release; do
  echo "check-consumer: building VersionedClient ($configuration) against $PHOTOKIT_URL 1.0.0" >&2
  log="$work/run/build-$configuration.log"
  if ! "$swift" build --package-path "$client" --scratch-path "$work/build" --cache-path "$work/cache" \
      -c "$configuration" >"$log" 2>&1; then
    cat "$log" >&2
    echo "check-consumer: VersionedClient does not build ($configuration)" >&2
    exit 1
  fi
  if grep -q "warning:" "$log"; then
    grep -B2 -A6 "warning:" "$log" >&2
    echo "check-consumer: building against Photos printed warnings ($configuration)" >&2
    exit 1
  fi
  # SwiftPM fetches every package PhotoKit names (and makes empty folders for their targets),
  # but must compile only what Photos uses.
  unwanted=$( (ls "$work/build/$configuration/Modules"; cd "$work/build/$configuration" && find . -name '*.o') 2>/dev/null \
    | grep -E '(^|/)(Hummingbird|NIO|ServiceLifecycle|ArgumentParser|PhotosServer|PhotosCLI)' \
    | grep -v -E '(^|/)HummingbirdBcrypt' | sort -u || true)
  if [ -n "$unwanted" ]; then
    echo "check-consumer: a program using Photos built what it doesn't need:" $unwanted >&2
    exit 1
  fi
  library="$work/run/$configuration/Library.photoslibrary"
  scratch="$work/run/$configuration/scratch"
  mkdir -p "$scratch"
  "$work/build/$configuration/VersionedClient" "$library" "$scratch" "${photos[@]}"
done
echo "check-consumer: VersionedClient built by version in debug and release and passed its checks" >&2
