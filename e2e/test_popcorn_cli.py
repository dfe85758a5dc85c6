"""`popcorn`, the terminal client on PopcornSwirlKit, end to end: signed in with a personal token,
it reads a year and a show while the server is up; with the server stopped it still shows them
from its store and keeps a favourite, a film watched with a comment, a note and an episode
checked; once the server is back, `popcorn sync` sends them, and each is on the server exactly
once: in the API and on the web app's pages."""

from __future__ import annotations

import json
import os
import subprocess
import urllib.request
import uuid
from pathlib import Path

from selenium.webdriver.common.by import By

from conftest import APP_BINARY, CLI_TIMEOUT, launch_app, stop_process
from helpers import sign_in, sign_up, text_of, until

POPCORN = Path(__file__).resolve().parent.parent / ".build" / "debug" / "popcorn"
PASSWORD = "popcorn terminal 4be1"
GIRLS, PILOT = 139, 12301


def popcorn(home: Path, *args: str, ok: bool = True) -> str:
    env = dict(os.environ, POPCORN_HOME=str(home))
    result = subprocess.run([str(POPCORN), *args], capture_output=True, text=True, env=env, timeout=CLI_TIMEOUT)
    if ok:
        assert result.returncode == 0, f"popcorn {' '.join(args)} exited {result.returncode}:\n{result.stdout}{result.stderr}"
    return result.stdout


def api(app, path: str, token: str):
    request = urllib.request.Request(app.url(path), headers={"Authorization": f"Bearer {token}"})
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read().decode("utf-8"))


def test_popcorn_works_offline_and_syncs_each_change_once(stub, browser, tmp_path):
    assert os.access(POPCORN, os.X_OK), f"{POPCORN} missing: `swift build --product popcorn` (scripts/test builds it)"
    (tmp_path / "server").mkdir()
    app = launch_app(stub, tmp_path / "server")
    try:
        username = f"terminal-{uuid.uuid4().hex[:8]}"
        sign_up(browser, app, username, PASSWORD)
        made = subprocess.run(
            [str(APP_BINARY), "create-token", "--username", username, "--name", "popcorn"],
            capture_output=True, text=True, cwd=app.tmpdir, env=app.env, timeout=CLI_TIMEOUT,
        )
        assert made.returncode == 0, made.stderr
        token = made.stdout.strip().splitlines()[-1]
        home = tmp_path / "popcorn-home"
        assert "Signed in" in popcorn(home, "login", "--server", app.base_url, "--token", token)
        assert oct((home / "settings.json").stat().st_mode & 0o777) == "0o600", "the token's file is its owner's alone"

        # Online: a year's films and a show, kept in the store as they come.
        year = popcorn(home, "movies", "--year", "2024")
        films = [line.split()[0] for line in year.splitlines() if line[:2].strip() == "" and line.split() and line.split()[0].isdigit()]
        assert len(films) >= 2, year
        first, second = films[0], films[1]
        show = popcorn(home, "show", str(GIRLS))
        assert "Girls" in show and f"{PILOT}  S01E01" in show, show

        # The server goes away: the same screens from the store, and changes kept.
        app.stop()
        offline_year = popcorn(home, "movies", "--year", "2024")
        assert "Offline" in offline_year and first in offline_year, offline_year
        assert "Saved on this device" in popcorn(home, "favorite", first)
        assert "Saved on this device" in popcorn(home, "watched", second, "--comment", "Watched on the train")
        assert "Saved on this device" in popcorn(home, "note", first, "Rewatch with subtitles")
        assert "Saved on this device" in popcorn(home, "episode", "--show", str(GIRLS), str(PILOT))
        status = popcorn(home, "status")
        assert status.startswith("4 waiting, 0 refused."), status
        assert f"★  {first}" in popcorn(home, "movies", "--year", "2024"), "shown at once, offline"
        assert f"✓ {PILOT}" in popcorn(home, "show", str(GIRLS))
        failed = subprocess.run(
            [str(POPCORN), "sync"], capture_output=True, text=True, env=dict(os.environ, POPCORN_HOME=str(home)), timeout=CLI_TIMEOUT
        )
        assert failed.returncode == 2 and "4 change(s) wait" in failed.stdout, failed.stdout

        # Back: one sync sends the four, once; a second sends nothing.
        app.start()
        synced = popcorn(home, "sync")
        assert synced.startswith("Sent 4, superseded 0, refused 0"), synced
        assert popcorn(home, "sync").startswith("Sent 0, superseded 0, refused 0")
        assert popcorn(home, "status").startswith("0 waiting, 0 refused.")

        library = {entry["id"]: entry for entry in api(app, "/api/v1/library?list=all", token)["items"]}
        assert library[int(first)]["favorite"] and library[int(first)]["note"] == "Rewatch with subtitles"
        assert library[int(second)]["watched"] and library[int(second)]["note"] == "Watched on the train"
        diary = api(app, "/api/v1/diary", token)["items"]
        assert [entry["titleId"] for entry in diary].count(int(second)) == 1, diary
        assert [entry.get("episode", {}).get("id") for entry in diary].count(PILOT) == 1, diary
        episodes = api(app, f"/api/v1/shows/{GIRLS}/episodes", token)
        pilot = next(e for e in episodes["seasons"][0]["episodes"] if e["id"] == PILOT)
        assert pilot["watched"] and pilot["watchCount"] == 1

        # And on the web app's pages, as the person sees them.
        sign_in(browser, app, username, PASSWORD)
        browser.get(app.url("/library?list=favorites"))
        until(browser, lambda d: d.find_elements(By.CSS_SELECTOR, f"[data-id='{first}'], a[href='/movies/{first}']"), 10, "not in Favorites")
        browser.get(app.url("/diary"))
        page = text_of(browser.find_element(By.TAG_NAME, "main"))
        assert "Watched on the train" in page and page.count("Pilot") == 1, page
    finally:
        stop_process(app.process)
