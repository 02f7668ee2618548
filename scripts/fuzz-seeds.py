#!/usr/bin/env python3
"""Builds the fuzz targets' seed corpora from the real corpus and the test suite.

    scripts/fuzz-seeds.py CORPUS_DIR OUT_DIR

CORPUS_DIR is a folder made by scripts/fetch-corpus.sh (`.corpus` after `make fixtures`, or a
full corpus from /work/shared/corpus/fetch-corpus.sh). OUT_DIR/<Target>/ gets one file per seed,
named after its source and cut down to what the target reads, so libFuzzer starts from real
structure at a size it can mutate quickly:

* FuzzTIFF: each file's EXIF block (TIFF structure) as exiftool extracts it, the same with the
  "Exif\\0\\0" preamble JPEG APP1 segments carry, and the heads of whole TIFF and CR2 files.
* FuzzJPEG: each JPEG's marker segments up to the first scan (oversized APPn segments other than
  EXIF dropped), a little scan data and the end-of-image marker; truncated fixtures as they are.
* FuzzPNG: each PNG's chunks with IDAT/fdAT data cut to a few bytes, and real EXIF blocks in
  ImageMagick's "Raw profile type exif" form (tEXt, zTXt, iTXt) put into a real PNG.
* FuzzISOBMFF / FuzzQuickTime: HEIC/HEIF/AVIF and MP4/MOV/3GP files with their `mdat` payload
  cut to a few bytes (box sizes rewritten), every other box kept.
* FuzzAppleMakerNote: the Apple maker notes exiftool finds.
* FuzzProbe: the image, container and TIFF seeds above, each behind the byte that selects its
  extension in the target, plus GIF and WebP heads.
* FuzzPredicate: predicate formats written in the tests and docs.
* FuzzQuery: query strings from the server tests, docs and gallery, and the predicates encoded.
* FuzzMultipart: multipart bodies as curl and browsers send them, carrying heads of real photos.

Nothing here is committed: the output goes under .build-fuzz/ (git-ignored).
"""
import base64
import hashlib
import json
import os
import re
import struct
import subprocess
import sys
import urllib.parse
import zlib

MAX_IMAGE = 64 * 1024
MAX_MOVIE = 128 * 1024

# FuzzProbe's extension table (Fuzz/FuzzProbe/FuzzProbe.swift): the first byte selects one.
PROBE_EXTENSIONS = ["jpg", "png", "heic", "avif", "tif", "nef", "cr2", "dng", "raf", "cr3", "mov", "mp4",
                    "webp", "gif", "3gp", "orf"]


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    corpus, out = sys.argv[1], sys.argv[2]
    repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    files = sorted(
        os.path.join(folder, name)
        for folder in (corpus, os.path.join(corpus, "_fixtures"))
        if os.path.isdir(folder)
        for name in os.listdir(folder)
        if os.path.isfile(os.path.join(folder, name)) and not name.endswith((".tsv", ".md", ".sh")))
    if not files:
        sys.exit(f"fuzz-seeds: no files in {corpus} (run `make fixtures` or scripts/fetch-corpus.sh)")
    seeds = Seeds(out)
    exif = exiftool_blocks(files)
    for path in files:
        head = read(path, 16)
        name = os.path.basename(path)
        blocks = exif.get(path, {})
        if "EXIF" in blocks:
            seeds.add("FuzzTIFF", name + ".exif", blocks["EXIF"][:MAX_IMAGE])
            seeds.add("FuzzTIFF", name + ".app1", b"Exif\0\0" + blocks["EXIF"][:MAX_IMAGE - 6])
        if "MakerNoteApple" in blocks:
            seeds.add("FuzzAppleMakerNote", name + ".makernote", blocks["MakerNoteApple"])
        if head.startswith(b"\xff\xd8\xff"):
            jpeg = jpeg_seed(read(path))
            seeds.add("FuzzJPEG", name, jpeg)
            seeds.add_probe("jpg", name, jpeg)
        elif head.startswith(b"\x89PNG\r\n\x1a\n"):
            png = png_seed(read(path))
            seeds.add("FuzzPNG", name, png)
            seeds.add_probe("png", name, png)
        elif head[:4] in (b"II*\0", b"MM\0*"):
            data = read(path, MAX_IMAGE)
            seeds.add("FuzzTIFF", name, data)
            seeds.add_probe("cr2" if name.lower().endswith(".cr2") else "tif", name, data)
        elif head[4:8] == b"ftyp" or head[4:8] in (b"moov", b"mdat", b"wide", b"free"):
            data = isobmff_seed(read(path))
            movie = name.lower().endswith((".mp4", ".mov", ".3gp", ".m4v"))
            if movie and len(data) <= MAX_MOVIE:
                seeds.add("FuzzQuickTime", name, data)
                seeds.add_probe(name.rsplit(".", 1)[1].lower(), name, data)
            elif not movie and len(data) <= MAX_IMAGE:
                seeds.add("FuzzISOBMFF", name, data)
                seeds.add_probe("avif" if name.lower().endswith(".avif") else "heic", name, data)
        elif head.startswith((b"GIF87a", b"GIF89a")):
            seeds.add_probe("gif", name, read(path, MAX_IMAGE - 1) + b"\x3b")
        elif head.startswith(b"RIFF") and head[8:12] == b"WEBP":
            data = read(path, MAX_IMAGE)
            seeds.add_probe("webp", name, data[:4] + struct.pack("<I", len(data) - 8) + data[8:])
    png_profiles(seeds, files, exif)
    text_seeds(seeds, repo)
    multipart_seeds(seeds, files)
    for target in sorted(seeds.counts):
        print(f"fuzz-seeds: {target}: {seeds.counts[target]} seeds", file=sys.stderr)


