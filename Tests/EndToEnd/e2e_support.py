"""What the end-to-end tests and the browser benchmarks share: a free port, `photos serve` started
and waited for, Debian's headless Chromium through chromium-driver and Selenium, signing in to
the gallery with a token, and the teardown of the browser and the server.

Imported by gallery_e2e.py, video_e2e.py, cluster_e2e.py and Benchmarks/peers/first_frame.py.
"""
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By


def workspace(prefix, artifacts):
    """Makes the folder `artifacts` (screenshots, logs) if it is missing and a fresh temporary
    folder for the run; returns the folder and the path of a library in it (not made yet)."""
    os.makedirs(artifacts, exist_ok=True)
    work = tempfile.mkdtemp(prefix=prefix)
    return work, os.path.join(work, "Library.photoslibrary")


def free_port():
    """A TCP port nothing listens on at loopback now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start_server(photos, library, log=None):
    """`photos serve` on the library at a free loopback port, its output to the file `log`
    (dropped when None); returns (the process, its base URL) once it answers, or after 10 s
    (what comes next then fails on its own)."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    output = open(log, "w") if log else subprocess.DEVNULL
    server = subprocess.Popen([photos, "serve", "--library", library, "--port", str(port)],
                              stdout=output, stderr=subprocess.STDOUT)
    for _ in range(100):
        try:
            urllib.request.urlopen(base + "/openapi.json", timeout=1)
            break
        except OSError:
            time.sleep(0.1)
    return server, base


def chromium(*arguments, logs=True):
    """Headless Chromium at 1280 x 860 with these switches too; with `logs`, its console and
    network logs are kept for `driver.get_log("browser")` and `get_log("performance")`."""
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1280,860", "--disable-dev-shm-usage",
                     *arguments]:
        options.add_argument(argument)
    if logs:
        options.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
    return webdriver.Chrome(service=Service(executable_path=shutil.which("chromedriver") or "/usr/bin/chromedriver"),
                            options=options)


def sign_in(driver, base, secret, wait, prepare=None):
    """Opens the gallery, runs the script `prepare` (if any) on the sign-in page, signs in with
    the token `secret` and waits until the page is ready and its live socket connected."""
    driver.get(base + "/")
    wait(lambda: driver.find_element(By.ID, "signin").is_displayed())
    if prepare:
        driver.execute_script(prepare)
    driver.find_element(By.CSS_SELECTOR, "#signin input[name=token]").send_keys(secret)
    driver.find_element(By.CSS_SELECTOR, "#signin button").click()
    wait(lambda: driver.execute_script("return document.body.dataset.ready") == "1")
    wait(lambda: driver.execute_script("return document.body.dataset.liveConnected") == "1")


def failed(name, step, driver, screenshot, console=()):
    """Says where a run failed: a screenshot of the page (when a browser was started), the
    browser's console (`console`, the entries read before, then the rest) and the step."""
    if driver:
        driver.save_screenshot(screenshot)
        for entry in [*console, *driver.get_log("browser")]:
            print("console:", entry["level"], entry["message"][:300], file=sys.stderr)
    print(f"{name}: failed at step '{step}'", file=sys.stderr)


def stop(driver, server, work=None):
    """Quits the browser (when one was started), ends the server and removes the run's folder
    `work` (if given)."""
    if driver:
        driver.quit()
    server.terminate()
    server.wait(timeout=10)
    if work:
        shutil.rmtree(work, ignore_errors=True)
