#!/usr/bin/env python3
"""Originals in a bucket against originals in a folder (Benchmarks/run-bucket-benchmark.sh).

Runs moto's S3 server on loopback, then, --runs times, alternating the sides: `photos import`
of the corpus into a fresh library whose originals go to the folder or to the bucket; the first
byte of cold originals and of cold 256 px thumbnails through `photos serve`; wrk on the cached
thumbnails. Prints a Markdown table (medians, ratios) and writes it into --docs unless none.
"""

import argparse
import concurrent.futures
import glob
import http.client
import json
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import time
import urllib.parse
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_report  # noqa: E402

BEGIN = "<!-- bucket-benchmark:begin -->"
END = "<!-- bucket-benchmark:end -->"
SECTION = "## Originals in a bucket against a folder (issue 36)\n\n"
COLD_PHOTOS = 20


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def drop_caches():
    subprocess.run(["sync"])
    try:
        with open("/proc/sys/vm/drop_caches", "w") as file:
            file.write("3")
    except OSError:
        pass


def start_moto(work):
    port = free_port()
    log = os.path.join(work, "moto.log")
    command = [shutil.which("moto_server")] if shutil.which("moto_server") else [sys.executable, "-m", "moto.server"]
    process = subprocess.Popen([*command, "-H", "127.0.0.1", "-p", str(port)], stdout=open(log, "w"), stderr=subprocess.STDOUT,
                               start_new_session=True)
    deadline = time.time() + 30
    while f"Running on http://127.0.0.1:{port}" not in open(log, errors="replace").read():
        if process.poll() is not None or time.time() > deadline:
            sys.exit("moto did not start: " + open(log).read()[-2000:])
        time.sleep(0.05)
    return process, port


class Serve:
    def __init__(self, photos, library, environment, log):
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.process = subprocess.Popen([photos, "serve", "--library", library, "--open", "--port", str(self.port)],
                                        stdout=open(log, "w"), stderr=subprocess.STDOUT, env=environment, start_new_session=True)
        deadline = time.time() + 60
        while True:
            try:
                urllib.request.urlopen(self.base + "/api/assets?limit=1", timeout=5).read()
                return
            except OSError:
                if self.process.poll() is not None or time.time() > deadline:
                    sys.exit(f"photos serve did not start: {open(log).read()[-2000:]}")
                time.sleep(0.05)

    def assets(self):
        with urllib.request.urlopen(self.base + "/api/assets?limit=100", timeout=60) as response:
            return [asset["id"] for asset in json.loads(response.read())["assets"]]

    def stop(self):
        os.killpg(self.process.pid, signal.SIGTERM)
        self.process.wait(timeout=30)


def first_byte(url):
    """Seconds from sending the request to reading the first byte of the answer's body (not
    its headers, which a streamed answer sends before any of its bytes)."""
    parsed = urllib.parse.urlsplit(url)
    start = time.monotonic()
    connection = http.client.HTTPConnection(parsed.hostname, parsed.port, timeout=300)
    connection.request("GET", parsed.path + ("?" + parsed.query if parsed.query else ""))
    response = connection.getresponse()
    assert response.status == 200, f"{url}: {response.status}"
    assert response.read(1), f"{url}: an empty body"
    elapsed = time.monotonic() - start
    response.read()
    connection.close()
    return elapsed


