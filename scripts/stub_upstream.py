#!/usr/bin/env python3
"""A stub of PopcornSwirl's upstream APIs, for tests and benchmarks (Python 3 stdlib only).

Serves, on one port of 127.0.0.1, in the upstreams' own wire formats:

  iTunes Search API
    GET /search?term=YYYY&media=movie&entity=movie&attribute=releaseYearTerm&limit=200
        films of that release year, from Sources/App/Resources/catalog/movies-YYYY.json
        (padded with synthetic films up to --pad-to N)
    GET /search?term=TEXT&media=movie&entity=movie
        films of every catalogue file whose trackName contains TEXT (case-insensitive)
    GET /lookup?id=ID[,ID...]
  Images
    GET /img/<host>/<path...>          a small solid-colour PNG (60x90)
  TVMaze (fixtures Tests/AppTests/Fixtures/tvmaze/: shows.json, episodes.json, long-show.json)
    GET /shows?page=N   GET /shows/ID   GET /search/shows?q=   GET /singlesearch/shows?q=
    GET /lookup/shows?imdb=tt… | ?thetvdb=N   (301 to /shows/ID, 404 when unknown)
    GET /shows/ID?embed[]=episodes&embed[]=seasons&embed[]=nextepisode
        any subset and order of episodes, seasons, nextepisode, previousepisode (also embed=X,
        and embed%5B%5D=X percent-encoded); `_embedded` keys follow the request's order,
        embedded episodes leave specials out, nextepisode/previousepisode are absent when there
        is none; with an embed the show's `_links` (previousepisode/nextepisode) and `updated`
        are recomputed against the current time (a plain /shows/ID is served as stored)
    GET /shows/ID/episodes          regular episodes, in airing order
    GET /shows/ID/episodes?specials=1   the same with specials (number null)
    GET /shows/ID/seasons   GET /seasons/ID/episodes   GET /episodes/ID[?embed=show]
    GET /updates/shows[?since=day|week|month]   {"<show id>": <unix time>, ...}; a show's time is
        its stored `updated`, or for the shows of UPDATE_AGES the stub's start time minus that age
    Every show of shows.json has its seasons and episodes in episodes.json; the long show
    (long-show.json, id 990001, >1,200 episodes) answers /shows/990001 and the routes above but is
    never listed by /shows?page=N nor found by the searches and lookups. Unknown ids answer 404
    like an unknown show.
  OMDb (fixture Tests/AppTests/Fixtures/omdb/movies.json; the only valid key is `test-key`)
    GET /?apikey=K&t=TITLE[&y=YEAR]   GET /?apikey=K&i=ttID   GET /?apikey=K&s=TEXT

Control (never affected by the failure mode or the latency):
    GET  /_control          current state as JSON
    POST /_control          JSON body with any of: mode, latency_ms, scope, pad_to
    GET  /_stats            {"requests": {"itunes": n, "tvmaze": n, "omdb": n, "img": n}} (GET only; HEAD probes are not counted)
    POST /_stats/reset      zero the counters

Modes: ok | 403 | 429 | 500 | malformed | drop | hang.  Scopes: all | itunes | tvmaze | omdb | img.

On start the stub prints exactly one line, STUB_PORT=<port>, to stdout.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import hashlib
import json
import os
import select
import signal
import socket
import struct
import sys
import threading
import time
import zlib
from functools import lru_cache
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, unquote, urlsplit

REPO_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_CATALOG_DIR = REPO_ROOT / "Sources" / "App" / "Resources" / "catalog"
DEFAULT_FIXTURES_DIR = REPO_ROOT / "Tests" / "AppTests" / "Fixtures"

MODES = ("ok", "403", "429", "500", "malformed", "drop", "hang")
SCOPES = ("all", "itunes", "tvmaze", "omdb", "img")
APIS = ("itunes", "tvmaze", "omdb", "img")
HANG_MAX_SECONDS = 60.0
VALID_OMDB_KEY = "test-key"

ITUNES_CONTENT_TYPE = "text/javascript; charset=utf-8"
TVMAZE_CONTENT_TYPE = "application/json; charset=UTF-8"
OMDB_CONTENT_TYPE = "application/json; charset=utf-8"
JSON_CONTENT_TYPE = "application/json; charset=utf-8"

TVMAZE_NOT_FOUND = {"name": "Not Found", "message": "", "code": 0, "status": 404}
TVMAZE_API = "https://api.tvmaze.com"
LONG_SHOW_ID = 990001
TVMAZE_EMBEDS = ("episodes", "seasons", "nextepisode", "previousepisode")
UPDATES_SINCE_SECONDS = {"day": 86_400, "week": 7 * 86_400, "month": 30 * 86_400}
# Shows TVMaze keeps touching: their /updates/shows time is the reference time (the stub's start,
# or the recorded answers' date) minus this many seconds; every other show keeps its `updated`.
UPDATE_AGES = {
    990001: 47 * 60,  # the daily show: within the day
    590: 3 * 3600 + 17 * 60,  # Pokémon: within the day
    32087: 3 * 86_400 + 5 * 3600,  # Chicken Girls: within the week
    45499: 19 * 86_400,  # The Midnight Gospel: within the month
}

SYNTHETIC_BASE_ID = 8_000_000_000
SYNTHETIC_GENRES = (
    "Drama",
    "Comedy",
    "Action & Adventure",
    "Thriller",
    "Sci-Fi & Fantasy",
    "Kids & Family",
    "Horror",
    "Romance",
)
SYNTHETIC_RATINGS = ("PG-13", "R", "PG", "G")


# --------------------------------------------------------------------------- state


class State:
    """Failure switches and request counters, shared by all handler threads."""

    def __init__(self, mode: str, latency_ms: int, scope: str, pad_to: int) -> None:
        self.lock = threading.Lock()
        self.mode = mode
        self.latency_ms = latency_ms
        self.scope = scope
        self.pad_to = pad_to
        self.counts = {api: 0 for api in APIS}
        self.stopping = threading.Event()

    def snapshot(self) -> dict:
        with self.lock:
            return {
                "mode": self.mode,
                "latency_ms": self.latency_ms,
                "scope": self.scope,
                "pad_to": self.pad_to,
            }

    def update(self, changes: dict) -> dict:
        """Validates every change first, then applies them all; raises ValueError on a bad one."""
        if not isinstance(changes, dict):
            raise ValueError("body must be a JSON object")
        unknown = set(changes) - {"mode", "latency_ms", "scope", "pad_to"}
        if unknown:
            raise ValueError(f"unknown keys: {sorted(unknown)}")
        new = {}
        if "mode" in changes:
            new["mode"] = parse_mode(changes["mode"])
        if "latency_ms" in changes:
            new["latency_ms"] = parse_non_negative_int(changes["latency_ms"], "latency_ms")
        if "scope" in changes:
            new["scope"] = parse_scope(changes["scope"])
        if "pad_to" in changes:
            new["pad_to"] = parse_non_negative_int(changes["pad_to"], "pad_to")
        with self.lock:
            for key, value in new.items():
                setattr(self, key, value)
        return self.snapshot()

    def count(self, api: str) -> None:
        with self.lock:
            self.counts[api] += 1

    def stats(self) -> dict:
        with self.lock:
            return {"requests": dict(self.counts)}

    def reset_stats(self) -> dict:
        with self.lock:
            self.counts = {api: 0 for api in APIS}
            return {"requests": dict(self.counts)}

    def failure_for(self, api: str) -> tuple[str, int]:
        """(mode, latency_ms) that apply to a request of this API."""
        with self.lock:
            mode = self.mode if self.scope in ("all", api) else "ok"
            return mode, self.latency_ms


def parse_mode(value) -> str:
    text = str(value).strip().lower()
    if text not in MODES:
        raise ValueError(f"mode must be one of {', '.join(MODES)}")
    return text


def parse_scope(value) -> str:
    text = str(value).strip().lower()
    if text not in SCOPES:
        raise ValueError(f"scope must be one of {', '.join(SCOPES)}")
    return text


def parse_non_negative_int(value, name: str) -> int:
    if isinstance(value, bool):
        raise ValueError(f"{name} must be a non-negative integer")
    try:
        number = int(value)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a non-negative integer") from None
    if number < 0 or (isinstance(value, float) and value != number):
        raise ValueError(f"{name} must be a non-negative integer")
    return number


# --------------------------------------------------------------------------- data files


class JsonFileCache:
    """Re-reads a JSON file when it changes; keeps the last good parse while a writer is mid-file."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.entries: dict[Path, tuple[tuple[int, int], object]] = {}

    def load(self, path: Path):
        try:
            st = path.stat()
        except OSError:
            with self.lock:
                self.entries.pop(path, None)
            return None
        key = (st.st_mtime_ns, st.st_size)
        with self.lock:
            entry = self.entries.get(path)
            if entry is not None and entry[0] == key:
                return entry[1]
        try:
            with path.open("r", encoding="utf-8") as handle:
                data = json.load(handle)
        except (OSError, ValueError):
            with self.lock:
                entry = self.entries.get(path)
            return entry[1] if entry is not None else None
        with self.lock:
            self.entries[path] = (key, data)
        return data


