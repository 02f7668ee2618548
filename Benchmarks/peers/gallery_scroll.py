#!/usr/bin/env python3
"""Scrolls the gallery of a large library in headless Chromium and measures what a person sees.

usage: gallery_scroll.py URL TOKEN [--seconds S] [--speed PX_PER_FRAME] [--page-query Q] [--out FILE]

Signs in, then measures (all in the page, with requestAnimationFrame and performance.now()):
  first: from sign-in to the first screen of thumbnails loaded;
  scroll: a steady scroll of SPEED CSS px per 60 Hz frame (60: 3,600 px/s), by the clock (a
    dropped frame doesn't slow it), for S seconds (a flick's pace): frame
    intervals (p50, p95, p99, max; frames over 50 ms), and once a second the share of the
    visible cells showing an image (fill: the real thumbnail or the degraded one a photo carries,
    issue 19 aim 3) and showing the real thumbnail (final), every sample listed;
  jumps: scrollTop set to 10 %, 50 %, 90 % and the end (the scroll bar dragged): time until
    every visible cell's thumbnail is loaded.
Embedded-thumbnail answers (degraded=1 requests answered with X-Photos-Degraded: 1) carry
Server-Timing "embedded" (reading, decoding and shaping the photo's own thumbnail) and "encode":
their medians and 95th percentiles are reported (embedded_ms_p50, ...).
--page-query is appended to the gallery's URL ("?degraded=off": cells wait for their real
thumbnail, as before issue 19).
During the scroll it also records the renderer main thread's task, script, style and layout
seconds (Chrome's Performance metrics: main_*_s) and the CPU seconds each kind of process used
(cpu_renderer_s, cpu_gpu_s, cpu_utility_s: the network service, cpu_browser_s, cpu_server_s:
`photos`), from /proc.
Environment: GALLERY_TRACE=FILE writes a Chrome trace of the scroll (DevTools tracing over the
browser's WebSocket; open it in Perfetto; categories from GALLERY_TRACE_CATEGORIES, default
devtools.timeline,toplevel,blink; frames run slower while tracing); GALLERY_CHROME_ARGS adds
Chromium switches.
Prints one RESULT line of key=value pairs (and writes it to FILE).
"""
import argparse
import os
import json
import shutil
import sys
import time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

# [visible cells, visible cells showing an image (the real thumbnail or the degraded one under
# it, img.quick), visible cells showing the real thumbnail]. Cells still waiting for their asset
# (placeholders, no data-id) count as not shown.
VISIBLE_FUNCTION = """
function visibleCells() {
  const grid = document.getElementById('grid'), box = grid.getBoundingClientRect();
  const cells = [...grid.querySelectorAll('.cell')].filter(c => {
    const r = c.getBoundingClientRect(); return !c.hidden && r.bottom > box.top && r.top < box.bottom; });
  const shown = i => i && i.getAttribute('src') && i.complete && i.naturalWidth > 0 && !i.hidden && getComputedStyle(i).visibility !== 'hidden';
  const loaded = cells.filter(c => c.dataset.id && [...c.querySelectorAll('img')].some(shown));
  const final = cells.filter(c => c.dataset.id && shown(c.querySelector('img:not(.quick)')));
  return [cells.length, loaded.length, final.length];
}
"""
VISIBLE = VISIBLE_FUNCTION + "return visibleCells();"

SCROLL = """
const [seconds, speed, done] = arguments;
const grid = document.getElementById('grid'), frames = [], fill = [], final = [];
""" + VISIBLE_FUNCTION + """
let last = performance.now(), start = last, nextSample = start + 1000;
const top0 = grid.scrollTop;
function step(now) {
  frames.push(now - last); last = now;
  // SPEED px per 60 Hz frame, by the clock: a dropped frame doesn't slow the scroll.
  grid.scrollTop = top0 + speed * 60 * (now - start) / 1000;
  if (now >= nextSample) { const [all, ok, real] = visibleCells(); fill.push(all ? ok / all : 1); final.push(all ? real / all : 1); nextSample += 1000; }
  if (now - start < seconds * 1000) requestAnimationFrame(step); else done({frames, fill, final, top: grid.scrollTop, top0});
}
requestAnimationFrame(step);
"""


