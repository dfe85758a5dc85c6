"""Browser-test harness for PopcornSwirl (pytest + selenium, headless Chromium).

Fixtures
  stub            session: scripts/stub_upstream.py on a free port (.base_url, .set(), .state(),
                  .stats(), .reset_stats(), .stop(), .start(), .restore())
  app             session: .build/debug/popcornswirl (or $POPCORN_APP_BINARY) wired to the stub
                  (.base_url, .url(path), .tmpdir), with an administrator account made by
                  `popcornswirl create-admin` before it starts (ADMIN_USERNAME / ADMIN_PASSWORD below)
  browser         function: headless Chromium with a 412x915 viewport (a phone), fresh profile per test
  tablet_browser  function: the same with a 1024x1366 viewport (a tablet)
  wait_for        the wait_for() helper below, as a fixture

After every test the stub is put back as it started (mode ok, no latency, scope all, running),
so a test that breaks the upstream cannot leak that into the next one.

Tests can also `from conftest import wait_for`.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import hmac
import json
import os
import secrets
import sqlite3
import selectors
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parent.parent
STUB_SCRIPT = REPO_ROOT / "scripts" / "stub_upstream.py"
# POPCORN_APP_BINARY runs the suite against another build of the app (its resource bundles next to it).
APP_BINARY = Path(os.environ["POPCORN_APP_BINARY"]) if os.environ.get("POPCORN_APP_BINARY") else REPO_ROOT / ".build" / "debug" / "popcornswirl"
CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
PHONE_SIZE = (412, 915)
TABLET_SIZE = (1024, 1366)
APP_START_TIMEOUT = 30.0
STUB_START_TIMEOUT = 10.0
# The e2e app's administrator (the advertiser console is for signed-in admin accounts): made with
# `popcornswirl create-admin`, whose password rules are at least 12 characters, not a common
# password and not containing the username.
ADMIN_USERNAME = "e2e-admin"
ADMIN_PASSWORD = "console passphrase 5f1c9a7e"
CLI_TIMEOUT = 60.0


# --------------------------------------------------------------------------- helpers


# An `extra_env` value for launch_app meaning "a free port, chosen at launch" (read it back from app.env).
FREE_PORT = "<free port>"


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def http_json(method: str, url: str, body: dict | None = None, timeout: float = 5.0):
    data = json.dumps(body).encode("utf-8") if body is not None else None
    request = urllib.request.Request(url, data=data, method=method)
    if data is not None:
        request.add_header("Content-Type", "application/json")
    with urllib.request.urlopen(request, timeout=timeout) as response:
        return json.loads(response.read().decode("utf-8"))


def tail(path: Path, lines: int = 40) -> str:
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return "(no output captured)"
    return "\n".join(text.splitlines()[-lines:]) or "(empty)"


def stop_process(process: subprocess.Popen, timeout: float = 10.0) -> None:
    if process.poll() is not None:
        return
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=5)


def wait_for(driver, css: str, timeout: float = 10, visible: bool = False):
    """Waits until an element matching `css` is in the page (and displayed, if `visible`) and returns it."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as EC
    from selenium.webdriver.support.ui import WebDriverWait

    condition = EC.visibility_of_element_located if visible else EC.presence_of_element_located
    return WebDriverWait(driver, timeout).until(
        condition((By.CSS_SELECTOR, css)),
        message=f"no element matching {css!r} within {timeout} s at {driver.current_url}",
    )


# --------------------------------------------------------------------------- upstream stub


