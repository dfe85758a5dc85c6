"""Accessibility checks that keep issue 15's fixes fixed, in a real (headless) Chromium:

- no page scrolls sideways at 320 px;
- the year picker steps through years with the arrow keys without loading any, and Enter loads one;
- the first Tab reaches "Skip to content", which moves focus into the page;
- the current tab is the right one (Account on the account pages, the page's own tab on a note);
- buttons repeated on every card are named with their title;
- the colours of the Favorite, Watched and Delete buttons reach AA contrast (4.5:1) with their text.
"""

from __future__ import annotations

import time

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import _browser, wait_for
from helpers import click, until

NARROW = (320, 640)
PAGES = [
    "/", "/movies?year=2024", "/movies/9100000215", "/search", "/search?q=magic", "/shows", "/shows?q=girls", "/shows/139",
    "/shows/favorites", "/library", "/account/signin", "/account/signup",
]


@pytest.fixture
def narrow_browser(request):
    yield from _browser(request, NARROW)


def test_no_page_scrolls_sideways_at_320_px(app, narrow_browser):
    for path in PAGES:
        narrow_browser.get(app.url(path))
        wait_for(narrow_browser, "main")
        widths = narrow_browser.execute_script(
            "return [document.documentElement.scrollWidth, document.documentElement.clientWidth]"
        )
        assert widths[0] <= widths[1], f"{path} is {widths[0]} px wide in a {widths[1]} px window"


def test_the_year_picker_moves_with_arrows_and_loads_on_enter(app, browser):
    browser.get(app.url("/movies?year=2024"))
    picker = wait_for(browser, "select#year")
    picker.send_keys(Keys.ARROW_DOWN)  # the years run newest first: down is 2023
    browser.execute_script("window.__stillHere = true")
    assert browser.execute_script("return document.getElementById('year').value") == "2023"
    # Nothing loads while stepping (WCAG 3.2.2): give a submission time to happen, then check.
    time.sleep(1.0)
    assert browser.execute_script("return window.__stillHere === true"), "an arrow key loaded a year"
    assert browser.current_url.endswith("/movies?year=2024")
    picker.send_keys(Keys.ENTER)
    until(browser, lambda d: d.current_url.endswith("year=2023"), 10, "Enter did not load the year")
    assert browser.find_element(By.TAG_NAME, "h1").text == "Movies of 2023"


def test_the_first_tab_is_skip_to_content(app, browser):
    browser.get(app.url("/movies?year=2024"))
    wait_for(browser, "main")
    browser.find_element(By.TAG_NAME, "body").send_keys(Keys.TAB)
    active = browser.switch_to.active_element
    assert active.text == "Skip to content" and active.is_displayed()
    active.send_keys(Keys.ENTER)
    until(browser, lambda d: d.current_url.endswith("#main"))
    # The next Tab lands inside the page, not on the header's links.
    browser.switch_to.active_element.send_keys(Keys.TAB)
    inside = browser.execute_script("return document.getElementById('main').contains(document.activeElement)")
    assert inside, browser.switch_to.active_element.get_attribute("outerHTML")[:120]


def test_the_current_tab_is_the_right_one(app, browser):
    browser.get(app.url("/account/signin"))
    current = [a.text for a in browser.find_elements(By.CSS_SELECTOR, "header a[aria-current=page]")]
    assert current == ["Sign in"], current  # a visitor's account link: who is signed in, or Sign in
    browser.get(app.url("/library"))
    current = [a.text for a in browser.find_elements(By.CSS_SELECTOR, "header a[aria-current=page]")]
    assert len(current) == 1 and current[0].endswith("My Lists"), current
    # Account comes after the main tabs in the page, as it does on screen.
    order = browser.execute_script(
        "return [...document.querySelectorAll('header a')].map(a => a.classList.contains('account-link') ? 'account' : 'tab')"
    )
    assert order[-1] == "account", order


def test_buttons_on_every_card_say_which_title_they_act_on(app, browser):
    browser.get(app.url("/movies?year=2024"))
    card = wait_for(browser, ".card[data-movie-id]")
    title = card.get_attribute("data-title")
    assert card.find_element(By.CSS_SELECTOR, ".btn-fav").accessible_name == f"Favorite {title}"
    assert card.find_element(By.CSS_SELECTOR, ".btn-watched").accessible_name == f"Watched {title}"
    browser.get(app.url("/shows"))
    show = wait_for(browser, ".show-card")
    assert show.find_element(By.CSS_SELECTOR, ".btn-favorite-show").accessible_name == f"Favorite {show.get_attribute('data-title')}"


