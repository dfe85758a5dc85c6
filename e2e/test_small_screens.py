"""Every page on a 320 px phone (the narrowest in use), in a real browser, and My Lists' sort and
filter panel.

At 320 px, on every page with its content (films saved, watches over two years, a list, an API
token, an import with rows that need a match and rows that failed, the advertiser console):
  - no element's box reaches past the window's right edge, except inside a container that
    scrolls sideways and says so ("Scroll sideways for more", app.js's is-scrollable);
  - the top bar is one row, no taller than at 412 px;
  - a table's column names are seen: its header row, or each value's own label where the table
    is laid out as blocks;
  - a chart's words are at least 11 px high and do not run into each other.
The navigation's icons are SVG drawn in currentColor, not emoji (drawn as empty boxes where no
emoji font is installed).
The sort and filter panel stays open after a sort alone is chosen, and the address after Show
holds only what was chosen; without JavaScript the form's empty fields are answered with a 303 to
the clean address.
"""

from __future__ import annotations

import re
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from dataclasses import dataclass

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from conftest import ADMIN_PASSWORD, ADMIN_USERNAME, PHONE_SIZE, _browser, wait_for
from helpers import click, fill, post_form, sign_in, sign_up, submit, submit_credentials, text_of, until

NARROW = (320, 640)
PASSWORD = "narrow screens 4c7e"
# Films of the bundled 2026 catalogue (the stub serves them as iTunes' answers) and a TVMaze show.
HUNGER_GAMES, STREET_FIGHTER, CAT_IN_THE_HAT = 9100000216, 9100000214, 9100000215
GIRLS = 139
LIST_NAME = "Weekend with the family and friends"
# A Letterboxd diary: one film found at once, one no catalogue has (it waits in Needs a match),
# one with a rating out of range and one without a name (both fail).
DIARY_CSV = """Date,Name,Year,Letterboxd URI,Rating,Rewatch,Tags,Watched Date
2025-03-02,Dune: Part Two,2024,https://boxd.it/e2s1,4.5,,,2025-03-01
2025-03-23,The Quokka Vault Job,2024,https://boxd.it/e2s2,3,,,2025-03-22
2025-03-24,Civil War,2024,https://boxd.it/e2s3,11,,,2025-03-23
2025-03-25,,2024,https://boxd.it/e2s4,3,,,2025-03-24
"""
EMOJI = re.compile("[\U0001F000-\U0001FAFF\u2300-\u23FF\u2600-\u27BF\u2B00-\u2BFF\uFE0F\u200D]")

