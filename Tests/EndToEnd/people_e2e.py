#!/usr/bin/env python3
"""People signing in to the gallery, end to end, in Debian's headless Chromium.

A library of real photos gets two people with `photos user add` (passwords on standard input):
Ana, who owns it, and Ben. In one browser Ana signs in on the gallery's page with her name and
password: the session cookie is HttpOnly and SameSite=Lax, the grid shows the library, and a
star (a change: it carries the session's CSRF token) reaches the library. A wrong password is
refused on the page with the same words as a name nobody has. Ben, in a second browser, signs
in and sees none of Ana's photos; a photo imported as Ben (`photos import --as ben`) appears
live on his page and not on hers. Ana makes a shared album on the page and shares it with Ben as
a contributor; it appears in his sidebar by itself, he adds his photo to it from its detail
view, and Ana's page, showing the album, gets it live. Ana shares her whole library with Ben
(partner sharing): his sidebar lists her photos, and his Library holds them once he says so,
until she stops. Ana, the library's administrator, adds a person, sets her password and removes
her from the gallery's People panel, which Ben doesn't have. Ana makes a public link to it: a third,
private browser opening it sees that album's photos and nothing else (another photo's id answers
404, no albums), and once Ana revokes it, the link answers 404 and the open page falls back to
its sign-in form. Ana signs out and is back at the sign-in form; after Ben's
photo is deleted and `photos user remove ben` runs in another process, his open page loses its
session.

Usage: people_e2e.py PHOTOS_BINARY CORPUS_DIR
"""
import json
import os
import urllib.error
import urllib.request
import shutil
import subprocess
import sys

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
from selenium.webdriver.support.ui import Select, WebDriverWait

from e2e_support import chromium, failed, start_server, stop, workspace

PHOTOS, CORPUS = sys.argv[1], sys.argv[2]
ARTIFACTS = os.environ.get("ARTIFACTS", os.path.join(".build", "e2e-artifacts"))
# A page that reloads between finding an element and reading it: look again.
PAGE_CHANGES = (NoSuchElementException, StaleElementReferenceException)
PHOTOS_IN = ["cosmos__comet.jpg", "cosmos__jupiter.jpg", "cosmos__sombrero.jpg"]


def photos(*arguments, stdin=None):
    return subprocess.run([PHOTOS, *arguments], check=True, capture_output=True, text=True, input=stdin).stdout


def sign_in_as(driver, base, name, password, wait):
    """Fills the sign-in form with a name and a password and submits it."""
    driver.get(base + "/")
    wait(lambda: driver.find_element(By.ID, "signin").is_displayed())
    driver.find_element(By.CSS_SELECTOR, "#signin input[name=name]").send_keys(name)
    driver.find_element(By.CSS_SELECTOR, "#signin input[name=password]").send_keys(password)
    driver.find_element(By.CSS_SELECTOR, "#signin button").click()


