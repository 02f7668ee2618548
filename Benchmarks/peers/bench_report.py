"""What the benchmark report scripts share (Python 3 stdlib only): reading the runs' RESULT
lines and the machine table, medians and lists of a figure over runs, wrk's error count, the
machine table in Markdown, rewriting a marked section of docs/performance.md, the command line.
"""

import argparse
import statistics
import sys
from pathlib import Path


def parse_results(path):
    """One dict per "peer=NAME run=K key=value ..." line."""
    runs = []
    for line in Path(path).read_text().splitlines():
        fields = dict(part.split("=", 1) for part in line.split() if "=" in part)
        if "peer" in fields:
            runs.append(fields)
    return runs


def parse_machine(path):
    """The "key<TAB>value" lines."""
    machine = {}
    for line in Path(path).read_text().splitlines():
        if "\t" in line:
            key, value = line.split("\t", 1)
            machine[key] = value
    return machine


def number(value):
    try:
        return float(value)
    except (TypeError, ValueError):
        return None


def by_peer(runs):
    """The runs grouped by their `peer`, in the order the peers first come."""
    groups = {}
    for run in runs:
        groups.setdefault(run["peer"], []).append(run)
    return groups


def median(runs, key):
    """The median of a figure over the runs that have it; None when none has."""
    values = [number(run.get(key)) for run in runs]
    values = [value for value in values if value is not None]
    return statistics.median(values) if values else None


def each(runs, key, fmt):
    """Each run's figure, formatted with `fmt` (0 where missing), comma-separated."""
    return ", ".join(fmt.format(number(run.get(key)) or 0) for run in runs)


def wrk_errors(run):
    """wrk's errors in a run: connect, read, write, timeout and status (non-2xx/3xx answers)."""
    return sum(int(number(run.get(key)) or 0) for key in ["connect", "read", "write", "timeout", "status"])


def machine_table(machine, keys=None):
    """The machine's "key<TAB>value" lines as Markdown table lines, then a blank one: `keys`
    (those present) in that order, or all of them as they came."""
    out = ["| Machine | |", "| --- | --- |"]
    for key in keys if keys is not None else machine:
        if key in machine:
            out.append(f"| {key} | {machine[key]} |")
    out.append("")
    return out


def write_docs(path, table, begin, end, section):
    """Replaces the text between the `begin` and `end` markers (appending `section` and the
    markers when missing); other sections are left alone."""
    path = Path(path)
    text = path.read_text() if path.exists() else "# Performance\n"
    block = f"{begin}\n{table}{end}"
    if begin in text and end in text:
        head, rest = text.split(begin, 1)
        _, tail = rest.split(end, 1)
        text = head + block + tail
    else:
        text = text.rstrip("\n") + "\n\n" + section + block + "\n"
    path.write_text(text)


def main(doc, name, build, begin, end, section):
    """`--results FILE --machine FILE [--docs FILE]`: prints the table `build(runs, machine)`
    makes and, with --docs, writes it there."""
    parser = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--results", required=True)
    parser.add_argument("--machine", required=True)
    parser.add_argument("--docs")
    args = parser.parse_args()
    runs = parse_results(args.results)
    if not runs:
        sys.exit(f"{name}: no runs in " + args.results)
    table = build(runs, parse_machine(args.machine))
    sys.stdout.write(table)
    if args.docs:
        write_docs(args.docs, table, begin, end, section)
        print(f"\n(written to {args.docs})", file=sys.stderr)
