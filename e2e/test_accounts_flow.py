"""Accounts end to end, in a real (headless) Chromium: a visitor's lists moving into a new account and
following it through sign-out and sign-in, lists merged on sign-in, and personal API tokens made and
revoked on the account page (then used from outside the browser, as a script would).

The app and its database live for the whole session, so every test signs up its own account with a
name no other test (nor another run against the same database) uses.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
import uuid

from selenium.webdriver.common.by import By

from conftest import wait_for
from helpers import (
    catalogue_film, click, fill, same_page, sign_in, sign_out, submit, submit_credentials, text_of, until, wait_dialog,
)

# Films of the current year's catalogue, so they are on the Movies grid (the home page).
TOY_STORY_5 = 9100000205
PROJECT_HAIL_MARY = 9100000197
CLAYFACE = 9100000211

TOKEN_PREFIX = "ps_"
TOKEN_LENGTH = 46  # "ps_" and 32 random bytes in unpadded base64url
TOKEN_NAME = "e2e script"


# --------------------------------------------------------------------------- helpers


def unique_username(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:12]}"


def password_for(username: str) -> str:
    """At least 12 characters, not a common password, not containing the username."""
    return "popcorn swirl passphrase " + username[::-1][:6]


def title(movie_id: int) -> str:
    return catalogue_film(movie_id)["trackName"]


def card(driver, movie_id: int):
    return wait_for(driver, f'.card[data-movie-id="{movie_id}"]')


def pressed(button) -> bool:
    return button.get_attribute("aria-pressed") == "true"


def library_titles(driver, app, list_name: str = "all") -> list[str]:
    """The film titles My Lists shows on one of its tabs (an empty list shows its `.empty` message)."""
    driver.get(app.url(f"/library?list={list_name}"))
    wait_for(driver, ".grid .card, p.empty")
    assert driver.find_element(By.TAG_NAME, "h1").text == "My Lists"
    return sorted(c.text for c in driver.find_elements(By.CSS_SELECTOR, ".grid .card[data-movie-id] .card-title"))


def assert_lists(driver, app, favorites: list[int], watched: list[int]) -> None:
    """My Lists' three tabs show exactly these films."""
    expected_all = sorted({title(i) for i in favorites + watched})
    assert library_titles(driver, app, "all") == expected_all
    assert library_titles(driver, app, "favorites") == sorted(title(i) for i in favorites)
    assert library_titles(driver, app, "watched") == sorted(title(i) for i in watched)


def signed_in_as(driver) -> str:
    return driver.find_element(By.CSS_SELECTOR, ".account-page .account-name").text


def api_library(app, token: str | None) -> tuple[int, dict]:
    """GET /api/v1/library from outside the browser (a script): (status, JSON body)."""
    request = urllib.request.Request(app.url("/api/v1/library?list=all"), headers={"Accept": "application/json"})
    if token is not None:
        request.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.loads(response.read().decode("utf-8"))
    except urllib.error.HTTPError as error:
        body = error.read().decode("utf-8", "replace")
        return error.code, (json.loads(body) if body.startswith("{") else {"raw": body, "headers": dict(error.headers)})


def token_rows(driver) -> list:
    return driver.find_elements(By.CSS_SELECTOR, "table.token-table tbody tr")


# --------------------------------------------------------------------------- tests


