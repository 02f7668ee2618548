#!/usr/bin/env python3
"""Memory while a video goes into a bucket and streams back out (Benchmarks/run-bucket-memory.sh).

Makes two H.264 movies of the same stream (about 20 MB and about --gigabytes GB), starts moto's
S3 server on loopback, and for each: the peak resident set of `photos import` into a library
whose originals are in the bucket, beside botocore's `upload_file` of the same file to the same
store (the peer floor); then `photos serve` on that library with the local copy removed, and
the server's peak resident set while `curl` reads `/original` whole (streamed from the bucket).
Flat means the large movie's peaks are about the small one's. Prints a Markdown table and
writes it into --docs unless none.
"""

import argparse
import os
import shutil
import subprocess
import sys
import time
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_report  # noqa: E402
from bucket_bench import Serve, start_moto  # noqa: E402

BEGIN = "<!-- bucket-memory:begin -->"
END = "<!-- bucket-memory:end -->"
SECTION = "## Memory while a large video goes to a bucket and back (issue 36)\n\n"
BUCKET = "memory-bench"


def make_movies(folder, gigabytes):
    """A 20 s lossless clip, then copies of it looped to about 20 MB and to `gigabytes` GB."""
    os.makedirs(folder, exist_ok=True)
    base = os.path.join(folder, "base.mp4")
    if not os.path.exists(base):
        subprocess.run(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=1280x720:rate=30", "-f", "lavfi",
                        "-i", "sine=frequency=440", "-t", "20", "-c:v", "libx264", "-preset", "ultrafast", "-qp", "0",
                        "-pix_fmt", "yuv420p", "-c:a", "aac", "-movflags", "+faststart", base + ".part.mp4"], check=True)
        os.rename(base + ".part.mp4", base)
    size = os.path.getsize(base)
    movies = {}
    for name, target in (("small", 20 << 20), ("large", int(gigabytes * (1 << 30)))):
        path = os.path.join(folder, f"{name}-{target >> 20}MB.mp4")
        if not os.path.exists(path):
            if target <= size:
                seconds = max(1.0, 20.0 * target / size)
                arguments = ["-t", f"{seconds:.2f}", "-i", base]
            else:
                arguments = ["-stream_loop", str(max(0, round(target / size) - 1)), "-i", base]
            subprocess.run(["ffmpeg", "-v", "error", "-y", *arguments, "-c", "copy", "-movflags", "+faststart", path + ".part.mp4"],
                           check=True)
            os.rename(path + ".part.mp4", path)
        movies[name] = path
    return movies


def peak_kib(command, environment, log):
    """Runs `command` under /usr/bin/time; its peak resident set in KiB."""
    report = log + ".time"
    with open(log, "w") as out:
        subprocess.run(["/usr/bin/time", "-f", "%M", "-o", report, *command], stdout=out, stderr=subprocess.STDOUT,
                       env=environment, check=True)
    return int(open(report).read().split()[-1])


