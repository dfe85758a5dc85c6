"""The seeds' last partial points, as a person meets them in a real (headless) Chromium:

- without JavaScript, Retry after a failed film save posts the same change again;
- un-marking Watched on a film that is not a favorite, with a note, asks first;
- All saved shows each film's Favorite and Watched state with both toggles;
- a failure that retrying cannot fix says what to do instead of offering Retry;
- a page answered from a fallback says so and its Retry loads the same address again.

Every test is its own visitor (its own browser profile), so lists never mix between tests.
"""

from __future__ import annotations

import sqlite3

from selenium.webdriver.common.by import By

from conftest import wait_for
from helpers import click, dialog_is_open, mark_page, same_page, text_of, until, wait_dialog

CAT_IN_THE_HAT = 9100000215
PRACTICAL_MAGIC_2 = 9100000212
RESIDENT_EVIL = 9100000213


def card_for(driver, movie_id: int):
    found = driver.find_elements(By.CSS_SELECTOR, f'.card[data-movie-id="{movie_id}"]')
    return found[0] if found else None


def test_without_javascript_retry_after_a_failed_save_posts_it_again(app, nojs_browser):
    browser = nojs_browser
    # A first save makes the visitor (so the failure below is the film's save, nothing else).
    browser.get(app.url(f"/movies/{PRACTICAL_MAGIC_2}"))
    click(browser, wait_for(browser, ".detail .btn-fav"))
    until(browser, lambda d: d.find_element(By.CSS_SELECTOR, ".detail .btn-fav").get_attribute("aria-pressed") == "true")

    browser.get(app.url(f"/movies/{CAT_IN_THE_HAT}"))
    button = wait_for(browser, ".detail .btn-fav")
    # Another process holds SQLite's write lock past the app's 5 s busy timeout: the save fails.
    lock = sqlite3.connect(app.tmpdir / "e2e.sqlite", timeout=5, isolation_level=None)
    try:
        lock.execute("BEGIN EXCLUSIVE")
        mark_page(browser)
        click(browser, button)
        until(browser, lambda d: not same_page(d) and d.find_elements(By.CSS_SELECTOR, "main .message"), 20, "no retry page")
    finally:
        lock.execute("ROLLBACK")
        lock.close()
    assert browser.find_element(By.TAG_NAME, "h1").text == "Oops, something went wrong"
    assert "There was a problem saving/deleting this movie. Do you want to try again?" in text_of(browser.find_element(By.CSS_SELECTOR, "main"))

    # Retry is a form that posts the same change again (not a link to the film), and it lands where the save would have.
    retry = browser.find_element(By.XPATH, "//main//form//button[normalize-space()='Retry']")
    form = retry.find_element(By.XPATH, "./ancestor::form")
    assert form.get_attribute("method") == "post" and form.get_attribute("action") == app.url(f"/library/movies/{CAT_IN_THE_HAT}")
    click(browser, retry)
    until(browser, lambda d: d.current_url == app.url(f"/movies/{CAT_IN_THE_HAT}"), 10, browser.current_url)
    saved = wait_for(browser, ".detail .btn-fav")
    assert (saved.text, saved.get_attribute("aria-pressed")) == ("Favorite ✓", "true")