def test_a_visitors_lists_become_the_new_accounts_and_follow_it_through_sign_out_and_in(app, browser):
    # 1. A visitor (fresh browser) saves one film as Favorite and another as Watched from the Movies grid.
    browser.get(app.url("/"))
    favorite = card(browser, TOY_STORY_5).find_element(By.CSS_SELECTOR, ".btn-fav")
    click(browser, favorite)
    until(browser, lambda d: pressed(card(d, TOY_STORY_5).find_element(By.CSS_SELECTOR, ".btn-fav")), 10, "Favorite did not stick")

    click(browser, card(browser, PROJECT_HAIL_MARY).find_element(By.CSS_SELECTOR, ".btn-watched"))
    wait_dialog(browser, "note-dialog")  # marking watched offers a note: skip it
    browser.find_element(By.CSS_SELECTOR, "#note-dialog [data-close]").click()
    wait_dialog(browser, "note-dialog", open_=False)
    assert pressed(card(browser, PROJECT_HAIL_MARY).find_element(By.CSS_SELECTOR, ".btn-watched"))
    assert_lists(browser, app, favorites=[TOY_STORY_5], watched=[PROJECT_HAIL_MARY])

    # 2. The header's Account link: a visitor gets the sign-in form, which links to sign-up.
    browser.get(app.url("/"))
    click(browser, wait_for(browser, "header a.account-link"))
    until(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "form[action='/account/signin']"), 10, "no sign-in form behind Account")
    assert browser.find_element(By.CSS_SELECTOR, "input[type=hidden][name=next]").get_attribute("value") == "/account"
    click(browser, browser.find_element(By.XPATH, "//main//a[normalize-space()='New here? Create an account']"))
    until(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "form[action='/account/signup']"), 10, "no sign-up form")
    assert browser.find_element(By.TAG_NAME, "h1").text == "Create your account"

    username = unique_username("viewer")
    password = password_for(username)
    submit_credentials(browser, username, password, "Create account")
    assert browser.current_url == app.url("/account"), f"sign-up did not go on to `next` (at {browser.current_url})"
    wait_for(browser, ".account-page")
    assert signed_in_as(browser) == username
    assert "Signed in as" in text_of(browser.find_element(By.CSS_SELECTOR, ".account-page"))

    # 3. Both titles are kept: they are the account's lists now.
    assert_lists(browser, app, favorites=[TOY_STORY_5], watched=[PROJECT_HAIL_MARY])

    # 4. Signed out (the form on /account): My Lists is a new visitor's, empty.
    sign_out(browser, app)
    assert browser.find_elements(By.CSS_SELECTOR, "form[action='/account/signin']"), browser.current_url
    assert library_titles(browser, app, "all") == []
    assert browser.find_element(By.CSS_SELECTOR, "p.empty").text
    browser.get(app.url("/account"))
    wait_for(browser, "form[action='/account/signin']")
    assert not browser.find_elements(By.CSS_SELECTOR, ".account-page")

    # 5. Signed in again: the lists are back.
    sign_in(browser, app, username, password)
    until(browser, lambda d: "/library" in d.current_url, 10, f"sign-in did not lead to My Lists ({browser.current_url})")
    assert_lists(browser, app, favorites=[TOY_STORY_5], watched=[PROJECT_HAIL_MARY])
    browser.get(app.url("/account"))
    wait_for(browser, ".account-page")
    assert signed_in_as(browser) == username


def test_signing_in_adds_what_the_visitor_saved_on_this_device(app, browser):
    username = unique_username("merger")
    password = password_for(username)
    browser.get(app.url("/account/signup"))
    submit_credentials(browser, username, password, "Create account")
    until(browser, lambda d: "/library" in d.current_url, 10, f"sign-up did not lead to My Lists ({browser.current_url})")
    browser.get(app.url(f"/movies/{TOY_STORY_5}"))  # the account's own favorite, saved on its detail page
    click(browser, wait_for(browser, ".detail .btn-fav"))
    until(browser, lambda d: pressed(d.find_element(By.CSS_SELECTOR, ".detail .btn-fav")), 10, "Favorite did not stick")
    sign_out(browser, app)

    # Signed out, the visitor saves another film: only that one is on My Lists.
    browser.get(app.url(f"/movies/{CLAYFACE}"))
    click(browser, wait_for(browser, ".detail .btn-fav"))
    until(browser, lambda d: pressed(d.find_element(By.CSS_SELECTOR, ".detail .btn-fav")), 10, "Favorite did not stick")
    assert library_titles(browser, app, "favorites") == [title(CLAYFACE)]

    # Signing in merges it into the account's lists.
    browser.get(app.url("/account/signin"))
    assert "added to your account" in text_of(browser.find_element(By.CSS_SELECTOR, "main .muted"))
    submit_credentials(browser, username, password, "Sign in")
    assert_lists(browser, app, favorites=[TOY_STORY_5, CLAYFACE], watched=[])

    # The merged film belongs to the account now: signed out, the device's lists are empty again.
    sign_out(browser, app)
    assert library_titles(browser, app, "all") == []


