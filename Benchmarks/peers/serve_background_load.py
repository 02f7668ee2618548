#!/usr/bin/env python3
"""Background load on `photos serve` for Benchmarks/run-eventloop-benchmark.sh.

    serve_background_load.py URL IDS PHOTOS_DIR [--edits N] [--uploads N] [--renders N]
                             [--edit-rate R] [--upload-rate R] [--render-rate R]

Runs until SIGTERM/SIGINT, each client thread one request at a time: at R requests a second
when its rate is given (a fixed schedule, so two servers get the same work; a request that
ends late starts the next at once, without catching up), else in a closed loop:
  edits   POST /api/changes with an edit of a random asset (exposure and saturation
          at random values, so every request renders the full-size photo again);
  uploads POST /api/uploads?filename=... with a random photo of PHOTOS_DIR, 16 random bytes
          appended after its end (a new file each time, not a duplicate);
  renders GET /api/assets/{id}/image at a random large size and quality (never cached).
Authorization: Bearer $PHOTOS_TOKEN. At the end prints one line:
  LOAD edits=… uploads=… renders=… errors=… seconds=…
"""
import http.client
import os
import random
import signal
import sys
import threading
import time
import urllib.parse

stop = threading.Event()
lock = threading.Lock()
counts = {"edits": 0, "uploads": 0, "renders": 0, "errors": 0}
error_samples = []


def count(kind, ok, detail=""):
    with lock:
        if ok:
            counts[kind] += 1
        else:
            counts["errors"] += 1
            if len(error_samples) < 5:
                error_samples.append(f"{kind}: {detail}")


def client(kind, url, ids, photos, token, rate):
    parsed = urllib.parse.urlsplit(url)
    rng = random.Random()
    headers = {"Authorization": f"Bearer {token}"}
    connection = None
    due = time.monotonic()
    while not stop.is_set():
        if rate > 0:
            wait = due - time.monotonic()
            if wait > 0 and stop.wait(wait):
                break
            due = max(due + 1 / rate, time.monotonic())
        try:
            if connection is None:
                connection = http.client.HTTPConnection(parsed.hostname, parsed.port, timeout=120)
            if kind == "edits":
                body = ('{"operations":[{"op":"edit","asset":"%s","exposure":%.2f,"saturation":%.2f}]}'
                        % (rng.choice(ids), rng.uniform(-0.5, 0.5), rng.uniform(0.7, 1.3)))
                connection.request("POST", "/api/changes", body=body, headers={**headers, "Content-Type": "application/json"})
            elif kind == "uploads":
                path = rng.choice(photos)
                with open(path, "rb") as handle:
                    data = handle.read() + os.urandom(16)
                name = urllib.parse.quote(f"load-{rng.getrandbits(40):x}.jpg")
                connection.request("POST", f"/api/uploads?filename={name}", body=data,
                                   headers={**headers, "Content-Type": "image/jpeg"})
            else:
                side = rng.randrange(800, 2400)
                quality = rng.randrange(60, 95)
                connection.request("GET", f"/api/assets/{rng.choice(ids)}/image?w={side}&h={side}&quality={quality}",
                                   headers=headers)
            response = connection.getresponse()
            payload = response.read()
            count(kind, 200 <= response.status < 300, f"{response.status} {payload[:200]!r}")
        except Exception as error:  # a refused or reset connection: count it, reconnect
            count(kind, False, repr(error))
            connection = None
            if not stop.is_set():
                time.sleep(0.2)


def main():
    args = sys.argv[1:]
    url, ids_file, photos_dir = args[0], args[1], args[2]
    options = {"--edits": 1, "--uploads": 1, "--renders": 1, "--edit-rate": 0, "--upload-rate": 0, "--render-rate": 0}
    rest = args[3:]
    while rest:
        options[rest[0]] = float(rest[1])
        rest = rest[2:]
    ids = [line.strip() for line in open(ids_file) if line.strip()]
    photos = sorted(os.path.join(photos_dir, name) for name in os.listdir(photos_dir) if name.lower().endswith(".jpg"))
    token = os.environ.get("PHOTOS_TOKEN", "")
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    signal.signal(signal.SIGINT, lambda *_: stop.set())
    started = time.time()
    threads = []
    for kind in ("edits", "uploads", "renders"):
        for _ in range(int(options[f"--{kind}"])):
            rate = options[f"--{kind[:-1]}-rate"]
            thread = threading.Thread(target=client, args=(kind, url, ids, photos, token, rate), daemon=True)
            thread.start()
            threads.append(thread)
    while not stop.is_set():
        stop.wait(0.5)
    elapsed = time.time() - started
    with lock:
        line = " ".join(f"{key}={value}" for key, value in counts.items())
        print(f"LOAD {line} seconds={elapsed:.1f}", flush=True)
        for sample in error_samples:
            print(f"ERROR {sample}", file=sys.stderr, flush=True)
    os._exit(0)


if __name__ == "__main__":
    main()
