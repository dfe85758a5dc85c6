"""The import page in a real browser: a Letterboxd export ZIP (diary, ratings, watchlist and a list
in Letterboxd's two-part list format) is uploaded, the bar and the counts follow the background
worker in place and the page loads itself again when the import is done; the row no film was
found for waits in Needs a match and is resolved by a search; then the films, ratings, diary days
and lists are where the rest of the app shows them."""

from __future__ import annotations

import uuid
import zipfile
from pathlib import Path

from selenium.common.exceptions import TimeoutException, WebDriverException
from selenium.webdriver.common.by import By

from conftest import wait_for
from helpers import click, mark_page, same_page, sign_up, submit, text_of, until

PASSWORD = "popcorn import 3b9e"

# Films of the bundled catalogue (Sources/App/Resources/catalog/movies-2024.json), which the stub
# upstream's /search?term= finds by a piece of their name: each name below finds that film alone.
DUNE, CIVIL_WAR, CHALLENGERS, HIT_MAN, CONCLAVE, FURIOSA, ANORA = (
    9100000141, 9100000142, 9100000143, 9100000146, 9100000156, 9100000145, 9100000155,
)
# No catalogue file has a film of this name: its row waits in Needs a match.
UNKNOWN = "The Quokka Vault Job"
LIST_NAME = "Heists"

DIARY = """\ufeffDate,Name,Year,Letterboxd URI,Rating,Rewatch,Tags,Watched Date
2025-03-02,Dune: Part Two,2024,https://boxd.it/e2e1,4.5,,,2025-03-01
2025-03-09,Civil War,2024,https://boxd.it/e2e2,4,,,2025-03-08
2025-03-16,Challengers,2024,https://boxd.it/e2e3,3.5,,"tennis, rewatchable",2025-03-15
2025-03-23,The Quokka Vault Job,2024,https://boxd.it/e2e4,3,,,2025-03-22
"""
RATINGS = """\ufeffDate,Name,Year,Letterboxd URI,Rating
2025-03-02,Dune: Part Two,2024,https://boxd.it/e2eA,4.5
2025-03-09,Civil War,2024,https://boxd.it/e2eB,4
2025-04-01,Hit Man,2024,https://boxd.it/e2eC,3.5
"""
WATCHLIST = """\ufeffDate,Name,Year,Letterboxd URI
2025-04-02,Conclave,2024,https://boxd.it/e2eD
2025-04-03,Furiosa: A Mad Max Saga,2024,https://boxd.it/e2eE
"""
HEISTS = f"""\ufeffLetterboxd list export v7
Date,Name,Tags,URL,Description
2025-04-04,{LIST_NAME},,https://letterboxd.com/e2e/list/heists/,Capers and cons

Position,Name,Year,URL,Description
1,Hit Man,2024,https://boxd.it/e2eF,
2,Dune: Part Two,2024,https://boxd.it/e2eG,A spice heist
"""
ROWS = 4 + 3 + 2 + 2


def letterboxd_zip(directory: Path) -> Path:
    """A Letterboxd export ZIP, its members in the order Letterboxd writes them (the diary first)."""
    path = directory / f"letterboxd-e2e-{uuid.uuid4().hex[:6]}.zip"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("profile.csv", "Date Joined,Username\n2020-01-01,e2e\n")
        archive.writestr("diary.csv", DIARY.encode("utf-8"))
        archive.writestr("ratings.csv", RATINGS.encode("utf-8"))
        archive.writestr("watchlist.csv", WATCHLIST.encode("utf-8"))
        archive.writestr("lists/heists.csv", HEISTS.encode("utf-8"))
    return path


PROGRESS_JS = """
const p = document.getElementById('import-progress');
if (!p || document.readyState !== 'complete') return null;
const field = n => { const e = p.querySelector('[data-field="' + n + '"]'); return e ? e.textContent.trim() : null; };
const bar = document.getElementById('import-bar');
return {same: window.__popcornSamePage === 'still here', active: p.dataset.active,
        value: bar ? Number(bar.value) : null, max: bar ? Number(bar.max) : null,
        percent: field('percent'), processed: field('processed'), total: field('total'),
        landed: field('landed'), queued: field('queued'), failed: field('failed'), skipped: field('skipped'),
        state: field('stateText')};
"""


def progress(driver) -> dict | None:
    """What the progress section shows now (None while a page is loading)."""
    try:
        return driver.execute_script(PROGRESS_JS)
    except WebDriverException:  # read while the page reloads itself
        return None