def main():
    work, library = workspace("photos-people-e2e-", ARTIFACTS)
    folder = os.path.join(work, "photos")
    os.makedirs(folder)
    for name in PHOTOS_IN:
        shutil.copy(os.path.join(CORPUS, name), folder)
    photos("import", "--library", library, folder)
    photos("user", "add", "--library", library, "Ana", stdin="correct horse\n")
    photos("user", "add", "--library", library, "Ben", stdin="battery staple\n")
    server, base = start_server(PHOTOS, library, log=os.path.join(ARTIFACTS, "people-server.log"))
    ana = ben = None
    step = "start"
    try:
        ana, ben = chromium(), chromium()
        wait_ana = lambda condition: WebDriverWait(ana, 15, ignored_exceptions=PAGE_CHANGES).until(lambda _: condition())
        wait_ben = lambda condition: WebDriverWait(ben, 15, ignored_exceptions=PAGE_CHANGES).until(lambda _: condition())
        error_text = lambda driver: driver.find_element(By.CSS_SELECTOR, "#signin .error").text

        step = "a wrong password and an unknown name"
        sign_in_as(ana, base, "Ana", "not her password", wait_ana)
        wait_ana(lambda: error_text(ana) != "")
        wrong = error_text(ana)
        sign_in_as(ana, base, "Nobody", "not her password", wait_ana)
        wait_ana(lambda: error_text(ana) != "")
        assert error_text(ana) == wrong == "The name or the password is wrong.", (wrong, error_text(ana))
        assert ana.get_cookie("photos_session") is None

        step = "Ana signs in"
        sign_in_as(ana, base, "ana", "correct horse", wait_ana)
        wait_ana(lambda: ana.execute_script("return document.body.dataset.ready") == "1")
        cookie = ana.get_cookie("photos_session")
        assert cookie and cookie["httpOnly"] and cookie.get("sameSite") == "Lax", cookie
        wait_ana(lambda: ana.find_element(By.ID, "count").text.strip().startswith(str(len(PHOTOS_IN))))
        assert ana.find_element(By.ID, "user-name").text == "Ana"

        step = "Ana stars a photo"
        cell = ana.find_elements(By.CSS_SELECTOR, ".cell[data-id]")[0]
        starred = cell.get_attribute("data-id")
        cell.find_element(By.CSS_SELECTOR, ".star").click()
        wait_ana(lambda: json.loads(photos("info", "--library", library, starred, "--json")).get("isFavorite") is True)
        ana.save_screenshot(os.path.join(ARTIFACTS, "people-1-ana.png"))

        step = "Ben sees none of it"
        sign_in_as(ben, base, "Ben", "battery staple", wait_ben)
        wait_ben(lambda: ben.execute_script("return document.body.dataset.ready") == "1")
        wait_ben(lambda: ben.find_element(By.ID, "count").text.strip().startswith("0"))
        assert ben.find_elements(By.CSS_SELECTOR, ".cell[data-id]") == []
        ben.save_screenshot(os.path.join(ARTIFACTS, "people-2-ben.png"))

        step = "a photo imported as Ben reaches his page, not Ana's"
        extra = os.path.join(work, "bens")
        os.makedirs(extra)
        shutil.copy(os.path.join(CORPUS, "cosmos__whirlpool.jpg"), extra)
        photos("import", "--library", library, "--as", "ben", extra)
        wait_ben(lambda: ben.find_element(By.ID, "count").text.strip().startswith("1"))
        assert ana.find_element(By.ID, "count").text.strip().startswith(str(len(PHOTOS_IN))), ana.find_element(By.ID, "count").text
        assert json.loads(photos("ls", "--library", library, "--as", "ana", "--json")).__len__() == len(PHOTOS_IN)

        step = "Ana makes a shared album and shares it with Ben as a contributor"
        album_button = ("return [...document.querySelectorAll('#nav-albums button')]"
                        ".find(b => b.textContent.trim().startsWith(arguments[0])) || null")
        ana.find_element(By.CSS_SELECTOR, "#new-shared-album input[name=title]").send_keys("Trip\n")
        wait_ana(lambda: ana.execute_script(album_button, "Trip") is not None)
        ana.execute_script("[...document.querySelectorAll('#nav-albums button')]"
                           ".find(b => b.textContent.trim().startsWith(arguments[0])).click()", "Trip")
        wait_ana(lambda: ana.find_element(By.ID, "share-button").is_displayed())
        wait_ana(lambda: ana.find_element(By.ID, "count").text.strip().startswith("0"))
        ana.find_element(By.ID, "share-button").click()
        wait_ana(lambda: len(ana.find_elements(By.CSS_SELECTOR, "#share-form select[name=person] option")) == 1)
        Select(ana.find_element(By.CSS_SELECTOR, "#share-form select[name=person]")).select_by_visible_text("Ben")
        Select(ana.find_element(By.CSS_SELECTOR, "#share-form select[name=role]")).select_by_value("contributor")
        ana.find_element(By.CSS_SELECTOR, "#share-form button[type=submit]").click()
        wait_ana(lambda: ana.find_elements(By.CSS_SELECTOR, '#share-members li[data-person="Ben"]') != [])
        ana.save_screenshot(os.path.join(ARTIFACTS, "people-3-shared.png"))

        step = "Ben sees the album appear and adds his photo; Ana's page shows it live"
        wait_ben(lambda: ben.execute_script(album_button, "Trip") is not None)
        ben.find_elements(By.CSS_SELECTOR, ".cell[data-id]")[0].click()
        wait_ben(lambda: ben.find_element(By.ID, "detail-album").is_displayed())
        ben.find_element(By.ID, "detail-album").click()
        picker = "return [...document.querySelectorAll('#album-picker li button')].find(b => b.textContent.trim().startsWith('Trip')) || null"
        wait_ben(lambda: ben.execute_script(picker) is not None)
        ben.execute_script(picker.replace("return ", "const b = ") + "; b.click()")
        wait_ana(lambda: ana.find_element(By.ID, "count").text.strip().startswith("1"))
        wait_ana(lambda: len(ana.find_elements(By.CSS_SELECTOR, ".cell[data-id]")) == 1)
        ana.save_screenshot(os.path.join(ARTIFACTS, "people-4-live.png"))

        step = "Ana makes a public link to the album; a private browser sees that album and nothing else"
        if not ana.find_element(By.ID, "share").is_displayed():
            ana.find_element(By.ID, "share-button").click()
        ana.find_element(By.ID, "make-link").click()
        wait_ana(lambda: ana.find_element(By.ID, "share-link-url").is_displayed())
        url = ana.find_element(By.ID, "share-link-url").get_attribute("value")
        assert "/s/pl_" in url, url
        trip_ids = ana.execute_script("return [...document.querySelectorAll('.cell[data-id]')].map(c => c.dataset.id)")
        visitor = chromium()
        try:
            wait_visitor = lambda condition: WebDriverWait(visitor, 15, ignored_exceptions=PAGE_CHANGES).until(lambda _: condition())
            visitor.get(url)
            wait_visitor(lambda: visitor.execute_script("return document.body.dataset.ready") == "1")
            wait_visitor(lambda: visitor.execute_script("return document.body.dataset.liveConnected") == "1")
            wait_visitor(lambda: len(visitor.find_elements(By.CSS_SELECTOR, ".cell[data-id]")) == len(trip_ids))
            shown = visitor.execute_script("return [...document.querySelectorAll('.cell[data-id]')].map(c => c.dataset.id)")
            assert sorted(shown) == sorted(trip_ids), (shown, trip_ids)
            assert not visitor.find_element(By.ID, "upload-button").is_displayed()
            others = [a["localIdentifier"].split("/")[0] for a in json.loads(photos("ls", "--library", library, "--as", "ana", "--json"))]
            status = visitor.execute_script("return fetch('/api/assets/' + arguments[0]).then(r => r.status)", others[0])
            assert status == 404, status
            collections = visitor.execute_script("return fetch('/api/collections?type=album').then(r => r.json()).then(j => j.count)")
            assert collections == 0, collections
            visitor.save_screenshot(os.path.join(ARTIFACTS, "people-5-link.png"))

            step = "Ana revokes the link: it answers 404 and the open page stops"
            ana.find_element(By.CSS_SELECTOR, "#share-link-list li[data-link] button").click()
            wait_visitor(lambda: visitor.find_element(By.ID, "signin").is_displayed())
            try:
                urllib.request.urlopen(urllib.request.Request(url, method="GET"))
                raise AssertionError("the revoked link still opens")
            except urllib.error.HTTPError as error:
                assert error.code in (404, 410), error.code
        finally:
            visitor.quit()

        step = "Ana makes a link with a password that expires in a week; its visitor is asked for the password only"
        options = ana.find_element(By.ID, "link-options")
        Select(options.find_element(By.NAME, "expires")).select_by_value("7")
        options.find_element(By.NAME, "password").send_keys("link password")
        ana.find_element(By.ID, "make-link").click()
        wait_ana(lambda: "password" in ana.find_element(By.ID, "share-link-list").text)
        listed = ana.find_element(By.ID, "share-link-list").text
        assert "until" in listed, listed
        url = ana.find_element(By.ID, "share-link-url").get_attribute("value")
        visitor = chromium()
        try:
            wait_visitor = lambda condition: WebDriverWait(visitor, 15, ignored_exceptions=PAGE_CHANGES).until(lambda _: condition())
            visitor.get(url)
            wait_visitor(lambda: visitor.find_element(By.ID, "signin").is_displayed())
            assert visitor.find_element(By.ID, "signin").get_attribute("data-mode") == "link"
            assert not visitor.find_element(By.ID, "signin-name").is_displayed()
            password = visitor.find_element(By.ID, "signin-password")
            password.send_keys("not the password")
            visitor.find_element(By.CSS_SELECTOR, "#signin button").click()
            wait_visitor(lambda: "wrong" in visitor.find_element(By.CSS_SELECTOR, "#signin .error").text)
            password.clear()
            password.send_keys("link password")
            visitor.find_element(By.CSS_SELECTOR, "#signin button").click()
            wait_visitor(lambda: visitor.execute_script("return document.body.dataset.ready") == "1")
            wait_visitor(lambda: len(visitor.find_elements(By.CSS_SELECTOR, ".cell[data-id]")) == len(trip_ids))
            shown = visitor.execute_script("return [...document.querySelectorAll('.cell[data-id]')].map(c => c.dataset.id)")
            assert sorted(shown) == sorted(trip_ids), (shown, trip_ids)
            visitor.save_screenshot(os.path.join(ARTIFACTS, "people-6-password-link.png"))
        finally:
            visitor.quit()
        ana.find_element(By.CSS_SELECTOR, "#share-link-list li[data-link] button").click()

        step = "Ana shares all her photos with Ben: his Partners section shows them, and his Library when he asks"
        Select(ana.find_element(By.CSS_SELECTOR, "#partner-form select[name=person]")).select_by_visible_text("Ben")
        ana.find_element(By.CSS_SELECTOR, "#partner-form button[type=submit]").click()
        wait_ana(lambda: ana.find_elements(By.CSS_SELECTOR, '#my-partners li[data-partner="Ben"]') != [])
        if ben.find_element(By.ID, "detail").is_displayed():
            ben.find_element(By.TAG_NAME, "body").send_keys(Keys.ESCAPE)
            wait_ben(lambda: not ben.find_element(By.ID, "detail").is_displayed())
        ben.execute_script("window.dispatchEvent(new Event('focus'))")
        partner = '#nav-partners li[data-partner="Ana"]'
        wait_ben(lambda: ben.find_elements(By.CSS_SELECTOR, partner + " button") != [])
        ben.find_element(By.CSS_SELECTOR, partner + " button").click()
        wait_ben(lambda: ben.find_element(By.ID, "count").text.strip().startswith(str(len(PHOTOS_IN))))
        wait_ben(lambda: len(ben.find_elements(By.CSS_SELECTOR, ".cell[data-id]")) == len(PHOTOS_IN))
        ben.find_element(By.CSS_SELECTOR, partner + " input[type=checkbox]").click()
        ben.find_element(By.CSS_SELECTOR, "[data-nav=library]").click()
        wait_ben(lambda: ben.find_element(By.ID, "count").text.strip().startswith(str(len(PHOTOS_IN) + 1)))
        ben.save_screenshot(os.path.join(ARTIFACTS, "people-7-partner.png"))
        ana.find_element(By.CSS_SELECTOR, '#my-partners li[data-partner="Ben"] button').click()
        wait_ana(lambda: ana.find_elements(By.CSS_SELECTOR, '#my-partners li[data-partner="Ben"]') == [])
        ben.refresh()
        wait_ben(lambda: ben.execute_script("return document.body.dataset.ready") == "1")
        wait_ben(lambda: ben.find_element(By.ID, "count").text.strip().startswith("1"))
        wait_ben(lambda: ben.find_elements(By.CSS_SELECTOR, partner) == [])

        step = "Ana, an administrator, adds Cy, sets her password and removes her; Ben has no People panel"
        assert not ben.find_element(By.ID, "people-button").is_displayed()
        ana.find_element(By.ID, "people-button").click()
        wait_ana(lambda: ana.find_elements(By.CSS_SELECTOR, '#people-list li[data-person="Ben"]') != [])
        form = ana.find_element(By.ID, "person-add")
        form.find_element(By.NAME, "name").send_keys("Cy")
        form.find_element(By.NAME, "password").send_keys("cy's first password")
        form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        wait_ana(lambda: ana.find_elements(By.CSS_SELECTOR, '#people-list li[data-person="Cy"]') != [])
        assert "Cy" in photos("user", "list", "--library", library)
        Select(ana.find_element(By.CSS_SELECTOR, "#person-password select[name=person]")).select_by_visible_text("Cy")
        ana.find_element(By.CSS_SELECTOR, "#person-password input[name=password]").send_keys("cy's second password")
        ana.find_element(By.CSS_SELECTOR, "#person-password button[type=submit]").click()

        def signs_in(password):
            body = json.dumps({"name": "Cy", "password": password}).encode()
            call = urllib.request.Request(base + "/api/session", data=body, method="POST", headers={"Content-Type": "application/json"})
            try:
                return urllib.request.urlopen(call).status == 200
            except urllib.error.HTTPError:
                return False
        wait_ana(lambda: ana.find_element(By.CSS_SELECTOR, "#person-password input[name=password]").get_attribute("value") == "")
        assert signs_in("cy's second password")
        assert not signs_in("cy's first password")
        remove = ana.find_element(By.CSS_SELECTOR, '#people-list li[data-person="Cy"] button.remove')
        remove.click()
        remove.click()
        wait_ana(lambda: ana.find_elements(By.CSS_SELECTOR, '#people-list li[data-person="Cy"]') == [])
        assert "Cy" not in photos("user", "list", "--library", library)
        ana.save_screenshot(os.path.join(ARTIFACTS, "people-8-admin.png"))
        ana.find_element(By.CSS_SELECTOR, "#people .people-close").click()

        step = "Ana signs out"
        ana.find_element(By.ID, "signout").click()
        wait_ana(lambda: ana.find_element(By.ID, "signin").is_displayed())

        step = "Ben is removed while his page is open"
        bens = [a["localIdentifier"] for a in json.loads(photos("ls", "--library", library, "--as", "ben", "--json"))]
        photos("delete", "--library", library, "--as", "ben", "--permanently", *bens)
        photos("user", "remove", "--library", library, "Ben")
        wait_ben(lambda: ben.find_element(By.ID, "signin").is_displayed())
        print("people e2e: passed")
    except Exception:
        failed("people e2e", step, ana or ben, os.path.join(ARTIFACTS, "people-failure.png"))
        raise
    finally:
        if ben:
            ben.quit()
        stop(ana, server, work)


if __name__ == "__main__":
    main()
