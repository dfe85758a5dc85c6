#!/usr/bin/env python3
"""Sanity check for the bundled offline TV catalogue (Sources/App/Resources/catalog/shows.json and
episodes.json).

shows.json is a JSON array shaped like TVMaze's `GET /shows?page=N` response. episodes.json maps each
show's id (a string) to {"seasons": [TVMaze season objects], "episodes": [TVMaze episode objects in
airing order, specials included]}; it is written by scripts/make_offline_episodes.py.

Usage: python3 scripts/check_shows.py [SHOWS_JSON [EPISODES_JSON]]
Prints a summary line per file and exits non-zero if any check fails.
"""
import datetime
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_PATH = os.path.join(HERE, "..", "Sources", "App", "Resources", "catalog", "shows.json")
DEFAULT_EPISODES_PATH = os.path.join(HERE, "..", "Sources", "App", "Resources", "catalog", "episodes.json")
MIN_SHOWS = 40
FIRST_EPISODE_ID = 950000001  # synthetic ids, above every real TVMaze episode id
FIRST_SEASON_ID = 960000001
EPISODE_TYPES = ("regular", "significant_special", "insignificant_special")
EPISODE_KEYS = ("id", "url", "name", "season", "number", "type", "airdate", "airtime", "airstamp", "runtime",
                "rating", "image", "summary", "_links")
SEASON_KEYS = ("id", "url", "number", "name", "episodeOrder", "premiereDate", "endDate", "network", "webChannel",
               "image", "summary", "_links")
DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
TIME = re.compile(r"^([01]\d|2[0-3]):[0-5]\d$")
AIRSTAMP = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00$")


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


def is_int(value):
    return isinstance(value, int) and not isinstance(value, bool)


def parse_date(text):
    try:
        return datetime.date.fromisoformat(text) if isinstance(text, str) and DATE.match(text) else None
    except ValueError:
        return None


def parse_airstamp(text):
    try:
        return datetime.datetime.fromisoformat(text) if isinstance(text, str) and AIRSTAMP.match(text) else None
    except ValueError:
        return None


