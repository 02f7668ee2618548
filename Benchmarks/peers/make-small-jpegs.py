#!/usr/bin/env python3
"""Makes N distinct small real JPEGs for the import-at-scale measures (issue 19, aim 5).

    Benchmarks/peers/make-small-jpegs.py N OUT_DIR

One 64 x 48 JPEG (~1.5 KB: libvips' gaussnoise at Q60) is written with camera EXIF by exiftool
(Make, Model, DateTimeOriginal, a 32-hex-digit ImageUniqueID); every file is that template
with its DateTimeOriginal and ImageUniqueID overwritten in place (same length), so each file
has unique bytes and EXIF and all share one size (the worst case for a duplicate check keyed by
size). Dates: 200 photos a day between 10:00 and 20:00, a 14-hour night between days (moments
split there, as in a real library): 1,000,000 photos span ~14 years. 1,000 files a folder.
200,000 files take ~9 s to write. Needs the vips and exiftool commands.
"""
import datetime
import os
import subprocess
import sys
import tempfile
import time

count, out = int(sys.argv[1]), sys.argv[2]
DATE, UID = b"2020:01:01 00:00:00", b"0" * 32
with tempfile.TemporaryDirectory() as scratch:
    template = os.path.join(scratch, "t.jpg")
    subprocess.run(["vips", "gaussnoise", template + "[Q=60]", "64", "48"], check=True)
    subprocess.run(["exiftool", "-q", "-overwrite_original", "-Make=Canon", "-Model=Canon EOS 5D",
                    "-DateTimeOriginal=2020:01:01 00:00:00", "-ImageUniqueID=" + "0" * 32, template], check=True)
    data = open(template, "rb").read()
at_date, at_uid = data.index(DATE), data.index(UID)
base = datetime.datetime(2015, 1, 1)
start = time.time()
for n in range(count):
    day, k = divmod(n, 200)
    when = base + datetime.timedelta(days=day, hours=10, seconds=k * 180 + (n * 7919) % 60)
    b = bytearray(data)
    b[at_date:at_date + 19] = when.strftime("%Y:%m:%d %H:%M:%S").encode()
    b[at_uid:at_uid + 32] = b"%032x" % n
    folder = os.path.join(out, "%04d" % (n // 1000))
    if n % 1000 == 0:
        os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "IMG_%07d.JPG" % n), "wb") as f:
        f.write(b)
print(f"{count} files of {len(data)} bytes in {out} ({time.time() - start:.1f} s)")
