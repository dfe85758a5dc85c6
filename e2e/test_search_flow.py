"""What a visitor does on PopcornSwirl's Search screen, in a real (headless) Chromium.

Every test gets a fresh browser profile, so every test is a new visitor with no last search and
an empty collection. The stub answers iTunes' title search from the bundled catalogue and OMDb
from its fixture (which knows Midsommar, so that film is the one shown with director, rating and
cast). The app and its upstream cache live for the whole session: a test that needs iTunes to
*fail* searches for a title no other test searches for (FAILING_TITLE).

The app remembers for about 10 s whether iTunes answers and stops calling a host for 30 s after
it could not be reached, so the offline tests come last, and the module first waits until the
app is online again (an offline test of another file may have run just before).
"""

from __future__ import annotations

import json
from datetime import datetime
from urllib.parse import quote

import pytest
from selenium.webdriver.common.by import By

from conftest import REPO_ROOT, wait_for
from helpers import catalogue_film, post_form, until, click, wait_dialog, mark_page, same_page, status_of

OMDB_FIXTURE = REPO_ROOT / "Tests" / "AppTests" / "Fixtures" / "omdb" / "movies.json"

MIDSOMMAR = 9100000046  # in OMDb's fixture (tt8772262)
BOOKSMART = 9100000044  # in OMDb's fixture too
REMEMBERED_TITLE = "Booksmart"
FAILING_TITLE = "Joker"  # searched by no other test, so the app has nothing cached for it

MAX_QUERY = 200
FETCH_FAILED = "An error occurred while fetching data. Do you want to try again?"
ADDED = "Added to your Favorites."
REMOVED = "Removed from your Favorites."
IN_COLLECTION = "Favorite ✓"
ADD_TO_COLLECTION = "Favorite"


# --------------------------------------------------------------------------- helpers


def omdb_film(title: str) -> dict:
    return next(m for m in json.loads(OMDB_FIXTURE.read_text(encoding="utf-8")) if m["Title"] == title)


def search(driver, app, text: str, typed: bool = True) -> None:
    """Types `text` into the Search screen's field and presses Search (a GET form), then waits for the answer.

    typed=False sets the field from a script instead: ChromeDriver cannot type emoji.
    """
    if not driver.current_url.startswith(app.url("/search")):
        driver.get(app.url("/search"))
    box = wait_for(driver, "form.search-main input#search-q")
    if typed:
        box.clear()
        box.send_keys(text)
    else:
        driver.execute_script("arguments[0].value = arguments[1]", box, text)
    mark_page(driver)
    click(driver, driver.find_element(By.XPATH, "//form[contains(@class,'search-main')]//button[normalize-space()='Search']"))
    until(
        driver,
        lambda d: not same_page(d) and d.execute_script("return document.readyState") == "complete",
        20,
        f"searching for {text!r} did not open a page of results",
    )


def best_match(driver):
    return wait_for(driver, "article.best-match")


def best_title(driver) -> str:
    return best_match(driver).find_element(By.CSS_SELECTOR, "h3.best-title a").text


def facts(driver) -> dict[str, str]:
    rows = best_match(driver).find_elements(By.CSS_SELECTOR, "dl.facts > div")
    return {r.find_element(By.TAG_NAME, "dt").text: r.find_element(By.TAG_NAME, "dd").text for r in rows}


def message(driver, kind: str):
    """The one Search message of this kind (welcome, info, error), not the flash line."""
    return wait_for(driver, f"div.search-message.search-{kind}")


def section_titles(driver) -> list[str]:
    return [e.text for e in driver.find_elements(By.CSS_SELECTOR, "main h2.section-title")]


def collection_button(driver):
    return best_match(driver).find_element(By.CSS_SELECTOR, "form.js-library button.btn-collection")


def collection_state(driver) -> tuple[str, str]:
    """The collection button's label and whether it is pressed ("true"/"false")."""
    button = collection_button(driver)
    return button.text, button.get_attribute("aria-pressed")


