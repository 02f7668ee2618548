#!/usr/bin/env python3
"""How long a change to a shared album takes to reach every member's live page: a library of
MEMBERS + 1 people (Ana, who owns a shared album, and MEMBERS others, each a contributor of
it) served by `photos serve`; each member holds a WebSocket to `/api/live` (with a token of
theirs) subscribed to the album's photos; Ana toggles the favorite of a photo in the album
TOGGLES times, one at a time, and each toggle's delay is counted from Ana's request (sent) to
each member's `changes` message (the server answers Ana once the change is delivered, so a
member's message can arrive before her answer does). Prints one RESULT line: p50 / p90 / p99 / max in ms
over all members' arrivals, and the members' count.

    python3 Benchmarks/peers/shared_album_latency.py PHOTOS PHOTO... [--members 5] [--toggles 100]
"""

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Tests", "EndToEnd"))
from cluster_e2e import LiveClient, request  # noqa: E402
from e2e_support import start_server  # noqa: E402


class Port:
    """What LiveClient needs of a server: its port."""

    def __init__(self, base):
        self.port = int(base.rsplit(":", 1)[1])


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("photos")
    parser.add_argument("files", nargs="+")
    parser.add_argument("--members", type=int, default=5)
    parser.add_argument("--toggles", type=int, default=100)
    arguments = parser.parse_args()
    work = tempfile.mkdtemp(prefix="photos-shared-bench-")
    library = os.path.join(work, "Library.photoslibrary")
    photos = lambda *a, stdin=None: subprocess.run(
        [arguments.photos, *a], check=True, capture_output=True, text=True, input=stdin).stdout
    try:
        folder = os.path.join(work, "photos")
        os.makedirs(folder)
        for path in arguments.files:
            shutil.copy(path, folder)
        photos("import", "--library", library, folder)
        people = ["ana"] + [f"member{index}" for index in range(arguments.members)]
        tokens = {}
        for person in people:
            photos("user", "add", "--library", library, person, stdin="a long password\n")
            tokens[person] = photos("token", "create", "--library", library, "--level", "read-write", "--user", person, "--quiet").strip()
        server, base = start_server(arguments.photos, library)
        try:
            ana = {"Authorization": f"Bearer {tokens['ana']}"}
            assets = request(base, "/api/assets?limit=50", headers=ana)["assets"]
            operations = [{"op": "createSharedAlbum", "title": "Bench", "ref": "b"},
                          {"op": "addToAlbum", "album": "b", "assets": [asset["id"] for asset in assets]}]
            operations += [{"op": "shareAlbum", "album": "b", "person": person, "role": "contributor"} for person in people[1:]]
            album = request(base, "/api/changes", {"operations": operations}, headers=ana)["created"]["b"]
            members = [LiveClient(Port(base), {"subscription": "album", "collection": album}, [f"Authorization: Bearer {tokens[person]}"])
                       for person in people[1:]]
            delays, answers = [], []
            for toggle in range(arguments.toggles):
                asset = assets[toggle % len(assets)]
                value = not asset["isFavorite"]
                asset["isFavorite"] = value
                marks = [len(member.messages) for member in members]
                sent = time.monotonic()
                request(base, "/api/changes", {"operations": [{"op": "favorite", "assets": [asset["id"]], "value": value}]}, headers=ana)
                answers.append((time.monotonic() - sent) * 1000)

                def matches(message, asset=asset, value=value):
                    return message.get("type") == "changes" and any(
                        item["asset"]["id"] == asset["id"] and item["asset"]["isFavorite"] == value
                        for item in message.get("changed") or [])

                for member, mark in zip(members, marks):
                    arrival, _ = member.wait_for(matches, after=mark)
                    delays.append((arrival - sent) * 1000)
            ms = lambda v: f"{v:.1f}"
            print(f"RESULT members={len(members)} toggles={arguments.toggles} arrivals={len(delays)} "
                  f"p50={ms(percentile(delays, 50))} p90={ms(percentile(delays, 90))} p99={ms(percentile(delays, 99))} "
                  f"max={ms(max(delays))} answer_p50={ms(percentile(answers, 50))}")
        finally:
            server.terminate()
            server.wait(timeout=10)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
