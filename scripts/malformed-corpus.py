#!/usr/bin/env python3
"""The malformed-input census of issue 18: ~130 damaged files made from the real corpus, imported
with the `photos` CLI, then each accepted one rendered as a gallery would (a 256 px square
thumbnail through PHImageManager and libvips, `photos thumbnail`; a video's poster frame).

Prints how many were accepted, refused, and accepted but unrenderable, and with --list every
variant's outcome and reason. The variants are the same on every run (seeded), made from these
corpus files (`scripts/fetch-corpus.sh .corpus --minimal`): JPEGs (baseline and progressive,
camera and phone), PNGs (RGB and palette, with eXIf), a GIF, HEIC/HEIF/AVIF (iPhone, Nokia,
Sony), a TIFF, a Canon CR2, MP4/MOV/3GP movies. Damage: truncations, bit flips (in headers,
boxes, tables and pixel data), PNG CRC errors, absurd dimensions, looping and missing TIFF IFDs,
HEIF item and MP4 chunk offsets past the end, missing boxes and segments.

Usage: malformed-corpus.py PHOTOS_BINARY CORPUS_DIR [--list] [--keep DIR] [--json]
Exit status: 0 when no accepted file is unrenderable, else 1.
"""
import argparse
import json
import os
import random
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib

SEEDS = [
    "forensics__pic1_IMG_1054.JPG", "cosmos__comet.jpg", "kpa__jesper.jpg", "wp22__images_ducks.jpg",
    "imageio__chelsea.png", "lxqt__drop.png", "imageio__newtonscradle.gif",
    "pillowheif__heif_other_pug.heic", "pillowheif__heif_other_nokia_stereo_1200x800.heic",
    "pillowheif__heif_other_cat.hif", "_fixtures/mimetype__avif.avif",
    "_fixtures/goexif__tiff_sample1.tif", "rawtran__IMG_5952.CR2",
    "imageio__realshort.mp4", "mimetype__mov.mov", "mimetype__3gp.3gp",
]


def be32(b, i):
    return struct.unpack(">I", b[i:i + 4])[0]


def png_chunks(b):
    i, out = 8, []
    while i + 12 <= len(b):
        n = be32(b, i)
        out.append((b[i + 4:i + 8].decode("latin-1"), i, n))
        i += 12 + n
    return out


def png_with_ihdr(b, w, h):
    b = bytearray(b)
    b[16:24] = struct.pack(">II", w, h)
    b[29:33] = struct.pack(">I", zlib.crc32(bytes(b[12:29])))
    return bytes(b)


def boxes(b, start, end):
    i, out = start, []
    while i + 8 <= end:
        size, kind = be32(b, i), b[i + 4:i + 8].decode("latin-1")
        header = 8
        if size == 1:
            size, header = struct.unpack(">Q", b[i + 8:i + 16])[0], 16
        elif size == 0:
            size = end - i
        if size < header or i + size > end:
            break
        out.append((kind, i, i + header, i + size))
        i += size
    return out


def find_box(b, path):
    level = boxes(b, 0, len(b))
    found = None
    for kind in path:
        found = next((x for x in level if x[0] == kind), None)
        if found is None:
            return None
        skip = 4 if kind == "meta" else 0
        level = boxes(b, found[2] + skip, found[3])
    return found


def tiff_ifd0(b):
    big = b[:2] == b"MM"
    u32 = (lambda i: struct.unpack(">I" if big else "<I", b[i:i + 4])[0])
    u16 = (lambda i: struct.unpack(">H" if big else "<H", b[i:i + 2])[0])
    p32 = (lambda v: struct.pack(">I" if big else "<I", v))
    return big, u32, u16, p32


def jpeg_segments(b):
    i, out = 2, []
    while i + 4 <= len(b) and b[i] == 0xFF:
        marker, length = b[i + 1], struct.unpack(">H", b[i + 2:i + 4])[0]
        out.append((marker, i, i + 2 + length))
        if marker == 0xDA:
            break
        i += 2 + length
    return out


def flip(b, positions, rng, mask=None):
    b = bytearray(b)
    for p in positions:
        if 0 <= p < len(b):
            b[p] ^= mask if mask is not None else (1 << rng.randrange(8))
    return bytes(b)


