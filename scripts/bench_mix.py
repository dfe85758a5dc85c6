"""`scripts/bench --mix`: PopcornSwirl under realistic traffic (Python 3 stdlib; the load itself is
`bench-mix`, a small Swift client in Benchmarks/BenchMix built in release beside the server).

People: PEOPLE browsers, each with its own cookies and profile, ACCOUNTS of them signed up with an
account. Libraries from 1 to 10,000 titles, drawn from a long tail (most a handful, a few huge),
with diary watches for the watched titles and custom lists for the larger ones; written through
the API once per person, then copied in the database in the app's own row formats.

Traffic: a plan of requests drawn at random, replayed by 64 keep-alive connections for --duration
after a warm-up, as through the reference deployment's nginx (each person's own address in
X-Forwarded-For; TRUSTED_PROXIES=127.0.0.1). One request in five is an anonymous visitor's (no cookie); the rest are people's,
the most active first (Zipf over people). What is asked follows Zipf too: recent release years
before old ones, a few popular titles, shows and searches before the long tail. About one request
in ten is a write through the JSON API (a rating, a favourite, a watch logged, a list item, a show,
an episode checked or unchecked); people also open Up Next.

Three runs: 64 connections asking without pause (the server's most: throughput, and CPU per request),
then the same mix paced at half that rate, or --mix-rate (open loop, latency from when each request
was due: with 64 connections asking without pause, latency is mostly the queue, 64 / throughput),
then that paced mix again with media servers' webhooks among it: EVENTS_PER_MINUTE events from
INTEGRATION_PEOPLE people's servers (Plex multipart, Jellyfin, Emby, the generic JSON; most of them
progress, some watched, a few retries), each matched and landed by the server as it goes.
Prints throughput, p50/p90/p99 per kind of request for both, the server's peak RSS, and every cache's hit
rate from /metrics (`popcornswirl_cache_*`, and the upstream lookups). Traffic goes to 127.0.0.1 only.
"""
from __future__ import annotations

import json
import os
import random
import re
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
import uuid

PEOPLE = 2000
ACCOUNTS = 40
YEARS = list(range(2026, 1979, -1))  # newest first: Zipf rank 1 is this year
SHOW_IDS = [139, 590, 32087, 45499, 52491, 62693]
SEARCHES = ["Midsommar", "Spider", "Parasite", "Booksmart", "Joker", "Amélie", "Hereditary", "Lady Bird", "Alien",
            "Drive", "Heat", "Up", "Frozen", "Cars", "Her", "Moon", "Jaws", "Rocky", "Fargo", "Memento"]
GENRES = ["Drama", "Comedy", "Horror", "Action", "Sci-Fi", "Thriller", "Romance", "Animation"]
SEED = 20261129
INTEGRATION_PEOPLE = 50
EVENTS_PER_MINUTE = 1000
# Shows the stub's TVMaze knows, by name and TheTVDB id, with aired episodes (season, last number).
EVENT_SHOWS = [("Pokémon", 76703, 29, 44), ("Girls", 220411, 6, 10), ("The Midnight Gospel", 378553, 1, 8)]

# What a person asks for, and how often (weights; writes about a tenth of the whole).
PERSON_MIX = [
    ("year", 16), ("home", 5), ("film", 16), ("show", 4), ("shows", 2), ("search", 7), ("mylists", 6),
    ("mylists-page", 3), ("mylists-sorted", 2), ("favorites", 3), ("lists", 2), ("list", 2), ("diary", 4),
    ("stats", 2), ("tv-favorites", 2), ("api-library", 4), ("api-diary", 2), ("api-search", 2),
    ("write-rating", 5), ("write-favorite", 3), ("write-watch", 3), ("write-list-item", 1), ("write-show", 1),
    ("up-next", 2), ("write-episode", 2),
]
VISITOR_MIX = [("year", 40), ("home", 15), ("film", 25), ("show", 6), ("shows", 4), ("search", 8), ("shared-list", 2)]


