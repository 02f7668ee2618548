"""What every reliability trial shares: running the real `photos` binary, killing it, reading a
library's database (read-only, with Python's sqlite3) and judging whether a library is whole.

Only the standard library: `make reliability` runs on a fresh machine with Python 3.
"""

import json
import os
import random
import shutil
import signal
import sqlite3
import subprocess
import time

# Extensions the importer takes (photos, RAW, videos); anything else in the corpus is skipped.
MEDIA_EXTENSIONS = {".jpg", ".jpeg", ".png", ".gif", ".heic", ".heif", ".hif", ".webp", ".tif", ".tiff",
                    ".cr2", ".nef", ".arw", ".dng", ".mp4", ".mov", ".m4v", ".3gp"}

# Problems `photos check` reports that a kill may leave and `photos check --repair` clears:
# files no row names. A row without its file, a file of the wrong size or bytes, a damaged
# database or a dangling reference is a broken promise, never a leftover.
LEFTOVER_KINDS = {"orphanFile"}
BROKEN_KINDS = {"databaseIntegrity", "foreignKey", "missingFile", "sizeMismatch", "contentMismatch", "assetWithoutFile"}


class Photos:
    """The `photos` CLI, run as a user would, on one library."""

    def __init__(self, binary, library):
        self.binary = binary
        self.library = library

    def command(self, *arguments):
        return [self.binary, *arguments]

    @property
    def environment(self):
        """The library is named by $PHOTOS_LIBRARY (as `--library` would, for every subcommand)."""
        return dict(os.environ, PHOTOS_LIBRARY=self.library)

    def run(self, *arguments, timeout=300, check=True):
        done = subprocess.run(self.command(*arguments), capture_output=True, text=True, timeout=timeout,
                              env=self.environment)
        if check and done.returncode != 0:
            raise HarnessError(f"photos {' '.join(arguments[:3])} exited {done.returncode}: {done.stderr.strip()[-600:]}")
        return done

    def json(self, *arguments, check=True):
        return json.loads(self.run(*arguments, "--json", check=check).stdout)

    def start(self, *arguments):
        """Starts a command in its own process group (so a kill reaches any child it runs)."""
        return subprocess.Popen(self.command(*arguments), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True, start_new_session=True, env=self.environment)


class HarnessError(Exception):
    """The harness could not do what it meant to (not a finding about the library)."""


def kill_hard(process):
    """SIGKILL to the process and its group (ffmpeg or other children it started); reaps it.
    Returns whether it was still running when the signal went out."""
    running = process.poll() is None
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    process.communicate()
    return running


def media_files(root, limit=None):
    """The photos and videos under `root` (sorted, following the .corpus/.fixtures symlinks),
    skipping folders of deliberately broken files."""
    found = []
    for folder, folders, files in os.walk(os.path.realpath(root)):
        folders[:] = sorted(name for name in folders if name not in ("corrupt", "_fixtures"))
        for name in sorted(files):
            if os.path.splitext(name)[1].lower() in MEDIA_EXTENSIONS:
                found.append(os.path.join(folder, name))
    return found[:limit] if limit else found


class Database:
    """A library's SQLite file, read-only (Python's sqlite3, not the library's code)."""

    def __init__(self, library):
        self.path = os.path.join(library, "database", "Photos.sqlite")

    def __enter__(self):
        self.connection = sqlite3.connect(f"file:{self.path}?mode=ro", uri=True, timeout=30)
        return self

    def __exit__(self, *exception):
        self.connection.close()

    def rows(self, sql, *arguments):
        return self.connection.execute(sql, arguments).fetchall()

    def integrity(self):
        """`PRAGMA integrity_check` and `PRAGMA foreign_key_check`: [] when whole."""
        problems = [row[0] for row in self.rows("PRAGMA integrity_check") if row[0] != "ok"]
        problems += [f"foreign key: {row}" for row in self.rows("PRAGMA foreign_key_check")]
        return problems

    def asset_contents(self):
        """Each asset as the sorted identities of its original files (SHA-256 for copies, the
        content signature for files referenced in place), as a sorted list: equal lists mean
        the same photos, each once."""
        by_asset = {}
        for uuid, path, digest, signature in self.rows(
                "SELECT asset.uuid, resource.path, resource.contentHash, resource.contentSignature "
                "FROM resource JOIN asset ON asset.id = resource.assetID"):
            if path.startswith("renders/"):
                continue
            by_asset.setdefault(uuid, []).append(digest or signature or path)
        return sorted(tuple(sorted(files)) for files in by_asset.values())


def check_library(photos, repair=True):
    """`photos check --contents --json` (and, when it finds only leftovers, `--repair` then a
    second check). Returns {broken: [...], leftovers: [...], repaired: bool, seconds}."""
    start = time.monotonic()
    done = photos.run("check", "--contents", "--json", check=False)
    if done.returncode not in (0, 1):
        raise HarnessError(f"photos check exited {done.returncode}: {done.stderr.strip()[-600:]}")
    report = json.loads(done.stdout)
    broken = [p for p in report["problems"] if p["kind"] not in LEFTOVER_KINDS]
    leftovers = [p for p in report["problems"] if p["kind"] in LEFTOVER_KINDS]
    repaired = False
    if leftovers and not broken and repair:
        again = photos.run("check", "--repair", "--contents", "--json", check=False)
        after = json.loads(again.stdout)
        if again.returncode != 0:
            broken += [{"kind": "afterRepair:" + p["kind"], "detail": p["detail"]} for p in after["problems"]]
        repaired = True
    return {"broken": broken, "leftovers": leftovers, "repaired": repaired, "assets": report["assets"],
            "seconds": time.monotonic() - start}


def leftover_place(problem):
    """Where a leftover file was: tmp (staging), originals, renders, derivatives, cache."""
    return problem["detail"].split("/", 1)[0]


def fresh_folder(path):
    shutil.rmtree(path, ignore_errors=True)
    os.makedirs(path)
    return path


def rss_kib(pid):
    """Resident memory of a process, from /proc."""
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def seeded(name, seed):
    """A random generator for one trial kind, reproducible from the run's seed."""
    return random.Random(f"{seed}:{name}")


def percentile(values, fraction):
    ordered = sorted(values)
    if not ordered:
        return 0.0
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def log(message):
    print(message, flush=True)
