#!/usr/bin/env python3
"""Writes the TVMaze episode fixtures and the recorded answers derived from them (Python 3 stdlib only).

    python3 scripts/make_tvmaze_fixtures.py                 # episodes.json, then the answers
    python3 scripts/make_tvmaze_fixtures.py --answers-only  # only the answers, from the files as they are

Files, under Tests/AppTests/Fixtures/tvmaze/ (see README.md there):
  episodes.json   {"<show id>": {"seasons": [...], "episodes": [...]}} for every show of shows.json,
                  in TVMaze's own formats; episodes in airing order, specials included
  answers/show-<id>-embed.json             /shows/<id>?embed[]=episodes&embed[]=seasons&embed[]=nextepisode
  answers/show-<id>-episodes-specials.json /shows/<id>/episodes?specials=1
  answers/updates-shows-day.json           /updates/shows?since=day
The answers are built by the same code that serves them in scripts/stub_upstream.py, as of
ANSWERS_AT (2026-11-29T12:00:00Z). shows.json is read, never written; long-show.json is written by
scripts/make_long_show.py. Deterministic: the same files every run.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import random
import re
import sys
import unicodedata
from pathlib import Path
from zoneinfo import ZoneInfo

SCRIPTS = Path(__file__).resolve().parent
sys.path.insert(0, str(SCRIPTS))
import stub_upstream as stub  # noqa: E402  (the code the stub answers with)

REPO_ROOT = SCRIPTS.parent
TVMAZE_DIR = REPO_ROOT / "Tests" / "AppTests" / "Fixtures" / "tvmaze"
ANSWERS_AT = dt.datetime(2026, 11, 29, 12, 0, tzinfo=dt.timezone.utc)
ANSWER_SHOWS = (139, 590, 52491)
EMBEDS = ["episodes", "seasons", "nextepisode"]
WEB = "https://www.tvmaze.com"
STATIC = "https://static.tvmaze.com/uploads/images"
UTC = dt.timezone.utc


# --------------------------------------------------------------------------- format helpers


def slug(text: str) -> str:
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    return re.sub(r"[^a-z0-9]+", "-", ascii_text.lower()).strip("-")


def image(image_id: int | None, kind: str = "landscape") -> dict | None:
    """TVMaze keeps image N under folder N // 2500."""
    if image_id is None:
        return None
    folder = image_id // 2500
    return {
        "medium": f"{STATIC}/medium_{kind}/{folder}/{image_id}.jpg",
        "original": f"{STATIC}/original_untouched/{folder}/{image_id}.jpg",
    }


def airstamp(airdate: str, airtime: str, zone: dt.tzinfo) -> str | None:
    """UTC instant with a +00:00 offset; no airtime means noon where the show airs; no airdate, null."""
    if not airdate:
        return None
    hour, minute = (int(x) for x in airtime.split(":")) if airtime else (12, 0)
    local = dt.datetime.combine(dt.date.fromisoformat(airdate), dt.time(hour, minute), tzinfo=zone)
    return local.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S+00:00")


def show_zone(show: dict) -> dt.tzinfo:
    for key in ("network", "webChannel"):
        country = (show.get(key) or {}).get("country")
        if country and country.get("timezone"):
            return ZoneInfo(country["timezone"])
    return UTC


def episode(show: dict, *, id: int, season: int, number: int | None, name: str, airdate: str, airtime: str,
            runtime: int | None, rating: float | None = None, image_id: int | None = None,
            summary: str | None = None, type: str = "regular", daily: bool = False) -> dict:
    show_slug = slug(show["name"])
    if type != "regular":
        path = f"{show_slug}-s{season:02d}-special-{slug(name)}"
    elif daily and airdate:
        path = f"{show_slug}-{airdate}-{slug(name)}"
    else:
        path = f"{show_slug}-{season}x{number:02d}-{slug(name)}"
    if not airdate:
        airtime = ""
    return {
        "id": id,
        "url": f"{WEB}/episodes/{id}/{path}",
        "name": name,
        "season": season,
        "number": number if type == "regular" else None,
        "type": type,
        "airdate": airdate,
        "airtime": airtime,
        "airstamp": airstamp(airdate, airtime, show_zone(show)),
        "runtime": runtime,
        "rating": {"average": rating},
        "image": image(image_id),
        "summary": summary,
        "_links": {
            "self": {"href": f"{stub.TVMAZE_API}/episodes/{id}"},
            "show": {"href": f"{stub.TVMAZE_API}/shows/{show['id']}", "name": show["name"]},
        },
    }


