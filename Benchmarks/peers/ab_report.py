#!/usr/bin/env python3
"""The table of Benchmarks/run-revisions-ab.sh: two revisions' figures side by side.

Reads what the run left in WORK (Benchmarks/.data/ab-work):
  machine.tsv            key <TAB> value, the run's header rows (revisions, machine, loads)
  store-SIDE-ROUND.md    StoreBenchmark engines' table, one per revision (A, B) and round
  serve/results.txt      run-eventloop-benchmark.sh --idle-only's lines (build=A|B round=N ... rps= p50_ms= p99_ms=)
  import.txt             run-import-ab.sh's output (its "run N: A … s wall, … s CPU, … imported;  B …" lines)
and prints one Markdown table: per measure, each revision's median over the rounds (each
round's figure after it when there are several) and B / A.
"""
import argparse
import os
import re
import statistics
import sys

from bench_report import machine_table, parse_machine, wrk_errors

def figure(text):
    """'135.0 ms' or '9.72 µs' -> (value, unit, decimals)."""
    number, unit = re.fullmatch(r"\s*([0-9.,]+) (ms|µs|s)\s*", text).groups()
    number = number.replace(",", "")
    return float(number), unit, len(number.split(".")[1]) if "." in number else 0


def digits(value):
    return f"{value:.2f}" if value < 10 else f"{value:,.1f}"


class Measure:
    def __init__(self, part, title, unit, show=digits):
        self.part, self.title, self.unit, self.show = part, title, unit, show
        self.values = {"A": {}, "B": {}}
        self.decimals = {}   # side -> the decimals its figures were printed with, if known
        self.rounding = 0.0

    def add(self, side, round_, value, decimals=None):
        """A figure; `decimals`: printed with that many (a StoreBenchmark table's)."""
        self.values[side][round_] = value
        if decimals is not None:
            self.decimals[side] = decimals
            # half the last digit's step over the figure: the most the printing moved it
            self.rounding = max(self.rounding, 0.5 * 10 ** -decimals / value if value else 1.0)

    def cell(self, side):
        rounds = [self.values[side][r] for r in sorted(self.values[side])]
        if not rounds:
            return "—"
        show = middle = self.show
        if side in self.decimals:
            show = lambda v: f"{v:,.{self.decimals[side]}f}"
            # the median of an even count is a mean of two: one digit more
            middle = lambda v: f"{v:,.{self.decimals[side] + (len(rounds) % 2 == 0)}f}"
        median = f"{middle(statistics.median(rounds))} {self.unit}".rstrip()
        if len(rounds) == 1:
            return median
        return f"{median} ({', '.join(show(v) for v in rounds)})"

    def ratio(self):
        a, b = (list(self.values[s].values()) for s in ("A", "B"))
        if not a or not b or statistics.median(a) == 0:
            return "—"
        return f"{statistics.median(b) / statistics.median(a):.2f}×" + (" †" if self.coarse() else "")

    def coarse(self):
        """A figure was printed with too few digits for its ratio to mean much (over 2 %)."""
        return self.rounding > 0.02


def store_measures(work):
    """One measure per engine and row of StoreBenchmark engines' table, SQLite's first."""
    measures = {}
    files = sorted(f for f in os.listdir(work) if re.fullmatch(r"store-[AB]-\d+\.md", f))
    for name in files:
        side, round_ = re.fullmatch(r"store-([AB])-(\d+)\.md", name).groups()
        rows = [line for line in open(os.path.join(work, name)) if line.startswith("| ")]
        if not rows:
            continue
        assets = rows[0].split("|")[1].strip()   # "1,000,000 assets"
        fetch = ""
        for line in rows[1:]:
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if len(cells) < 3 or cells[1].startswith("---"):
                continue
            title = cells[0]
            if title.startswith("…"):   # "… and its first object": the row above's, again
                key_title = fetch + " " + title
            else:
                fetch = key_title = title
            for engine, cell in (("SQLite", cells[1]), ("PostgreSQL", cells[2])):
                p99 = re.search(r"\(p99 ([^)]+)\)", cell)
                figures = [("", re.sub(r"\s*\(p99 [^)]+\)", "", cell))]
                if p99:
                    figures = [(", median", figures[0][1]), (", p99", p99.group(1))]
                for suffix, text in figures:
                    value, unit, decimals = figure(text)
                    key = (engine, key_title + suffix)
                    if key not in measures:
                        measures[key] = Measure(f"Store, {engine}, {assets}", title + suffix, unit)
                    measures[key].add(side, int(round_), value, decimals)
    return [m for (engine, _), m in sorted(measures.items(), key=lambda kv: kv[0][0] != "SQLite")]


