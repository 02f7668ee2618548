#!/usr/bin/env python3
"""The gallery of a very large library (issue 19, aim 2): starts `photos serve` itself and drives
headless Chromium, measuring what a person sees and what the server holds.

usage: gallery_scale.py PHOTOS LIBRARY TOKEN --album TITLE [--runs R] [--seconds S]
                        [--use-seconds U] [--toggles N] [--out FILE]

Measures, in one browser and one server process (the server restarted for 1):
  1. start: from launching `photos serve` (the process's spawn) to the first screen of
     thumbnails in a browser already signed in (the session cookie kept from an earlier
     server: sessions are rows of the library); the browser loads the page once the port
     accepts connections. R restarts; each also splits the time into "listening" (spawn to the
     port accepting) and the page's part.
  2. for each view (library, favorites, the album TITLE): the switch from another view to its
     first screen (the sidebar clicked), frame intervals while scrolling 60 CSS px per 60 Hz
     frame by the clock for S seconds, and the time until every visible thumbnail shows after
     jumping to 10 %, 50 %, 90 % and the end; R times each.
  3. live: N favorite toggles through `POST /api/changes` (the page's own fetch, one at a
     time, each asset turned off then on again) while a second WebSocket on /api/live holds the
     library's and the favorites' fetches: the time from sending the request to each
     subscription's `changes` message (all in the page's clock, performance.now()).
  4. use: U seconds of scripted use (view switches, 2 s scrolls, jumps to random points,
     favorite toggles), the server's /proc/PID/status (VmRSS, RssAnon, RssFile, VmHWM) sampled
     every 5 s, before and after.
Prints RESULT lines (key=value) and writes them to FILE.
"""
import argparse
import json
import os
import random
import shutil
import socket
import subprocess
import sys
import time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from gallery_scroll import SCROLL, VISIBLE, VISIBLE_FUNCTION, percentile

# The first visible cell's asset id, the grid's scroll position, and whether every visible cell shows its thumbnail.
SCREEN = VISIBLE_FUNCTION + """
const grid = document.getElementById('grid'), box = grid.getBoundingClientRect();
const first = [...grid.querySelectorAll('.cell')].find(c => { const r = c.getBoundingClientRect(); return !c.hidden && c.dataset.id && r.bottom > box.top; });
const [all, ok] = visibleCells();
return [first ? first.dataset.id : null, grid.scrollTop, all > 0 && all === ok];
"""

# N favorite toggles, one at a time, timed to their `changes` on a second socket that holds the
# library's fetch and the favorites' fetch.
LIVE = """
const [ids, done] = arguments;
const socket = new WebSocket(`ws://${location.host}/api/live`);
const subscriptions = {library: null, favorites: 'isFavorite == YES'};
const results = [];
let subscribed = 0, pending = null, index = 0;
function next() {
  if (index >= ids.length * 2) { socket.close(); done({results}); return; }
  const id = ids[Math.floor(index / 2)], value = index % 2 === 1;
  index += 1;
  pending = {t0: performance.now(), http: null, got: {}, id};
  const mine = pending;
  fetch('/api/changes', {method: 'POST', headers: {'Content-Type': 'application/json'},
                         body: JSON.stringify({operations: [{op: 'favorite', assets: [id], value}]})})
    .then(r => { mine.http = performance.now() - mine.t0; mine.status = r.status; finish(mine); });
  mine.timer = setTimeout(() => { mine.timedOut = true; finish(mine, true); }, 5000);
}
function finish(entry, force) {
  if (entry !== pending) return;
  if (!force && (entry.http === null || Object.keys(entry.got).length < 2)) return;
  clearTimeout(entry.timer);
  pending = null;
  results.push({http: entry.http, status: entry.status, library: entry.got.library ?? null, favorites: entry.got.favorites ?? null});
  setTimeout(next, 20);
}
socket.onopen = () => {
  for (const [name, predicate] of Object.entries(subscriptions))
    socket.send(JSON.stringify({type: 'subscribe', subscription: name, sort: '-creationDate', predicate, collection: null}));
};
socket.onmessage = (event) => {
  const message = JSON.parse(event.data);
  if (message.type === 'subscribed') { subscribed += 1; if (subscribed === 2) next(); return; }
  if (message.type === 'changes' && pending && !(message.subscription in pending.got)) {
    pending.got[message.subscription] = performance.now() - pending.t0;
    finish(pending);
  }
};
socket.onerror = () => done({error: 'socket error', results});
"""

