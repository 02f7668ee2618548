#!/usr/bin/env python3
"""Password guessing against `photos serve`, measured: for SECONDS, one client sends sign-ins
with wrong passwords for one name as fast as the server answers, and counts the guesses the
server checked (401) against those it refused unchecked (429); then the same for a name nobody
has, and the mean time of a checked answer for each (the same bcrypt work, so they can't be
told apart); then the same against a public link's password (`POST /api/links/unlock` with the
link's cookie), each on a library and a server of its own (the address's count starts at zero). Prints RESULT lines.

    python3 Benchmarks/peers/signin_bruteforce.py PHOTOS PHOTO [--seconds 60]
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Tests", "EndToEnd"))
from e2e_support import start_server  # noqa: E402


def attempt(base, name, link=None):
    """One wrong password: a sign-in as `name`, or with `link` (a link's secret) its unlock."""
    body = json.dumps({"password": "not the password"} if link else {"name": name, "password": "not the password"}).encode()
    headers = {"Content-Type": "application/json"}
    if link:
        headers["Cookie"] = "photos_link=" + link
    call = urllib.request.Request(base + ("/api/links/unlock" if link else "/api/session"), data=body, method="POST", headers=headers)
    started = time.monotonic()
    try:
        urllib.request.urlopen(call, timeout=30)
        return 200, time.monotonic() - started
    except urllib.error.HTTPError as error:
        error.read()
        return error.code, time.monotonic() - started


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("photos")
    parser.add_argument("photo", help="a JPEG for the link to show")
    parser.add_argument("--seconds", type=float, default=60)
    arguments = parser.parse_args()
    for target in ["ana", "nobody", "link"]:
        guess(arguments, target)


def guess(arguments, target):
    """SECONDS of wrong passwords for `target` (a name, or "link") on a library and a server of
    its own (the failures counted for the address start from none)."""
    work = tempfile.mkdtemp(prefix="photos-signin-bench-")
    library = os.path.join(work, "Library.photoslibrary")
    subprocess.run([arguments.photos, "import", "--library", library, arguments.photo], check=True, capture_output=True)
    subprocess.run([arguments.photos, "user", "add", "--library", library, "ana"], input="the real password\n", text=True,
                   check=True, capture_output=True)
    token = subprocess.run([arguments.photos, "token", "create", "--library", library, "--level", "read-write", "--user", "ana",
                            "--quiet"], check=True, capture_output=True, text=True).stdout.strip()
    server, base = start_server(arguments.photos, library)
    try:
        link = None
        if target == "link":
            headers = {"Authorization": "Bearer " + token, "Content-Type": "application/json"}
            page = json.load(urllib.request.urlopen(urllib.request.Request(base + "/api/assets?limit=1", headers=headers)))
            body = json.dumps({"assets": [page["assets"][0]["id"]], "password": "the link's password"}).encode()
            made = json.load(urllib.request.urlopen(urllib.request.Request(base + "/api/links", data=body, method="POST", headers=headers)))
            link = made["secret"]
        checked, refused, times = 0, 0, []
        end = time.monotonic() + arguments.seconds
        while time.monotonic() < end:
            status, took = attempt(base, target, link)
            if status == 401:
                checked += 1
                times.append(took)
            elif status == 429:
                refused += 1
            else:
                raise AssertionError(f"unexpected {status}")
        per_minute = checked / arguments.seconds * 60
        mean = sum(times) / len(times) * 1000 if times else 0
        print(f"RESULT {'target' if link else 'name'}={target} seconds={arguments.seconds:g} checked={checked} refused={refused} "
              f"checked_per_minute={per_minute:.1f} checked_answer_mean_ms={mean:.1f}")
    finally:
        server.terminate()
        server.wait(timeout=10)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