def season(show: dict, *, id: int, number: int, episodes: list[dict], name: str = "",
           image_id: int | None = None, summary: str | None = "", episode_order: int | None = None) -> dict:
    """premiereDate/endDate come from the season's regular episodes; endDate stays null while one of
    them has no date yet."""
    regular = [e for e in episodes if e["season"] == number and e["type"] == "regular"]
    dates = [e["airdate"] for e in regular if e["airdate"]]
    return {
        "id": id,
        "url": f"{WEB}/seasons/{id}/{slug(show['name'])}-season-{number}",
        "number": number,
        "name": name,
        "episodeOrder": episode_order if episode_order is not None else (len(regular) or None),
        "premiereDate": min(dates) if dates else None,
        "endDate": max(dates) if dates and len(dates) == len(regular) else None,
        "network": show.get("network"),
        "webChannel": show.get("webChannel"),
        "image": image(image_id, "portrait"),
        "summary": summary,
        "_links": {"self": {"href": f"{stub.TVMAZE_API}/seasons/{id}"}},
    }


def weekly(first: dt.date, count: int, skip: set[dt.date] = frozenset()) -> list[str]:
    days, day = [], first
    while len(days) < count:
        if day not in skip:
            days.append(day.isoformat())
        day += dt.timedelta(days=7)
    return days


def d(text: str) -> dt.date:
    return dt.date.fromisoformat(text)


def pick(rng: random.Random, *choices):
    return rng.choice(choices)


# --------------------------------------------------------------------------- the shows

GIRLS_WORDS = (
    "Rent", "Open Mic", "The Sublet", "Bushwick Nights", "Second Draft", "Cold Brew", "The Wedding Toast",
    "Loft Party", "Deadline", "Mixtape", "Cab Ride Home", "The Book Deal", "Thin Walls", "Landlord",
    "Cover Letter", "Iowa", "Night Shift", "The Gallery", "Beach House", "Good Advice", "Plus One",
    "Subway Platform", "The Interview", "Clean Slate", "Old Friends", "Brunch", "The Reading", "Fire Escape",
    "Lease Renewal", "Grown Ups", "Housewarming", "The Retreat", "Move-In Day", "Unpaid", "Roommates",
    "The Audition", "Spring Cleaning", "Sick Day", "Long Weekend", "The Ex", "Late Checkout", "Blind Date",
    "Visiting Hours", "The Launch", "Overdraft", "Ferry Ride", "Home Movies", "Tough Love", "The Workshop",
    "Jury Duty", "Small Talk", "Dog Sitting", "Last Call", "Going Upstate", "Moving Boxes", "The Pitch",
    "Rain Check", "Happy Hour", "Pop-Up", "Full Circle",
)
GIRLS_PEOPLE = ("Hannah", "Marnie", "Jessa", "Shoshanna", "Adam", "Ray", "Elijah")
GIRLS_DOINGS = (
    "talks her way into a job she is not ready for", "throws a party that goes sideways",
    "tries to be honest and regrets it", "moves out in a hurry", "gets unexpected advice from a stranger",
    "takes a trip that does not go to plan", "finally says what everyone was thinking",
    "is asked for help and says yes too quickly", "faces the rent",
)