def aired_episodes():
    """The regular episodes of the fixture's shows that have aired (checked by `write-episode`)."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "AppTests", "Fixtures", "tvmaze", "episodes.json")
    with open(path) as f:
        shows = json.load(f)
    now = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime())
    return [e["id"] for show in shows.values() for e in show["episodes"]
            if e["type"] == "regular" and e.get("airstamp") and e["airstamp"][:19] <= now]


def zipf_weights(count, exponent=1.0):
    return [1.0 / (rank ** exponent) for rank in range(1, count + 1)]


def library_size(rng):
    """Most people save a handful of titles, some hundreds, a very few thousands (capped at 10,000)."""
    return max(1, min(10_000, int(2.0 / (rng.random() ** 1.25))))


def address_of(n):
    """A person's own client address, as the reference deployment's nginx passes it on."""
    return f"10.{n // 65536 % 256}.{n // 256 % 256}.{n % 256}"


def request_json(base, method, path, body=None, cookie=None, form=None, address="10.255.255.1"):
    headers = {"Accept": "application/json", "X-Forwarded-For": address}
    data = None
    if body is not None:
        headers["Content-Type"] = "application/json"
        data = json.dumps(body).encode()
    if form is not None:
        headers["Content-Type"] = "application/x-www-form-urlencoded"
        data = urllib.parse.urlencode(form).encode()
    if cookie:
        headers["Cookie"] = cookie
    request = urllib.request.Request(base + path, method=method, data=data, headers=headers)

    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args, **kwargs):
            return None

    opener = urllib.request.build_opener(NoRedirect)
    try:
        with opener.open(request, timeout=30) as response:
            return response.status, response.read(), response.headers
    except urllib.error.HTTPError as error:
        return error.code, error.read(), error.headers


def set_cookies(headers, names):
    return [c.split(";")[0] for c in headers.get_all("Set-Cookie") or [] if c.split("=")[0] in names]


def merge_cookies(cookie, new):
    jar = dict(part.split("=", 1) for part in cookie.split("; ") if part)
    jar.update(dict(part.split("=", 1) for part in new))
    return "; ".join(f"{k}={v}" for k, v in jar.items())


def make_people(base, film_ids, rng):
    """Each person's first save through the API (their profile and cookies), then their browser's
    first page (visitor id, CSRF secret); ACCOUNTS of them sign up."""
    people = []
    for n in range(PEOPLE):
        status, _, headers = request_json(base, "PUT", f"/api/v1/library/movies/{film_ids[n % len(film_ids)]}",
                                          {"favorite": True, "note": f"bench person {n}"}, address=address_of(n))
        if status != 200:
            raise SystemExit(f"bench --mix: creating person {n} answered {status}")
        cookie = "; ".join(set_cookies(headers, {"ps_session"}))
        _, _, headers = request_json(base, "GET", "/lists", cookie=cookie, address=address_of(n))
        cookie = merge_cookies(cookie, set_cookies(headers, {"ps_visitor", "ps_csrf"}))
        people.append({"n": n, "cookie": cookie, "first": film_ids[n % len(film_ids)]})
    for person in rng.sample(people, ACCOUNTS):
        _, page, _ = request_json(base, "GET", "/account/signup", cookie=person["cookie"], address=address_of(person["n"]))
        token = re.search(rb'<meta name="csrf-token" content="([^"]+)"', page).group(1).decode()
        status, body, headers = request_json(base, "POST", "/account/signup", cookie=person["cookie"],
                                             form={"username": f"bench{person['n']}", "password": "bench-password-1",
                                                   "csrf": token, "next": "/"},
                                             address=address_of(person["n"]))
        if status not in (200, 303):
            raise SystemExit(f"bench --mix: sign-up answered {status}: {body[:200]!r}")
        person["cookie"] = merge_cookies(person["cookie"], set_cookies(headers, {"ps_session"}))
        person["account"] = True
    return people


def seed_libraries(db_path, people, rng):
    """Copies each person's one real entry into their library (sizes from `library_size`), with
    watches for the watched titles and up to three lists for the larger libraries."""
    con = sqlite3.connect(db_path, timeout=30)
    profiles = {row[0]: row[1] for row in con.execute(
        "SELECT note, profile_id FROM library_entries WHERE note LIKE 'bench person %'")}
    entry_columns = [d[0] for d in con.execute("SELECT * FROM library_entries LIMIT 1").description]
    templates = {row[entry_columns.index("profile_id")]: row for row in con.execute("SELECT * FROM library_entries")}
    watch_columns = ["id", "profile_id", "media_kind", "item_id", "title", "artwork_url", "watched_on", "rating", "note",
                     "created_at", "genre", "runtime_minutes"]
    entries, watches, lists, items = [], [], [], []
    now = time.time()
    sizes = [library_size(rng) for _ in people]
    sizes[0], sizes[1], sizes[2] = 10_000, 5_000, 2_000  # the long tail's end is always there
    for person, size in zip(people, sizes):
        profile = profiles[f"bench person {person['n']}"]
        template = dict(zip(entry_columns, templates[profile]))
        uuid_of = (lambda: uuid.uuid4().bytes) if isinstance(template["id"], bytes) else (lambda: str(uuid.uuid4()).upper())
        person["size"] = size
        person["saved"] = []
        for k in range(1, size):
            item = 7_000_000_000 + k
            row = dict(template, id=uuid_of(), item_id=str(item), title=f"Saved Film {k:05d}", note=None,
                       genre=GENRES[k % len(GENRES)], favorite=k % 3 != 0, watched=k % 3 == 0,
                       rating=(k % 10 + 1) if k % 4 else None, updated_at=now - k * 60, created_at=now - k * 60)
            entries.append(tuple(row[c] for c in entry_columns))
            if k % 3 == 0:
                day = time.strftime("%Y-%m-%d", time.gmtime(now - k * 86_400 / 3))
                watches.append((uuid_of(), profile, "movie", str(item), row["title"], template["artwork_url"], day,
                                row["rating"], None, now - k * 60, row["genre"], 100 + k % 60))
        if size >= 20:
            for index in range(min(3, size // 20)):
                list_id = uuid_of()
                person.setdefault("lists", []).append(str(uuid.UUID(bytes=list_id)) if isinstance(list_id, bytes) else list_id)
                lists.append((list_id, profile, f"List {index + 1}", "Made by the benchmark", None, now, now))
                for position in range(1, min(50, size) + 1):
                    items.append((list_id, "movie", str(7_000_000_000 + position), f"Saved Film {position:05d}", 2019,
                                  template["artwork_url"], position, None, now))
    con.execute("UPDATE library_entries SET note = NULL WHERE note LIKE 'bench person %'")
    con.executemany(f"INSERT INTO library_entries ({','.join(entry_columns)}) VALUES ({','.join('?' * len(entry_columns))})", entries)
    con.executemany(f"INSERT INTO watches ({','.join(watch_columns)}) VALUES ({','.join('?' * len(watch_columns))})", watches)
    con.executemany("INSERT INTO custom_lists (id, profile_id, name, description, share_token, created_at, updated_at) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?)", lists)
    con.executemany("INSERT INTO custom_list_items (list_id, media_kind, item_id, title, year, artwork_url, position, note, added_at) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", items)
    con.commit()
    con.close()
    return {"titles": len(entries) + len(people), "watches": len(watches), "lists": len(lists), "list items": len(items),
            "largest": max(sizes), "median": sorted(sizes)[len(sizes) // 2]}


def make_plan(people, film_ids, shared_token, rng, count, episode_ids):
    """`count` requests drawn as described in the module's comment."""
    person_weights = zipf_weights(len(people), 0.9)
    active = people[:]
    rng.shuffle(active)
    year_weights = zipf_weights(len(YEARS), 1.1)
    film_weights = zipf_weights(len(film_ids), 1.0)
    search_weights = zipf_weights(len(SEARCHES), 1.0)
    person_kinds, person_kind_weights = zip(*PERSON_MIX)
    visitor_kinds, visitor_kind_weights = zip(*VISITOR_MIX)
    plan = []

    def pick(items, weights):
        return rng.choices(items, weights)[0]

    for _ in range(count):
        anonymous = rng.random() < 0.2
        person = None if anonymous else pick(active, person_weights)
        kind = pick(visitor_kinds, visitor_kind_weights) if anonymous else pick(person_kinds, person_kind_weights)
        method, body = "GET", None
        if kind == "year":
            path = f"/movies?year={pick(YEARS, year_weights)}"
        elif kind == "home":
            path = "/"
        elif kind == "film":
            path = f"/movies/{pick(film_ids, film_weights)}"
        elif kind == "show":
            path = f"/shows/{rng.choice(SHOW_IDS)}"
        elif kind == "shows":
            path = "/shows"
        elif kind == "search":
            path = "/search?q=" + urllib.parse.quote(pick(SEARCHES, search_weights))
        elif kind == "shared-list":
            path = f"/shared/lists/{shared_token}"
        elif kind == "mylists":
            path = "/library?list=all"
        elif kind == "mylists-page":
            pages = max(1, (person["size"] + 59) // 60)
            path = f"/library?list=all&page={rng.randint(1, min(pages, 20))}"
        elif kind == "mylists-sorted":
            path = f"/library?list=all&sort=rating&genre={rng.choice(GENRES)}"
        elif kind == "favorites":
            path = "/library?list=favorites"
        elif kind == "lists":
            path = "/lists"
        elif kind == "list":
            path = f"/lists/{rng.choice(person['lists'])}" if person.get("lists") else "/lists"
        elif kind == "diary":
            path = "/diary"
        elif kind == "stats":
            path = "/stats"
        elif kind == "tv-favorites":
            path = "/shows/favorites"
        elif kind == "api-library":
            path = "/api/v1/library"
        elif kind == "api-diary":
            path = "/api/v1/diary"
        elif kind == "api-search":
            path = "/api/v1/search?q=" + urllib.parse.quote(pick(SEARCHES, search_weights))
        elif kind == "write-rating":
            method, path, body = "PUT", f"/api/v1/library/movies/{pick(film_ids, film_weights)}", {"rating": rng.randint(1, 10)}
        elif kind == "write-favorite":
            method, path, body = "PUT", f"/api/v1/library/movies/{pick(film_ids, film_weights)}", {"favorite": rng.random() < 0.7}
        elif kind == "write-watch":
            day = f"20{rng.randint(10, 26):02d}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"
            method, path, body = "POST", "/api/v1/diary", {"kind": "movie", "titleId": int(pick(film_ids, film_weights)), "date": day}
        elif kind == "write-list-item":
            if person.get("lists"):
                method, path = "PUT", f"/api/v1/lists/{rng.choice(person['lists'])}/items/movie/{pick(film_ids, film_weights)}"
            else:
                method, path, body = "PUT", f"/api/v1/library/movies/{pick(film_ids, film_weights)}", {"watched": True}
        elif kind == "up-next":
            path = "/shows/up-next"
        elif kind == "write-episode":
            method, path, body = "PUT", f"/api/v1/library/episodes/{rng.choice(episode_ids)}", {"watched": rng.random() < 0.8}
        elif kind == "write-show":
            method, path, body = "PUT", f"/api/v1/library/shows/{rng.choice(SHOW_IDS)}", {"favorite": rng.random() < 0.7}
        else:
            raise AssertionError(kind)
        label = ("anon " if anonymous else "") + kind
        address = address_of(100_000 + rng.randrange(50_000)) if anonymous else address_of(person["n"])
        plan.append({"method": method, "path": path, "cookie": None if anonymous else person["cookie"], "address": address,
                     "body": json.dumps(body) if body is not None else None, "label": label})
    return plan


def seed_integrations(db_path):
    """INTEGRATION_PEOPLE people's media servers, kinds in turn: (kind, token) each. The tokens are
    made here and stored as the app stores them (their SHA-256)."""
    import hashlib
    con = sqlite3.connect(db_path, timeout=30)
    profiles = [row[0] for row in con.execute(
        "SELECT DISTINCT profile_id FROM library_entries ORDER BY profile_id LIMIT ?", (INTEGRATION_PEOPLE,))]
    created = con.execute("SELECT MIN(created_at) FROM profiles").fetchone()[0]
    kinds = ["plex", "jellyfin", "emby", "generic"]
    servers = []
    for n, profile in enumerate(profiles):
        kind = kinds[n % len(kinds)]
        token = f"{n:03d}" + "t" * 40
        ident = uuid.uuid4().bytes if isinstance(profile, bytes) else str(uuid.uuid4()).upper()
        con.execute("INSERT INTO integrations (id, profile_id, kind, token_hash, threshold, server_user, unplayed_erases, created_at) "
                    "VALUES (?, ?, ?, ?, 90, NULL, 0, ?)", (ident, profile, kind, hashlib.sha256(token.encode()).hexdigest(), created))
        servers.append((kind, token))
    con.commit()
    con.close()
    return servers


def event_request(kind, token, n, rng):
    """One webhook as the server sends it: a play's progress mostly, a finished play one time in
    five; its counter makes each body new (a retry repeats an earlier one)."""
    name, tvdb, season, last = EVENT_SHOWS[n % len(EVENT_SHOWS)]
    episode = 1 + rng.randrange(last)
    finished = rng.random() < 0.2
    progress = 100 if finished else rng.randrange(1, 89)
    path = f"/integrations/{kind}/{token}"
    if kind == "plex":
        payload = {"event": "media.scrobble" if finished else rng.choice(["media.play", "media.pause", "media.resume", "media.stop"]),
                   "user": True, "owner": True, "Account": {"id": 1, "title": "bench"},
                   "Metadata": {"type": "episode", "title": f"Episode {episode}", "grandparentTitle": name, "parentIndex": season,
                                "index": episode, "ratingKey": str(10_000 + n), "grandparentRatingKey": str(tvdb),
                                "viewOffset": progress * 14_000, "duration": 1_400_000, "Guid": [{"id": f"tvdb://{9_000_000 + n}"}]}}
        boundary = "------------------------benchmark"
        body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"payload\"\r\nContent-Type: application/json\r\n\r\n"
                + json.dumps(payload) + f"\r\n--{boundary}\r\nContent-Disposition: form-data; name=\"thumb\"; filename=\"thumb.jpg\"\r\n"
                "Content-Type: image/jpeg\r\n\r\n" + "J" * 20_000 + f"\r\n--{boundary}--\r\n")
        return path, body, f"multipart/form-data; boundary={boundary}"
    if kind == "jellyfin":
        body = {"NotificationType": "PlaybackStop" if finished else "PlaybackProgress", "ItemType": "Episode", "Name": f"Episode {episode}",
                "SeriesName": name, "SeasonNumber": season, "EpisodeNumber": episode, "Provider_tvdb": str(9_000_000 + n),
                "PlayedToCompletion": finished, "PlaybackPositionTicks": progress * 14_000_000, "RunTimeTicks": 1_400_000_000,
                "NotificationUsername": "bench", "ItemId": f"{n:032x}", "SeriesId": f"{tvdb:032x}"}
        return path, json.dumps(body), "text/plain; charset=utf-8"
    if kind == "emby":
        body = {"Event": "playback.stop" if finished else "playback.pause", "User": {"Name": "bench"},
                "Item": {"Type": "Episode", "Name": f"Episode {episode}", "SeriesName": name, "ParentIndexNumber": season,
                         "IndexNumber": episode, "Id": str(50_000 + n), "SeriesId": str(tvdb), "ProviderIds": {}, "RunTimeTicks": 1_400_000_000},
                "PlaybackInfo": {"PlayedToCompletion": finished, "PositionTicks": progress * 14_000_000}}
        return path, json.dumps(body), "application/json"
    body = {"type": "episode", "show": {"title": name, "ids": {"tvdb": tvdb}}, "season": season, "episode": episode,
            "progress": progress, "eventId": f"bench-{n}"}
    return path, json.dumps(body), "application/json"


