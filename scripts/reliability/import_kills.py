"""kill -9 during `photos import`, then: is the library whole, and does importing again give
exactly the photos a run without a kill gives?

Each trial imports one batch of real photos (from .fixtures/ and .corpus/: JPEG, PNG, GIF,
HEIC, RAW, MP4/MOV, with byte-identical copies among them) into a fresh library, in one of three
modes (copy; copy with grid thumbnails; in place), and sends SIGKILL to the process group at a
random moment within the import's measured duration. Some trials kill the resumed import too
before letting a third run finish. After the kill(s):

1. `PRAGMA integrity_check` and `PRAGMA foreign_key_check` (Python's sqlite3, read-only);
2. `photos check --contents`: a row without its file, a file of the wrong size or bytes, an
   asset without a file is a broken promise; files no row names (staging in tmp/ of the dead
   process, an original moved in by a transaction that never committed) are leftovers, which
   `photos check --repair` must clear so a second check passes;
3. `photos ls` lists exactly the assets the database holds (bursts by their representative;
   no silent empty library);
4. every asset renders: `photos cache warm` makes every missing grid thumbnail (exit 0), every
   thumbnail on disk is a whole JPEG, and `photos thumbnail` renders two assets at random;
5. `photos import` of the same batch completes with the reference run's failures, and the
   library then holds exactly the reference run's photos, each once (same content hashes),
   and checks clean.
"""

import json
import os
import time

from harness import (Database, HarnessError, Photos, check_library, fresh_folder, kill_hard, leftover_place, log,
                     media_files, percentile, seeded)

MODES = {
    "copy": [],
    "copy+thumbnails": ["--thumbnails"],
    "in-place": ["--in-place"],
}