TOGGLE = """
const [id, value, done] = arguments;
fetch('/api/changes', {method: 'POST', headers: {'Content-Type': 'application/json'},
                       body: JSON.stringify({operations: [{op: 'favorite', assets: [id], value}]})})
  .then(r => done(r.status), e => done(String(e)));
"""

IDS = """
const [offset, count, done] = arguments;
fetch(`/api/assets?offset=${offset}&limit=${count}`).then(r => r.json()).then(p => done(p.assets.map(a => a.id)));
"""


def status_of(pid):
    """VmRSS, RssAnon, RssFile, RssShmem, VmHWM of a process, and from smaps_rollup its Pss and
    Pss_File, in MiB. The database is mapped once per SQLite connection, and VmRSS counts a file
    page once for each mapping it is resident in; Pss counts it once (shared with other processes
    in proportion)."""
    fields = {}
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            key, _, value = line.partition(":")
            if key in ("VmRSS", "RssAnon", "RssFile", "RssShmem", "VmHWM"):
                fields[key] = int(value.split()[0]) / 1024
    with open(f"/proc/{pid}/smaps_rollup") as rollup:
        for line in rollup:
            key, _, value = line.partition(":")
            if key in ("Pss", "Pss_File"):
                fields[key] = int(value.split()[0]) / 1024
    return fields


