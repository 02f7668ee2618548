#!/usr/bin/env python3
"""Time from setting a <video>'s source to its first frame in headless Chromium, for a video
served by `photos serve` on loopback: `first_frame.py PHOTOS LIBRARY ASSET-UUID [TRIES]`.
Signs in with a fresh token, then in the gallery's page makes a muted <video> per try (a new
URL each time, so nothing comes from the cache), sets its source, calls play(), and waits for
requestVideoFrameCallback. Prints each time and the median, in milliseconds."""

import os
import shutil
import socket
import statistics
import subprocess
import sys
import time
import urllib.request

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.support.ui import WebDriverWait

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Tests", "EndToEnd"))
PHOTOS, LIBRARY, ASSET = sys.argv[1], sys.argv[2], sys.argv[3]
TRIES = int(sys.argv[4]) if len(sys.argv) > 4 else 15
sys.argv = [sys.argv[0], PHOTOS, "."]  # gallery_e2e reads its own arguments on import
from gallery_e2e import sign_in  # noqa: E402


def main():
    secret = subprocess.run([PHOTOS, "token", "create", "--library", LIBRARY, "--level", "read-write", "--name", "bench", "--quiet"],
                            check=True, capture_output=True, text=True).stdout.strip()
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    base = f"http://127.0.0.1:{port}"
    server = subprocess.Popen([PHOTOS, "serve", "--library", LIBRARY, "--port", str(port)], stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1280,860", "--disable-dev-shm-usage",
                     "--autoplay-policy=no-user-gesture-required"]:
        options.add_argument(argument)
    driver = None
    try:
        for _ in range(100):
            try:
                urllib.request.urlopen(base + "/openapi.json", timeout=1)
                break
            except OSError:
                time.sleep(0.1)
        driver = webdriver.Chrome(service=Service(executable_path=shutil.which("chromedriver") or "/usr/bin/chromedriver"), options=options)
        driver.set_script_timeout(30)
        wait = lambda condition, seconds=30: WebDriverWait(driver, seconds).until(lambda _: condition())
        sign_in(driver, base, secret, wait)
        measure = """
            const [url, done] = [arguments[0], arguments[arguments.length - 1]];
            const video = document.createElement('video');
            video.muted = true; video.playsInline = true;
            document.body.append(video);
            const start = performance.now();
            video.requestVideoFrameCallback(() => { done(performance.now() - start); video.remove(); });
            video.src = url;
            video.play().catch(error => done(-1));
        """
        # The first request may make the rendition: warm it, untimed.
        driver.execute_async_script(measure, f"/api/assets/{ASSET}/video?n=warm")
        times = [driver.execute_async_script(measure, f"/api/assets/{ASSET}/video?n={i}") for i in range(TRIES)]
        assert all(t >= 0 for t in times), times
        print(" ".join(f"{t:.0f}" for t in times))
        print(f"median {statistics.median(times):.0f}")
    finally:
        if driver:
            driver.quit()
        server.terminate()
        server.wait(timeout=10)


if __name__ == "__main__":
    main()
