"""The Calendar tab and the private iCal feed in a real (headless) Chromium, against the stub's
TVMaze answers, the feed read by a real iCalendar parser (PyPI's `icalendar`).

Pokémon (590) runs: S29E45 aired on 27 November 2026, S29E46 airs on 8 January 2027 and S29E47 on
the 15th (each at 09:55 UTC). The app runs on the real clock.
"""

from __future__ import annotations

import secrets
import urllib.error
import urllib.request
from datetime import datetime, timedelta, timezone

import icalendar
from selenium.webdriver.common.by import By

from conftest import wait_for
from helpers import click, sign_up, submit, text_of, until

POKEMON = 590
EPISODES = {
    3391245: ("S29E45", "Go, Charcadet! Don't Give Up!", datetime(2026, 11, 27, 9, 55, tzinfo=timezone.utc)),
    3391246: ("S29E46", "Into Mesagoza!", datetime(2027, 1, 8, 9, 55, tzinfo=timezone.utc)),
    3391247: ("S29E47", "Terapagos Learns a New Move!", datetime(2027, 1, 15, 9, 55, tzinfo=timezone.utc)),
}


def fetch(url: str) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def events(body: bytes) -> dict[str, icalendar.Event]:
    calendar = icalendar.Calendar.from_ical(body)
    return {str(event["UID"]): event for event in calendar.walk("VEVENT")}


def test_the_calendar_lists_a_tracked_show_and_its_feed_parses_in_a_real_icalendar_parser(app, browser):
    driver = browser
    sign_up(driver, app, f"cal-{secrets.token_hex(4)}", "popcorn calendar 7d2e9f41")
    # Track the show: its latest aired episode marked watched, on the show's page.
    driver.get(app.url(f"/shows/{POKEMON}?season=29"))
    wait_for(driver, "#episodes")
    check = wait_for(driver, "#episode-3391245 .check")
    click(driver, check)
    until(driver, lambda d: d.find_element(By.CSS_SELECTOR, "#episode-3391245 .check").get_attribute("aria-pressed") == "true")

    # The Calendar tab: today is there, the episode on its day, shown watched and checkable there.
    driver.get(app.url("/shows/calendar"))
    wait_for(driver, ".calendar")
    today = datetime.now(timezone.utc).strftime("%Y-%m-%d")
    assert driver.find_elements(By.ID, f"day-{today}"), "today is on the calendar"
    row = wait_for(driver, "#cal-episode-3391245")
    assert "S29E45" in text_of(row) and "is-watched" in row.get_attribute("class").split()
    click(driver, row.find_element(By.CSS_SELECTOR, ".check"))
    until(
        driver,
        lambda d: d.find_element(By.CSS_SELECTOR, "#cal-episode-3391245 .check").get_attribute("aria-pressed") == "false",
        message="unchecking on the calendar did nothing",
    )
    click(driver, driver.find_element(By.CSS_SELECTOR, "#cal-episode-3391245 .check"))
    until(driver, lambda d: d.find_element(By.CSS_SELECTOR, "#cal-episode-3391245 .check").get_attribute("aria-pressed") == "true")
    assert "UTC" in text_of(driver.find_element(By.CSS_SELECTOR, ".calendar-zone")) or "time zone" in text_of(
        driver.find_element(By.CSS_SELECTOR, ".calendar-zone")
    )

    # The feed: turned on from the account page, its address shown once with a copy button.
    driver.get(app.url("/account#calendar"))
    wait_for(driver, "#calendar")
    submit(driver, "Turn on my calendar feed")
    field = wait_for(driver, "#feed-url")
    url = field.get_attribute("value")
    assert url.startswith(app.base_url + "/calendar/") and url.endswith(".ics")
    click(driver, driver.find_element(By.CSS_SELECTOR, "button[data-copy='feed-url']"))
    until(driver, lambda d: "Address copied" in d.find_element(By.ID, "live-region").text, message="copying said nothing")

    status, body = fetch(url + "?futureDays=60")
    assert status == 200
    # RFC 5545 on the wire: CRLF everywhere, no line past 75 octets.
    assert b"\n" not in body.replace(b"\r\n", b"")
    assert all(len(line) <= 75 for line in body.split(b"\r\n"))
    first = events(body)
    expected = {f"episode-{episode_id}@popcornswirl": value for episode_id, value in EPISODES.items()}
    assert set(first) == set(expected), sorted(first)
    for uid, (code, name, start) in expected.items():
        event = first[uid]
        # Folded, escaped (a comma, an apostrophe, an accent, a dash) and read back intact.
        assert str(event["SUMMARY"]) == f"Pokémon – {code} – {name}"
        assert event.decoded("DTSTART") == start
        assert event.decoded("DTEND") == start + timedelta(minutes=25)
        assert str(event["URL"]).endswith(f"/episodes/{uid.split('-')[1].split('@')[0]}")
    description = str(first["episode-3391246@popcornswirl"]["DESCRIPTION"])
    assert "<" not in description and description.endswith("/episodes/3391246")
    # A second fetch: the same events under the same UIDs.
    status, again = fetch(url + "?futureDays=60")
    assert status == 200 and set(events(again)) == set(first)

    # Turned off: the address answers 404.
    driver.get(app.url("/account#calendar"))
    wait_for(driver, "#calendar")
    submit(driver, "Turn the feed off")
    assert fetch(url)[0] == 404