def flash(driver) -> str:
    """What the status line announces ("" while it is hidden)."""
    line = driver.find_element(By.CSS_SELECTOR, "p.flash[role=status]")
    return line.text if line.is_displayed() else ""


def card_for(driver, movie_id: int):
    found = driver.find_elements(By.CSS_SELECTOR, f'.grid .card[data-movie-id="{movie_id}"]')
    return found[0] if found else None


def assert_no_script_errors(driver) -> None:
    errors = [entry["message"] for entry in driver.get_log("browser") if entry.get("source") == "javascript"]
    assert not errors, f"JavaScript errors: {errors}"


def assert_remembers(driver, title: str, query: str) -> None:
    """The Search screen without a query shows `title` as the visitor's last search (`query`)."""
    assert wait_for(driver, "main h2.section-title").text == "Your last search"
    assert best_title(driver) == title
    info = message(driver, "info").text
    assert info.startswith(f"Your last search, “{query}”, on "), info
    assert driver.find_element(By.ID, "search-q").get_attribute("value") == query
    assert not driver.find_elements(By.CSS_SELECTOR, "div.search-welcome, div.search-error")


@pytest.fixture(scope="module", autouse=True)
def _online_to_begin_with(app):
    """Waits out an outage another file's offline test may have left behind (30 s breaker, 10 s memory).

    Each status_of() call is a new visitor, who is welcomed (200) only while iTunes answers.
    until() hands its first argument to the condition, so it can poll the app without a browser.
    """
    until(app, lambda a: status_of(a.url("/search")) == 200, 60, "the Search screen still says there is no connection")


# --------------------------------------------------------------------------- online


def test_opening_search_online_with_nothing_searched_yet_shows_a_welcome(app, browser):
    browser.get(app.url("/"))
    click(browser, wait_for(browser, '.tabs a[href="/search"]'))
    until(browser, lambda d: d.current_url == app.url("/search"))
    assert browser.find_element(By.CSS_SELECTOR, ".tabs a[aria-current=page]").text.endswith("Search")
    assert browser.find_element(By.TAG_NAME, "h1").text == "Search"

    welcome = message(browser, "welcome")
    assert welcome.find_element(By.TAG_NAME, "h2").text == "Find a film or a show"
    assert "Type the title of a film or TV show" in welcome.text
    box = browser.find_element(By.ID, "search-q")
    assert box.get_attribute("value") == ""
    assert box.get_attribute("maxlength") is None, "the server counts characters; a browser's maxlength counts UTF-16 units"
    assert f"Up to {MAX_QUERY} characters" in browser.find_element(By.ID, "search-hint").text
    assert not browser.find_elements(By.CSS_SELECTOR, "article.best-match, div.search-error")
    assert flash(browser) == ""
    assert status_of(app.url("/search")) == 200
    assert_no_script_errors(browser)


def test_searching_a_title_shows_the_best_match_in_full_and_remembers_it(app, browser):
    entry, omdb = catalogue_film(MIDSOMMAR), omdb_film("Midsommar")
    search(browser, app, "Midsommar")
    assert browser.current_url == app.url("/search?q=Midsommar")
    assert section_titles(browser)[0] == "Best match"

    best = best_match(browser)
    assert int(best.get_attribute("data-movie-id")) == MIDSOMMAR
    assert best.find_element(By.CSS_SELECTOR, "h3.best-title").text == "Midsommar (2019)"
    assert best.find_element(By.CSS_SELECTOR, "img.detail-poster").get_attribute("alt") == "Poster of Midsommar"
    day = datetime.strptime(entry["releaseDate"], "%Y-%m-%dT%H:%M:%SZ")
    assert facts(browser) == {
        "Genre": entry["primaryGenreName"],
        "Director": "Ari Aster",
        "Released": f"{day.day} {day:%B %Y}",
        "Runtime": "2 h 28 min",
        "Rated": "R",
        "IMDb rating": "7.1/10 (432,163 votes)",
        "Starring": "Florence Pugh, Jack Reynor, Vilhelm Blomgren",
    }
    assert best.find_element(By.CSS_SELECTOR, ".facts time").get_attribute("datetime") == f"{day:%Y-%m-%d}"
    assert best.find_element(By.CSS_SELECTOR, "p.synopsis").text == omdb["Plot"]

    store = best.find_element(By.CSS_SELECTOR, "a.store-link")
    assert (store.text, store.get_attribute("href")) == ("More on iTunes", entry["trackViewUrl"])
    imdb = best.find_element(By.CSS_SELECTOR, "a.imdb-link")
    assert (imdb.text, imdb.get_attribute("href")) == ("IMDb", "https://www.imdb.com/title/tt8772262/")
    for link in (store, imdb):
        assert link.get_attribute("target") == "_blank" and "noopener" in link.get_attribute("rel").split()
    details = best.find_element(By.XPATH, ".//a[normalize-space()='Details']")
    assert details.get_attribute("href") == app.url(f"/movies/{MIDSOMMAR}")
    assert collection_state(browser) == (ADD_TO_COLLECTION, "false")
    assert not browser.find_elements(By.CSS_SELECTOR, "div.search-message"), "a clean search should need no message"

    browser.get(app.url("/search"))
    assert_remembers(browser, "Midsommar", "Midsommar")
    assert facts(browser)["Director"] == "Ari Aster"
    assert_no_script_errors(browser)