class Seeds:
    def __init__(self, out):
        self.out = out
        self.counts = {}

    def add(self, target, name, data):
        if not data:
            return
        folder = os.path.join(self.out, target)
        os.makedirs(folder, exist_ok=True)
        digest = hashlib.sha1(data).hexdigest()[:10]
        safe = re.sub(r"[^A-Za-z0-9._-]", "_", name)[:80]
        with open(os.path.join(folder, f"{safe}-{digest}"), "wb") as f:
            f.write(data)
        self.counts[target] = self.counts.get(target, 0) + 1

    def add_probe(self, extension, name, data):
        self.add("FuzzProbe", name, bytes([PROBE_EXTENSIONS.index(extension)]) + data)


def read(path, limit=-1):
    with open(path, "rb") as f:
        return f.read(limit)


def exiftool_blocks(files):
    """{path: {"EXIF": bytes, "MakerNoteApple": bytes}} through one exiftool run."""
    try:
        output = subprocess.run(
            ["exiftool", "-j", "-b", "-q", "-q", "-EXIF", "-MakerNoteApple", *files],
            capture_output=True, check=False).stdout
    except FileNotFoundError:
        sys.exit("fuzz-seeds: needs exiftool (libimage-exiftool-perl; `make deps` installs it)")
    blocks = {}
    for entry in json.loads(output or b"[]"):
        found = {}
        for tag in ("EXIF", "MakerNoteApple"):
            value = entry.get(tag)
            if isinstance(value, str) and value.startswith("base64:"):
                found[tag] = base64.b64decode(value[7:])
        blocks[entry["SourceFile"]] = found
    return blocks


def jpeg_seed(data):
    """Segments to the first scan, 64 bytes of scan data, then FF D9."""
    out = bytearray(data[:2])
    i = 2
    while i + 4 <= len(data) and data[i] == 0xFF:
        marker = data[i + 1]
        if marker == 0xFF:
            i += 1
            continue
        length = struct.unpack(">H", data[i + 2:i + 4])[0]
        segment = data[i:i + 2 + length]
        exif = marker == 0xE1 and segment[4:10] == b"Exif\0\0"
        if len(segment) <= 16 * 1024 or exif:
            out += segment
        if marker == 0xDA:
            return bytes(out[:MAX_IMAGE - 66]) + data[i + 2 + length:i + 2 + length + 64] + b"\xff\xd9"
        i += 2 + length
    return bytes(data[:MAX_IMAGE])  # a truncated or damaged fixture: its head as it is


def png_chunks(data):
    i = 8
    while i + 12 <= len(data):
        length, kind = struct.unpack(">I4s", data[i:i + 8])
        yield kind, data[i + 8:i + 8 + length]
        i += 12 + length


def png_chunk(kind, body):
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)


def png_seed(data, extra=b""):
    out = bytearray(data[:8])
    for kind, body in png_chunks(data):
        if kind in (b"IDAT", b"fdAT"):
            body = body[:16]
        elif len(body) > 16 * 1024 and kind not in (b"eXIf", b"zTXt", b"iTXt", b"tEXt"):
            continue
        if kind == b"IEND":
            out += extra
        out += png_chunk(kind, body)
    return bytes(out[:MAX_IMAGE])


def png_profiles(seeds, files, exif):
    """A real EXIF block in ImageMagick's raw-profile form, in each of the three text chunks."""
    png = next((p for p in files if read(p, 8) == b"\x89PNG\r\n\x1a\n"), None)
    blobs = [b["EXIF"] for p, b in sorted(exif.items()) if "EXIF" in b and len(b["EXIF"]) < 8192][:3]
    if png is None:
        return
    base = read(png)
    for n, blob in enumerate(blobs):
        text = b"\nexif\n%8d\n" % (len(blob) + 6) + b"\n".join(
            (b"Exif\0\0" + blob).hex().encode()[k:k + 72] for k in range(0, 2 * (len(blob) + 6), 72)) + b"\n"
        keyword = b"Raw profile type exif\0"
        for kind, body in ((b"tEXt", keyword + text), (b"zTXt", keyword + b"\0" + zlib.compress(text)),
                           (b"iTXt", keyword + b"\x01\0\0\0" + zlib.compress(text))):
            seeds.add("FuzzPNG", f"{os.path.basename(png)}.{kind.decode()}{n}", png_seed(base, png_chunk(kind, body)))


