"""Partner offers end to end, in a real (headless) Chromium: the advertiser console, the banner a
visitor sees on a film, the tracked click-through to the shop, and the console's report.

A landing page must be https on one of the shop's domains, so the shop is a local stub reachable
under a fictional https host: the module makes a throwaway self-signed certificate for `shop.test`
with the openssl CLI, serves "Stub shop" pages over TLS on a free port of 127.0.0.1 (in a thread),
and starts Chromium with `--host-resolver-rules=MAP shop.test:443 127.0.0.1:<port>` (only
shop.test on port 443 is mapped; everything else resolves as usual) and `--ignore-certificate-errors`
(the certificate is self-signed). Only this file's browser gets those switches.

The console is for signed-in accounts with the admin role: the `app` fixture makes one with
`popcornswirl create-admin` (conftest's ADMIN_USERNAME / ADMIN_PASSWORD), and the tests sign in with
it through the sign-in form the console answers with. Console and visitor share one browser (offers
are counted and capped per `ps_visitor` cookie, signed in or not). The app and its database live for the whole session,
so the flow creates its own shop and offer, and pauses the offer at the end so that later test
files see the same offers as before (its horror targeting would otherwise win many placements).
"""

from __future__ import annotations

import html
import shutil
import ssl
import subprocess
import threading
import uuid
from pathlib import Path
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, parse_qsl, urlsplit

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from conftest import ADMIN_PASSWORD, ADMIN_USERNAME, PHONE_SIZE, _browser, launch_app, wait_for
from helpers import (
    catalogue_film, click, fill, mark_page, same_page, sign_out, sign_up, status_of, submit, submit_credentials, text_of, until,
)

SHOP_HOST = "shop.test"

# A film of the current year's catalogue (which the stub serves as iTunes' answers). Its only
# genre is Horror, and its title has spaces and a colon, so `title_name` must be encoded.
FILM = 9100000199  # "Ready or Not 2: Here I Come"
FILM_KEYWORD = "ready or not"  # matched against the title, on top of the genre: this offer must win the banner

SHOP_NAME = "Stub Shop"
HEADLINE = "Stub Shop Mega Bundle"
LANDING = f"https://{SHOP_HOST}/products/bundle?ref=e2e"
DEMO_HEADLINE = "Midnight Fright Popcorn Trio"  # a seeded demo offer: always on the dashboard
SIGN_IN_FIRST = "Sign in with an administrator’s account to use the advertiser console."
WRONG_CREDENTIALS = "Wrong username or password."


# --------------------------------------------------------------------------- the stub shop (https://shop.test)


class ShopHandler(BaseHTTPRequestHandler):
    def do_GET(self):  # noqa: N802 (http.server's naming)
        self.server.requests.append(self.path)
        parts = urlsplit(self.path)
        body = (
            "<!doctype html><html lang=en><head><meta charset=utf-8><title>Stub shop</title></head><body>"
            f"<h1>Stub shop</h1><p id=shop-path>{html.escape(parts.path)}</p><p id=shop-query>{html.escape(parts.query)}</p>"
            "</body></html>"
        ).encode("utf-8")
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format, *args):  # noqa: A002 (quiet: pytest shows stderr of failures)
        pass


class TLSShopServer(ThreadingHTTPServer):
    """Any GET: a small "Stub shop" page showing the path and query. `requests` lists the paths asked for.

    The TLS handshake happens in the request's own thread (not in accept()), so a slow or
    half-open connection cannot stall the server.
    """

    daemon_threads = True

    def __init__(self, context: ssl.SSLContext) -> None:
        self.context = context
        self.requests: list[str] = []
        super().__init__(("127.0.0.1", 0), ShopHandler)

    @property
    def port(self) -> int:
        return self.server_address[1]

    def finish_request(self, request, client_address):
        request.settimeout(10)
        try:
            tls = self.context.wrap_socket(request, server_side=True)
        except (ssl.SSLError, OSError):
            return
        try:
            self.RequestHandlerClass(tls, client_address, self)
        finally:
            tls.close()

    def page_requests(self) -> list[str]:
        return [path for path in self.requests if not path.startswith("/favicon")]