def variants(corpus):
    """Yields (name, extension, bytes, damage)."""
    rng = random.Random(18)
    for seed in SEEDS:
        path = os.path.join(corpus, seed)
        if not os.path.exists(path):
            print(f"note: {seed} is not in the corpus, skipped", file=sys.stderr)
            continue
        data = open(path, "rb").read()
        stem, ext = os.path.splitext(os.path.basename(seed))
        stem = stem.split("__", 1)[-1][:24]
        n = len(data)
        # Generic damage, every format.
        yield f"{stem}-cut64", ext, data[:64], "cut to 64 bytes"
        yield f"{stem}-cut-half", ext, data[:n // 2], "cut in half"
        yield f"{stem}-cut-99", ext, data[:n * 99 // 100], "last 1 % cut off"
        yield f"{stem}-flip-head", ext, flip(data, [rng.randrange(16, min(n, 4096)) for _ in range(4)], rng), "4 bits flipped in the first 4 KB"
        yield f"{stem}-flip-body", ext, flip(data, [rng.randrange(n // 4, n) for _ in range(16)], rng), "16 bits flipped in the data"
        # Format-specific damage.
        if ext.lower() in (".jpg", ".jpeg"):
            segs = jpeg_segments(data)
            sos = next((s for s in segs if s[0] == 0xDA), None)
            if sos:
                yield f"{stem}-no-scan-data", ext, data[:sos[2]] + b"\xff\xd9", "SOS followed at once by EOI"
            dqt = [s for s in segs if s[0] == 0xDB]
            if dqt:
                b = data
                for s in reversed(dqt):
                    b = b[:s[1]] + b[s[2]:]
                yield f"{stem}-no-dqt", ext, b, "quantization tables removed"
            sof = next((s for s in segs if s[0] in (0xC0, 0xC1, 0xC2)), None)
            if sof:
                b = bytearray(data)
                b[sof[1] + 7:sof[1] + 9] = b"\x00\x00"
                yield f"{stem}-sof-zero", ext, bytes(b), "frame width set to 0"
        elif ext.lower() == ".png":
            chunks = png_chunks(data)
            idat = next(c for c in chunks if c[0] == "IDAT")
            yield f"{stem}-idat-crc", ext, flip(data, [idat[1] + 8 + idat[2] // 2], rng, 0x01), "a bit flipped inside IDAT (CRC error)"
            yield f"{stem}-ihdr-crc", ext, flip(data, [29], rng, 0xFF), "IHDR CRC changed"
            yield f"{stem}-1x2000000", ext, png_with_ihdr(data, 1, 2_000_000), "IHDR claims 1 x 2,000,000"
            yield f"{stem}-100000x1", ext, png_with_ihdr(data, 100_000, 1), "IHDR claims 100,000 x 1"
            b = data
            for c in reversed([c for c in chunks if c[0] == "IDAT"]):
                b = b[:c[1]] + b[c[1] + 12 + c[2]:]
            yield f"{stem}-no-idat", ext, b, "IDAT removed"
        elif ext.lower() in (".tif", ".cr2"):
            big, u32, u16, p32 = tiff_ifd0(data)
            ifd0 = u32(4)
            nxt = ifd0 + 2 + u16(ifd0) * 12
            yield f"{stem}-ifd-loop", ext, data[:nxt] + p32(ifd0) + data[nxt + 4:], "IFD0 links back to itself"
            yield f"{stem}-ifd0-missing", ext, data[:4] + p32(n + 4096) + data[8:], "IFD0 offset past the end"
            yield f"{stem}-next-ifd-missing", ext, data[:nxt] + p32(n + 4096) + data[nxt + 4:], "next IFD past the end"
        elif ext.lower() in (".heic", ".hif", ".avif"):
            meta = find_box(data, ["meta"])
            for kind in ("iloc", "iinf", "pitm"):
                box = find_box(data, ["meta", kind])
                if box:
                    yield f"{stem}-no-{kind}", ext, data[:box[1] + 4] + b"xxxx" + data[box[1] + 8:], f"'{kind}' renamed"
            mdat = find_box(data, ["mdat"])
            if mdat and meta:
                yield f"{stem}-mdat-gone", ext, data[:mdat[1]], "mdat (the image data) cut off"
        elif ext.lower() in (".mp4", ".mov", ".3gp"):
            stco = find_box(data, ["moov", "trak", "mdia", "minf", "stbl", "stco"])
            if stco:
                b = bytearray(data)
                b[stco[2] + 8:stco[2] + 12] = struct.pack(">I", n + 1000)
                yield f"{stem}-stco-past-end", ext, bytes(b), "first chunk offset past the end"
            stsz = find_box(data, ["moov", "trak", "mdia", "minf", "stbl", "stsz"])
            if stsz:
                yield f"{stem}-stsz-flip", ext, flip(data, [stsz[2] + 12], rng, 0x40), "a sample size gains 1 GB"
            moov = find_box(data, ["moov"])
            if moov:
                yield f"{stem}-no-moov", ext, data[:moov[1] + 4] + b"free" + data[moov[1] + 8:], "'moov' renamed"


def run(photos, *args, library):
    return subprocess.run([photos, *args, "--library", library], capture_output=True, text=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("photos")
    parser.add_argument("corpus")
    parser.add_argument("--list", action="store_true", help="print every variant's outcome")
    parser.add_argument("--keep", help="write the variants and the library here (kept)")
    parser.add_argument("--json", action="store_true", help="print the counts as JSON")
    options = parser.parse_args()

    work = options.keep or tempfile.mkdtemp(prefix="malformed-")
    folder, library = os.path.join(work, "variants"), os.path.join(work, "Library.photoslibrary")
    shutil.rmtree(folder, ignore_errors=True)
    shutil.rmtree(library, ignore_errors=True)
    os.makedirs(folder)
    damage = {}
    for name, ext, data, what in variants(options.corpus):
        path = os.path.join(folder, name + ext)
        open(path, "wb").write(data)
        damage[path] = what

    result = run(options.photos, "import", folder, "--thumbnails", "--json", "--allow-duplicates", library=library)
    if not result.stdout.strip():
        sys.exit(f"photos import printed nothing: {result.stderr}")
    report = json.loads(result.stdout)
    outcomes = {}
    scratch = os.path.join(work, "thumb.jpg")
    for item in report["items"]:
        path = item["files"][0]
        if item["outcome"] == "imported":
            shown = run(options.photos, "thumbnail", item["localIdentifier"], "--size", "256x256", "--mode", "fill",
                        "--resize", "exact", "-o", scratch, library=library)
            if shown.returncode == 0:
                outcomes[path] = ("accepted", "")
            else:
                outcomes[path] = ("unrenderable", shown.stderr.strip().splitlines()[-1] if shown.stderr.strip() else "")
        else:
            outcomes[path] = ("refused", item.get("reason") or item["outcome"])
    check = run(options.photos, "check", "--json", library=library)
    listed = 0
    try:
        listed = sum(1 for p in json.loads(check.stdout)["problems"] if p["kind"] == "unrenderable")
    except (ValueError, KeyError):
        pass

    counts = {kind: sum(1 for o in outcomes.values() if o[0] == kind) for kind in ("accepted", "refused", "unrenderable")}
    summary = {
        "variants": len(damage), "accepted": counts["accepted"] + counts["unrenderable"], "refused": counts["refused"],
        "acceptedButUnrenderable": counts["unrenderable"], "listedByPhotosCheck": listed,
    }
    if options.list:
        for path in sorted(outcomes):
            kind, reason = outcomes[path]
            print(f"{kind:13} {os.path.basename(path):44} {damage.get(path, '')}: {reason}")
    if options.json:
        print(json.dumps(summary))
    else:
        print(f"{summary['variants']} malformed variants: {summary['accepted']} accepted, {summary['refused']} refused, "
              f"{summary['acceptedButUnrenderable']} accepted but unrenderable "
              f"({summary['listedByPhotosCheck']} of them listed by photos check)")
    if not options.keep:
        shutil.rmtree(work, ignore_errors=True)
    sys.exit(1 if counts["unrenderable"] else 0)


if __name__ == "__main__":
    main()