def with_events(plan, servers, rate, rng):
    """The plan with webhooks among its requests, so that paced at `rate` + the events' rate they
    come EVENTS_PER_MINUTE a minute, evenly; one in twenty is a retry of the one before it."""
    every = max(1, round(rate / (EVENTS_PER_MINUTE / 60)))
    mixed, n, last = [], 0, None
    for index, planned in enumerate(plan):
        mixed.append(planned)
        if index % every == every - 1:
            kind, token = servers[n % len(servers)]
            if last is not None and rng.random() < 0.05:
                path, body, content_type = last
            else:
                path, body, content_type = event_request(kind, token, n, rng)
            last = (path, body, content_type)
            mixed.append({"method": "POST", "path": path, "cookie": None, "address": None, "body": body, "contentType": content_type,
                          "label": f"event {kind}"})
            n += 1
    return mixed


def metrics(url):
    with urllib.request.urlopen(url, timeout=10) as response:
        return response.read().decode()


def cache_rates(text):
    """Every cache's hits, misses and evictions from /metrics, and the upstream lookups by result."""
    caches = {}
    for match in re.finditer(r'^popcornswirl_cache_(hits|misses|evictions)_total\{cache="([^"]+)"\} (\S+)$', text, re.M):
        caches.setdefault(match.group(2), {})[match.group(1)] = float(match.group(3))
    lookups = {}
    for match in re.finditer(r'^upstream_lookups_total\{host="([^"]+)",result="([^"]+)"\} (\S+)$', text, re.M):
        lookups.setdefault(match.group(1), {})[match.group(2)] = float(match.group(3))
    return caches, lookups