class Stub:
    """scripts/stub_upstream.py in a subprocess; `.stop()` then `.start()` restarts it on the same port."""

    DEFAULTS = {"mode": "ok", "latency_ms": 0, "scope": "all"}

    def __init__(self, workdir: Path, extra_args: list[str] | None = None) -> None:
        self.workdir = workdir
        self.extra_args = list(extra_args or [])
        self.port = 0
        self.process: subprocess.Popen | None = None
        self.log_path = workdir / "stub.stderr.log"
        self.dirty = False

    @property
    def base_url(self) -> str:
        if not self.port:
            raise RuntimeError("stub has not been started")
        return f"http://127.0.0.1:{self.port}"

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def start(self) -> "Stub":
        if self.running:
            return self
        command = [sys.executable, str(STUB_SCRIPT), "--host", "127.0.0.1", "--port", str(self.port), *self.extra_args]
        deadline = time.monotonic() + STUB_START_TIMEOUT
        while True:
            log = self.log_path.open("ab")
            self.process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=log, cwd=REPO_ROOT)
            log.close()
            port = self._read_port(deadline)
            if port:
                self.port = port
                return self
            # The old port may still be held for a moment after a restart: retry until the deadline.
            stop_process(self.process)
            if time.monotonic() >= deadline:
                raise RuntimeError(f"upstream stub did not start; its stderr:\n{tail(self.log_path)}")
            time.sleep(0.2)

    def _read_port(self, deadline: float) -> int | None:
        assert self.process is not None and self.process.stdout is not None
        selector = selectors.DefaultSelector()
        selector.register(self.process.stdout, selectors.EVENT_READ)
        try:
            line = b""
            while not line.endswith(b"\n"):
                remaining = deadline - time.monotonic()
                if remaining <= 0 or not selector.select(timeout=remaining):
                    return None
                chunk = self.process.stdout.read1(256) if hasattr(self.process.stdout, "read1") else self.process.stdout.read(1)
                if not chunk:
                    return None  # the stub exited
                line += chunk
        finally:
            selector.close()
        text = line.decode("utf-8", "replace").strip()
        if not text.startswith("STUB_PORT="):
            return None
        return int(text.split("=", 1)[1])

    def stop(self) -> None:
        """Stops the stub (the port stays reserved in `.port` for `.start()`)."""
        if self.process is not None:
            stop_process(self.process)
            if self.process.stdout is not None:
                self.process.stdout.close()
        self.process = None

    def set(self, mode: str | None = None, latency_ms: int | None = None, scope: str | None = None, **more) -> dict:
        """Changes the failure switches (POST /_control); returns the new state."""
        changes = {k: v for k, v in {"mode": mode, "latency_ms": latency_ms, "scope": scope, **more}.items() if v is not None}
        self.dirty = True
        try:
            return http_json("POST", f"{self.base_url}/_control", changes)
        except urllib.error.HTTPError as error:
            raise ValueError(f"stub rejected {changes}: {error.read().decode('utf-8', 'replace')}") from None

    def state(self) -> dict:
        return http_json("GET", f"{self.base_url}/_control")

    def stats(self) -> dict:
        """Requests received per upstream: {"itunes": n, "tvmaze": n, "omdb": n, "img": n}."""
        return http_json("GET", f"{self.base_url}/_stats")["requests"]

    def reset_stats(self) -> None:
        http_json("POST", f"{self.base_url}/_stats/reset", {})

    def restore(self) -> None:
        """Running again, with the default switches."""
        if not self.running:
            self.start()
        if self.dirty:
            http_json("POST", f"{self.base_url}/_control", self.DEFAULTS)
            self.dirty = False


_STUB: Stub | None = None


@pytest.fixture(scope="session")
def stub(tmp_path_factory):
    global _STUB
    if not STUB_SCRIPT.is_file():
        pytest.fail(f"upstream stub missing: {STUB_SCRIPT}", pytrace=False)
    instance = Stub(tmp_path_factory.mktemp("stub")).start()
    _STUB = instance
    try:
        yield instance
    finally:
        _STUB = None
        instance.stop()


@pytest.fixture(autouse=True)
def _restore_stub_after_test():
    yield
    if _STUB is not None:
        _STUB.restore()


# --------------------------------------------------------------------------- the app