class Catalog:
    def __init__(self, catalog_dir: Path, fixtures_dir: Path) -> None:
        self.catalog_dir = catalog_dir
        self.fixtures_dir = fixtures_dir
        self.files = JsonFileCache()

    # iTunes ----------------------------------------------------------------

    def films_of_year(self, year: int) -> list[dict]:
        data = self.files.load(self.catalog_dir / f"movies-{year}.json")
        return films_from(data)

    def catalog_years(self) -> list[int]:
        years = []
        try:
            names = os.listdir(self.catalog_dir)
        except OSError:
            return years
        for name in names:
            if name.startswith("movies-") and name.endswith(".json"):
                stem = name[len("movies-") : -len(".json")]
                if stem.isdigit():
                    years.append(int(stem))
        return sorted(years)

    def all_films(self) -> list[dict]:
        films, seen = [], set()
        for year in self.catalog_years():
            for film in self.films_of_year(year):
                track_id = film.get("trackId")
                if track_id in seen:
                    continue
                seen.add(track_id)
                films.append(film)
        return films

    # TVMaze / OMDb -----------------------------------------------------------

    def tvmaze_shows(self) -> list[dict]:
        data = self.files.load(self.fixtures_dir / "tvmaze" / "shows.json")
        return [show for show in data if isinstance(show, dict)] if isinstance(data, list) else []

    def tvmaze_episode_sets(self) -> dict:
        data = self.files.load(self.fixtures_dir / "tvmaze" / "episodes.json")
        return data if isinstance(data, dict) else {}

    def tvmaze_long_show(self) -> dict | None:
        data = self.files.load(self.fixtures_dir / "tvmaze" / "long-show.json")
        return data if isinstance(data, dict) else None

    def tv_index(self) -> "TVIndex":
        """Every show with its seasons and episodes (the long show included), indexed by id; rebuilt
        only when one of the three files changes."""
        shows, sets, long_show = self.tvmaze_shows(), self.tvmaze_episode_sets(), self.tvmaze_long_show()
        key = (id(shows), id(sets), id(long_show))
        with self.files.lock:
            cached = getattr(self, "_tv_index", None)
            if cached is not None and cached[0] == key:
                return cached[1]
        index = TVIndex(shows, sets, long_show)
        with self.files.lock:
            self._tv_index = (key, index)
        return index

    def omdb_movies(self) -> list[dict]:
        data = self.files.load(self.fixtures_dir / "omdb" / "movies.json")
        return [movie for movie in data if isinstance(movie, dict)] if isinstance(data, list) else []