def subtract(after, before):
    return {name: {key: value - before.get(name, {}).get(key, 0) for key, value in series.items()} for name, series in after.items()}


def run(args, binary, mix_binary, helpers):
    """The whole --mix run; `helpers` is scripts/bench's module (free_port, wait_http, peak_rss_mb, ROOT)."""
    root = helpers.ROOT
    if not args.skip_build:
        subprocess.run(["swift", "build", "-c", "release", "--product", "bench-mix"], cwd=root, check=True)
    rng = random.Random(SEED)
    tmp = tempfile.mkdtemp(prefix="popcorn-bench-mix-")
    procs = []
    try:
        stub = subprocess.Popen([sys.executable, os.path.join(root, "scripts/stub_upstream.py"), "--port", "0", "--pad-to", "200"],
                                stdout=subprocess.PIPE, text=True)
        procs.append(stub)
        stub_url = f"http://127.0.0.1:{int(stub.stdout.readline().strip().split('=')[1])}"
        port, metrics_port = helpers.free_port(), helpers.free_port()
        db_path = os.path.join(tmp, "bench.sqlite")
        env = {**os.environ, "HOST": "127.0.0.1", "PORT": str(port), "METRICS_PORT": str(metrics_port), "SQLITE_PATH": db_path,
               "POSTER_CACHE_DIR": os.path.join(tmp, "posters"), "ITUNES_BASE_URL": stub_url, "IMAGE_BASE_URL": f"{stub_url}/img",
               "TVMAZE_BASE_URL": stub_url, "OMDB_BASE_URL": stub_url, "OMDB_API_KEY": "test-key", "LOG_LEVEL": "warning",
               "DEMO_OFFERS": "1", "TRUSTED_PROXIES": "127.0.0.1"}
        env.pop("DATABASE_URL", None)
        app = subprocess.Popen([binary], env=env, cwd=tmp)
        procs.append(app)
        base = f"http://127.0.0.1:{port}"
        helpers.wait_http(base + "/healthz")

        started = time.time()
        film_ids = []
        for year in YEARS[:12]:
            _, body, _ = request_json(base, "GET", f"/movies?year={year}")
            film_ids += [m.decode() for m in re.findall(rb'data-movie-id="(\d+)"', body)]
        film_ids = list(dict.fromkeys(film_ids))
        rng.shuffle(film_ids)
        if len(film_ids) < 500:
            raise SystemExit(f"bench --mix: only {len(film_ids)} films on the year pages")
        people = make_people(base, film_ids, rng)
        library = seed_libraries(db_path, people, rng)
        owner = next(p for p in people if p.get("lists"))
        status, body, _ = request_json(base, "PUT", f"/api/v1/lists/{owner['lists'][0]}/share", cookie=owner["cookie"],
                                       address=address_of(owner["n"]))
        shared_token = json.loads(body)["shareToken"]
        # The shows' episode lists, held before any check is sent.
        for show_id in SHOW_IDS:
            request_json(base, "GET", f"/api/v1/shows/{show_id}/episodes")
        plan = make_plan(people, film_ids, shared_token, rng, args.mix_requests, aired_episodes())
        plan_path = os.path.join(tmp, "plan.json")
        with open(plan_path, "w") as f:
            json.dump(plan, f)
        writes = sum(1 for r in plan if r["method"] != "GET")
        anonymous = sum(1 for r in plan if r["cookie"] is None)
        print(f"bench --mix: {PEOPLE:,} people ({ACCOUNTS} with accounts), libraries of {library['titles']:,} titles in all "
              f"(median {library['median']}, largest {library['largest']:,}), {library['watches']:,} watches, "
              f"{library['lists']:,} lists; seeded in {time.time() - started:.0f} s", flush=True)
        print(f"  plan: {len(plan):,} requests, {writes / len(plan):.1%} writes, {anonymous / len(plan):.1%} anonymous, "
              f"{len(set(r['path'] for r in plan)):,} distinct addresses", flush=True)

        duration = float(args.duration.rstrip("s"))
        if args.mix_warmup > 0:
            subprocess.run([mix_binary, plan_path, base, "64", str(args.mix_warmup)], check=True, capture_output=True)
        before = cache_rates(metrics(f"http://127.0.0.1:{metrics_port}/metrics"))
        cpu_before = cpu_seconds(app.pid)
        out = subprocess.run([mix_binary, plan_path, base, "64", str(duration)], check=True, capture_output=True, text=True).stdout
        cpu = cpu_seconds(app.pid) - cpu_before
        after = cache_rates(metrics(f"http://127.0.0.1:{metrics_port}/metrics"))
        result = json.loads(out)
        result["cpuMsPerRequest"] = cpu * 1000 / max(1, result["requests"])
        # The same mix at a rate people bring (half the server's most unless --mix-rate says), so
        # latency is the answer's own and not the queue of 64 connections asking without pause.
        rate = args.mix_rate or round(result["throughput"] / 2)
        paced = json.loads(subprocess.run([mix_binary, plan_path, base, "64", str(duration), str(rate)],
                                          check=True, capture_output=True, text=True).stdout)
        # The same paced mix with media servers' webhooks among it.
        servers = seed_integrations(db_path)
        events_rate = rate + EVENTS_PER_MINUTE / 60
        mixed = with_events(plan, servers, rate, rng)
        mixed_path = os.path.join(tmp, "plan-events.json")
        with open(mixed_path, "w") as f:
            json.dump(mixed, f)
        with_webhooks = json.loads(subprocess.run([mix_binary, mixed_path, base, "64", str(duration), str(events_rate)],
                                                  check=True, capture_output=True, text=True).stdout)
        # The events alone, at the same rate: what an event costs when no page competes for the cores.
        alone = [r for r in mixed if r["label"].startswith("event ")]
        alone_path = os.path.join(tmp, "plan-events-alone.json")
        with open(alone_path, "w") as f:
            json.dump(alone, f)
        events_alone = json.loads(subprocess.run([mix_binary, alone_path, base, "16", str(duration), str(EVENTS_PER_MINUTE / 60)],
                                                 check=True, capture_output=True, text=True).stdout)
        time.sleep(3)  # what the last events started settles
        settled = events_settled(db_path)
        rss = helpers.peak_rss_mb(app.pid)
        report(result, rss, subtract(after[0], before[0]), subtract(after[1], before[1]), duration, args.mix_warmup)
        report_paced(paced, rate)
        report_events(paced, with_webhooks, events_rate, settled, events_alone)
        if args.mix_json:
            with open(args.mix_json, "w") as f:
                json.dump({"result": result, "paced": paced, "rate": rate, "peak_rss_mb": rss, "caches": after[0], "lookups": after[1]},
                          f, indent=1)
    finally:
        for proc in reversed(procs):
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()


