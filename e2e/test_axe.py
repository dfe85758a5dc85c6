"""axe-core (the `axe-core-python` package, which bundles axe 4.4) on every page in its main states,
at a 320 px phone, a 412 px phone and a desktop: 0 violations of WCAG 2.0/2.1 A and AA, and no
state scrolls sideways.

States scanned: the catalogue pages empty-handed and with saved titles, the note dialog open, the
confirm pages, sign-up with its errors shown, the upstream-failure dialog and fallback page, the
account page signed in, the 404 page and the advertiser console (dashboard, forms, report).

Exceptions (rules switched off, with the reason) are listed in EXCEPTIONS; there are none today.
"""

from __future__ import annotations

import uuid

import pytest
from axe_core_python.selenium import Axe
from selenium.webdriver.common.by import By

from conftest import ADMIN_PASSWORD, ADMIN_USERNAME, PHONE_SIZE, _browser, wait_for
from helpers import click, sign_up, submit, submit_credentials, until, wait_dialog

NARROW = (320, 640)
DESKTOP = (1280, 900)
WCAG_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
# rule id -> why it is switched off. Keep empty unless a rule is wrong about a page.
EXCEPTIONS: dict[str, str] = {}
PASSWORD = "popcorn keyboard 7d2e"


@pytest.fixture(params=[NARROW, PHONE_SIZE, DESKTOP], ids=["320px", "phone", "desktop"])
def sized_browser(request):
    yield from _browser(request, request.param)