def test_other_films_and_tv_shows_that_match_are_listed_below_the_best_match(app, browser):
    search(browser, app, "Spider-Man")
    assert section_titles(browser) == ["Best match", "More films", "Recent searches"]
    assert best_title(browser) == "Spider-Man: Into the Spider-Verse"
    assert facts(browser)["IMDb rating"].startswith("8.4/10"), "OMDb's details for the best match"
    assert not browser.find_elements(By.CSS_SELECTOR, "div.search-error")
    others = [e.text for e in browser.find_elements(By.CSS_SELECTOR, ".grid .card:not(.sponsored-card) .card-title")]
    assert sorted(others) == ["Spider-Man: Across the Spider-Verse", "Spider-Man: Brand New Day", "Spider-Man: No Way Home"]

    search(browser, app, "Girls")  # no film has it in its title; two TV shows do
    assert section_titles(browser) == ["TV shows", "Recent searches"]
    assert message(browser, "info").text == "No films match “Girls” on iTunes."
    shows = [e.text for e in browser.find_elements(By.CSS_SELECTOR, ".shows-grid .show-card .card-title")]
    assert sorted(shows) == ["Chicken Girls", "Girls"]
    assert "TVMaze" in browser.find_element(By.CSS_SELECTOR, "footer.credit").text
    assert not browser.find_elements(By.CSS_SELECTOR, "article.best-match")


def test_a_failed_search_offers_a_retry_and_keeps_the_last_search(app, stub, browser):
    search(browser, app, REMEMBERED_TITLE)
    assert best_title(browser) == REMEMBERED_TITLE
    stub.set(mode="500", scope="itunes")

    search(browser, app, FAILING_TITLE)
    error = message(browser, "error")
    assert error.get_attribute("role") == "alert"
    assert error.find_element(By.TAG_NAME, "h2").text == "Oops, something went wrong"
    assert FETCH_FAILED in error.text and "The film catalogue answered with an error." in error.text, error.text
    retry = error.find_element(By.XPATH, ".//a[normalize-space()='Retry']")
    assert retry.get_attribute("href") == app.url(f"/search?q={FAILING_TITLE}")
    assert browser.find_element(By.ID, "search-q").get_attribute("value") == FAILING_TITLE
    assert not browser.find_elements(By.CSS_SELECTOR, "article.best-match")
    assert status_of(retry.get_attribute("href")) == 503

    browser.get(app.url("/search"))
    assert_remembers(browser, REMEMBERED_TITLE, REMEMBERED_TITLE)

    browser.back()  # to the failed search (iTunes still failing, in case the browser asks again)
    retry = wait_for(browser, "div.search-error[role=alert] .actions a")
    assert retry.text == "Retry"
    stub.set(mode="ok")
    click(browser, retry)
    until(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "article.best-match"), 20, "Retry did not find the film")
    assert best_title(browser) == FAILING_TITLE
    assert not browser.find_elements(By.CSS_SELECTOR, "div.search-error")