# --------------------------------------------------------------------------- TVMaze episodes


class TVIndex:
    """Shows (plain objects, without `_embedded`), their seasons and episodes (specials included, in
    airing order), and where each season and episode belongs."""

    def __init__(self, shows: list[dict], sets: dict, long_show: dict | None) -> None:
        self.shows: dict[int, dict] = {}
        self.seasons: dict[int, list[dict]] = {}
        self.episodes: dict[int, list[dict]] = {}
        for show in shows:
            if isinstance(show.get("id"), int):
                entry = sets.get(str(show["id"])) if isinstance(sets, dict) else None
                entry = entry if isinstance(entry, dict) else {}
                self.add(show, entry.get("seasons") or [], entry.get("episodes") or [])
        if long_show is not None and isinstance(long_show.get("id"), int):
            embedded = long_show.get("_embedded") or {}
            plain = {k: v for k, v in long_show.items() if k != "_embedded"}
            self.add(plain, embedded.get("seasons") or [], embedded.get("episodes") or [])
        self.season_by_id: dict[int, tuple[int, dict]] = {}
        self.episode_by_id: dict[int, tuple[int, dict]] = {}
        for show_id, seasons in self.seasons.items():
            for season in seasons:
                self.season_by_id[season.get("id")] = (show_id, season)
        for show_id, episodes in self.episodes.items():
            for episode in episodes:
                self.episode_by_id[episode.get("id")] = (show_id, episode)

    def add(self, show: dict, seasons: list, episodes: list) -> None:
        show_id = show["id"]
        self.shows[show_id] = show
        self.seasons[show_id] = sorted((s for s in seasons if isinstance(s, dict)), key=lambda s: s.get("number") or 0)
        self.episodes[show_id] = sorted((e for e in episodes if isinstance(e, dict)), key=airing_order)

    def season_episodes(self, season_id: int) -> list[dict] | None:
        found = self.season_by_id.get(season_id)
        if found is None:
            return None
        show_id, season = found
        return [e for e in self.episodes[show_id] if e.get("season") == season.get("number")]


def parse_airstamp(text) -> _dt.datetime | None:
    if not isinstance(text, str) or not text:
        return None
    try:
        stamp = _dt.datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return None
    return stamp if stamp.tzinfo else stamp.replace(tzinfo=_dt.timezone.utc)


def airing_order(episode: dict):
    """Airing order: by airstamp, then season and number; episodes not yet scheduled come last."""
    stamp = parse_airstamp(episode.get("airstamp"))
    number = episode.get("number")
    rest = (episode.get("season") or 0, number if isinstance(number, int) else 10**9, episode.get("id") or 0)
    return (0, stamp.timestamp(), *rest) if stamp else (1, 0.0, *rest)


def is_special(episode: dict) -> bool:
    return episode.get("type", "regular") != "regular"


def next_episode(episodes: list[dict], now: _dt.datetime) -> dict | None:
    """The first episode (of any type) whose airstamp is after `now`; unscheduled ones never are."""
    for episode in episodes:
        stamp = parse_airstamp(episode.get("airstamp"))
        if stamp is not None and stamp > now:
            return episode
    return None


def previous_episode(episodes: list[dict], now: _dt.datetime) -> dict | None:
    found = None
    for episode in episodes:
        stamp = parse_airstamp(episode.get("airstamp"))
        if stamp is not None and stamp <= now:
            found = episode
    return found


def show_updated(show: dict, reference: _dt.datetime) -> int:
    stored = show.get("updated") if isinstance(show.get("updated"), int) else 0
    age = UPDATE_AGES.get(show.get("id"))
    if age is None:
        return stored
    return max(stored, int(reference.timestamp()) - age)


def show_links(show: dict, episodes: list[dict], now: _dt.datetime) -> dict:
    links = {"self": {"href": f"{TVMAZE_API}/shows/{show.get('id')}"}}
    for name, episode in (("previousepisode", previous_episode(episodes, now)), ("nextepisode", next_episode(episodes, now))):
        if episode is not None:
            links[name] = {"href": f"{TVMAZE_API}/episodes/{episode.get('id')}", "name": episode.get("name")}
    return links


