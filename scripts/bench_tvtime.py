#!/usr/bin/env python3
"""How fast a TV Time export imports (Python 3 stdlib only; traffic to 127.0.0.1 only).

The target: a year of daily TV Time use (about 3,000 episode watches over 150 shows) imports in
under a minute with TVMaze's answers cached, and within TVMaze's budget when not (the time is
reported).

In a temporary directory: a fixtures directory for scripts/stub_upstream.py (the TVMaze and OMDb
fixtures of Tests/AppTests/Fixtures, plus --shows synthetic shows, ids 800001…, TheTVDB ids
600001…, Ended, 1 to 4 seasons of regular episodes all aired, in TVMaze's own formats), and a TV
Time GDPR export ZIP (tracking-prod-records-v2.csv with --watches `watch-episode-…` rows spread
over 2025 and the shows, with the fixture's header and BOM; followed_tv_show.csv with every show).
Then the stub on a free port, the server (--binary) against it on a fresh SQLite file, and two runs:
  run 1, TVMaze not cached: account A uploads the ZIP to /import; the import's progress
         (GET /import/progress) is polled until the job is done;
  run 2, TVMaze cached: account B uploads the same ZIP to the same server and database (the shared
         import_matches and the stored episode lists answer: the stub should see next to no calls).
Each run: wall seconds from the upload's start to the job done, rows and rows/s, landed / skipped /
failed / needs-a-match, the server's peak RSS (VmHWM, reset before each run where the kernel lets
us), the TVMaze requests the stub counted (GET /_stats, and by kind from its request log, with the
most in any 10 s and 60 s), and what those calls cost at TVMaze's documented limit (20 per 10 s per
IP, ../shared/DESIGN.md) and at the app's own allowances (HostThrottle.Spec.tvmaze and the
per-account ClientShare, read from Sources/App).
Exits 1 when run 2 took 60 s or more, a row failed or waits in Needs a match, or a job did not
finish as done; 2 on a harness error or the overall --timeout. The stub and the server are always
stopped (also on Ctrl-C).
Usage: python3 scripts/bench_tvtime.py [--binary .build/release/popcornswirl] [--watches 3000]
                                       [--shows 150] [--keep] [--timeout 20] [--seed N]
"""
from __future__ import annotations

import argparse
import csv
import datetime as dt
import importlib.util
import io
import json
import math
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
import zipfile
from importlib.machinery import SourceFileLoader
from pathlib import Path

sys.dont_write_bytecode = True  # leave no __pycache__ beside the scripts we borrow from
SCRIPTS = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(SCRIPTS)
sys.path.insert(0, SCRIPTS)
import bench_mix  # noqa: E402  (set_cookies / merge_cookies)
import make_tvmaze_fixtures as tvf  # noqa: E402  (TVMaze's episode and season formats)