def isobmff_seed(data):
    """Top-level boxes with `mdat` cut to 16 bytes of payload."""
    out = bytearray()
    i = 0
    while i + 8 <= len(data):
        size, kind = struct.unpack(">I4s", data[i:i + 8])
        header = 8
        if size == 1 and i + 16 <= len(data):
            size, header = struct.unpack(">Q", data[i + 8:i + 16])[0], 16
        elif size == 0:
            size = len(data) - i
        if size < header:
            break
        box = data[i:i + size]
        if kind == b"mdat":
            box = struct.pack(">I4s", 8 + 16, b"mdat") + data[i + header:i + header + 16]
        out += box
        i += size
    return bytes(out)


SWIFT_STRING = re.compile(r'"((?:[^"\\\n]|\\.)*)"')
PREDICATE_HINT = re.compile(r"==|!=|<=|>=|<>| < | > |\b(BEGINSWITH|ENDSWITH|CONTAINS|LIKE|BETWEEN|IN|AND|OR|NOT|"
                            r"TRUEPREDICATE|FALSEPREDICATE|CAST)\b")


def swift_unescape(text):
    return re.sub(r'\\(.)', lambda m: {"n": "\n", "t": "\t", "0": "\0"}.get(m.group(1), m.group(1)), text)


def source_files(repo, folders, suffixes):
    for folder in folders:
        for root, _, names in os.walk(os.path.join(repo, folder)):
            for name in sorted(names):
                if name.endswith(suffixes):
                    with open(os.path.join(root, name), encoding="utf-8", errors="replace") as f:
                        yield f.read()


def text_seeds(seeds, repo):
    """Predicates written in the tests and docs; query strings from the server side and docs."""
    predicates = set()
    for text in source_files(repo, ["Tests/PhotosTests", "Tests/PhotosServerTests", "Tests/PhotosCLITests",
                                    "Tests/PhotosStoreTests", "Sources/Photos/Photos.docc", "docs"],
                             (".swift", ".md")):
        for match in SWIFT_STRING.finditer(text):
            literal = match.group(1)
            if "\\(" not in literal and PREDICATE_HINT.search(literal) and len(literal) < 400:
                predicates.add(swift_unescape(literal))
    for predicate in sorted(predicates):
        seeds.add("FuzzPredicate", "format", predicate.encode())
    # Inputs for the target's PredicateWriter (a leading 0x01): choice bytes, a few per shape.
    for n in range(32):
        seeds.add("FuzzPredicate", "written", bytes([1]) + hashlib.sha256(b"%d" % n).digest()[:8 + n])

    queries = set()
    uuid = "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"
    for text in source_files(repo, ["Tests/PhotosServerTests", "Tests/EndToEnd", "Sources/PhotosServer", "docs"],
                             (".swift", ".py", ".js", ".yaml", ".md", ".html")):
        for match in re.finditer(r"\?([A-Za-z]+=[^\"'\s`)]*)", text):
            query = re.sub(r"\\\([^)]*\)+|\$\{[^}]*\}", uuid, match.group(1))
            queries.add(query)
    for query in sorted(queries):
        seeds.add("FuzzQuery", "query", query.encode())
    for predicate in sorted(predicates)[:60]:
        encoded = urllib.parse.quote(predicate, safe="")
        seeds.add("FuzzQuery", "predicate", f"predicate={encoded}&sort=-creationDate,pixelWidth&hidden=true".encode())


def multipart_seeds(seeds, files):
    """Bodies with one or two file parts carrying heads of real photos and videos."""
    media = [p for p in files if p.lower().endswith((".jpg", ".heic", ".png", ".mov", ".mp4"))][:12]
    styles = [
        ("------------------------d74496d66958873e", "multipart/form-data; boundary={}"),
        ("----WebKitFormBoundary7MA4YWxkTrZu0gW", "multipart/form-data; boundary={}"),
        ("simple", 'multipart/form-data; charset=utf-8; boundary="{}"'),
    ]
    types = {"jpg": "image/jpeg", "heic": "image/heic", "png": "image/png", "mov": "video/quicktime", "mp4": "video/mp4"}
    for n, path in enumerate(media):
        boundary, content_type = styles[n % len(styles)]
        name = os.path.basename(path)
        def part(filename, data, kind):
            return (f"--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"{filename}\"\r\n"
                    f"Content-Type: {kind}\r\n\r\n").encode() + data + b"\r\n"
        body = part(name, read(path, 2048 + 512 * n), types[name.rsplit(".", 1)[1].lower()])
        if n % 2:
            body += part("second " + name, read(path, 300), "application/octet-stream")
        if n % 4 == 3:
            body = b"preamble text\r\n" + body
        body += f"--{boundary}--\r\n".encode()
        if n % 5 == 4:
            body += b"epilogue"
        seeds.add("FuzzMultipart", name, content_type.format(boundary).encode() + b"\n" + bytes([n, 7 * n]) + body)
    boundary = "X-BOUNDARY"
    field = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"caption\"\r\n\r\nhello\r\n--{boundary}--\r\n").encode()
    seeds.add("FuzzMultipart", "field-without-filename", f"multipart/form-data; boundary={boundary}\n".encode() + b"\0\1" + field)


if __name__ == "__main__":
    main()
