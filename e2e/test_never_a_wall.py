"""Never a wall: a new visitor flips through release years in the picker and searches one title after
another, as a person does, in a real (headless) Chromium. The upstreams' limits never reach them:
every year shows films, no page says "Slow down", and the last search is always the last one made.
"""

from __future__ import annotations

from urllib.parse import quote

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from conftest import wait_for
from helpers import click, until


def recent_queries(driver) -> list[str]:
    return [a.text for a in driver.find_elements(By.CSS_SELECTOR, ".recent-searches .recent-query")]


def test_flipping_through_years_in_the_picker_never_meets_a_wall(app, browser):
    browser.get(app.url("/movies?year=2026"))
    for year in (2024, 2021, 2019, 2020, 2017, 2023, 2018, 2022):
        picker = Select(wait_for(browser, "select#year"))
        picker.select_by_value(str(year))  # js-autosubmit: choosing a year opens it
        until(browser, lambda d: d.current_url.endswith(f"year={year}"), 10, f"the picker did not open {year}")
        heading = wait_for(browser, "main h1").text
        assert heading == f"Movies of {year}", heading
        page = browser.page_source
        assert "Slow down" not in page
        assert browser.find_elements(By.CSS_SELECTOR, ".grid article.card"), f"{year} shows no film"


def test_a_visitors_last_search_is_the_last_one_made_and_all_are_recent(app, browser):
    for title in ("Parasite", "Knives Out", "Roma"):
        browser.get(app.url(f"/search?q={quote(title)}"))
        best = wait_for(browser, "article.best-match h3.best-title").text
        assert best.startswith(title), best
        assert "Slow down" not in browser.page_source
    browser.get(app.url("/search"))
    info = wait_for(browser, "div.search-info").text
    assert info.startswith("Your last search, “Roma”"), info
    until(browser, lambda d: recent_queries(d) == ["Roma", "Knives Out", "Parasite"], 5, lambda: f"recent: {recent_queries(browser)}")
    # Removing one keeps the others, for a visitor too (their list is in their browser).
    item = browser.find_element(By.XPATH, "//li[@class='recent-item'][a[normalize-space()='Knives Out']]")
    click(browser, item.find_element(By.CSS_SELECTOR, "button"))
    until(browser, lambda d: recent_queries(d) == ["Roma", "Parasite"], 5, lambda: f"recent: {recent_queries(browser)}")