def cpu_seconds(pid):
    """User + system CPU time of a process so far."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def machine_busy():
    """CPU time (s) all processes used so far, from /proc/stat (user, nice, system, irq, softirq)."""
    with open("/proc/stat") as stat:
        fields = [int(v) for v in stat.readline().split()[1:]]
    return (fields[0] + fields[1] + fields[2] + fields[5] + fields[6]) / os.sysconf("SC_CLK_TCK")


class Bench:
    def __init__(self, args):
        self.args = args
        self.server = None
        self.port = None
        options = webdriver.ChromeOptions()
        options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
        for argument in ["--headless=new", "--no-sandbox", "--window-size=1280,860", "--disable-dev-shm-usage"]:
            options.add_argument(argument)
        self.driver = webdriver.Chrome(service=Service(executable_path=shutil.which("chromedriver") or "/usr/bin/chromedriver"),
                                       options=options)
        self.driver.set_script_timeout(max(args.seconds, 30) + 300)

    def wait(self, condition, seconds=60):
        return WebDriverWait(self.driver, seconds, poll_frequency=0.01).until(lambda _: condition())

    def script(self, *arguments):
        return self.driver.execute_script(*arguments)

    @property
    def url(self):
        return f"http://127.0.0.1:{self.port}"

    def start_server(self, log_name):
        """Spawns `photos serve`; returns (spawn time, time the port accepted)."""
        if self.port is None:
            probe = socket.socket()
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
            probe.close()
        log = open(os.path.join(self.args.logs, f"server-{log_name}.log"), "w")
        spawned = time.monotonic()
        self.server = subprocess.Popen([self.args.photos, "serve", "--library", self.args.library, "--port", str(self.port)]
                                       + self.args.serve_args.split(),
                                       stdout=log, stderr=subprocess.STDOUT)
        while True:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return spawned, time.monotonic()
            except OSError:
                if self.server.poll() is not None:
                    raise RuntimeError(f"photos serve exited with {self.server.returncode}")
                time.sleep(0.002)

    def stop_server(self):
        self.server.terminate()
        self.server.wait(timeout=30)
        self.server = None

    def screen_full(self):
        _, _, full = self.script(SCREEN)
        return full

    def sign_in(self):
        self.driver.get(self.url + "/")
        self.wait(lambda: self.driver.find_element(By.ID, "signin").is_displayed())
        self.driver.find_element(By.CSS_SELECTOR, "#signin input[name=token]").send_keys(self.args.token)
        started = time.monotonic()
        self.driver.find_element(By.CSS_SELECTOR, "#signin button").click()
        self.wait(self.screen_full)
        return (time.monotonic() - started) * 1000

    def restart(self, run):
        """Server start to first screen, the browser signed in before."""
        self.stop_server()
        spawned, listening = self.start_server(f"start-{run}")
        self.driver.get(self.url + "/")
        self.wait(self.screen_full)
        done = time.monotonic()
        return {"start_ms": (done - spawned) * 1000, "listen_ms": (listening - spawned) * 1000, "page_ms": (done - listening) * 1000}

    def nav_button(self, view):
        if view == "library":
            return self.driver.find_element(By.CSS_SELECTOR, "#sidebar [data-nav=library]")
        if view == "favorites":
            return self.driver.find_element(By.CSS_SELECTOR, "#sidebar [data-nav=favorites]")
        return self.wait(lambda: next((b for b in self.driver.find_elements(By.CSS_SELECTOR, "#nav-albums button.nav-item")
                                       if b.find_element(By.CLASS_NAME, "name").text == self.args.album), None))

    def jump(self, fraction):
        self.script("const g = document.getElementById('grid'); g.scrollTop = (g.scrollHeight - g.clientHeight) * arguments[0]", fraction)
        jumped = time.monotonic()
        self.wait(self.screen_full)
        return (time.monotonic() - jumped) * 1000

    def switch(self, view):
        """Clicks a view in the sidebar from the middle of the current one: time to its first screen."""
        self.jump(0.5)
        before, _, _ = self.script(SCREEN)
        button = self.nav_button(view)
        started = time.monotonic()
        button.click()
        self.wait(lambda: (lambda s: s[0] is not None and s[0] != before and s[1] == 0 and s[2])(self.script(SCREEN)))
        return (time.monotonic() - started) * 1000

    def view(self, view):
        result = {"switch_ms": self.switch(view)}
        result["count"] = int("".join(ch for ch in self.driver.find_element(By.ID, "count").text if ch.isdigit()) or 0)
        server, machine, wall = cpu_seconds(self.server.pid), machine_busy(), time.monotonic()
        measured = self.driver.execute_async_script(SCROLL, self.args.seconds, 60)
        wall = time.monotonic() - wall
        # While scrolling: the server's share of one core, and the whole machine's busy cores.
        result["server_cores"] = (cpu_seconds(self.server.pid) - server) / wall
        result["machine_cores"] = (machine_busy() - machine) / wall
        frames = measured["frames"][1:]
        result.update({
            "frames": len(frames), "frame_p50_ms": percentile(frames, 50), "frame_p95_ms": percentile(frames, 95),
            "frame_p99_ms": percentile(frames, 99), "frame_max_ms": max(frames),
            "frames_over_50ms": sum(1 for f in frames if f > 50), "scrolled_px": measured["top"] - measured["top0"],
            "fill_min": min(measured["fill"]),
        })
        for name, fraction in [("10", 0.1), ("50", 0.5), ("90", 0.9), ("end", 1.0)]:
            result[f"jump_{name}_ms"] = self.jump(fraction)
        result["cells_in_dom"] = self.script("return document.querySelectorAll('#grid .cell').length")
        # Chromium lays out at most 2^25 px (33,554,431): a taller spacer is clipped and the end of
        # the fetch can't be scrolled to.
        result["spacer_px"] = self.script("return parseFloat(document.querySelector('#grid .spacer').style.height)")
        result["scroll_height_px"] = self.script("return document.getElementById('grid').scrollHeight")
        return result

    def ids(self, offset, count):
        return self.driver.execute_async_script(IDS, offset, count)

    def live(self):
        ids = self.ids(self.args.assets // 3, self.args.toggles // 2)
        measured = self.driver.execute_async_script(LIVE, ids)
        results = measured["results"]
        if measured.get("error") or len(results) < self.args.toggles:
            raise RuntimeError(f"live: {measured.get('error')}, {len(results)} of {self.args.toggles} toggles")
        result = {"toggles": len(results), "toggle_http_statuses": ",".join(sorted({str(r["status"]) for r in results}))}
        for key in ["http", "library", "favorites"]:
            values = [r[key] for r in results if r[key] is not None]
            result[f"live_{key}_missing"] = len(results) - len(values)
            if values:
                result[f"live_{key}_p50_ms"] = percentile(values, 50)
                result[f"live_{key}_p95_ms"] = percentile(values, 95)
                result[f"live_{key}_max_ms"] = max(values)
        return result

    def use(self):
        """U seconds of scripted use; the server's memory sampled every 5 s."""
        pid = self.server.pid
        rng = random.Random(19)
        before = status_of(pid)
        samples, jump_times, counts = [], [], {"switches": 0, "scrolls": 0, "jumps": 0, "toggles": 0, "slow_jumps": 0}
        views = ["library", "favorites", "album"]
        started = time.monotonic()
        next_sample = started
        iteration = 0
        while time.monotonic() - started < self.args.use_seconds:
            now = time.monotonic()
            if now >= next_sample:
                samples.append(status_of(pid))
                next_sample += 5
            self.switch(views[iteration % 3])
            counts["switches"] += 1
            self.driver.execute_async_script(SCROLL, 2, 60)
            counts["scrolls"] += 1
            for _ in range(4):
                jumped = self.jump(rng.random())
                jump_times.append(jumped)
                if jumped > 300:
                    counts["slow_jumps"] += 1
                counts["jumps"] += 1
            for id in self.ids(rng.randrange(self.args.assets - 1), 1):
                for value in (False, True):
                    self.driver.execute_async_script(TOGGLE, id, value)
                    counts["toggles"] += 1
            iteration += 1
        samples.append(status_of(pid))
        after = status_of(pid)
        result = {"use_s": time.monotonic() - started, "iterations": iteration, **counts}
        for key in ["VmRSS", "RssAnon", "RssFile", "RssShmem", "Pss", "Pss_File"]:
            result[f"{key}_before_mb"] = before.get(key, 0)
            result[f"{key}_after_mb"] = after.get(key, 0)
            result[f"{key}_max_mb"] = max(s.get(key, 0) for s in samples)
        result["VmHWM_mb"] = after.get("VmHWM", 0)
        for p in (50, 90, 95):
            result[f"jump_p{p}_ms"] = percentile(jump_times, p) if jump_times else 0
        result["rss_samples_mb"] = ",".join(f"{s.get('VmRSS', 0):.0f}" for s in samples)
        return result


