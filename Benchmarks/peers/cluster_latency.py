#!/usr/bin/env python3
"""The cost a change pays to reach another instance: toggles favorites through instance A
(one at a time, N times) while live WebSocket clients of A and of B watch the grid, and prints
one RESULT line per watcher: the time from A's answer (the commit done) to the watcher's
`changes` message, p50 / p90 / p99 / max in ms, and the request's own time through A.

    python3 Benchmarks/peers/cluster_latency.py A_BASE [B_BASE] --toggles N
"""

import argparse
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Tests", "EndToEnd"))
from cluster_e2e import LiveClient, request  # noqa: E402


class Base:
    def __init__(self, base):
        self.base = base
        self.port = int(base.rsplit(":", 1)[1].strip("/"))


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("a")
    parser.add_argument("b", nargs="?")
    parser.add_argument("--toggles", type=int, default=200)
    arguments = parser.parse_args()
    a = Base(arguments.a)
    watchers = {"same instance": LiveClient(a)}
    if arguments.b:
        watchers["other instance"] = LiveClient(Base(arguments.b))
    assets = request(a.base, "/api/assets?sort=-creationDate&limit=50")["assets"]
    delays = {name: [] for name in watchers}
    answers = []
    for toggle in range(arguments.toggles):
        asset = assets[toggle % len(assets)]
        value = not asset["isFavorite"]
        asset["isFavorite"] = value
        marks = {name: len(client.messages) for name, client in watchers.items()}
        sent = time.monotonic()
        request(a.base, "/api/changes", {"operations": [{"op": "favorite", "assets": [asset["id"]], "value": value}]})
        answered = time.monotonic()
        answers.append(answered - sent)

        def matches(message, asset=asset, value=value):
            return message.get("type") == "changes" and any(
                item["asset"]["id"] == asset["id"] and item["asset"]["isFavorite"] == value for item in message.get("changed") or [])

        for name, client in watchers.items():
            arrival, _ = client.wait_for(matches, after=marks[name])
            delays[name].append(arrival - answered)
    print(f"RESULT watcher=request p50_ms={statistics.median(answers) * 1000:.2f} p90_ms={percentile(answers, 90) * 1000:.2f} "
          f"p99_ms={percentile(answers, 99) * 1000:.2f} max_ms={max(answers) * 1000:.2f} n={len(answers)}")
    for name, values in delays.items():
        print(f"RESULT watcher={name.replace(' ', '-')} p50_ms={statistics.median(values) * 1000:.2f} "
              f"p90_ms={percentile(values, 90) * 1000:.2f} p99_ms={percentile(values, 99) * 1000:.2f} "
              f"max_ms={max(values) * 1000:.2f} n={len(values)}")
    for client in watchers.values():
        client.close()


if __name__ == "__main__":
    main()