# What a page shows past its right edge, its top bar's rows, its tables' column names and its
# charts' words, as a list of problems (empty when all is well).
PAGE_PROBLEMS_JS = r"""
const width = document.documentElement.clientWidth;
const problems = [];
const name = e => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '')
  + (typeof e.className === 'string' && e.className.trim() ? '.' + e.className.trim().split(/\s+/).join('.') : '');
const shown = e => { const r = e.getBoundingClientRect(); const s = getComputedStyle(e);
  return r.width > 1 && r.height > 1 && s.visibility !== 'hidden' && s.display !== 'none'; };
// A container that scrolls sideways and says so: overflow-x auto/scroll and the visible cue.
const saysItScrolls = c => c.classList.contains('is-scrollable')
  && /Scroll sideways/.test(getComputedStyle(c, '::before').content);
// Past the right edge: the element itself when no ancestor clips it; nothing when an ancestor
// clips it (hidden/clip: that ancestor is checked itself) or scrolls and says so. Each is told once:
// the outermost element past the edge, the container that scrolls without saying so.
const told = new Set();
for (const e of document.body.querySelectorAll('*')) {
  if (e.parentElement && told.has(e.parentElement)) { told.add(e); continue; }
  if (!shown(e) || e.closest('dialog:not([open])')) continue;
  const right = e.getBoundingClientRect().right;
  if (right <= width + 0.5) continue;
  let clipper = null;
  for (let p = e.parentElement; p && p !== document.body; p = p.parentElement) {
    if (getComputedStyle(p).overflowX !== 'visible') { clipper = p; break; }
  }
  if (!clipper) { problems.push(`${name(e)} reaches ${Math.round(right)} px in a ${width} px window`); told.add(e); continue; }
  const overflow = getComputedStyle(clipper).overflowX;
  if ((overflow === 'auto' || overflow === 'scroll') && !saysItScrolls(clipper) && !told.has(clipper)) {
    problems.push(`${name(clipper)} scrolls sideways (${name(e)} reaches ${Math.round(right)} px) and does not say so`);
    told.add(clipper);
  }
}
// The top bar: one row (every item beside the others), its height for the caller.
const bar = document.querySelector('.topbar');
const items = [...bar.children].filter(c => shown(c) && getComputedStyle(c).position !== 'fixed').map(c => c.getBoundingClientRect());
if (items.length && Math.max(...items.map(r => r.top)) >= Math.min(...items.map(r => r.bottom))) {
  problems.push(`the top bar has more than one row (${Math.round(bar.getBoundingClientRect().height)} px high)`);
}
// Tables: the header row is seen, or each value carries its column's name.
const visibleText = th => { const c = th.cloneNode(true); c.querySelectorAll('.visually-hidden, .sr-only').forEach(x => x.remove()); return c.textContent.trim(); };
for (const table of document.querySelectorAll('main table')) {
  if (!shown(table)) continue;
  const heads = [...table.querySelectorAll('thead th')];
  if (heads.every(shown)) continue;  // seen (past the edge only inside a container that says it scrolls: above)
  for (const row of table.querySelectorAll('tbody tr')) {
    [...row.cells].forEach((cell, index) => {
      const head = heads[index] ? visibleText(heads[index]) : '';
      if (index === 0 || !head || !shown(cell) || !cell.textContent.trim()) return;
      if (!getComputedStyle(cell, '::before').content.includes(head)) {
        problems.push(`${name(table)}: “${cell.textContent.trim().slice(0, 30)}” is shown without its column name “${head}”`);
      }
    });
  }
}
// Charts: every word drawn at 11 px or more, and none running into the next.
for (const chart of document.querySelectorAll('main svg[role=img]')) {
  const words = [...chart.querySelectorAll('text')].filter(t => getComputedStyle(t).display !== 'none' && t.getBoundingClientRect().width > 0);
  for (const t of words) {
    const size = parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a;
    if (size < 11) problems.push(`${name(chart)}: “${t.textContent}” is drawn ${size.toFixed(1)} px high`);
  }
  const boxes = words.map(t => [t.textContent, t.getBoundingClientRect()]).sort((a, b) => a[1].left - b[1].left);
  for (let i = 1; i < boxes.length; i++) {
    const [a, ra] = boxes[i - 1], [b, rb] = boxes[i];
    if (Math.abs(ra.top - rb.top) < 2 && rb.left < ra.right) problems.push(`${name(chart)}: “${a}” runs into “${b}”`);
  }
}
return {problems, bar: bar.getBoundingClientRect().height};
"""


@dataclass
class Person:
    username: str
    list_path: str


@pytest.fixture
def narrow_browser(request):
    """Headless Chromium 320 px wide (an iPhone SE's first generation, small Androids), fresh profile."""
    yield from _browser(request, NARROW)


def log_watch(driver, app, film: int, day: str) -> None:
    driver.get(app.url(f"/movies/{film}"))
    driver.execute_script("arguments[0].value = arguments[1]", wait_for(driver, "#diary-day"), day)
    submit(driver, text_of(driver.find_element(By.CSS_SELECTOR, "form.diary-log button[type=submit]")))


