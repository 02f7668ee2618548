#!/usr/bin/env python3
"""The browser's own floor for the gallery's frame aim (issue 19, aim 2): the same headless
Chromium, window and scroll (60 CSS px per 60 Hz frame by the clock, the gallery benchmarks'
SCROLL) over pages that need no server and do no work per frame of their own:

  empty   a scroll container as tall as the 1,000,000-asset grid (28,527,800 px), nothing in it
  cells   the same with 60 absolutely positioned cells of 256 px JPEG thumbnails (files given
          on the command line), moved to the visible rows on each scroll event as the gallery's
          virtual grid does, their images never changed
  fresh   the same cells, each given a new image URL when it moves to a new asset (the file
          with the asset's number as a query: a new resource the browser loads, decodes and
          rasters, as the gallery's cells do with their thumbnails), all from local files

  fade    "fresh" with the gallery's fade-in: each image at opacity 0 until loaded, then 1 over
          0.12 s (a CSS transition)
  http    "fresh" (and http-fade, "fade") with the page and images served over HTTP/1.1 by Python's threaded
          http.server on loopback (a new request per cell, as the gallery makes) instead of
          read from files

If these drop frames as the gallery does, the browser on this machine is what bounds the
gallery's frames, not the gallery or its server. Prints one RESULT line per page.

    python3 scroll_floor.py [--seconds 10] [--runs 3] THUMBNAIL.jpg...
"""
import argparse
import functools
import http.server
import os
import threading
import pathlib
import shutil
import tempfile
import time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

from gallery_scroll import SCROLL, Tracer, percentile, process_cpu