def girls(show: dict) -> tuple[list, list]:
    rng = random.Random(139)
    plan = [  # season, premiere, episodes, first id, season id, season image
        (1, "2012-04-15", 10, 12301, 466, 24051),
        (2, "2013-01-13", 10, 12311, 467, 24052),
        (3, "2014-01-12", 12, 12321, 468, 24053),
        (4, "2015-01-11", 10, 84611, 469, 60322),
        (5, "2016-02-21", 10, 563301, 6028, None),
        (6, "2017-02-12", 10, 1079677, 68747, 98410),
    ]
    names = iter(GIRLS_WORDS)
    episodes, seasons = [], []
    for number, premiere, count, first_id, _, _ in plan:
        # Season 3 opens with two episodes on one night, at 22:00 and 22:30.
        dates = weekly(d(premiere), count - 1 if number == 3 else count)
        slots = [(dates[0], "22:00"), (dates[0], "22:30")] + [(x, "22:00") for x in dates[1:]] if number == 3 \
            else [(x, "22:00") for x in dates]
        for i, (airdate, airtime) in enumerate(slots):
            n = i + 1
            name = "Pilot" if (number, n) == (1, 1) else "Latching" if (number, n) == (6, 10) else next(names)
            person = rng.choice(GIRLS_PEOPLE)
            episodes.append(episode(
                show, id=first_id + i, season=number, number=n, name=name, airdate=airdate, airtime=airtime,
                runtime=pick(rng, 28, 29, 30, 31, 34), rating=round(rng.uniform(6.6, 8.4), 1),
                image_id=400_000 + first_id % 100_000 + i,
                summary=f"<p>{person} {rng.choice(GIRLS_DOINGS)}.</p>",
            ))
    # A making-of aired the week before the premiere: an insignificant special, no airtime.
    episodes.append(episode(
        show, id=1512344, season=1, number=None, type="insignificant_special", name="Girls: Inside the Series",
        airdate="2012-04-08", airtime="", runtime=14, rating=None, image_id=None,
        summary="<p>Cast and crew talk about making the first season, with a look behind the scenes.</p>",
    ))
    for number, _, _, _, season_id, season_image in plan:
        seasons.append(season(show, id=season_id, number=number, episodes=episodes, image_id=season_image,
                              summary="" if number != 6 else "<p>The final season: everyone has to decide what comes next.</p>"))
    return seasons, episodes


POKEMON_PLACES = ("the Paldea Coast", "a Floating Island", "the Research Lab", "the Old Lighthouse", "Mesagoza",
                  "the Crystal Cave", "the Sky Harbor", "a Quiet Village", "the Flower Fields", "the Storm Peak")
POKEMON_PARTNERS = ("Sprigatito", "Fuecoco", "Quaxly", "Pikachu", "Charcadet", "Wattrel", "Tinkatink",
                    "Terapagos", "Rotom", "Hatenna", "Floragato", "Crocalor")
POKEMON_TEMPLATES = ("{p}'s Big Challenge!", "Into {place}!", "A Promise at {place}", "Go, {p}! Don't Give Up!",
                     "The Mystery of {place}", "{p} and {q}, Team Up!", "A Battle in {place}!",
                     "Where Did {p} Go?!", "The Night Before the Tournament", "{p} Learns a New Move!")
POKEMON_SUMMARIES = ("Liko and Roy reach {place}, where {p} has to prove itself.",
                     "The Explorers close in, and {p} and {q} must work together to escape.",
                     "A storm grounds the airship near {place}, and Dot takes charge.",
                     "Friede sets the crew a training exercise that {p} takes far too seriously.")


