"""Every screen says what happened, in one voice (a real headless Chromium, a new visitor per test):
a visible confirmation after a note, a rating and a remove; one diary (a watch's note the same on
the film's page, /diary and the watch's form); an imported dated watch in the diary and the
statistics; remove dialogs that say exactly what goes; the right empty state; one date style;
who is signed in."""

from __future__ import annotations

import re
import uuid

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from conftest import wait_for
from helpers import click, mark_page, same_page, sign_up, submit, text_of, until, wait_dialog

MIDSOMMAR = 9100000046  # bundled catalogue, 2019
BOOKSMART = 9100000044
PASSWORD = "popcorn screens 7c1f"
MONTHS = "January|February|March|April|May|June|July|August|September|October|November|December"


def toast(driver) -> str:
    """What the visible confirmation says now ("" while it is hidden)."""
    found = driver.find_elements(By.ID, "toast")
    return found[0].text if found and found[0].is_displayed() else ""


def said(driver, words: str, timeout: float = 10) -> str:
    """Waits until the toast shows `words`, and the live region says the same; returns the toast."""
    until(driver, lambda d: words in toast(d), timeout, lambda: f"no toast with {words!r} (toast: {toast(driver)!r})")
    until(
        driver, lambda d: words in (d.find_element(By.ID, "live-region").get_attribute("textContent") or ""), 5,
        "the live region did not say it",
    )
    return toast(driver)


def film_page(driver, app, movie_id: int) -> None:
    driver.get(app.url(f"/movies/{movie_id}"))
    wait_for(driver, "article.detail")


def press(driver, css: str) -> None:
    click(driver, wait_for(driver, css))


def remove_dialog_text(driver) -> str:
    press(driver, "article.detail a.js-remove")
    wait_dialog(driver, "confirm-dialog")
    return driver.find_element(By.CSS_SELECTOR, "#confirm-dialog .confirm-text").text


def diary_notes(driver) -> list[str]:
    return [e.text for e in driver.find_elements(By.CSS_SELECTOR, ".diary-entry .diary-note")]


def favorite(driver, app, movie_id: int) -> None:
    """Presses Favorite on the film's page and waits for its confirmation."""
    film_page(driver, app, movie_id)
    press(driver, "article.detail .btn-fav")
    said(driver, "added to Favorites")


def watch_and_note(driver, app, movie_id: int, note: str) -> None:
    """Marks the film Watched on its page and writes `note` in the dialog that follows."""
    film_page(driver, app, movie_id)
    press(driver, "article.detail .btn-watched")
    said(driver, "marked as watched")
    wait_dialog(driver, "note-dialog")
    driver.find_element(By.ID, "note-dialog-text").send_keys(note)
    click(driver, driver.find_element(By.CSS_SELECTOR, "#note-dialog button[type=submit]"))
    wait_dialog(driver, "note-dialog", open_=False)
    said(driver, "note saved")


def test_a_note_a_rating_and_a_remove_each_confirm_on_screen(app, browser):
    driver = browser
    watch_and_note(driver, app, MIDSOMMAR, "The flowers")
    # The film's diary shows the watch and its note without a reload.
    until(driver, lambda d: diary_notes(d) == ["The flowers"], 10, lambda: f"diary block shows {diary_notes(driver)}")

    Select(driver.find_element(By.CSS_SELECTOR, "article.detail form.js-rating select")).select_by_value("8")
    mark_page(driver)
    press(driver, "article.detail form.js-rating button")
    assert "Midsommar" in said(driver, "rated 4 stars")
    assert same_page(driver), "the rating is saved in place"

    text = remove_dialog_text(driver)
    assert text == "“Midsommar” leaves your Watched list, with your note and your rating (4 stars). Your diary isn’t changed.", text
    click(driver, driver.find_element(By.CSS_SELECTOR, "#confirm-dialog [data-confirm]"))
    # The page loads again without the film in the lists, and says what happened.
    said(driver, "removed from My Lists")
    assert not driver.find_element(By.CSS_SELECTOR, "article.detail a.js-remove").is_displayed()
    assert driver.find_element(By.CSS_SELECTOR, "article.detail .btn-watched").get_attribute("aria-pressed") == "false"


def test_the_remove_dialog_says_only_what_there_is(app, browser):
    driver = browser
    favorite(driver, app, BOOKSMART)
    driver.get(app.url("/library?list=favorites"))
    link = wait_for(driver, f'.card[data-movie-id="{BOOKSMART}"] a.js-remove')
    click(driver, link)
    wait_dialog(driver, "confirm-dialog")
    assert driver.find_element(By.CSS_SELECTOR, "#confirm-dialog .confirm-text").text == "“Booksmart” leaves your Favorites."


