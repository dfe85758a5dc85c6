"""PopcornSwirl on a plane: installable, readable and changeable with the app server itself stopped.

These tests run their own server (`offline_app`), which they stop and start again: the browser then
has no server at all, not merely a failing upstream. The service worker (/sw.js) must have kept the
person's lists, saved titles' pages (never visited), posters and last search; changes made offline
wait in the browser and land exactly once when the server is back; signing out leaves nothing of
the account in the browser's caches.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
import time
import urllib.parse
import urllib.request

import pytest
from selenium.webdriver.common.by import By

from conftest import launch_app, stop_process, wait_for
from helpers import click, post_form, sign_out, sign_up, text_of, until, wait_dialog

CAT_IN_THE_HAT = 9100000215
STREET_FIGHTER = 9100000214
RESIDENT_EVIL = 9100000213
MIDSOMMAR_QUERY = "Midsommar"
GIRLS = 139
PASSWORD = "offline passphrase 7d2e41"


@pytest.fixture(scope="module")
def offline_app(stub, tmp_path_factory):
    instance = launch_app(stub, tmp_path_factory.mktemp("offline-app"))
    try:
        yield instance
    finally:
        stop_process(instance.process)


def db_rows(app, sql: str, *params):
    with contextlib.closing(sqlite3.connect(app.tmpdir / "e2e.sqlite", timeout=5)) as db:
        return db.execute(sql, params).fetchall()


def worker_ready(driver) -> None:
    """Waits until the service worker controls the page (a first visit is taken over by clients.claim)."""
    until(driver, lambda d: d.execute_script("return !!(navigator.serviceWorker && navigator.serviceWorker.controller)"), 15,
          "the service worker never took control of the page")


def ask_worker(driver, message: dict):
    """What the service worker answers a page's message (as app.js asks it)."""
    return driver.execute_async_script(
        """
        const [message, done] = arguments;
        const channel = new MessageChannel();
        channel.port1.onmessage = (event) => done(event.data);
        navigator.serviceWorker.controller.postMessage(message, [channel.port2]);
        setTimeout(() => done("no answer"), 20000);
        """,
        message,
    )


def saved_paths(driver) -> set[str]:
    return {page["url"] for page in ask_worker(driver, {"type": "saved"}) or []}


def posters_loaded(driver) -> bool:
    return bool(driver.execute_script(
        "const imgs = [...document.querySelectorAll('main img[src^=\"/posters\"]')];"
        "return imgs.length > 0 && imgs.every(i => i.complete && i.naturalWidth > 0)"))


def test_the_manifest_is_installable(browser, offline_app):
    browser.get(offline_app.url("/"))
    worker_ready(browser)
    errors = browser.execute_cdp_cmd("Page.getInstallabilityErrors", {})
    assert errors.get("installabilityErrors") == [], errors
    manifest = browser.execute_cdp_cmd("Page.getAppManifest", {})
    assert manifest.get("errors") == [], manifest
    icons = json.loads(manifest["data"])["icons"]
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= {(i["sizes"], i.get("purpose", "any")) for i in icons}
    for icon in icons + [{"src": "/static/apple-touch-icon.png"}]:
        with urllib.request.urlopen(offline_app.url(icon["src"]), timeout=5) as response:
            assert response.status == 200 and response.headers["Content-Type"].startswith("image/"), icon
    touch = browser.find_element(By.CSS_SELECTOR, 'link[rel="apple-touch-icon"]').get_attribute("href")
    assert touch.endswith("/static/apple-touch-icon.png")