def test_an_api_token_is_shown_once_works_for_the_account_and_stops_working_once_revoked(app, browser):
    username = unique_username("scripter")
    browser.get(app.url("/account/signup"))
    submit_credentials(browser, username, password_for(username), "Create account")
    until(browser, lambda d: "/library" in d.current_url, 10, f"sign-up did not lead to My Lists ({browser.current_url})")
    browser.get(app.url(f"/movies/{TOY_STORY_5}"))
    click(browser, wait_for(browser, ".detail .btn-fav"))
    until(browser, lambda d: pressed(d.find_element(By.CSS_SELECTOR, ".detail .btn-fav")), 10, "Favorite did not stick")

    # 1. No token yet; make one.
    browser.get(app.url("/account"))
    wait_for(browser, ".account-page")
    assert not token_rows(browser)
    assert "You have no API tokens." in text_of(browser.find_element(By.CSS_SELECTOR, ".account-page"))
    fill(browser, "form.token-form input[name=name]", TOKEN_NAME)
    fill(browser, "form.token-form input[name=password]", password_for(username))
    submit(browser, "Create token")

    # 2. The token is shown this once, and listed by its name.
    shown = wait_for(browser, ".new-token input.token-value", visible=True)
    token = shown.get_attribute("value")
    assert token.startswith(TOKEN_PREFIX) and len(token) == TOKEN_LENGTH, token
    assert shown.get_attribute("readonly") is not None
    assert f"“{TOKEN_NAME}”" in text_of(browser.find_element(By.CSS_SELECTOR, ".new-token"))
    assert [text_of(c) for c in browser.find_elements(By.CSS_SELECTOR, "table.token-table td.token-name")] == [TOKEN_NAME]

    # 3. Opened again, the page lists the token by name (and a short hint) but no longer shows it.
    browser.get(app.url("/account"))
    wait_for(browser, ".account-page")
    assert not browser.find_elements(By.CSS_SELECTOR, ".new-token, input.token-value")
    assert token not in browser.page_source
    rows = token_rows(browser)
    assert len(rows) == 1
    assert text_of(rows[0].find_element(By.CSS_SELECTOR, "td.token-name")) == TOKEN_NAME
    hint = text_of(rows[0].find_element(By.CSS_SELECTOR, "code")).rstrip("…")
    assert token.startswith(hint) and len(hint) < len(token), hint
    assert "Never" in text_of(rows[0]), "a token nobody used yet should say so"

    # 4. A script with the token reads the account's lists; without it, or with a wrong one, 401.
    status, body = api_library(app, token)
    assert status == 200, body
    assert [(i["kind"], i["id"], i["title"], i["favorite"], i["watched"]) for i in body["items"]] == [
        ("movie", TOY_STORY_5, title(TOY_STORY_5), True, False)
    ], body
    assert body["total"] == 1
    status, body = api_library(app, None)
    assert status == 401, body
    status, body = api_library(app, TOKEN_PREFIX + "x" * (TOKEN_LENGTH - len(TOKEN_PREFIX)))
    assert status == 401, body

    browser.get(app.url("/account"))
    assert "Never" not in text_of(wait_for(browser, "table.token-table tbody tr")), "the call was not noted as the token's last use"

    # 5. Revoked on the page: the same call is refused.
    row = token_rows(browser)[0]
    submit_button = row.find_element(By.XPATH, ".//button[normalize-space()='Revoke']")
    click(browser, submit_button)
    until(browser, lambda d: "done=revoked" in d.current_url and not same_page(d), 10, "revoking did not load a page")
    assert "Token revoked" in text_of(wait_for(browser, ".account-page p.success[role=status]"))
    assert not token_rows(browser)
    assert "You have no API tokens." in text_of(browser.find_element(By.CSS_SELECTOR, ".account-page"))
    status, body = api_library(app, token)
    assert status == 401, body


def test_without_javascript_sign_up_sign_out_and_sign_in_are_plain_forms(app, nojs_browser):
    browser = nojs_browser
    username = unique_username("nojs")
    password = password_for(username)
    browser.get(app.url("/"))
    click(browser, wait_for(browser, f'.card[data-movie-id="{TOY_STORY_5}"] .btn-fav'))  # a form POST and a redirect
    until(browser, lambda d: pressed(card(d, TOY_STORY_5).find_element(By.CSS_SELECTOR, ".btn-fav")), 10, "Favorite did not stick")

    browser.get(app.url("/account/signup?next=/account"))
    submit_credentials(browser, username, password, "Create account")
    assert browser.current_url == app.url("/account"), browser.current_url
    assert signed_in_as(browser) == username
    assert library_titles(browser, app, "favorites") == [title(TOY_STORY_5)]

    sign_out(browser, app)
    assert library_titles(browser, app, "favorites") == []
    sign_in(browser, app, username, password)
    assert library_titles(browser, app, "favorites") == [title(TOY_STORY_5)]