@pytest.fixture(scope="module")
def person(app, request, tmp_path_factory) -> Person:
    """An account with something on every page: favorites, a rated watched film with a note, a
    favorite show, watches in 2025 and 2026, a list of three films, an API token and an import."""
    browsers = _browser(request, PHONE_SIZE)
    driver = next(browsers)
    try:
        username = f"narrow-{uuid.uuid4().hex[:8]}"
        sign_up(driver, app, username, PASSWORD)
        for path, fields in (
            (f"/library/movies/{HUNGER_GAMES}", {"favorite": "1"}),
            (f"/library/movies/{STREET_FIGHTER}", {"favorite": "1"}),
            (f"/library/movies/{CAT_IN_THE_HAT}", {"watched": "1", "note": "Rhymes all the way down."}),
            (f"/library/movies/{CAT_IN_THE_HAT}", {"rating": "7"}),
            (f"/library/shows/{GIRLS}", {"favorite": "1"}),
        ):
            result = post_form(driver, app, path, {"return_to": "/", **fields})
            assert result["status"] == 200, (path, result)
        for film, day in ((CAT_IN_THE_HAT, "2025-06-01"), (STREET_FIGHTER, "2025-07-12"), (HUNGER_GAMES, "2026-01-03")):
            log_watch(driver, app, film, day)

        driver.get(app.url("/lists"))
        fill(driver, "#list-name", LIST_NAME)
        submit(driver, "Create list")
        list_path = urllib.parse.urlsplit(driver.current_url).path
        for film in (HUNGER_GAMES, STREET_FIGHTER, CAT_IN_THE_HAT):
            driver.get(app.url(f"/movies/{film}"))
            Select(wait_for(driver, "#add-to-list")).select_by_visible_text(LIST_NAME)
            submit(driver, "Add to list")

        driver.get(app.url("/account"))
        fill(driver, "form.token-form input[name=name]", "backup script")
        fill(driver, "form.token-form input[name=password]", PASSWORD)
        submit(driver, "Create token")

        diary = tmp_path_factory.mktemp("import") / "diary.csv"
        diary.write_text(DIARY_CSV, encoding="utf-8")
        driver.get(app.url("/import"))
        wait_for(driver, "input#import-file").send_keys(str(diary))
        submit(driver, "Import")
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            driver.get(app.url("/import"))
            if driver.find_elements(By.CSS_SELECTOR, "#import-progress[data-active='0']"):
                break
            time.sleep(0.5)
        assert driver.find_elements(By.CSS_SELECTOR, "#needs-a-match .import-match"), "the import left no row to match"
        assert driver.find_elements(By.CSS_SELECTOR, "table.import-problems tbody tr"), "the import reported no failed row"
        yield Person(username, list_path)
    finally:
        browsers.close()


def check(driver, app, path: str, open_filter: bool = False) -> dict:
    driver.get(app.url(path))
    wait_for(driver, "main")
    if open_filter and wait_for(driver, "details.list-filter").get_attribute("open") is None:
        click(driver, driver.find_element(By.CSS_SELECTOR, "details.list-filter summary"))
        until(driver, lambda d: d.find_element(By.CSS_SELECTOR, "details.list-filter").get_attribute("open") is not None)
    until(driver, lambda d: d.execute_script("return document.readyState") == "complete")
    return driver.execute_script(PAGE_PROBLEMS_JS)


def assert_fits(app, narrow, wide, pages: list[tuple[str, bool]]) -> None:
    """Each page at 320 px has no problem, and its top bar is no taller than at 412 px."""
    found = []
    for path, open_filter in pages:
        small = check(narrow, app, path, open_filter)
        phone = check(wide, app, path, open_filter)
        found += [f"{path}: {problem}" for problem in small["problems"]]
        if small["bar"] > phone["bar"] + 0.5:
            found.append(f"{path}: the top bar is {small['bar']:.0f} px high at 320 px, {phone['bar']:.0f} px at 412 px")
    assert not found, "\n".join(found)


def test_every_page_fits_a_320_px_screen(app, person, narrow_browser, browser):
    for driver in (narrow_browser, browser):
        sign_in(driver, app, person.username, PASSWORD)
    assert_fits(app, narrow_browser, browser, [
        ("/", False), ("/movies?year=2019", False), (f"/movies/{CAT_IN_THE_HAT}", False), ("/search?q=magic", False),
        ("/shows", False), (f"/shows/{GIRLS}", False),
        ("/library?list=all", True), ("/library?list=favorites", False), ("/library?list=watched", False),
        ("/library?list=all&kind=movie&sort=title", False),
        ("/diary", False), ("/stats", False), ("/stats?year=2025", False), ("/lists", False), (person.list_path, False),
        ("/account", False), ("/import", False),
    ])


def test_the_advertiser_console_fits_a_320_px_screen(app, narrow_browser, browser):
    for driver in (narrow_browser, browser):
        driver.get(app.url("/account/signin?next=/admin"))
        submit_credentials(driver, ADMIN_USERNAME, ADMIN_PASSWORD, "Sign in")
    browser.get(app.url("/admin"))
    report = wait_for(browser, "table.offers-table a[href*='/report']").get_attribute("href")
    assert_fits(app, narrow_browser, browser, [("/admin", False), (urllib.parse.urlsplit(report).path, False)])