def contrast(foreground: str, background: str) -> float:
    def luminance(css: str) -> float:
        r, g, b = [int(v) / 255 for v in css[css.index("(") + 1: css.index(")")].split(",")[:3]]
        channel = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in (r, g, b)]
        return 0.2126 * channel[0] + 0.7152 * channel[1] + 0.0722 * channel[2]

    a, b = luminance(foreground), luminance(background)
    return (max(a, b) + 0.05) / (min(a, b) + 0.05)


def test_favorite_watched_and_delete_buttons_reach_aa_contrast(app, browser):
    browser.get(app.url("/movies/9100000212"))
    for css in (".detail .btn-fav", ".detail .btn-watched"):
        click(browser, wait_for(browser, css))
        until(browser, lambda d: d.find_element(By.CSS_SELECTOR, css).get_attribute("aria-pressed") == "true")
        if css.endswith("btn-watched"):
            browser.execute_script("document.getElementById('note-dialog').close()")
        button = browser.find_element(By.CSS_SELECTOR, css)
        ratio = contrast(button.value_of_css_property("color"), button.value_of_css_property("background-color"))
        assert ratio >= 4.5, f"{css}: {ratio:.2f}:1"
    browser.get(app.url("/shows"))
    button = wait_for(browser, ".btn-favorite-show")
    ratio = contrast(button.value_of_css_property("color"), button.value_of_css_property("background-color"))
    assert ratio >= 4.5, f"TV Favorite: {ratio:.2f}:1"


def live_text(driver) -> str:
    return driver.execute_script("return document.getElementById('live-region').textContent")


def test_focus_stays_on_the_control_that_acted_and_the_change_is_announced(app, browser):
    browser.get(app.url("/movies?year=2026"))
    cards = browser.find_elements(By.CSS_SELECTOR, ".grid .card[data-movie-id]")[:2]
    assert len(cards) == 2
    ids = [card.get_attribute("data-movie-id") for card in cards]
    titles = [card.get_attribute("data-title") for card in cards]
    for card, title in zip(cards, titles):
        favorite = card.find_element(By.CSS_SELECTOR, ".btn-fav")
        browser.execute_script("arguments[0].focus()", favorite)
        favorite.send_keys(Keys.ENTER)
        until(browser, lambda d: favorite.get_attribute("aria-pressed") == "true")
        assert browser.switch_to.active_element == favorite, "focus left the Favorite button"
        until(browser, lambda d: live_text(d) == f"“{title}”: added to Favorites.", 5, live_text(browser))

    # On Favorites, "Move to Watched" takes the card away: focus goes to the next card, never <body>.
    browser.get(app.url("/library?list=favorites"))
    first = wait_for(browser, f'.card[data-movie-id="{ids[0]}"]')
    move = first.find_element(By.CSS_SELECTOR, ".btn-move")
    browser.execute_script("arguments[0].focus()", move)
    move.send_keys(Keys.ENTER)
    wait_for(browser, "#note-dialog")
    until(browser, lambda d: not d.find_elements(By.CSS_SELECTOR, f'.card[data-movie-id="{ids[0]}"]'), 5, "the card stayed")
    active = browser.switch_to.active_element
    assert active.tag_name != "body", "focus was lost to <body>"
    until(browser, lambda d: live_text(d) == f"“{titles[0]}”: moved to Watched.", 5, live_text(browser))


TARGETS = "button, [role=button], select, input:not([type=hidden]), .tabs a, .card-link, .btn, .recent-query"


def small_targets(driver) -> list[str]:
    """Controls under 24 × 24 CSS px (WCAG 2.2, 2.5.8): links inside running text are exempt."""
    return driver.execute_script(
        """
        return [...document.querySelectorAll(arguments[0])]
          .filter(e => e.getClientRects().length && !e.closest('dialog:not([open])') && !e.classList.contains('sr-only'))
          .map(e => [e, e.getBoundingClientRect()])
          .filter(([e, r]) => r.width < 24 || r.height < 24)
          .map(([e, r]) => `${e.outerHTML.slice(0, 90)}: ${Math.round(r.width)}×${Math.round(r.height)}`);
        """,
        TARGETS,
    )


def test_every_control_is_at_least_24_px(app, browser):
    browser.get(app.url("/movies?year=2026"))
    card = wait_for(browser, ".grid .card[data-movie-id]")
    click(browser, card.find_element(By.CSS_SELECTOR, ".btn-watched"))
    until(browser, lambda d: d.execute_script("return document.getElementById('note-dialog').open"))
    found = [f"note dialog: {line}" for line in small_targets(browser)]
    browser.execute_script("document.getElementById('note-dialog').close()")
    for path in ["/movies?year=2026", "/library", "/search?q=magic", "/search", "/shows", "/shows/139", "/account/signup"]:
        browser.get(app.url(path))
        wait_for(browser, "main")
        found += [f"{path}: {line}" for line in small_targets(browser)]
    assert not found, "\n".join(found)
