#!/usr/bin/env python3
"""Writes Tests/AppTests/Fixtures/tvmaze/long-show.json (Python 3 stdlib only).

    python3 scripts/make_long_show.py

One show in TVMaze's format, id 990001, "The Morning Swirl": a daily talk show, status Running, with
`_embedded` {"episodes", "seasons"} as /shows/990001?embed[]=episodes&embed[]=seasons answers: more
than 1,200 regular episodes, weekdays at 09:00 New York time from 13 September 2021, one season per
calendar year as TVMaze numbers daily shows (2021 … 2027). It breaks for New Year's Day, the Fourth of
July, Thanksgiving and the day after, and the last week of December; after Thanksgiving 2026 it is off
until 4 January 2027, so its last five episodes (4–8 January 2027) are still to air on 2026-11-29.
`_links` and `updated` are as of 2026-11-29T12:00:00Z. Deterministic: names and summaries come from
a random generator with a fixed seed.
"""

from __future__ import annotations

import datetime as dt
import json
import random
import sys
from pathlib import Path

SCRIPTS = Path(__file__).resolve().parent
sys.path.insert(0, str(SCRIPTS))
import make_tvmaze_fixtures as fx  # noqa: E402
import stub_upstream as stub  # noqa: E402

OUT = fx.TVMAZE_DIR / "long-show.json"
SEED = 990001
FIRST_DAY = dt.date(2021, 9, 13)
LAST_DAY = dt.date(2027, 1, 8)
HIATUS = (dt.date(2026, 11, 26), dt.date(2027, 1, 3))
FIRST_EPISODE_ID = 4_000_001
FIRST_SEASON_ID = 9_900_101

FIRST_NAMES = ("Maya", "Jonah", "Priya", "Luis", "Grace", "Tomasz", "Aisha", "Ben", "Carmen", "Dev", "Elena",
               "Farid", "Hana", "Isaac", "June", "Kofi", "Lena", "Marco", "Nadia", "Owen", "Rosa", "Sam",
               "Tess", "Victor", "Wen", "Yara", "Zoe")
LAST_NAMES = ("Ortiz", "Baker", "Nair", "Moreno", "Holt", "Kowal", "Rahman", "Foster", "Reyes", "Shah",
              "Petrova", "Haddad", "Sato", "Green", "Park", "Mensah", "Berg", "Rossi", "Karimi", "Doyle",
              "Lopez", "Quinn", "Varga", "Wu", "Young")
TOPICS = ("a new cookbook", "the weekend's weather", "a hometown hero", "back-to-school tips", "a rescue dog",
          "holiday travel", "a science fair winner", "budget recipes", "a community garden", "a new album",
          "a marathon runner", "kitchen gadgets", "a local bakery", "winter coats", "a debut novel")

SHOW = {
    "id": 990001,
    "url": "https://www.tvmaze.com/shows/990001/the-morning-swirl",
    "name": "The Morning Swirl",
    "type": "Talk Show",
    "language": "English",
    "genres": [],
    "status": "Running",
    "runtime": 60,
    "averageRuntime": 60,
    "premiered": FIRST_DAY.isoformat(),
    "ended": None,
    "officialSite": "https://www.example.com/the-morning-swirl",
    "schedule": {"time": "09:00", "days": ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday"]},
    "rating": {"average": 5.9},
    "weight": 71,
    "network": {
        "id": 9901,
        "name": "Swirl Syndication",
        "country": {"name": "United States", "code": "US", "timezone": "America/New_York"},
        "officialSite": None,
    },
    "webChannel": None,
    "dvdCountry": None,
    "externals": {"tvrage": None, "thetvdb": None, "imdb": None},
    "image": fx.image(1_320_001, "portrait"),
    "summary": "<p><b>The Morning Swirl</b> is a live weekday talk show: two hosts, a studio audience, guests "
               "from the news and the neighbourhood, and a cooking segment that rarely goes to plan.</p>",
    "updated": 0,
    "_links": {},
}


def thanksgiving(year: int) -> dt.date:
    first = dt.date(year, 11, 1)
    first_thursday = first + dt.timedelta(days=(3 - first.weekday()) % 7)
    return first_thursday + dt.timedelta(weeks=3)


def on_air(day: dt.date) -> bool:
    if day.weekday() >= 5:
        return False
    if HIATUS[0] <= day <= HIATUS[1]:
        return False
    if (day.month, day.day) in ((1, 1), (7, 4)) or (day.month == 12 and day.day >= 24):
        return False
    turkey = thanksgiving(day.year)
    return day not in (turkey, turkey + dt.timedelta(days=1))


def main() -> int:
    rng = random.Random(SEED)
    episodes, numbers = [], {}
    day = FIRST_DAY
    while day <= LAST_DAY:
        if on_air(day):
            season_number = day.year
            numbers[season_number] = numbers.get(season_number, 0) + 1
            number = numbers[season_number]
            guests = [f"{rng.choice(FIRST_NAMES)} {rng.choice(LAST_NAMES)}" for _ in range(rng.choice((1, 2, 2, 3)))]
            aired = day < fx.ANSWERS_AT.date()
            summary = None
            if aired and rng.random() < 0.3:
                summary = f"<p>{' and '.join(guests)} join the hosts; also, {rng.choice(TOPICS)}.</p>"
            episodes.append(fx.episode(
                SHOW, id=FIRST_EPISODE_ID + len(episodes), season=season_number, number=number,
                name="; ".join(guests) if aired or number <= 3 else f"Episode {number}",
                airdate=day.isoformat(), airtime="09:00", runtime=60, rating=None, image_id=None,
                summary=summary, daily=True,
            ))
        day += dt.timedelta(days=1)
    seasons = [
        fx.season(SHOW, id=FIRST_SEASON_ID + i, number=year, episodes=episodes, image_id=None, summary=None)
        for i, year in enumerate(sorted(numbers))
    ]
    show = dict(SHOW)
    show["updated"] = stub.show_updated(show, fx.ANSWERS_AT)
    show["_links"] = stub.show_links(show, episodes, fx.ANSWERS_AT)
    show["_embedded"] = {"episodes": episodes, "seasons": seasons}
    OUT.parent.mkdir(parents=True, exist_ok=True)
    # One episode per line: a 1 MB file that still diffs line by line.
    lines = ",\n".join(json.dumps(e, ensure_ascii=False, separators=(",", ":")) for e in episodes)
    head = json.dumps({k: v for k, v in show.items() if k != "_embedded"}, ensure_ascii=False, indent=2)[:-2]
    seasons_text = json.dumps(seasons, ensure_ascii=False, separators=(",", ":"))
    OUT.write_text(f'{head},\n  "_embedded": {{"episodes": [\n{lines}\n],\n"seasons": {seasons_text}}}\n}}\n',
                   encoding="utf-8")
    json.loads(OUT.read_text(encoding="utf-8"))  # it must parse
    future = [e for e in episodes if e["airdate"] >= fx.ANSWERS_AT.date().isoformat()]
    print(f"{OUT.relative_to(fx.REPO_ROOT)}: {len(episodes)} episodes in {len(seasons)} seasons, "
          f"{len(future)} to air after {fx.ANSWERS_AT.date()}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