def pokemon(show: dict) -> tuple[list, list]:
    rng = random.Random(590)
    episodes: list[dict] = []

    def fill(number: int, dates: list[str], first_id: int, fixed: dict[int, str] | None = None) -> None:
        for i, airdate in enumerate(dates):
            p, q = rng.sample(POKEMON_PARTNERS, 2)
            place = rng.choice(POKEMON_PLACES)
            name = (fixed or {}).get(first_id + i) or rng.choice(POKEMON_TEMPLATES).format(p=p, q=q, place=place)
            aired = airdate < "2026-11-29"
            episodes.append(episode(
                show, id=first_id + i, season=number, number=i + 1, name=name, airdate=airdate, airtime="18:55",
                runtime=25, rating=round(rng.uniform(6.5, 8.1), 1) if aired else None,
                image_id=(1_160_000 + (first_id + i) % 100_000) if aired else None,
                summary=f"<p>{rng.choice(POKEMON_SUMMARIES).format(p=p, q=q, place=place)}</p>" if aired else None,
            ))

    # Season 27 (2024): ids end at 2937822/2937823 on 19 and 26 July, as shows.json's links say.
    s27 = weekly(d("2024-01-12"), 46, {d("2024-03-29"), d("2024-05-03"), d("2024-08-16"), d("2024-09-27")})
    at = s27.index("2024-07-19")
    fill(27, s27, 2937822 - at, {2937822: "The Mascot Pokémon Is Kingambit?!",
                                 2937823: "Dance, Quaxly! Dance the Blue Medali Dance!!"})
    s28 = weekly(d("2025-01-10"), 45, {d("2025-05-02"), d("2025-08-15"), d("2025-10-31")})
    fill(28, s28, 3112401)
    # Season 29 (2026): to 27 November, a winter break, two scheduled episodes in January 2027 and
    # two more announced without a date (airdate "", airstamp null).
    s29 = weekly(d("2026-01-09"), 45, {d("2026-05-01"), d("2026-08-14")}) + ["2027-01-08", "2027-01-15"]
    assert s29[-3] == "2026-11-27", s29[-3]
    fill(29, s29, 3391201)
    for i in range(2):
        episodes.append(episode(show, id=3391201 + len(s29) + i, season=29, number=len(s29) + 1 + i,
                                name="TBA", airdate="", airtime="", runtime=25))
    assert episodes[-3]["airdate"] == "2027-01-15" and episodes[-4]["airdate"] == "2027-01-08"
    # An hour-long special that the story goes through (significant) and a recap (insignificant).
    episodes.append(episode(
        show, id=3198760, season=28, number=None, type="significant_special",
        name="Voyage to the Sky Fortress", airdate="2025-08-14", airtime="19:00", runtime=50,
        rating=7.9, image_id=1_204_417,
        summary="<p>An hour-long special: the crew finally reaches the fortress in the clouds, and what "
                "they find there changes the journey.</p>",
    ))
    episodes.append(episode(
        show, id=3390001, season=29, number=None, type="insignificant_special", name="Recap: The Journey So Far",
        airdate="2026-08-14", airtime="18:55", runtime=25, rating=None, image_id=None,
        summary="<p>A look back at the season so far, told by Rotom.</p>",
    ))
    seasons = [
        season(show, id=160034, number=27, episodes=episodes, image_id=1_148_950),
        season(show, id=178812, number=28, episodes=episodes, image_id=1_190_221),
        season(show, id=193310, number=29, episodes=episodes, image_id=None,
               summary="<p>The airship heads for new skies while the Explorers regroup.</p>"),
    ]
    return seasons, episodes


def chicken_girls(show: dict) -> tuple[list, list]:
    rng = random.Random(32087)
    names = ("First Day", "Tryouts", "The New Girl", "Practice", "Homecoming", "Secrets", "The Rival Crew",
             "Group Chat", "Showcase", "Encore", "Summer Break", "The Move", "Sleepover", "Routine",
             "Trust Fall", "The Video", "Regionals", "Apology", "Last Dance", "The Finale")
    people = ("Rhyme", "Ellie", "Kayla", "Quinn", "Flynn", "Birdie")
    episodes = []
    for number, first, first_id in ((1, "2017-09-05", 1283001), (2, "2018-07-03", 1518606)):
        for i, airdate in enumerate(weekly(d(first), 10)):
            episodes.append(episode(
                show, id=first_id + i, season=number, number=i + 1, name=names[(number - 1) * 10 + i],
                airdate=airdate, airtime="18:00", runtime=rng.randint(11, 18), rating=None,
                image_id=(490_000 + first_id % 10_000 + i) if number == 2 else None,
                summary=f"<p>{rng.choice(people)} has a week of rehearsals, rumours and one big decision.</p>",
            ))
    seasons = [season(show, id=80611, number=1, episodes=episodes, image_id=None),
               season(show, id=90411, number=2, episodes=episodes, image_id=501_233)]
    return seasons, episodes


def midnight_gospel(show: dict) -> tuple[list, list]:
    rng = random.Random(45499)
    names = ("Taste of the King", "Hunger Pains", "Officers and Wizards", "Annihilation of Joy",
             "Vulture With Honor", "Blinded by My End", "Turtles and Time", "Mouse of Silver")
    worlds = ("a zombie-overrun city", "a clown planet", "a prison world", "a deer-filled afterlife",
              "a world inside a dream", "a collapsing castle", "a swamp of floating eyes", "the end of time")
    episodes = [
        episode(show, id=1830608 + i, season=1, number=i + 1, name=name, airdate="2020-04-20", airtime="",
                runtime=rng.randint(20, 36), rating=round(rng.uniform(6.8, 8.2), 1), image_id=625_870 + i,
                summary=f"<p>Clancy visits {worlds[i]} and talks about life with whoever he meets there.</p>")
        for i, name in enumerate(names)
    ]
    return [season(show, id=104560, number=1, episodes=episodes, image_id=625_868)], episodes


