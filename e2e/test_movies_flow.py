"""What a visitor does with PopcornSwirl's movies and lists, in a real (headless) Chromium.

Every test gets a fresh browser profile, so every test is a new visitor with empty lists.
When a test needs a visitor who already has films in their lists, `save()` posts exactly what
the Favorite / Watched / note forms post, from inside the visitor's browser (so the session
cookie is the browser's own).
"""

from __future__ import annotations

import json
from datetime import datetime

from selenium.common.exceptions import TimeoutException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from conftest import REPO_ROOT, wait_for
from helpers import catalogue_film, post_form, until, click, dialog_is_open, wait_dialog, mark_page, same_page, status_of

CATALOG_DIR = REPO_ROOT / "Sources" / "App" / "Resources" / "catalog"
CURRENT_YEAR = 2026
NOTE_LIMIT = 2000

# Films from the bundled catalogue, which the stub serves as iTunes' answers.
CAT_IN_THE_HAT = 9100000215
STREET_FIGHTER = 9100000214
RESIDENT_EVIL = 9100000213
PRACTICAL_MAGIC_2 = 9100000212



# --------------------------------------------------------------------------- helpers


def films_of(year: int) -> list[dict]:
    data = json.loads((CATALOG_DIR / f"movies-{year}.json").read_text(encoding="utf-8"))
    return data["results"] if isinstance(data, dict) else data


film = catalogue_film


def release_day(entry: dict) -> datetime:
    return datetime.strptime(entry["releaseDate"], "%Y-%m-%dT%H:%M:%SZ")


def save(driver, app, movie_id: int, **fields) -> dict:
    """Posts the library form for `movie_id` from inside the browser, as the page's script does.

    fields: favorite="1"/"0", watched="1"/"0", note="..."; returns the JSON state the app answers.
    """
    result = post_form(driver, app, f"/library/movies/{movie_id}", {"return_to": "/", **fields})
    assert result["status"] == 200, f"saving {fields} for {movie_id} answered {result}"
    return json.loads(result["body"])


def cards(driver) -> list:
    """The film cards (sponsored cards between them are not films)."""
    return driver.find_elements(By.CSS_SELECTOR, ".grid .card[data-movie-id]")


def card_titles(driver) -> list[str]:
    return [c.find_element(By.CSS_SELECTOR, ".card-title").text for c in cards(driver)]


def card_for(driver, movie_id: int):
    found = driver.find_elements(By.CSS_SELECTOR, f'.card[data-movie-id="{movie_id}"]')
    return found[0] if found else None


def set_textarea(driver, element, text: str) -> None:
    """Sets a long text at once (typing 2000 characters is slow) and lets the page see the input."""
    driver.execute_script(
        "arguments[0].value = arguments[1]; arguments[0].dispatchEvent(new Event('input', {bubbles: true}))",
        element,
        text,
    )


def assert_no_script_errors(driver) -> None:
    """Fails on any uncaught JavaScript error the page logged (network 4xx answers are not script errors)."""
    errors = [entry["message"] for entry in driver.get_log("browser") if entry.get("source") == "javascript"]
    assert not errors, f"JavaScript errors: {errors}"


def first_row_columns(driver) -> int:
    tops = driver.execute_script(
        "return [...document.querySelectorAll('.grid .card')].map(c => c.getBoundingClientRect()).map(r => [r.x, r.y])"
    )
    assert tops, "no cards in the grid"
    first_y = tops[0][1]
    return len({round(x) for x, y in tops if abs(y - first_y) < 2})




# --------------------------------------------------------------------------- Movies


