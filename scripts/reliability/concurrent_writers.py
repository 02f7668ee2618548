"""Several writer processes on one library at once: no update lost, none refused as "locked".

Each round starts from a fresh library of real photos (fixture variants) with an album "Shared"
and one album per writer. N writers (threads, each running `photos` commands one after another,
so N processes write at any moment) make M changes each, in a seeded order:

  - `album add Shared ASSET` of assets no other writer touches (one album, many writers);
  - `favorite` / `unfavorite` of the writer's own assets;
  - `album rename` of the writer's album (its last title must stay);
  - `album create` of new albums;
  - `edit --rotate 90` of the writer's own photos (a render and rows per change).

Meanwhile a `photos import` of 30 other photos runs. Afterwards the library must hold exactly
what all changes together make: every asset added to Shared, each asset's last favorite
value, each writer's last album title, every created album, every edit (pixel sizes turned),
all 30 imported photos; every command exits 0 and none says "database is locked" or "busy".
"""

import os
import threading
import time

from harness import Database, HarnessError, Photos, check_library, fresh_folder, log, seeded
from import_kills import variants


def writer_plan(rng, writer, assets, changes, album):
    """A writer's commands, and what they leave: {favorite: {uuid: bool}, shared: set,
    title: str, created: [titles], turns: {uuid: count}}."""
    commands = []
    expected = {"favorite": {}, "shared": set(), "title": album, "created": [], "turns": {}}
    to_share = list(assets)
    rng.shuffle(to_share)
    current = album
    for number in range(changes):
        kind = rng.choices(["share", "favorite", "rename", "create", "edit"], weights=[4, 4, 2, 1, 1])[0]
        if kind == "share" and to_share:
            asset = to_share.pop()
            commands.append(["album", "add", "Shared", asset])
            expected["shared"].add(asset)
        elif kind == "rename":
            title = f"Writer {writer} title {number}"
            commands.append(["album", "rename", current, title])
            current = title
            expected["title"] = title
        elif kind == "create":
            title = f"Writer {writer} album {number}"
            commands.append(["album", "create", title])
            expected["created"].append(title)
        elif kind == "edit":
            asset = rng.choice(assets)
            commands.append(["edit", asset, "--rotate", "90"])
            expected["turns"][asset] = expected["turns"].get(asset, 0) + 1
        else:
            asset = rng.choice(assets)
            value = rng.random() < 0.6
            commands.append(["favorite" if value else "unfavorite", asset])
            expected["favorite"][asset] = value
    return commands, expected


