#!/usr/bin/env python3
"""The import benchmark's Markdown report, from the runs' RESULT lines (Python 3 stdlib only).

usage: report.py --results FILE --machine FILE [--docs FILE]

--results: one line per timed run, "peer=NAME run=K load=L files=N launch_s=S steady_s=S ...".
  ours: launch_s is the wall time of the whole `photos import` process, steady_s the importer's
  own elapsed time from --json. Peers: launch_s = launch -> all done, steady_s = first DB row ->
  all done (their rate is (N-1)/steady_s, as the peer scripts print it).
--machine: "key<TAB>value" lines describing the machine and the versions.
--docs: rewrite the part of FILE between the import-benchmark markers (appending an "## Import"
  section when the markers are missing); other sections are left alone.
Prints the Markdown on standard output.
"""

import statistics

import bench_report
from bench_report import by_peer, machine_table, number

BEGIN = "<!-- import-benchmark:begin -->"
END = "<!-- import-benchmark:end -->"

SECTION = """## Import: photos side by side with the peers

`Benchmarks/run-import-benchmark.sh` generates (once, then cached in `Benchmarks/.data/`) 1,000
distinct 12-megapixel JPEGs with camera EXIF, builds `photos` in release, and one after another,
on the same files, times `photos import --json` into a fresh library (metadata only: walk, probe,
signature, copy into the library with SHA-256, rows; and with `--in-place`, referencing the files
where they are), `cp -r` of the corpus (the floor of copying), and the peers run headless from Debian packages: digiKam's
startup collection scan (metadata, no thumbnails), Shotwell's auto-import (rows and 128/360 px
thumbnails) and an exiftool + vipsthumbnail pipeline at Immich's sizes. The page cache is dropped
before every timed run. Ours is timed as the wall time of the whole process; each peer from its
launch and from its first database row, both reported, the ratio using the peer's first-row
rate (the one more favourable to the peer); digiKam, which indexes files where they are, is compared
with our in-place import. `Benchmarks/peers/README.md` describes the peers.
The section below is rewritten by each full run (`--files 1000`).

"""


def seconds(value):
    return "—" if value is None else f"{value:.1f}"


def rate_text(value):
    return "—" if value is None else (f"{value:.1f}" if value < 100 else f"{value:.0f}")


def ratio_text(value):
    return "—" if value is None else f"{value:.2f}×"


class Summary:
    """The median of one peer's runs."""

    def __init__(self, runs):
        self.runs = runs
        self.files = int(runs[0]["files"])
        self.launch = statistics.median(number(r["launch_s"]) for r in runs)
        steadies = [number(r.get("steady_s")) for r in runs]
        self.steady = statistics.median(steadies) if None not in steadies else None
        self.loads = [r.get("load", "?") for r in runs]

    def launch_list(self):
        return ", ".join(f"{number(r['launch_s']):.1f}" for r in self.runs)

    def steady_list(self):
        return ", ".join(f"{number(r['steady_s']):.1f}" for r in self.runs)

    def median_label(self):
        return "1 run" if len(self.runs) == 1 else f"median of {len(self.runs)}"

    def value(self, key):
        values = sorted({r.get(key, "?") for r in self.runs})
        return "/".join(values)


def peer_rate(summary):
    """Files/s from the first row (the peers' own rate) and from launch."""
    n = summary.files
    steady = (n - 1) / summary.steady if summary.steady else None
    return steady, n / summary.launch


