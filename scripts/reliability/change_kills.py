"""kill -9 during CLI change blocks: each block must be applied whole or not at all.

One library of real photos (copied in) lives through all trials. Each trial picks a command
that performs one change block touching many objects, so that a part of it would show:
`favorite`/`unfavorite`/`hide`/`unhide` of 5-20 assets, `album add`/`album remove` of 5-20
assets, `album create --folder` (an album and its new folder), `album rename`, `album delete`,
`delete` of 5-20 assets (to Recently Deleted), `recover`, `delete --permanently` (rows and
files), `edit` (a render moved in with its rows) and `revert` of several edited photos.

The command first runs to its end on a copy of the library: that gives the state after the
block and the command's duration. Then it runs on the library and gets SIGKILL at a random
moment within 20-100 % of that duration. The library's state (assets' flags, trash, edits and
sizes; albums, their folders and members; read with sqlite3) must then equal the state before
or the state after, exactly; `PRAGMA integrity_check`, `photos check --contents` (leftover
files only, cleared by --repair) must pass.
"""

import os
import shutil
import time

from harness import Database, HarnessError, Photos, check_library, fresh_folder, kill_hard, leftover_place, log, seeded
from import_kills import variants


def snapshot(library):
    """What a change block can change, keyed by what survives a copy of the library (asset
    UUIDs; album and folder titles, which the trials keep unique)."""
    with Database(library) as database:
        assets = {row[0]: tuple(row[1:]) for row in database.rows(
            "SELECT uuid, isFavorite, isHidden, trashedDate IS NOT NULL, hasAdjustments, pixelWidth, pixelHeight, "
            "(SELECT COUNT(*) FROM resource WHERE resource.assetID = asset.id) FROM asset")}
        folders = {row[0]: row[1] for row in database.rows(
            "SELECT c.title, p.title FROM collection c LEFT JOIN collection p ON p.id = c.parentID "
            "WHERE c.isList = 1 AND c.type = 2")}
        albums = {}
        for title, parent, members in database.rows(
                "SELECT c.title, p.title, (SELECT group_concat(a.uuid) FROM albumAsset m JOIN asset a ON a.id = m.assetID "
                "WHERE m.albumID = c.id) FROM collection c LEFT JOIN collection p ON p.id = c.parentID "
                "WHERE c.isList = 0 AND c.type = 1"):
            albums[title] = (parent, frozenset((members or "").split(",")) - {""})
    return {"assets": assets, "albums": albums, "folders": folders}


def describe_difference(before, after, observed):
    """Which objects match neither the state before nor the state after."""
    lines = []
    for part in ("assets", "albums", "folders"):
        keys = set(before[part]) | set(after[part]) | set(observed[part])
        for key in sorted(keys, key=str):
            seen = observed[part].get(key)
            if seen != before[part].get(key) and seen != after[part].get(key):
                lines.append(f"{part} {key}: before {before[part].get(key)}, after {after[part].get(key)}, found {seen}")
    changed_before = sum(1 for p in ("assets", "albums", "folders") for k in set(before[p]) | set(observed[p])
                         if before[p].get(k) != observed[p].get(k))
    changed_after = sum(1 for p in ("assets", "albums", "folders") for k in set(after[p]) | set(observed[p])
                        if after[p].get(k) != observed[p].get(k))
    lines.append(f"{changed_before} objects differ from before the block, {changed_after} from after it")
    return lines


class Plans:
    """Chooses a command whose block changes several objects, from the library's state."""

    def __init__(self, rng):
        self.rng = rng
        self.counter = 0

    def pick(self, state, kind):
        """Assets (UUIDs) of the library that fit `kind`."""
        assets = state["assets"]
        live = [u for u, a in assets.items() if not a[2]]
        return {
            "favorite": [u for u in live if not assets[u][0]],
            "unfavorite": [u for u in live if assets[u][0]],
            "hide": [u for u in live if not assets[u][1]],
            "unhide": [u for u in live if assets[u][1]],
            "delete": live,
            "recover": [u for u, a in assets.items() if a[2]],
            "purge": [u for u, a in assets.items() if a[2]],
            "edit": [u for u in live if assets[u][4] is not None],
            "revert": [u for u in live if assets[u][3]],
        }[kind]

    def some(self, candidates, low=5, high=20):
        count = min(len(candidates), self.rng.randint(low, high))
        return sorted(self.rng.sample(candidates, count))

    def next(self, state):
        """(kind, arguments) of a command with a visible effect, or None when none fits now."""
        self.counter += 1
        kinds = ["favorite", "unfavorite", "hide", "unhide", "add", "remove", "create", "rename", "albumDelete",
                 "delete", "recover", "purge", "edit", "revert"]
        for kind in self.rng.sample(kinds, len(kinds)):
            arguments = self.arguments(state, kind)
            if arguments:
                return kind, arguments
        return None

    def arguments(self, state, kind):
        albums = sorted(state["albums"])
        if kind in ("favorite", "unfavorite", "hide", "unhide", "recover", "revert"):
            chosen = self.pick(state, kind)
            return [kind, *self.some(chosen, low=2)] if len(chosen) >= 2 else None
        if kind == "delete":
            chosen = self.pick(state, "delete")
            return ["delete", *self.some(chosen)] if len(chosen) > 25 else None
        if kind == "purge":
            chosen = self.pick(state, "purge")
            return ["delete", "--permanently", *self.some(chosen, low=2, high=8)] if len(chosen) >= 2 else None
        if kind == "edit":
            chosen = self.pick(state, "edit")
            if not chosen:
                return None
            exposure = self.rng.choice(["0.3", "-0.4", "0.7"])
            return ["edit", self.rng.choice(chosen), "--rotate", "90", f"--exposure={exposure}"]
        if kind == "create":
            return ["album", "create", f"Album {self.counter}", "--folder", f"Folder {self.counter}"]
        if not albums:
            return None
        album = self.rng.choice(albums)
        members = state["albums"][album][1]
        if kind == "add":
            outside = [u for u, a in state["assets"].items() if not a[2] and u not in members]
            return ["album", "add", album, *self.some(outside)] if len(outside) >= 2 else None
        if kind == "remove":
            # Assets in Recently Deleted are not found by the CLI (nor by PhotoKit's fetches).
            present = sorted(u for u in members if not state["assets"][u][2])
            return ["album", "remove", album, *self.some(present, low=2)] if len(present) >= 2 else None
        if kind == "rename":
            return ["album", "rename", album, f"Renamed {self.counter}"]
        if kind == "albumDelete":
            return ["album", "delete", album] if len(albums) > 3 else None
        return None


