#!/usr/bin/env python3
"""Time from setting a <video>'s source to its first frame in headless Chromium, for a video
served by `photos serve` on loopback: `first_frame.py PHOTOS LIBRARY ASSET-UUID [TRIES]`.
Signs in with a fresh token, then in the gallery's page makes a muted <video> per try (a new
URL each time, so nothing comes from the cache), sets its source, calls play(), and waits for
requestVideoFrameCallback. Prints each time and the median, in milliseconds."""

import os
import statistics
import subprocess
import sys

from selenium.webdriver.support.ui import WebDriverWait

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Tests", "EndToEnd"))
from e2e_support import chromium, sign_in, start_server, stop  # noqa: E402

PHOTOS, LIBRARY, ASSET = sys.argv[1], sys.argv[2], sys.argv[3]
TRIES = int(sys.argv[4]) if len(sys.argv) > 4 else 15


def main():
    secret = subprocess.run([PHOTOS, "token", "create", "--library", LIBRARY, "--level", "read-write", "--name", "bench", "--quiet"],
                            check=True, capture_output=True, text=True).stdout.strip()
    server, base = start_server(PHOTOS, LIBRARY)
    driver = None
    try:
        driver = chromium("--autoplay-policy=no-user-gesture-required", logs=False)
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
        stop(driver, server)


if __name__ == "__main__":
    main()
