"""Custom lists, the shared page, statistics and the diary's edit and delete, in a real browser:
a list is made, filled from film pages, reordered and shared; the link opens with no cookie at
all; a watch is changed on its form and deleted through the confirm dialog."""

from __future__ import annotations

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from conftest import wait_for
from helpers import click, fill, submit, text_of, until, wait_dialog


def film_ids(driver, app, count: int) -> list[str]:
    driver.get(app.url("/movies?year=2026"))
    cards = driver.find_elements(By.CSS_SELECTOR, ".grid .card[data-movie-id]")[:count]
    return [card.get_attribute("data-movie-id") for card in cards]


def make_list(driver, app, name: str, film_ids: list[str]) -> str:
    """Makes a list on /lists and adds the films from their pages; returns the list's address."""
    driver.get(app.url("/lists"))
    fill(driver, "#list-name", name)
    fill(driver, "#list-description", "For the weekend")
    submit(driver, "Create list")
    list_url = driver.current_url
    for film in film_ids:
        driver.get(app.url(f"/movies/{film}"))
        Select(wait_for(driver, "#add-to-list")).select_by_visible_text(name)
        submit(driver, "Add to list")
        assert driver.current_url.endswith(f"/movies/{film}#lists")
        assert name in text_of(driver.find_element(By.ID, "lists"))
    return list_url


def titles(driver) -> list[str]:
    return [text_of(e) for e in driver.find_elements(By.CSS_SELECTOR, ".list-item-title")]


def test_a_list_is_filled_reordered_and_shared_with_someone_without_an_account(app, browser):
    driver = browser
    ids = film_ids(driver, app, 3)
    list_url = make_list(driver, app, "Weekend", ids)
    driver.get(list_url)
    before = titles(driver)
    assert len(before) == 3 and "3 titles" in text_of(driver.find_element(By.CSS_SELECTOR, ".page-head"))
    # Move the first one down with the keyboard: Tab to its ↓ button, Enter.
    down = driver.find_element(By.CSS_SELECTOR, f'button[aria-label="Move {before[0]} down"]')
    driver.execute_script("arguments[0].focus()", down)
    down.send_keys("\n")
    until(driver, lambda d: titles(d) == [before[1], before[0], before[2]], message="the title did not move down")
    assert driver.current_url.endswith(f"#item-movie-{ids[0]}")

    submit(driver, "Make a share link")
    link = wait_for(driver, "a.share-link")
    shared_url = link.get_attribute("href")
    assert text_of(link) == shared_url, "app.js shows the whole address, ready to copy"
    driver.delete_all_cookies()
    driver.get(shared_url)
    wait_for(driver, "main h1")
    assert text_of(driver.find_element(By.CSS_SELECTOR, "main h1")) == "Weekend"
    assert titles(driver) == [before[1], before[0], before[2]]
    assert not driver.find_elements(By.CSS_SELECTOR, ".list-item-actions"), "no owner's controls for a visitor"
    assert driver.find_element(By.CSS_SELECTOR, 'meta[name="robots"]').get_attribute("content") == "noindex, nofollow"


def test_statistics_and_a_watch_edited_then_deleted_through_the_dialog(app, browser):
    driver = browser
    film = film_ids(driver, app, 1)[0]
    driver.get(app.url(f"/movies/{film}"))
    day = wait_for(driver, "#diary-day")
    driver.execute_script("arguments[0].value = '2025-06-01'", day)
    submit(driver, "Log a watch")
    driver.get(app.url(f"/movies/{film}"))
    submit(driver, "Log a rewatch")
    driver.get(app.url("/stats"))
    figures = text_of(driver.find_element(By.CSS_SELECTOR, ".stats-figures"))
    assert "2 watches" in figures and "1 rewatch" in figures
    assert driver.find_element(By.CSS_SELECTOR, "#chart-months").get_attribute("textContent").startswith("Films and shows watched per month")
    click(driver, driver.find_element(By.LINK_TEXT, "2025"))
    until(driver, lambda d: text_of(d.find_element(By.CSS_SELECTOR, "main h1")) == "2025 in review")

    driver.get(app.url("/diary"))
    click(driver, driver.find_elements(By.LINK_TEXT, "Edit")[-1])
    wait_for(driver, "#watch-note")
    fill(driver, "#watch-note", "First time, in the garden")
    submit(driver, "Save")
    assert "First time, in the garden" in text_of(driver.find_element(By.CSS_SELECTOR, "main"))

    entries = len(driver.find_elements(By.CSS_SELECTOR, ".diary-entry"))
    click(driver, driver.find_elements(By.CSS_SELECTOR, ".diary-entry a.js-confirm")[0])
    wait_dialog(driver, "confirm-dialog")
    assert text_of(driver.find_element(By.ID, "confirm-dialog-title")) == "Delete this watch?"
    click(driver, driver.find_element(By.CSS_SELECTOR, "#confirm-dialog [data-confirm]"))
    until(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, ".diary-entry")) == entries - 1, message="the watch was not deleted")