def one_round(binary, work, fixtures, writers, changes, rng, number):
    library = fresh_folder(os.path.join(work, f"round-{number}"))
    photos = Photos(binary, library)
    pictures = variants(fixtures, os.path.join(work, "variants"), 20 * writers + 30)
    photos.run("import", "--quiet", *pictures[:20 * writers])
    extra = pictures[20 * writers:]
    with Database(library) as database:
        rows = database.rows("SELECT uuid, pixelWidth, pixelHeight FROM asset ORDER BY uuid")
    uuids = [row[0] for row in rows]
    sizes = {row[0]: (row[1], row[2]) for row in rows}
    photos.run("album", "create", "Shared")
    plans = []
    for writer in range(writers):
        album = f"Writer {writer}"
        photos.run("album", "create", album)
        own = uuids[writer::writers]
        plans.append(writer_plan(rng, writer, own, changes, album))

    failures = []
    durations = []
    lock = threading.Lock()

    def work_through(commands):
        for command in commands:
            start = time.monotonic()
            done = photos.run(*command, check=False)
            with lock:
                durations.append(time.monotonic() - start)
                if done.returncode != 0:
                    failures.append({"command": command, "status": done.returncode, "stderr": done.stderr.strip()[-300:]})

    threads = [threading.Thread(target=work_through, args=(commands,)) for commands, _ in plans]
    importer = threading.Thread(target=work_through, args=([["import", "--quiet", *extra]],))
    start = time.monotonic()
    for thread in threads + [importer]:
        thread.start()
    for thread in threads + [importer]:
        thread.join()
    seconds = time.monotonic() - start

    lost = []
    with Database(library) as database:
        favorite = dict(database.rows("SELECT uuid, isFavorite FROM asset"))
        shared = {row[0] for row in database.rows(
            "SELECT a.uuid FROM albumAsset m JOIN asset a ON a.id = m.assetID JOIN collection c ON c.id = m.albumID "
            "WHERE c.title = 'Shared'")}
        titles = [row[0] for row in database.rows("SELECT title FROM collection WHERE isList = 0 AND type = 1")]
        now = {row[0]: (row[1], row[2]) for row in database.rows("SELECT uuid, pixelWidth, pixelHeight FROM asset")}
        integrity = database.integrity()
    for _, expected in plans:
        for asset, value in expected["favorite"].items():
            if bool(favorite[asset]) != value:
                lost.append(f"favorite of {asset}: {bool(favorite[asset])}, the last change set {value}")
        lost += [f"{asset} not in Shared" for asset in expected["shared"] - shared]
        if expected["title"] not in titles:
            lost.append(f"album title {expected['title']!r} missing")
        lost += [f"created album {title!r} missing" for title in expected["created"] if title not in titles]
        for asset, turns in expected["turns"].items():
            width, height = sizes[asset]
            want = (height, width) if turns % 2 else (width, height)
            if now[asset] != want:
                lost.append(f"{asset} is {now[asset]} after {turns} quarter turns of {sizes[asset]}")
    extra_shared = shared - set().union(*(expected["shared"] for _, expected in plans))
    lost += [f"{asset} in Shared, added by no one" for asset in extra_shared]
    imported = len(now) - len(uuids)
    if imported != len(extra):
        lost.append(f"the concurrent import added {imported} photos, not {len(extra)}")
    check = check_library(photos, repair=False)
    broken = integrity + [f"{p['kind']}: {p['detail']}" for p in check["broken"] + check["leftovers"]]
    return {
        "changes": sum(len(commands) for commands, _ in plans) + 1,
        "failures": failures,
        "locked": sum(1 for f in failures if "locked" in f["stderr"].lower() or "busy" in f["stderr"].lower()),
        "lost": lost,
        "broken": broken,
        "seconds": seconds,
        "slowestCommand": max(durations) if durations else 0,
    }


def run(binary, work, fixtures, writers, changes, rounds, seed):
    rng = seeded("writers", seed)
    log(f"concurrent writers: {rounds} rounds of {writers} writers x {changes} changes, and an import of 30 photos")
    results = []
    for number in range(rounds):
        result = one_round(binary, work, fixtures, writers, changes, rng, number)
        results.append(result)
        log(f"  round {number}: {result['changes']} commands in {result['seconds']:.1f} s, "
            f"{len(result['failures'])} failed, {len(result['lost'])} lost updates, slowest {result['slowestCommand']:.2f} s")
        for failure in result["failures"][:5]:
            log(f"    failed: photos {' '.join(failure['command'][:4])}: {failure['stderr']}")
        for line in (result["lost"] + result["broken"])[:10]:
            log(f"    {line}")
    if not results:
        raise HarnessError("no rounds")
    return {
        "rounds": rounds,
        "writers": writers,
        "changes": sum(r["changes"] for r in results),
        "failedCommands": sum(len(r["failures"]) for r in results),
        "locked": sum(r["locked"] for r in results),
        "lostUpdates": sum(len(r["lost"]) for r in results),
        "broken": sum(len(r["failures"]) + len(r["lost"]) + len(r["broken"]) for r in results),
        "slowestCommandSeconds": round(max(r["slowestCommand"] for r in results), 2),
        "seconds": round(sum(r["seconds"] for r in results)),
        "details": [{k: v for k, v in r.items() if k in ("failures", "lost", "broken")} for r in results
                    if r["failures"] or r["lost"] or r["broken"]],
    }