def report_paced(result, rate):
    print(f"\n  the same mix paced at {rate:,} requests/s (open loop; latency from when each request was due):")
    print(f"  all requests: p50 {result['all']['p50']:.1f} ms, p90 {result['all']['p90']:.1f} ms, p99 {result['all']['p99']:.1f} ms"
          f" ({result['requests']:,} requests, {result['errors']} failed)")
    print(f"\n  {'request':<22}{'count':>8}{'p50 ms':>9}{'p99 ms':>9}{'max ms':>9}")
    for label, row in sorted(result["labels"].items(), key=lambda item: -item[1]["count"]):
        print(f"  {label:<22}{row['count']:>8}{row['p50']:>9.1f}{row['p99']:>9.1f}{row['max']:>9.1f}")


def events_settled(db_path):
    con = sqlite3.connect(db_path, timeout=30)
    rows = con.execute("SELECT state, COALESCE(result, ''), COUNT(*) FROM integration_events GROUP BY state, result").fetchall()
    con.close()
    return rows


def report_events(paced, mixed, rate, settled, alone):
    events = {label: row for label, row in mixed["labels"].items() if label.startswith("event ")}
    count = sum(row["count"] for row in events.values())
    print(f"\n  the paced mix again with {EVENTS_PER_MINUTE:,} webhook events a minute from {INTEGRATION_PEOPLE} people's servers "
          f"({rate:,.0f} requests/s in all; {count:,} events sent):")
    for label, row in sorted(events.items()):
        statuses = " ".join(f"{code}x{n}" for code, n in sorted(row["statuses"].items()))
        ok = "OK" if row["p99"] <= 50 else "MISSED"
        print(f"  {label:<22}{row['count']:>8}  p50 {row['p50']:.1f} ms  p99 {row['p99']:.1f} ms (target <= 50 ms) {ok}  {statuses}")
    print(f"  pages and API, p99 without events → with them:")
    for label, row in sorted(paced["labels"].items(), key=lambda item: -item[1]["count"])[:12]:
        other = mixed["labels"].get(label)
        if other:
            print(f"    {label:<22}{row['p99']:>8.1f} → {other['p99']:.1f} ms")
    print(f"  the events alone at {EVENTS_PER_MINUTE:,} a minute (no pages): p50 {alone['all']['p50']:.1f} ms, "
          f"p99 {alone['all']['p99']:.1f} ms, max {alone['all']['max']:.1f} ms ({alone['requests']:,} events, {alone['errors']} failed)")
    print("  events stored, by state and result: " + ", ".join(f"{state}/{result or '-'} {n}" for state, result, n in settled))


