"""A TV Time GDPR export in a real browser, as someone who unzipped it would bring it: the four CSV
files of its folder chosen together in the file picker. The import runs in the background; the
show TVMaze does not know waits in Needs a match with each of its rows, is picked once by a search,
and every other row of it follows; then the shows are where the rest of the app shows them: the
archived one Stopped, the watched episodes checked on their days, Up Next, the favourite."""

from __future__ import annotations

import shutil
import subprocess
import uuid
from pathlib import Path

from selenium.common.exceptions import TimeoutException
from selenium.webdriver.common.by import By

from conftest import APP_BINARY, CLI_TIMEOUT, wait_for
from helpers import click, mark_page, same_page, sign_up, submit, text_of, until
from test_import import progress

PASSWORD = "popcorn tvtime 71c2"
FIXTURES = Path(__file__).resolve().parent.parent / "Tests" / "AppTests" / "Fixtures" / "tvtime"
FILES = ["tracking-prod-records-v2.csv", "tracking-prod-records.csv", "followed_tv_show.csv", "user_tv_show_data.csv"]
MOTHS = "Moths of Varrow Fen, and Other Stories"
# The stub's TVMaze shows (Tests/AppTests/Fixtures/tvmaze/shows.json).
GIRLS, GOSPEL, WONDER_EGG = 139, 45499, 52491


def wait_done(driver, timeout: float = 60) -> dict:
    """Waits, without touching the page, until the import is done and the page has loaded itself again."""
    seen: list[dict] = []

    def done(d):
        shown = progress(d)
        if shown is None:
            return False
        seen.append(shown)
        return shown["active"] == "0" and d.execute_script("return document.readyState") == "complete"

    try:
        until(driver, done, timeout)
    except TimeoutException:
        raise AssertionError(f"the import did not end; last seen: {seen[-1:]}") from None
    return seen[-1]