def test_a_watchs_note_is_the_same_on_the_film_page_the_diary_and_its_form(app, browser):
    driver = browser
    watch_and_note(driver, app, BOOKSMART, "Funniest of the year")
    film_page(driver, app, BOOKSMART)
    assert diary_notes(driver) == ["Funniest of the year"]
    assert driver.find_element(By.ID, "note-text").get_attribute("value") == "Funniest of the year"

    driver.get(app.url("/diary"))
    assert diary_notes(driver) == ["Funniest of the year"]
    click(driver, driver.find_element(By.XPATH, "//li[contains(@class,'diary-entry')]//a[normalize-space()='Edit']"))
    note = wait_for(driver, "#watch-note")
    assert note.get_attribute("value") == "Funniest of the year", "the edit form opens with the note"
    note.clear()
    note.send_keys("Funnier the second time")
    submit(driver, "Save")
    said(driver, "your watch is saved")
    assert diary_notes(driver) == ["Funnier the second time"]
    film_page(driver, app, BOOKSMART)
    assert driver.find_element(By.ID, "note-text").get_attribute("value") == "Funnier the second time"
    assert diary_notes(driver) == ["Funnier the second time"]


def test_watched_films_imported_with_dates_are_in_the_diary_and_the_statistics(app, browser, tmp_path):
    driver = browser
    sign_up(driver, app, f"dated-{uuid.uuid4().hex[:8]}", PASSWORD)
    watched = tmp_path / "watched.csv"
    watched.write_text(
        "Date,Name,Year,Letterboxd URI\n2025-02-14,Midsommar,2019,https://boxd.it/w1\n2025-03-01,Booksmart,2019,https://boxd.it/w2\n",
        encoding="utf-8",
    )
    driver.get(app.url("/import"))
    wait_for(driver, "input#import-file").send_keys(str(watched))
    submit(driver, "Import")
    until(
        driver, lambda d: (d.get(app.url("/import")) or True) and not d.find_elements(By.CSS_SELECTOR, "#import-progress[data-active='1']"),
        45, "the import did not finish",
    )
    driver.get(app.url("/diary"))
    entries = [text_of(e) for e in driver.find_elements(By.CSS_SELECTOR, ".diary-entry")]
    assert [e.split(" Edit")[0] for e in entries] == ["1 March 2025 Booksmart", "14 February 2025 Midsommar"], entries
    driver.get(app.url("/stats"))
    figures = text_of(wait_for(driver, ".stats-figures"))
    assert "2 films" in figures and "2 different titles" in figures, figures
    assert not driver.find_elements(By.CSS_SELECTOR, ".stats-undated")


def test_my_lists_tv_with_only_films_saved_says_there_are_no_shows(app, browser):
    driver = browser
    favorite(driver, app, MIDSOMMAR)
    driver.get(app.url("/library"))
    click(driver, driver.find_element(By.XPATH, "//a[normalize-space()='TV']"))
    until(driver, lambda d: "kind=show" in d.current_url, 10)
    empty = text_of(wait_for(driver, "main .empty"))
    assert empty == "No TV shows saved yet. Open TV Shows and tap Favorite on a show to keep it here.", empty


def visible_dates(driver) -> list[str]:
    """Every date-like piece of the page's visible text."""
    body = driver.find_element(By.TAG_NAME, "body").text
    patterns = [
        rf"\b\d{{1,2}} (?:{MONTHS})(?: \d{{4}})?(?:, \d{{2}}:\d{{2}}(?: UTC)?)?",
        r"\b\d{4}-\d{2}-\d{2}\b",
        r"\b\d{1,2}/\d{1,2}/\d{2,4}\b",
        r"\b(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{1,2}, \d{4}",
    ]
    return [m.group(0) for p in patterns for m in re.finditer(p, body)]


def test_dates_are_written_one_way_on_every_page(app, browser):
    driver = browser
    username = f"dates-{uuid.uuid4().hex[:8]}"
    sign_up(driver, app, username, PASSWORD)
    watch_and_note(driver, app, MIDSOMMAR, "On a date")
    day = re.compile(rf"^\d{{1,2}} (?:{MONTHS}) \d{{4}}(?:, \d{{2}}:\d{{2}})?$")
    seen = {}
    for path in [f"/movies/{MIDSOMMAR}", "/diary", "/shows/139", "/account", "/search?q=Midsommar", "/search"]:
        driver.get(app.url(path))
        wait_for(driver, "main")
        dates = visible_dates(driver)
        seen[path] = dates
        assert all(day.match(d) for d in dates), f"{path}: {dates}"
    assert seen["/diary"] and seen["/account"] and seen["/shows/139"], seen
    # Moments are in the browser's zone: no "UTC" once the script has run.
    assert not any(d.endswith("UTC") for dates in seen.values() for d in dates), seen


def test_the_header_says_who_is_signed_in(app, browser):
    driver = browser
    driver.get(app.url("/"))
    assert wait_for(driver, "header a.account-link").text == "Sign in"
    username = f"who-{uuid.uuid4().hex[:8]}"
    sign_up(driver, app, username, PASSWORD)
    for path in ["/", f"/movies/{MIDSOMMAR}", "/diary", "/shows"]:
        driver.get(app.url(path))
        link = wait_for(driver, "header a.account-link")
        assert text_of(link) == f"Signed in as {username}", (path, text_of(link))
        assert link.text.split()[-1] == username