# --------------------------------------------------------------------------- the collection button


def test_adding_the_best_match_to_the_collection_updates_in_place_and_my_lists(app, browser):
    kept = post_form(browser, app, f"/library/movies/{BOOKSMART}", {"favorite": "1", "return_to": "/"})  # a film kept before
    assert kept["status"] == 200, kept
    search(browser, app, "Midsommar")
    mark_page(browser)

    click(browser, collection_button(browser))
    until(browser, lambda d: collection_state(d) == (IN_COLLECTION, "true"), 5, "the button did not turn on")
    assert flash(browser) == f"“Midsommar”: {ADDED}"
    assert same_page(browser), "the page was reloaded: adding should happen in place"

    browser.get(app.url("/library?list=favorites"))
    card = wait_for(browser, f'.card[data-movie-id="{MIDSOMMAR}"]')
    assert card.find_element(By.CSS_SELECTOR, ".card-title").text == "Midsommar"
    assert browser.find_element(By.CSS_SELECTOR, "main .count").text == "Favorites: 2 titles"
    mark_page(browser)
    click(browser, card.find_element(By.CSS_SELECTOR, ".js-remove"))
    wait_dialog(browser, "confirm-dialog")
    assert "Midsommar" in browser.find_element(By.CSS_SELECTOR, "#confirm-dialog .confirm-text").text
    browser.find_element(By.CSS_SELECTOR, "#confirm-dialog [data-confirm]").click()
    until(browser, lambda d: card_for(d, MIDSOMMAR) is None, 5, "the card stayed after Remove")
    assert browser.find_element(By.CSS_SELECTOR, "main .count").text == "Favorites: 1 title"
    assert card_for(browser, BOOKSMART) is not None
    assert same_page(browser), "Remove reloaded the page instead of removing the card in place"

    browser.get(app.url("/search"))
    assert best_title(browser) == "Midsommar"
    assert collection_state(browser) == (ADD_TO_COLLECTION, "false")
    assert_no_script_errors(browser)


def test_without_javascript_the_collection_button_is_a_page_that_says_what_happened(app, nojs_browser):
    browser = nojs_browser
    search(browser, app, "Midsommar")
    assert flash(browser) == ""

    def press_collection_button() -> str:
        """A form POST, then a redirect back to this search; returns what the status line says."""
        mark_page(browser)
        click(browser, collection_button(browser))
        until(browser, lambda d: not same_page(d) and flash(d), 10, "no page came back announcing what happened")
        assert browser.current_url.startswith(app.url("/search?q=Midsommar&")), browser.current_url
        return flash(browser)

    assert press_collection_button() == f"“Midsommar”: {ADDED}"
    assert collection_state(browser) == (IN_COLLECTION, "true")
    assert press_collection_button() == f"“Midsommar”: {REMOVED}"
    assert collection_state(browser) == (ADD_TO_COLLECTION, "false")
    browser.get(app.url("/library?list=favorites"))
    assert wait_for(browser, ".empty").text.startswith("No favorites yet")


# --------------------------------------------------------------------------- bad input and layout


def test_a_title_over_200_characters_is_refused_and_unicode_is_kept_intact(app, browser):
    too_long = ("Popcorn" * 30)[: MAX_QUERY + 1]
    assert status_of(app.url(f"/search?q={too_long}")) == 400
    search(browser, app, too_long, typed=False)
    error = message(browser, "error")
    assert "at most 200 characters" in error.text and "201 characters" in error.text, error.text
    assert browser.find_element(By.ID, "search-q").get_attribute("value") == too_long[:MAX_QUERY]
    assert not browser.find_elements(By.CSS_SELECTOR, "article.best-match")

    unicode = "Amélie 🍿 東京"
    browser.get(app.url(f"/search?q={quote(unicode)}"))  # as the app's own links encode it (spaces as %20)
    assert message(browser, "info").text == f"No films match “{unicode}” on iTunes. Check the spelling, or try fewer words."
    assert browser.find_element(By.ID, "search-q").get_attribute("value") == unicode
    assert browser.title.startswith(f"“{unicode}”")
    assert not browser.find_elements(By.CSS_SELECTOR, "div.search-error")


