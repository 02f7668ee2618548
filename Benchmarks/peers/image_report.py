#!/usr/bin/env python3
"""The image benchmark's Markdown report, from the runs' RESULT lines (Python 3 stdlib only).

usage: image_report.py --results FILE --machine FILE [--docs FILE]

--results: one line per run and phase, "peer=NAME run=K load=L key=value ...". Ours (one
  ImageBenchmark process per run and set; the HEIC set's phases as ours-heic-*, the RAW set's
  as ours-raw-*, the JPEG set again with MALLOC_ARENA_MAX=2 as ours-arena2-*): ours-import, ours-cold (wall_s from the first request to the
  last delivery, files_per_s, first_ms, peak_rss_kb = VmHWM of the cold run), ours-warm-sync,
  ours-idle (rss_last_delivery_kb, rss_idle_kb after the library's idle release, release_ms,
  rss_extra_trim_kb, heap and memory-cache figures), ours-cache-stress (requested, delivered,
  delivered_bytes, cache_bytes, cache_peak_bytes, cache_limit_bytes), ours-warm-sync,
  ours-warm-async and ours-warm-async-default (requests, hits_per_s, p50_us, p99_us, max_us, misses), ours-memory
  (peak_rss_kb of the whole process). Peers (vipsthumbnail, imagemagick, pillow, floor;
  heic-vipsthumbnail, heic-floor, heic-primary; raw-pipeline): wall_s
  from launch to the last process's exit, peak_rss_kb of the largest process, outputs.
--machine: "key<TAB>value" lines describing the machine and the versions.
--docs: rewrite the part of FILE between the image-benchmark markers (appending an "## Image
  loading" section when the markers are missing); other sections are left alone.
Prints the Markdown on standard output.
"""


import bench_report
from bench_report import machine_table, median, number

BEGIN = "<!-- image-benchmark:begin -->"
END = "<!-- image-benchmark:end -->"

# Aims (issue 5): cold ≥ 1.2× vipsthumbnail in files/s, cold time ≤ 1.3× the decode floor's;
# warm > 100,000 hits/s with p99 < 1 ms. Issue 19: the same two for HEIC (the libheif floor);
# RAW ≥ 2× exiftool + vipsthumbnail; ≤ 120 MB resident once idle after the cold run; the
# memory cache within its bound.
AIM_VIPS = 1.2
AIM_FLOOR_TIME = 1.3
AIM_HITS = 100_000
AIM_P99_US = 1_000
AIM_RAW = 2.0
AIM_IDLE_RSS_MB = 120

SECTION = """## Image loading: PHImageManager side by side with thumbnailers

`Benchmarks/run-image-benchmark.sh` builds (once, cached in `Benchmarks/.data/`) 66 real photos
as JPEGs of 8 MP and more from Debian and PyPI packages, builds `ImageBenchmark` in release, and
one after another, on the same files, with the page cache dropped before each cold run: imports
them into a fresh library (untimed), asks `PHImageManager.default()` for a 256 × 256
`.aspectFit` `.highQualityFormat` image of each, all requests in flight at once, then asks again
and again for the same images from 2 threads (memory-cache hits, `isSynchronous` and async);
and runs, with 2 parallel jobs each, `vipsthumbnail`, ImageMagick's `mogrify` with a JPEG size
hint, Pillow's `draft()` + `thumbnail()`, and the decode floor: libjpeg-turbo decoding every file
at 1/8 scale and discarding the pixels. `Benchmarks/peers/README.md` describes the peers.
The section below is rewritten by each full run (3 runs or more).

"""


def listed(runs, key, digits=2):
    return ", ".join(f"{number(r[key]):.{digits}f}" for r in runs if number(r.get(key)) is not None)


def label(runs):
    count = "1 run" if len(runs) == 1 else f"median of {len(runs)}"
    return f"{count}; load {', '.join(r.get('load', '?') for r in runs)}"


def rate_text(value):
    return "—" if value is None else (f"{value:.1f}" if value < 100 else f"{value:,.0f}")


def mib(kilobytes):
    return "—" if not kilobytes else f"{kilobytes / 1024:.0f} MiB"


def verdict(passed):
    return "" if passed is None else ("PASS" if passed else "MISS")