def wonder_egg(show: dict) -> tuple[list, list]:
    rng = random.Random(52491)
    names = ("Look Out Below", "The Sound of Glass", "A Night of Friends", "Wall of Smiles",
             "Confessions", "Ten-Cent Ring", "Perfect Sunday", "Promises", "The Fake", "Nobody Knows",
             "Cracked Shell", "The Ninth Egg")
    episodes = [
        episode(show, id=1995801 + i, season=1, number=i + 1, name=name, airdate=airdate, airtime="01:29",
                runtime=25, rating=round(rng.uniform(7.0, 8.3), 1), image_id=730_740 + i,
                summary=f"<p>Ai breaks another egg and fights for a girl she never knew{' — and finds an ally' if i % 3 == 1 else ''}.</p>")
        for i, (name, airdate) in enumerate(zip(names, weekly(d("2021-01-12"), 12)))
    ]
    episodes.append(episode(
        show, id=2056317, season=1, number=None, type="significant_special", name="My Priority",
        airdate="2021-06-30", airtime="01:29", runtime=50, rating=6.9, image_id=740_312,
        summary="<p>A special that picks up where the series stopped and ties off its story.</p>",
    ))
    return [season(show, id=118402, number=1, episodes=episodes, image_id=730_732)], episodes


BUILDERS = {139: girls, 590: pokemon, 32087: chicken_girls, 45499: midnight_gospel, 52491: wonder_egg}


# --------------------------------------------------------------------------- files


def write_json(path: Path, data, compact: bool = False) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    if compact:  # as TVMaze sends it
        text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    else:
        text = json.dumps(data, ensure_ascii=False, indent=2)
    path.write_text(text + "\n", encoding="utf-8")


def build_episodes(shows: list[dict]) -> dict:
    out = {}
    for show in shows:
        builder = BUILDERS.get(show["id"])
        seasons, episodes = builder(show) if builder else ([], [])  # Snow (62693): not made yet
        out[str(show["id"])] = {"seasons": seasons, "episodes": sorted(episodes, key=stub.airing_order)}
    ids = [e["id"] for entry in out.values() for e in entry["episodes"]]
    season_ids = [s["id"] for entry in out.values() for s in entry["seasons"]]
    assert len(ids) == len(set(ids)) and len(season_ids) == len(set(season_ids)), "ids must be unique"
    return out


def write_answers() -> None:
    catalog = stub.Catalog(REPO_ROOT / "Sources" / "App" / "Resources" / "catalog", TVMAZE_DIR.parent)
    index = catalog.tv_index()
    episode_ids = [e for eps in index.episodes.values() for e in eps]
    assert len({e["id"] for e in episode_ids}) == len(episode_ids), "episode ids collide with long-show.json"
    answers = TVMAZE_DIR / "answers"
    for show_id in ANSWER_SHOWS:
        write_json(answers / f"show-{show_id}-embed.json",
                   stub.show_with_embeds(index, show_id, EMBEDS, ANSWERS_AT, ANSWERS_AT), compact=True)
        write_json(answers / f"show-{show_id}-episodes-specials.json",
                   stub.show_episodes(index, show_id, specials=True), compact=True)
    write_json(answers / "updates-shows-day.json", stub.updates_answer(index, "day", ANSWERS_AT, ANSWERS_AT), compact=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--answers-only", action="store_true", help="keep episodes.json, rewrite the answers")
    args = parser.parse_args(argv)
    if not args.answers_only:
        shows = json.loads((TVMAZE_DIR / "shows.json").read_text(encoding="utf-8"))
        write_json(TVMAZE_DIR / "episodes.json", build_episodes(shows))
    write_answers()
    return 0


if __name__ == "__main__":
    sys.exit(main())