PAGE = """<!doctype html><html><head><style>
html, body { margin: 0; height: 100%%; overflow: hidden; }
#grid { position: absolute; inset: 0; overflow-y: auto; }
.spacer { position: relative; width: 100%%; }
.cell { position: absolute; width: 211px; height: 169px; overflow: hidden; }
.cell img { width: 100%%; height: 100%%; object-fit: cover; display: block; }
.fade .cell img { opacity: 0; transition: opacity 0.12s ease-out; }
.rich .cell { contain: strict; background: #2c2c2e; }
.rich .cell button.thumb { display: block; width: 100%%; height: 100%%; padding: 0; border: none; background: transparent; }
.rich .cell img { opacity: 0; }
.rich .cell img.loaded { opacity: 1; }
.rich .cell .star { position: absolute; left: 4px; bottom: 4px; padding: 0 4px; border: none; background: transparent;
  color: rgba(255, 255, 255, 0.6); font-size: 20px; line-height: 1.2; text-shadow: 0 0 3px rgba(0, 0, 0, 0.9); }
.noshadow .cell .star { text-shadow: none; }
.fade .cell img.loaded { opacity: 1; }
</style></head><body class="%(body)s"><div id="grid"><div class="spacer" style="height: 28527800px"></div></div>
<script>
const CELLS = %(cells)s, FRESH = %(fresh)s, COLS = 6, ROW = 171, images = %(images)s;
const grid = document.getElementById('grid'), spacer = grid.firstElementChild, cells = [];
for (let i = 0; i < CELLS; i += 1) {
  const cell = document.createElement('div'); cell.className = 'cell';
  const img = document.createElement('img');
  img.addEventListener('load', () => img.classList.add('loaded'));
  img.src = images[i %% images.length]; img.decoding = 'async';
  if (document.body.classList.contains('rich')) {
    // The gallery's cell: a button holding the image, a star button over it.
    const thumb = document.createElement('button'); thumb.className = 'thumb'; thumb.append(img);
    const star = document.createElement('button'); star.className = 'star'; star.textContent = '\u2606';
    cell.append(thumb, star);
  } else {
    cell.append(img);
  }
  spacer.append(cell); cells.push(cell);
}
// What the cells show: the rows in view, as a virtual grid binds them (images never change).
function place() {
  const first = Math.floor(grid.scrollTop / ROW) * COLS;
  cells.forEach((cell, i) => {
    const index = first + i;
    if (FRESH && cell.dataset.index !== String(index)) {
      cell.dataset.index = String(index);
      const img = cell.querySelector('img');
      img.classList.remove('loaded');
      img.src = `${images[index %% images.length]}?${index}`;
    }
    cell.style.transform = `translate(${(index %% COLS) * 213}px, ${Math.floor(index / COLS) * ROW}px)`;
  });
}
grid.addEventListener('scroll', place, { passive: true });
place();
document.title = 'ready';
</script></body></html>"""


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive, as browsers and `photos serve` use

    def log_message(self, *args):
        pass


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("thumbnails", nargs="+")
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--pages", help="comma-separated page names to run (default: all)")
    parser.add_argument("--trace", help="write a Chrome trace of each scroll to TRACE-PAGE-RUN.json")
    args = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="scroll-floor-")
    images = []
    for i, path in enumerate(args.thumbnails):
        target = os.path.join(folder, f"t{i}.jpg")
        shutil.copyfile(path, target)
        images.append(f"t{i}.jpg")
    pages = {}
    for name, cells, fresh, body in [("empty", 0, "false", ""), ("cells", 60, "false", ""), ("fresh", 60, "true", ""),
                                     ("fade", 60, "true", "fade"), ("rich", 60, "true", "rich"),
                                     ("rich-noshadow", 60, "true", "rich noshadow")]:
        page = os.path.join(folder, f"{name}.html")
        pathlib.Path(page).write_text(PAGE % {"cells": cells, "fresh": fresh, "images": repr(images), "body": body})
        pages[name] = page

    handler = functools.partial(QuietHandler, directory=folder)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    urls = {name: "file://" + page for name, page in pages.items()}
    urls["http"] = f"http://127.0.0.1:{server.server_address[1]}/fresh.html"
    urls["http-fade"] = f"http://127.0.0.1:{server.server_address[1]}/fade.html"
    urls["http-rich"] = f"http://127.0.0.1:{server.server_address[1]}/rich.html"

    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for argument in ["--headless=new", "--no-sandbox", "--window-size=1280,860", "--disable-dev-shm-usage",
                     "--allow-file-access-from-files"]:
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service(executable_path=shutil.which("chromedriver") or "/usr/bin/chromedriver"),
                              options=options)
    driver.set_script_timeout(args.seconds + 60)
    try:
        for run in range(1, args.runs + 1):
            for name, url in urls.items():
                if args.pages and name not in args.pages.split(","):
                    continue
                driver.get(url)
                while driver.title != "ready":
                    time.sleep(0.02)
                driver.execute_cdp_cmd("Performance.enable", {})
                before = {m["name"]: m["value"] for m in driver.execute_cdp_cmd("Performance.getMetrics", {})["metrics"]}
                tracer = Tracer(driver) if args.trace else None
                if tracer:
                    tracer.start()
                cpu_before = process_cpu()
                measured = driver.execute_async_script(SCROLL, args.seconds, 60)
                cpu_after = process_cpu()
                if tracer:
                    tracer.stop(f"{args.trace}-{name}-{run}.json")
                after = {m["name"]: m["value"] for m in driver.execute_cdp_cmd("Performance.getMetrics", {})["metrics"]}
                main = " ".join(f"main_{n[:-8].lower()}_s={after.get(n, 0) - before.get(n, 0):.3f}"
                                for n in ["TaskDuration", "ScriptDuration", "RecalcStyleDuration", "LayoutDuration"])
                frames = measured["frames"][1:]
                cpu = " ".join(f"cpu_{kind}_s={cpu_after.get(kind, 0) - cpu_before.get(kind, 0):.2f}"
                               for kind in sorted(set(cpu_after) | set(cpu_before)) if kind != "server")
                print(f"RESULT kind=floor page={name} run={run} load={os.getloadavg()[0]:.1f} frames={len(frames)} "
                      f"frame_p50_ms={percentile(frames, 50):.1f} frame_p95_ms={percentile(frames, 95):.1f} "
                      f"frame_p99_ms={percentile(frames, 99):.1f} frames_over_50ms={sum(1 for f in frames if f > 50)} "
                      f"scrolled_px={measured['top'] - measured['top0']:.0f} {main} {cpu}", flush=True)
    finally:
        driver.quit()
        server.shutdown()
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