def serve_measures(work):
    path = os.path.join(work, "serve", "results.txt")
    if not os.path.exists(path):
        return [], []
    rps = Measure("Serve", "Cached thumbnails: requests/s (higher is better)", "", lambda v: f"{v:,.0f}")
    p50 = Measure("Serve", "Cached thumbnails: latency p50", "ms")
    p99 = Measure("Serve", "Cached thumbnails: latency p99", "ms")
    errors = []
    for line in open(path):
        side = re.search(r"build=(\S+)", line).group(1)
        round_ = int(re.search(r"round=(\d+)", line).group(1))
        idle = dict(part.split("=", 1) for part in line.split("idle:")[1].split("|")[0].split())
        rps.add(side, round_, float(idle["rps"]))
        p50.add(side, round_, float(idle["p50_ms"]))
        p99.add(side, round_, float(idle["p99_ms"]))
        if wrk_errors(idle):
            errors.append(f"{side} round {round_}: {wrk_errors(idle)} wrk errors (connect, read, write, timeout, non-2xx)")
    return [rps, p50, p99], errors


def import_measures(work):
    path = os.path.join(work, "import.txt")
    if not os.path.exists(path):
        return [], []
    text = open(path).read()
    files = re.search(r"^(\d+) files, wall", text, re.M)
    count = f"{int(files.group(1)):,}" if files else "?"
    wall = Measure("Import", f"`photos import` of {count} photos: wall time", "s")
    cpu = Measure("Import", "… CPU time (user + system)", "s")
    notes = [line for line in text.splitlines() if line.startswith("imported differ")]
    pattern = r"^run (\d+): A ([0-9.]+) s wall, ([0-9.]+) s CPU, (\d+) imported;\s+B ([0-9.]+) s wall, ([0-9.]+) s CPU, (\d+) imported"
    for m in re.finditer(pattern, text, re.M):
        round_ = int(m.group(1))
        wall.add("A", round_, float(m.group(2))); cpu.add("A", round_, float(m.group(3)))
        wall.add("B", round_, float(m.group(5))); cpu.add("B", round_, float(m.group(6)))
        if files and (m.group(4) != files.group(1) or m.group(7) != files.group(1)):
            notes.append(f"run {round_}: A imported {m.group(4)}, B {m.group(7)} of {files.group(1)}")
    return [wall, cpu], notes


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--work", required=True)
    args = parser.parse_args()
    machine = parse_machine(os.path.join(args.work, "machine.tsv"))
    store = store_measures(args.work)
    serve, serve_notes = serve_measures(args.work)
    imports, import_notes = import_measures(args.work)

    print("\n".join(machine_table(machine)))
    print("| Measure | A (median) | B (median) | B / A |")
    print("| --- | ---: | ---: | ---: |")
    for measure in store + serve + imports:
        print(f"| {measure.part}: {measure.title} | {measure.cell('A')} | {measure.cell('B')} | {measure.ratio()} |")
    print()
    print("Medians over the rounds (each round's figure in brackets when there are several); a store figure is "
          "itself the median of one StoreBenchmark process's runs. B / A below 1 means B took less time; "
          "for requests/s, above 1 means B served more.")
    if any(m.coarse() for m in store):
        print("† A StoreBenchmark printed this figure with a step over 4 % of it (0.1 ms below 2.5 ms): "
              "the ratio is as much rounding as measure.")
    for note in serve_notes + import_notes:
        print(f"\n**Check:** {note}")
    if not (store or serve or imports):
        sys.exit("no figures in " + args.work)


if __name__ == "__main__":
    main()