def cold_table(by_peer, out):
    ours = by_peer.get("ours-cold")
    ours_wall = median(ours, "wall_s") if ours else None
    files = int(ours[0]["files"]) if ours else None
    out.append("| Cold: 256 × 256 aspect fit, every file | Work done | Wall, s (runs) | Files/s | Peak RSS | Ours ÷ peer (files/s) | Aim | |")
    out.append("| --- | --- | --- | --- | --- | --- | --- | --- |")
    if ours:
        first = median(ours, "first_ms")
        out.append(
            f"| **ours**: `PHImageManager.requestImage`, {files} async requests at once ({label(ours)}) "
            f"| libvips shrink-on-load decode, EXIF orientation, sRGB, kept in the memory cache on a pool of "
            f"{ours[0].get('cores', '?')} renders; no file written; first image after {first:.0f} ms; "
            f"{ours[0].get('delivered', '?')} delivered, {ours[0].get('failed', '?')} failed, {ours[0].get('wrong_size', '?')} of the wrong size "
            f"| {ours_wall:.2f} ({listed(ours, 'wall_s')}) | **{rate_text(files / ours_wall)}** "
            f"| {mib(median(ours, 'peak_rss_kb'))} (the process; {mib(median(ours, 'rss_before_kb'))} before the first request) | | | |"
        )
    rows = [
        ("vipsthumbnail", "`vipsthumbnail -s 256x256` (2 jobs of 6 files, VIPS_CONCURRENCY=1)",
         "libvips shrink-on-load + lanczos3, EXIF orientation, JPEG Q80 written, metadata stripped", f"≥ {AIM_VIPS}×"),
        ("imagemagick", "ImageMagick `mogrify -define jpeg:size=512x512 -auto-orient -thumbnail 256x256` (2 jobs of 6, MAGICK_THREAD_LIMIT=1)",
         "libjpeg scaled decode to ≥ 512 px, `-thumbnail` resize, JPEG Q80 written, stripped", "—"),
        ("pillow", "Pillow `draft()` + `thumbnail()` + `exif_transpose` (2 jobs of 6 files)",
         "libjpeg DCT-domain shrink to ≥ 256 px, reduce + bicubic, JPEG Q80 written", "—"),
        ("floor", "decode floor: libjpeg-turbo at 1/8 scale (2 jobs, 1 file each)",
         "entropy decode of the whole file, 1/8 IDCT, RGB; pixels discarded, nothing resized or written",
         f"ours' time ≤ {AIM_FLOOR_TIME}× the floor's"),
    ]
    for key, name, work, aim in rows:
        runs = by_peer.get(key)
        if not runs:
            continue
        wall = median(runs, "wall_s")
        n = int(runs[0]["files"])
        ratio = wall / ours_wall if ours_wall else None
        passed = None
        ratio_cell = "—" if ratio is None else f"{ratio:.2f}×"
        if key == "vipsthumbnail" and ratio is not None:
            passed = ratio >= AIM_VIPS
        if key == "floor" and ratio is not None:
            passed = ours_wall <= AIM_FLOOR_TIME * wall
            ratio_cell += f" (ours' time = {ours_wall / wall:.2f}× the floor's)"
        outputs = runs[0].get("outputs", "?")
        if key != "floor":
            work += f" ({outputs} files)"
        out.append(
            f"| {name} ({label(runs)}) | {work} | {wall:.2f} ({listed(runs, 'wall_s')}) | {rate_text(n / wall)} "
            f"| {mib(median(runs, 'peak_rss_kb'))} (largest process) | {ratio_cell} | {aim} | {verdict(passed)} |"
        )


def other_cold_table(by_peer, out, title, prefix, work, rows):
    """The cold table of the HEIC or RAW set: ours (ours-PREFIXcold) and its peers; rows are
    (key, name, work, aim text, kind) with kind "rate" (ours ÷ peer ≥ the number), "floor"
    (ours' time ≤ AIM_FLOOR_TIME × the peer's) or None (no aim)."""
    ours = by_peer.get(f"ours-{prefix}cold")
    if not ours:
        return
    ours_wall = median(ours, "wall_s")
    files = int(ours[0]["files"])
    out.append(f"| {title} | Work done | Wall, s (runs) | Files/s | Peak RSS | Ours ÷ peer (files/s) | Aim | |")
    out.append("| --- | --- | --- | --- | --- | --- | --- | --- |")
    out.append(
        f"| **ours**: `PHImageManager.requestImage`, {files} async requests at once ({label(ours)}) | {work}; "
        f"first image after {median(ours, 'first_ms'):.0f} ms; {ours[0].get('delivered', '?')} delivered, "
        f"{ours[0].get('failed', '?')} failed, {ours[0].get('wrong_size', '?')} of the wrong size "
        f"| {ours_wall:.2f} ({listed(ours, 'wall_s')}) | **{rate_text(files / ours_wall)}** "
        f"| {mib(median(ours, 'peak_rss_kb'))} (the process) | | | |"
    )
    for key, name, peer_work, aim, kind in rows:
        runs = by_peer.get(key)
        if not runs:
            continue
        wall = median(runs, "wall_s")
        n = int(runs[0]["files"])
        ratio = wall / ours_wall
        cell = f"{ratio:.2f}×"
        passed = None
        if kind == "rate":
            passed = ratio >= float(aim.strip("≥ ×"))
        elif kind == "floor":
            passed = ours_wall <= AIM_FLOOR_TIME * wall
            cell += f" (ours' time = {ours_wall / wall:.2f}× the floor's)"
        if kind != "floor" and key != "heic-primary":
            peer_work += f" ({runs[0].get('outputs', '?')} files)"
        out.append(
            f"| {name} ({label(runs)}) | {peer_work} | {wall:.2f} ({listed(runs, 'wall_s')}) | {rate_text(n / wall)} "
            f"| {mib(median(runs, 'peak_rss_kb'))} (largest process) | {cell} | {aim} | {verdict(passed)} |"
        )