def wrk(urls_file, base, seconds=10):
    script = os.path.join(os.path.dirname(urls_file), "paths.lua")
    with open(script, "w") as file:
        file.write(f"""
local paths = {{}}
for line in io.lines("{urls_file}") do paths[#paths + 1] = line end
local index = 0
request = function()
  index = index % #paths + 1
  return wrk.format("GET", paths[index])
end
""")
    out = subprocess.run(["wrk", "-t2", "-c16", f"-d{seconds}s", "-s", script, base], capture_output=True, text=True, check=True).stdout
    for line in out.splitlines():
        if line.startswith("Requests/sec:"):
            return float(line.split()[1])
    sys.exit("wrk said: " + out)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--photos", required=True)
    parser.add_argument("--corpus", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--docs", default="none")
    parser.add_argument("--machine", default="")
    args = parser.parse_args()
    os.makedirs(args.work, exist_ok=True)
    files = len(glob.glob(os.path.join(args.corpus, "*.JPG")))
    moto, port = start_moto(args.work)
    environment = {**os.environ, "AWS_ACCESS_KEY_ID": "bench", "AWS_SECRET_ACCESS_KEY": "bench-secret", "AWS_REGION": "us-east-1",
                   "AWS_ENDPOINT_URL": f"http://127.0.0.1:{port}", "HOME": args.work}
    import boto3
    s3 = boto3.client("s3", endpoint_url=environment["AWS_ENDPOINT_URL"], aws_access_key_id="bench",
                      aws_secret_access_key="bench-secret", region_name="us-east-1")
    s3.create_bucket(Bucket="bench")
    results = {"import folder": [], "import bucket": [], "upload floor": [], "cold original folder": [], "cold original bucket": [],
               "cold thumbnail folder": [], "cold thumbnail bucket": [], "cached folder": [], "cached bucket": []}
    try:
        for run in range(1, args.runs + 1):
            sides = ["folder", "bucket"] if run % 2 else ["bucket", "folder"]
            libraries = {}
            for side in sides:
                library = os.path.join(args.work, f"{side}.photoslibrary")
                shutil.rmtree(library, ignore_errors=True)
                extra = ["--originals", f"s3://bench/run{run}"] if side == "bucket" else []
                drop_caches()
                start = time.monotonic()
                done = subprocess.run([args.photos, "import", args.corpus, "--library", library, "--json", *extra],
                                      capture_output=True, text=True, env=environment)
                seconds = time.monotonic() - start
                if done.returncode != 0:
                    sys.exit(f"import into the {side} failed: {done.stderr[-2000:]}")
                imported = json.loads(done.stdout)["imported"]
                assert imported == files, f"{side}: imported {imported} of {files}"
                results[f"import {side}"].append(files / seconds)
                print(f"run {run}: import into the {side}: {seconds:.1f} s, {files / seconds:.1f} photos/s", file=sys.stderr)
                libraries[side] = library
            # The floor of any import into this store: botocore's uploads of the same files,
            # 8 at once (boto3's default concurrency), with their SHA-256 checked as ours are.
            corpus_files = sorted(glob.glob(os.path.join(args.corpus, "*.JPG")))
            drop_caches()
            start = time.monotonic()
            with concurrent.futures.ThreadPoolExecutor(8) as pool:
                list(pool.map(lambda path: s3.upload_file(path, "bench", f"floor{run}/{os.path.basename(path)}",
                                                          ExtraArgs={"ChecksumAlgorithm": "SHA256"}), corpus_files))
            seconds = time.monotonic() - start
            results["upload floor"].append(files / seconds)
            print(f"run {run}: boto3 uploads: {seconds:.1f} s, {files / seconds:.1f} photos/s", file=sys.stderr)
            for side in sides:
                library = libraries[side]
                # Cold: no local copy of an original, no thumbnail, nothing in the page cache.
                shutil.rmtree(os.path.join(library, "cache", "remote"), ignore_errors=True)
                shutil.rmtree(os.path.join(library, "derivatives"), ignore_errors=True)
                serve = Serve(args.photos, library, environment, os.path.join(args.work, f"serve-{side}-{run}.log"))
                try:
                    ids = serve.assets()[:2 * COLD_PHOTOS]
                    originals, thumbnails = [], []
                    for index, identifier in enumerate(ids):
                        drop_caches()
                        if index % 2 == 0:
                            originals.append(first_byte(f"{serve.base}/api/assets/{identifier}/original"))
                        else:
                            thumbnails.append(first_byte(f"{serve.base}/api/assets/{identifier}/image?w=256"))
                    results[f"cold original {side}"].append(statistics.median(originals))
                    results[f"cold thumbnail {side}"].append(statistics.median(thumbnails))
                    # Cached: every thumbnail made, then served from the folder either way.
                    every = serve.assets()
                    for identifier in every:
                        urllib.request.urlopen(f"{serve.base}/api/assets/{identifier}/image?w=256", timeout=120).read()
                    paths = os.path.join(args.work, "paths.txt")
                    with open(paths, "w") as file:
                        file.write("".join(f"/api/assets/{identifier}/image?w=256\n" for identifier in every))
                    results[f"cached {side}"].append(wrk(paths, serve.base))
                finally:
                    serve.stop()
                print(f"run {run}: {side}: cold original {results[f'cold original {side}'][-1] * 1000:.1f} ms, "
                      f"cold thumbnail {results[f'cold thumbnail {side}'][-1] * 1000:.1f} ms, "
                      f"cached {results[f'cached {side}'][-1]:.0f} requests/s", file=sys.stderr)
    finally:
        os.killpg(moto.pid, signal.SIGKILL)
        moto.wait()

    def median(key):
        return statistics.median(results[key])

    def runs(key, scale=1, digits=1):
        return ", ".join(f"{value * scale:.{digits}f}" for value in results[key])

    rows = [
        ("Import (photos/s, higher is better)", "import", 1, 1, lambda folder, bucket: bucket / folder),
        ("First byte of a cold original (ms)", "cold original", 1000, 1, lambda folder, bucket: folder / bucket),
        ("First byte of a cold 256 px thumbnail (ms)", "cold thumbnail", 1000, 1, lambda folder, bucket: folder / bucket),
        ("Cached 256 px thumbnails (requests/s, wrk 10 s)", "cached", 1, 0, lambda folder, bucket: bucket / folder),
    ]
    lines = [f"`Benchmarks/run-bucket-benchmark.sh --files {files} --runs {args.runs}`: moto's S3 server on loopback "
             f"against the same disk, `photos` in release with cross-module optimization; medians of {args.runs} runs, "
             "the sides alternating. The ratio is the bucket's speed as a share of the folder's (above 1: the bucket is faster).",
             "", "| Measure | Folder | Bucket | Ratio |", "| --- | --- | --- | --- |"]
    for title, key, scale, digits, ratio in rows:
        folder, bucket = median(f"{key} folder"), median(f"{key} bucket")
        lines.append(f"| {title} | {folder * scale:.{digits}f} ({runs(f'{key} folder', scale, digits)}) | "
                     f"{bucket * scale:.{digits}f} ({runs(f'{key} bucket', scale, digits)}) | {ratio(folder, bucket):.2f}× |")
    floor = median("upload floor")
    lines += ["", f"The floor of an import into this store: botocore's `upload_file` of the same files, 8 at once, each with its "
              f"SHA-256 checked: {floor:.1f} photos/s ({runs('upload floor')}); the bucket import runs at "
              f"{median('import bucket') / floor:.2f}× of it.", "", f"Machine: {args.machine}", ""]
    table = "\n".join(lines) + "\n"
    sys.stdout.write(table)
    if args.docs != "none":
        bench_report.write_docs(args.docs, table, BEGIN, END, SECTION)


if __name__ == "__main__":
    main()
