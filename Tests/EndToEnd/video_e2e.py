#!/usr/bin/env python3
"""End-to-end test of videos and Live Photos in the web gallery, in a real Chromium.

Makes clips with ffmpeg (an H.264 MP4 long and heavy enough that a seek needs a new range
request, an HEVC MOV as iPhones record, a Live Photo: a JPEG and a MOV of one name), imports
them, starts `photos serve`, and checks: cells show a play mark with the duration and a LIVE
mark; the detail view plays the MP4 (currentTime advances), a seek to the middle is answered
with 206 from the middle of the file and plays on from there; the HEVC clip, which Chromium
can't decode, plays through its H.264 rendition; a Live Photo's motion plays (muted) on hover;
the right arrow key moves to the next asset. Prints the time from setting the source to the
first frame. Screenshots and the server log go to .build/e2e-artifacts/.

    python3 Tests/EndToEnd/video_e2e.py PATH-TO-photos CORPUS-FOLDER
"""

import json
import os
import shutil
import subprocess
import sys
import time

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

from e2e_support import chromium, failed, sign_in, start_server, stop, workspace

PHOTOS, CORPUS = sys.argv[1], sys.argv[2]
ARTIFACTS = os.environ.get("ARTIFACTS", os.path.join(".build", "e2e-artifacts"))
STILL = "cosmos__comet.jpg"


def photos(*arguments):
    return subprocess.run([PHOTOS, *arguments], check=True, capture_output=True, text=True).stdout


def ffmpeg(*arguments):
    subprocess.run(["ffmpeg", "-v", "error", "-nostdin", "-y", *arguments], check=True)


def video_exchanges(driver, seen):
    """Adds the page's /video requests from Chromium's network log to `seen`: id -> {range, status, type}."""
    for entry in driver.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        params = message.get("params", {})
        if message.get("method") == "Network.requestWillBeSent" and "/video" in params.get("request", {}).get("url", ""):
            headers = {k.lower(): v for k, v in params["request"].get("headers", {}).items()}
            seen.setdefault(params["requestId"], {})["range"] = headers.get("range")
        elif message.get("method") == "Network.requestWillBeSentExtraInfo" and params.get("requestId") in seen:
            headers = {k.lower(): v for k, v in params.get("headers", {}).items()}
            if headers.get("range"):
                seen[params["requestId"]]["range"] = headers["range"]
        elif message.get("method") == "Network.responseReceived" and "/video" in params.get("response", {}).get("url", ""):
            response = params["response"]
            headers = {k.lower(): v for k, v in response.get("headers", {}).items()}
            exchange = seen.setdefault(params["requestId"], {})
            exchange.update(status=response["status"], type=headers.get("content-type"), contentRange=headers.get("content-range"))
    return seen


