"""Episodes and Up Next in a real (headless) Chromium, against the stub's TVMaze answers.

Girls (139) has ended: six seasons, 62 episodes, all aired, and one minor special. Every test is a
new visitor (a fresh browser profile) who has watched nothing.
"""

from __future__ import annotations

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import wait_for
from helpers import post_form, until, click, text_of
from test_axe import sized_browser, violations  # noqa: F401 (a fixture)

GIRLS = 139
PILOT = 12301  # S01E01 "Pilot"
RENT = 12302  # S01E02


def check_of(driver, episode_id: int):
    return driver.find_element(By.CSS_SELECTOR, f"#episode-{episode_id} .check")


def progress(driver) -> str:
    return text_of(driver.find_element(By.CSS_SELECTOR, ".episode-progress"))


def test_a_check_marks_the_episode_without_leaving_the_page_and_the_next_one_follows(app, browser):
    driver = browser
    driver.get(app.url(f"/shows/{GIRLS}"))
    wait_for(driver, "#episodes")
    assert "Not started" in progress(driver) and "0 of 62 aired episodes watched" in progress(driver)
    check = check_of(driver, PILOT)
    assert check.get_attribute("aria-pressed") == "false"
    url = driver.current_url
    click(driver, check)
    until(driver, lambda d: check_of(d, PILOT).get_attribute("aria-pressed") == "true", message="the check never turned on")
    assert driver.current_url == url, "the page was left"
    row = driver.find_element(By.ID, f"episode-{PILOT}")
    assert "is-watched" in row.get_attribute("class").split()
    assert check_of(driver, PILOT).get_attribute("aria-label") == "Unmark S01E01 “Pilot” (watched)"
    until(driver, lambda d: "marked watched" in d.find_element(By.ID, "live-region").text, message="nothing was said")
    driver.refresh()
    wait_for(driver, "#episodes")
    assert "1 of 62 aired episodes watched" in progress(driver)
    next_link = driver.find_element(By.CSS_SELECTOR, ".next-episode a")
    assert text_of(next_link).startswith("S01E02")
    # Unchecking takes it back.
    click(driver, check_of(driver, PILOT))
    until(driver, lambda d: check_of(d, PILOT).get_attribute("aria-pressed") == "false", message="the check never turned off")
    driver.refresh()
    wait_for(driver, "#episodes")
    assert "0 of 62 aired episodes watched" in progress(driver)


def test_the_keyboard_checks_an_episode_and_opens_a_folded_season(app, browser):
    driver = browser
    driver.get(app.url(f"/shows/{GIRLS}"))
    wait_for(driver, "#episodes")
    check = check_of(driver, RENT)
    driver.execute_script("arguments[0].focus()", check)
    check.send_keys(Keys.SPACE)
    until(driver, lambda d: check_of(d, RENT).get_attribute("aria-pressed") == "true", message="Space did not check it")
    summary = driver.find_element(By.CSS_SELECTOR, "#season-2 > summary")
    driver.execute_script("arguments[0].focus()", summary)
    summary.send_keys(Keys.ENTER)
    until(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#season-2 .episode"), message="season 2's episodes never loaded")
    assert len(driver.find_elements(By.CSS_SELECTOR, "#season-2 .episode")) == 10


def test_a_whole_season_is_marked_at_once_and_specials_are_left(app, browser):
    driver = browser
    driver.get(app.url(f"/shows/{GIRLS}"))
    wait_for(driver, "#episodes")
    button = driver.find_element(By.CSS_SELECTOR, "#season-1 .season-mark button")
    assert text_of(button) == "Mark the 10 unwatched aired episodes of season 1 watched"
    click(driver, button)
    until(driver, lambda d: "10 of 62 aired episodes watched" in progress(d), message="the season was not marked")
    assert "10 episodes of season 1 marked watched" in driver.find_element(By.ID, "live-region").get_attribute("textContent")
    assert not driver.find_elements(By.CSS_SELECTOR, "#season-1 .season-mark"), "nothing is left to mark in season 1"
    driver.get(app.url(f"/shows/{GIRLS}?season=specials#specials"))
    wait_for(driver, "#specials .episode")
    assert driver.find_element(By.CSS_SELECTOR, "#specials .check").get_attribute("aria-pressed") == "false"


def test_up_next_offers_the_episode_after_a_check(app, browser):
    driver = browser
    driver.get(app.url("/shows/up-next"))
    wait_for(driver, "main")
    assert "Nothing to watch next" in driver.find_element(By.TAG_NAME, "main").text
    driver.get(app.url(f"/shows/{GIRLS}"))
    wait_for(driver, "#episodes")
    result = post_form(driver, app, f"/library/episodes/{PILOT}", {"mark": "watch"})
    assert result["status"] == 200, result
    driver.get(app.url("/shows/up-next"))
    card = wait_for(driver, f"#up-next-{GIRLS}")
    assert "S01E02" in text_of(card) and "61 episodes left" in text_of(card)
    click(driver, card.find_element(By.CSS_SELECTOR, ".check"))
    until(driver, lambda d: "S01E03" in text_of(d.find_element(By.ID, f"up-next-{GIRLS}")), message="the card never moved on")
    assert "60 episodes left" in text_of(driver.find_element(By.ID, f"up-next-{GIRLS}"))
    assert driver.find_element(By.ID, f"up-next-{GIRLS}").find_element(By.CSS_SELECTOR, ".check").get_attribute("aria-pressed") == "false"


def test_episode_pages_have_no_violations(app, sized_browser):
    driver = sized_browser
    driver.get(app.url(f"/shows/{GIRLS}"))
    wait_for(driver, "#episodes")
    assert post_form(driver, app, f"/library/episodes/{PILOT}", {"mark": "watch"})["status"] == 200
    found = []
    for path in [f"/shows/{GIRLS}", f"/shows/{GIRLS}?season=specials", "/shows/up-next", "/shows/up-next?filter=waiting", f"/episodes/{PILOT}"]:
        driver.get(app.url(path))
        wait_for(driver, "main")
        found += violations(driver, path)
    assert not found, "\n".join(found)
