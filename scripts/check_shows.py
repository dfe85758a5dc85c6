#!/usr/bin/env python3
"""Sanity check for the bundled offline TV catalogue (Sources/App/Resources/catalog/shows.json).

The file is a JSON array shaped like TVMaze's `GET /shows?page=N` response.

Usage: python3 scripts/check_shows.py [SHOWS_JSON]
Prints a one-line summary and exits non-zero if any check fails.
"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_PATH = os.path.join(HERE, "..", "Sources", "App", "Resources", "catalog", "shows.json")
MIN_SHOWS = 40


def check(path):
    """Return (errors, shows) for the catalogue at `path`."""
    errors = []
    try:
        with open(path, encoding="utf-8") as handle:
            shows = json.load(handle)
    except (OSError, ValueError) as error:
        return [f"{path}: cannot read valid JSON: {error}"], []
    if not isinstance(shows, list):
        return [f"{path}: top level is {type(shows).__name__}, not an array"], []
    if len(shows) < MIN_SHOWS:
        errors.append(f"only {len(shows)} shows, need at least {MIN_SHOWS}")

    seen = {}
    for index, show in enumerate(shows):
        where = f"shows[{index}]"
        if not isinstance(show, dict):
            errors.append(f"{where}: not an object")
            continue
        show_id = show.get("id")
        if not isinstance(show_id, int) or isinstance(show_id, bool):
            errors.append(f"{where}: id {show_id!r} is not an int")
        elif show_id in seen:
            errors.append(f"{where}: duplicate id {show_id} (also shows[{seen[show_id]}])")
        else:
            seen[show_id] = index
        where = f"{where} ({show.get('name')!r})"
        for key in ("name", "url"):
            if not isinstance(show.get(key), str) or not show[key].strip():
                errors.append(f"{where}: {key} missing or not a non-empty string")
        if "summary" not in show or not (show["summary"] is None or isinstance(show["summary"], str)):
            errors.append(f"{where}: summary missing or not a string/null")
        if not isinstance(show.get("genres"), list) or not all(isinstance(g, str) for g in show["genres"]):
            errors.append(f"{where}: genres missing or not a list of strings")
        externals = show.get("externals")
        if not isinstance(externals, dict) or "imdb" not in externals:
            errors.append(f"{where}: externals missing or has no imdb key")

    objects = [s for s in shows if isinstance(s, dict)]
    if not any(s.get("image", "missing") is None for s in objects):
        errors.append("no show with a null image")
    if not any(isinstance(s.get("externals"), dict) and s["externals"].get("imdb", "missing") is None for s in objects):
        errors.append("no show with a null IMDb id")
    if not any(s.get("network", "missing") is None and isinstance(s.get("webChannel"), dict) for s in objects):
        errors.append("no show with a null network and a webChannel")
    if not any(s.get("genres") == [] for s in objects):
        errors.append("no show with an empty genres list")
    return errors, objects


def main(argv):
    path = argv[1] if len(argv) > 1 else DEFAULT_PATH
    errors, shows = check(path)
    with_imdb = sum(
        1 for s in shows
        if isinstance(s.get("externals"), dict) and isinstance(s["externals"].get("imdb"), str) and s["externals"]["imdb"]
    )
    print(f"shows: {len(shows)} shows ({with_imdb} with IMDb ids)")
    for error in errors:
        print(f"  FAIL {error}", file=sys.stderr)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