def test_the_navigation_draws_svg_icons_not_emoji(app, narrow_browser):
    driver = narrow_browser
    driver.get(app.url("/"))
    for css in (".brand", ".tabs"):
        text = driver.find_element(By.CSS_SELECTOR, css).get_attribute("textContent")
        assert not EMOJI.findall(text), f"{css} holds emoji {EMOJI.findall(text)}"
    tabs = driver.find_elements(By.CSS_SELECTOR, ".tabs a")
    assert [text_of(tab) for tab in tabs] == ["Movies", "Search", "TV Shows", "My Lists"]
    for link in [driver.find_element(By.CSS_SELECTOR, ".brand"), *tabs]:
        icons = link.find_elements(By.CSS_SELECTOR, "svg")
        assert len(icons) == 1, f"{text_of(link)!r} has {len(icons)} svg icons"
        icon = icons[0]
        assert icon.get_attribute("aria-hidden") == "true" and icon.get_attribute("focusable") == "false"
        assert icon.rect["width"] >= 16 and icon.rect["height"] >= 16, f"{text_of(link)!r}: its icon is {icon.rect}"
        assert "currentColor" in (icon.get_attribute("stroke"), icon.get_attribute("fill")), f"{text_of(link)!r}: not drawn in currentColor"
        assert icon.find_elements(By.CSS_SELECTOR, "path, rect, circle"), f"{text_of(link)!r}: an empty icon"


def query_of(driver) -> list[tuple[str, str]]:
    return urllib.parse.parse_qsl(urllib.parse.urlsplit(driver.current_url).query, keep_blank_values=True)


def show_filter(driver) -> None:
    submit(driver, "Show")
    wait_for(driver, "details.list-filter")


def test_the_filter_panel_stays_open_on_a_sort_and_the_address_holds_only_what_was_chosen(app, narrow_browser):
    driver = narrow_browser
    for film in (HUNGER_GAMES, STREET_FIGHTER):
        assert post_form(driver, app, f"/library/movies/{film}", {"favorite": "1", "return_to": "/"})["status"] == 200
    driver.get(app.url("/library?list=all"))
    panel = wait_for(driver, "details.list-filter")
    assert panel.get_attribute("open") is None, "the panel starts closed while nothing differs from the default"
    click(driver, panel.find_element(By.CSS_SELECTOR, "summary"))

    Select(wait_for(driver, "#filter-sort", visible=True)).select_by_value("title")
    show_filter(driver)
    assert query_of(driver) == [("list", "all"), ("sort", "title")], driver.current_url
    assert driver.find_element(By.CSS_SELECTOR, "details.list-filter").get_attribute("open") is not None, "a sort alone closed the panel"

    Select(driver.find_element(By.ID, "filter-sort")).select_by_value("changed")
    fill(driver, "#filter-year", "2026")
    show_filter(driver)
    assert query_of(driver) == [("list", "all"), ("year", "2026")], driver.current_url
    assert driver.find_element(By.CSS_SELECTOR, "details.list-filter").get_attribute("open") is not None

    # Back on the sorted page, its fields are as they were (sent only while the form was sent).
    driver.back()
    until(driver, lambda d: ("sort", "title") in query_of(d))
    fields = driver.find_elements(By.CSS_SELECTOR, ".list-filter select, .list-filter input")
    assert fields and not [f.get_attribute("name") for f in fields if not f.is_enabled()]


class NoRedirects(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def answer(url: str) -> tuple[int, str | None]:
    try:
        with urllib.request.build_opener(NoRedirects).open(url, timeout=10) as response:
            return response.status, response.headers.get("Location")
    except urllib.error.HTTPError as error:
        return error.code, error.headers.get("Location")


def test_without_javascript_empty_filter_fields_are_answered_with_the_clean_address(app, nojs_browser):
    empty = "genre=&year=&rated=&q="
    assert answer(app.url(f"/library?list=all&sort=changed&{empty}")) == (303, "/library?list=all")
    assert answer(app.url(f"/library?list=watched&kind=movie&sort=title&{empty}")) == (303, "/library?list=watched&kind=movie&sort=title")
    assert answer(app.url("/library?list=all&sort=changed&genre=Drama&year=&q=+")) == (303, "/library?list=all&genre=Drama")
    assert answer(app.url("/library?list=all&sort=title&year=2026")) == (200, None)
    assert answer(app.url("/library?list=all")) == (200, None)

    # The form itself, sent without JavaScript, ends on the clean address with the panel open.
    driver = nojs_browser
    driver.get(app.url("/library?list=all"))
    click(driver, wait_for(driver, "details.list-filter summary"))
    Select(wait_for(driver, "#filter-sort", visible=True)).select_by_value("title")
    show_filter(driver)
    assert query_of(driver) == [("list", "all"), ("sort", "title")], driver.current_url
    assert driver.find_element(By.CSS_SELECTOR, "details.list-filter").get_attribute("open") is not None