class App:
    def __init__(self, process: subprocess.Popen, port: int, tmpdir: Path, stdout_path: Path, stderr_path: Path, env: dict | None = None) -> None:
        self.process = process
        self.port = port
        self.tmpdir = tmpdir
        self.stdout_path = stdout_path
        self.stderr_path = stderr_path
        self.env = env

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def url(self, path: str = "/") -> str:
        return self.base_url + (path if path.startswith("/") else "/" + path)

    def stderr_tail(self, lines: int = 40) -> str:
        return tail(self.stderr_path, lines)

    def stop(self) -> None:
        """Stops the server itself (the browser then has no server at all, as on a plane)."""
        stop_process(self.process)

    def start(self) -> None:
        """Starts the server again on the same port and database."""
        with self.stdout_path.open("ab") as out, self.stderr_path.open("ab") as err:
            self.process = subprocess.Popen([str(APP_BINARY)], cwd=self.tmpdir, env=self.env, stdout=out, stderr=err)
        _wait_healthy(self.process, self.url("/healthz"), self.stderr_path, APP_START_TIMEOUT)


def _create_admin(env: dict, cwd: Path) -> None:
    """`popcornswirl create-admin --username ADMIN_USERNAME`, the password on standard input, against
    the app's own database (the command applies the migrations itself)."""
    try:
        result = subprocess.run(
            [str(APP_BINARY), "create-admin", "--username", ADMIN_USERNAME],
            input=ADMIN_PASSWORD + "\n", capture_output=True, text=True, cwd=cwd, env=env, timeout=CLI_TIMEOUT,
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"`popcornswirl create-admin` did not finish within {CLI_TIMEOUT:.0f} s", pytrace=False)
    if result.returncode != 0 or "is ready" not in result.stdout:
        pytest.fail(
            f"`popcornswirl create-admin` failed (exit code {result.returncode}):\n{result.stdout}{result.stderr}",
            pytrace=False,
        )


class PortTaken(Exception):
    """The app could not bind its port: another process took it between free_port() and the bind."""


def _wait_healthy(process: subprocess.Popen, url: str, stderr_path: Path, timeout: float, port_may_be_taken: bool = False) -> None:
    deadline = time.monotonic() + timeout
    last_error = "no answer"
    while time.monotonic() < deadline:
        if process.poll() is not None:
            if port_may_be_taken and "Address already in use" in tail(stderr_path):
                raise PortTaken()
            pytest.fail(
                f"the app exited with code {process.returncode} before {url} answered; its stderr:\n{tail(stderr_path)}",
                pytrace=False,
            )
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                if response.status == 200:
                    return
                last_error = f"HTTP {response.status}"
        except urllib.error.HTTPError as error:
            last_error = f"HTTP {error.code}"
        except (urllib.error.URLError, OSError) as error:
            last_error = str(error)
        time.sleep(0.2)
    stop_process(process)
    pytest.fail(f"{url} did not answer 200 within {timeout:.0f} s ({last_error}); app stderr:\n{tail(stderr_path)}", pytrace=False)