def heic_table(by_peer, out):
    other_cold_table(by_peer, out, "Cold HEIC: 256 × 256 aspect fit, every file", "heic-",
        "libheif decodes the 320 × 240 thumbnail item in one pass (it covers the 256 × 192 box without upscaling: used as libvips' "
        "thumbnailer and Apple's Photos use it), libvips scales it, sRGB, kept in the memory cache", [
        ("heic-vipsthumbnail", "`vipsthumbnail -s 256x256` (2 jobs of 6 files, VIPS_CONCURRENCY=1)",
         "libvips: the thumbnail item decoded by libheif, lanczos3, JPEG Q80 written", f"≥ {AIM_VIPS}×", "rate"),
        ("heic-floor", "libheif floor: `heif_floor -s 256` (2 jobs, 1 file each)",
         "libheif: the thumbnail item (the primary image when none covers 256 px) decoded to RGB; pixels discarded",
         f"ours' time ≤ {AIM_FLOOR_TIME}× the floor's", "floor"),
        ("heic-primary", "for reference: `heif_floor`, the primary image at full size (2 jobs, 1 file each; first run only)",
         "libheif: the 4032 × 3024 HEVC image decoded to RGB, one thread; what a HEIC without a thumbnail item costs", "—", None),
    ])


def raw_table(by_peer, out):
    other_cold_table(by_peer, out, "Cold RAW (CR2): 256 × 256 aspect fit, every file", "raw-",
        "the largest embedded JPEG (RawPreview: 1728 × 1152) decoded with shrink-on-load, orientation, sRGB, kept in the memory cache", [
        ("raw-pipeline", "`exiftool -b -PreviewImage` + `vipsthumbnail -s 256x256` (2 jobs of 6 files: one exiftool and one vipsthumbnail each)",
         "exiftool writes each preview JPEG, vipsthumbnail thumbnails it, JPEG Q80 written", f"≥ {AIM_RAW}×", "rate"),
    ])


def memory_table(by_peer, out):
    out.append("| Memory after the cold run (issue 19) | Resident at the last delivery | Resident after the idle release (ms after the last delivery) "
               "| After one more `malloc_trim` | malloc at the last delivery: in use / free in arenas of | Aim | |")
    out.append("| --- | --- | --- | --- | --- | --- | --- |")
    for key, name, aimed in [
        ("ours-idle", "JPEG set, glibc's default arenas (8 per core)", True),
        ("ours-arena2-idle", "JPEG set, `MALLOC_ARENA_MAX=2`", False),
        ("ours-heic-idle", "HEIC set", False),
        ("ours-raw-idle", "RAW set", False),
    ]:
        runs = by_peer.get(key)
        if not runs:
            continue
        idle = median(runs, "rss_idle_kb")
        passed = idle / 1024 <= AIM_IDLE_RSS_MB if aimed and idle else None
        releases = [r.get("release_ms", "none") for r in runs]
        out.append(
            f"| **ours**, {name} ({label(runs)}) | {mib(median(runs, 'rss_last_delivery_kb'))} ({listed(runs, 'rss_last_delivery_kb', 0)} KiB) "
            f"| **{mib(idle)}** ({listed(runs, 'rss_idle_kb', 0)} KiB; {', '.join(releases)} ms) | {mib(median(runs, 'rss_extra_trim_kb'))} "
            f"| {median(runs, 'heap_in_use_mib'):.0f} / {median(runs, 'arena_free_mib'):.0f} of {median(runs, 'arena_mib'):.0f} MiB "
            f"| {'≤ ' + str(AIM_IDLE_RSS_MB) + ' MB once idle' if aimed else '—'} | {verdict(passed)} |"
        )
    out.append("")
    out.append("| Memory cache (issue 19) | Images | Bytes held | Peak bytes | Bound | Aim | |")
    out.append("| --- | --- | --- | --- | --- | --- | --- |")
    for key, name in [("ours-idle", "JPEG set, after the cold run"), ("ours-heic-idle", "HEIC set"), ("ours-raw-idle", "RAW set"),
                      ("ours-cache-stress", "JPEG set, then every photo at 1440 and 2048 px (more than the bound)")]:
        runs = by_peer.get(key)
        if not runs:
            continue
        peak, limit = median(runs, "cache_peak_bytes"), median(runs, "cache_limit_bytes")
        passed = all(number(r["cache_peak_bytes"]) <= number(r["cache_limit_bytes"]) for r in runs)
        if key == "ours-cache-stress":
            name += f": {median(runs, 'delivered'):.0f} images, {median(runs, 'delivered_bytes') / 1048576:.0f} MiB of pixels delivered"
        out.append(
            f"| **ours**, {name} ({label(runs)}) | {median(runs, 'cache_images'):.0f} | {median(runs, 'cache_bytes') / 1048576:.1f} MiB "
            f"| {peak / 1048576:.1f} MiB | {limit / 1048576:.0f} MiB | peak ≤ bound in every run | {verdict(passed)} |"
        )