def requested_embeds(query: dict) -> list[str]:
    """`embed[]=a&embed[]=b` (parse_qs has already decoded embed%5B%5D) or `embed=a`, in order."""
    wanted = []
    for key in ("embed[]", "embed"):
        for value in query.get(key, []):
            for part in value.split(","):
                part = part.strip().lower()
                if part and part not in wanted:
                    wanted.append(part)
    return wanted


def show_with_embeds(index: TVIndex, show_id: int, embeds: list[str], now: _dt.datetime, reference: _dt.datetime) -> dict:
    """/shows/ID?embed[]=…: the show with `_links` and `updated` as of `now`/`reference`, and
    `_embedded` holding what was asked for, in the order asked."""
    show = index.shows[show_id]
    episodes = index.episodes.get(show_id, [])
    out = {k: v for k, v in show.items() if k not in ("_links", "_embedded")}
    out["updated"] = show_updated(show, reference)
    out["_links"] = show_links(show, episodes, now)
    embedded = {}
    for name in embeds:
        if name == "episodes":
            embedded["episodes"] = [e for e in episodes if not is_special(e)]
        elif name == "seasons":
            embedded["seasons"] = index.seasons.get(show_id, [])
        elif name in ("nextepisode", "previousepisode"):
            episode = next_episode(episodes, now) if name == "nextepisode" else previous_episode(episodes, now)
            if episode is not None:
                embedded[name] = episode
    if embedded:
        out["_embedded"] = embedded
    return out


def show_episodes(index: TVIndex, show_id: int, specials: bool) -> list[dict]:
    episodes = index.episodes.get(show_id, [])
    return list(episodes) if specials else [e for e in episodes if not is_special(e)]


def updates_answer(index: TVIndex, since: str | None, now: _dt.datetime, reference: _dt.datetime) -> dict:
    """/updates/shows: {"<id>": unix time} for every show (long show included), by show id as
    TVMaze lists them; `since` keeps those updated within the last day, week or month."""
    horizon = None if since is None else int(now.timestamp()) - UPDATES_SINCE_SECONDS[since]
    answer = {}
    for show_id in sorted(index.shows):
        updated = show_updated(index.shows[show_id], reference)
        if horizon is None or updated >= horizon:
            answer[str(show_id)] = updated
    return answer


def films_from(data) -> list[dict]:
    """A catalogue file is an iTunes search response ({"resultCount", "results"}) or a bare list."""
    if isinstance(data, dict):
        data = data.get("results")
    if not isinstance(data, list):
        return []
    return [film for film in data if isinstance(film, dict)]


def with_store_defaults(film: dict) -> dict:
    out = dict(film)
    track_id = out.get("trackId")
    out.setdefault(
        "artworkUrl100",
        f"https://is1-ssl.mzstatic.com/image/thumb/Stub/v4/{track_id}/source/100x100bb.jpg",
    )
    # iTunes gives films a trailer; the bundled catalogue leaves it out.
    out.setdefault("previewUrl", f"https://video-ssl.itunes.apple.com/itunes-assets/Stub/v4/{track_id}/preview.m4v")
    out.setdefault("trackPrice", 14.99)
    out.setdefault("currency", "USD")
    return out