def batch(fixtures, corpus, corpus_limit_bytes=3 << 20, corpus_count=26):
    """Every fixture photo, and up to 26 of the corpus's media of at most 3 MiB: the smallest
    of each extension, then a spread over the rest by size."""
    files = media_files(fixtures)
    candidates = [path for path in media_files(corpus) if os.path.getsize(path) <= corpus_limit_bytes
                  and os.path.dirname(path) == os.path.realpath(corpus)]
    by_extension = {}
    for path in sorted(candidates, key=os.path.getsize):
        by_extension.setdefault(os.path.splitext(path)[1].lower(), []).append(path)
    chosen = [paths[0] for paths in by_extension.values()]
    rest = [path for path in sorted(candidates, key=os.path.getsize) if path not in chosen]
    step = max(1, len(rest) // max(1, corpus_count - len(chosen)))
    chosen += rest[::step]
    return files + sorted(chosen[:corpus_count])


def variants(fixtures, folder, count):
    """`count` distinct real photos made from the fixture JPEGs: each copy gets a JPEG comment
    segment (COM) naming it right after its start marker, so its bytes (and content hash)
    differ and the importer takes it as a new photo. Enough of them make an import commit in
    several transactions (64 assets each), so a kill can land between two commits."""
    sources = [path for path in media_files(fixtures) if path.lower().endswith(".jpg")]
    fresh_folder(folder)
    made = []
    for number in range(count):
        source = sources[number % len(sources)]
        with open(source, "rb") as handle:
            data = handle.read()
        if data[:2] != b"\xff\xd8":
            continue
        comment = f"reliability variant {number}".encode()
        segment = b"\xff\xfe" + (len(comment) + 2).to_bytes(2, "big") + comment
        path = os.path.join(folder, f"variant-{number:03d}-{os.path.basename(source)}")
        with open(path, "wb") as handle:
            handle.write(data[:2] + segment + data[2:])
        made.append(path)
    return made


def renderable(binary, work, files):
    """The files whose assets render, and those the importer takes but can't render (a
    malformed-input finding, not a crash-consistency one: left out of the batch)."""
    library = fresh_folder(os.path.join(work, "screen"))
    photos = Photos(binary, library)
    summary = json.loads(photos.run("import", "--json", *files, check=False).stdout)
    unrenderable = []
    for item in summary["items"]:
        if item["outcome"] != "imported":
            continue
        output = os.path.join(work, "screen.jpg")
        shown = photos.run("thumbnail", item["localIdentifier"], "--size", "256x256", "-o", output, check=False)
        if shown.returncode != 0:
            unrenderable += item["files"]
    keep = [path for path in files if path not in unrenderable]
    return keep, unrenderable


def reference(binary, work, files, mode):
    """An import that runs to its end: the photos and failures every trial must end with."""
    library = fresh_folder(os.path.join(work, f"reference-{mode}"))
    photos = Photos(binary, library)
    start = time.monotonic()
    done = photos.run("import", "--json", *MODES[mode], *files, check=False)
    seconds = time.monotonic() - start
    summary = json.loads(done.stdout)
    with Database(library) as database:
        contents = database.asset_contents()
    return {"contents": contents, "failed": summary["failed"], "status": done.returncode, "seconds": seconds,
            "imported": summary["imported"], "duplicates": summary["duplicates"]}


def derivatives_whole(library):
    """Thumbnails on disk that are not whole JPEG files (start and end markers)."""
    bad = []
    for folder, _, names in os.walk(os.path.join(library, "derivatives")):
        for name in names:
            if not name.endswith(".jpg"):
                continue
            with open(os.path.join(folder, name), "rb") as handle:
                head = handle.read(3)
                handle.seek(-2, os.SEEK_END)
                tail = handle.read(2)
            if head != b"\xff\xd8\xff" or tail != b"\xff\xd9":
                bad.append(name)
    return bad


def trial(binary, work, number, files, mode, expected, rng):
    library = fresh_folder(os.path.join(work, "trial"))
    photos = Photos(binary, library)
    findings = []
    kills = []
    # One kill, or (one trial in four) a second kill during the resumed import.
    for attempt in range(2 if rng.random() < 0.25 else 1):
        delay = rng.uniform(0.0, expected["seconds"])
        process = photos.start("import", "--quiet", *MODES[mode], *files)
        try:
            process.wait(timeout=delay)
        except Exception:
            pass
        kills.append({"delay": round(delay, 3), "running": kill_hard(process)})

    # A kill before the database file exists leaves a folder the next command creates it in.
    stored = listable = 0
    if os.path.exists(Database(library).path):
        with Database(library) as database:
            findings += [f"integrity: {problem}" for problem in database.integrity()]
            # Before the first migration committed there are no tables yet.
            if database.rows("SELECT 1 FROM sqlite_master WHERE name = 'asset'"):
                stored = database.rows("SELECT COUNT(*) FROM asset WHERE trashedDate IS NULL")[0][0]
                # `photos ls` shows a burst by its representative, as PhotoKit's fetches do.
                listable = database.rows(
                    "SELECT COUNT(*) FROM asset WHERE trashedDate IS NULL AND isHidden = 0 "
                    "AND (burstIdentifier IS NULL OR representsBurst = 1)")[0][0]

    check = check_library(photos)
    findings += [f"check: {p['kind']}: {p['detail']}" for p in check["broken"]]

    listed = json.loads(photos.run("ls", "--json").stdout)
    if len(listed) != listable:
        findings.append(f"ls lists {len(listed)} assets, the database holds {listable} to list")

    warm = photos.run("cache", "warm", check=False)
    if warm.returncode != 0:
        findings.append(f"cache warm exited {warm.returncode}: {warm.stdout.strip()} {warm.stderr.strip()[-300:]}")
    findings += [f"thumbnail not a whole JPEG: {name}" for name in derivatives_whole(library)]
    for asset in rng.sample(listed, min(2, len(listed))):
        if asset["mediaType"] == "video":
            continue
        output = os.path.join(work, "thumbnail.jpg")
        shown = photos.run("thumbnail", asset["localIdentifier"], "--size", "256x256", "-o", output, check=False)
        if shown.returncode != 0:
            findings.append(f"thumbnail of {asset['localIdentifier']}: {shown.stderr.strip()}")

    again = photos.run("import", "--json", *MODES[mode], *files, check=False)
    summary = json.loads(again.stdout) if again.stdout.strip() else {}
    if summary.get("failed") != expected["failed"] or again.returncode != expected["status"]:
        findings.append(f"re-import: exit {again.returncode}, {summary.get('failed')} failed; "
                        f"the reference run: exit {expected['status']}, {expected['failed']} failed")
    with Database(library) as database:
        contents = database.asset_contents()
    if contents != expected["contents"]:
        missing = len(set(expected["contents"]) - set(contents))
        extra = len(contents) - len(set(contents))
        findings.append(f"after re-import {len(contents)} assets, expected {len(expected['contents'])} "
                        f"({missing} missing, {extra} duplicated)")
    final = check_library(photos, repair=False)
    findings += [f"final check: {p['kind']}: {p['detail']}" for p in final["broken"] + final["leftovers"]]

    return {"number": number, "mode": mode, "kills": kills, "assetsAtKill": stored,
            "leftovers": sorted({leftover_place(p) for p in check["leftovers"]}),
            "leftoverFiles": len(check["leftovers"]), "findings": findings}


def run(binary, work, fixtures, corpus, trials, seed):
    rng = seeded("import", seed)
    files, unrenderable = renderable(binary, work, batch(fixtures, corpus) + variants(fixtures, os.path.join(work, "variants"), 90))
    if len(files) < 10:
        raise HarnessError(f"only {len(files)} photos under {fixtures} and {corpus}: run `make fixtures`")
    for path in unrenderable:
        log(f"  left out (imported, but no image can be made of it): {path}")
    log(f"import kills: {trials} trials, a batch of {len(files)} files (90 of them fixture variants) "
        f"({sum(os.path.getsize(f) for f in files) / 1e6:.1f} MB)")
    references = {mode: reference(binary, work, files, mode) for mode in MODES}
    for mode, expected in references.items():
        log(f"  reference {mode}: {expected['imported']} imported, {expected['duplicates']} duplicates, "
            f"{expected['failed']} failed in {expected['seconds']:.2f} s")
    results = []
    start = time.monotonic()
    modes = list(MODES)
    for number in range(trials):
        mode = modes[number % len(modes)]
        result = trial(binary, work, number, files, mode, references[mode], rng)
        results.append(result)
        if result["findings"]:
            log(f"  trial {number} ({mode}, kills {result['kills']}): INCONSISTENT")
            for finding in result["findings"]:
                log(f"    {finding}")
        elif number % 10 == 9:
            log(f"  {number + 1} trials, {time.monotonic() - start:.0f} s")
    return summarize(results, references, files, unrenderable, time.monotonic() - start)


def summarize(results, references, files, unrenderable, seconds):
    kills = [kill for result in results for kill in result["kills"]]
    leftovers = {}
    for result in results:
        for place in result["leftovers"]:
            leftovers[place] = leftovers.get(place, 0) + 1
    return {
        "trials": len(results),
        "kills": len(kills),
        "killsWhileRunning": sum(kill["running"] for kill in kills),
        "inconsistent": sum(1 for result in results if result["findings"]),
        "broken": sum(1 for result in results if result["findings"]),
        "byMode": {mode: sum(1 for r in results if r["mode"] == mode) for mode in references},
        "killedMidway": sum(1 for r in results if 0 < r["assetsAtKill"] < len(references[r["mode"]]["contents"])),
        "killedBeforeFirstCommit": sum(1 for r in results if r["assetsAtKill"] == 0),
        "trialsWithLeftovers": sum(1 for r in results if r["leftovers"]),
        "leftoversByPlace": leftovers,
        "files": len(files),
        "leftOutUnrenderable": [os.path.basename(path) for path in unrenderable],
        "megabytes": round(sum(os.path.getsize(f) for f in files) / 1e6, 1),
        "referenceSeconds": {mode: round(r["seconds"], 2) for mode, r in references.items()},
        "referenceAssets": {mode: len(r["contents"]) for mode, r in references.items()},
        "medianKillDelay": round(percentile([k["delay"] for k in kills], 0.5), 3),
        "seconds": round(seconds),
        "findings": [{"trial": r["number"], "mode": r["mode"], "kills": r["kills"], "findings": r["findings"]}
                     for r in results if r["findings"]],
    }