def load_bench():
    """scripts/bench (no .py) as a module: free_port, wait_http, peak_rss_mb, NoRedirect."""
    loader = SourceFileLoader("popcorn_bench", os.path.join(SCRIPTS, "bench"))
    spec = importlib.util.spec_from_loader("popcorn_bench", loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


bench = load_bench()

FIXTURES = os.path.join(ROOT, "Tests", "AppTests", "Fixtures")
TVTIME_FIXTURES = os.path.join(FIXTURES, "tvtime")
FIRST_SHOW_ID = 800_001
FIRST_TVDB_ID = 600_001
FIRST_IMDB_NUMBER = 9_800_001
EPISODE_ID_BASE = 80_000_000  # TVMaze episode ids: 80,000,000 + show index × 10,000 + n (fixtures stay below 5,000,000)
SEASON_ID_BASE = 8_000_000  # TVMaze season ids: 8,000,000 + show index × 10 + season
TVDB_EPISODE_BASE = 70_000_000  # TheTVDB episode ids in the export (`ep_id`)
USER_ID = "51730418"
YEAR = 2025
RUN2_LIMIT_SECONDS = 60
DEFAULT_SEED = 20250101

# TVMaze's documented limit (../shared/DESIGN.md: "At least 20 calls per 10 s per IP").
TVMAZE_DOCUMENTED = (20, 10.0)

NETWORKS = [
    {"id": 8, "name": "HBO", "country": {"name": "United States", "code": "US", "timezone": "America/New_York"},
     "officialSite": "https://www.hbo.com/"},
    {"id": 12, "name": "BBC One", "country": {"name": "United Kingdom", "code": "GB", "timezone": "Europe/London"},
     "officialSite": "https://www.bbc.co.uk/bbcone"},
    {"id": 3, "name": "ABC", "country": {"name": "United States", "code": "US", "timezone": "America/New_York"},
     "officialSite": "https://abc.com/"},
    {"id": 114, "name": "ABC", "country": {"name": "Australia", "code": "AU", "timezone": "Australia/Sydney"},
     "officialSite": "https://www.abc.net.au/"},
]
WEB_CHANNEL = {"id": 1, "name": "Netflix", "country": None, "officialSite": "https://www.netflix.com/"}
GENRES = ["Drama", "Comedy", "Crime", "Mystery", "Science-Fiction", "Thriller", "Romance", "Family", "Fantasy", "History"]
DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
ADJECTIVES = ["Copper", "Silent", "Northern", "Crooked", "Golden", "Hollow", "Paper", "Midnight", "Salt", "Velvet",
              "Broken", "Lantern", "Winter", "Scarlet", "Quiet", "Iron", "Distant", "Wild", "Glass", "Last"]
NOUNS = ["Orchard", "Harbour", "Ledger", "Parish", "Frontier", "Kitchen", "Signal", "Meridian", "Tenants", "Quarry",
         "Verdict", "Lighthouse", "Academy", "Circus", "Embassy", "Vineyard", "Precinct", "Archive"]
EPISODE_WORDS = ["Arrival", "The Offer", "Low Tide", "Crossroads", "Fault Lines", "Homecoming", "The Long Night",
                 "Small Mercies", "Open Water", "Reckoning", "Old Debts", "The Visit", "First Light", "Loose Ends",
                 "Undertow", "The Favour", "Ashes", "Cold Open", "Safe House", "Endgame"]


class HarnessError(Exception):
    """The harness itself could not go on (exit 2)."""


class OverallTimeout(Exception):
    pass


# --------------------------------------------------------------------------- the stub's fixtures


def show_names(count: int, rng: random.Random) -> list[str]:
    """Distinct names, a few with a comma (quoted in the CSV) or an accent."""
    names = [f"The {a} {n}" if (i % 3) else f"{a} {n}" for i, (a, n) in enumerate((a, n) for n in NOUNS for a in ADJECTIVES)]
    rng.shuffle(names)
    while len(names) < count:
        names += [f"{name} {len(names) // len(NOUNS) // len(ADJECTIVES) + 1}" for name in names[: count - len(names)]]
    names = names[:count]
    if count > 10:
        names[3] = "Rivers, Roads and Other Stories"
        names[7] = "Café Nocturne"
    return names


def make_show(index: int, name: str, rng: random.Random) -> dict:
    show_id = FIRST_SHOW_ID + index
    web = index % 5 == 4
    network = None if web else NETWORKS[index % len(NETWORKS)]
    runtime = rng.choice([22, 30, 45, 60])
    return {
        "id": show_id,
        "url": f"https://www.tvmaze.com/shows/{show_id}/{tvf.slug(name)}",
        "name": name,
        "type": "Scripted",
        "language": "English",
        "genres": sorted(rng.sample(GENRES, rng.randint(1, 3))),
        "status": "Ended",
        "runtime": runtime,
        "averageRuntime": runtime,
        "premiered": None,  # set from the first episode
        "ended": None,  # set from the last episode
        "officialSite": f"https://example.com/shows/{tvf.slug(name)}",
        "schedule": {"time": "" if web else "21:00", "days": [] if web else [rng.choice(DAYS)]},
        "rating": {"average": round(rng.uniform(5.5, 8.9), 1)},
        "weight": rng.randint(40, 95),
        "network": network,
        "webChannel": WEB_CHANNEL if web else None,
        "dvdCountry": None,
        "externals": {"tvrage": None, "thetvdb": FIRST_TVDB_ID + index, "imdb": f"tt{FIRST_IMDB_NUMBER + index}"},
        "image": tvf.image(600_000 + index, "portrait"),
        "summary": f"<p><b>{name}</b> is a made-up show of the TV Time import benchmark.</p>",
        "updated": 1_700_000_000 + index * 3_600,
        "_links": {"self": {"href": f"https://api.tvmaze.com/shows/{show_id}"}},
    }


def make_episodes(index: int, show: dict, seasons_count: int, per_season: int, rng: random.Random) -> tuple[list, list]:
    """Seasons a year apart, weekly episodes, all aired long before the 2025 watches."""
    first = dt.date(rng.randint(2006, 2018), rng.randint(1, 12), 1) + dt.timedelta(days=rng.randint(0, 27))
    airtime = show["schedule"]["time"]
    episodes = []
    for season_number in range(1, seasons_count + 1):
        count = max(1, per_season + rng.choice([0, 0, 0, -1, 1]))
        start = first + dt.timedelta(days=371 * (season_number - 1))
        for n, airdate in enumerate(tvf.weekly(start, count), start=1):
            ep_id = EPISODE_ID_BASE + index * 10_000 + len(episodes) + 1
            episodes.append(tvf.episode(
                show, id=ep_id, season=season_number, number=n,
                name=f"{EPISODE_WORDS[(n + season_number * 3) % len(EPISODE_WORDS)]}", airdate=airdate,
                airtime=airtime, runtime=show["runtime"], rating=round(rng.uniform(6.0, 9.0), 1),
                image_id=1_000_000 + ep_id % 1_000_000,
                summary=f"<p>Season {season_number}, episode {n} of {show['name']}.</p>"))
    seasons = [tvf.season(show, id=SEASON_ID_BASE + index * 10 + s, number=s, episodes=episodes,
                          image_id=2_000_000 + index * 10 + s) for s in range(1, seasons_count + 1)]
    if show["schedule"]["days"]:
        show["schedule"]["days"] = [DAYS[first.weekday()]]
    show["premiered"] = episodes[0]["airdate"]
    show["ended"] = episodes[-1]["airdate"]
    show["_links"]["previousepisode"] = {"href": f"https://api.tvmaze.com/episodes/{episodes[-1]['id']}",
                                         "name": episodes[-1]["name"]}
    return seasons, episodes


def allocate(total: int, capacities: list[int], rng: random.Random) -> list[int]:
    """`total` watches over the shows: uneven (a few binged, many sampled), each within its episodes."""
    weights = [rng.paretovariate(1.2) for _ in capacities]
    counts = [0] * len(capacities)
    left = total
    while left > 0:
        open_ = [i for i, c in enumerate(capacities) if counts[i] < c]
        if not open_:
            raise HarnessError(f"{total} watches do not fit in {sum(capacities)} episodes")
        weight_sum = sum(weights[i] for i in open_)
        given = 0
        for i in open_:
            share = min(capacities[i] - counts[i], int(left * weights[i] / weight_sum))
            counts[i] += share
            given += share
        if given == 0:  # the remainder, one by one to the heaviest open shows
            for i in sorted(open_, key=lambda i: -weights[i])[:left]:
                counts[i] += 1
                given += 1
        left -= given
    # Every show watched at least once where there are enough watches.
    for i, c in enumerate(counts):
        if c == 0 and total >= len(capacities):
            donor = max(range(len(counts)), key=lambda j: counts[j])
            counts[donor] -= 1
            counts[i] = 1
    return counts


def build_fixtures(fixtures_dir: str, shows_count: int, watches: int, rng: random.Random) -> list[dict]:
    """Writes tvmaze/{shows,episodes,long-show}.json and omdb/ for the stub; returns the shows with
    their regular episodes and watch counts."""
    tvmaze_dir = os.path.join(fixtures_dir, "tvmaze")
    os.makedirs(tvmaze_dir)
    shutil.copytree(os.path.join(FIXTURES, "omdb"), os.path.join(fixtures_dir, "omdb"))
    shutil.copy(os.path.join(FIXTURES, "tvmaze", "long-show.json"), tvmaze_dir)
    with open(os.path.join(FIXTURES, "tvmaze", "shows.json"), encoding="utf-8") as f:
        shows_json = json.load(f)
    with open(os.path.join(FIXTURES, "tvmaze", "episodes.json"), encoding="utf-8") as f:
        episodes_json = json.load(f)

    # Enough episodes that the watches fit with room to spare: 1 to 4 seasons of 6 to 22 episodes,
    # longer seasons only when that is not enough.
    per_show = max(1, math.ceil(watches * 1.4 / max(1, shows_count)))
    plans = []
    for _ in range(shows_count):
        seasons_count = rng.choice([1, 2, 2, 3, 4])
        plans.append([seasons_count, max(6, min(22, math.ceil(per_show * rng.uniform(0.7, 1.5) / seasons_count)))])
    turn = 0
    while sum(count * (per_season - 1) for count, per_season in plans) < watches * 1.15:
        plans[turn % shows_count][1] += 1
        turn += 1
    shows = []
    for index, (name, (seasons_count, per_season)) in enumerate(zip(show_names(shows_count, rng), plans)):
        show = make_show(index, name, rng)
        seasons, episodes = make_episodes(index, show, seasons_count, per_season, rng)
        shows_json.append(show)
        episodes_json[str(show["id"])] = {"seasons": seasons, "episodes": sorted(episodes, key=tvf.stub.airing_order)}
        shows.append({"show": show, "episodes": episodes})
    for entry, count in zip(shows, allocate(watches, [len(s["episodes"]) for s in shows], rng)):
        entry["watches"] = count
    tvf.write_json(Path(tvmaze_dir, "shows.json"), shows_json)
    tvf.write_json(Path(tvmaze_dir, "episodes.json"), episodes_json, compact=True)
    return shows


# --------------------------------------------------------------------------- the TV Time export


def fixture_header(name: str) -> tuple[str, list[str]]:
    """The fixture's first line as it is (BOM included) and its columns."""
    with open(os.path.join(TVTIME_FIXTURES, name), encoding="utf-8", newline="") as f:
        line = f.readline().rstrip("\r\n")
    return line, next(csv.reader([line.lstrip("\ufeff")]))


def go_csv(rows: list[list[str]]) -> str:
    """Minimal quoting and `\\n` line ends, as Go's encoding/csv writes."""
    out = io.StringIO()
    csv.writer(out, lineterminator="\n", quoting=csv.QUOTE_MINIMAL).writerows(rows)
    return out.getvalue()


def build_export(path: str, shows: list[dict], rng: random.Random) -> dict:
    """The ZIP: tracking-prod-records-v2.csv (one watch-episode row per watch, in the dump's key
    order) and followed_tv_show.csv (every show). Returns what it holds."""
    v2_line, v2_columns = fixture_header("tracking-prod-records-v2.csv")
    followed_line, followed_columns = fixture_header("followed_tv_show.csv")
    year_start = dt.datetime(YEAR, 1, 1, tzinfo=dt.timezone.utc)
    year_seconds = int((dt.datetime(YEAR + 1, 1, 1, tzinfo=dt.timezone.utc) - year_start).total_seconds())
    watch_rows, followed_rows = [], []
    bulk = 0
    for index, entry in enumerate(shows):
        show, episodes, count = entry["show"], entry["episodes"], entry["watches"]
        tvdb = show["externals"]["thetvdb"]
        series_uuid = uuid.UUID(int=rng.getrandbits(128), version=4)
        # Watched in airing order from a day of the year on, at moments spread to the year's end.
        begin = rng.randint(0, int(year_seconds * 0.85))
        moments = sorted(rng.randint(begin, year_seconds - 1) for _ in range(count))
        binge = count >= 6 and rng.random() < 0.08  # "mark previous as watched": one second for the first few
        for n, (episode, offset) in enumerate(zip(episodes, moments)):
            moment = year_start + dt.timedelta(seconds=(moments[0] if binge and n < 5 else offset))
            stamp = moment.strftime("%Y-%m-%d %H:%M:%S")
            row = dict.fromkeys(v2_columns, "")
            row.update({
                "key": f"watch-episode-{series_uuid}-{uuid.UUID(int=rng.getrandbits(128), version=4)}",
                "user_id": USER_ID,
                "created_at": stamp,
                "s_id": str(tvdb),
                "ep_id": str(TVDB_EPISODE_BASE + episode["id"] - EPISODE_ID_BASE),
                "gsi": f"watch-episode-{int(moment.timestamp())}" if rng.random() < 0.08 else "",
                "updated_at": stamp,
                "s_no": str(episode["season"]),
                "rewatch_count": "0",
                "ep_no": str(episode["number"]),
                "is_unitary": "false",
                "bulk_type": "fill-previous" if binge and n < 5 else "",
                "runtime": str(show["runtime"] * 60) if rng.random() < 0.3 else "",
                "series_name": show["name"],
                "season_number": str(episode["season"]),
                "episode_number": str(episode["number"]),
            })
            bulk += 1 if row["bulk_type"] else 0
            watch_rows.append(row)
        first_watch = year_start + dt.timedelta(seconds=moments[0] if moments else begin)
        followed_at = (first_watch - dt.timedelta(minutes=rng.randint(1, 600))).strftime("%Y-%m-%d %H:%M:%S")
        archived = index % 15 == 14
        followed = dict.fromkeys(followed_columns, "")
        followed.update({
            "tv_show_name": show["name"], "tv_show_id": str(tvdb), "created_at": followed_at, "active": "1",
            "notification_type": "2", "folder_id": "", "archived": "1" if archived else "0", "notification_offset": "1440",
            "user_id": USER_ID, "updated_at": followed_at, "diffusion": "original",
        })
        followed_rows.append(followed)
    watch_rows.sort(key=lambda r: r["key"])  # a DynamoDB dump lists a user's items by sort key
    v2 = v2_line + "\n" + go_csv([[r[c] for c in v2_columns] for r in watch_rows])
    followed_csv = followed_line + "\n" + go_csv([[r[c] for c in followed_columns] for r in followed_rows])
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as z:
        z.writestr("tracking-prod-records-v2.csv", v2.encode("utf-8"))
        z.writestr("followed_tv_show.csv", followed_csv.encode("utf-8"))
    return {"watches": len(watch_rows), "followed": len(followed_rows), "bulk": bulk,
            "archived": sum(1 for r in followed_rows if r["archived"] == "1"), "bytes": os.path.getsize(path)}


# --------------------------------------------------------------------------- the app's allowances


def app_allowances() -> dict:
    """TVMaze's allowances as the app enforces them, read from its sources: the host throttle
    (HostThrottle.Spec.tvmaze) and the per-account share (ClientShare.Limits.tvmazePerMinute, or
    SHARE_TVMAZE_PER_MINUTE when set here). Falls back to 20 per 10 s and 60 per minute."""
    found = {"throttle": (20, 10.0), "share": (60, 60.0), "source": "defaults (Sources not read)"}
    try:
        with open(os.path.join(ROOT, "Sources", "App", "Catalog", "Throttle.swift"), encoding="utf-8") as f:
            m = re.search(r'static let tvmaze = Spec\(name: "tvmaze", limit: (\d+), window: (\d+)\)', f.read())
        with open(os.path.join(ROOT, "Sources", "App", "Catalog", "FairShare.swift"), encoding="utf-8") as f:
            s = re.search(r"var tvmazePerMinute = (\d+)", f.read())
        if m and s:
            found = {"throttle": (int(m.group(1)), float(m.group(2))), "share": (int(s.group(1)), 60.0),
                     "source": "Sources/App/Catalog/Throttle.swift, FairShare.swift"}
    except OSError:
        pass
    override = os.environ.get("SHARE_TVMAZE_PER_MINUTE", "").strip()
    if override.isdigit():
        found["share"] = (int(override), 60.0)
        found["source"] += " (share from SHARE_TVMAZE_PER_MINUTE)"
    return found


def minimum_seconds(calls: int, limit: int, window: float) -> float:
    """The least time `calls` calls take under `limit` per sliding `window` (the first `limit` at once)."""
    if calls <= 0 or limit <= 0:
        return 0.0
    return (math.ceil(calls / limit) - 1) * window


def most_in_window(times: list[float], window: float) -> int:
    best, start = 0, 0
    for end in range(len(times)):
        while times[end] - times[start] >= window:
            start += 1
        best = max(best, end - start + 1)
    return best


# --------------------------------------------------------------------------- HTTP to the app


class Browser:
    """One browser: its cookies, no redirects followed, 127.0.0.1 only."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.cookie = ""

    def request(self, method: str, path: str, body: bytes | None = None, headers: dict | None = None, timeout: float = 60):
        all_headers = {"User-Agent": "bench_tvtime/1.0"}
        if self.cookie:
            all_headers["Cookie"] = self.cookie
        all_headers.update(headers or {})
        request = urllib.request.Request(self.base + path, method=method, data=body, headers=all_headers)
        opener = urllib.request.build_opener(bench.NoRedirect)
        try:
            with opener.open(request, timeout=timeout) as response:
                status, data, got = response.status, response.read(), response.headers
        except urllib.error.HTTPError as error:
            status, data, got = error.code, error.read(), error.headers
        names = {c.split("=", 1)[0] for c in got.get_all("Set-Cookie") or []}
        if names:
            self.cookie = bench_mix.merge_cookies(self.cookie, bench_mix.set_cookies(got, names))
        return status, data, got

    def page_token(self, path: str) -> str:
        status, page, _ = self.request("GET", path)
        found = re.search(rb'name="csrf" value="([^"]+)"', page) or re.search(rb'<meta name="csrf-token" content="([^"]+)"', page)
        if status != 200 or not found:
            raise HarnessError(f"GET {path} answered {status} without a form token")
        return found.group(1).decode()

    def sign_up(self, username: str, password: str) -> None:
        token = self.page_token("/account/signup")
        form = urllib.parse.urlencode({"username": username, "password": password, "csrf": token, "next": "/import"}).encode()
        status, body, _ = self.request("POST", "/account/signup", form, {"Content-Type": "application/x-www-form-urlencoded"})
        if status != 303:
            raise HarnessError(f"sign-up of {username} answered {status}: {body[:300]!r}")

    def upload(self, path: str) -> float:
        """POSTs the export as the import page's form does (the token in the address and the form);
        returns the seconds until the server answered (the file read and its rows stored)."""
        token = self.page_token("/import")
        with open(path, "rb") as f:
            data = f.read()
        boundary = f"----benchtvtime{uuid.uuid4().hex[:12]}"
        body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"csrf\"\r\n\r\n{token}\r\n"
                f"--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"{os.path.basename(path)}\"\r\n"
                f"Content-Type: application/zip\r\n\r\n").encode() + data + f"\r\n--{boundary}--\r\n".encode()
        start = time.perf_counter()
        status, answer, headers = self.request(
            "POST", f"/import?csrf={urllib.parse.quote(token)}", body,
            {"Content-Type": f"multipart/form-data; boundary={boundary}"}, timeout=300)
        elapsed = time.perf_counter() - start
        if status != 303:
            error = re.search(rb'class="[^"]*error[^"]*"[^>]*>(.*?)<', answer, re.S)
            raise HarnessError(f"the upload answered {status}: {(error.group(1) if error else answer[:300])!r}")
        return elapsed

    def progress(self) -> dict:
        status, body, _ = self.request("GET", "/import/progress", headers={"Accept": "application/json"}, timeout=30)
        if status != 200:
            raise HarnessError(f"GET /import/progress answered {status}: {body[:200]!r}")
        return json.loads(body)


# --------------------------------------------------------------------------- processes


class StubLog:
    """Reads the stub's request log (--verbose, stderr) as it comes, with the time each line came."""

    LINE = re.compile(r'"(GET|HEAD|POST) (\S+) HTTP/[\d.]+" (\d{3})')

    def __init__(self, stream, path: str) -> None:
        self.lock = threading.Lock()
        self.requests: list[tuple[float, str, str, int]] = []
        self.file = open(path, "w", encoding="utf-8")
        self.thread = threading.Thread(target=self.read, args=(stream,), daemon=True)
        self.thread.start()

    def read(self, stream) -> None:
        for line in stream:
            now = time.monotonic()
            self.file.write(line)
            m = self.LINE.search(line)
            if m:
                with self.lock:
                    self.requests.append((now, m.group(1), m.group(2), int(m.group(3))))

    def since(self, start: float) -> list[tuple[float, str, str, int]]:
        with self.lock:
            return [r for r in self.requests if r[0] >= start]


def tvmaze_kind(path: str) -> str | None:
    """The kind of a TVMaze request, as the stub routes it; None for the other upstreams."""
    bare = path.split("?", 1)[0]
    if bare.startswith("/lookup/shows"):
        return "lookup"
    if bare.startswith("/shows/") and bare.rstrip("/").endswith("/episodes"):
        return "episodes (specials)" if "specials" in path else "episodes"
    if bare.startswith("/shows/") and "embed" in path:
        return "show + embeds"
    if bare.startswith("/shows"):
        return "show"
    if bare.startswith(("/search/shows", "/singlesearch/shows")):
        return "search"
    if bare.startswith(("/seasons/", "/episodes/", "/updates/shows")):
        return bare.split("/")[1]
    return None


def stop(proc: subprocess.Popen | None) -> None:
    if proc is None or proc.poll() is not None:
        return
    try:
        proc.terminate()
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout=5)
    except OSError:
        pass


