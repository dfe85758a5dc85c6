"""The Integrations page in a real (headless) Chromium: a Plex URL made and shown once, a Plex
webhook posted to it over real HTTP (multipart, with a thumbnail) marking the episode watched, an
unknown show waiting in Needs review until the person searches and picks it, and a revoked URL
answering 404.

Pokémon (590, TheTVDB 76703) runs on the stub: S29E45 (episode 3391245) aired on 27 November 2026.
"""

from __future__ import annotations

import json
import secrets
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from conftest import _browser, wait_for
from helpers import click, fill, sign_up, submit, text_of, until
from test_axe import NARROW, violations

FIXTURES = Path(__file__).resolve().parent.parent / "Tests" / "AppTests" / "Fixtures" / "integrations"
POKEMON_EPISODE = 3391245


def post(url: str, body: bytes, content_type: str) -> tuple[int, dict]:
    request = urllib.request.Request(url, data=body, method="POST", headers={"Content-Type": content_type, "User-Agent": "PlexMediaServer/1.41.3"})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.loads(response.read() or b"{}")
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"{}")


def plex_body(payload: dict) -> tuple[bytes, str]:
    """Plex's transport: the JSON in a `payload` part, then a JPEG thumbnail part."""
    boundary = "------------------------" + secrets.token_hex(8)
    thumbnail = b"\xff\xd8\xff\xe0" + bytes(range(256)) * 800  # about 200 KB
    body = (
        f"--{boundary}\r\nContent-Disposition: form-data; name=\"payload\"\r\nContent-Type: application/json\r\n\r\n".encode()
        + json.dumps(payload).encode()
        + f"\r\n--{boundary}\r\nContent-Disposition: form-data; name=\"thumb\"; filename=\"thumb.jpg\"\r\nContent-Type: image/jpeg\r\n\r\n".encode()
        + thumbnail
        + f"\r\n--{boundary}--\r\n".encode()
    )
    return body, f"multipart/form-data; boundary={boundary}"


def add(driver, label: str) -> str:
    """Adds a server on the page and returns its URL, shown once."""
    Select(wait_for(driver, "#integration-kind")).select_by_visible_text(label)
    submit(driver, "Add")
    field = wait_for(driver, "#integration-url")
    return field.get_attribute("value")


def events_text(driver) -> str:
    tables = driver.find_elements(By.CSS_SELECTOR, ".integration-events")
    return text_of(tables[0]) if tables else ""