def cpu_seconds(pid):
    """The server's user and system CPU time so far: steadier than throughput on a shared machine."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def report(result, rss, caches, lookups, duration, warmup):
    print(f"\nPopcornSwirl under the mix — release build, 64 connections asking without pause, {duration:.0f} s after {warmup:.0f} s of warm-up, "
          f"{os.cpu_count()} cores")
    print(f"  throughput: {result['throughput']:,.0f} requests/s ({result['requests']:,} requests, {result['errors']} failed)")
    print(f"  all requests: p50 {result['all']['p50']:.1f} ms, p90 {result['all']['p90']:.1f} ms, p99 {result['all']['p99']:.1f} ms")
    print(f"  server CPU per request: {result['cpuMsPerRequest']:.2f} ms (user + system)")
    print(f"  server peak RSS: {rss:.0f} MB")
    print(f"\n  {'request':<22}{'count':>8}{'p50 ms':>9}{'p99 ms':>9}{'max ms':>9}  statuses")
    for label, row in sorted(result["labels"].items(), key=lambda item: -item[1]["count"]):
        statuses = " ".join(f"{code}x{n}" for code, n in sorted(row["statuses"].items()))
        print(f"  {label:<22}{row['count']:>8}{row['p50']:>9.1f}{row['p99']:>9.1f}{row['max']:>9.1f}  {statuses}")
    for error in result["firstErrors"]:
        print(f"  error: {error}")
    print("\n  caches (during the measured run):")
    if not caches:
        print("    (this build reports no popcornswirl_cache_* series)")
    for name, series in sorted(caches.items()):
        hits, misses = series.get("hits", 0), series.get("misses", 0)
        rate = hits / (hits + misses) if hits + misses else float("nan")
        print(f"    {name:<28} hit rate {rate:6.1%}  ({hits:,.0f} hits, {misses:,.0f} misses, {series.get('evictions', 0):,.0f} evictions)")
    for host, series in sorted(lookups.items()):
        print(f"    upstream {host}: " + ", ".join(f"{key} {value:,.0f}" for key, value in sorted(series.items())))