def test_typing_a_title_of_several_words_finds_that_film(app, browser):
    search(browser, app, "Apollo 11")
    assert browser.find_element(By.ID, "search-q").get_attribute("value") == "Apollo 11"
    assert best_title(browser) == "Apollo 11"


def test_a_tablet_shows_the_best_matchs_poster_beside_its_facts(app, tablet_browser):
    search(tablet_browser, app, "Midsommar")
    poster = best_match(tablet_browser).find_element(By.CSS_SELECTOR, "img.detail-poster")
    dl = best_match(tablet_browser).find_element(By.CSS_SELECTOR, "dl.facts")
    assert poster.is_displayed() and dl.is_displayed()
    assert poster.rect["x"] + poster.rect["width"] <= dl.rect["x"], (poster.rect, dl.rect)
    assert poster.rect["y"] < dl.rect["y"] + dl.rect["height"], "the facts are below the poster, not beside it"


# --------------------------------------------------------------------------- offline (last: the app keeps "offline" for a while)


def recent_queries(driver) -> list[str]:
    return [a.text for a in driver.find_elements(By.CSS_SELECTOR, ".recent-searches .recent-query")]


def test_recent_searches_are_listed_run_again_and_removed(app, browser):
    # Recent searches belong to a profile: a first save starts one.
    assert post_form(browser, app, f"/library/movies/{BOOKSMART}", {"favorite": "1", "return_to": "/"})["status"] == 200
    for title in ("Midsommar", "Booksmart"):
        search(browser, app, title)
    browser.get(app.url("/search"))
    until(browser, lambda d: recent_queries(d) == ["Booksmart", "Midsommar"], 5, lambda: f"recent searches: {recent_queries(browser)}")
    assert wait_for(browser, "#recent-heading").text == "Recent searches"

    click(browser, browser.find_element(By.XPATH, "//a[@class='recent-query' and normalize-space()='Midsommar']"))
    until(browser, lambda d: d.current_url == app.url("/search?q=Midsommar"))
    assert best_title(browser) == "Midsommar"
    assert recent_queries(browser) == ["Midsommar", "Booksmart"]

    item = browser.find_element(By.XPATH, "//li[@class='recent-item'][a[normalize-space()='Booksmart']]")
    remove = item.find_element(By.CSS_SELECTOR, "button")
    assert remove.get_attribute("aria-label") == "Remove “Booksmart” from recent searches"
    click(browser, remove)
    until(browser, lambda d: recent_queries(d) == ["Midsommar"], 5, lambda: f"recent searches: {recent_queries(browser)}")
    assert browser.current_url == app.url("/search?q=Midsommar")
    assert_no_script_errors(browser)


def test_offline_the_search_screen_still_shows_the_last_search(app, stub, browser):
    search(browser, app, "Midsommar")
    assert best_title(browser) == "Midsommar"
    stub.stop()  # iTunes, OMDb and TVMaze are gone; the autouse fixture starts the stub again on the same port

    browser.get(app.url("/search"))
    assert_remembers(browser, "Midsommar", "Midsommar")
    assert facts(browser)["IMDb rating"] == "7.1/10 (432,163 votes)"


def test_offline_with_nothing_searched_yet_says_there_is_no_connection(app, stub, browser):
    stub.stop()
    # The app remembers for up to 10 s that iTunes answered: wait until it notices.
    until(browser, lambda _: status_of(app.url("/search")) == 503, 20, "the app never noticed iTunes was gone")

    browser.get(app.url("/search"))
    error = message(browser, "error")
    assert error.get_attribute("role") == "alert"
    assert error.find_element(By.TAG_NAME, "h2").text == "No connection"
    assert "Searching needs a connection" in error.text, error.text
    assert not browser.find_elements(By.CSS_SELECTOR, "article.best-match, div.search-welcome")
    assert browser.find_element(By.ID, "search-q").is_displayed()