def reset_peak_rss(pid: int) -> bool:
    """Resets VmHWM to the current RSS (Linux: `5` to clear_refs); False when not allowed."""
    try:
        with open(f"/proc/{pid}/clear_refs", "w") as f:
            f.write("5")
        return True
    except OSError:
        return False


def get_json(url: str, method: str = "GET") -> dict:
    with urllib.request.urlopen(urllib.request.Request(url, method=method, data=b"" if method == "POST" else None), timeout=10) as r:
        return json.loads(r.read())


def refusals(metrics_url: str) -> dict:
    """The app's upstream refusals so far, by reason (every upstream on the stub shares its host)."""
    try:
        with urllib.request.urlopen(metrics_url, timeout=10) as r:
            text = r.read().decode()
    except Exception:
        return {}
    out: dict = {}
    for labels, value in re.findall(r"^(?:popcornswirl_)?upstream_refusals_total\{([^}]*)\}\s+(\S+)", text, re.M):
        reason = re.search(r'reason="([^"]*)"', labels)
        key = reason.group(1) if reason else "?"
        out[key] = out.get(key, 0) + float(value)
    return out


# --------------------------------------------------------------------------- a run


def run_import(label: str, browser: Browser, export: str, app: subprocess.Popen, stub_url: str, stub_log: StubLog,
               metrics_url: str, deadline: float) -> dict:
    get_json(stub_url + "/_stats/reset", "POST")
    rss_reset = reset_peak_rss(app.pid)
    refused_before = refusals(metrics_url)
    print(f"\n{label}: uploading {os.path.basename(export)} …", flush=True)
    started_mono = time.monotonic()
    started = time.perf_counter()
    upload_seconds = browser.upload(export)
    last_print = 0.0
    progress: dict = {}
    while True:
        progress = browser.progress()
        now = time.perf_counter()
        if progress.get("state") not in ("loading", "queued", "running"):
            break
        if now - last_print >= 15:
            last_print = now
            note = f" — {progress['message']}" if progress.get("message") else ""
            print(f"  {now - started:6.0f} s  {progress.get('state'):8} {progress.get('processed', 0):>6,}/{progress.get('total', 0):,} rows"
                  f" ({progress.get('landed', 0):,} landed, {progress.get('failed', 0):,} failed){note}", flush=True)
        if time.monotonic() > deadline:
            raise OverallTimeout(f"{label}: the import was still {progress.get('state')} at "
                                 f"{progress.get('processed', 0):,}/{progress.get('total', 0):,} rows")
        time.sleep(0.25)
    seconds = time.perf_counter() - started
    time.sleep(0.3)  # the stub's log lines of the last calls
    stats = get_json(stub_url + "/_stats")["requests"]
    requests = stub_log.since(started_mono)
    kinds: dict = {}
    times = []
    for when, method, path, status in requests:
        kind = tvmaze_kind(path)
        if kind is not None and method == "GET":
            kinds[kind] = kinds.get(kind, 0) + 1
            times.append(when)
    refused_after = refusals(metrics_url)
    rows = progress.get("total", 0)
    result = {
        "label": label, "seconds": seconds, "upload_seconds": upload_seconds, "state": progress.get("state"),
        "rows": rows, "rows_per_s": rows / seconds if seconds > 0 else float("nan"),
        "landed": progress.get("landed", 0), "skipped": progress.get("skipped", 0), "failed": progress.get("failed", 0),
        "queued": progress.get("queued", 0), "processed": progress.get("processed", 0),
        "rss_mb": bench.peak_rss_mb(app.pid), "rss_reset": rss_reset,
        "tvmaze": stats.get("tvmaze", 0), "itunes": stats.get("itunes", 0), "omdb": stats.get("omdb", 0),
        "kinds": kinds, "most_10s": most_in_window(times, 10.0), "most_60s": most_in_window(times, 60.0),
        "refusals": {k: v - refused_before.get(k, 0) for k, v in refused_after.items() if v - refused_before.get(k, 0)},
        "report_url": progress.get("reportURL"),
    }
    print(f"  {label}: {progress.get('state')} in {seconds:.1f} s — {rows:,} rows, {result['landed']:,} landed, "
          f"{result['skipped']:,} skipped, {result['failed']:,} failed, {result['queued']:,} in Needs a match; "
          f"{result['tvmaze']:,} TVMaze requests", flush=True)
    if result["failed"] or result["queued"] or result["state"] != "done":
        show_problems(browser, result)
    return result


