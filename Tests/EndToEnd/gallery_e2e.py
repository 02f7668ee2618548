#!/usr/bin/env python3
"""The gallery end to end, in Debian's headless Chromium through chromium-driver and Selenium.

Starts `photos serve` on a fresh library of real photos (from the fetched corpus), signs in
with a token, and checks what a person would: the grid shows thumbnails, a star persists the
favorite (read back through the `photos` CLI), a `photos import` in another process makes a
new cell appear without a reload, a deletion removes a cell, an upload through the page's file
chooser adds one (and a file that is not a photo is refused on its row); in the detail view,
"Add to album" makes a new album holding the photo, rotate and a square crop render an edit
(read back through the CLI and seen in the page), and the album in the sidebar shows just that
photo; a file dropped on the page uploads with a progress bar; the detail view's hide and delete
(and its undo) reach the library. Then, with the library grown past a screen, a second browser
at device pixel ratio 2 asks for thumbnails of the cells' pixel size, and the preheat window it
sends over the live socket slides with the scroll; a photo imported then that can't be decoded
shows a "Can't display" mark in its cell (never a blank one) and `photos check` lists it.
Screenshots go to ARTIFACTS (default .build/e2e-artifacts/).

Usage: gallery_e2e.py PHOTOS_BINARY CORPUS_DIR
"""
import json
import os
import re
import shutil
import subprocess
import sys

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from e2e_support import chromium, failed, sign_in, start_server, stop, workspace

PHOTOS, CORPUS = sys.argv[1], sys.argv[2]
ARTIFACTS = os.environ.get("ARTIFACTS", os.path.join(".build", "e2e-artifacts"))
FIRST = ["cosmos__blue-marble-west.jpg", "cosmos__comet.jpg", "cosmos__earth-horizon.jpg", "cosmos__galaxy-ngc3370.jpg",
         "cosmos__helix-nebula.jpg", "cosmos__jupiter.jpg", "cosmos__sombrero.jpg", "gdkpixbuf__bug143608-comment.jpg",
         "goexif__exif_sample1.jpg", "forensics__pic1_IMG_1054.JPG"]
LATER = "forensics__pic1_IMG-20191006-WA0002.jpg"
UPLOADED = "cosmos__whirlpool.jpg"
DROPPED = "cosmos__cloud.jpg"


def photos(*arguments):
    return subprocess.run([PHOTOS, *arguments], check=True, capture_output=True, text=True).stdout


def undecodable_jpeg(data):
    """A JPEG whose scan names Huffman tables 3 (never defined): its header reads, its pixels don't."""
    data = bytearray(data)
    i = 2
    while data[i] == 0xFF and data[i + 1] != 0xDA:
        i += 2 + (data[i + 2] << 8 | data[i + 3])
    for component in range(data[i + 4]):
        data[i + 6 + 2 * component] = 0x33
    return bytes(data)


def browser(scale=1):
    return chromium(f"--force-device-scale-factor={scale}")


# Counts the degraded images (a photo's own EXIF thumbnail, img.quick) cells showed, from the
# page's first image on.
# Degraded images shown: quick answers smaller than a grid thumbnail (the real one is 256 px).
COUNT_QUICK = ("window.__quickShown = 0; document.addEventListener('load', e => { "
               "if (e.target.classList && e.target.classList.contains('quick') && e.target.naturalWidth < 256) "
               "window.__quickShown += 1 }, true)")


def sent_preheats(driver):
    """The preheat messages the page sent over the live WebSocket, from Chromium's network log."""
    windows = []
    for entry in driver.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        if message.get("method") != "Network.webSocketFrameSent":
            continue
        payload = message["params"]["response"].get("payloadData", "")
        if '"preheat"' in payload:
            windows.append(json.loads(payload))
    return windows