def main():
    work, library = workspace("photos-video-e2e-", ARTIFACTS)
    media = os.path.join(work, "media")
    os.makedirs(media)
    # 40 s of 720p at 8 Mb/s (~40 MB, movie header at the end): more than Chromium reads ahead.
    ffmpeg("-f", "lavfi", "-i", "testsrc2=size=1280x720:rate=30:duration=40", "-f", "lavfi", "-i", "sine=frequency=440:duration=40",
           "-c:v", "libx264", "-preset", "ultrafast", "-b:v", "8M", "-pix_fmt", "yuv420p", "-c:a", "aac", os.path.join(media, "walk.mp4"))
    ffmpeg("-f", "lavfi", "-i", "testsrc2=size=640x360:rate=30:duration=3", "-f", "lavfi", "-i", "sine=frequency=660:duration=3",
           "-c:v", "libx265", "-preset", "ultrafast", "-tag:v", "hvc1", "-x265-params", "log-level=error", "-pix_fmt", "yuv420p",
           "-c:a", "aac", "-f", "mov", os.path.join(media, "IMG_2000.MOV"))
    live = os.path.join(media, "live")
    os.makedirs(live)
    shutil.copy(os.path.join(CORPUS, STILL), os.path.join(live, "IMG_3000.JPG"))
    ffmpeg("-f", "lavfi", "-i", "testsrc2=size=640x480:rate=30:duration=2", "-c:v", "libx265", "-preset", "ultrafast",
           "-tag:v", "hvc1", "-x265-params", "log-level=error", "-pix_fmt", "yuv420p", "-f", "mov", os.path.join(live, "IMG_3000.MOV"))
    photos("import", "--library", library, media)
    photos("import", "--library", library, live)
    assets = json.loads(photos("ls", "--library", library, "--json"))
    by_kind = {}
    for asset in assets:
        uuid = asset["localIdentifier"].split("/")[0]
        if asset["mediaType"] == "video":
            by_kind["hevc" if asset["pixelWidth"] == 640 else "mp4"] = uuid
        elif asset["mediaSubtypes"] & 8:
            by_kind["live"] = uuid
    assert set(by_kind) == {"mp4", "hevc", "live"}, assets
    secret = photos("token", "create", "--library", library, "--level", "read-write", "--name", "e2e", "--quiet").strip()
    server, base = start_server(PHOTOS, library, log=os.path.join(ARTIFACTS, "video-server.log"))
    driver = None
    step = "start"
    try:
        driver = chromium("--autoplay-policy=no-user-gesture-required")
        wait = lambda condition, seconds=30: WebDriverWait(driver, seconds).until(lambda _: condition())
        script = lambda *arguments: driver.execute_script(*arguments)
        sign_in(driver, base, secret, wait)
        driver.get_log("browser")  # the signed-out page's 401 for /api/session is expected

        step = "marks"
        badge = "return document.querySelector(`.cell[data-id='${arguments[0]}'] .badge`)?.textContent || ''"
        wait(lambda: script(badge, by_kind["mp4"]).startswith("▶ 0:40"))
        assert script(badge, by_kind["hevc"]).startswith("▶ 0:03"), script(badge, by_kind["hevc"])
        assert script(badge, by_kind["live"]) == "LIVE", script(badge, by_kind["live"])
        driver.save_screenshot(os.path.join(ARTIFACTS, "video-1-grid.png"))

        def open_asset(uuid):
            script("document.querySelector(`.cell[data-id='${arguments[0]}'] .thumb`).click()", uuid)
            wait(lambda: not driver.find_element(By.ID, "detail").get_attribute("hidden"))

        step = "play"
        seen = {}
        video_exchanges(driver, seen)
        open_asset(by_kind["mp4"])
        wait(lambda: "/video" in (script("return document.getElementById('detail-video').getAttribute('src')") or ""))
        started = time.monotonic()
        script("const v = document.getElementById('detail-video'); v.muted = true; v.play()")
        wait(lambda: script("return document.getElementById('detail-video').currentTime") > 0.3)
        first_frame_ms = script("""
            const v = document.getElementById('detail-video');
            const entry = performance.getEntriesByType('resource').find(e => e.name.includes('/video'));
            return entry ? Math.round(entry.responseEnd - entry.startTime) : -1""")
        print(f"video_e2e: first /video response took {first_frame_ms} ms; playing after {round((time.monotonic() - started) * 1000)} ms")

        step = "seek"
        duration = script("return document.getElementById('detail-video').duration")
        assert 39 < duration < 41, duration
        script("document.getElementById('detail-video').currentTime = arguments[0]", duration / 2)
        wait(lambda: script("return document.getElementById('detail-video').currentTime") > duration / 2 + 0.3)
        size = os.path.getsize(os.path.join(media, "walk.mp4"))
        video_exchanges(driver, seen)
        partial = [e for e in seen.values() if e.get("status") == 206]
        assert partial, f"no 206 among {seen}"
        starts = [int(e["contentRange"].split()[1].split("-")[0]) for e in partial if e.get("contentRange")]
        assert any(size * 0.3 < start < size * 0.8 for start in starts), f"no range from the middle of {size} bytes: {seen}"
        driver.save_screenshot(os.path.join(ARTIFACTS, "video-2-seek.png"))

        step = "arrow keys"
        shown = lambda: driver.find_element(By.ID, "detail-download").get_attribute("href")
        before = shown()
        last = driver.find_element(By.ID, "detail-next").get_attribute("disabled") is not None
        driver.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_LEFT if last else Keys.ARROW_RIGHT)
        wait(lambda: shown() != before)
        assert script("return document.getElementById('detail-video').paused || document.getElementById('detail-video').hidden")
        script("document.getElementById('detail-close').click()")

        step = "hevc"
        seen.clear()
        open_asset(by_kind["hevc"])
        script("const v = document.getElementById('detail-video'); v.muted = true; v.play()")
        wait(lambda: script("return document.getElementById('detail-video').currentTime") > 0.3, 60)
        video_exchanges(driver, seen)
        assert any(e.get("type") == "video/mp4" for e in seen.values()), seen
        driver.save_screenshot(os.path.join(ARTIFACTS, "video-3-hevc.png"))
        script("document.getElementById('detail-close').click()")

        step = "live photo"
        open_asset(by_kind["live"])
        assert driver.find_element(By.ID, "detail-live-badge").is_displayed()
        image = driver.find_element(By.ID, "detail-image")
        wait(lambda: image.size["width"] > 0)
        ActionChains(driver).move_to_element(image).perform()
        wait(lambda: script("const v = document.getElementById('detail-live'); return !v.hidden && v.muted && v.currentTime > 0.2"), 60)
        driver.save_screenshot(os.path.join(ARTIFACTS, "video-4-live.png"))

        step = "console"
        errors = [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
        assert not errors, errors
        print("video_e2e: videos play, seek with ranges, HEVC through its rendition, Live Photo motion on hover")
    except Exception:
        failed("video_e2e", step, driver, os.path.join(ARTIFACTS, "video-failure.png"))
        raise
    finally:
        stop(driver, server, work)


if __name__ == "__main__":
    main()