def launch_app(stub, tmpdir: Path, extra_env: dict | None = None) -> App:
    """Starts .build/debug/popcornswirl on a free port with its own SQLite file in `tmpdir`, wired
    to the stub, with the e2e administrator (and `extra_env` set); returns once /healthz answers."""
    port = free_port()
    env = dict(os.environ)
    env.pop("DATABASE_URL", None)  # the e2e app always uses its own SQLite file
    env.update(
        {
            "HOST": "127.0.0.1",
            "PORT": str(port),
            "SQLITE_PATH": str(tmpdir / "e2e.sqlite"),
            "POSTER_CACHE_DIR": str(tmpdir / "posters"),
            "ITUNES_BASE_URL": stub.base_url,
            "TVMAZE_BASE_URL": stub.base_url,
            "OMDB_BASE_URL": stub.base_url,
            "OMDB_API_KEY": "test-key",
            "IMAGE_BASE_URL": f"{stub.base_url}/img",
            # Every browser here is one client address (127.0.0.1) standing for many people: the
            # per-client abuse limit (30 new iTunes calls a minute) would answer the suite's searches
            # from the title index. The limit itself is tested by Tests/AppTests/Hardening/FairShareTests
            # and scripts/attack (upstream-fair-share, put-show-no-body).
            "SHARE_ITUNES_PER_MINUTE": "0",
            "SHARE_TVMAZE_PER_MINUTE": "0",
            # A page waits on the stub up to 3 s (1 s by default): test_import slows iTunes to show
            # an import in progress.
            "UPSTREAM_WAIT_MS": "3000",
            # Likewise each test's browser is a new visitor from the same address.
            "NEW_VISITORS_PER_HOUR": "0",
            "OFFER_CLICKS_PER_ADDRESS": "0",
            "OFFER_IMPRESSIONS_PER_ADDRESS": "0",
            # The offer tests run over a fresh install's demo shops, which visitors see only with
            # DEMO_OFFERS=1 (test_offers_flow.test_demo_offers_hidden_by_default launches without).
            "DEMO_OFFERS": "1",
        }
    )
    env.pop("ADMIN_TOKEN", None)  # no longer used by the app (it would only log a warning)
    env.update(extra_env or {})
    chosen_ports = [key for key, value in (extra_env or {}).items() if value == FREE_PORT]
    for key in chosen_ports:
        env[key] = str(free_port())
    _create_admin(env, tmpdir)
    stdout_path, stderr_path = tmpdir / "app.stdout.log", tmpdir / "app.stderr.log"
    # A port free_port() found can be taken before the app binds it (the other browser lane, or an
    # outgoing connection's ephemeral port): then the app is started again on new ports.
    for attempt in range(5):
        if attempt > 0:
            port = free_port()
            env["PORT"] = str(port)
            for key in chosen_ports:
                env[key] = str(free_port())
        with stdout_path.open("wb") as out, stderr_path.open("wb") as err:
            process = subprocess.Popen([str(APP_BINARY)], cwd=tmpdir, env=env, stdout=out, stderr=err)
        try:
            _wait_healthy(process, f"http://127.0.0.1:{port}/healthz", stderr_path, APP_START_TIMEOUT, port_may_be_taken=attempt < 4)
        except PortTaken:
            continue
        return App(process, port, tmpdir, stdout_path, stderr_path, env)
    raise AssertionError("unreachable: the last attempt fails the test itself")


@pytest.fixture(scope="session")
def app(stub, tmp_path_factory, request):
    if not os.access(APP_BINARY, os.X_OK):
        pytest.fail(
            f"app binary not found at {APP_BINARY}: build it first (`swift build`, or scripts/test which builds it)",
            pytrace=False,
        )
    global _SESSION_DATABASE
    instance = launch_app(stub, tmp_path_factory.mktemp("app"))
    _SESSION_DATABASE = instance.env["SQLITE_PATH"]
    process = instance.process
    try:
        yield instance
    finally:
        died = process.poll() is not None
        stop_process(process)
        if died:
            message = (
                f"[e2e] the app had died during the session (exit code {process.returncode}); stderr tail:\n"
                f"{instance.stderr_tail()}"
            )
            capture = request.config.pluginmanager.get_plugin("capturemanager")
            if capture is not None:
                with capture.global_and_fixture_disabled():  # print past pytest's output capture
                    sys.stderr.write("\n" + message + "\n")
            else:
                sys.stderr.write("\n" + message + "\n")


# --------------------------------------------------------------------------- browsers


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    setattr(item, f"rep_{report.when}", report)


def _make_driver(size: tuple[int, int], profile_dir: str, prefs: dict | None = None, extra_args: tuple[str, ...] = ()):
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        pytest.fail("selenium is not installed: python3 -m pip install selenium", pytrace=False)
    for path in (CHROMIUM, CHROMEDRIVER):
        if not os.access(path, os.X_OK):
            pytest.fail(f"{path} missing: apt-get install -y chromium chromium-driver", pytrace=False)
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in (
        "--headless=new",
        "--no-sandbox",  # root in CI containers
        "--disable-dev-shm-usage",
        "--disable-gpu",
        "--no-first-run",
        "--no-default-browser-check",
        "--disable-extensions",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--lang=en-US",
        f"--window-size={size[0]},{size[1]}",
        f"--user-data-dir={profile_dir}",
        *extra_args,
    ):
        options.add_argument(argument)
    if prefs:
        options.add_experimental_option("prefs", prefs)
    service = Service(executable_path=CHROMEDRIVER)
    driver = webdriver.Chrome(service=service, options=options)
    driver.set_page_load_timeout(30)
    # Size the window so that the page's viewport (innerWidth x innerHeight) is `size`, as on the device.
    driver.set_window_size(*size)
    inner_width, inner_height = driver.execute_script("return [window.innerWidth, window.innerHeight]")
    if (inner_width, inner_height) != size:
        driver.set_window_size(2 * size[0] - inner_width, 2 * size[1] - inner_height)
    return driver


