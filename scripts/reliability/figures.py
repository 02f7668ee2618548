"""The figures section of docs/reliability.md, from a run's results (run.py --docs)."""

import re

BEGIN, END = "<!-- reliability-figures:begin -->", "<!-- reliability-figures:end -->"


def markdown(results):
    lines = [f"Measured by `scripts/reliability/run.py --docs` (what `make reliability` runs) on {results['started'][:10]} ({results['machine']}, other builds "
             f"running beside it), seed {results['seed']}, release build; {results['seconds'] // 60} min "
             f"{results['seconds'] % 60} s in all.", ""]
    if "import" in results:
        r = results["import"]
        lines += [
            "## Crash consistency: kill -9 during imports",
            "",
            "`scripts/reliability/import_kills.py`. Each trial imports one batch into a fresh library and sends "
            "SIGKILL to the `photos import` process group at a random moment within the import's measured duration; "
            "one trial in four kills the resumed import too. The batch: every `.fixtures/` photo, a spread of `.corpus/` "
            "media (JPEG, PNG, GIF, HEIC/HIF, CR2 RAW, MP4/MOV/3GP) and 90 variants of the fixture JPEGs (a JPEG comment "
            "segment makes each one's bytes new), so the import commits in three transactions of up to 64 assets and a "
            "kill can land between two; byte-identical copies in the batch exercise duplicate detection. Modes in turn: "
            "copy, copy with grid thumbnails (`--thumbnails`), in place (`--in-place`). After the kill(s): "
            "`PRAGMA integrity_check` and `foreign_key_check` (Python's sqlite3, read-only); `photos check --contents`; "
            "`photos ls` against the database; `photos cache warm` (every missing thumbnail made, exit 0), every "
            "thumbnail on disk a whole JPEG, `photos thumbnail` of two assets; then `photos import` of the same batch, "
            "whose result must equal a run without a kill (the same photos by content hash, each once, the same "
            "failures) and check clean.",
            "",
            "| | |",
            "| --- | --- |",
            f"| Trials | {r['trials']} ({', '.join(f'{n} {m}' for m, n in r['byMode'].items())}) |",
            f"| Batch | {r['files']} files, {r['megabytes']} MB → {r['referenceAssets']['copy']} assets "
            f"(import without a kill: {', '.join(f'{m} {s} s' for m, s in r['referenceSeconds'].items())}) |",
            f"| Kills | {r['kills']}, {r['killsWhileRunning']} while the import ran (the rest after it had ended); "
            f"median delay {r['medianKillDelay']} s |",
            f"| Where the first kill left the library | {r['killedBeforeFirstCommit']} before any asset was committed, "
            f"{r['killedMidway']} between two commits, the rest after the last |",
            f"| Leftover files `photos check` reported | in {r['trialsWithLeftovers']} trials"
            f"{' ' + str(dict(r['leftoversByPlace'])) if r['leftoversByPlace'] else ''} (the next open of the library, "
            "`photos check`'s own included, removes a dead process's staging and the originals it moved in without "
            "committing) |",
            f"| **Inconsistent libraries** | **{r.get('inconsistent', sum(1 for f in r['findings'] if any(x.startswith(('integrity:', 'check:')) for x in f['findings'])))}** |",
            f"| **Re-imports not equal to a run without a kill** (missing or duplicated photos) | "
            f"**{sum(1 for f in r['findings'] if any('re-import' in x for x in f['findings']))}** |",
            f"| Time | {r['seconds']} s |",
            "",
        ]
        if r["leftOutUnrenderable"]:
            lines += [f"Left out of the batch: {', '.join(f'`{name}`' for name in r['leftOutUnrenderable'])}, which "
                      "`photos import` takes but no image can be made of (see `## Malformed inputs`); with it every "
                      "trial's `photos cache warm` would fail for a reason that has nothing to do with the kill.", ""]
    if "changes" in results:
        r = results["changes"]
        kinds = ", ".join(f"{kind} {c['applied'] + c['notApplied'] + c['partial']}" for kind, c in sorted(r["byKind"].items()))
        lines += [
            "## Crash consistency: kill -9 during change blocks",
            "",
            "`scripts/reliability/change_kills.py`. One library of 60 photos (copied in) lives through all trials. "
            "Each trial picks a CLI command whose one change block touches many objects, so a part of it would show: "
            "`favorite`/`unfavorite`/`hide`/`unhide`/`delete`/`recover` of 2-20 assets, `delete --permanently` "
            "(rows, then files), `album add`/`album remove` of 2-20 assets, `album create --folder` (album and folder "
            "in one block), `album rename`, `album delete`, `edit --rotate 90 --exposure` (a render moved in with "
            "its rows) and `revert`. The command first runs to its end on a copy of the library (the state after the "
            "block, and its duration); then it runs on the library and gets SIGKILL at a random moment within 20-100 % "
            "of that duration. The library's state (every asset's favorite, hidden, trashed, edited flags, pixel size "
            "and file count; every album's folder and members; read with sqlite3) must then equal the state before "
            "or the state after, exactly; integrity and `photos check --contents` must pass.",
            "",
            "| | |",
            "| --- | --- |",
            f"| Trials | {r['trials']}: {kinds} |",
            f"| Kills while the command ran | {r['killsWhileRunning']} |",
            f"| Block applied / not applied | {r['applied']} / {r['notApplied']} |",
            f"| Not applied although the killed process had written to the WAL | {r['walWrittenNotApplied']} "
            "(killed inside the transaction, before its commit) |",
            f"| Leftover files | {', '.join(f'{n} in {place}/' for place, n in sorted(r['leftoverFilesByPlace'].items())) or 'none'} "
            "(the originals of `delete --permanently` and the renders an `edit` or `revert` replaces go after the "
            "transaction commits; a kill between leaves files no row names, which `photos check --repair` removes "
            "(renders) or moves to `recovered/` (originals)) |",
            f"| **Blocks applied in part** | **{r['partial']}** |",
            f"| **Inconsistent libraries** (integrity, `photos check --contents`) | **{r.get('inconsistent', sum(1 for f in r['findings'] if any(x.startswith(('integrity:', 'check:')) for x in f['findings'])))}** |",
            f"| Time | {r['seconds']} s |",
            "",
        ]
    if "writers" in results:
        r = results["writers"]
        lines += [
            "## Concurrent writers",
            "",
            f"`scripts/reliability/concurrent_writers.py`. {r['rounds']} rounds, each on a fresh library of real photos: "
            f"{r['writers']} writers run `photos` commands one after another ({r['writers']} writer processes at any "
            "moment), while a `photos import` of 30 other photos runs: `album add` to one shared album of assets no "
            "other writer touches, `favorite`/`unfavorite` and `edit --rotate 90` of the writer's own assets, "
            "`album rename` of its own album, `album create`. Afterwards the library must hold exactly what all "
            "changes together make (every asset in the shared album, each asset's last favorite value, each album's "
            "last title, every created album, every edit's turned size, all 30 imported photos).",
            "",
            "| | |",
            "| --- | --- |",
            f"| Changes | {r['changes']} commands (each a process and a change block) in {r['seconds']} s |",
            f"| **Lost updates** | **{r['lostUpdates']}** |",
            f"| **Commands failed** | **{r['failedCommands']}** ({r['locked']} with \"database is locked\" or busy) |",
            f"| Slowest command | {r['slowestCommandSeconds']} s |",
            "",
        ]
    if "server" in results:
        r = results["server"]
        slow = r["slowClients"]
        categories = ", ".join(f"{name} {c['requests']}" for name, c in r["byCategory"].items())
        lines += [
            "## Server abuse",
            "",
            "`scripts/reliability/server_abuse.py`, against `photos serve` with a read-write token. Every request goes "
            "over its own TCP connection as raw bytes: malformed request lines and heads (bare LF, NUL, control "
            "characters, obsolete folding, two Content-Lengths, bad chunk sizes, a TLS hello, an HTTP/2 preface…), "
            "heads over the limits (100 KB path and query, 1 MB header and cookie, 10,000 fields), Upgrade headers "
            "the server won't follow, bad JSON bodies (truncated, wrong types, 100,000-deep nesting, 1,001 operations, "
            "2 MB, NaN, invalid UTF-8…), bad multipart and raw uploads (no boundary, never closed, no filename, "
            "traversal and control characters in names, 10,000 parts, random bytes, 5 GB Content-Length), broken, "
            "overlapping and enormous byte ranges, path traversal, absurd numbers in query parameters, and seeded "
            "random methods, paths, queries, headers and bodies. A request whose answer has no status line within 15 s "
            "is a hang; one closed without an answer counts too. Meanwhile slow clients and 300 idle connections hold "
            "the server.",
            "",
            "| | |",
            "| --- | --- |",
            f"| Requests | {r['requests']}: {categories} |",
            f"| Answered | {r['answered']} (statuses: {', '.join(f'{k} × {v}' for k, v in r['statuses'].items())}) |",
            f"| **Hangs (no answer within 15 s)** | **{r['hangs']}** |",
            f"| **Closed without an answer** | **{r['closedWithoutAnswer']}** |",
            f"| **5xx** | **{r['5xx']}** |",
            f"| Answers other than the expected status | {r['unexpected']} |",
            f"| Time to answer | median {r['p50Seconds'] * 1000:.1f} ms, 99th percentile {r['p99Seconds'] * 1000:.0f} ms, "
            f"slowest {r['maxSeconds']} s ({r['slowestRequests'][0][1] if r['slowestRequests'] else '-'}) |",
            f"| Slow clients, closed by the server after | "
            + "; ".join(f"{name}: {v['seconds']} s" if v["outcome"] != "held" else f"{name}: still open at {v['seconds']} s"
                        for name, v in slow.items()) + " |",
            f"| 300 idle connections | a normal request answered while they were open; {r['idleClosedByServer']} closed "
            "by the first-request timeout |",
            f"| Healthy afterwards | a normal request answered; resident memory {r['rssStartMiB']} MiB after warm-up, "
            f"{r['rssPeakMiB']} MiB at the peak, {r['rssEndMiB']} MiB at the end; SIGTERM to exit {r['shutdownSeconds']} s |",
            "",
        ]
    return "\n".join(lines).rstrip() + "\n"


def write(path, results):
    with open(path) as handle:
        text = handle.read()
    pattern = re.compile(re.escape(BEGIN) + ".*?" + re.escape(END), re.S)
    block = BEGIN + "\n" + markdown(results) + END
    if not pattern.search(text):
        raise ValueError(f"{path} has no {BEGIN} … {END} block")
    with open(path, "w") as handle:
        handle.write(pattern.sub(lambda _: block, text))