def process_cpu():
    """CPU seconds used so far by this machine's Chromium processes, by kind (renderer, gpu,
    browser, utility), and by `photos` processes (the server), from /proc."""
    ticks = os.sysconf("SC_CLK_TCK")
    used = {}
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/stat") as stat:
                text = stat.read()
            with open(f"/proc/{pid}/cmdline", "rb") as cmdline:
                command = cmdline.read().split(b"\0")
        except OSError:
            continue
        name = text[text.index("(") + 1:text.rindex(")")]
        fields = text[text.rindex(")") + 2:].split()
        seconds = (int(fields[11]) + int(fields[12])) / ticks
        if name in ("chromium", "chrome"):
            # Chromium rewrites its processes' titles: the switches may sit in one string.
            kind = next((a.split(b"=", 1)[1].decode() for a in b" ".join(command).split() if a.startswith(b"--type=")),
                        "browser")
            kind = {"gpu-process": "gpu"}.get(kind, kind)
        elif name == "photos":
            kind = "server"
        else:
            continue
        used[kind] = used.get(kind, 0) + seconds
    return used


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


class Tracer:
    """A Chrome trace over the browser's DevTools WebSocket (Tracing.start / Tracing.end, the
    trace returned as a stream), as DevTools' Performance panel records it."""

    CATEGORIES = os.environ.get("GALLERY_TRACE_CATEGORIES", "devtools.timeline,toplevel,blink").split(",")

    def __init__(self, driver):
        import urllib.request
        import websocket
        address = driver.capabilities["goog:chromeOptions"]["debuggerAddress"]
        url = json.load(urllib.request.urlopen(f"http://{address}/json/version"))["webSocketDebuggerUrl"]
        self.socket = websocket.create_connection(url, timeout=120, suppress_origin=True)
        self.next_id = 0

    def call(self, method, params=None, until=None):
        self.next_id += 1
        self.socket.send(json.dumps({"id": self.next_id, "method": method, "params": params or {}}))
        while True:
            message = json.loads(self.socket.recv())
            if until and message.get("method") == until:
                return message["params"]
            if not until and message.get("id") == self.next_id:
                return message.get("result", {})

    def start(self):
        self.call("Tracing.start", {"transferMode": "ReturnAsStream",
                                    "traceConfig": {"includedCategories": self.CATEGORIES}})

    def stop(self, path):
        handle = self.call("Tracing.end", until="Tracing.tracingComplete")["stream"]
        with open(path, "w") as out:
            while True:
                chunk = self.call("IO.read", {"handle": handle, "size": 1 << 20})
                out.write(chunk.get("data", ""))
                if chunk.get("eof"):
                    break
        self.call("IO.close", {"handle": handle})


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("url")
    parser.add_argument("token")
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--speed", type=float, default=60)
    parser.add_argument("--page-query", default="")
    parser.add_argument("--out")
    args = parser.parse_args()

    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    # GALLERY_CHROME_ARGS: more Chromium switches (e.g. --trace-startup=... for a trace of the run).
    for argument in ["--headless=new", "--no-sandbox", "--window-size=1280,860", "--disable-dev-shm-usage"] \
            + os.environ.get("GALLERY_CHROME_ARGS", "").split():
        options.add_argument(argument)
    # GALLERY_TRACE=FILE: a Chrome trace of the scroll written to FILE (for Perfetto or
    # chrome://tracing); frames run slower while tracing.
    trace_file = os.environ.get("GALLERY_TRACE")
    driver = webdriver.Chrome(service=Service(executable_path=shutil.which("chromedriver") or "/usr/bin/chromedriver"),
                              options=options)
    driver.set_script_timeout(args.seconds + 60)
    wait = lambda condition, seconds=60: WebDriverWait(driver, seconds, poll_frequency=0.02).until(lambda _: condition())
    script = driver.execute_script
    result = {}
    try:
        driver.get(args.url + "/" + args.page_query)
        wait(lambda: driver.find_element(By.ID, "signin").is_displayed())
        script("performance.setResourceTimingBufferSize(100000)")
        driver.find_element(By.CSS_SELECTOR, "#signin input[name=token]").send_keys(args.token)
        started = time.monotonic()
        driver.find_element(By.CSS_SELECTOR, "#signin button").click()
        wait(lambda: (lambda v: v[0] > 0 and v[0] == v[1])(script(VISIBLE)))
        result["first_ms"] = (time.monotonic() - started) * 1000
        result["count"] = int("".join(ch for ch in driver.find_element(By.ID, "count").text if ch.isdigit()) or 0)
        result["cells_in_dom"] = script("return document.querySelectorAll('#grid .cell').length")

        # Where the renderer's main thread spent the scroll (Chrome DevTools' Performance
        # metrics, seconds): scripts, style, layout, and tasks in all.
        driver.execute_cdp_cmd("Performance.enable", {})
        before = {m["name"]: m["value"] for m in driver.execute_cdp_cmd("Performance.getMetrics", {})["metrics"]}
        tracer = Tracer(driver) if trace_file else None
        if tracer:
            tracer.start()
        cpu_before = process_cpu()
        measured = driver.execute_async_script(SCROLL, args.seconds, args.speed)
        cpu_after = process_cpu()
        if tracer:
            tracer.stop(trace_file)
        after = {m["name"]: m["value"] for m in driver.execute_cdp_cmd("Performance.getMetrics", {})["metrics"]}
        for name in ["TaskDuration", "ScriptDuration", "RecalcStyleDuration", "LayoutDuration"]:
            result[f"main_{name[:-8].lower()}_s"] = round(after.get(name, 0) - before.get(name, 0), 3)
        # CPU seconds each kind of process used during the scroll (2 cores: at most 2 s per s).
        for kind in sorted(set(cpu_after) | set(cpu_before)):
            result[f"cpu_{kind}_s"] = round(cpu_after.get(kind, 0) - cpu_before.get(kind, 0), 2)
        frames = measured["frames"][1:]
        result.update({
            "frames": len(frames), "px_per_s": (measured["top"] - measured["top0"]) / args.seconds,
            "frame_p50_ms": percentile(frames, 50), "frame_p95_ms": percentile(frames, 95),
            "frame_p99_ms": percentile(frames, 99), "frame_max_ms": max(frames),
            "frames_over_50ms": sum(1 for f in frames if f > 50),
            "scrolled_px": measured["top"],
            "fill_min": min(measured["fill"]), "fill_mean": sum(measured["fill"]) / len(measured["fill"]),
            "fill_samples": ",".join(f"{f:.2f}" for f in measured["fill"]),
            "final_min": min(measured["final"]), "final_mean": sum(measured["final"]) / len(measured["final"]),
            "final_samples": ",".join(f"{f:.2f}" for f in measured["final"]),
        })
        for name, fraction in [("10", 0.1), ("50", 0.5), ("90", 0.9), ("end", 1.0)]:
            script("const g = document.getElementById('grid'); g.scrollTop = (g.scrollHeight - g.clientHeight) * arguments[0]", fraction)
            jumped = time.monotonic()
            wait(lambda: (lambda v: v[0] > 0 and v[0] == v[1])(script(VISIBLE)))
            result[f"jump_{name}_ms"] = (time.monotonic() - jumped) * 1000
        result["dom_cells_after"] = script("return document.querySelectorAll('#grid .cell').length")
        # Thumbnail requests, from the browser's resource timing: waiting for a connection
        # (request start - fetch start) and the server's answer (response start - request start).
        timing = script("""return performance.getEntriesByType('resource').filter(e => e.name.includes('/image?'))
            .map(e => [e.requestStart ? e.requestStart - e.fetchStart : -1, e.requestStart ? e.responseStart - e.requestStart : -1, e.duration])""")
        answered = [t for t in timing if t[0] >= 0]
        # The degraded answers' Server-Timing: the embedded thumbnail's read + decode + shape, and its encode.
        embedded = script("""return performance.getEntriesByType('resource').filter(e => e.name.includes('degraded=1'))
            .map(e => Object.fromEntries((e.serverTiming || []).map(t => [t.name, t.duration])))""")
        result["quick_requests"] = len(embedded)
        result["degraded_answers"] = sum(1 for t in embedded if "embedded" in t)
        for name in ["embedded", "encode"]:
            values = [t[name] for t in embedded if name in t]
            if values:
                result[f"{name}_ms_p50"] = percentile(values, 50)
                result[f"{name}_ms_p95"] = percentile(values, 95)
        result["images"] = len(timing)
        if answered:
            result["image_queue_p50_ms"] = percentile([t[0] for t in answered], 50)
            result["image_server_p50_ms"] = percentile([t[1] for t in answered], 50)
            result["image_server_p95_ms"] = percentile([t[1] for t in answered], 95)
    finally:
        driver.quit()
    def shown(key, value):
        if not isinstance(value, float):
            return f"{key}={value}"
        return f"{key}={value:.3f}" if key.startswith(("embedded_", "encode_", "fill_", "final_")) else f"{key}={value:.1f}"
    line = "RESULT " + " ".join(shown(key, value) for key, value in result.items())
    print(line)
    if args.out:
        with open(args.out, "w") as out:
            out.write(line + "\n")
    print(json.dumps(result, indent=1), file=sys.stderr)


if __name__ == "__main__":
    main()
