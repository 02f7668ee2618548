"""What the benchmark report scripts share (Python 3 stdlib only): reading the runs' RESULT
lines and the machine table, rewriting a marked section of docs/performance.md, the command line.
"""

import argparse
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