def base_library(binary, work, fixtures):
    library = fresh_folder(os.path.join(work, "library"))
    files = [path for path in variants(fixtures, os.path.join(work, "variants"), 400) if path]
    photos = Photos(binary, library)
    photos.run("import", "--quiet", *files[:60])
    return library, photos, files[60:]


def run(binary, work, fixtures, trials, seed):
    rng = seeded("changes", seed)
    library, photos, spare = base_library(binary, work, fixtures)
    copy = os.path.join(work, "copy")
    plans = Plans(rng)
    outcomes = {"applied": 0, "notApplied": 0, "partial": 0}
    by_kind = {}
    findings = []
    leftovers = {}
    kills_running = 0
    wal_written_not_applied = 0
    skipped = []
    inconsistent = 0
    log(f"change-block kills: {trials} trials on a library of {len(snapshot(library)['assets'])} photos")
    start = time.monotonic()
    for number in range(trials):
        before = snapshot(library)
        if sum(1 for a in before["assets"].values() if not a[2]) < 30 and spare:
            photos.run("import", "--quiet", *spare[:30])
            spare = spare[30:]
            before = snapshot(library)
        planned = plans.next(before)
        if planned is None:
            raise HarnessError("no change fits the library's state")
        kind, arguments = planned

        # The block run to its end on a copy: the state after it, and how long the command takes.
        shutil.rmtree(copy, ignore_errors=True)
        shutil.copytree(library, copy, symlinks=True)
        reference_start = time.monotonic()
        done = Photos(binary, copy).run(*arguments, check=False)
        duration = time.monotonic() - reference_start
        if done.returncode != 0:
            # The harness chose a command the CLI refuses: a harness mistake, not a finding.
            skipped.append({"command": arguments, "stderr": done.stderr.strip()[-300:]})
            log(f"  trial {number}: skipped, photos {' '.join(arguments[:3])} refused: {done.stderr.strip()[-200:]}")
            continue
        after = snapshot(copy)
        if after == before:
            raise HarnessError(f"photos {' '.join(arguments)} changed nothing; the trial could not see a partial block")

        wal = os.path.join(library, "database", "Photos.sqlite-wal")
        wal_before = os.stat(wal).st_mtime_ns if os.path.exists(wal) else None
        delay = rng.uniform(0.2, 1.0) * duration
        process = photos.start(*arguments)
        try:
            process.wait(timeout=delay)
        except Exception:
            pass
        running = kill_hard(process)
        kills_running += running
        wal_after = os.stat(wal).st_mtime_ns if os.path.exists(wal) else None

        trial_findings = []
        with Database(library) as database:
            trial_findings += [f"integrity: {problem}" for problem in database.integrity()]
        observed = snapshot(library)
        if observed == after:
            outcome = "applied"
        elif observed == before:
            outcome = "notApplied"
            wal_written_not_applied += wal_after != wal_before
        else:
            outcome = "partial"
            trial_findings += describe_difference(before, after, observed)
        outcomes[outcome] += 1
        counts = by_kind.setdefault(kind, {"applied": 0, "notApplied": 0, "partial": 0})
        counts[outcome] += 1

        check = check_library(photos)
        trial_findings += [f"check: {p['kind']}: {p['detail']}" for p in check["broken"]]
        inconsistent += any(f.startswith(("integrity:", "check:")) for f in trial_findings)
        for problem in check["leftovers"]:
            place = leftover_place(problem)
            leftovers[place] = leftovers.get(place, 0) + 1
        if trial_findings:
            findings.append({"trial": number, "command": arguments, "delay": round(delay, 3), "findings": trial_findings})
            log(f"  trial {number} (photos {' '.join(arguments[:3])} …, killed after {delay:.2f} s): BROKEN")
            for finding in trial_findings[:20]:
                log(f"    {finding}")
        elif number % 25 == 24:
            log(f"  {number + 1} trials, {time.monotonic() - start:.0f} s: {outcomes}")

    return {
        "trials": trials - len(skipped),
        "skipped": len(skipped),
        "broken": len(findings),
        "partial": outcomes["partial"],
        "inconsistent": inconsistent,
        "applied": outcomes["applied"],
        "notApplied": outcomes["notApplied"],
        "killsWhileRunning": kills_running,
        "walWrittenNotApplied": wal_written_not_applied,
        "byKind": by_kind,
        "leftoverFilesByPlace": leftovers,
        "seconds": round(time.monotonic() - start),
        "findings": findings,
    }