def test_offline_reading_changes_and_sign_out(browser, offline_app):
    app = offline_app
    sign_up(browser, app, "plane-reader", PASSWORD)
    for film, fields in ((CAT_IN_THE_HAT, {"favorite": "1"}), (STREET_FIGHTER, {"favorite": "1"}),
                         (RESIDENT_EVIL, {"watched": "1", "note": "Seen at the drive-in"})):
        result = post_form(browser, app, f"/library/movies/{film}", {"return_to": "/library", **fields})
        assert result["status"] == 200, result
    assert post_form(browser, app, f"/library/shows/{GIRLS}", {"favorite": "1", "return_to": "/shows"})["status"] == 200
    browser.get(app.url(f"/search?q={MIDSOMMAR_QUERY}"))
    wait_for(browser, ".best-match")

    # Online: My Lists, then the worker keeps the plan in the background, detail pages included.
    browser.get(app.url("/library"))
    worker_ready(browser)
    browser.refresh()
    worker_ready(browser)
    wanted = {"/library?list=all", "/library?list=favorites", "/shows/favorites", f"/movies/{STREET_FIGHTER}",
              f"/movies/{RESIDENT_EVIL}", f"/shows/{GIRLS}", f"/search?q={MIDSOMMAR_QUERY}"}
    until(browser, lambda d: wanted <= saved_paths(d), 60, lambda: f"not kept: {wanted - saved_paths(browser)}")

    app.stop()
    try:
        # My Lists, with posters, marked as a saved copy.
        browser.get(app.url("/library?list=all"))
        wait_for(browser, f'.card[data-movie-id="{STREET_FIGHTER}"]')
        banner = wait_for(browser, ".offline-banner")
        assert "You’re offline." in text_of(banner) and banner.find_element(By.CSS_SELECTOR, "time").get_attribute("datetime")
        until(browser, posters_loaded, 10, "the list's posters did not load offline")
        # A saved film's page that was never opened, TV Favorites, a saved show, the last search.
        browser.get(app.url(f"/movies/{STREET_FIGHTER}"))
        assert "Street Fighter" in text_of(wait_for(browser, "main h1"))
        wait_for(browser, ".offline-banner")
        browser.get(app.url("/shows/favorites"))
        wait_for(browser, f'[data-show-id="{GIRLS}"]')
        browser.get(app.url(f"/shows/{GIRLS}"))
        assert "Girls" in text_of(wait_for(browser, "main h1"))
        browser.get(app.url(f"/search?q={MIDSOMMAR_QUERY}"))
        wait_for(browser, ".best-match")
        # An address never kept: the offline page, linking to what is.
        browser.get(app.url("/diary?page=40"))
        assert text_of(wait_for(browser, "main h1")) == "You’re offline"
        until(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#offline-pages a"), 10, "the offline page lists nothing")
        links = {a.get_attribute("pathname") + a.get_attribute("search") for a in browser.find_elements(By.CSS_SELECTOR, "#offline-pages a")}
        assert "/library?list=all" in links and f"/movies/{STREET_FIGHTER}" in links

        # Changes offline: Watched on a film's page, Remove from My Lists, a note changed.
        browser.get(app.url(f"/movies/{CAT_IN_THE_HAT}"))
        watched = wait_for(browser, ".detail .btn-watched")
        click(browser, watched)
        until(browser, lambda d: d.find_elements(By.CSS_SELECTOR, ".sync-badge"), 10, "no 'Waiting to sync' mark")
        until(browser, lambda d: "is-on" in d.find_element(By.CSS_SELECTOR, ".detail .btn-watched").get_attribute("class"), 5)
        browser.get(app.url("/library?list=all"))
        card = wait_for(browser, f'.card[data-movie-id="{STREET_FIGHTER}"]')
        click(browser, card.find_element(By.CSS_SELECTOR, ".js-remove"))
        wait_dialog(browser, "confirm-dialog")
        click(browser, browser.find_element(By.CSS_SELECTOR, "#confirm-dialog [data-confirm]"))
        until(browser, lambda d: not d.find_elements(By.CSS_SELECTOR, f'.card[data-movie-id="{STREET_FIGHTER}"]'), 5)
        # The note of Resident Evil, changed here offline (its answer will be refused: see below).
        browser.get(app.url(f"/movies/{RESIDENT_EVIL}"))
        wait_for(browser, ".detail")
        note = browser.execute_async_script(
            """
            const done = arguments[0];
            const form = document.querySelector("form.js-note, .note-box form");
            const headers = {"Accept": "application/json", "Content-Type": "application/x-www-form-urlencoded",
              "X-CSRF-Token": document.querySelector('meta[name="csrf-token"]').content, "Idempotency-Key": crypto.randomUUID(),
              "X-Title": encodeURIComponent("Resident Evil"), "X-Change": "Note"};
            fetch(form ? form.action : location.pathname.replace("/movies/", "/library/movies/"),
                  {method: "POST", headers, body: new URLSearchParams({note: "Changed on the plane"})})
              .then(r => r.text().then(t => done({status: r.status, body: t}))).catch(e => done({status: 0, body: String(e)}));
            """)
        assert note["status"] == 202 and json.loads(note["body"]) == {"queued": True}, note
        queue = ask_worker(browser, {"type": "queue"})
        assert [e["state"] for e in queue] == ["waiting"] * 3, queue
        browser.refresh()
        until(browser, lambda d: "3 changes are waiting to sync" in text_of(d.find_element(By.ID, "sync-panel")), 10)
    finally:
        app.start()

    # Meanwhile, on another device, the same account changed Resident Evil's note: newer, so it wins.
    db_rows(app, "SELECT 1")  # the database is there
    cookies = "; ".join(f"{c['name']}={c['value']}" for c in browser.get_cookies())
    other = post_from_elsewhere(app, cookies, f"/library/movies/{RESIDENT_EVIL}", {"note": "Changed on the laptop"})
    assert other == 200

    browser.get(app.url("/library?list=all"))  # back online: the page load sends what waits
    until(browser, lambda d: [e["state"] for e in ask_worker(d, {"type": "queue"})] == ["refused"], 20,
          lambda: f"queue: {ask_worker(browser, {'type': 'queue'})}")
    cat = db_rows(app, "SELECT watched FROM library_entries WHERE item_id = ?", str(CAT_IN_THE_HAT))
    assert cat == [(1,)]
    assert db_rows(app, "SELECT COUNT(*) FROM watches WHERE item_id = ?", str(CAT_IN_THE_HAT)) == [(1,)], "the watch landed once"
    assert db_rows(app, "SELECT COUNT(*) FROM library_entries WHERE item_id = ?", str(STREET_FIGHTER)) == [(0,)]
    assert db_rows(app, "SELECT note FROM library_entries WHERE item_id = ?", str(RESIDENT_EVIL)) == [("Changed on the laptop",)]
    # The refused change is shown, with why, until the person dismisses it.
    browser.refresh()
    panel = wait_for(browser, "#sync-panel")
    until(browser, lambda d: "was not applied" in text_of(d.find_element(By.ID, "sync-panel")), 10)
    assert "Resident Evil" in text_of(panel) and "newer change was kept" in text_of(panel)
    # Loading pages again sends nothing twice.
    browser.refresh()
    wait_for(browser, ".card")
    assert db_rows(app, "SELECT COUNT(*) FROM watches WHERE item_id = ?", str(CAT_IN_THE_HAT)) == [(1,)]
    click(browser, wait_for(browser, "#sync-panel button"))
    until(browser, lambda d: not d.find_elements(By.ID, "sync-panel"), 5)
    assert ask_worker(browser, {"type": "queue"}) == []

    # Signing out leaves nothing of the account in the browser: no pages, no queue, and nothing put
    # back by work begun before it (a page is kept 2 s after it is answered, the plan in the
    # background), so the check lasts past that.
    sign_out(browser, app)

    def leftovers():
        return browser.execute_async_script(
            """
            const done = arguments[0];
            (async () => {
              const pages = [];
              for (const name of await caches.keys()) {
                if (!name.startsWith("ps-pages-")) continue;
                const cache = await caches.open(name);
                for (const request of await cache.keys()) pages.push(name + " " + new URL(request.url).pathname);
              }
              const db = await new Promise((ok, fail) => { const r = indexedDB.open("popcornswirl"); r.onsuccess = () => ok(r.result); r.onerror = fail; });
              const count = (store) => new Promise((ok) => { const r = db.transaction(store).objectStore(store).count(); r.onsuccess = () => ok(r.result); });
              return {pages, queue: await count("queue"), records: await count("pages")};
            })().then(done, (e) => done(String(e)));
            """)

    deadline = time.monotonic() + 6
    while True:
        left = leftovers()
        assert left == {"pages": [], "queue": 0, "records": 0}, left
        if time.monotonic() > deadline:
            break
        time.sleep(0.5)


def test_the_poster_cache_keeps_the_most_recently_used(browser, stub, tmp_path_factory):
    """OFFLINE_POSTERS=3: Movies shows twenty posters, the cache keeps three, the least recently used
    go first; then a new release replaces the old caches."""
    app = launch_app(stub, tmp_path_factory.mktemp("poster-cap"), {"OFFLINE_POSTERS": "3"})
    try:
        browser.get(app.url("/"))
        worker_ready(browser)
        browser.refresh()
        worker_ready(browser)
        cached = """
            const done = arguments[arguments.length - 1];
            caches.open("ps-posters").then(c => c.keys()).then(keys => done(keys.map(k => new URL(k.url).pathname + new URL(k.url).search)));
        """
        posters = browser.execute_script(
            "return [...document.querySelectorAll('main img[src^=\"/posters\"]')].map(i => { const u = new URL(i.src); return u.pathname + u.search; })")
        assert len(set(posters)) > 5, posters

        def settled(d):
            # The worker keeps a visited page's posters in the background: wait until it is done.
            before = d.execute_async_script(cached)
            time.sleep(1.5)
            return len(before) == 3 and before == d.execute_async_script(cached)

        until(browser, settled, 30, lambda: f"kept: {browser.execute_async_script(cached)}")
        kept = browser.execute_async_script(cached)
        fetch = """
            const [url, done] = arguments;
            fetch(url).then(r => r.blob()).then(() => setTimeout(() => done(true), 300), () => done(false));
        """
        # The first kept poster is used again; then two posters not kept are shown: the other two go.
        assert browser.execute_async_script(fetch, kept[0])
        fresh = [p for p in dict.fromkeys(posters) if p not in kept][:2]
        for poster in fresh:
            assert browser.execute_async_script(fetch, poster)
        until(browser, lambda d: sorted(d.execute_async_script(cached)) == sorted([kept[0]] + fresh), 10,
              lambda: f"kept {browser.execute_async_script(cached)}, expected {[kept[0]] + fresh}")

        # A new release (here: another cap, which changes the worker) replaces the old caches.
        names = "const done = arguments[0]; caches.keys().then(done);"
        old = browser.execute_async_script(names)
        old_release = next(n for n in old if n.startswith("ps-shell-")).removeprefix("ps-shell-")
        app.stop()
        app.env["OFFLINE_POSTERS"] = "4"
        app.start()
        browser.refresh()
        until(browser, lambda d: any(n.startswith("ps-shell-") and old_release not in n for n in d.execute_async_script(names)), 15,
              "the new release's worker did not install")
        until(browser, lambda d: not any(old_release in n for n in d.execute_async_script(names)), 15,
              lambda: f"the old release's caches are still there: {browser.execute_async_script(names)}")
        assert "ps-posters" in browser.execute_async_script(names), "posters outlive a release (their addresses name their bytes)"
    finally:
        stop_process(app.process)


def post_from_elsewhere(app, cookies: str, path: str, fields: dict) -> int:
    """The same account's change from another device: the JSON form post app.js makes, outside the browser."""
    page = urllib.request.Request(app.url("/account/signin"), headers={"Cookie": cookies})
    with urllib.request.urlopen(page, timeout=5) as response:
        html = response.read().decode()
    token = html.split('name="csrf-token" content="', 1)[1].split('"', 1)[0]
    request = urllib.request.Request(
        app.url(path), method="POST", data=urllib.parse.urlencode(fields).encode(),
        headers={"Cookie": cookies, "Accept": "application/json", "Content-Type": "application/x-www-form-urlencoded", "X-CSRF-Token": token})
    with urllib.request.urlopen(request, timeout=5) as response:
        return response.status


def test_an_episode_checked_offline_is_sent_once_and_up_next_opens_offline(browser, offline_app):
    """Up Next and a show's episodes open with no server; a check made there waits, is shown as
    waiting, and lands once (on the day it was made) when the server is back."""
    app = offline_app
    pilot, rent = 12301, 12302
    sign_up(browser, app, "plane-watcher", PASSWORD)
    browser.get(app.url(f"/shows/{GIRLS}"))
    wait_for(browser, "#episodes")
    assert post_form(browser, app, f"/library/episodes/{pilot}", {"mark": "watch"})["status"] == 200
    browser.get(app.url("/shows/up-next"))
    worker_ready(browser)
    browser.refresh()
    worker_ready(browser)
    wanted = {"/shows/up-next", f"/shows/{GIRLS}"}
    until(browser, lambda d: wanted <= saved_paths(d), 60, lambda: f"not kept: {wanted - saved_paths(browser)}")

    def check(driver):
        return driver.find_element(By.CSS_SELECTOR, f"#episode-{rent} .check")

    app.stop()
    try:
        browser.get(app.url("/shows/up-next"))
        card = wait_for(browser, f"#up-next-{GIRLS}")
        wait_for(browser, ".offline-banner")
        assert "S01E02" in text_of(card)
        browser.get(app.url(f"/shows/{GIRLS}"))
        wait_for(browser, "#episodes")
        wait_for(browser, ".offline-banner")
        click(browser, check(browser))
        until(browser, lambda d: check(d).get_attribute("aria-pressed") == "true", 10, "the check did not turn on offline")
        until(browser, lambda d: d.find_elements(By.CSS_SELECTOR, f"#episode-{rent} .sync-badge"), 10, "no 'Waiting to sync' mark")
        assert [e["state"] for e in ask_worker(browser, {"type": "queue"})] == ["waiting"]
    finally:
        app.start()

    browser.get(app.url("/shows/up-next"))  # back online: the page load sends what waits
    until(browser, lambda d: ask_worker(d, {"type": "queue"}) == [], 20, lambda: f"queue: {ask_worker(browser, {'type': 'queue'})}")
    assert db_rows(app, "SELECT COUNT(*) FROM watches WHERE episode_id = ?", rent) == [(1,)]
    browser.refresh()
    card = wait_for(browser, f"#up-next-{GIRLS}")
    assert "S01E03" in text_of(card), "Up Next moved past the episode checked offline"
    assert db_rows(app, "SELECT COUNT(*) FROM watches WHERE episode_id = ?", rent) == [(1,)], "sent once"