def status_kib(pid, field):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith(field + ":"):
            return int(line.split()[1])
    return 0


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--photos", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--movies", required=True)
    parser.add_argument("--gigabytes", type=float, default=2.0)
    parser.add_argument("--docs", default="none")
    parser.add_argument("--machine", default="")
    options = parser.parse_args()

    movies = make_movies(options.movies, options.gigabytes)
    work = os.path.abspath(options.work)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    moto, port = start_moto(work)
    endpoint = f"http://127.0.0.1:{port}"
    environment = dict(os.environ, AWS_ACCESS_KEY_ID="testing", AWS_SECRET_ACCESS_KEY="testing", AWS_REGION="us-east-1",
                       AWS_ENDPOINT_URL=endpoint)
    results = {}
    try:
        import boto3
        boto3.client("s3", endpoint_url=endpoint, region_name="us-east-1", aws_access_key_id="testing",
                     aws_secret_access_key="testing").create_bucket(Bucket=BUCKET)
        for name, movie in movies.items():
            size = os.path.getsize(movie)
            library = os.path.join(work, f"library-{name}")
            started = time.monotonic()
            ours = peak_kib([options.photos, "import", movie, "--library", library, "--originals", f"s3://{BUCKET}/{name}"],
                            environment, os.path.join(work, f"import-{name}.log"))
            import_seconds = time.monotonic() - started
            started = time.monotonic()
            floor = peak_kib([sys.executable, "-c", (
                "import sys, boto3\n"
                "s3 = boto3.client('s3', endpoint_url=sys.argv[1], region_name='us-east-1', aws_access_key_id='testing', "
                "aws_secret_access_key='testing')\n"
                "s3.upload_file(sys.argv[2], sys.argv[3], 'botocore/' + sys.argv[4])\n"), endpoint, movie, BUCKET, name],
                environment, os.path.join(work, f"boto-{name}.log"))
            boto_seconds = time.monotonic() - started

            serve_log = os.path.join(work, f"serve-{name}.log")
            server = Serve(options.photos, library, environment, serve_log)
            try:
                asset = server.assets()[0]
                # The rendition worker reads the movie once (from its local copy) to see it plays as
                # it is; then the copy goes, and the stream must come from the bucket.
                deadline = time.time() + 600
                while "rendition finished" not in open(serve_log, errors="replace").read():
                    assert time.time() < deadline, "the rendition worker did not finish"
                    time.sleep(0.1)
                shutil.rmtree(os.path.join(library, "cache", "remote"), ignore_errors=True)
                baseline = status_kib(server.process.pid, "VmRSS")
                # Resets the peak (VmHWM) to the current resident set (Linux 4.0+).
                with open(f"/proc/{server.process.pid}/clear_refs", "w") as file:
                    file.write("5")
                started = time.monotonic()
                got = subprocess.run(["curl", "-sS", "-o", "/dev/null", "-w", "%{size_download} %{time_starttransfer}",
                                      f"{server.base}/api/assets/{asset}/original"], capture_output=True, text=True, check=True).stdout
                stream_seconds = time.monotonic() - started
                downloaded, first_byte = got.split()
                assert int(downloaded) == size, f"{name}: {downloaded} of {size} bytes"
                peak = status_kib(server.process.pid, "VmHWM")
                copies = os.path.join(library, "cache", "remote")
                assert not os.path.exists(copies) or not any(files for _, _, files in os.walk(copies)), "streamed, not fetched"
            finally:
                server.stop()
            # The store's own first byte for the same whole GET (moto answers unsigned requests).
            direct = subprocess.run(["curl", "-sS", "-o", "/dev/null", "-w", "%{time_starttransfer}",
                                     f"{endpoint}/{BUCKET}/botocore/{name}"], capture_output=True, text=True, check=True).stdout
            results[name] = dict(size=size, ours=ours, floor=floor, import_seconds=import_seconds, boto_seconds=boto_seconds,
                                 baseline=baseline, peak=peak, stream_seconds=stream_seconds, first_byte=float(first_byte),
                                 store_first_byte=float(direct))
            print(f"{name}: {results[name]}", file=sys.stderr)
    finally:
        os.killpg(moto.pid, 15)

    small, large = results["small"], results["large"]

    def mib(kib):
        return f"{kib / 1024:.0f} MiB"

    rows = [
        "| | ~20 MB movie | %.1f GiB movie | large / small |" % (large["size"] / (1 << 30)),
        "|---|---:|---:|---:|",
        f"| movie size | {small['size'] / (1 << 20):.1f} MiB | {large['size'] / (1 << 20):.0f} MiB | "
        f"{large['size'] / small['size']:.0f}x |",
        f"| `photos import` into the bucket, peak RSS | {mib(small['ours'])} | {mib(large['ours'])} | "
        f"{large['ours'] / small['ours']:.2f}x |",
        f"| botocore `upload_file` of the same file, peak RSS | {mib(small['floor'])} | {mib(large['floor'])} | "
        f"{large['floor'] / small['floor']:.2f}x |",
        f"| `photos import` time (botocore's) | {small['import_seconds']:.1f} s ({small['boto_seconds']:.1f} s) | "
        f"{large['import_seconds']:.1f} s ({large['boto_seconds']:.1f} s) | |",
        f"| `photos serve` streaming `/original` from the bucket, peak RSS (before) | {mib(small['peak'])} ({mib(small['baseline'])}) | "
        f"{mib(large['peak'])} ({mib(large['baseline'])}) | {large['peak'] / small['peak']:.2f}x |",
        f"| stream: first byte, whole | {small['first_byte'] * 1000:.0f} ms, {small['stream_seconds']:.1f} s | "
        f"{large['first_byte'] * 1000:.0f} ms, {large['stream_seconds']:.1f} s "
        f"({large['size'] / (1 << 20) / large['stream_seconds']:.0f} MiB/s) | |",
        f"| the store's own first byte for that whole GET (curl to moto) | {small['store_first_byte'] * 1000:.0f} ms | "
        f"{large['store_first_byte'] * 1000:.0f} ms | |",
    ]
    table = ("`Benchmarks/run-bucket-memory.sh`: `photos` in release with cross-module optimization, moto's S3 server on "
             "loopback; peak resident sets from `/usr/bin/time` (the import and botocore's upload) and from the server's "
             "`VmHWM`, reset just before `curl` reads `/original` whole, streamed from the bucket (the local copy removed). "
             "Flat: the large movie's peaks are about the small one's.\n\n" + "\n".join(rows)
             + "\n\nMachine: " + "; ".join(part.replace("\t", " ") for part in options.machine.split(";") if part) + "\n")
    sys.stdout.write(table)
    if options.docs != "none":
        bench_report.write_docs(options.docs, table, BEGIN, END, SECTION)


if __name__ == "__main__":
    main()
