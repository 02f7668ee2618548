#!/usr/bin/env python3
"""The server load benchmark's Markdown report, from the runs' RESULT lines (stdlib only).

usage: serve_report.py --results FILE --machine FILE [--docs FILE]

--results: "peer=NAME run=K load=L key=value ..." lines from Benchmarks/run-serve-benchmark.sh:
  ours-thumbnails and nginx-thumbnails (one per run), ours-mixed, ours-favorites; each with wrk's requests,
  duration_s, rps, errors (connect, read, write, timeout, status = non-2xx/3xx), p50_ms, p99_ms,
  max_ms, and the server's rss_before_kb / rss_after_kb.
--machine: "key<TAB>value" lines. --docs: rewrite the serve-benchmark section of FILE.
"""

import bench_report
from bench_report import by_peer, each, machine_table, median, wrk_errors

BEGIN = "<!-- serve-benchmark:begin -->"
END = "<!-- serve-benchmark:end -->"
AIM_RATIO = 0.5   # issue 6: cached thumbnails at ≥ 0.5× nginx's requests per second, zero errors

SECTION = """## Serving: `photos serve` under load, side by side with nginx

`Benchmarks/run-serve-benchmark.sh` (`make bench-serve`) imports the image benchmark's 66 real
photos into a fresh library, starts `photos serve` (release) with a read-write token, asks once
for every 256 × 256 grid thumbnail as the gallery does, writes those exact bytes to files that
nginx serves statically, then runs wrk on loopback against each in turn (same threads,
connections and seconds), then on ours a mixed load of 19 thumbnail reads to 1 favorite toggle
(`POST /api/changes`, one `performChanges` each) and favorite toggles alone. The server's
resident memory and the library's write-ahead log are sampled every 0.5 s. Medians of the runs,
each run in brackets.

What moved the cached-thumbnail figure (same machine, ours alone, 8 s runs): Hummingbird routes
with a library read per request 5,600–7,000 requests/s; the asset's image version remembered in
memory and NIO's event loops made Swift concurrency's executor (no thread hop per request)
22,000; cross-module optimization (`-Xswiftc -cross-module-optimization`, which `make demo`
and this script use) 25,000–28,000; cached answers written from a handler in the connection's
channel pipeline (`CachedImageHandler`), before Hummingbird's async request handling, with
byte-level parsing of the target and query, 30,000–37,000; that handler moved before
swift-nio's conversion to HTTP types, with each cached image's response headers made once,
34,000–36,000 at 33 µs of server CPU per request (was 36). What remains per request is
swift-nio's HTTP/1 parsing and encoding and the kernel's loopback TCP (a third of the server's
CPU time in `perf`); nginx answers the same requests with about half our CPU per request. This
VM's figures drift by ±15 % between runs, nginx's as well as ours.

What moved the mixed load (3,736 → 12,000 requests/s, favorites alone 533 → 1,180 a second)
and bounded its memory (RSS had grown 1.9 KB and the write-ahead log ~20 KB per favorite):
each change request and its asset were kept alive by a retain cycle with their change block
(heaptrack); change snapshots opened a connection per commit and parsed every query again
(snapshots now reuse their connections); a fetch result no change touched (Recently Deleted,
under favorites) was diffed from the journal since it was made, so each change read more of
the history; observers' caches held their lock while reading details, so thumbnail answers
waited for the library; snapshots waiting for delivery are capped at 8 (past it, commits
arrive together), and a long log is restarted after readers leave it.

"""


def build(runs, machine):
    by = by_peer(runs)
    out = machine_table(machine)
    out.append("| Load | requests/s | p50 | p99 | errors | server RSS before → after |")
    out.append("| --- | ---: | ---: | ---: | ---: | --- |")
    for name, label in [("ours-thumbnails", "ours: cached thumbnails"), ("nginx-thumbnails", "nginx: the same files"),
                        ("ours-mixed", "ours: mixed, 1 favorite toggle in 20"),
                        ("ours-favorites", "ours: favorite toggles alone")]:
        group = by.get(name, [])
        if not group:
            continue
        rss = "—" if name.startswith("nginx") else (
            f"{median(group, 'rss_before_kb') / 1024:.0f} → {median(group, 'rss_after_kb') / 1024:.0f} MiB")
        out.append(
            f"| {label} | {median(group, 'rps'):,.0f} [{each(group, 'rps', '{:,.0f}')}] | "
            f"{median(group, 'p50_ms'):.2f} ms | {median(group, 'p99_ms'):.2f} ms | {sum(wrk_errors(r) for r in group)} | {rss} |")
    ours, nginx = by.get("ours-thumbnails", []), by.get("nginx-thumbnails", [])
    if ours and nginx:
        ratio = median(ours, "rps") / median(nginx, "rps")
        clean = sum(wrk_errors(r) for r in ours + by.get("ours-mixed", []) + by.get("ours-favorites", [])) == 0
        verdict = "PASS" if ratio >= AIM_RATIO and clean else "FAIL"
        out.append("")
        out.append(
            f"Cached thumbnails: ours ÷ nginx = **{ratio:.2f}×** requests/s (aim ≥ {AIM_RATIO}×, zero errors): {verdict}.")
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    bench_report.main(__doc__, "serve_report.py", build, BEGIN, END, SECTION)