def test_unmarking_watched_with_a_note_asks_first_and_all_saved_shows_both_toggles(app, browser):
    browser.get(app.url(f"/movies/{RESIDENT_EVIL}"))
    click(browser, wait_for(browser, ".detail .btn-watched"))
    wait_dialog(browser, "note-dialog")
    browser.find_element(By.ID, "note-dialog-text").send_keys("The sequel is better.")
    click(browser, browser.find_element(By.XPATH, "//dialog[@id='note-dialog']//button[normalize-space()='Save note']"))
    wait_dialog(browser, "note-dialog", open_=False)

    # All saved: the card says watched, not a favorite, and carries both toggles.
    browser.get(app.url("/library?list=all"))
    card = wait_for(browser, f'.card[data-movie-id="{RESIDENT_EVIL}"]')
    favorite, watched = card.find_element(By.CSS_SELECTOR, ".btn-fav"), card.find_element(By.CSS_SELECTOR, ".btn-watched")
    assert (favorite.text, favorite.get_attribute("aria-pressed")) == ("Favorite", "false")
    assert (watched.text, watched.get_attribute("aria-pressed")) == ("Watched ✓", "true")

    # Un-marking Watched would lose the film and its note: the confirm dialog asks, and Cancel keeps both.
    mark_page(browser)
    click(browser, watched)
    wait_dialog(browser, "confirm-dialog")
    dialog = browser.find_element(By.ID, "confirm-dialog")
    assert text_of(dialog.find_element(By.TAG_NAME, "h2")) == "Remove it and its note?"
    assert "isn’t a favorite, so un-marking Watched removes it from My Lists, with your note" in text_of(dialog)
    click(browser, dialog.find_element(By.XPATH, ".//button[normalize-space()='Cancel']"))
    wait_dialog(browser, "confirm-dialog", open_=False)
    card = card_for(browser, RESIDENT_EVIL)
    assert card is not None and card.find_element(By.CSS_SELECTOR, ".btn-watched").get_attribute("aria-pressed") == "true"
    assert "The sequel is better." in text_of(card)

    # Asked again and confirmed: the film and its note leave My Lists, in place.
    click(browser, card.find_element(By.CSS_SELECTOR, ".btn-watched"))
    wait_dialog(browser, "confirm-dialog")
    click(browser, browser.find_element(By.XPATH, "//dialog[@id='confirm-dialog']//button[normalize-space()='Remove']"))
    until(browser, lambda d: card_for(d, RESIDENT_EVIL) is None, 10, "the film stayed")
    assert wait_for(browser, "p.empty").text.startswith("Your lists are empty")
    assert same_page(browser), "the removal reloaded the page"

    # The toggles work in place on All saved: a favorite marked watched there is both.
    browser.get(app.url(f"/movies/{CAT_IN_THE_HAT}"))
    click(browser, wait_for(browser, ".detail .btn-fav"))
    until(browser, lambda d: d.find_element(By.CSS_SELECTOR, ".detail .btn-fav").get_attribute("aria-pressed") == "true")
    browser.get(app.url("/library?list=all"))
    mark_page(browser)
    click(browser, wait_for(browser, f'.card[data-movie-id="{CAT_IN_THE_HAT}"] .btn-watched'))
    wait_dialog(browser, "note-dialog")  # marking watched offers the note, as everywhere
    click(browser, browser.find_element(By.XPATH, "//dialog[@id='note-dialog']//button[normalize-space()='Skip']"))
    card = card_for(browser, CAT_IN_THE_HAT)
    assert [b.get_attribute("aria-pressed") for b in card.find_elements(By.CSS_SELECTOR, ".btn-fav, .btn-watched")] == ["true", "true"]
    assert same_page(browser)


def test_a_failure_retrying_cannot_fix_says_what_to_do(app, browser):
    browser.get(app.url(f"/movies/{PRACTICAL_MAGIC_2}"))
    button = wait_for(browser, ".detail .btn-fav")
    # The page's token no longer matches (as after signing in elsewhere): the save is refused, 403.
    browser.execute_script("document.querySelector('meta[name=\"csrf-token\"]').content = 'expired'")
    click(browser, button)
    wait_dialog(browser, "retry-dialog")
    dialog = browser.find_element(By.ID, "retry-dialog")
    assert "This page has expired" in text_of(dialog) and "Reload the page and try again" in text_of(dialog)
    assert "Do you want to try again?" not in text_of(dialog)
    visible = [text_of(b) for b in dialog.find_elements(By.TAG_NAME, "button") if b.is_displayed()]
    assert visible == ["Cancel", "Reload page"], visible
    mark_page(browser)
    click(browser, dialog.find_element(By.XPATH, ".//button[normalize-space()='Reload page']"))
    until(browser, lambda d: not same_page(d), 10, "Reload page did not reload")
    assert wait_for(browser, ".detail .btn-fav").get_attribute("aria-pressed") == "false", "nothing was saved"


def test_a_fallback_page_says_so_and_its_retry_loads_it_again(app, browser, stub):
    stub.set(mode="500", scope="tvmaze")
    browser.get(app.url("/shows?page=2"))
    notice = wait_for(browser, "p.notice")
    assert "TVMaze can’t be reached" in text_of(notice)
    assert "built-in catalogue has only its first page" in text_of(browser.find_element(By.CSS_SELECTOR, "main"))
    retry = notice.find_element(By.CSS_SELECTOR, "a.notice-retry")
    assert text_of(retry) == "Retry" and retry.get_attribute("href") == app.url("/shows?page=2")

    stub.set(mode="ok")
    mark_page(browser)
    click(browser, retry)
    until(browser, lambda d: not same_page(d), 10, "Retry did not load the page")
    assert browser.current_url == app.url("/shows?page=2")
    assert not browser.find_elements(By.CSS_SELECTOR, "p.notice"), "still a fallback after TVMaze came back"