def build(runs, machine):
    summaries = {peer: Summary(items) for peer, items in by_peer(runs).items()}
    ours = summaries.get("ours")
    ours_rate = ours.files / ours.launch if ours else None
    files = next(iter(summaries.values())).files if summaries else 0

    out = []
    out.append(f"### Import benchmark: {files:,} photos, `photos import` vs digiKam, Shotwell and a vips pipeline")
    out.append("")
    out.append(
        "Release build, one run after another on the same files, page cache "
        + machine.get("page cache", "?")
        + ". Figures are medians of the runs (each run's time in brackets). Ours: the wall time of "
        "the whole `photos import` process. Peers: from launch and from their first database row to "
        "the last file done; the peers' own rate is (files − 1) ÷ first row → done. "
        "Ratios are ours ÷ peer in files/s, using the peer's first-row rate (from launch in brackets)."
    )
    out.append("")
    out += machine_table(machine, ["Date", "CPU", "Load average (1 min), start → end", "Memory", "Kernel", "Corpus",
                                   "ours", "digiKam", "Shotwell", "Baseline tools", "Xvfb"])
    out.append("| Run | Work done | Files | Launch → done, s | First row → done, s | Files/s | Ours ÷ peer | Aim | |")
    out.append("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")

    def ours_row(summary, label, work):
        inner = statistics.median(number(r["steady_s"]) for r in summary.runs)
        rate = summary.files / summary.launch
        out.append(
            f"| **{label}** ({summary.median_label()}; load {', '.join(summary.loads)}) | {work} "
            f"| {summary.files:,} | {seconds(summary.launch)} ({summary.launch_list()}) "
            f"| — (importer's own: {inner:.1f}) | **{rate_text(rate)}** | | | |"
        )

    if ours:
        ours_row(ours, "ours, copying: `photos import DIR --library NEW --json`",
                 f"metadata only: walk, probe (EXIF/XMP), signature, copy into the library with SHA-256 in the same pass, DB rows; "
                 f"{ours.value('imported')} imported, {ours.value('failed')} failed, {ours.value('originals')} files in originals/")
    inplace = summaries.get("ours-inplace")
    inplace_rate = inplace.files / inplace.launch if inplace else None
    if inplace:
        ours_row(inplace, "ours, in place: `photos import --in-place`",
                 f"metadata only: walk, probe (EXIF/XMP), 128 KiB signature, DB rows referencing the files; "
                 f"{inplace.value('imported')} imported, {inplace.value('failed')} failed, {inplace.value('originals')} files in originals/")
    for key, label, work in [
        ("ours-rescan", "ours, copying, same files again",
         "every file found in the library (signature, then SHA-256 compared)"),
        ("ours-inplace-rescan", "ours, in place, same files again",
         "every file found in the library (signature, the same path)"),
    ]:
        rescan = summaries.get(key)
        if rescan:
            out.append(
                f"| **{label}** (resume/rescan; {rescan.median_label()}; load {', '.join(rescan.loads)}) "
                f"| {work}: {rescan.value('imported')} imported, {rescan.value('duplicates')} duplicates "
                f"| {rescan.files:,} | {seconds(rescan.launch)} ({rescan.launch_list()}) "
                f"| — | **{rate_text(rescan.files / rescan.launch)}** | | — (comparable to a digiKam rescan) | |"
            )
    floor = summaries.get("copy-floor")
    if floor:
        floor_rate = floor.files / floor.launch
        out.append(
            f"| `cp -r` of the corpus on the same file system ({floor.median_label()}; load {', '.join(floor.loads)}) "
            f"| the floor of any import that copies: read and write every byte, nothing else "
            f"| {floor.files:,} | {seconds(floor.launch)} ({floor.launch_list()}) | — | {rate_text(floor_rate)} "
            f"| {ratio_text(ours_rate / floor_rate) if ours_rate else '—'} (ours, copying) | — | |"
        )

    rows = [
        ("digikam", "digiKam {v} startup collection scan".format(v=machine.get("digiKam version", "")),
         lambda s: f"walk + Exiv2 metadata + unique hash → `digikam4.db`, no thumbnails except those shown on screen ({s.value('thumbnails')} in its thumbnail DB)",
         "≥ 2× (metadata-only import)", 2.0),
        ("shotwell", "Shotwell {v} auto-import".format(v=machine.get("Shotwell version", "")),
         lambda s: f"walk + gexiv2 metadata + MD5 + rows in `photo.db` + 128 and 360 px JPEG thumbnails ({s.value('thumbs128')}/{s.value('thumbs360')})",
         "— (does thumbnails; see the next row)", None),
        ("baseline", "exiftool + vipsthumbnail pipeline, J={j}",
         lambda s: f"sha1sum + one exiftool batch + `vipsthumbnail` 1440 px JPEG q80 + 250 px WebP q80, no DB ({s.value('previews')}/{s.value('thumbs')})",
         "— (does thumbnails)", None),
    ]
    for key, label, work, aim, target in rows:
        summary = summaries.get(key)
        if key == "baseline" and summary:
            label = label.format(j=summary.value("jobs"))
        if summary:
            steady_rate, launch_rate = peer_rate(summary)
            # digiKam indexes in place: compared with our in-place import when it ran.
            compared = inplace_rate if key == "digikam" and inplace_rate else ours_rate
            ratio = compared / steady_rate if compared and steady_rate else None
            ratio_launch = compared / launch_rate if compared else None
            verdict = ""
            if target is not None and ratio is not None:
                verdict = "PASS" if ratio >= target else "MISS"
            steady_cell = "—" if key == "baseline" else f"{seconds(summary.steady)} ({summary.steady_list()})"
            rate_cell = (f"{rate_text(launch_rate)}" if key == "baseline"
                         else f"{rate_text(steady_rate)} (from launch: {rate_text(launch_rate)})")
            ratio_cell = "—" if ours_rate is None else (
                f"{ratio_text(ratio)} ({ratio_text(ratio_launch)})" if key != "baseline" else ratio_text(ratio_launch))
            if target is None and ours_rate is not None:
                ratio_cell += " metadata-only, not the same work"
            if key == "digikam" and inplace_rate and ours_rate and steady_rate:
                ratio_cell += f" in place; copying: {ratio_text(ours_rate / steady_rate)}"
            out.append(
                f"| {label} ({summary.median_label()}; load {', '.join(summary.loads)}) | {work(summary)} | {summary.files:,} "
                f"| {seconds(summary.launch)} ({summary.launch_list()}) | {steady_cell} | {rate_cell} | {ratio_cell} | {aim} | {verdict} |"
            )
        if key == "shotwell":
            thumbs = summaries.get("ours-thumbnails")
            if thumbs:
                thumbs_rate = thumbs.files / thumbs.launch
                shotwell_rate = peer_rate(summary)[0] if summary else None
                ratio = thumbs_rate / shotwell_rate if shotwell_rate else None
                verdict = "" if ratio is None else ("PASS" if ratio >= 2.0 else "MISS")
                out.append(
                    f"| **ours + grid thumbnails**: `photos import --thumbnails` ({thumbs.median_label()}; load {', '.join(thumbs.loads)}) "
                    f"| as above + a 256 × 256 JPEG grid thumbnail per photo (shrink-on-load); "
                    f"{thumbs.value('thumbnails')} thumbnails | {thumbs.files:,} | {seconds(thumbs.launch)} ({thumbs.launch_list()}) "
                    f"| — | **{rate_text(thumbs_rate)}** | {ratio_text(ratio) if ratio else '—'} vs Shotwell | ≥ 2× Shotwell | {verdict} |"
                )
    out.append("")
    notes = machine.get("Notes")
    if notes:
        out.append(notes)
        out.append("")
    return "\n".join(out).rstrip() + "\n"


if __name__ == "__main__":
    bench_report.main(__doc__, "report.py", build, BEGIN, END, SECTION)