@pytest.fixture(scope="module")
def shop_certificate(tmp_path_factory):
    """A throwaway self-signed certificate for shop.test (key and certificate paths), valid one day."""
    openssl = shutil.which("openssl")
    if openssl is None:
        pytest.fail("the openssl CLI is missing: apt-get install -y openssl", pytrace=False)
    directory = tmp_path_factory.mktemp("shop-tls")
    key, cert = directory / "key.pem", directory / "cert.pem"
    result = subprocess.run(
        [openssl, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key), "-out", str(cert), "-days", "1",
         "-subj", f"/CN={SHOP_HOST}", "-addext", f"subjectAltName=DNS:{SHOP_HOST}"],
        capture_output=True, text=True, timeout=30,
    )
    if result.returncode != 0:
        pytest.fail(f"openssl could not make the shop's certificate:\n{result.stderr}", pytrace=False)
    return key, cert


@pytest.fixture(scope="module")
def stub_shop(shop_certificate):
    key, cert = shop_certificate
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(certfile=str(cert), keyfile=str(key))
    server = TLSShopServer(context)
    thread = threading.Thread(target=server.serve_forever, name="stub-shop", daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


@pytest.fixture
def shop_browser(request, stub_shop):
    """A phone-sized Chromium (fresh profile) that reaches https://shop.test/ at the stub shop."""
    yield from _browser(
        request,
        PHONE_SIZE,
        extra_args=(
            f"--host-resolver-rules=MAP {SHOP_HOST}:443 127.0.0.1:{stub_shop.port}",
            "--ignore-certificate-errors",  # the stub's certificate is self-signed
        ),
    )


# --------------------------------------------------------------------------- helpers


def assert_saved(driver) -> None:
    """After a console form: back on the dashboard with "Saved.", else the form's errors are the failure."""
    if "done=saved" not in driver.current_url:
        problems = [text_of(e) for e in driver.find_elements(By.CSS_SELECTOR, "main h1, main .alert, main .form-error, main .message p")]
        pytest.fail(f"the console did not save the form ({driver.current_url}): {[p for p in problems if p]}", pytrace=False)
    assert text_of(wait_for(driver, "p.success[role=status]")) == "Saved."


def assert_sign_in_form(driver, next_path: str = "/admin/offers") -> None:
    """The page is the account sign-in form, sending the visitor on to `next_path` afterwards."""
    form = wait_for(driver, "form[action='/account/signin']", visible=True)
    assert driver.find_element(By.TAG_NAME, "h1").text == "Sign in"
    assert form.find_element(By.CSS_SELECTOR, "input[type=hidden][name=next]").get_attribute("value") == next_path
    assert form.find_element(By.CSS_SELECTOR, "input[name=username]").get_attribute("type") == "text"
    assert form.find_element(By.CSS_SELECTOR, "input[name=password]").get_attribute("type") == "password"
    assert form.find_element(By.CSS_SELECTOR, "input[type=hidden][name=csrf]").get_attribute("value")


def assert_no_console_data(driver) -> None:
    assert not driver.find_elements(By.CSS_SELECTOR, "table, tr[data-offer-id], tr[data-advertiser-id]")
    page = driver.page_source
    assert DEMO_HEADLINE not in page and HEADLINE not in page and SHOP_NAME not in page


def sign_in(driver, app) -> None:
    """Opens the dashboard, gets the sign-in form (401) instead, signs in as the e2e administrator
    and is sent on to the dashboard."""
    driver.get(app.url("/admin/offers"))
    assert_sign_in_form(driver)
    assert text_of(driver.find_element(By.CSS_SELECTOR, "p.alert[role=alert]")) == SIGN_IN_FIRST
    submit_credentials(driver, ADMIN_USERNAME, ADMIN_PASSWORD, "Sign in")
    assert driver.current_url == app.url("/admin/offers"), driver.current_url
    wait_for(driver, "table.offers-table")


def offer_row(driver, headline: str):
    for row in driver.find_elements(By.CSS_SELECTOR, "table.offers-table tbody tr[data-offer-id]"):
        # The row's heading is the headline, then a demo tag and the media on a line of their own.
        if driver.execute_script("return arguments[0].querySelector('th').firstChild.textContent.trim()", row) == headline:
            return row
    raise AssertionError(f"no offer {headline!r} on the dashboard")


def shop_id(driver, name: str) -> int:
    for row in driver.find_elements(By.CSS_SELECTOR, "table.shops-table tbody tr[data-advertiser-id]"):
        if text_of(row.find_element(By.CSS_SELECTOR, "th")) == name:
            return int(row.get_attribute("data-advertiser-id"))
    raise AssertionError(f"no shop {name!r} on the dashboard")


def report_cells(row) -> tuple[str, int, int]:
    """A report row as (day or "Total", impressions, clicks)."""
    day = text_of(row.find_element(By.CSS_SELECTOR, "th[scope=row]"))
    numbers = [text_of(cell) for cell in row.find_elements(By.CSS_SELECTOR, "td.num")]
    return day, int(numbers[0].replace(",", "")), int(numbers[1].replace(",", ""))


def fetch_text(driver, url: str) -> dict:
    """GETs `url` from inside the page (the browser's own cookies): {"status": int, "body": str}."""
    return driver.execute_async_script(
        """
        const [url, done] = arguments;
        fetch(url, {credentials: "same-origin"})
          .then(r => r.text().then(t => done({status: r.status, body: t})))
          .catch(e => done({status: 0, body: String(e)}));
        """,
        url,
    )


def readme_shop_code() -> dict:
    """The README's "Partner shops" Python, run as a shop would paste it: its functions by name."""
    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Partner shops", 1)[1].split("\n## ", 1)[0]
    namespace: dict = {}
    for block in section.split("```python\n")[1:]:
        exec(block.split("```", 1)[0], namespace)  # noqa: S102 (our own README, on purpose)
    return namespace


# --------------------------------------------------------------------------- tests


def test_a_new_offer_wins_its_films_banner_and_the_click_reaches_the_shop_and_the_report(app, stub_shop, shop_browser):
    browser = shop_browser
    film = catalogue_film(FILM)
    title, genre = film["trackName"], film["primaryGenreName"].lower()
    assert genre == "horror", "FILM should have exactly one genre that is a console genre key"

    # 1. The console: a shop on shop.test, then an offer of it aimed at the film.
    sign_in(browser, app)
    click(browser, browser.find_element(By.CSS_SELECTOR, "a[href='/admin/advertisers/new']"))
    fill(browser, "#shop-name", SHOP_NAME)
    fill(browser, "#shop-description", "A shop that only exists for the browser tests.")
    fill(browser, "#shop-domains", SHOP_HOST)
    fill(browser, "#shop-website", f"https://{SHOP_HOST}/")
    submit(browser, "Save shop")
    # The answer is the shop's signing key, shown this once.
    key_field = wait_for(browser, "#shop-key")
    assert browser.find_element(By.TAG_NAME, "h1").text == "Shop saved: its signing key"
    key = key_field.get_attribute("value")
    assert key.startswith("pss_") and len(key) == 47, key
    click(browser, browser.find_element(By.XPATH, "//a[normalize-space()='Back to offers']"))
    wait_for(browser, "table.shops-table")
    assert key not in browser.page_source, "the console shows a key only once"
    shop = shop_id(browser, SHOP_NAME)

    click(browser, browser.find_element(By.CSS_SELECTOR, "a[href='/admin/offers/new']"))
    Select(wait_for(browser, "#offer-advertiser")).select_by_value(str(shop))
    fill(browser, "#offer-headline", HEADLINE)
    fill(browser, "#offer-description", "Everything for a scary movie night, in one box.")
    fill(browser, "#offer-price", "$49.99")
    fill(browser, "#offer-landing", LANDING)
    genre_box = browser.find_element(By.CSS_SELECTOR, f"input[type=checkbox][name=genres][value='{genre}']")
    click(browser, genre_box)
    assert genre_box.is_selected()
    fill(browser, "#offer-keywords", FILM_KEYWORD)
    Select(browser.find_element(By.CSS_SELECTOR, "#offer-media")).select_by_value("movie")
    today = browser.find_element(By.CSS_SELECTOR, "#offer-starts").get_attribute("value")  # the server's UTC day
    ends = browser.find_element(By.CSS_SELECTOR, "#offer-ends").get_attribute("value")
    assert len(today) == 10 and ends > today, (today, ends)
    fill(browser, "#offer-weight", "10")
    active = browser.find_element(By.CSS_SELECTOR, "input[type=checkbox][name=active]")
    if not active.is_selected():
        click(browser, active)
    submit(browser, "Save offer")
    assert_saved(browser)
    row = offer_row(browser, HEADLINE)
    offer_id = int(row.get_attribute("data-offer-id"))
    assert text_of(row.find_element(By.CSS_SELECTOR, "td:nth-of-type(1)")) == SHOP_NAME
    assert text_of(row.find_element(By.CSS_SELECTOR, ".status")) == "Live"

    # 2. A visitor opens the film (one page load: the banner is capped at 3 views per hour).
    browser.get(app.url(f"/movies/{FILM}"))
    article = wait_for(browser, f'article.detail[data-movie-id="{FILM}"]')
    banner = wait_for(browser, "aside.offer-banner", visible=True)
    assert banner.get_attribute("data-offer-id") == str(offer_id), (
        f"another offer won the banner: {text_of(banner)!r}"
    )
    assert browser.execute_script("return document.querySelector('main').lastElementChild === arguments[0]", banner), (
        "the banner is not the last thing on the page"
    )
    assert banner.rect["y"] >= article.rect["y"] + article.rect["height"], "the banner is not below the film"
    label = banner.find_element(By.CSS_SELECTOR, ".sponsored-label")
    assert label.is_displayed() and text_of(label) == f"Sponsored · {SHOP_NAME}"  # the CSS shows it in capitals
    assert banner.find_element(By.CSS_SELECTOR, ".offer-headline").text == HEADLINE
    link = banner.find_element(By.CSS_SELECTOR, "a.offer-banner-link")
    assert link.get_attribute("href") == app.url(f"/offers/{offer_id}/go?placement=banner&title=movie:{FILM}")
    assert "sponsored" in link.get_attribute("rel").split()

    # 3. The click is counted and lands on the shop's page, with the context the shop asked for.
    click(browser, link)
    until(
        browser,
        lambda d: d.current_url.startswith(f"https://{SHOP_HOST}/") and d.find_elements(By.ID, "shop-query"),
        15,
        f"the click did not reach the stub shop (at {browser.current_url})",
    )
    assert browser.find_element(By.TAG_NAME, "h1").text == "Stub shop"
    url = urlsplit(browser.current_url)
    assert (url.scheme, url.hostname, url.port, url.path) == ("https", SHOP_HOST, None, "/products/bundle")
    assert all(len(values) == 1 for values in parse_qs(url.query).values()), f"a parameter is repeated: {url.query}"
    sent = dict(parse_qsl(url.query, strict_parsing=True))
    assert {name: value for name, value in sent.items() if name not in ("ps_click", "ps_ts", "ps_sig")} == {
        "ref": "e2e",
        "utm_source": "popcornswirl",
        "utm_medium": "offer",
        "utm_campaign": str(offer_id),
        "ps_offer": str(offer_id),
        "ps_store": "popcornswirl",
        "ps_store_name": "PopcornSwirl",
        "ps_store_country": "US",
        "ps_placement": "banner",
        "ps_title_kind": "movie",
        "ps_title_id": str(FILM),
        "ps_title_name": title,
        "ps_title_year": film["releaseDate"][:4],
    }
    # The shop checks the signature with the README's own code, and a changed parameter fails it.
    readme = readme_shop_code()
    assert readme["verify_click"](browser.current_url, key)
    assert not readme["verify_click"](browser.current_url.replace("ps_placement=banner", "ps_placement=shop"), key)
    assert not readme["verify_click"](browser.current_url, "pss_" + "x" * 43)
    assert url.query.startswith("ref=e2e&"), "the landing page's own query comes first, untouched"
    # What the shop itself received (not just what the address bar says).
    assert browser.find_element(By.ID, "shop-query").text == url.query
    assert stub_shop.page_requests() == [f"{url.path}?{url.query}"]

    # The shop reports the order back from its server with the README's code: recorded once.
    assert readme["report_order"](app.base_url, shop, key, "E2E-1", sent["ps_click"], 4999) == 201
    assert readme["report_order"](app.base_url, shop, key, "E2E-1", sent["ps_click"], 4999) == 200

    # 4. The console's report for the offer: today has the impression, the click and the order.
    browser.get(app.url("/admin/offers"))
    click(browser, offer_row(browser, HEADLINE).find_element(By.XPATH, ".//a[normalize-space()='Report']"))
    table = wait_for(browser, "table.report-table")
    assert browser.find_element(By.TAG_NAME, "h1").text == f"Offer report: {HEADLINE}"
    assert urlsplit(browser.current_url).path == f"/admin/offers/{offer_id}/report"
    assert parse_qs(urlsplit(browser.current_url).query)["to"] == [today]
    rows = [report_cells(r) for r in table.find_elements(By.CSS_SELECTOR, "tbody tr")]
    assert rows[-1][0] == today and rows[-1][2] == 1 and rows[-1][1] >= 1, rows[-1]
    assert all(clicks == 0 for _, _, clicks in rows[:-1]), rows

    # Narrowed to today with the range form.
    browser.execute_script("document.getElementById('range-from').value = arguments[0]", today)
    submit(browser, "Show")
    query = parse_qs(urlsplit(browser.current_url).query)
    assert (query["from"], query["to"]) == ([today], [today]), browser.current_url
    table = wait_for(browser, "table.report-table")
    rows = [report_cells(r) for r in table.find_elements(By.CSS_SELECTOR, "tbody tr")]
    assert [(day, clicks) for day, _, clicks in rows] == [(today, 1)], rows
    total_day, impressions, clicks = report_cells(table.find_element(By.CSS_SELECTOR, "tfoot tr.totals"))
    assert (total_day, clicks) == ("Total", 1) and impressions >= 1, (total_day, impressions, clicks)
    headings = [text_of(cell) for cell in table.find_elements(By.CSS_SELECTOR, "thead th")]
    assert headings[-3:] == ["Orders", "Revenue (USD)", "Conversion"], headings
    totals = [text_of(cell) for cell in table.find_elements(By.CSS_SELECTOR, "tfoot td.num")]
    assert totals[-3:] == ["1", "49.99", "100.0 %"], totals
    assert browser.find_element(By.CSS_SELECTOR, "svg.report-chart").is_displayed()

    csv_link = browser.find_element(By.CSS_SELECTOR, "a.csv-link")
    assert csv_link.text == "Download CSV"
    csv_url = urlsplit(csv_link.get_attribute("href"))
    assert csv_url.path == f"/admin/offers/{offer_id}/report.csv"
    assert parse_qs(csv_url.query) == {"from": [today], "to": [today]}
    csv = fetch_text(browser, csv_link.get_attribute("href"))
    assert csv["status"] == 200, csv
    lines = csv["body"].splitlines()
    assert lines[0] == (
        "day,impressions,clicks,ctr_percent,discarded_repeat,discarded_cross_site,orders,revenue_usd,conversion_percent,"
        "discarded_address_cap"
    ) and len(lines) == 2, lines
    assert lines[1].startswith(f"{today},{impressions},1,") and lines[1].endswith(",0,0,1,49.99,100.00,0"), lines

    # Leave the shared app as it was for later files: pause the offer; its link then leads nowhere.
    browser.get(app.url("/admin/offers"))
    submit_button = offer_row(browser, HEADLINE).find_element(By.XPATH, ".//button[normalize-space()='Pause']")
    mark_page(browser)
    click(browser, submit_button)
    until(browser, lambda d: not same_page(d) and "done=paused" in d.current_url, 10, "pausing the offer failed")
    assert text_of(offer_row(browser, HEADLINE).find_element(By.CSS_SELECTOR, ".status")) == "Paused"
    assert status_of(app.url(f"/offers/{offer_id}/go?placement=banner&title=movie:{FILM}")) == 404


def test_the_console_shows_nothing_signed_out_with_a_wrong_password_or_to_a_non_admin(app, browser):
    sign_in(browser, app)
    assert DEMO_HEADLINE in text_of(browser.find_element(By.CSS_SELECTOR, "table.offers-table"))

    # Signed out (the POST form on the account page): the console is the sign-in form again.
    sign_out(browser, app)
    browser.get(app.url("/admin/offers"))
    assert_sign_in_form(browser)
    assert_no_console_data(browser)
    assert status_of(app.url("/admin/offers")) == 401

    # Without any cookie at all: the same.
    browser.delete_all_cookies()
    browser.get(app.url("/admin/offers"))
    assert_sign_in_form(browser)
    assert_no_console_data(browser)

    # A wrong password: still the sign-in form, with the error, and still no console.
    submit_credentials(browser, ADMIN_USERNAME, "not the console password at all", "Sign in")
    assert text_of(wait_for(browser, "p.alert[role=alert]")) == WRONG_CREDENTIALS
    assert_sign_in_form(browser)
    assert browser.find_element(By.CSS_SELECTOR, "#account-username").get_attribute("value") == ADMIN_USERNAME
    assert not browser.find_element(By.CSS_SELECTOR, "#account-password").get_attribute("value")
    assert not browser.find_elements(By.CSS_SELECTOR, "table.offers-table")
    assert_no_console_data(browser)

    # An ordinary account (not an administrator): 403 "Administrators only", no console data.
    username = f"viewer-{uuid.uuid4().hex[:10]}"
    sign_up(browser, app, username, "an ordinary viewer's passphrase")
    until(browser, lambda d: "/library" in d.current_url, 10, f"sign-up did not lead to My Lists ({browser.current_url})")
    browser.get(app.url("/admin/offers"))
    assert wait_for(browser, "main h1").text == "Administrators only"
    assert username in text_of(browser.find_element(By.CSS_SELECTOR, "main .message"))
    assert_no_console_data(browser)
    assert not browser.find_elements(By.CSS_SELECTOR, "form[action='/account/signin']")
    assert browser.execute_script(
        "return fetch('/admin/offers', {credentials: 'same-origin'}).then(r => r.status)"
    ) == 403


def test_demo_offers_hidden_by_default(stub, tmp_path, browser):
    """A fresh install of its own without DEMO_OFFERS=1 (the session app sets it): the film that
    the demo shops' horror offers target shows no Sponsored banner and no related shops, and the
    console says why."""
    own = launch_app(stub, tmp_path, {"DEMO_OFFERS": "0"})
    try:
        browser.get(own.url(f"/movies/{FILM}"))
        article = wait_for(browser, f'article.detail[data-movie-id="{FILM}"]')
        assert text_of(article.find_element(By.TAG_NAME, "h1"))
        assert not browser.find_elements(By.CSS_SELECTOR, "aside.offer-banner, section.shops, [data-offer-id]")
        main = text_of(browser.find_element(By.TAG_NAME, "main"))
        assert "Sponsored" not in main and "Shop related products" not in main
        assert ".example" not in browser.page_source

        sign_in(browser, own)
        assert DEMO_HEADLINE in text_of(browser.find_element(By.CSS_SELECTOR, "table.offers-table")), "the console still lists them"
        note = text_of(browser.find_element(By.CSS_SELECTOR, "section.demo-offers"))
        assert "hidden from visitors. Set DEMO_OFFERS=1 to show them." in note
        assert "Adding a real shop" in note
    finally:
        own.stop()
