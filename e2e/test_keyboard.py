"""Keyboard-first flows and feedback after every action (issue 15), in headless Chromium:

- every card action is reached with Tab and done with Enter or Space; focus is visible and never
  falls to <body>;
- dialogs keep focus inside while open, Escape closes them, and focus returns to the control that
  opened them;
- sign-up shows every problem at once in a focused summary, each tied to its field, with the rules
  shown before any failure;
- signing out and deleting the account say so; without JavaScript a change lower in a list comes
  back to its card, not the top; Search's status line is seen on a phone scrolled to the button;
- moments are shown in the browser's time zone.
"""

from __future__ import annotations

import datetime
import uuid

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import wait_for
from helpers import click, sign_out, sign_up, submit, submit_credentials, until, wait_dialog

PASSWORD = "popcorn keyboard 7d2e"


def active(driver):
    return driver.switch_to.active_element


def tab_to(driver, matches, limit: int = 80):
    """Presses Tab from the top of the page until `matches(active element)`; fails if it never does."""
    driver.find_element(By.TAG_NAME, "body").send_keys(Keys.TAB)
    for _ in range(limit):
        element = active(driver)
        assert element.tag_name != "body", "Tab left the page's controls"
        assert element.value_of_css_property("outline-style") != "none", f"no focus ring on {element.get_attribute('outerHTML')[:100]}"
        if matches(element):
            return element
        element.send_keys(Keys.TAB)
    raise AssertionError("Tab never reached the control")


def test_card_actions_by_tab_enter_and_space(app, browser):
    browser.get(app.url("/movies?year=2026"))
    card = wait_for(browser, ".grid .card[data-movie-id]")
    title = card.get_attribute("data-title")
    favorite = tab_to(browser, lambda e: e.get_attribute("aria-label") == f"Favorite {title}")
    favorite.send_keys(Keys.SPACE)
    until(browser, lambda d: favorite.get_attribute("aria-pressed") == "true", 5, "Space did not press Favorite")
    assert active(browser) == favorite
    # Watched by Enter opens the note dialog; Escape closes it and focus is back on Watched.
    watched = card.find_element(By.CSS_SELECTOR, ".btn-watched")
    favorite.send_keys(Keys.TAB)
    assert active(browser) == watched
    watched.send_keys(Keys.ENTER)
    wait_dialog(browser, "note-dialog")
    inside = "return document.getElementById('note-dialog').contains(document.activeElement)"
    assert browser.execute_script(inside), "focus did not move into the dialog"
    # Focus stays in the modal dialog however far one tabs.
    for _ in range(8):
        active(browser).send_keys(Keys.TAB)
        assert browser.execute_script(inside), active(browser).get_attribute("outerHTML")[:120]
    active(browser).send_keys(Keys.ESCAPE)
    wait_dialog(browser, "note-dialog", open_=False)
    until(browser, lambda d: active(d) == watched, 5, "focus did not return to Watched")
    # On My Lists "Remove" acts as a button: Space opens the confirmation, Escape cancels it, Enter
    # confirms; focus goes on to the next control, never to <body>.
    browser.get(app.url("/library"))
    wait_for(browser, f'.card[data-title="{title}"]')
    remove = tab_to(browser, lambda e: e.get_attribute("aria-label") == f"Remove {title}")
    assert remove.get_attribute("role") == "button"
    remove.send_keys(Keys.SPACE)
    wait_dialog(browser, "confirm-dialog")
    active(browser).send_keys(Keys.ESCAPE)
    wait_dialog(browser, "confirm-dialog", open_=False)
    until(browser, lambda d: active(d) == remove, 5, "focus did not return to Remove")
    remove.send_keys(Keys.SPACE)
    wait_dialog(browser, "confirm-dialog")
    confirm = browser.find_element(By.CSS_SELECTOR, "#confirm-dialog [data-confirm]")
    browser.execute_script("arguments[0].focus()", confirm)
    confirm.send_keys(Keys.ENTER)
    until(browser, lambda d: not d.find_elements(By.CSS_SELECTOR, f'.card[data-title="{title}"]'), 5, "the film was not removed")
    assert active(browser).tag_name != "body", "focus fell to <body> after Remove"