# One 60 Hz frame: requestAnimationFrame intervals read 16.6-16.8 ms when none is dropped.
FRAME_MS = 16.7
FRAME_JITTER_MS = 0.3


def median(values):
    ordered = sorted(values)
    middle = len(ordered) // 2
    return ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2


def verdicts(results):
    """AIM2 lines: medians over the runs, PASS or MISS against issue 19's aim 2."""
    def verdict(ok):
        return "PASS" if ok else "MISS"
    lines = []
    starts = [r["start_ms"] for r in results if r["kind"] == "start"]
    if starts:
        value = median(starts)
        lines.append(f"AIM2 start_to_first_screen_ms median={value:.0f} runs={','.join(f'{v:.0f}' for v in starts)} "
                     f"(listening median={median([r['listen_ms'] for r in results if r['kind'] == 'start']):.0f}) "
                     f"aim<=1000 {verdict(value <= 1000)}")
    for view in ["library", "favorites", "album"]:
        runs = [r for r in results if r["kind"] == "view" and r["view"] == view]
        if not runs:
            continue
        jumps = {name: median([r[f"jump_{name}_ms"] for r in runs]) for name in ["10", "50", "90", "end"]}
        worst = max(r[f"jump_{name}_ms"] for r in runs for name in jumps)
        lines.append(f"AIM2 {view} count={runs[0]['count']} jumps_ms median 10/50/90/end="
                     f"{'/'.join(f'{v:.0f}' for v in jumps.values())} worst={worst:.0f} aim<=300 {verdict(max(jumps.values()) <= 300)}")
        p95 = median([r["frame_p95_ms"] for r in runs])
        lines.append(f"AIM2 {view} frame_p95_ms median={p95:.1f} runs={','.join('%.1f' % r['frame_p95_ms'] for r in runs)} "
                     f"over_50ms={','.join(str(r['frames_over_50ms']) for r in runs)} "
                     f"switch_ms median={median([r['switch_ms'] for r in runs]):.0f} aim<=16.7 {verdict(p95 <= FRAME_MS + FRAME_JITTER_MS)}")
    for use in [r for r in results if r["kind"] == "use"]:
        lines.append(f"AIM2 rss_after_use_mb VmRSS={use['VmRSS_after_mb']:.0f} (RssAnon={use['RssAnon_after_mb']:.0f} "
                     f"RssFile={use['RssFile_after_mb']:.0f}, Pss={use['Pss_after_mb']:.0f}, Pss_File={use['Pss_File_after_mb']:.0f}, "
                     f"before VmRSS={use['VmRSS_before_mb']:.0f}, max={use['VmRSS_max_mb']:.0f}, "
                     f"HWM={use['VmHWM_mb']:.0f}) aim<=300 {verdict(use['VmRSS_after_mb'] <= 300)}")
    for live in [r for r in results if r["kind"] == "live"]:
        worst = max(live.get("live_library_p95_ms", 1e9), live.get("live_favorites_p95_ms", 1e9))
        lines.append(f"AIM2 live{'_after_use' if live.get('after_use') else ''} toggles={live['toggles']} "
                     f"library p50/p95={live.get('live_library_p50_ms', -1):.0f}/{live.get('live_library_p95_ms', -1):.0f} ms "
                     f"favorites p50/p95={live.get('live_favorites_p50_ms', -1):.0f}/{live.get('live_favorites_p95_ms', -1):.0f} ms "
                     f"http p50={live.get('live_http_p50_ms', -1):.0f} ms aim p95<=100 {verdict(worst <= 100)}")
    return lines