def warm_table(by_peer, out):
    out.append("| Warm: the same requests again, memory-cache hits | Requests (runs) | Hits/s (runs) | p50 | p99 | max | Misses | Aim | |")
    out.append("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for key, name in [
        ("ours-warm-sync", "`isSynchronous = true`, {threads} threads; latency = the `requestImage` call"),
        ("ours-warm-async", "async `.highQualityFormat`, {threads} threads, ≤ {window} in flight each; latency = call → handler on the delivery queue"),
        ("ours-warm-async-default", "async, default options (`.opportunistic`, what a gallery asks), {threads} threads; a hit is answered before `requestImage` returns, on the calling thread, as on Apple platforms"),
    ]:
        runs = by_peer.get(key)
        if not runs:
            continue
        hits, p99 = median(runs, "hits_per_s"), median(runs, "p99_us")
        passed = hits > AIM_HITS and p99 < AIM_P99_US
        title = name.format(threads=runs[0].get("threads", "?"), window=runs[0].get("window", "?"))
        out.append(
            f"| **ours**, {title} ({label(runs)}) | {median(runs, 'requests'):,.0f} | **{rate_text(hits)}** ({listed(runs, 'hits_per_s', 0)}) "
            f"| {median(runs, 'p50_us'):.1f} µs | {p99:.1f} µs | {median(runs, 'max_us'):,.0f} µs "
            f"| {sum(int(r.get('misses', 0)) for r in runs)} | > {AIM_HITS:,} hits/s, p99 < 1 ms | {verdict(passed)} |"
        )


def build(runs, machine):
    by_peer = bench_report.by_peer(runs)
    files = next((int(r["files"]) for r in runs if "files" in r), 0)

    out = []
    out.append(f"### Image benchmark: {files} photos, `PHImageManager` vs vipsthumbnail, ImageMagick, Pillow and the decode floor")
    out.append("")
    out.append(
        "Release build, one run after another on the same files, page cache "
        + machine.get("page cache", "?")
        + " (ours: after its untimed import, from inside the process). Figures are medians of the runs "
        "(each run's in brackets). Ours is timed inside the process, from the first request to the last "
        "delivery; each peer from the launch of its processes to the last exit (2 jobs through `xargs -P2`). "
        "Ratios are ours ÷ peer in files/s. Peak RSS: ours is the whole process during the cold run "
        "(VmHWM, reset after the import), a peer's is its largest single process (GNU time)."
    )
    out.append("")
    out += machine_table(machine, ["Date", "CPU", "Load average (1 min), start → end", "Memory", "Kernel", "Photos", "HEIC", "RAW",
                                   "ours", "Peers"])
    cold_table(by_peer, out)
    out.append("")
    warm_table(by_peer, out)
    out.append("")
    for table in (heic_table, raw_table, memory_table):
        before = len(out)
        table(by_peer, out)
        if len(out) > before:
            out.append("")
    memory = by_peer.get("ours-memory")
    if memory:
        out.append(
            f"Peak RSS of the whole ImageBenchmark process (import, cold, warm runs and their latency arrays): "
            f"{mib(median(memory, 'peak_rss_kb'))}; resident at the end: {mib(median(memory, 'rss_kb'))}."
        )
        out.append("")
    return "\n".join(out).rstrip() + "\n"


if __name__ == "__main__":
    bench_report.main(__doc__, "image_report.py", build, BEGIN, END, SECTION)