def test_the_retry_dialog_closes_with_escape_and_gives_focus_back(app, browser):
    browser.get(app.url("/shows"))
    show = wait_for(browser, ".show-card")
    button = show.find_element(By.CSS_SELECTOR, ".btn-favorite-show")
    browser.execute_script("arguments[0].focus()", button)
    # The save fails: the browser is offline. DevTools' offline holds for the page, not for its
    # service worker (whose own queue is tested in test_offline.py): the page's requests bypass it.
    browser.execute_cdp_cmd("Network.enable", {})
    browser.execute_cdp_cmd("Network.setBypassServiceWorker", {"bypass": True})
    browser.execute_cdp_cmd("Network.emulateNetworkConditions", {"offline": True, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
    try:
        button.send_keys(Keys.ENTER)
        wait_dialog(browser, "retry-dialog")
        assert browser.execute_script("return document.getElementById('retry-dialog').contains(document.activeElement)")
        active(browser).send_keys(Keys.ESCAPE)
        wait_dialog(browser, "retry-dialog", open_=False)
        until(browser, lambda d: active(d) == button, 5, "focus did not return to Favorite")
    finally:
        browser.execute_cdp_cmd("Network.emulateNetworkConditions", {"offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})


def test_sign_up_shows_every_problem_in_a_focused_summary_tied_to_its_field(app, browser):
    browser.get(app.url("/account/signup"))
    username = wait_for(browser, "#account-username")
    # The rules are there before any failure, and read with their field.
    rules = browser.find_element(By.ID, "account-username-rules").text
    assert "3 to 32" in rules
    assert "account-username-rules" in username.get_attribute("aria-describedby")
    assert "12 to 128 characters" in browser.find_element(By.ID, "account-password-rules").text
    browser.execute_script("document.querySelector('main form').noValidate = true")
    submit_credentials(browser, "x", "short", "Create account")
    summary = wait_for(browser, ".error-summary")
    until(browser, lambda d: active(d) == summary, 5, "the error summary did not take focus")
    assert summary.find_element(By.TAG_NAME, "h2").text == "There are 2 problems"
    links = summary.find_elements(By.TAG_NAME, "a")
    assert [a.get_attribute("hash") for a in links] == ["#account-username", "#account-password"]
    for field in ("account-username", "account-password"):
        element = browser.find_element(By.ID, field)
        assert element.get_attribute("aria-invalid") == "true"
        described = element.get_attribute("aria-describedby").split()
        error = browser.find_element(By.ID, f"{field}-error")
        assert f"{field}-error" in described and error.text
        assert error.text in element.accessible_name + " " + browser.execute_script(
            "return arguments[0].getAttribute('aria-describedby').split(' ').map(id => document.getElementById(id).textContent).join(' ')", element)
    # A summary link takes the person to the field.
    links[1].send_keys(Keys.ENTER)
    until(browser, lambda d: active(d).get_attribute("id") == "account-password", 5, "the link did not reach the field")


def test_signing_out_and_deleting_the_account_say_so(app, browser):
    name = f"kb-{uuid.uuid4().hex[:8]}"
    sign_up(browser, app, name, PASSWORD)
    sign_out(browser, app)
    status = wait_for(browser, "main p.success[role=status]")
    assert status.text.startswith("You are signed out.")
    submit_credentials(browser, name, PASSWORD, "Sign in")
    browser.get(app.url("/account/delete"))
    wait_for(browser, "#delete-password").send_keys(PASSWORD)
    submit(browser, "Delete my account")
    status = wait_for(browser, "main p.success[role=status]")
    assert status.text == "Your account was deleted, with its lists, notes and searches."


def test_without_javascript_a_change_comes_back_to_its_card(app, nojs_browser):
    nojs_browser.get(app.url("/movies?year=2026"))
    cards = nojs_browser.find_elements(By.CSS_SELECTOR, ".grid .card[data-movie-id]")
    assert len(cards) >= 8
    card = cards[7]
    movie = card.get_attribute("data-movie-id")
    button = card.find_element(By.CSS_SELECTOR, ".btn-fav")
    nojs_browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", button)
    button.click()
    until(nojs_browser, lambda d: d.current_url.endswith(f"#movie-{movie}"), 10, nojs_browser.current_url)
    card = nojs_browser.find_element(By.ID, f"movie-{movie}")
    assert card.find_element(By.CSS_SELECTOR, ".btn-fav").get_attribute("aria-pressed") == "true"
    assert nojs_browser.execute_script("return window.scrollY") > 200, "the page came back at the top"
    top = nojs_browser.execute_script("return arguments[0].getBoundingClientRect().top", card)
    assert 0 <= top < nojs_browser.execute_script("return innerHeight")


def test_search_says_added_where_a_phone_can_see_it(app, browser):
    browser.get(app.url("/search?q=Midsommar"))
    button = wait_for(browser, "article.best-match form.js-library button.btn-collection")
    browser.execute_script("arguments[0].scrollIntoView({block: 'end'})", button)
    button.click()
    line = wait_for(browser, "p.flash[role=status]", visible=True)
    until(browser, lambda d: "is-toast" in line.get_attribute("class"), 5, "the status line did not float into view")
    box = browser.execute_script("const r = arguments[0].getBoundingClientRect(); return [r.top, r.bottom, innerHeight]", line)
    assert 0 <= box[0] and box[1] <= box[2], box
    assert "Added to your Favorites" in line.text


def test_moments_are_shown_in_the_browsers_time_zone(app, browser):
    browser.execute_cdp_cmd("Emulation.setTimezoneOverride", {"timezoneId": "Asia/Tokyo"})
    sign_up(browser, app, f"tz-{uuid.uuid4().hex[:8]}", PASSWORD)
    browser.get(app.url("/account"))
    moment = wait_for(browser, ".session-table time[data-local]")
    when = datetime.datetime.fromisoformat(moment.get_attribute("datetime").replace("Z", "+00:00"))
    tokyo = when.astimezone(datetime.timezone(datetime.timedelta(hours=9)))
    assert "UTC" not in moment.text, moment.text
    # The pages' one style, in Tokyo's time: "29 November 2026, 22:56".
    assert moment.text == f"{tokyo.day} {tokyo.strftime('%B %Y, %H:%M')}", moment.text


def test_a_rating_is_chosen_and_saved_by_keyboard_and_announced(app, browser):
    browser.get(app.url("/movies/9100000215"))
    title = wait_for(browser, ".detail").get_attribute("data-title")
    picker = tab_to(browser, lambda e: e.tag_name == "select" and e.accessible_name == f"Your rating of {title}")
    for _ in range(7):  # "No rating", then ½, 1 … 3½ stars
        picker.send_keys(Keys.ARROW_DOWN)
    picker.send_keys(Keys.TAB)
    rate = active(browser)
    assert rate.accessible_name == f"Rate {title}"
    rate.send_keys(Keys.ENTER)
    until(browser, lambda d: d.execute_script("return document.getElementById('live-region').textContent") == f"“{title}”: rated 3½ stars.", 5)
    assert active(browser) == rate, "focus left the Rate button"
    browser.refresh()
    selected = wait_for(browser, "select[name=rating] option:checked")
    assert selected.text == "3½ stars"


def test_without_javascript_a_rating_from_my_lists_comes_back_at_its_card(app, nojs_browser):
    nojs_browser.get(app.url("/movies?year=2026"))
    card = wait_for(nojs_browser, ".grid .card[data-movie-id]")
    movie = card.get_attribute("data-movie-id")
    card.find_element(By.CSS_SELECTOR, ".btn-fav").click()
    until(nojs_browser, lambda d: d.find_element(By.ID, f"movie-{movie}").find_element(By.CSS_SELECTOR, ".btn-fav").get_attribute("aria-pressed") == "true")
    nojs_browser.get(app.url("/library?list=favorites"))
    select = wait_for(nojs_browser, f"#movie-{movie} select[name=rating]")
    click(nojs_browser, select.find_element(By.CSS_SELECTOR, "option[value='10']"))
    click(nojs_browser, nojs_browser.find_element(By.CSS_SELECTOR, f"#movie-{movie} .rating-form button"))
    until(nojs_browser, lambda d: d.current_url.endswith(f"/library?list=favorites#movie-{movie}"), 10, nojs_browser.current_url)
    assert nojs_browser.find_element(By.CSS_SELECTOR, f"#movie-{movie} select[name=rating] option:checked").text == "5 stars"


def test_a_rewatch_is_logged_on_a_past_day_and_listed_in_the_diary(app, nojs_browser):
    nojs_browser.get(app.url("/movies/9100000215"))
    title = wait_for(nojs_browser, ".detail").get_attribute("data-title")
    day = wait_for(nojs_browser, "#diary-day")
    assert day.get_attribute("max") >= day.get_attribute("value"), "today is the latest day offered"
    nojs_browser.execute_script("arguments[0].value = '2024-02-29'", day)
    nojs_browser.find_element(By.CSS_SELECTOR, "#diary-rating option[value='7']").click()
    nojs_browser.find_element(By.ID, "diary-note").send_keys("On the big screen")
    click(nojs_browser, nojs_browser.find_element(By.XPATH, "//form[contains(@class,'diary-log')]//button"))
    until(nojs_browser, lambda d: d.current_url.endswith("/movies/9100000215#diary"), 10, nojs_browser.current_url)
    entry = wait_for(nojs_browser, "#diary .diary-entry")
    assert "29 February 2024" in entry.text and "On the big screen" in entry.text
    assert nojs_browser.find_element(By.XPATH, "//form[contains(@class,'diary-log')]//button").text == "Log a rewatch"
    nojs_browser.get(app.url("/diary"))
    month = wait_for(nojs_browser, ".diary-month h2")
    assert month.text == "February 2024"
    assert title in nojs_browser.find_element(By.CSS_SELECTOR, ".diary-entry").text
    # Without JavaScript, Delete opens a confirmation page; its Delete button deletes and comes back.
    click(nojs_browser, nojs_browser.find_element(By.CSS_SELECTOR, ".diary-entry a.js-confirm"))
    until(nojs_browser, lambda d: "/delete" in d.current_url, 10, "Delete did not ask first")
    assert wait_for(nojs_browser, "main h1").text == "Delete this watch?"
    click(nojs_browser, nojs_browser.find_element(By.XPATH, "//main//form//button[normalize-space()='Delete']"))
    until(nojs_browser, lambda d: d.find_elements(By.CSS_SELECTOR, "p.empty"), 10, "the watch was not deleted")


def test_my_lists_sort_and_filter_stay_in_the_address(app, browser):
    browser.get(app.url("/movies?year=2026"))
    cards = browser.find_elements(By.CSS_SELECTOR, ".grid .card[data-movie-id]")[:3]
    titles = sorted((card.get_attribute("data-title") for card in cards), key=str.lower)
    for card in cards:
        button = card.find_element(By.CSS_SELECTOR, ".btn-fav")
        click(browser, button)
        until(browser, lambda d: button.get_attribute("aria-pressed") == "true")
    browser.get(app.url("/library?list=favorites"))
    summary = tab_to(browser, lambda e: e.tag_name == "summary")
    summary.send_keys(Keys.ENTER)
    sort = browser.find_element(By.ID, "filter-sort")
    sort.find_element(By.CSS_SELECTOR, "option[value='title']").click()
    words = browser.find_element(By.ID, "filter-q")
    words.send_keys(titles[0][:4])
    words.send_keys(Keys.ENTER)
    until(browser, lambda d: "sort=title" in d.current_url and "q=" in d.current_url, 10, browser.current_url)
    shown = [e.get_attribute("data-title") for e in browser.find_elements(By.CSS_SELECTOR, ".grid .card[data-movie-id]")]
    assert titles[0] in shown and all(titles[0][:4].lower() in t.lower() for t in shown), shown
    # The choice survives a reload (it is in the address) and the tabs carry it.
    browser.refresh()
    assert wait_for(browser, "#filter-sort option:checked").text == "Title"
    all_saved = browser.find_element(By.XPATH, "//nav[@aria-label='Lists']//a[normalize-space()='All saved']")
    assert "sort=title" in all_saved.get_attribute("href")