def main():
    work, library = workspace("photos-e2e-", ARTIFACTS)
    first = os.path.join(work, "first")
    os.makedirs(first)
    for name in FIRST:
        shutil.copy(os.path.join(CORPUS, name), first)
    photos("import", "--library", library, first)
    secret = photos("token", "create", "--library", library, "--level", "read-write", "--name", "e2e", "--quiet").strip()
    server, base = start_server(PHOTOS, library, log=os.path.join(ARTIFACTS, "server.log"))
    driver = None
    console = []  # the browser's log (reading it empties Chromium's)
    step = "start"
    try:
        driver = browser()
        wait = lambda condition, seconds=15: WebDriverWait(driver, seconds).until(lambda _: condition())
        script = lambda *arguments: driver.execute_script(*arguments)
        # The sidebar's album list is replaced whenever the library's albums change (live), so
        # its buttons are found and used in one script, never held across calls.
        album_button = "return [...document.querySelectorAll('#nav-albums button')].find(b => b.textContent.trim().startsWith(arguments[0]))"
        has_album = lambda title: script(album_button + " !== undefined", title)
        open_album = lambda title: script("const b = (() => { " + album_button + " })(); if (b) b.click(); return !!b", title)

        step = "sign in"
        sign_in(driver, base, secret, wait, prepare=COUNT_QUICK)
        cookie = driver.get_cookie("photos_session")
        assert cookie and cookie["httpOnly"] and cookie.get("sameSite") == "Lax", cookie
        script("window.__notReloaded = true")

        step = "thumbnails"
        wait(lambda: driver.find_element(By.ID, "count").text.strip().startswith(str(len(FIRST))))
        loaded = "return [...document.querySelectorAll('.cell img')].filter(i => i.complete && i.naturalWidth > 0).length"
        wait(lambda: script(loaded) == len(FIRST))
        driver.save_screenshot(os.path.join(ARTIFACTS, "1-grid.png"))

        step = "an opaque scroller"
        # The grid scrolls on Chromium's compositor thread only when it is opaque (or marked
        # will-change: scroll-position); transparent, it was painted again in every frame on the
        # main thread (issue 19: frames p95 33.4 ms against 16.7, Benchmarks/run-gallery-benchmark.sh).
        background, will_change = script("const s = getComputedStyle(document.getElementById('grid')); return [s.backgroundColor, s.willChange]")
        assert re.fullmatch(r"rgb\(\d+, \d+, \d+\)", background) and will_change == "scroll-position", (background, will_change)

        step = "degraded thumbnails first"
        # No thumbnail was made at import: cells whose photo carries an EXIF thumbnail (5 of the
        # 10) showed it at once while their real one was made (2 real ones are asked for at a
        # time), and the real ones replaced them all.
        wait(lambda: script("return window.__quickShown") >= 1)
        wait(lambda: script("return document.querySelectorAll('.cell img.quick[src]').length") == 0)

        step = "star"
        cells = driver.find_elements(By.CSS_SELECTOR, ".cell[data-id]")
        starred = cells[0].get_attribute("data-id")
        cells[0].find_element(By.CSS_SELECTOR, ".star").click()
        wait(lambda: driver.find_element(By.CSS_SELECTOR, f'.cell[data-id="{starred}"] .star').get_attribute("aria-pressed") == "true")
        wait(lambda: json.loads(photos("info", "--library", library, starred, "--json")).get("isFavorite") is True)
        driver.save_screenshot(os.path.join(ARTIFACTS, "2-starred.png"))

        step = "import in another process"
        later = os.path.join(work, "later")
        os.makedirs(later)
        shutil.copy(os.path.join(CORPUS, LATER), later)
        photos("import", "--library", library, later)
        wait(lambda: driver.find_element(By.ID, "count").text.strip().startswith(str(len(FIRST) + 1)))
        wait(lambda: len(driver.find_elements(By.CSS_SELECTOR, ".cell[data-id]")) == len(FIRST) + 1)
        wait(lambda: script(loaded) == len(FIRST) + 1)
        assert script("return window.__notReloaded === true"), "the page reloaded"
        driver.save_screenshot(os.path.join(ARTIFACTS, "3-imported.png"))

        step = "delete"
        victim = script("return [...document.querySelectorAll('.cell[data-id]')].map(c => c.dataset.id)")[-1]
        photos("delete", "--library", library, victim)
        wait(lambda: len(driver.find_elements(By.CSS_SELECTOR, f'.cell[data-id="{victim}"]')) == 0)
        wait(lambda: driver.find_element(By.ID, "count").text.strip().startswith(str(len(FIRST))))
        assert script("return window.__notReloaded === true"), "the page reloaded"
        driver.save_screenshot(os.path.join(ARTIFACTS, "4-deleted.png"))

        step = "upload"
        count = len(driver.find_elements(By.CSS_SELECTOR, ".cell[data-id]"))
        upload = os.path.join(work, "upload")
        os.makedirs(upload)
        shutil.copy(os.path.join(CORPUS, UPLOADED), upload)
        with open(os.path.join(upload, "notes.jpg"), "w") as bad:
            bad.write("not a photo")
        chooser = driver.find_element(By.ID, "file-input")
        script("arguments[0].hidden = false", chooser)
        chooser.send_keys(os.path.join(upload, UPLOADED) + "\n" + os.path.join(upload, "notes.jpg"))
        wait(lambda: len(driver.find_elements(By.CSS_SELECTOR, "#uploads li[data-state=done]")) == 1)
        wait(lambda: len(driver.find_elements(By.CSS_SELECTOR, "#uploads li[data-state=error]")) == 1)
        wait(lambda: len(driver.find_elements(By.CSS_SELECTOR, ".cell[data-id]")) == count + 1)
        assert "notes.jpg" in driver.find_element(By.CSS_SELECTOR, "#uploads li[data-state=error]").text
        listed = photos("ls", "--library", library, "--json")
        assert UPLOADED in listed or len(json.loads(listed)) == count + 1, listed[:300]
        assert script("return window.__notReloaded === true"), "the page reloaded"
        driver.save_screenshot(os.path.join(ARTIFACTS, "5-uploaded.png"))

        step = "drop a file on the page"
        shutil.copy(os.path.join(CORPUS, DROPPED), upload)
        # The drop carries a real file: Chromium reads it from disk for a hidden input, and
        # the page's own drop handler gets it in the event's DataTransfer.
        script("const i = document.createElement('input'); i.type = 'file'; i.id = 'drop-source'; i.hidden = true; "
               "document.body.append(i)")
        driver.find_element(By.ID, "drop-source").send_keys(os.path.join(upload, DROPPED))
        script("const data = new DataTransfer(); data.items.add(document.getElementById('drop-source').files[0]); "
               "for (const type of ['dragenter', 'dragover', 'drop']) "
               "  document.body.dispatchEvent(new DragEvent(type, {dataTransfer: data, bubbles: true, cancelable: true}));")
        wait(lambda: len(driver.find_elements(By.CSS_SELECTOR, "#uploads li[data-state=done]")) == 2)
        wait(lambda: len(driver.find_elements(By.CSS_SELECTOR, ".cell[data-id]")) == count + 2)
        progress = script("return [...document.querySelectorAll('#uploads li[data-state=done] progress')].map(p => p.value)")
        assert progress == [1, 1], progress
        assert DROPPED in json.dumps(json.loads(photos("ls", "--library", library, "--json"))) or \
            len(json.loads(photos("ls", "--library", library, "--json"))) == count + 2
        assert script("return window.__notReloaded === true"), "the page reloaded"

        step = "search"
        # A file's name finds it; a keyword-bearing file uploaded while the search is shown
        # appears in it live; emptying the box brings the library back.
        library_count = len(driver.find_elements(By.CSS_SELECTOR, ".cell[data-id]"))
        box = driver.find_element(By.ID, "search")
        box.send_keys("whirlp")
        wait(lambda: driver.find_element(By.ID, "count").text.strip() == "1")
        wait(lambda: len(driver.find_elements(By.CSS_SELECTOR, ".cell[data-id]")) == 1)
        box.clear()
        box.send_keys("lighthouse")
        wait(lambda: driver.find_element(By.ID, "count").text.strip() == "0")
        tagged = os.path.join(upload, "tagged.jpg")
        shutil.copy(os.path.join(CORPUS, FIRST[0]), tagged)
        subprocess.run(["exiftool", "-q", "-overwrite_original", "-XMP-dc:Subject=lighthouse", "-XMP-dc:Title=Harbour at dusk",
                        "-ImageUniqueID=", "-Comment=e2e " + str(os.getpid()), tagged], check=True)
        chooser.send_keys(tagged)
        wait(lambda: len(driver.find_elements(By.CSS_SELECTOR, ".cell[data-id]")) == 1, 30)
        assert driver.find_element(By.ID, "count").text.strip() == "1"
        assert script("return window.__notReloaded === true"), "the page reloaded"
        driver.save_screenshot(os.path.join(ARTIFACTS, "5b-search.png"))
        script("const b = document.getElementById('search'); b.value = ''; b.dispatchEvent(new Event('input'))")
        wait(lambda: len(driver.find_elements(By.CSS_SELECTOR, ".cell[data-id]")) == library_count + 1)

        step = "words in a photo"
        # A screenshot imported by another process: the server reads it in the background
        # (Tesseract; screenshots before the other photos still waiting), and a word found only
        # inside it finds it, marked in the detail view.
        sign = os.path.join(work, "sign")
        os.makedirs(sign)
        subprocess.run(["ffmpeg", "-y", "-hide_banner", "-loglevel", "error", "-f", "lavfi", "-i", "color=white:s=1200x400",
                        "-vf", "drawtext=text='Zanzibar harbour 1897':fontsize=96:fontcolor=black:x=40:y=140", "-frames:v", "1",
                        os.path.join(sign, "sign.png")], check=True)
        photos("import", "--library", library, sign)
        def found_by_its_words():
            script("const b = document.getElementById('search'); b.value = 'zanzibar'; b.dispatchEvent(new Event('input'))")
            try:
                WebDriverWait(driver, 3).until(lambda _: driver.find_element(By.ID, "count").text.strip() == "1")
                return True
            except Exception:
                return False
        wait(found_by_its_words, 90)
        wait(lambda: len(driver.find_elements(By.CSS_SELECTOR, ".cell[data-id]")) == 1)
        wait(lambda: len(driver.find_elements(By.CSS_SELECTOR, ".cell[data-id] img:not(.quick)")) == 1)
        driver.find_element(By.CSS_SELECTOR, ".cell[data-id] img:not(.quick)").click()
        wait(lambda: driver.find_element(By.ID, "detail").is_displayed())
        wait(lambda: int(script("return document.getElementById('detail-marks').dataset.marked || '0'")) >= 1, 20)
        driver.save_screenshot(os.path.join(ARTIFACTS, "5c-words-in-a-photo.png"))
        driver.find_element(By.ID, "detail-close").click()
        wait(lambda: not driver.find_element(By.ID, "detail").is_displayed())
        script("const b = document.getElementById('search'); b.value = ''; b.dispatchEvent(new Event('input'))")
        wait(lambda: len(driver.find_elements(By.CSS_SELECTOR, ".cell[data-id]")) == library_count + 2)

        step = "detail"
        driver.find_element(By.CSS_SELECTOR, f'.cell[data-id="{starred}"] img:not(.quick)').click()
        wait(lambda: driver.find_element(By.ID, "detail").is_displayed())
        # The grid's thumbnail shows at once (blurred); the fitted image replaces it when loaded.
        wait(lambda: script("const i = document.querySelector('#detail img'); "
                            "return !!i && !i.classList.contains('preview') && i.src.includes('mode=fit') && i.complete && i.naturalWidth > 0"))
        # Date, and the camera the API reports, are among the metadata shown.
        details = script("return fetch('/api/assets/' + arguments[0].split('/')[0]).then(r => r.json())", starred)
        meta = driver.find_element(By.ID, "detail-meta").text
        assert "Date" in meta, meta
        if details.get("camera", {}).get("model"):
            assert details["camera"]["model"] in meta, (details["camera"], meta)
        driver.save_screenshot(os.path.join(ARTIFACTS, "6-detail.png"))

        step = "add to a new album"
        driver.find_element(By.ID, "detail-album").click()
        wait(lambda: driver.find_element(By.ID, "album-picker").is_displayed())
        driver.find_element(By.CSS_SELECTOR, "#album-picker input[name=title]").send_keys("Trip\n")
        wait(lambda: has_album("Trip"))
        in_album = json.loads(photos("ls", "--library", library, "--album", "Trip", "--json"))
        assert [a["localIdentifier"].split("/")[0] for a in in_album] == [starred.split("/")[0]], in_album

        step = "rotate and crop"
        def edited():
            info = json.loads(photos("info", "--library", library, starred, "--json"))
            return {r["type"]: r for r in info["resources"]}
        original = edited()[1]
        image = "return (() => { const i = document.querySelector('#detail img'); " \
                "return i && i.complete && i.src.includes('mode=fit') ? [i.src, i.naturalWidth, i.naturalHeight] : null })()"
        before = script(image)
        driver.find_element(By.ID, "detail-rotate").click()
        # The rendered edit is a quarter turn of the original: width and height swap.
        wait(lambda: 5 in edited() and 7 in edited())
        rendered = edited()[5]
        assert (rendered["pixelWidth"], rendered["pixelHeight"]) == (original["pixelHeight"], original["pixelWidth"]), rendered
        # The page shows the new version (the image's URL names it) in the rotated shape.
        wait(lambda: (script(image) or [before[0]])[0] != before[0])
        wait(lambda: (lambda s: s and (s[1] > s[2]) != (before[1] > before[2]))(script(image)))
        driver.find_element(By.CSS_SELECTOR, '[data-crop="square"]').click()
        wait(lambda: edited()[5]["pixelWidth"] == edited()[5]["pixelHeight"])
        wait(lambda: (lambda s: s and s[1] == s[2])(script(image)))
        driver.save_screenshot(os.path.join(ARTIFACTS, "7-edited.png"))

        step = "hide and delete from the detail view"
        driver.find_element(By.ID, "detail-close").click()
        wait(lambda: not driver.find_element(By.ID, "detail").is_displayed())
        others = [i for i in script("return [...document.querySelectorAll('.cell[data-id]')].map(c => c.dataset.id)") if i != starred]
        hidden, deleted = others[0], others[1]
        def open_detail(identifier):
            driver.find_element(By.CSS_SELECTOR, f'.cell[data-id="{identifier}"] img:not(.quick)').click()
            wait(lambda: driver.find_element(By.ID, "detail").is_displayed() and
                 driver.find_element(By.ID, "detail-hide").is_enabled())
        open_detail(hidden)
        driver.find_element(By.ID, "detail-hide").click()
        wait(lambda: json.loads(photos("info", "--library", library, hidden, "--json")).get("isHidden") is True)
        wait(lambda: len(driver.find_elements(By.CSS_SELECTOR, f'.cell[data-id="{hidden}"]')) == 0)
        if driver.find_element(By.ID, "detail").is_displayed():
            driver.find_element(By.ID, "detail-close").click()
        open_detail(deleted)
        driver.find_element(By.ID, "detail-delete").click()
        wait(lambda: len(driver.find_elements(By.CSS_SELECTOR, f'.cell[data-id="{deleted}"]')) == 0)
        wait(lambda: deleted.split("/")[0] in photos("deleted", "--library", library, "--json"))
        driver.save_screenshot(os.path.join(ARTIFACTS, "8-deleted-in-page.png"))
        # The newest toast's Undo (the hide's toast may still show) recovers it: the cell comes back.
        [b for b in driver.find_elements(By.CSS_SELECTOR, "#toast button") if b.text.strip() == "Undo"][-1].click()
        wait(lambda: len(driver.find_elements(By.CSS_SELECTOR, f'.cell[data-id="{deleted}"]')) == 1)
        assert deleted.split("/")[0] not in photos("deleted", "--library", library, "--json")
        assert len(driver.find_elements(By.CSS_SELECTOR, f'.cell[data-id="{hidden}"]')) == 0, "still hidden"
        if driver.find_element(By.ID, "detail").is_displayed():
            driver.find_element(By.ID, "detail-close").click()
            wait(lambda: not driver.find_element(By.ID, "detail").is_displayed())

        step = "sidebar album"
        wait(lambda: open_album("Trip"))
        wait(lambda: [c.get_attribute("data-id") for c in driver.find_elements(By.CSS_SELECTOR, ".cell[data-id]")] == [starred])
        wait(lambda: "Trip" in driver.find_element(By.ID, "fetch-title").text)
        # The album's cell shows the edit: a square thumbnail version.
        cell_image = "return [...document.querySelectorAll('.cell[data-id] img:not(.quick)')].map(i => [i.src, i.complete, i.naturalWidth, i.naturalHeight])"
        try:
            wait(lambda: (lambda images: len(images) == 1 and "v=e" in images[0][0] and images[0][1] and images[0][2] > 0)(script(cell_image)))
        except Exception:
            print("album cell images:", script(cell_image), file=sys.stderr)
            raise
        driver.save_screenshot(os.path.join(ARTIFACTS, "9-album.png"))

        step = "change details applied as a batch"
        # The page's own batch update (applyBatch in model.js), on cases worked out by hand.
        batch = ("return import('/model.js').then(m => arguments[0].map(([items, removed, inserted, moves, count]) => { "
                 "const r = m.applyBatch(items.split(''), removed, inserted.map(([index, asset]) => ({index, asset})), moves, count); "
                 "return [r.items.join(''), [...r.oldToNew].join(','), r.consistent] }))")
        cases = [
            (["ABC", [], [], [[2, 0], [0, 2]], 3], ["CBA", "2,1,0", True]),
            (["ABCDE", [1], [[0, "X"]], [[4, 1]], 5], ["XEACD", "2,-1,3,4,1", True]),
            (["ABCD", [0], [], [[3, 0]], 3], ["DBC", "-1,1,2,0", True]),
            (["ABC", [5], [], [], 2], [None, None, False]),
            (["ABC", [], [[0, "X"]], [], 3], [None, None, False]),
        ]
        for (arguments, expected), got in zip(cases, script(batch, [case for case, _ in cases])):
            assert got[2] == expected[2] and (not expected[2] or got[:2] == expected[:2]), (arguments, expected, got)
        # A real reordering: four photos in a new album, reversed in one request; the server's
        # moves must leave the album's cells in the library's order, without a reload.
        # The album is made by another process: it appears in the sidebar by itself.
        four = [a["localIdentifier"].split("/")[0] for a in json.loads(photos("ls", "--library", library, "--json"))[:4]]
        photos("album", "create", "--library", library, "Order")
        photos("album", "add", "--library", library, "Order", *four)
        wait(lambda: has_album("Order"))
        order_album = script("return fetch('/api/collections?type=album&predicate=' + encodeURIComponent(\"title == 'Order'\"))"
                             ".then(r => r.json()).then(page => page.collections[0].id)")
        wait(lambda: open_album("Order"))
        # In grid order (cells are placed by position; their order in the document is the pool's).
        album_cells = lambda: script(
            "return [...document.querySelectorAll('.cell[data-id]')].map(c => [c.getBoundingClientRect(), c.dataset.id.split('/')[0]])"
            ".sort(([a], [b]) => a.top - b.top || a.left - b.left).map(([, id]) => id)")
        listed = lambda: [a["localIdentifier"].split("/")[0] for a in json.loads(photos("ls", "--library", library, "--album", "Order", "--json"))]
        try:
            wait(lambda: album_cells() == four == listed())
        except Exception:
            print("album cells:", album_cells(), "added:", four, "listed:", listed(), file=sys.stderr)
            raise
        # A change made with the session cookie carries the session's CSRF token.
        reordered = script("return fetch('/api/session').then(r => r.json()).then(session => fetch('/api/changes', {method: 'POST', "
                           "headers: {'Content-Type': 'application/json', 'X-CSRF-Token': session.csrfToken}, body: "
                           "JSON.stringify({operations: [3, 3, 3].map((from, to) => ({op: 'reorderAlbum', album: arguments[0], from: [from], to}))})}))"
                           ".then(async r => [r.status, await r.text()])", order_album)
        assert reordered[0] == 200, reordered
        wait(lambda: listed() == four[::-1])
        try:
            wait(lambda: album_cells() == four[::-1])
        except Exception:
            frames = [json.loads(e["message"])["message"]["params"]["response"]["payloadData"][:400] for e in driver.get_log("performance")
                      if json.loads(e["message"])["message"].get("method") == "Network.webSocketFrameReceived"]
            print("album cells:", album_cells(), "wanted:", four[::-1], "live messages:", frames[-5:], file=sys.stderr)
            raise
        assert script("return window.__notReloaded === true"), "the page reloaded"
        console.extend(driver.get_log("browser"))
        resets = [e for e in console if "resetting" in e["message"]]
        assert not resets, resets
        assert script("return window.__notReloaded === true"), "the page reloaded"
        # Expected: the page asks who is signed in before signing in (401), and the upload of a
        # file that is not a photo is refused (415).
        expected = ["/api/session - Failed to load resource", "filename=notes.jpg - Failed to load resource"]
        console.extend(driver.get_log("browser"))
        errors = [entry for entry in console
                  if entry["level"] == "SEVERE" and not any(text in entry["message"] for text in expected)]
        assert not errors, errors
        driver.quit()
        driver = None

        step = "device pixel ratio 2 and a sliding preheat window"
        more = os.path.join(work, "more")
        os.makedirs(more)
        for copy in range(6):
            for name in FIRST:
                shutil.copy(os.path.join(CORPUS, name), os.path.join(more, f"{copy}-{name}"))
        photos("import", "--library", library, "--allow-duplicates", more)
        driver = browser(scale=2)
        sign_in(driver, base, secret, wait)
        wait(lambda: len(driver.find_elements(By.CSS_SELECTOR, ".cell[data-id]")) > 0)
        sizes = "return [...document.querySelectorAll('.cell[data-id]')].map(c => { const i = c.querySelector('img:not(.quick)'); " \
                "return [c.getBoundingClientRect().width, devicePixelRatio, new URL(i.src, location).searchParams.get('w'), " \
                "i.complete ? i.naturalWidth : 0] })"
        wait(lambda: all(natural > 0 for *_, natural in script(sizes)), 30)
        # Each cell asks for its own pixel size (CSS size x 2, in steps of 32; the stored 256 px
        # thumbnail when that is enough) and gets exactly that.
        for css, ratio, asked, natural in script(sizes):
            pixels = css * ratio
            assert ratio == 2 and int(asked) == natural and int(asked) % 32 == 0, (css, ratio, asked, natural)
            assert (int(asked) == 256) if pixels <= 256 else (pixels - 1 <= int(asked) < pixels + 33), (css, ratio, asked, natural)
        first = sent_preheats(driver)
        assert first and first[-1]["start"] == 0 and first[-1]["width"] == int(script(sizes)[0][2]), first
        script("const g = document.getElementById('grid'); g.scrollTop = g.scrollHeight")
        wait(lambda: (lambda w: w and w[-1]["start"] > 0)(sent_preheats(driver) or first[-1:]) , 15)
        wait(lambda: all(natural > 0 for *_, natural in script(sizes)), 30)
        driver.save_screenshot(os.path.join(ARTIFACTS, "10-scrolled-dpr2.png"))

        step = "a photo that can't be rendered is marked, never a blank cell"
        # Sound structure (the import accepts it), but its scan names Huffman tables it never
        # defines: decoding fails. The grid is scrolled half a screen at a time until its cell shows.
        broken = os.path.join(work, "broken")
        os.makedirs(broken)
        with open(os.path.join(broken, "broken.jpg"), "wb") as out:
            out.write(undecodable_jpeg(open(os.path.join(CORPUS, LATER), "rb").read()))
        imported = json.loads(photos("import", "--library", library, "--json", broken))
        bad = imported["items"][0]["localIdentifier"].split("/")[0]
        cell = f'.cell[data-id^="{bad}"]'
        wait(lambda: script("if (document.querySelector(arguments[0])) return true; const g = document.getElementById('grid'); "
                            "g.scrollTop = g.scrollTop + g.clientHeight / 2 >= g.scrollHeight - g.clientHeight ? 0 : g.scrollTop + g.clientHeight / 2; "
                            "return false", cell), 60)
        wait(lambda: script("const c = document.querySelector(arguments[0]); const m = c && c.querySelector('.mark'); "
                            "return !!m && !m.hidden && c.classList.contains('unrenderable') && m.textContent.includes(\"Can't display\")",
                            cell), 30)
        tooltip = script("return document.querySelector(arguments[0] + ' .mark').title", cell)
        assert "Huffman" in tooltip, tooltip
        assert script("return document.querySelectorAll('.cell.unrenderable').length") == 1
        driver.save_screenshot(os.path.join(ARTIFACTS, "11-cant-display.png"))
        check = subprocess.run([PHOTOS, "check", "--library", library, "--json"], capture_output=True, text=True)
        problems = json.loads(check.stdout)["problems"]
        assert check.returncode == 1 and [p["kind"] for p in problems] == ["unrenderable"], check.stdout
        assert bad in problems[0]["detail"], problems
        print(f"gallery e2e: passed (screenshots in {ARTIFACTS})")
    except Exception:
        failed("gallery e2e", step, driver, os.path.join(ARTIFACTS, "failure.png"), console)
        raise
    finally:
        stop(driver, server, work)


if __name__ == "__main__":
    main()