def synthetic_film(year: int, index: int, total: int) -> dict:
    """Film number `index` (1-based) of the `total` synthetic films of a year."""
    track_id = SYNTHETIC_BASE_ID + year * 1000 + index
    title = f"Stub Film {index:03d}"
    genre = SYNTHETIC_GENRES[(index - 1) % len(SYNTHETIC_GENRES)]
    start = _dt.date(year, 1, 1)
    days_in_year = (_dt.date(year + 1, 1, 1) - start).days
    day = start + _dt.timedelta(days=((index - 1) * days_in_year) // max(total, 1))
    slug = title.lower().replace(" ", "-")
    return {
        "wrapperType": "track",
        "kind": "feature-movie",
        "trackId": track_id,
        "artistName": f"Stub Director {((index - 1) % 17) + 1}",
        "trackName": title,
        "trackCensoredName": title,
        "trackViewUrl": f"https://itunes.apple.com/us/movie/{slug}/id{track_id}?uo=4",
        "previewUrl": f"https://video-ssl.itunes.apple.com/itunes-assets/Stub/v4/{track_id}/preview.m4v",
        "artworkUrl30": f"https://is1-ssl.mzstatic.com/image/thumb/Stub/v4/{track_id}/source/30x30bb.jpg",
        "artworkUrl60": f"https://is1-ssl.mzstatic.com/image/thumb/Stub/v4/{track_id}/source/60x60bb.jpg",
        "artworkUrl100": f"https://is1-ssl.mzstatic.com/image/thumb/Stub/v4/{track_id}/source/100x100bb.jpg",
        "collectionPrice": 14.99,
        "trackPrice": 14.99,
        "trackRentalPrice": 3.99,
        "collectionHdPrice": 19.99,
        "trackHdPrice": 19.99,
        "trackHdRentalPrice": 4.99,
        "releaseDate": f"{day.isoformat()}T07:00:00Z",
        "collectionExplicitness": "notExplicit",
        "trackExplicitness": "notExplicit",
        "trackTimeMillis": (85 + (index * 7) % 60) * 60_000,
        "country": "USA",
        "currency": "USD",
        "primaryGenreName": genre,
        "contentAdvisoryRating": SYNTHETIC_RATINGS[(index - 1) % len(SYNTHETIC_RATINGS)],
        "shortDescription": f"Synthetic {genre.lower()} film {index} of {year}.",
        "longDescription": (
            f"{title} is a synthetic {genre.lower()} film released in {year}, made up by the "
            "PopcornSwirl upstream stub so that a release year has enough films for tests and "
            "benchmarks. It has no cast, no plot and no ending, but it does have a poster."
        ),
        "hasITunesExtras": False,
    }


def padded_films_of_year(catalog: Catalog, year: int, pad_to: int) -> list[dict]:
    films = catalog.films_of_year(year)
    missing = pad_to - len(films)
    if missing > 0 and 1 <= year <= 9999:
        films = films + [synthetic_film(year, i, missing) for i in range(1, missing + 1)]
    return films


def synthetic_lookup(catalog: Catalog, track_id: int, pad_to: int) -> dict | None:
    if pad_to <= 0:
        return None
    offset = track_id - SYNTHETIC_BASE_ID
    year, index = divmod(offset, 1000)
    if not (1 <= year <= 9999) or index < 1:
        return None
    missing = pad_to - len(catalog.films_of_year(year))
    if index > missing:
        return None
    return synthetic_film(year, index, missing)


# --------------------------------------------------------------------------- images


@lru_cache(maxsize=1024)
def png_for(path: str, width: int = 60, height: int = 90) -> bytes:
    digest = hashlib.sha256(path.encode("utf-8")).digest()
    # Keep colours away from pure black/white so a test can tell a poster from a blank.
    rgb = bytes(48 + (b % 160) for b in digest[:3])
    row = b"\x00" + rgb * width
    raw = row * height

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")


# --------------------------------------------------------------------------- HTTP


class Response:
    __slots__ = ("status", "body", "content_type", "headers")

    def __init__(self, status: int, body: bytes = b"", content_type: str | None = None, headers=None) -> None:
        self.status = status
        self.body = body
        self.content_type = content_type
        self.headers = list(headers or [])


def json_response(status: int, payload, content_type: str = JSON_CONTENT_TYPE) -> Response:
    return Response(status, json.dumps(payload, ensure_ascii=False).encode("utf-8"), content_type)


def itunes_response(results: list[dict], status: int = 200) -> Response:
    # Apple's body starts with three newlines and is pretty-printed one result per line.
    lines = ",\n".join(json.dumps(r, ensure_ascii=False, separators=(",", ":")) for r in results)
    body = f'\n\n\n{{\n "resultCount":{len(results)},\n "results": [\n{lines}]\n}}\n\n\n'
    return Response(status, body.encode("utf-8"), ITUNES_CONTENT_TYPE)


def first(query: dict, name: str, default: str | None = None) -> str | None:
    values = query.get(name)
    return values[0] if values else default


class StubServer(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = 128

    def __init__(self, address, state: State, catalog: Catalog, verbose: bool) -> None:
        super().__init__(address, Handler)
        self.state = state
        self.catalog = catalog
        self.verbose = verbose
        # The reference time of /updates/shows: fixed for the run, so a show's time does not move.
        self.started_at = _dt.datetime.now(_dt.timezone.utc).replace(microsecond=0)


class Handler(BaseHTTPRequestHandler):
    server: StubServer
    protocol_version = "HTTP/1.1"
    server_version = "PopcornStub/1.0"

    def version_string(self) -> str:
        return self.server_version

    # -- plumbing -------------------------------------------------------------

    def log_message(self, format: str, *args) -> None:  # noqa: A002 (BaseHTTPRequestHandler's name)
        if self.server.verbose:
            sys.stderr.write(f"stub: {self.address_string()} {format % args}\n")

    def do_GET(self) -> None:
        self.handle_request(send_body=True)

    def do_HEAD(self) -> None:
        self.handle_request(send_body=False)

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length > 0 else b""
        url = urlsplit(self.path)
        path = url.path.rstrip("/") or "/"
        state = self.server.state
        if path == "/_control":
            try:
                changes = json.loads(body.decode("utf-8")) if body.strip() else {}
                snapshot = state.update(changes)
            except (ValueError, UnicodeDecodeError) as error:
                self.send(json_response(400, {"error": str(error)}))
                return
            if self.server.verbose:
                sys.stderr.write(f"stub: control -> {snapshot}\n")
            self.send(json_response(200, snapshot))
        elif path == "/_stats/reset":
            self.send(json_response(200, state.reset_stats()))
        else:
            self.send(Response(405, b"Method Not Allowed", "text/plain; charset=utf-8", [("Allow", "GET, HEAD")]))

    def send(self, response: Response, send_body: bool = True) -> None:
        self.send_response(response.status)
        if response.content_type:
            self.send_header("Content-Type", response.content_type)
        for name, value in response.headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(response.body)))
        self.end_headers()
        if send_body and response.body:
            self.wfile.write(response.body)

    # -- routing --------------------------------------------------------------

    def handle_request(self, send_body: bool) -> None:
        url = urlsplit(self.path)
        path = url.path
        query = parse_qs(url.query, keep_blank_values=True)
        state = self.server.state

        if path.rstrip("/") == "/_control":
            self.send(json_response(200, state.snapshot()), send_body)
            return
        if path.rstrip("/") == "/_stats":
            self.send(json_response(200, state.stats()), send_body)
            return

        api, route = self.route(path)
        if api is None:
            self.send(Response(404, b"Not Found", "text/plain; charset=utf-8"), send_body)
            return
        if send_body:  # HEAD requests are the app's reachability probes, not API calls
            state.count(api)
        mode, latency_ms = state.failure_for(api)
        if latency_ms > 0 and not self.sleep_unless_stopping(latency_ms / 1000.0):
            return

        if mode == "drop":
            self.drop_connection()
            return
        if mode == "hang" and not self.hang(api):
            return
        mode = state.failure_for(api)[0] if mode == "hang" else mode
        if mode == "403":
            self.send(Response(403), send_body)
            return
        if mode == "429":
            self.send(Response(429, headers=[("Retry-After", "2")]), send_body)
            return
        if mode == "500":
            self.send(Response(500, b"Internal Server Error", "text/plain; charset=utf-8"), send_body)
            return

        response = route(path, query)
        if mode == "malformed":
            cut = max(1, len(response.body) // 2)
            response = Response(200, response.body[:cut], response.content_type, response.headers)
        self.send(response, send_body)

    def route(self, path: str):
        if path in ("/search", "/search/"):
            return "itunes", self.itunes_search
        if path in ("/lookup", "/lookup/"):
            return "itunes", self.itunes_lookup
        if path.startswith("/img/"):
            return "img", self.image
        if path in ("/shows", "/shows/") or path.startswith("/shows/"):
            return "tvmaze", self.tvmaze_shows
        if path in ("/search/shows", "/search/shows/"):
            return "tvmaze", self.tvmaze_search
        if path in ("/singlesearch/shows", "/singlesearch/shows/"):
            return "tvmaze", self.tvmaze_singlesearch
        if path in ("/lookup/shows", "/lookup/shows/"):
            return "tvmaze", self.tvmaze_lookup
        if path.startswith("/seasons/") or path.startswith("/episodes/"):
            return "tvmaze", self.tvmaze_seasons_episodes
        if path in ("/updates/shows", "/updates/shows/"):
            return "tvmaze", self.tvmaze_updates
        if path == "/":
            return "omdb", self.omdb
        return None, None

    # -- failure modes --------------------------------------------------------

    def sleep_unless_stopping(self, seconds: float) -> bool:
        return not self.server.state.stopping.wait(seconds)

    def drop_connection(self) -> None:
        self.close_connection = True
        try:
            self.connection.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass

    def hang(self, api: str) -> bool:
        """Answers nothing until the client closes the connection (or 60 s pass, or the stub stops),
        and returns False; returns True when the mode stops being hang first, so the request is then
        answered late, as an upstream that recovers answers (a test that set hang leaves no request
        of a longer-lived app hanging into the next test)."""
        deadline = time.monotonic() + HANG_MAX_SECONDS
        sock = self.connection
        state = self.server.state
        while time.monotonic() < deadline and not state.stopping.is_set():
            if state.failure_for(api)[0] != "hang":
                return True
            try:
                readable, _, _ = select.select([sock], [], [], 0.25)
                if readable and not sock.recv(1, socket.MSG_PEEK):
                    break  # the client gave up
            except OSError:
                break
        self.drop_connection()
        return False

    # -- iTunes ---------------------------------------------------------------

    def itunes_search(self, path: str, query: dict) -> Response:
        catalog = self.server.catalog
        term = (first(query, "term", "") or "").strip()
        attribute = (first(query, "attribute", "") or "").strip()
        limit_text = first(query, "limit")
        try:
            limit = int(limit_text) if limit_text not in (None, "") else 50
        except ValueError:
            limit = 50
        limit = min(max(limit, 1), 200)

        if attribute == "releaseYearTerm":
            if not (term.isdigit() and len(term) == 4):
                return itunes_response([])
            films = padded_films_of_year(catalog, int(term), self.server.state.snapshot()["pad_to"])
        elif attribute:
            films = []  # an attribute this stub does not imitate
        else:
            needle = term.casefold()
            if not needle:
                return itunes_response([])
            films = [f for f in catalog.all_films() if needle in str(f.get("trackName", "")).casefold()]
        return itunes_response([with_store_defaults(f) for f in films[:limit]])

    def itunes_lookup(self, path: str, query: dict) -> Response:
        raw = (first(query, "id", "") or "").strip()
        ids = [part.strip() for part in raw.split(",") if part.strip()]
        if not ids or not all(part.isdigit() for part in ids):
            return Response(
                400,
                json.dumps({"errorMessage": "Invalid value(s) for key(s): [id]", "queryParameters": {"id": raw}}).encode(),
                ITUNES_CONTENT_TYPE,
            )
        catalog = self.server.catalog
        pad_to = self.server.state.snapshot()["pad_to"]
        by_id = {}
        for film in catalog.all_films():
            try:
                by_id.setdefault(int(film.get("trackId")), film)
            except (TypeError, ValueError):
                continue
        results = []
        for part in ids:
            track_id = int(part)
            film = by_id.get(track_id) or synthetic_lookup(catalog, track_id, pad_to)
            if film is not None:
                results.append(with_store_defaults(film))
        return itunes_response(results)

    # -- images ---------------------------------------------------------------

    def image(self, path: str, query: dict) -> Response:
        rest = unquote(path[len("/img/") :])
        host, _, image_path = rest.partition("/")
        if not host or not image_path:
            return Response(404, b"Not Found", "text/plain; charset=utf-8")
        return Response(200, png_for(rest), "image/png", [("Cache-Control", "max-age=86400")])

    # -- TVMaze ---------------------------------------------------------------

    def tvmaze_not_found(self) -> Response:
        return json_response(404, TVMAZE_NOT_FOUND, TVMAZE_CONTENT_TYPE)

    def tvmaze_shows(self, path: str, query: dict) -> Response:
        shows = self.server.catalog.tvmaze_shows()
        tail = path[len("/shows") :].strip("/")
        if tail:
            show_part, _, rest = tail.partition("/")
            if not show_part.isdigit():
                return self.tvmaze_not_found()
            show_id = int(show_part)
            if rest:
                return self.tvmaze_show_children(show_id, rest, query)
            embeds = [e for e in requested_embeds(query) if e in TVMAZE_EMBEDS]
            if embeds:
                index = self.server.catalog.tv_index()
                if show_id not in index.shows:
                    return self.tvmaze_not_found()
                now = _dt.datetime.now(_dt.timezone.utc)
                body = show_with_embeds(index, show_id, embeds, now, self.server.started_at)
                return json_response(200, body, TVMAZE_CONTENT_TYPE)
            for show in shows:
                if show.get("id") == show_id:
                    return json_response(200, show, TVMAZE_CONTENT_TYPE)
            if show_id == LONG_SHOW_ID:
                long_show = self.server.catalog.tvmaze_long_show()
                if long_show is not None:
                    plain = {k: v for k, v in long_show.items() if k != "_embedded"}
                    return json_response(200, plain, TVMAZE_CONTENT_TYPE)
            return self.tvmaze_not_found()
        page_text = first(query, "page", "0") or "0"
        if not page_text.isdigit():
            return json_response(
                400, {"name": "Bad Request", "message": "", "code": 0, "status": 400}, TVMAZE_CONTENT_TYPE
            )
        if int(page_text) >= 1:
            return json_response(404, TVMAZE_NOT_FOUND, TVMAZE_CONTENT_TYPE)
        return json_response(200, shows, TVMAZE_CONTENT_TYPE)

    def tvmaze_show_children(self, show_id: int, rest: str, query: dict) -> Response:
        """/shows/ID/episodes[?specials=1] and /shows/ID/seasons."""
        index = self.server.catalog.tv_index()
        if show_id not in index.shows or rest not in ("episodes", "seasons"):
            return self.tvmaze_not_found()
        if rest == "seasons":
            return json_response(200, index.seasons.get(show_id, []), TVMAZE_CONTENT_TYPE)
        specials = (first(query, "specials", "") or "").strip().lower() in ("1", "true")
        return json_response(200, show_episodes(index, show_id, specials), TVMAZE_CONTENT_TYPE)

    def tvmaze_seasons_episodes(self, path: str, query: dict) -> Response:
        """/seasons/ID/episodes (specials included, as TVMaze lists a season) and /episodes/ID."""
        index = self.server.catalog.tv_index()
        parts = path.strip("/").split("/")
        if len(parts) < 2 or not parts[1].isdigit():
            return self.tvmaze_not_found()
        item_id = int(parts[1])
        if parts[0] == "seasons" and parts[2:] == ["episodes"]:
            episodes = index.season_episodes(item_id)
            if episodes is None:
                return self.tvmaze_not_found()
            return json_response(200, episodes, TVMAZE_CONTENT_TYPE)
        if parts[0] == "episodes" and len(parts) == 2:
            found = index.episode_by_id.get(item_id)
            if found is None:
                return self.tvmaze_not_found()
            show_id, episode = found
            if "show" in requested_embeds(query):
                episode = dict(episode, _embedded={"show": index.shows[show_id]})
            return json_response(200, episode, TVMAZE_CONTENT_TYPE)
        return self.tvmaze_not_found()

    def tvmaze_updates(self, path: str, query: dict) -> Response:
        since = first(query, "since")
        if since is not None and since not in UPDATES_SINCE_SECONDS:
            return json_response(
                400, {"name": "Bad Request", "message": "Invalid value for since", "code": 0, "status": 400},
                TVMAZE_CONTENT_TYPE,
            )
        index = self.server.catalog.tv_index()
        now = _dt.datetime.now(_dt.timezone.utc)
        return json_response(200, updates_answer(index, since, now, self.server.started_at), TVMAZE_CONTENT_TYPE)

    def tvmaze_matches(self, query: dict) -> list[dict] | None:
        q = first(query, "q")
        if q is None:
            return None
        needle = q.strip().casefold()
        if not needle:
            return []
        return [s for s in self.server.catalog.tvmaze_shows() if needle in str(s.get("name", "")).casefold()]

    def tvmaze_missing_q(self) -> Response:
        return json_response(
            400,
            {"name": "Bad Request", "message": 'Missing required parameters: "q"', "code": 0, "status": 400},
            TVMAZE_CONTENT_TYPE,
        )

    def tvmaze_search(self, path: str, query: dict) -> Response:
        matches = self.tvmaze_matches(query)
        if matches is None:
            return self.tvmaze_missing_q()
        return json_response(200, [{"score": 0.9, "show": s} for s in matches], TVMAZE_CONTENT_TYPE)

    def tvmaze_singlesearch(self, path: str, query: dict) -> Response:
        matches = self.tvmaze_matches(query)
        if matches is None:
            return self.tvmaze_missing_q()
        if not matches:
            return json_response(404, TVMAZE_NOT_FOUND, TVMAZE_CONTENT_TYPE)
        return json_response(200, matches[0], TVMAZE_CONTENT_TYPE)

    def tvmaze_lookup(self, path: str, query: dict) -> Response:
        """An outside id (imdb= or thetvdb=): 301 to /shows/ID as TVMaze answers, else 404."""
        imdb, tvdb = first(query, "imdb"), first(query, "thetvdb")
        for show in self.server.catalog.tvmaze_shows():
            externals = show.get("externals") or {}
            if (imdb and externals.get("imdb") == imdb) or (tvdb and str(externals.get("thetvdb")) == tvdb):
                host = self.headers.get("Host", "127.0.0.1")
                return Response(301, b"", None, [("Location", f"http://{host}/shows/{show.get('id')}")])
        return json_response(404, TVMAZE_NOT_FOUND, TVMAZE_CONTENT_TYPE)

    # -- OMDb -----------------------------------------------------------------

    def omdb(self, path: str, query: dict) -> Response:
        if first(query, "apikey") != VALID_OMDB_KEY:
            return json_response(401, {"Response": "False", "Error": "Invalid API key!"}, OMDB_CONTENT_TYPE)
        movies = self.server.catalog.omdb_movies()
        not_found = json_response(200, {"Response": "False", "Error": "Movie not found!"}, OMDB_CONTENT_TYPE)
        year = (first(query, "y", "") or "").strip()

        def year_ok(movie: dict) -> bool:
            return not year or str(movie.get("Year", "")).startswith(year)

        imdb_id = (first(query, "i", "") or "").strip()
        title = (first(query, "t", "") or "").strip()
        search = (first(query, "s", "") or "").strip()
        if imdb_id:
            if not (imdb_id.startswith("tt") and imdb_id[2:].isdigit()):
                return json_response(200, {"Response": "False", "Error": "Incorrect IMDb ID."}, OMDB_CONTENT_TYPE)
            for movie in movies:
                if movie.get("imdbID") == imdb_id:
                    return json_response(200, movie, OMDB_CONTENT_TYPE)
            return json_response(200, {"Response": "False", "Error": "Error getting data."}, OMDB_CONTENT_TYPE)
        if title:
            wanted = title.casefold()
            for movie in movies:
                if str(movie.get("Title", "")).casefold() == wanted and year_ok(movie):
                    return json_response(200, movie, OMDB_CONTENT_TYPE)
            return not_found
        if search:
            wanted = search.casefold()
            hits = [m for m in movies if wanted in str(m.get("Title", "")).casefold() and year_ok(m)]
            if not hits:
                return not_found
            summary = [
                {k: m.get(k, "N/A") for k in ("Title", "Year", "imdbID", "Type", "Poster")} for m in hits
            ]
            return json_response(
                200, {"Search": summary, "totalResults": str(len(hits)), "Response": "True"}, OMDB_CONTENT_TYPE
            )
        return json_response(200, {"Response": "False", "Error": "Incorrect IMDb ID."}, OMDB_CONTENT_TYPE)


# --------------------------------------------------------------------------- main


def non_negative(text: str) -> int:
    try:
        return parse_non_negative_int(text, "value")
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=0, help="port to bind; 0 picks a free one (default 0)")
    parser.add_argument("--mode", choices=MODES, default="ok", help="failure mode (default ok)")
    parser.add_argument("--latency-ms", type=non_negative, default=0, help="delay before every upstream answer")
    parser.add_argument("--scope", choices=SCOPES, default="all", help="APIs the mode applies to (default all)")
    parser.add_argument("--pad-to", type=non_negative, default=0,
                        help="pad every release year with synthetic films up to N")
    parser.add_argument("--catalog-dir", type=Path, default=DEFAULT_CATALOG_DIR,
                        help="movies-YYYY.json files (default Sources/App/Resources/catalog)")
    parser.add_argument("--fixtures-dir", type=Path, default=DEFAULT_FIXTURES_DIR,
                        help="tvmaze/{shows,episodes,long-show}.json and omdb/movies.json (default Tests/AppTests/Fixtures)")
    parser.add_argument("--verbose", action="store_true", help="log every request to stderr")
    args = parser.parse_args(argv)

    state = State(args.mode, args.latency_ms, args.scope, args.pad_to)
    catalog = Catalog(args.catalog_dir.resolve(), args.fixtures_dir.resolve())
    server = StubServer((args.host, args.port), state, catalog, args.verbose)

    def stop(signum, frame):  # noqa: ARG001
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, stop)
    sys.stdout.write(f"STUB_PORT={server.server_address[1]}\n")
    sys.stdout.flush()
    if args.verbose:
        sys.stderr.write(f"stub: listening on {args.host}:{server.server_address[1]} state={state.snapshot()}\n")
    try:
        server.serve_forever(poll_interval=0.2)
    except KeyboardInterrupt:
        pass
    finally:
        state.stopping.set()
        server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
