#!/usr/bin/env python3
"""Two `photos serve` instances over one PostgreSQL library whose originals are in an S3
bucket, with no shared folder, end to end.

Starts a throwaway PostgreSQL server (scripts/throwaway-postgres.sh) and moto's S3 server
(`moto_server`, from PyPI's `moto[server]`) on loopback, imports real photos with
`photos import --originals s3://BUCKET/library` into a files folder of A's own, starts A on it
and B on an empty folder of its own (the same database and bucket, reached with the AWS_*
variables), and checks:

1. B lists the photos A's folder imported, and serves their 256 px thumbnails and their
   originals byte for byte, fetched from the bucket.
2. A photo and a video uploaded through A are fetched, thumbnailed and played through B (the
   video's bytes are an MP4 B made from the bucket's movie).
3. Neither folder holds an original (`originals/` is empty in both); the bucket holds one
   object per original, and `photos check` passes through B's folder.

Without PostgreSQL or moto installed it says so and exits 0 (skipped, with the reason).

    python3 Tests/EndToEnd/bucket_cluster_e2e.py PATH-TO-photos CORPUS-FOLDER
"""

import glob
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cluster_e2e  # noqa: E402
from cluster_e2e import Instance, make_videos, request, throwaway_database  # noqa: E402
from e2e_support import free_port  # noqa: E402

ROOT = cluster_e2e.ROOT


def fetch(base, path):
    """The raw bytes of a GET, and its content type."""
    with urllib.request.urlopen(base + path, timeout=120) as response:
        return response.read(), response.headers.get("Content-Type", "")


def moto_command():
    found = shutil.which("moto_server")
    if found:
        return [found]
    probe = subprocess.run([sys.executable, "-c", "import moto.server, flask"], capture_output=True)
    return [sys.executable, "-m", "moto.server"] if probe.returncode == 0 else None


def start_moto(port, log_path):
    process = subprocess.Popen([*moto_command(), "-H", "127.0.0.1", "-p", str(port)],
                               stdout=open(log_path, "w"), stderr=subprocess.STDOUT, start_new_session=True)
    deadline = time.time() + 30
    while f"Running on http://127.0.0.1:{port}" not in open(log_path, errors="replace").read():
        assert process.poll() is None and time.time() < deadline, f"moto did not start: {open(log_path).read()[-2000:]}"
        time.sleep(0.05)
    return process


def originals_in(folder):
    return [path for path in glob.glob(os.path.join(folder, "originals", "**", "*"), recursive=True) if os.path.isfile(path)]