def shown(result):
    def one(key, value):
        return f"{key}={value:.1f}" if isinstance(value, float) else f"{key}={value}"
    return " ".join(one(key, value) for key, value in result.items())


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("photos")
    parser.add_argument("library")
    parser.add_argument("token")
    parser.add_argument("--serve-args", default="", help="more arguments for `photos serve` (split on spaces)")
    parser.add_argument("--album", required=True)
    parser.add_argument("--assets", type=int, required=True)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--use-seconds", type=float, default=600)
    parser.add_argument("--toggles", type=int, default=50)
    parser.add_argument("--logs", default=".")
    parser.add_argument("--out")
    args = parser.parse_args()

    results = []

    def record(kind, result):
        result = {"kind": kind, "load": float(open("/proc/loadavg").read().split()[0]), **result}
        line = f"RESULT {shown(result)}"
        print(line, flush=True)
        print(json.dumps(result), file=sys.stderr, flush=True)
        results.append(result)
        if args.out:
            with open(args.out, "a") as out:
                out.write(line + "\n")

    bench = Bench(args)
    try:
        bench.start_server("first")
        record("signin", {"first_ms": bench.sign_in(), **status_of(bench.server.pid)})
        for run in range(1, args.runs + 1):
            record("start", {"run": run, **bench.restart(run), **{f"{k}_mb": v for k, v in status_of(bench.server.pid).items()}})
        for run in range(1, args.runs + 1):
            for view in ["favorites", "album", "library"]:
                record("view", {"view": view, "run": run, **bench.view(view)})
        record("live", bench.live())
        if args.use_seconds > 0:
            record("use", bench.use())
        record("live", {"after_use": 1, **bench.live()})
    finally:
        bench.driver.quit()
        if bench.server:
            bench.stop_server()
    for line in verdicts(results):
        print(line)
        if args.out:
            with open(args.out, "a") as out:
                out.write(line + "\n")


if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    main()