def check_episodes(path, shows):
    """Return (errors, counts) for the episode catalogue at `path`, given the shows of shows.json."""
    errors = []
    counts = {"shows": 0, "seasons": 0, "episodes": 0, "specials": 0}
    try:
        with open(path, encoding="utf-8") as handle:
            catalogue = json.load(handle)
    except (OSError, ValueError) as error:
        return [f"{path}: cannot read valid JSON: {error}"], counts
    if not isinstance(catalogue, dict):
        return [f"{path}: top level is {type(catalogue).__name__}, not an object"], counts

    show_ids = {str(s.get("id")) for s in shows if is_int(s.get("id"))}
    for show_id in sorted(show_ids - set(catalogue), key=int):
        errors.append(f"episodes: show {show_id} of shows.json has no entry")
    for key in sorted(set(catalogue) - show_ids):
        errors.append(f"episodes: entry {key!r} is not a show of shows.json")

    episode_ids, season_ids = {}, {}
    for show_id, entry in catalogue.items():
        where = f"episodes[{show_id}]"
        if not isinstance(entry, dict) or not isinstance(entry.get("seasons"), list) \
                or not isinstance(entry.get("episodes"), list):
            errors.append(f"{where}: not an object with seasons and episodes arrays")
            continue
        counts["shows"] += 1
        seasons = [s for s in entry["seasons"] if isinstance(s, dict)]
        episodes = [e for e in entry["episodes"] if isinstance(e, dict)]
        if len(seasons) != len(entry["seasons"]) or len(episodes) != len(entry["episodes"]):
            errors.append(f"{where}: a season or episode is not an object")
        if not episodes:
            errors.append(f"{where}: no episodes")
        counts["seasons"] += len(seasons)
        counts["episodes"] += len(episodes)

        regular_by_season = {}
        previous_stamp = None
        for index, episode in enumerate(episodes):
            at = f"{where}.episodes[{index}]"
            missing = [key for key in EPISODE_KEYS if key not in episode]
            if missing:
                errors.append(f"{at}: missing {', '.join(missing)}")
            episode_id = episode.get("id")
            if not is_int(episode_id) or episode_id < FIRST_EPISODE_ID:
                errors.append(f"{at}: id {episode_id!r} is not a synthetic id >= {FIRST_EPISODE_ID}")
            elif episode_id in episode_ids:
                errors.append(f"{at}: duplicate episode id {episode_id} (also {episode_ids[episode_id]})")
            else:
                episode_ids[episode_id] = at
            at = f"{at} ({episode.get('name')!r})"
            if not isinstance(episode.get("name"), str) or not episode["name"].strip():
                errors.append(f"{at}: name missing or empty")
            kind, number, season = episode.get("type"), episode.get("number"), episode.get("season")
            if kind not in EPISODE_TYPES:
                errors.append(f"{at}: type {kind!r} is not one of {', '.join(EPISODE_TYPES)}")
            if not is_int(season) or season < 0:
                errors.append(f"{at}: season {season!r} is not a non-negative int")
            if kind == "regular":
                if not is_int(number) or number < 1:
                    errors.append(f"{at}: regular episode with number {number!r}")
                elif is_int(season):
                    regular_by_season.setdefault(season, []).append((number, episode))
            elif kind in EPISODE_TYPES:
                counts["specials"] += 1
                if number is not None:
                    errors.append(f"{at}: special with number {number!r}, not null")
            airdate, airtime, stamp_text = episode.get("airdate"), episode.get("airtime"), episode.get("airstamp")
            day = parse_date(airdate)
            if airdate != "" and day is None:
                errors.append(f"{at}: airdate {airdate!r} is not YYYY-MM-DD")
            if not isinstance(airtime, str) or (airtime and not TIME.match(airtime)):
                errors.append(f"{at}: airtime {airtime!r} is not HH:MM or empty")
            stamp = None
            if stamp_text is not None:
                stamp = parse_airstamp(stamp_text)
                if stamp is None:
                    errors.append(f"{at}: airstamp {stamp_text!r} is not an ISO 8601 UTC instant (+00:00)")
                elif day is not None and abs((stamp.date() - day).days) > 1:
                    errors.append(f"{at}: airstamp {stamp_text} is more than a day from airdate {airdate}")
            elif day is not None:
                errors.append(f"{at}: airdate {airdate} but a null airstamp")
            if stamp is not None:
                if previous_stamp is not None and stamp < previous_stamp:
                    errors.append(f"{at}: airstamp {stamp_text} before the previous episode's (not airing order)")
                previous_stamp = stamp
            runtime = episode.get("runtime")
            if runtime is not None and (not is_int(runtime) or runtime <= 0):
                errors.append(f"{at}: runtime {runtime!r} is not a positive int or null")
            if not (episode.get("summary") is None or isinstance(episode.get("summary"), str)):
                errors.append(f"{at}: summary is not a string or null")

        for season, numbered in regular_by_season.items():
            numbers = sorted(number for number, _ in numbered)
            if numbers != list(range(1, len(numbers) + 1)):
                errors.append(f"{where}: season {season} regular numbers are not 1..{len(numbers)} "
                              f"each once (got {numbers[:5]}{'...' if len(numbers) > 5 else ''})")

        season_numbers = set()
        for index, season in enumerate(seasons):
            at = f"{where}.seasons[{index}]"
            missing = [key for key in SEASON_KEYS if key not in season]
            if missing:
                errors.append(f"{at}: missing {', '.join(missing)}")
            season_id, number = season.get("id"), season.get("number")
            if not is_int(season_id) or season_id < FIRST_SEASON_ID:
                errors.append(f"{at}: id {season_id!r} is not a synthetic id >= {FIRST_SEASON_ID}")
            elif season_id in season_ids:
                errors.append(f"{at}: duplicate season id {season_id} (also {season_ids[season_id]})")
            else:
                season_ids[season_id] = at
            if not is_int(number) or number in season_numbers:
                errors.append(f"{at}: number {number!r} missing or repeated")
                continue
            season_numbers.add(number)
            regular = [episode for _, episode in regular_by_season.get(number, [])]
            if season.get("episodeOrder") != len(regular):
                errors.append(f"{at}: episodeOrder {season.get('episodeOrder')!r} but {len(regular)} regular episodes")
            dates = sorted(e["airdate"] for e in regular if parse_date(e.get("airdate")))
            for key in ("premiereDate", "endDate"):
                value = season.get(key)
                if value is not None and parse_date(value) is None:
                    errors.append(f"{at}: {key} {value!r} is not YYYY-MM-DD or null")
            if dates and season.get("premiereDate") != dates[0]:
                errors.append(f"{at}: premiereDate {season.get('premiereDate')!r}, first episode aired {dates[0]}")
            if dates and len(dates) == len(regular) and season.get("endDate") != dates[-1]:
                errors.append(f"{at}: endDate {season.get('endDate')!r}, last episode aired {dates[-1]}")
        for season in sorted(set(regular_by_season) - season_numbers):
            errors.append(f"{where}: regular episodes in season {season}, which is not in seasons")
    return errors, counts


def main(argv):
    path = argv[1] if len(argv) > 1 else DEFAULT_PATH
    if len(argv) > 2:
        episodes_path = argv[2]
    elif len(argv) > 1:
        episodes_path = os.path.join(os.path.dirname(os.path.abspath(path)), "episodes.json")
    else:
        episodes_path = DEFAULT_EPISODES_PATH
    errors, shows = check(path)
    with_imdb = sum(
        1 for s in shows
        if isinstance(s.get("externals"), dict) and isinstance(s["externals"].get("imdb"), str) and s["externals"]["imdb"]
    )
    print(f"shows: {len(shows)} shows ({with_imdb} with IMDb ids)")
    episode_errors, counts = check_episodes(episodes_path, shows)
    errors += episode_errors
    print(f"episodes: {counts['episodes']} episodes ({counts['specials']} specials) in {counts['seasons']} "
          f"seasons for {counts['shows']} shows")
    for error in errors:
        print(f"  FAIL {error}", file=sys.stderr)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