def main():
    photos_binary, corpus = os.path.abspath(sys.argv[1]), sys.argv[2]
    cluster_e2e.PHOTOS, cluster_e2e.CORPUS = photos_binary, corpus
    os.makedirs(cluster_e2e.ARTIFACTS, exist_ok=True)
    if not glob.glob("/usr/lib/postgresql/*/bin/initdb"):
        print("bucket_cluster_e2e: skipped: PostgreSQL is not installed (apt install postgresql)")
        return
    if moto_command() is None:
        print("bucket_cluster_e2e: skipped: moto's S3 server is not installed (pip install 'moto[server]')")
        return
    import boto3  # botocore's client, to look in the bucket as another tool would

    scratch = tempfile.mkdtemp(prefix="photokit-bucket-cluster-")
    os.chmod(scratch, 0o755)  # as root the server runs as `postgres`, which must reach its folder
    cluster = os.path.join(scratch, "pg")
    moto = None
    instances = []
    try:
        database = throwaway_database(cluster)
        s3_port = free_port()
        moto = start_moto(s3_port, os.path.join(cluster_e2e.ARTIFACTS, "bucket-cluster-moto.log"))
        aws = {"AWS_ACCESS_KEY_ID": "testing", "AWS_SECRET_ACCESS_KEY": "testing-secret", "AWS_REGION": "us-east-1",
               "AWS_ENDPOINT_URL": f"http://127.0.0.1:{s3_port}", "HOME": scratch}
        bucket = "family-photos"
        s3 = boto3.client("s3", endpoint_url=aws["AWS_ENDPOINT_URL"], aws_access_key_id=aws["AWS_ACCESS_KEY_ID"],
                          aws_secret_access_key=aws["AWS_SECRET_ACCESS_KEY"], region_name="us-east-1")
        s3.create_bucket(Bucket=bucket)

        files_a, files_b = os.path.join(scratch, "files-a"), os.path.join(scratch, "files-b")
        photos = sorted(glob.glob(os.path.join(corpus, "cosmos__*.jpg")))[:4]
        assert len(photos) >= 3, f"too few photos in {corpus}"
        subprocess.run([photos_binary, "import", "--database", database, "--library", files_a,
                        "--originals", f"s3://{bucket}/library", *photos],
                       check=True, capture_output=True, env={**os.environ, **aws})

        a = Instance("bucket-A", database, files_a)
        a.environment = aws
        a.start()
        b = Instance("bucket-B", database, files_b)
        b.environment = aws
        b.start()
        instances += [a, b]

        # 1. B serves what A's folder imported: thumbnails and originals from the bucket.
        listed = request(b.base, "/api/assets?sort=-creationDate&limit=100")["assets"]
        assert len(listed) == len(photos), listed
        expected = set()
        for path in photos:
            with open(path, "rb") as file:
                expected.add(file.read())
        served = set()
        for asset in listed:
            thumbnail, kind = fetch(b.base, f"/api/assets/{asset['id']}/image?w=256")
            assert kind == "image/jpeg" and thumbnail[:2] == b"\xff\xd8", (kind, thumbnail[:8])
            served.add(fetch(b.base, f"/api/assets/{asset['id']}/original")[0])
        assert served == expected, "B's originals differ from the imported files"
        print(f"bucket_cluster_e2e: B served {len(photos)} thumbnails and originals from the bucket (its folder had none)")

        # 2. A photo and a video uploaded through A, fetched, thumbnailed and played through B.
        with open(photos[0], "rb") as file:
            photo = file.read()
        uploaded = request(a.base, "/api/uploads?filename=upload.jpg", data=photo, headers={"Content-Type": "application/octet-stream"})
        photo_id = uploaded["assets"][0]["id"]
        video_path = make_videos(scratch, 1)[0]
        with open(video_path, "rb") as file:
            movie = file.read()
        uploaded = request(a.base, "/api/uploads?filename=clip.mov", data=movie, headers={"Content-Type": "application/octet-stream"})
        video_id = uploaded["assets"][0]["id"]
        original, _ = fetch(b.base, f"/api/assets/{photo_id}/original")
        assert original == photo, "B's original of A's upload differs"
        thumbnail, kind = fetch(b.base, f"/api/assets/{photo_id}/image?w=256")
        assert kind == "image/jpeg" and thumbnail[:2] == b"\xff\xd8", (kind, thumbnail[:8])
        poster, kind = fetch(b.base, f"/api/assets/{video_id}/image?w=256")
        assert kind == "image/jpeg" and poster[:2] == b"\xff\xd8", (kind, poster[:8])
        played, kind = fetch(b.base, f"/api/assets/{video_id}/video")
        assert kind == "video/mp4" and played[4:8] == b"ftyp", (kind, played[:16])
        print(f"bucket_cluster_e2e: a photo and a video uploaded through A were fetched, thumbnailed and played through B "
              f"({len(played)} bytes of MP4)")

        # 3. No original in either folder; one object per original; the library is whole.
        assert not originals_in(files_a) and not originals_in(files_b), (originals_in(files_a), originals_in(files_b))
        keys = [item["Key"] for page in s3.get_paginator("list_objects_v2").paginate(Bucket=bucket, Prefix="library/")
                for item in page.get("Contents", [])]
        assert len(keys) == len(photos) + 2 and all(key.startswith("library/originals/") for key in keys), keys
        check = subprocess.run([photos_binary, "check", "--database", database, "--library", files_b],
                               capture_output=True, text=True, env={**os.environ, **aws})
        assert check.returncode == 0, check.stdout + check.stderr
        print(f"bucket_cluster_e2e: {len(keys)} objects in the bucket, no original in either folder, `photos check` passes")
    finally:
        for instance in instances:
            instance.stop()
        if moto:
            moto.kill()
            moto.wait()
        subprocess.run([os.path.join(ROOT, "scripts", "throwaway-postgres.sh"), "stop", cluster], capture_output=True)
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
