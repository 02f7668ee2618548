#!/usr/bin/env python3
"""Search relevance on a set with known answers (issue 37).

relevance.py PHOTOS_BINARY CORPUS_DIR [--postgres URL]

Builds a library from the corpus's real photos (every top-level JPEG and PNG) and gives
subsets of them known answers with exiftool: keywords, captions and titles (XMP and IPTC),
GPS positions of known towns, capture dates, camera makes; renames some to camera-style names;
adds screenshots with known words (PNG, ffmpeg's drawtext) and photos of text (drawn on a
photo, turned and blurred a little). Imports it all, reads the text in it (`photos cache warm
--text`), then runs each query with `photos search --json` and scores it against the answers
exiftool (the metadata oracle) reads back from the files:

- precision@10: answers among the first 10 results, over min(10, number of answers);
- recall: answers among all results, over the number of answers.

Prints a Markdown table per kind of query, then every query that missed something and what.
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile

PHOTOS, CORPUS = sys.argv[1], sys.argv[2]
EXTRA = sys.argv[3:]


def run(*arguments, check=True):
    return subprocess.run(list(arguments), check=check, capture_output=True, text=True)


def photos(*arguments):
    return run(PHOTOS, *arguments, "--library", LIBRARY, *EXTRA).stdout


def exiftool(path, *tags):
    run("exiftool", "-q", "-overwrite_original", "-codedcharacterset=utf8", *tags, path)


def draw(path, lines, size="1600x900", background="color=white", turn=0.0, blur=0.0, fontsize=64):
    """A picture of `lines` of text: a screenshot (white, straight) or a photo of text."""
    filters = []
    for index, line in enumerate(lines):
        filters.append(f"drawtext=text='{line}':fontsize={fontsize}:fontcolor=black:x=60:y={80 + index * int(fontsize * 1.6)}")
    if turn:
        filters.append(f"rotate={turn}*PI/180:fillcolor=white")
    if blur:
        filters.append(f"gblur=sigma={blur}")
    source = ["-f", "lavfi", "-i", f"{background}:s={size}"] if background.startswith("color") else ["-i", background]
    run("ffmpeg", "-y", "-hide_banner", "-loglevel", "error", *source, "-vf", ",".join(filters), "-frames:v", "1", path)


WORK = tempfile.mkdtemp(prefix="search-relevance-")
LIBRARY = os.path.join(WORK, "Library.photoslibrary")
SET = os.path.join(WORK, "set")
os.makedirs(SET)

# The real photos, renamed to short names (their answers are written below).
sources = sorted(name for name in os.listdir(CORPUS) if name.lower().endswith((".jpg", ".jpeg", ".png")) and not name.startswith("_"))
files = []
for index, name in enumerate(sources):
    extension = os.path.splitext(name)[1].lower()
    target = os.path.join(SET, f"photo_{index:03d}{extension}")
    shutil.copy(os.path.join(CORPUS, name), target)
    files.append(target)
jpegs = [f for f in files if f.endswith((".jpg", ".jpeg"))]

# Words about photos.
about = {
    "lighthouse": ["-XMP-dc:Subject=lighthouse", "-XMP-dc:Subject=coast"],
    "birthday": ["-XMP-dc:Title=Grandma's 90th birthday", "-XMP-dc:Description=Cake and candles in the garden"],
    "receipt": ["-IPTC:Keywords=receipt", "-IPTC:Caption-Abstract=Garage receipt for the brakes"],
    "wedding": ["-XMP-lr:HierarchicalSubject=Events|Family|Wedding", "-XMP-dc:Subject=Wedding"],
}
for offset, (word, tags) in enumerate(about.items()):
    for path in jpegs[offset * 3:offset * 3 + 3]:
        exiftool(path, *tags)

# Places: positions of known towns on other photos.
places = {"lisbon": (38.7223, -9.1393), "paris": (48.8584, 2.2945), "kyoto": (35.0116, 135.7681)}
for offset, (town, (lat, lon)) in enumerate(places.items()):
    for path in jpegs[12 + offset * 3:12 + offset * 3 + 3]:
        exiftool(path, f"-GPSLatitude={abs(lat)}", f"-GPSLatitudeRef={'N' if lat >= 0 else 'S'}",
                 f"-GPSLongitude={abs(lon)}", f"-GPSLongitudeRef={'E' if lon >= 0 else 'W'}")

# Dates: a few photos moved to known days (the rest keep theirs: exiftool reads all back).
for path, date in zip(jpegs[21:29], ["2019:06:14 10:00:00", "2019:06:30 18:00:00", "2019:12:24 20:00:00", "2020:01:02 09:00:00",
                                     "2020:07:04 12:00:00", "2020:08:15 16:00:00", "2021:03:01 08:00:00", "2021:10:31 21:00:00"]):
    exiftool(path, f"-DateTimeOriginal={date}", f"-CreateDate={date}")

# Camera-style names.
named = {}
for path, name in zip(jpegs[29:33], ["IMG_2041.jpg", "IMG_2042.jpg", "DSC01234.jpg", "PXL_20230521_101010.jpg"]):
    target = os.path.join(SET, name)
    os.rename(path, target)
    named[name] = target

# Screenshots and photos of text.
texts = os.path.join(SET, "texts")
os.makedirs(texts)
screens = {
    "Screenshot 2024-03-02 at 10.15.00.png": ["Boarding pass", "Flight TP 1351 to Lisbon", "Gate 14  Seat 22A"],
    "Screenshot 2024-05-11 at 09.00.00.png": ["Order confirmation", "Three tickets for the Rolling Stones"],
    "Screenshot 2024-06-20 at 18.30.00.png": ["Wifi password", "swordfish-42"],
    "Screenshot 2024-07-01 at 12.00.00.png": ["Meeting notes", "budget review quarterly"],
}
for name, lines in screens.items():
    draw(os.path.join(texts, name), lines)
snaps = {
    "whiteboard.jpg": (["Sprint planning", "Retrospective Friday"], 1.5, 0.8),
    "menu.jpg": (["Grilled sardines", "Custard tarts"], -2.0, 0.6),
    "sign.jpg": (["Zanzibar harbour", "No parking"], 3.0, 1.0),
    "label.jpg": (["Olive oil", "Extra virgin"], 0.0, 1.2),
}
for name, (lines, turn, blur) in snaps.items():
    draw(os.path.join(texts, name), lines, size="1600x1000", turn=turn, blur=blur, fontsize=72)

# What exiftool (the oracle) reads back from every file: the answers of time and camera queries.
listed = json.loads(run("exiftool", "-json", "-r", "-n", "-Make", "-DateTimeOriginal", "-CreateDate", SET).stdout)
meta = {os.path.basename(item["SourceFile"]): item for item in listed}

photos("import", SET)
print(photos("cache", "warm", "--text").strip().splitlines()[-1], file=sys.stderr)
# Identifier -> file name.
names = {}
for asset in json.loads(photos("ls", "--json")):
    info = json.loads(photos("info", asset["localIdentifier"], "--json"))
    names[asset["localIdentifier"]] = (info.get("resources") or [{}])[0].get("originalFilename", "")


def base(path):
    return os.path.basename(path)


def dated(year=None, months=None):
    found = set()
    for name, item in meta.items():
        date = str(item.get("DateTimeOriginal") or item.get("CreateDate") or "")
        if len(date) < 7 or not date[:4].isdigit():
            continue
        if year and int(date[:4]) != year:
            continue
        if months and int(date[5:7]) not in months:
            continue
        found.add(name)
    return found


queries = [
    ("words about photos", "lighthouse", {base(p) for p in jpegs[0:3]}),
    ("words about photos", "coast", {base(p) for p in jpegs[0:3]}),
    ("words about photos", "birthday", {base(p) for p in jpegs[3:6]}),
    ("words about photos", "grandma garden", {base(p) for p in jpegs[3:6]}),
    ("words about photos", "receipt", {base(p) for p in jpegs[6:9]}),
    ("words about photos", "brakes", {base(p) for p in jpegs[6:9]}),
    ("words about photos", "wedding", {base(p) for p in jpegs[9:12]}),
    ("words about photos", "family", {base(p) for p in jpegs[9:12]}),
    ("places", "lisbon", {base(p) for p in jpegs[12:15]} | {"Screenshot 2024-03-02 at 10.15.00.png"}),
    ("places", "paris", {base(p) for p in jpegs[15:18]}),
    ("places", "kyoto", {base(p) for p in jpegs[18:21]}),
    ("places", "portugal", {base(p) for p in jpegs[12:15]}),
    ("places", "japan", {base(p) for p in jpegs[18:21]}),
    ("time", "2019", dated(2019)),
    ("time", "june 2019", dated(2019, {6})),
    ("time", "summer 2020", dated(2020, {6, 7, 8})),
    ("time", "december", dated(None, {12})),
    ("file names", "IMG_2041", {"IMG_2041.jpg"}),
    ("file names", "PXL_20230521", {"PXL_20230521_101010.jpg"}),
    ("file names", "dsc01234", {"DSC01234.jpg"}),
    ("camera", "canon", {n for n, m in meta.items() if "canon" in str(m.get("Make", "")).lower()}),
    ("camera", "apple", {n for n, m in meta.items() if "apple" in str(m.get("Make", "")).lower()}),
    ("words in photos", "boarding pass", {"Screenshot 2024-03-02 at 10.15.00.png"}),
    ("words in photos", "rolling stones", {"Screenshot 2024-05-11 at 09.00.00.png"}),
    ("words in photos", "swordfish", {"Screenshot 2024-06-20 at 18.30.00.png"}),
    ("words in photos", "budget review", {"Screenshot 2024-07-01 at 12.00.00.png"}),
    ("words in photos", "sprint planning", {"whiteboard.jpg"}),
    ("words in photos", "sardines", {"menu.jpg"}),
    ("words in photos", "zanzibar", {"sign.jpg"}),
    ("words in photos", "olive oil", {"label.jpg"}),
    ("kinds", "screenshots", set(screens)),
]

by_kind = {}
misses = []
for kind, query, answers in queries:
    if not answers:
        continue
    found = [names.get(a["localIdentifier"], "?") for a in json.loads(photos("search", query, "--json"))]
    top = found[:10]
    precision = len([n for n in top if n in answers]) / min(10, len(answers))
    recall = len([n for n in found if n in answers]) / len(answers)
    by_kind.setdefault(kind, []).append((precision, recall, len(answers)))
    missing = sorted(answers - set(found))
    extra = [n for n in top if n not in answers]
    if missing or extra:
        misses.append((kind, query, missing, extra))

print("| Kind of query | Queries | Answers | precision@10 | recall |")
print("| --- | ---: | ---: | ---: | ---: |")
for kind, rows in by_kind.items():
    print(f"| {kind} | {len(rows)} | {sum(r[2] for r in rows)} | {sum(r[0] for r in rows) / len(rows):.2f} | {sum(r[1] for r in rows) / len(rows):.2f} |")
print()
for kind, query, missing, extra in misses:
    print(f"- {kind} `{query}`: missed {missing or 'nothing'}; not answers in the first 10: {extra or 'none'}")
shutil.rmtree(WORK, ignore_errors=True)
