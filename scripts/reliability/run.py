#!/usr/bin/env python3
"""The reliability harness: drives the real `photos` binary and a real `photos serve` to
measure the promises docs/reliability.md makes. `make reliability` runs it (release build).

    python3 scripts/reliability/run.py PATH-TO-photos [--only import,changes,writers,server]

Trial kinds, one file each:
  import_kills.py        kill -9 during `photos import`, then consistency and re-import
  change_kills.py        kill -9 during CLI change blocks, then all-or-nothing per block
  concurrent_writers.py  4 writer processes at once on one library: no lost update, no "locked"
  server_abuse.py        malformed, oversized, slow and fuzzed requests against `photos serve`
  figures.py             the figures section of docs/reliability.md (--docs)

Figures go to standard output and, as JSON, to .build/reliability/results.json. The exit status
is 1 when any trial found a broken promise. Counts and the seed are options (and environment
variables RELIABILITY_*), so a failing trial can be replayed.
"""

import argparse
import json
import os
import platform
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import change_kills  # noqa: E402
import concurrent_writers  # noqa: E402
import figures  # noqa: E402
import import_kills  # noqa: E402
import server_abuse  # noqa: E402
from harness import fresh_folder, log  # noqa: E402

KINDS = ["import", "changes", "writers", "server"]


def main():
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    environment = os.environ.get
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("photos", help="the photos binary")
    parser.add_argument("--only", default=environment("RELIABILITY_ONLY", ",".join(KINDS)))
    parser.add_argument("--seed", type=int, default=int(environment("RELIABILITY_SEED", "18")))
    parser.add_argument("--import-trials", type=int, default=int(environment("RELIABILITY_IMPORT_TRIALS", "120")))
    parser.add_argument("--change-trials", type=int, default=int(environment("RELIABILITY_CHANGE_TRIALS", "300")))
    parser.add_argument("--writers", type=int, default=int(environment("RELIABILITY_WRITERS", "4")))
    parser.add_argument("--changes-per-writer", type=int, default=int(environment("RELIABILITY_CHANGES_PER_WRITER", "40")))
    parser.add_argument("--writer-rounds", type=int, default=int(environment("RELIABILITY_WRITER_ROUNDS", "3")))
    parser.add_argument("--fuzz-requests", type=int, default=int(environment("RELIABILITY_FUZZ_REQUESTS", "2000")))
    parser.add_argument("--fixtures", default=os.path.join(root, ".fixtures"))
    parser.add_argument("--corpus", default=os.path.join(root, ".corpus"))
    parser.add_argument("--work", default=os.path.join(root, ".build", "reliability"))
    parser.add_argument("--output", default=None, help="the JSON results (default: WORK/results.json)")
    parser.add_argument("--docs", action="store_true", help="rewrite the figures in docs/reliability.md (a full run)")
    arguments = parser.parse_args()
    binary = os.path.abspath(arguments.photos)
    kinds = [kind.strip() for kind in arguments.only.split(",") if kind.strip()]
    unknown = set(kinds) - set(KINDS)
    if unknown:
        parser.error(f"unknown trial kinds {sorted(unknown)}; choose from {KINDS}")

    work = os.path.abspath(arguments.work)
    os.makedirs(work, exist_ok=True)
    output = arguments.output or os.path.join(work, "results.json")
    results = {"seed": arguments.seed, "binary": binary, "machine": f"{platform.machine()}, {os.cpu_count()} cores",
               "started": time.strftime("%Y-%m-%d %H:%M:%S")}
    start = time.monotonic()
    if "import" in kinds:
        results["import"] = import_kills.run(binary, fresh_folder(os.path.join(work, "import")), arguments.fixtures,
                                             arguments.corpus, arguments.import_trials, arguments.seed)
    if "changes" in kinds:
        results["changes"] = change_kills.run(binary, fresh_folder(os.path.join(work, "changes")), arguments.fixtures,
                                              arguments.change_trials, arguments.seed)
    if "writers" in kinds:
        results["writers"] = concurrent_writers.run(binary, fresh_folder(os.path.join(work, "writers")),
                                                    arguments.fixtures, arguments.writers, arguments.changes_per_writer,
                                                    arguments.writer_rounds, arguments.seed)
    if "server" in kinds:
        results["server"] = server_abuse.run(binary, fresh_folder(os.path.join(work, "server")), arguments.fixtures,
                                             arguments.fuzz_requests, arguments.seed)
    results["seconds"] = round(time.monotonic() - start)
    with open(output, "w") as handle:
        json.dump(results, handle, indent=2)

    if arguments.docs:
        figures.write(os.path.join(root, "docs", "reliability.md"), results)
    log("")
    log(f"Figures (seed {arguments.seed}, {results['seconds']} s; details in {output}):")
    failed = False
    for kind in kinds:
        measured = results[kind]
        failed = failed or measured.get("broken", 0) > 0
        log(f"  {kind}: {json.dumps({k: v for k, v in measured.items() if not isinstance(v, (list, dict))})}")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