def show_problems(browser: Browser, result: dict) -> None:
    """The report's rows that did not land, a few of each reason."""
    if not result.get("report_url"):
        return
    status, body, _ = browser.request("GET", result["report_url"])
    if status != 200:
        print(f"  (the report answered {status})")
        return
    reader = csv.DictReader(io.StringIO(body.decode("utf-8-sig")))
    seen: dict = {}
    for row in reader:
        state = (row.get("state") or row.get("State") or "").lower()
        if state in ("failed", "queued"):
            reason = row.get("reason") or row.get("Reason") or json.dumps(row)[:200]
            seen.setdefault(reason, []).append(row)
    for reason, rows in list(seen.items())[:10]:
        print(f"  {len(rows):>5} × {reason}")


# --------------------------------------------------------------------------- main


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", default=os.path.join(ROOT, ".build", "release", "popcornswirl"),
                        help="the server to measure (default .build/release/popcornswirl)")
    parser.add_argument("--watches", type=int, default=3000, help="episode watches in the export (default 3000)")
    parser.add_argument("--shows", type=int, default=150, help="shows they are spread over (default 150)")
    parser.add_argument("--keep", action="store_true", help="keep the temporary directory (fixtures, export, database, logs)")
    parser.add_argument("--timeout", type=float, default=20, help="minutes before the whole benchmark gives up (default 20)")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED, help="the generator's seed (the same files every run)")
    args = parser.parse_args(argv)
    if not 1 <= args.shows <= 9_000 or not 0 <= args.watches <= 2_000 * args.shows:
        parser.error("--shows must be 1 to 9,000, and --watches 0 to 2,000 per show")
    binary = os.path.abspath(args.binary)
    if not os.access(binary, os.X_OK):
        print(f"bench_tvtime: no server binary at {binary} (build it with `swift build -c release`, or pass --binary)", file=sys.stderr)
        return 2

    deadline = time.monotonic() + args.timeout * 60

    def on_alarm(signum, frame):  # noqa: ARG001
        raise OverallTimeout(f"{args.timeout:g} minutes passed")

    def on_term(signum, frame):  # noqa: ARG001
        raise KeyboardInterrupt

    signal.signal(signal.SIGALRM, on_alarm)
    signal.signal(signal.SIGTERM, on_term)
    signal.alarm(int(args.timeout * 60) + 30)  # the backstop, should a call hang past the polls' deadline

    tmp = tempfile.mkdtemp(prefix="popcorn-bench-tvtime-")
    stub = app = None
    app_log = None
    failed_code = 2  # anything but a finished report leaves the directory for a look
    try:
        rng = random.Random(args.seed)
        fixtures_dir = os.path.join(tmp, "fixtures")
        shows = build_fixtures(fixtures_dir, args.shows, args.watches, rng)
        export = os.path.join(tmp, "tv-time-personal-data.zip")
        held = build_export(export, shows, rng)
        episodes = sum(len(s["episodes"]) for s in shows)
        print(f"bench_tvtime: {args.shows} shows ({episodes:,} episodes, ids {FIRST_SHOW_ID}…, TheTVDB {FIRST_TVDB_ID}…), "
              f"export of {held['watches']:,} watches + {held['followed']} followed shows ({held['archived']} archived), "
              f"{held['bytes'] / 1024:.0f} KiB zipped; in {tmp}", flush=True)

        stub = subprocess.Popen([sys.executable, os.path.join(SCRIPTS, "stub_upstream.py"), "--port", "0",
                                 "--fixtures-dir", fixtures_dir, "--verbose"],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        first = stub.stdout.readline().strip()
        if not first.startswith("STUB_PORT="):
            raise HarnessError(f"the stub did not start: {first!r} {stub.stderr.read()[:500]}")
        stub_url = f"http://127.0.0.1:{int(first.split('=')[1])}"
        stub_log = StubLog(stub.stderr, os.path.join(tmp, "stub.log"))
        # The stub finds the shows by their TheTVDB id and answers their episodes.
        probe = shows[-1]["show"]
        with urllib.request.urlopen(f"{stub_url}/shows/{probe['id']}?embed[]=episodes&embed[]=seasons&embed[]=nextepisode", timeout=10) as r:
            embedded = json.loads(r.read())["_embedded"]
        if len(embedded["episodes"]) != len(shows[-1]["episodes"]):
            raise HarnessError("the stub does not answer the synthetic shows' episodes")
        opener = urllib.request.build_opener(bench.NoRedirect)
        try:
            found = opener.open(f"{stub_url}/lookup/shows?thetvdb={probe['externals']['thetvdb']}", timeout=10)
            status, location = found.status, found.headers.get("Location", "")
        except urllib.error.HTTPError as answer:
            status, location = answer.code, answer.headers.get("Location", "")
        if status != 301 or not location.endswith(f"/shows/{probe['id']}"):
            raise HarnessError(f"the stub's /lookup/shows?thetvdb= does not find the synthetic shows ({status} {location!r})")

        port, metrics_port = bench.free_port(), bench.free_port()
        db_path = os.path.join(tmp, "bench.sqlite")
        env = {**os.environ, "HOST": "127.0.0.1", "PORT": str(port), "METRICS_PORT": str(metrics_port), "SQLITE_PATH": db_path,
               "POSTER_CACHE_DIR": os.path.join(tmp, "posters"), "ITUNES_BASE_URL": stub_url, "IMAGE_BASE_URL": f"{stub_url}/img",
               "TVMAZE_BASE_URL": stub_url, "OMDB_BASE_URL": stub_url, "OMDB_API_KEY": "test-key", "LOG_LEVEL": "warning",
               "IMPORT_WORKER": "1"}
        env.pop("DATABASE_URL", None)
        app_log = open(os.path.join(tmp, "app.log"), "w")
        app = subprocess.Popen([binary], env=env, cwd=tmp, stdout=app_log, stderr=subprocess.STDOUT)
        base = f"http://127.0.0.1:{port}"
        try:
            bench.wait_http(base + "/healthz", timeout=60)
        except SystemExit as error:
            raise HarnessError(f"the server did not start: {error}") from None
        metrics_url = f"http://127.0.0.1:{metrics_port}/metrics"
        time.sleep(2)  # the server's own first upstream calls (catalogue warm-up) before anything is counted

        results = []
        for label, username in (("run 1, TVMaze not cached", "tvtimebench_a"), ("run 2, TVMaze cached", "tvtimebench_b")):
            browser = Browser(base)
            browser.sign_up(username, "bench-password-1")
            results.append(run_import(label, browser, export, app, stub_url, stub_log, metrics_url, deadline))
        failed_code = report(results, held, app_allowances())
        return failed_code
    except OverallTimeout as error:
        print(f"\nbench_tvtime: gave up after the overall timeout of {args.timeout:g} minutes ({error}). "
              f"Use --timeout to allow longer.", file=sys.stderr)
        return 2
    except HarnessError as error:
        print(f"\nbench_tvtime: {error}", file=sys.stderr)
        if app_log is not None:
            app_log.flush()
            with open(app_log.name, errors="replace") as f:
                tail = f.read()[-2000:]
            if tail.strip():
                print(f"--- server log (last lines) ---\n{tail}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("\nbench_tvtime: interrupted", file=sys.stderr)
        failed_code = 0
        return 130
    finally:
        signal.alarm(0)
        stop(app)
        stop(stub)
        if app_log is not None:
            app_log.close()
        if args.keep or failed_code:
            print(f"bench_tvtime: kept {tmp}" if args.keep else f"bench_tvtime: left {tmp} for a look (remove it when done)")
        else:
            shutil.rmtree(tmp, ignore_errors=True)


def report(results: list[dict], held: dict, allowances: dict) -> int:
    one, two = results
    print("\nTV Time import — " + f"{held['watches']:,} watches + {held['followed']} followed shows, {os.cpu_count()} cores")
    rows = [
        ("state", lambda r: r["state"]),
        ("wall seconds (upload → done)", lambda r: f"{r['seconds']:.1f}"),
        ("  of which the upload answered in", lambda r: f"{r['upload_seconds']:.2f} s"),
        ("rows", lambda r: f"{r['rows']:,}"),
        ("rows/s", lambda r: f"{r['rows_per_s']:,.1f}"),
        ("landed / skipped", lambda r: f"{r['landed']:,} / {r['skipped']:,}"),
        ("failed / needs a match", lambda r: f"{r['failed']:,} / {r['queued']:,}"),
        ("server peak RSS", lambda r: f"{r['rss_mb']:.0f} MB" + ("" if r["rss_reset"] else " (since start)")),
        ("TVMaze requests (stub /_stats)", lambda r: f"{r['tvmaze']:,}"),
    ]
    for kind in sorted({k for r in results for k in r["kinds"]}):
        rows.append((f"  {kind}", lambda r, kind=kind: f"{r['kinds'].get(kind, 0):,}"))
    rows += [
        ("  most in any 10 s / 60 s", lambda r: f"{r['most_10s']} / {r['most_60s']}"),
        ("iTunes / OMDb requests", lambda r: f"{r['itunes']:,} / {r['omdb']:,}"),
        ("app's refusals (every upstream)", lambda r: ", ".join(f"{k} {v:.0f}" for k, v in sorted(r["refusals"].items())) or "none"),
    ]
    width = max(len(name) for name, _ in rows) + 2
    col = max(22, max(len(str(fn(r))) for _, fn in rows for r in results) + 2)
    print(f"  {'':<{width}}{'run 1 (not cached)':<{col}}{'run 2 (cached)':<{col}}")
    for name, fn in rows:
        print(f"  {name:<{width}}{str(fn(one)):<{col}}{str(fn(two)):<{col}}")

    calls = one["tvmaze"]
    doc_limit, doc_window = TVMAZE_DOCUMENTED
    t_limit, t_window = allowances["throttle"]
    s_limit, s_window = allowances["share"]
    doc_min = minimum_seconds(calls, doc_limit, doc_window)
    app_min = max(minimum_seconds(calls, t_limit, t_window), minimum_seconds(calls, s_limit, s_window))
    print(f"\n  TVMaze budget, run 1: {calls:,} calls in {one['seconds']:.1f} s ({calls / max(one['seconds'], 1e-9):.2f}/s).")
    print(f"    TVMaze's documented limit, {doc_limit} per {doc_window:g} s per IP (../shared/DESIGN.md): "
          f"{calls:,} calls need at least {doc_min:.0f} s; the most seen in any {doc_window:g} s was {one['most_10s']} "
          f"({'within' if one['most_10s'] <= doc_limit else 'OVER'} the limit).")
    print(f"    The app's own allowances ({allowances['source']}): host throttle {t_limit} per {t_window:g} s, "
          f"one account's share {s_limit} per {s_window:g} s → at least {app_min:.0f} s for {calls:,} calls; "
          f"the most seen in any 60 s was {one['most_60s']}.")
    if one["seconds"] > 0 and app_min > 0:
        print(f"    Run 1 took {one['seconds'] / app_min:.2f}× the least time the app's allowances permit.")

    problems = []
    if two["seconds"] >= RUN2_LIMIT_SECONDS:
        problems.append(f"run 2 took {two['seconds']:.1f} s (target under {RUN2_LIMIT_SECONDS} s)")
    for r in results:
        if r["state"] != "done":
            problems.append(f"{r['label']} ended {r['state']}")
        if r["failed"]:
            problems.append(f"{r['label']}: {r['failed']:,} rows failed")
        if r["queued"]:
            problems.append(f"{r['label']}: {r['queued']:,} rows in Needs a match")
    if problems:
        print("\n  FAILED: " + "; ".join(problems))
        return 1
    print(f"\n  OK: run 2 under {RUN2_LIMIT_SECONDS} s ({two['seconds']:.1f} s), no row failed.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