def test_a_plex_scrobble_marks_the_episode_and_an_unknown_show_waits_for_the_persons_choice(app, browser):
    driver = browser
    sign_up(driver, app, f"plex-{secrets.token_hex(4)}", "popcorn plex 5a1c9e77")
    driver.get(app.url("/account"))
    click(driver, wait_for(driver, "a[href='/account/integrations']"))
    wait_for(driver, "#integration-kind")

    # A Plex URL, shown once with its set-up steps and a copy button.
    url = add(driver, "Plex")
    assert url.startswith(app.base_url + "/integrations/plex/")
    assert "Webhooks" in text_of(driver.find_element(By.CSS_SELECTOR, ".new-token"))
    click(driver, driver.find_element(By.CSS_SELECTOR, "button[data-copy='integration-url']"))
    until(driver, lambda d: "copied" in d.find_element(By.ID, "live-region").text.lower(), message="copying said nothing")

    # Plex scrobbles Pokémon S29E45 (its GUIDs are the episode's own; the show comes by its name).
    payload = json.loads((FIXTURES / "plex-episode-scrobble.json").read_text())
    metadata = payload["Metadata"]
    metadata.update(grandparentTitle="Pokémon", parentIndex=29, index=45, title="Go, Charcadet! Don't Give Up!", grandparentRatingKey="777")
    body, content_type = plex_body(payload)
    status, answer = post(url, body, content_type)
    assert status == 202 and answer["duplicate"] is False, answer
    # The same webhook again (Plex retries): the same receipt.
    status, again = post(url, body, content_type)
    assert status == 202 and again == {"receipt": answer["receipt"], "duplicate": True}

    def settled(d):
        d.get(app.url("/account/integrations"))
        return "S29E45" in events_text(d) and "watched" in events_text(d).split("S29E45", 1)[1]

    until(driver, settled, timeout=20, message="the Plex event was not settled")
    assert "Pokémon S29E45, watched" in events_text(driver)
    assert not driver.find_elements(By.ID, "integration-url"), "a URL is shown only when it is made"
    driver.get(app.url("/shows/590?season=29"))
    check = wait_for(driver, f"#episode-{POKEMON_EPISODE} .check")
    assert check.get_attribute("aria-pressed") == "true", "the episode is marked watched"

    # Another app posts a show PopcornSwirl cannot name: it waits in Needs review.
    driver.get(app.url("/account/integrations"))
    generic = add(driver, "Another app (generic JSON)")
    event = {"type": "episode", "show": {"title": "Grandpa's Garage Tapes"}, "season": 29, "episode": 44, "eventId": "tape-44"}
    status, _ = post(generic, json.dumps(event).encode(), "application/json")
    assert status == 202
    status, problem = post(generic, b'{"type": "song"}', "application/json")
    assert status == 422 and "type" in problem["detail"]

    def waiting(d):
        d.get(app.url("/account/integrations"))
        return bool(d.find_elements(By.ID, "needs-review"))

    until(driver, waiting, timeout=20, message="the unknown show is not in Needs review")
    review = driver.find_element(By.ID, "needs-review")
    assert "Grandpa's Garage Tapes S29E44" in text_of(review)
    fill(driver, "#needs-review input[type='search']", "Pokémon")
    mark = driver.current_url
    click(driver, review.find_element(By.CSS_SELECTOR, "form[role='search'] button[type='submit']"))
    until(driver, lambda d: d.current_url != mark and "Found for" in text_of(d.find_element(By.ID, "needs-review")))
    click(driver, wait_for(driver, "#needs-review input[value='show:590']"))
    submit(driver, "Use this")
    assert "Chosen" in text_of(wait_for(driver, ".notice"))
    assert not driver.find_elements(By.ID, "needs-review")
    assert "Pokémon S29E44, watched" in events_text(driver)

    # Revoked: the Plex URL answers 404 from then on.
    revoke = driver.find_element(By.XPATH, "//article[h3='Plex']//button[normalize-space()='Revoke']")
    mark = driver.current_url
    click(driver, revoke)
    until(driver, lambda d: d.current_url != mark)
    assert "revoked" in text_of(wait_for(driver, ".notice"))
    status, problem = post(url, body, content_type)
    assert status == 404 and "revoked" in problem["detail"]


@pytest.fixture
def narrow_browser(request):
    yield from _browser(request, NARROW)


def test_the_integrations_page_in_its_full_state_passes_axe_at_320_px(app, narrow_browser):
    driver = narrow_browser
    sign_up(driver, app, f"axe-int-{secrets.token_hex(4)}", "popcorn integrations 3f9a")
    driver.get(app.url("/account/integrations"))
    # A new URL with its steps and the generic JSON's example.
    url = add(driver, "Another app (generic JSON)")
    found = violations(driver, "a new generic URL")
    for event in (
        {"type": "episode", "show": {"title": "Grandpa's Garage Tapes"}, "season": 2, "episode": 7, "eventId": "axe-1"},
        {"type": "episode", "show": {"ids": {"tvdb": 76703}}, "season": 29, "episode": 45, "progress": 40, "eventId": "axe-2"},
        {"type": "episode", "show": {"ids": {"tvdb": 76703}}, "season": 29, "episode": 45, "eventId": "axe-3"},
    ):
        assert post(url, json.dumps(event).encode(), "application/json")[0] == 202

    def settled(d):
        d.get(app.url("/account/integrations"))
        return bool(d.find_elements(By.ID, "needs-review")) and "Pokémon S29E45, watched" in events_text(d)

    until(driver, settled, timeout=20, message="the events were not settled")
    assert "Below threshold: Played 40 %" in events_text(driver)
    found += violations(driver, "Needs review and the latest events")
    assert not found, "\n".join(found)