def test_a_tv_time_folder_is_imported_and_its_unknown_show_picked_once(app, browser, stub, tmp_path):
    driver = browser
    sign_up(driver, app, f"tvtime-{uuid.uuid4().hex[:8]}", PASSWORD)
    folder = tmp_path / "tv-time-personal-data"
    folder.mkdir()
    paths = [shutil.copy(FIXTURES / name, folder / name) for name in FILES]

    driver.get(app.url("/import"))
    intro = text_of(driver.find_element(By.CSS_SELECTOR, ".import-page > p"))
    assert "TV Time" in intro and "Simkl" in intro, intro
    file_input = wait_for(driver, "input#import-file[type=file][multiple]")
    file_input.send_keys("\n".join(str(p) for p in paths))
    submit(driver, "Import")
    assert driver.current_url.endswith("/import?done=started"), driver.current_url
    heading = text_of(driver.find_element(By.ID, "import-progress-heading"))
    assert heading == "TV Time: tracking-prod-records-v2.csv and 3 more", heading
    final = wait_done(driver)
    assert final["state"] == "Done: some rows need a match", final
    assert final["total"] == final["processed"], final
    queued = int(final["queued"])  # the unknown show's 5 rows, and the films the stub's iTunes lacks
    assert int(final["failed"]) == 6, final  # Pokémon's season 1 (5) is not in the stub's list, nor The Midnight Gospel's S01E09

    failures = [text_of(td) for td in driver.find_elements(By.CSS_SELECTOR, ".import-problems td[data-label=Why]")]
    assert any("TVMaze lists no S01E09 of “The Midnight Gospel”" in f for f in failures), failures

    # Needs a match: each of the show's rows says which watch it is; one search and one pick.
    articles = driver.find_elements(By.CSS_SELECTOR, "#needs-a-match article.import-match")
    headings = [text_of(a.find_element(By.CSS_SELECTOR, "h3")) for a in articles]
    assert len(headings) == queued and sum(MOTHS in h for h in headings) == 5, headings
    assert f"“{MOTHS}”: S01E01, watched 2026-06-14" in headings, headings
    row = next(a for a in articles if text_of(a.find_element(By.CSS_SELECTOR, "h3")) == f"“{MOTHS}”: S01E01, watched 2026-06-14")
    number = row.find_element(By.CSS_SELECTOR, "input[name=row]").get_attribute("value")
    search = row.find_element(By.CSS_SELECTOR, "form[method=get] input[name=q]")
    search.clear()
    search.send_keys("Wonder Egg")
    mark_page(driver)
    click(driver, row.find_element(By.XPATH, ".//form[@method='get']//button[normalize-space()='Search']"))
    until(driver, lambda d: not same_page(d) and d.execute_script("return document.readyState") == "complete", 15, "the search did not load")
    row = driver.find_element(By.XPATH, f"//article[.//input[@name='row' and @value='{number}']]")
    choice = row.find_element(By.CSS_SELECTOR, f"input[type=radio][name=choice][value='show:{WONDER_EGG}']")
    click(driver, choice)
    mark_page(driver)
    click(driver, row.find_element(By.XPATH, ".//form[@method='post']//button[normalize-space()='Use this']"))
    until(driver, lambda d: not same_page(d) and d.execute_script("return document.readyState") == "complete", 15, "the choice did not load")
    assert "Rows of the same title take your choice too." in text_of(driver.find_element(By.CSS_SELECTOR, ".import-page .success"))
    # The other four rows of the show go back to the worker, and land.
    after = wait_done(driver)
    settled = lambda shown: int(shown["landed"]) + int(shown["skipped"])  # noqa: E731
    assert int(after["queued"]) == queued - 5 and settled(after) == settled(final) + 5, after
    assert int(after["landed"]) == int(final["landed"]) + 2, after  # its two watches; its follow and data are there by then
    left = [text_of(h) for h in driver.find_elements(By.CSS_SELECTOR, "#needs-a-match article.import-match h3")]
    assert not any(MOTHS in h for h in left), left

    # Girls: archived on TV Time, so Stopped; its season 6 watches checked.
    driver.get(app.url(f"/shows/{GIRLS}?season=6"))
    status = wait_for(driver, ".episode-progress .tag")
    assert text_of(status) == "Stopped", text_of(status)
    assert "5 of 62 aired episodes watched" in text_of(driver.find_element(By.CSS_SELECTOR, ".episode-progress"))

    # The Midnight Gospel: in Up Next with its next episode; Girls is not (Stopped); the picked show is.
    driver.get(app.url("/shows/up-next"))
    wait_for(driver, "main")
    page = text_of(driver.find_element(By.TAG_NAME, "main"))
    assert "The Midnight Gospel" in page and "Wonder Egg Priority" in page, page
    assert "Girls" not in page.replace("Chicken Girls", ""), page

    # The diary: the watches on their days, the rewatch-free duplicate counted once.
    driver.get(app.url("/diary"))
    wait_for(driver, ".diary-entry")
    days = [e.get_attribute("datetime") for e in driver.find_elements(By.CSS_SELECTOR, ".diary-entry time")]
    assert days.count("2026-03-06") == 1, days  # The Midnight Gospel S01E02, twice in the file
    assert "2026-06-21" in days and "2026-02-21" in days, days


def test_popcornswirl_import_takes_the_folder_of_a_tv_time_export(app, browser, tmp_path):
    """`popcornswirl import --username NAME FOLDER`: the CSVs of the folder read as one export, the
    command waiting until every row is dealt with; what it imported is on the person's pages."""
    username = f"tvcli-{uuid.uuid4().hex[:8]}"
    sign_up(browser, app, username, PASSWORD)
    folder = tmp_path / "tv-time-personal-data"
    folder.mkdir()
    for name in FILES:
        shutil.copy(FIXTURES / name, folder / name)
    (folder / "notes.txt").write_text("not part of the export")
    result = subprocess.run(
        [str(APP_BINARY), "import", "--username", username, str(folder)],
        capture_output=True, text=True, cwd=app.tmpdir, env=app.env, timeout=CLI_TIMEOUT * 2,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    last = result.stdout.strip().splitlines()[-1]
    assert last.startswith("done: ") and "0 imported" not in last and "6 failed" in last, result.stdout
    browser.get(app.url(f"/shows/{GIRLS}?season=6"))
    assert text_of(wait_for(browser, ".episode-progress .tag")) == "Stopped"
    missing = subprocess.run(
        [str(APP_BINARY), "import", "--username", username, str(tmp_path / "nowhere")],
        capture_output=True, text=True, cwd=app.tmpdir, env=app.env, timeout=CLI_TIMEOUT,
    )
    assert missing.returncode != 0 and "There is no file" in missing.stdout + missing.stderr