_SESSION_DATABASE: str | None = None


def _signed_visitor() -> str:
    """A new visitor id signed as the session app signs them (`VisitorIDs`: 22 characters, a full
    stop, the first 16 bytes of HMAC-SHA256 under the deployment's key, base64url): a made-up value
    is no visitor to the app. Random when the key cannot be read (another app then treats it as a
    first visit)."""
    ident = base64.urlsafe_b64encode(secrets.token_bytes(16)).rstrip(b"=").decode()
    secret = None
    if _SESSION_DATABASE:
        with contextlib.suppress(sqlite3.Error), contextlib.closing(sqlite3.connect(f"file:{_SESSION_DATABASE}?mode=ro", uri=True)) as db:
            row = db.execute("SELECT secret FROM deployment_keys WHERE name = 'visitors'").fetchone()
            secret = row[0] if row else None
    if secret is None:
        return secrets.token_urlsafe(32)
    mac = hmac.new(secret.encode(), f"visitor|{ident}".encode(), hashlib.sha256).digest()[:16]
    return ident + "." + base64.urlsafe_b64encode(mac).rstrip(b"=").decode()


def _browser(request, size: tuple[int, int], prefs: dict | None = None, extra_args: tuple[str, ...] = ()):
    """Yields a driver with a fresh profile; `extra_args` are more Chromium switches (e.g. host mapping)."""
    profile_dir = tempfile.mkdtemp(prefix="popcorn-e2e-profile-")
    driver = _make_driver(size, profile_dir, prefs, extra_args)
    # A fresh profile is a new person, with a `ps_visitor` cookie of its own: without one the app
    # derives a first visit's id from the address, which every test browser shares, so all of them
    # would share one frequency cap for partner offers.
    driver.execute_cdp_cmd(
        "Network.setCookie",
        {"name": "ps_visitor", "value": _signed_visitor(), "domain": "127.0.0.1", "path": "/", "httpOnly": True, "sameSite": "Lax"},
    )
    try:
        yield driver
    finally:
        report = getattr(request.node, "rep_call", None)
        if report is not None and report.failed:
            artifacts = Path(tempfile.gettempdir()) / "popcorn-e2e-artifacts"
            artifacts.mkdir(exist_ok=True)
            stem = "".join(c if c.isalnum() or c in "-_." else "_" for c in request.node.nodeid)
            try:
                driver.save_screenshot(str(artifacts / f"{stem}.png"))
                (artifacts / f"{stem}.html").write_text(driver.page_source, encoding="utf-8")
                sys.stderr.write(f"\n[e2e] screenshot and page source of the failure: {artifacts}/{stem}.*\n")
            except Exception as error:  # noqa: BLE001 (a dead browser must not hide the test's own failure)
                sys.stderr.write(f"\n[e2e] could not save the failure's screenshot: {error}\n")
        try:
            driver.quit()
        finally:
            shutil.rmtree(profile_dir, ignore_errors=True)


@pytest.fixture
def browser(request):
    """Headless Chromium the size of a phone, with a fresh profile (a new visitor, no cookies)."""
    yield from _browser(request, PHONE_SIZE)


@pytest.fixture
def tablet_browser(request):
    """Headless Chromium the size of a tablet, with a fresh profile."""
    yield from _browser(request, TABLET_SIZE)


@pytest.fixture(name="wait_for")
def wait_for_fixture():
    return wait_for


@pytest.fixture
def nojs_browser(request):
    """A phone-sized Chromium with JavaScript switched off for pages (as a visitor who disabled it)."""
    yield from _browser(request, PHONE_SIZE, {"profile.managed_default_content_settings.javascript": 2})
