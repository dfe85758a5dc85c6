"""Browser helpers shared by the e2e tests."""

from __future__ import annotations

import contextlib
import json
import sqlite3
import urllib.error
from pathlib import Path
import urllib.request

from selenium.common.exceptions import StaleElementReferenceException, TimeoutException, WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from conftest import wait_for


CATALOG_DIR = Path(__file__).resolve().parent.parent / "Sources" / "App" / "Resources" / "catalog"


def catalogue_film(track_id: int) -> dict:
    """A film of the bundled catalogue (the stub upstream serves the same files)."""
    for path in sorted(CATALOG_DIR.glob("movies-*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        for entry in data["results"] if isinstance(data, dict) else data:
            if entry["trackId"] == track_id:
                return entry
    raise LookupError(track_id)


def until(driver, condition, timeout: float = 10, message=""):
    """Waits until `condition(driver)` is truthy (stale elements count as 'not yet', and so does
    Chromium's "Node … does not belong to the document", its word for an element read while a form's
    answer replaces the page). `message` may be a function, asked only when the wait times out: what
    it reads of the page could be mid-navigation when the wait begins."""

    def check(d):
        try:
            return condition(d)
        except StaleElementReferenceException:
            return False
        except WebDriverException as error:
            if "does not belong to the document" in str(error):
                return False
            raise

    try:
        return WebDriverWait(driver, timeout, poll_frequency=0.1).until(check)
    except TimeoutException:
        raise TimeoutException((message() if callable(message) else message) or None) from None

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


def csrf_token(driver) -> str | None:
    """The CSRF token of the page the browser shows (<meta name="csrf-token">), if it is one of the app's pages."""
    return driver.execute_script(
        "const m = document.querySelector('meta[name=\"csrf-token\"]'); return m ? m.content : null"
    )


def post_form(driver, app, path: str, fields: dict) -> dict:
    """POSTs a form from inside the visitor's browser (its own session cookie), as app.js does:
    with the page's CSRF token in X-CSRF-Token.

    Returns {"status": int, "body": str}; opens a light page of the app first (which also gives
    the browser its `ps_csrf` cookie) if the browser is elsewhere or on a page without the token.
    """
    if not driver.current_url.startswith(app.base_url) or not csrf_token(driver):
        driver.get(app.url("/account/signin"))
    token = csrf_token(driver)
    assert token and "<!--" not in token, f"no CSRF token on {driver.current_url}: {token!r}"
    return driver.execute_async_script(
        """
        const [url, fields, token, done] = arguments;
        fetch(url, {method: "POST", credentials: "same-origin",
                    headers: {"Accept": "application/json", "Content-Type": "application/x-www-form-urlencoded",
                              "X-CSRF-Token": token},
                    body: new URLSearchParams(fields)})
          .then(r => r.text().then(t => done({status: r.status, body: t})))
          .catch(e => done({status: 0, body: String(e)}));
        """,
        app.url(path),
        fields,
        token,
    )


# --------------------------------------------------------------------------- forms and accounts


def text_of(element) -> str:
    """The element's text with whitespace collapsed, whether or not it is scrolled into view."""
    return " ".join((element.get_attribute("textContent") or "").split())


def fill(driver, css: str, value: str) -> None:
    field = wait_for(driver, css)
    field.clear()
    field.send_keys(value)


def submit(driver, button_text: str) -> None:
    """Presses the form's submit button and waits for the page the POST answers with."""
    mark_page(driver)
    click(driver, driver.find_element(By.XPATH, f"//form//button[@type='submit'][normalize-space()='{button_text}']"))
    until(
        driver,
        lambda d: not same_page(d) and d.execute_script("return document.readyState") == "complete",
        10,
        f"pressing {button_text!r} did not load a page",
    )


def submit_credentials(driver, username: str, password: str, button: str) -> None:
    """Fills the sign-in / sign-up form the browser shows (#account-username, #account-password) and sends it."""
    fill(driver, "form #account-username", username)
    fill(driver, "form #account-password", password)
    submit(driver, button)


def forget_sign_ups(app) -> None:
    """Every browser test signs up from 127.0.0.1, and the app allows 5 sign-ups an hour per
    address: as if that hour had passed, the address's counted sign-ups are forgotten."""
    with contextlib.closing(sqlite3.connect(app.tmpdir / "e2e.sqlite", timeout=5)) as db, db:
        db.execute("DELETE FROM signup_attempts")


def sign_up(driver, app, username: str, password: str) -> None:
    """Creates an account on /account/signup; the app then shows My Lists (the default `next`)."""
    forget_sign_ups(app)
    driver.get(app.url("/account/signup"))
    submit_credentials(driver, username, password, "Create account")


def sign_in(driver, app, username: str, password: str) -> None:
    """Signs in on /account/signin; the app then shows My Lists (the default `next`)."""
    driver.get(app.url("/account/signin"))
    submit_credentials(driver, username, password, "Sign in")


def sign_out(driver, app) -> None:
    """Presses "Sign out" on the account page (a POST form) and waits for the page it leads to."""
    driver.get(app.url("/account"))
    wait_for(driver, ".account-page")
    submit(driver, "Sign out")
