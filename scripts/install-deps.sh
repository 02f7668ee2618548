#!/usr/bin/env bash
# Installs the Debian/Ubuntu packages the project needs, if they are missing.
# Uses sudo when not root. Swift itself is expected on PATH (https://www.swift.org/install/linux/).
set -euo pipefail

# chromium and chromium-driver: the gallery's end-to-end test drives a real browser.
# libheif-dev: Imaging links libheif itself (HEIFDecoder), not only through libvips.
# libheif-examples: heif-enc, which tests use to make a HEIC with a thumbnail item.
# postgresql: tests of the PostgreSQL store start throwaway servers of their own (initdb, pg_ctl);
# openssl: the certificate authority and certificates of their TLS.
# nginx: make demo-cluster balances two `photos serve` instances with it.
# tesseract-ocr and its language packs: words in photos (TextRecognizer).
packages=(libvips-dev libheif-dev libheif-examples libsqlite3-dev libssl-dev sqlite3 pkg-config libimage-exiftool-perl ffmpeg chromium chromium-driver postgresql nginx openssl
  tesseract-ocr tesseract-ocr-eng tesseract-ocr-deu tesseract-ocr-fra tesseract-ocr-spa tesseract-ocr-por fonts-dejavu-core)
missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done

if [ ${#missing[@]} -gt 0 ]; then
  echo "Installing: ${missing[*]}" >&2
  sudo=""
  if [ "$(id -u)" != 0 ]; then sudo="sudo"; fi
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if ! command -v swift >/dev/null 2>&1; then
  for candidate in /opt/swift/usr/bin /usr/share/swift/usr/bin; do
    if [ -x "$candidate/swift" ]; then
      echo "Swift is at $candidate; add it to PATH." >&2
      exit 1
    fi
  done
  echo "Swift 6 is not installed: see https://www.swift.org/install/linux/" >&2
  exit 1
fi
# Selenium (PyPI) for the end-to-end test; Debian's python3-selenium where pip may not install.
if ! python3 -c 'import selenium' 2>/dev/null; then
  python3 -m pip install --quiet --disable-pip-version-check 'selenium>=4.8' 2>/dev/null \
    || python3 -m pip install --quiet --disable-pip-version-check --break-system-packages 'selenium>=4.8' 2>/dev/null \
    || { sudo=""; [ "$(id -u)" != 0 ] && sudo="sudo"; $sudo apt-get install -y -qq --no-install-recommends python3-selenium >/dev/null; }
fi
# moto's S3 server (moto[server], moto_server) for the object-storage tests, and boto3, whose
# botocore signer checks ours (S3 Signature V4).
if ! python3 -c 'import moto.server, flask, botocore' 2>/dev/null; then
  python3 -m pip install --quiet --disable-pip-version-check 'moto[server]>=5' 'boto3' 2>/dev/null \
    || python3 -m pip install --quiet --disable-pip-version-check --break-system-packages 'moto[server]>=5' 'boto3' 2>/dev/null \
    || echo "moto[server] and boto3 not installed: the S3 tests will be skipped." >&2
fi
"$(dirname "${BASH_SOURCE[0]}")/fetch-gazetteer.sh" || echo "Gazetteer not fetched: moments will have no place names." >&2