def violations(driver, state: str) -> list[str]:
    """axe's WCAG A/AA violations on the page as it is now, one readable line per failing node, and
    a line if the page is wider than the window (WCAG 1.4.10, reflow)."""
    options = {"runOnly": {"type": "tag", "values": WCAG_AA}, "rules": {rule: {"enabled": False} for rule in EXCEPTIONS}}
    result = Axe().run(driver, options=options)
    lines = []
    for violation in result["violations"]:
        for node in violation["nodes"]:
            lines.append(f"{state}: {violation['id']} ({violation['impact']}) {node['target']} — {node['failureSummary'][:200]}")
    wide, window = driver.execute_script("return [document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    if wide > window:
        lines.append(f"{state}: {wide} px wide in a {window} px window")
    return lines


def scan_pages(driver, app, paths: list[str]) -> list[str]:
    found = []
    for path in paths:
        driver.get(app.url(path))
        wait_for(driver, "main")
        found += violations(driver, path)
    return found


def test_the_catalogue_pages_have_no_violations(app, sized_browser):
    found = scan_pages(sized_browser, app, [
        "/movies?year=2024", "/movies/9100000215", "/search", "/search?q=magic", "/shows", "/shows?q=girls",
        "/shows/139", "/shows/favorites", "/library", "/library?list=watched", "/no-such-page",
    ])
    assert not found, "\n".join(found)


def test_saved_titles_dialogs_and_confirm_pages_have_no_violations(app, sized_browser):
    driver = sized_browser
    found = []
    driver.get(app.url("/movies?year=2026"))
    cards = driver.find_elements(By.CSS_SELECTOR, ".grid .card[data-movie-id]")[:2]
    ids = [card.get_attribute("data-movie-id") for card in cards]
    click(driver, cards[0].find_element(By.CSS_SELECTOR, ".btn-fav"))
    until(driver, lambda d: cards[0].find_element(By.CSS_SELECTOR, ".btn-fav").get_attribute("aria-pressed") == "true")
    click(driver, cards[1].find_element(By.CSS_SELECTOR, ".btn-watched"))
    wait_dialog(driver, "note-dialog")
    found += violations(driver, "note dialog open")
    driver.get(app.url("/shows"))
    show = wait_for(driver, ".show-card")
    show_id = show.get_attribute("data-show-id")
    click(driver, show.find_element(By.CSS_SELECTOR, ".btn-favorite-show"))
    until(driver, lambda d: d.find_elements(By.CSS_SELECTOR, f'.show-card[data-show-id="{show_id}"] .btn-delete-show'))
    found += scan_pages(driver, app, [
        "/library", "/library?list=favorites", "/library?list=watched", "/shows/favorites", "/diary", f"/movies/{ids[1]}",
        "/library?list=all&sort=title&q=zzz",
        f"/movies/{ids[1]}/note", f"/library/movies/{ids[0]}/remove", f"/library/shows/{show_id}/remove",
    ])
    assert not found, "\n".join(found)


def test_lists_statistics_and_watch_pages_have_no_violations(app, sized_browser):
    from test_lists_flow import film_ids, make_list

    driver = sized_browser
    ids = film_ids(driver, app, 2)
    found = scan_pages(driver, app, ["/lists", "/stats"])
    list_url = make_list(driver, app, f"Axe {uuid.uuid4().hex[:6]}", ids)
    driver.get(list_url)
    submit(driver, "Make a share link")
    shared = wait_for(driver, "a.share-link").get_attribute("href")
    found += violations(driver, "a shared list, its owner's page")
    driver.get(app.url(f"/movies/{ids[0]}"))
    submit(driver, "Log a watch")
    found += violations(driver, "a film with a watch and a list")
    found += scan_pages(driver, app, ["/lists", "/stats", "/stats?year=2026", "/diary"])
    edit = driver.find_element(By.LINK_TEXT, "Edit").get_attribute("href")
    remove = driver.find_element(By.CSS_SELECTOR, ".diary-entry a.js-confirm")
    remove_page = remove.get_attribute("href")
    click(driver, remove)
    wait_dialog(driver, "confirm-dialog")
    found += violations(driver, "delete-a-watch dialog open")
    driver.get(edit)
    found += violations(driver, "a watch's edit form")
    driver.get(remove_page)
    found += violations(driver, "a watch's delete confirmation")
    driver.delete_all_cookies()
    driver.get(shared)
    found += violations(driver, "a shared list, no cookie")
    assert not found, "\n".join(found)


def test_account_pages_and_form_errors_have_no_violations(app, sized_browser):
    driver = sized_browser
    found = scan_pages(driver, app, ["/account/signin", "/account/signup"])
    # The browser's own checks (required, minlength) are switched off to see the server's answer.
    driver.execute_script("document.querySelector('main form').noValidate = true")
    submit_credentials(driver, "x", "short", "Create account")
    wait_for(driver, "main")
    found += violations(driver, "sign-up with errors")
    sign_up(driver, app, f"axe-{uuid.uuid4().hex[:8]}", PASSWORD)
    found += scan_pages(driver, app, ["/account", "/account/delete", "/library"])
    assert not found, "\n".join(found)


def test_upstream_failures_have_no_violations(app, stub, sized_browser):
    driver = sized_browser
    stub.set(mode="500")
    driver.get(app.url("/search?q=nothing-cached-here"))
    wait_for(driver, "main")
    found = violations(driver, "search failed")
    driver.get(app.url("/shows?q=nothing-cached-either"))
    wait_for(driver, "main")
    found += violations(driver, "tv search failed")
    assert not found, "\n".join(found)


def test_the_console_has_no_violations(app, sized_browser):
    driver = sized_browser
    driver.get(app.url("/admin/offers"))
    found = violations(driver, "console sign-in")
    submit_credentials(driver, ADMIN_USERNAME, ADMIN_PASSWORD, "Sign in")
    wait_for(driver, "table.offers-table")
    found += violations(driver, "/admin/offers")
    offer = driver.find_element(By.CSS_SELECTOR, "tr[data-offer-id]").get_attribute("data-offer-id")
    found += scan_pages(driver, app, [
        "/admin", "/admin/offers/new", "/admin/advertisers/new", f"/admin/offers/{offer}/edit",
        f"/admin/offers/{offer}/report", f"/admin/offers/{offer}/delete",
    ])
    driver.get(app.url("/admin/offers/new"))
    driver.execute_script("document.querySelector('main form').noValidate = true")
    submit(driver, "Save offer")
    wait_for(driver, "main")
    found += violations(driver, "offer form with errors")
    assert not found, "\n".join(found)