def match_row(driver):
    articles = driver.find_elements(By.CSS_SELECTOR, "#needs-a-match article.import-match")
    assert len(articles) == 1, [text_of(a) for a in articles]
    return articles[0]


def press_in(driver, container, button_text: str) -> None:
    """Presses a button of `container`'s forms and waits for the page its form leads to."""
    mark_page(driver)
    click(driver, container.find_element(By.XPATH, f".//form//button[normalize-space()='{button_text}']"))
    until(
        driver,
        lambda d: not same_page(d) and d.execute_script("return document.readyState") == "complete",
        15,
        f"pressing {button_text!r} did not load a page",
    )


def test_a_letterboxd_export_is_imported_with_a_live_bar_and_its_unmatched_row_resolved(app, browser, stub, tmp_path):
    driver = browser
    sign_up(driver, app, f"import-{uuid.uuid4().hex[:8]}", PASSWORD)
    # Every film but one is in PopcornSwirl's title index and matches at once; the one it lacks is
    # searched on iTunes, slowed here so that the import lasts past a few of app.js's 2-second polls
    # (within the app's 3-second upstream wait): the bar is seen moving, not only done.
    stub.set(latency_ms=2500, scope="itunes")

    driver.get(app.url("/import"))
    # The form's action carries its token (`/import?csrf=…`): an upload is not read before it is checked.
    file_input = wait_for(driver, "form[action^='/import?csrf='] input#import-file[type=file][name=file]")
    assert file_input.find_element(By.XPATH, "ancestor::form").get_attribute("enctype") == "multipart/form-data"
    file_input.send_keys(str(letterboxd_zip(tmp_path)))
    submit(driver, "Import")
    assert driver.current_url.endswith("/import?done=started"), driver.current_url
    assert "Your file was read" in text_of(driver.find_element(By.CSS_SELECTOR, ".import-page .success"))
    first = until(driver, progress, 10, "no progress section after the upload")
    assert first["active"] == "1", first
    assert first["state"] in ("Waiting to start", "Importing"), first
    assert first["max"] == 100 and 0 <= first["value"] < 100, first
    assert not driver.find_elements(By.ID, "import-file"), "no second upload while an import is under way"

    # Watch without touching the page: app.js updates it in place, then reloads it once it is done.
    mark_page(driver)
    seen: list[dict] = []

    def reloaded_when_done(d):
        shown = progress(d)
        if shown is None:
            return False
        seen.append(shown)
        return not shown["same"] and shown["active"] == "0"

    try:
        until(driver, reloaded_when_done, 45)
    except TimeoutException:
        raise AssertionError(f"the page did not load itself again when the import ended; last seen: {seen[-1:]}") from None
    stub.set(latency_ms=0)
    final = seen[-1]
    values = [s["value"] for s in seen]
    assert all(0 <= v <= 100 for v in values), values
    assert values == sorted(values), f"the bar went back: {values}"
    assert final["value"] == 100 and final["percent"] == "100", final
    live = [s for s in seen if s["same"]]
    assert any(s["value"] > first["value"] or s["processed"] != first["processed"] for s in live), (
        f"app.js never moved the bar or the counts in place: first {first}, then {sorted({(s['value'], s['processed']) for s in live})}"
    )
    assert all(s["percent"] == str(s["value"]) for s in seen), "the bar and the percentage disagree"
    assert final["state"] == "Done: some rows need a match", final
    assert (final["processed"], final["total"]) == (str(ROWS), str(ROWS)), final
    # Dune's and Civil War's ratings.csv rows say what their diary rows already said.
    assert (final["landed"], final["queued"], final["failed"], final["skipped"]) == ("8", "1", "0", "2"), final

    # Needs a match: the row nothing was found for; a search finds the film, which is chosen.
    row = match_row(driver)
    assert text_of(row.find_element(By.CSS_SELECTOR, "h3")) == f"“{UNKNOWN}” (2024)"
    search = row.find_element(By.CSS_SELECTOR, "form[method=get] input[name=q]")
    search.clear()
    search.send_keys("Anora")
    press_in(driver, row, "Search")
    row = match_row(driver)
    assert "Found for “Anora”" in text_of(row.find_element(By.CSS_SELECTOR, "legend"))
    choice = row.find_element(By.CSS_SELECTOR, f"input[type=radio][name=choice][value='movie:{ANORA}']")
    assert text_of(choice.find_element(By.XPATH, "ancestor::label")) == "Anora (2024)"
    click(driver, choice)
    assert choice.is_selected()
    press_in(driver, row, "Use this")
    assert driver.current_url.endswith("/import?done=matched"), driver.current_url
    assert "The row was imported." in text_of(driver.find_element(By.CSS_SELECTOR, ".import-page .success"))
    assert not driver.find_elements(By.ID, "needs-a-match"), "no row waits any more"
    after = progress(driver)
    assert (after["state"], after["landed"], after["queued"]) == ("Done", "9", "0"), after

    # The diary: a watch per dated row, on its day, the chosen film's too.
    driver.get(app.url("/diary"))
    wait_for(driver, ".diary-entry")
    entries = {
        (text_of(e.find_element(By.CSS_SELECTOR, ".diary-title")), e.find_element(By.CSS_SELECTOR, "time").get_attribute("datetime"))
        for e in driver.find_elements(By.CSS_SELECTOR, ".diary-entry")
    }
    assert entries == {
        ("Dune: Part Two", "2025-03-01"),
        ("Civil War", "2025-03-08"),
        ("Challengers", "2025-03-15"),
        ("Anora", "2025-03-22"),
    }, entries
    assert "#tennis #rewatchable" in text_of(driver.find_element(By.XPATH, "//li[@class='diary-entry'][.//a[.='Challengers']]"))

    # The list named in lists/heists.csv, in its order; the watchlist is Favorites, not a list.
    driver.get(app.url("/lists"))
    names = {text_of(a): a.get_attribute("href") for a in driver.find_elements(By.CSS_SELECTOR, "a.custom-list-name")}
    assert LIST_NAME in names and "Watchlist" not in names, names
    driver.get(names[LIST_NAME])
    until(driver, lambda d: d.find_elements(By.CSS_SELECTOR, ".list-item-title"), 10, "the imported list is empty")
    assert [text_of(e) for e in driver.find_elements(By.CSS_SELECTOR, ".list-item-title")] == ["Hit Man", "Dune: Part Two"]
    driver.get(app.url("/library?list=favorites"))
    wait_for(driver, ".grid .card[data-movie-id]")
    favorites = {text_of(e) for e in driver.find_elements(By.CSS_SELECTOR, ".grid .card .card-title")}
    assert {"Conclave", "Furiosa: A Mad Max Saga"} <= favorites, favorites

    # My Lists (all saved): the ratings, from the diary, from ratings.csv alone and the chosen
    # film's row; the films of the diary are watched. Read from the cards, without an upstream call.
    driver.get(app.url("/library?list=all"))
    wait_for(driver, ".grid .card[data-movie-id]")
    cards = {
        int(card.get_attribute("data-movie-id")): (
            card.find_element(By.CSS_SELECTOR, "select[name=rating]").get_attribute("value"),
            card.find_element(By.CSS_SELECTOR, ".btn-watched").get_attribute("aria-pressed"),
        )
        for card in driver.find_elements(By.CSS_SELECTOR, ".grid .card[data-movie-id]")
    }
    assert {film: cards.get(film) for film in (DUNE, CIVIL_WAR, CHALLENGERS, ANORA, HIT_MAN)} == {
        DUNE: ("9", "true"),
        CIVIL_WAR: ("8", "true"),
        CHALLENGERS: ("7", "true"),
        ANORA: ("6", "true"),
        HIT_MAN: ("7", "false"),
    }, cards
    assert cards.get(CONCLAVE, ("0", "false")) == ("0", "false") and cards.get(FURIOSA, ("0", "false")) == ("0", "false"), cards

    # A film's page: its rating (4½ stars), its watch on the day of the diary and its lists.
    driver.get(app.url(f"/movies/{DUNE}"))
    picker = wait_for(driver, ".detail select[name=rating]")
    assert picker.get_attribute("value") == "9"
    assert text_of(picker.find_element(By.CSS_SELECTOR, "option:checked")) == "4½ stars"
    days = [e.get_attribute("datetime") for e in driver.find_elements(By.CSS_SELECTOR, "#diary .diary-entry time")]
    assert days == ["2025-03-01"], days
    held = [text_of(a) for a in driver.find_elements(By.CSS_SELECTOR, "#lists p:first-of-type a")]
    assert held == [LIST_NAME], held
