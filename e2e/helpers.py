"""Browser helpers shared by the e2e tests."""

from __future__ import annotations

import json
import urllib.error
from pathlib import Path
import urllib.request

from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.support.ui import WebDriverWait


CATALOG_DIR = Path(__file__).resolve().parent.parent / "Sources" / "App" / "Resources" / "catalog"


def catalogue_film(track_id: int) -> dict:
    """A film of the bundled catalogue (the stub upstream serves the same files)."""
    for path in sorted(CATALOG_DIR.glob("movies-*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        for entry in data["results"] if isinstance(data, dict) else data:
            if entry["trackId"] == track_id:
                return entry
    raise LookupError(track_id)


def until(driver, condition, timeout: float = 10, message: str = ""):
    """Waits until `condition(driver)` is truthy (stale elements count as 'not yet')."""

    def check(d):
        try:
            return condition(d)
        except StaleElementReferenceException:
            return False

    return WebDriverWait(driver, timeout, poll_frequency=0.1).until(check, message=message or None)

def click(driver, element) -> None:
    """Scrolls the element to the middle of the screen first, clear of the sticky header and the tab bar."""
    driver.execute_script("arguments[0].scrollIntoView({block: 'center', inline: 'nearest'})", element)
    element.click()

def dialog_is_open(driver, dialog_id: str) -> bool:
    return bool(driver.execute_script("const d = document.getElementById(arguments[0]); return !!(d && d.open)", dialog_id))

def wait_dialog(driver, dialog_id: str, open_: bool = True, timeout: float = 5) -> None:
    until(
        driver,
        lambda d: dialog_is_open(d, dialog_id) == open_,
        timeout,
        f"#{dialog_id} did not {'open' if open_ else 'close'} at {driver.current_url}",
    )

def mark_page(driver) -> None:
    """Marks the current document: the marker survives in-place updates and is lost on any navigation."""
    driver.execute_script("window.__popcornSamePage = 'still here'")

def same_page(driver) -> bool:
    return driver.execute_script("return window.__popcornSamePage || null") == "still here"

def status_of(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


def post_form(driver, app, path: str, fields: dict) -> dict:
    """POSTs a form from inside the visitor's browser (its own session cookie), as app.js does.

    Returns {"status": int, "body": str}; opens a page of the app first if the browser is elsewhere.
    """
    if not driver.current_url.startswith(app.base_url):
        driver.get(app.url("/healthz"))
    return driver.execute_async_script(
        """
        const [url, fields, done] = arguments;
        fetch(url, {method: "POST", credentials: "same-origin",
                    headers: {"Accept": "application/json", "Content-Type": "application/x-www-form-urlencoded"},
                    body: new URLSearchParams(fields)})
          .then(r => r.text().then(t => done({status: r.status, body: t})))
          .catch(e => done({status: 0, body: String(e)}));
        """,
        app.url(path),
        fields,
    )