def test_home_lists_this_years_films_newest_release_first(app, browser):
    browser.get(app.url("/"))
    wait_for(browser, ".grid .card")
    assert browser.find_element(By.TAG_NAME, "h1").text == f"Movies of {CURRENT_YEAR}"

    catalogue = films_of(CURRENT_YEAR)
    titles = card_titles(browser)
    assert sorted(titles) == sorted(f["trackName"] for f in catalogue)
    by_title = {f["trackName"]: f for f in catalogue}
    days = [release_day(by_title[t]) for t in titles]
    assert days == sorted(days, reverse=True), f"not newest first: {list(zip(titles, days))}"

    for card in cards(browser):
        title = card.find_element(By.CSS_SELECTOR, ".card-title").text
        meta = card.find_element(By.CSS_SELECTOR, ".card-meta").text
        assert str(CURRENT_YEAR) in meta and by_title[title]["primaryGenreName"] in meta, (title, meta)
        fav = card.find_element(By.CSS_SELECTOR, ".btn-fav")
        watched = card.find_element(By.CSS_SELECTOR, ".btn-watched")
        assert (fav.text, fav.get_attribute("aria-pressed")) == ("Favorite", "false"), title
        assert (watched.text, watched.get_attribute("aria-pressed")) == ("Watched", "false"), title

    # A partner offer, labelled "Sponsored", after every 12 films.
    grid = browser.find_elements(By.CSS_SELECTOR, ".grid > .card")
    sponsored = [i for i, card in enumerate(grid) if "sponsored-card" in card.get_attribute("class")]
    assert sponsored == [12 * (n + 1) + n for n in range(len(titles) // 12)][: len(sponsored)] and sponsored, sponsored
    assert all(grid[i].find_element(By.CSS_SELECTOR, ".sponsored-label").text.startswith("SPONSORED") for i in sponsored)


def test_picking_2019_in_the_year_picker_shows_2019_films(app, browser):
    browser.get(app.url("/"))
    Select(wait_for(browser, "select#year")).select_by_value("2019")
    until(browser, lambda d: d.current_url.endswith("/movies?year=2019"), 5, "the picker did not submit by itself")
    assert browser.find_element(By.TAG_NAME, "h1").text == "Movies of 2019"
    assert Select(browser.find_element(By.ID, "year")).first_selected_option.text == "2019"
    assert sorted(card_titles(browser)) == sorted(f["trackName"] for f in films_of(2019))
    assert all("2019" in m.text for m in browser.find_elements(By.CSS_SELECTOR, ".grid .card[data-movie-id] .card-meta"))


def test_opening_a_film_from_the_grid_shows_its_details(app, browser):
    browser.get(app.url("/"))
    card = wait_for(browser, ".grid .card")
    movie_id = int(card.get_attribute("data-movie-id"))
    click(browser, card.find_element(By.CSS_SELECTOR, ".card-link"))
    until(browser, lambda d: d.current_url.endswith(f"/movies/{movie_id}"))

    entry = film(movie_id)
    detail = wait_for(browser, ".detail")
    assert entry["trackName"] in detail.find_element(By.TAG_NAME, "h1").text
    facts = detail.find_element(By.CSS_SELECTOR, ".facts").text
    day = release_day(entry)
    assert entry["primaryGenreName"] in facts
    assert f"{day.day} {day:%B %Y}" in facts
    assert detail.find_element(By.CSS_SELECTOR, ".facts time").get_attribute("datetime") == f"{day:%Y-%m-%d}"
    assert entry["artistName"] in facts
    assert detail.find_element(By.CSS_SELECTOR, ".synopsis").text in (entry["longDescription"], entry["shortDescription"])

    store = detail.find_element(By.CSS_SELECTOR, "a.store-link")
    assert store.text == "More on iTunes"
    assert store.get_attribute("target") == "_blank"
    assert "noopener" in store.get_attribute("rel").split()
    assert store.get_attribute("href").startswith("https://")


# --------------------------------------------------------------------------- detail page actions


def test_bookmarking_on_the_detail_page_updates_in_place_and_persists(app, browser):
    browser.get(app.url(f"/movies/{STREET_FIGHTER}"))
    button = wait_for(browser, ".detail .btn-fav")
    assert (button.text, button.get_attribute("aria-pressed")) == ("Favorite", "false")
    mark_page(browser)

    click(browser, button)
    until(browser, lambda d: d.find_element(By.CSS_SELECTOR, ".detail .btn-fav").get_attribute("aria-pressed") == "true")
    assert browser.find_element(By.CSS_SELECTOR, ".detail .btn-fav").text == "Favorite ✓"
    assert same_page(browser), "the page was reloaded: bookmarking should happen in place"

    browser.refresh()
    button = wait_for(browser, ".detail .btn-fav")
    assert (button.text, button.get_attribute("aria-pressed")) == ("Favorite ✓", "true")
    assert_no_script_errors(browser)


def test_adding_to_watched_asks_for_a_note_and_saves_it(app, browser):
    browser.get(app.url(f"/movies/{RESIDENT_EVIL}"))
    button = wait_for(browser, ".detail .btn-watched")
    assert button.text == "Watched"
    mark_page(browser)

    click(browser, button)
    wait_dialog(browser, "note-dialog")
    assert browser.find_element(By.CSS_SELECTOR, ".detail .btn-watched").text == "Watched ✓"
    assert same_page(browser)
    assert browser.find_element(By.CSS_SELECTOR, "#note-dialog .note-film").text == film(RESIDENT_EVIL)["trackName"]
    browser.find_element(By.ID, "note-dialog-text").send_keys("Scarier than the games.")
    browser.find_element(By.CSS_SELECTOR, "#note-dialog button[type=submit]").click()
    wait_dialog(browser, "note-dialog", open_=False)
    assert browser.find_element(By.ID, "note-text").get_attribute("value") == "Scarier than the games."

    browser.refresh()
    note_box = wait_for(browser, ".note-box", visible=True)
    assert note_box.find_element(By.ID, "note-text").get_attribute("value") == "Scarier than the games."
    assert browser.find_element(By.CSS_SELECTOR, ".detail .btn-watched").get_attribute("aria-pressed") == "true"
    assert_no_script_errors(browser)


# --------------------------------------------------------------------------- My Lists


def test_my_lists_tabs_show_favorites_watched_and_all(app, browser):
    save(browser, app, CAT_IN_THE_HAT, favorite="1")
    save(browser, app, CAT_IN_THE_HAT, watched="1", note="Rhymes all the way down.")
    title = film(CAT_IN_THE_HAT)["trackName"]

    browser.get(app.url("/"))
    click(browser, wait_for(browser, '.tabs a[href^="/library"]'))
    until(browser, lambda d: "/library" in d.current_url)
    assert browser.find_element(By.TAG_NAME, "h1").text == "My Lists"

    def open_tab(label: str) -> None:
        tab = browser.find_element(By.XPATH, f"//nav[contains(@class,'segmented')]//a[normalize-space()='{label}']")
        click(browser, tab)
        until(
            browser,
            lambda d: d.find_element(By.CSS_SELECTOR, ".segmented a[aria-current=page]").text == label,
        )

    open_tab("Favorites")
    assert browser.current_url.endswith("/library?list=favorites")
    assert card_titles(browser) == [title]

    open_tab("Watched")
    assert browser.current_url.endswith("/library?list=watched")
    assert card_titles(browser) == [title]
    assert "Rhymes all the way down." in card_for(browser, CAT_IN_THE_HAT).find_element(By.CSS_SELECTOR, ".card-note").text

    open_tab("All saved")
    assert browser.current_url.endswith("/library?list=all")
    assert card_titles(browser) == [title]


def test_editing_a_note_from_my_lists(app, browser):
    save(browser, app, RESIDENT_EVIL, watched="1", note="First thoughts.")
    browser.get(app.url("/library?list=watched"))
    card = wait_for(browser, f'.card[data-movie-id="{RESIDENT_EVIL}"]')
    mark_page(browser)

    edit = card.find_element(By.CSS_SELECTOR, ".js-edit-note")
    assert edit.text == "Edit note"
    click(browser, edit)
    wait_dialog(browser, "note-dialog")
    text = browser.find_element(By.ID, "note-dialog-text")
    assert text.get_attribute("value") == "First thoughts."
    text.clear()
    text.send_keys("Second thoughts: even better.")
    browser.find_element(By.CSS_SELECTOR, "#note-dialog button[type=submit]").click()
    wait_dialog(browser, "note-dialog", open_=False)
    until(browser, lambda d: "Second thoughts: even better." in card_for(d, RESIDENT_EVIL).find_element(By.CSS_SELECTOR, ".card-note").text)
    assert same_page(browser)

    browser.refresh()
    note = wait_for(browser, f'.card[data-movie-id="{RESIDENT_EVIL}"] .card-note')
    assert "Second thoughts: even better." in note.text
    assert "First thoughts." not in note.text
    assert_no_script_errors(browser)


def test_a_note_over_2000_characters_gets_a_readable_error_and_keeps_the_text(app, browser):
    save(browser, app, PRACTICAL_MAGIC_2, watched="1")
    browser.get(app.url("/library?list=watched"))
    card = wait_for(browser, f'.card[data-movie-id="{PRACTICAL_MAGIC_2}"]')
    add = card.find_element(By.CSS_SELECTOR, ".js-edit-note")
    assert add.text == "Add note"
    click(browser, add)
    wait_dialog(browser, "note-dialog")

    too_long = "Spellbinding! " * 150  # 2100 characters
    assert len(too_long) > NOTE_LIMIT
    text = browser.find_element(By.ID, "note-dialog-text")
    set_textarea(browser, text, too_long)
    assert browser.find_element(By.CSS_SELECTOR, "#note-dialog .count").text == str(len(too_long))
    browser.find_element(By.CSS_SELECTOR, "#note-dialog button[type=submit]").click()

    error = wait_for(browser, "#note-dialog .form-error", visible=True)
    assert "2000" in error.text and "characters" in error.text, error.text
    assert dialog_is_open(browser, "note-dialog")
    assert text.get_attribute("value") == too_long

    browser.find_element(By.CSS_SELECTOR, "#note-dialog [data-close]").click()
    wait_dialog(browser, "note-dialog", open_=False)
    browser.refresh()
    card = wait_for(browser, f'.card[data-movie-id="{PRACTICAL_MAGIC_2}"]')
    assert not card.find_elements(By.CSS_SELECTOR, ".card-note"), "the refused note was saved"
    assert_no_script_errors(browser)


def test_moving_a_favorite_to_watched(app, browser):
    save(browser, app, STREET_FIGHTER, favorite="1")
    browser.get(app.url("/library?list=favorites"))
    card = wait_for(browser, f'.card[data-movie-id="{STREET_FIGHTER}"]')
    move = card.find_element(By.CSS_SELECTOR, ".btn-move")
    assert move.text == "Move to Watched"

    mark_page(browser)
    click(browser, move)
    until(browser, lambda d: card_for(d, STREET_FIGHTER) is None, 5, "the card stayed on Favorites")
    assert same_page(browser), "moving reloaded the page instead of updating it in place"

    browser.get(app.url("/library?list=watched"))
    moved = wait_for(browser, f'.card[data-movie-id="{STREET_FIGHTER}"]')
    assert moved.find_element(By.CSS_SELECTOR, ".btn-move").text == "Move to Favorites"
    browser.get(app.url("/library?list=favorites"))
    wait_for(browser, ".empty")
    assert card_for(browser, STREET_FIGHTER) is None
    assert_no_script_errors(browser)


def test_removing_a_film_asks_for_confirmation_first(app, browser):
    save(browser, app, CAT_IN_THE_HAT, favorite="1")
    browser.get(app.url("/library?list=favorites"))
    card = wait_for(browser, f'.card[data-movie-id="{CAT_IN_THE_HAT}"]')
    mark_page(browser)

    click(browser, card.find_element(By.CSS_SELECTOR, ".js-remove"))
    wait_dialog(browser, "confirm-dialog")
    assert film(CAT_IN_THE_HAT)["trackName"] in browser.find_element(By.CSS_SELECTOR, "#confirm-dialog .confirm-text").text
    browser.find_element(By.CSS_SELECTOR, "#confirm-dialog [data-close]").click()
    wait_dialog(browser, "confirm-dialog", open_=False)
    assert card_for(browser, CAT_IN_THE_HAT) is not None, "Cancel removed the film"

    click(browser, card_for(browser, CAT_IN_THE_HAT).find_element(By.CSS_SELECTOR, ".js-remove"))
    wait_dialog(browser, "confirm-dialog")
    confirm = browser.find_element(By.CSS_SELECTOR, "#confirm-dialog [data-confirm]")
    assert confirm.text == "Remove"
    confirm.click()
    until(browser, lambda d: card_for(d, CAT_IN_THE_HAT) is None, 5, "the card stayed after Remove")
    assert same_page(browser), "Remove reloaded the page instead of removing the card in place"

    browser.refresh()
    empty = wait_for(browser, ".empty")
    assert empty.text.startswith("No favorites yet")
    assert not cards(browser)
    assert_no_script_errors(browser)


# --------------------------------------------------------------------------- without JavaScript


def test_without_javascript_every_action_is_a_page(app, nojs_browser):
    browser = nojs_browser
    title = film(STREET_FIGHTER)["trackName"]
    browser.get(app.url("/"))

    def grid_button(css: str):
        return wait_for(browser, f'.card[data-movie-id="{STREET_FIGHTER}"] {css}')

    mark_page(browser)
    click(browser, grid_button(".btn-fav"))  # a form POST, then a redirect back to the grid
    until(browser, lambda d: grid_button(".btn-fav").get_attribute("aria-pressed") == "true")
    assert not same_page(browser), "the page did not reload: was JavaScript really off?"
    # Back at the card, not the top of the list.
    assert browser.current_url == app.url(f"/#movie-{STREET_FIGHTER}")
    assert grid_button(".btn-fav").text == "Favorite ✓"

    click(browser, grid_button(".btn-watched"))  # marking watched lands on the note page
    until(browser, lambda d: f"/movies/{STREET_FIGHTER}/note" in d.current_url)
    assert browser.find_element(By.TAG_NAME, "h1").text == f"Note for {title}"
    browser.find_element(By.ID, "note-text").send_keys("Saved without any script.")
    click(browser, browser.find_element(By.XPATH, "//main//button[normalize-space()='Save note']"))
    until(browser, lambda d: d.current_url == app.url(f"/#movie-{STREET_FIGHTER}"))
    assert (grid_button(".btn-watched").text, grid_button(".btn-watched").get_attribute("aria-pressed")) == ("Watched ✓", "true")

    browser.get(app.url("/library?list=watched"))
    assert "Saved without any script." in wait_for(browser, f'.card[data-movie-id="{STREET_FIGHTER}"] .card-note').text
    click(browser, card_for(browser, STREET_FIGHTER).find_element(By.CSS_SELECTOR, ".js-edit-note"))  # a link to the note page
    until(browser, lambda d: f"/movies/{STREET_FIGHTER}/note" in d.current_url)
    text = browser.find_element(By.ID, "note-text")
    assert text.get_attribute("value") == "Saved without any script."
    text.clear()
    text.send_keys("Edited without any script.")
    click(browser, browser.find_element(By.XPATH, "//main//button[normalize-space()='Save note']"))
    until(browser, lambda d: d.current_url.endswith(f"/library?list=watched#movie-{STREET_FIGHTER}"))
    assert "Edited without any script." in wait_for(browser, f'.card[data-movie-id="{STREET_FIGHTER}"] .card-note').text

    click(browser, card_for(browser, STREET_FIGHTER).find_element(By.CSS_SELECTOR, ".js-remove"))
    until(browser, lambda d: f"/library/movies/{STREET_FIGHTER}/remove" in d.current_url)
    assert browser.find_element(By.TAG_NAME, "h1").text == "Remove from My Lists?"
    assert title in browser.find_element(By.CSS_SELECTOR, "main .panel").text
    click(browser, browser.find_element(By.XPATH, "//main//a[normalize-space()='Cancel']"))
    until(browser, lambda d: d.current_url.endswith(f"/library?list=watched#movie-{STREET_FIGHTER}"))
    assert card_for(browser, STREET_FIGHTER) is not None, "Cancel removed the film"

    click(browser, card_for(browser, STREET_FIGHTER).find_element(By.CSS_SELECTOR, ".js-remove"))
    until(browser, lambda d: f"/library/movies/{STREET_FIGHTER}/remove" in d.current_url)
    click(browser, browser.find_element(By.XPATH, "//main//button[normalize-space()='Remove']"))
    until(browser, lambda d: d.current_url.endswith("/library?list=watched"))
    assert wait_for(browser, ".empty").text.startswith("Nothing marked as watched yet")
    assert card_for(browser, STREET_FIGHTER) is None


# --------------------------------------------------------------------------- bad input and layout


def test_a_year_that_is_not_a_number_gets_a_readable_error_and_a_working_picker(app, browser):
    assert status_of(app.url("/movies?year=abc")) == 400
    browser.get(app.url("/movies?year=abc"))
    alert = wait_for(browser, "main .alert")
    assert "is not a year" in alert.text
    assert not cards(browser)

    Select(browser.find_element(By.CSS_SELECTOR, "select#year")).select_by_value("2019")
    try:  # with JavaScript the picker submits itself...
        until(browser, lambda d: "year=2019" in d.current_url, 1.5)
    except TimeoutException:  # ...otherwise the visitor presses Show
        click(browser, browser.find_element(By.XPATH, "//form[contains(@class,'year-picker')]//button[normalize-space()='Show']"))
        until(browser, lambda d: "year=2019" in d.current_url)
    assert browser.current_url.endswith("/movies?year=2019")
    assert browser.find_element(By.TAG_NAME, "h1").text == "Movies of 2019"
    assert sorted(card_titles(browser)) == sorted(f["trackName"] for f in films_of(2019))


def test_a_tablet_shows_more_columns_and_the_tabs_at_the_top(app, browser, tablet_browser):
    browser.get(app.url("/"))
    wait_for(browser, ".grid .card")
    tablet_browser.get(app.url("/"))
    wait_for(tablet_browser, ".grid .card")

    phone_columns, tablet_columns = first_row_columns(browser), first_row_columns(tablet_browser)
    assert phone_columns >= 2, phone_columns
    assert tablet_columns > phone_columns, (phone_columns, tablet_columns)

    tabs = tablet_browser.find_element(By.CSS_SELECTOR, "nav.tabs").rect
    header = tablet_browser.find_element(By.CSS_SELECTOR, "header.topbar").rect
    assert tabs["y"] >= header["y"] and tabs["y"] + tabs["height"] <= header["y"] + header["height"] + 1, (tabs, header)
    assert tabs["y"] + tabs["height"] < 200


def test_a_phone_has_the_tab_bar_at_the_bottom_of_the_screen(app, browser):
    browser.get(app.url("/"))
    wait_for(browser, ".grid .card")
    viewport_height = browser.execute_script("return window.innerHeight")
    tabs = browser.execute_script("const r = document.querySelector('nav.tabs').getBoundingClientRect(); return [r.top, r.bottom]")
    assert abs(tabs[1] - viewport_height) <= 1 and tabs[0] > viewport_height / 2, (tabs, viewport_height)


# --------------------------------------------------------------------------- offline


def test_my_lists_and_a_saved_film_still_open_when_itunes_is_down(app, stub, browser):
    browser.get(app.url("/"))
    favorite = wait_for(browser, f'.card[data-movie-id="{CAT_IN_THE_HAT}"] .btn-fav')
    click(browser, favorite)
    until(browser, lambda d: card_for(d, CAT_IN_THE_HAT).find_element(By.CSS_SELECTOR, ".btn-fav").get_attribute("aria-pressed") == "true")
    assert card_for(browser, CAT_IN_THE_HAT).find_element(By.CSS_SELECTOR, ".btn-fav").text == "Favorite ✓"
    entry = film(CAT_IN_THE_HAT)
    stub.stop()  # the autouse fixture starts it again after the test

    browser.get(app.url("/library?list=favorites"))
    card = wait_for(browser, f'.card[data-movie-id="{CAT_IN_THE_HAT}"]')
    assert card.find_element(By.CSS_SELECTOR, ".card-title").text == entry["trackName"]

    click(browser, card.find_element(By.CSS_SELECTOR, ".card-link"))
    detail = wait_for(browser, ".detail", timeout=20)
    assert entry["trackName"] in detail.find_element(By.TAG_NAME, "h1").text
    assert detail.find_element(By.CSS_SELECTOR, ".synopsis").text in (entry["longDescription"], entry["shortDescription"])


def test_the_year_picker_reaches_next_year(app, browser):
    browser.get(app.url("/"))
    next_year = datetime.now().year + 1
    options = [o.get_attribute("value") for o in Select(wait_for(browser, "select#year")).options]
    assert options[0] == str(next_year), options[:3]
    Select(browser.find_element(By.ID, "year")).select_by_value(str(next_year))
    until(browser, lambda d: d.current_url.endswith(f"/movies?year={next_year}"), 5, "the picker did not submit by itself")
    assert browser.find_element(By.TAG_NAME, "h1").text == f"Movies of {next_year}"


def test_a_films_preview_waits_to_be_played_with_its_poster_as_the_frame(app, browser):
    browser.get(app.url(f"/movies/{CAT_IN_THE_HAT}"))
    video = wait_for(browser, "video.preview-video", visible=True)
    assert video.get_attribute("autoplay") is None
    assert video.get_attribute("preload") == "none"
    assert video.get_attribute("controls") is not None
    assert video.get_attribute("src").startswith("https://video-ssl.itunes.apple.com/")
    assert browser.execute_script("return arguments[0].paused && arguments[0].currentTime === 0", video)
    poster = video.get_attribute("poster")
    assert "/posters?" in poster
    # The frame shown before playing is the film's poster, served by this site.
    assert browser.execute_script("return fetch(arguments[0]).then(r => r.status)", poster) == 200
    heading = browser.find_element(By.ID, "preview-heading")
    assert heading.text == "Preview"
