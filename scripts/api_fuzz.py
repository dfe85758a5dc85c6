#!/usr/bin/env python3
"""Fuzzes the JSON API with schemathesis against openapi.yaml, every check enabled.

Starts the built server (offline mode, a fresh SQLite file), makes two accounts with personal API
tokens -- an administrator with `popcornswirl create-admin` + `create-token`, and a member who signs
up and makes a token through the web pages like a person would -- and runs
`schemathesis run --checks all` authenticated as them (Web Fuzzing Commons auth file: the two are
peers that must never see each other's objects, for the object-level authorisation check).
Exits with schemathesis' exit code: 0 only when nothing failed.

Usage: scripts/api_fuzz.py [--binary PATH] [--max-examples N]
"""
from __future__ import annotations

import argparse
import http.cookiejar
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
CONFIG = REPO_ROOT / "scripts" / "schemathesis.toml"
SPEC = REPO_ROOT / "Sources" / "PopcornAPI" / "openapi.yaml"
PASSWORD = "fuzzing the popcorn api carefully"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_healthy(process: subprocess.Popen, url: str, log: Path, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            sys.exit(f"api_fuzz: the server exited ({process.returncode}):\n{log.read_text()[-3000:]}")
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                if response.status == 200:
                    return
        except (urllib.error.URLError, OSError):
            pass
        time.sleep(0.2)
    sys.exit(f"api_fuzz: {url} did not answer within {timeout:.0f} s")


def cli(binary: Path, env: dict, *args: str, stdin: str = "") -> str:
    result = subprocess.run([str(binary), *args], env=env, input=stdin, capture_output=True, text=True, timeout=120)
    if result.returncode != 0:
        sys.exit(f"api_fuzz: {' '.join(args)} failed:\n{result.stdout}\n{result.stderr}")
    return result.stdout


class Browser:
    """Just enough of a browser for the account pages: cookies and the forms' CSRF token."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))

    def get(self, path: str) -> str:
        with self.opener.open(self.base + path, timeout=30) as response:
            return response.read().decode()

    def post(self, path: str, fields: dict, token_page: str) -> str:
        page = self.get(token_page)
        csrf = re.search(r'name="csrf" value="([^"]+)"', page).group(1)
        body = urllib.parse.urlencode({**fields, "csrf": csrf}).encode()
        with self.opener.open(urllib.request.Request(self.base + path, data=body, method="POST"), timeout=30) as response:
            return response.read().decode()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", type=Path, default=REPO_ROOT / ".build" / "debug" / "popcornswirl")
    parser.add_argument("--max-examples", type=int, default=None)
    args = parser.parse_args()
    try:
        import schemathesis  # noqa: F401
    except ImportError:
        sys.exit("api_fuzz: schemathesis is not installed (python3 -m pip install schemathesis)")

    workdir = Path(tempfile.mkdtemp(prefix="popcorn-fuzz-"))
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "ADMIN_TOKEN")}
    env.update({
        "HOST": "127.0.0.1", "PORT": str(port), "SQLITE_PATH": str(workdir / "fuzz.sqlite"),
        "POSTER_CACHE_DIR": str(workdir / "posters"), "POPCORN_OFFLINE": "1", "LOG_LEVEL": "warning",
        # Thousands of cookieless writes from one address: without this, all but the first 30 would
        # meet the new-visitor limit (tested in VisitorThrottleTests and scripts/attack).
        "NEW_VISITORS_PER_HOUR": "0",
        # The demo offers, so that GET /api/v1/offers answers with offers whose shape is checked
        # against the schema (without them every answer is an empty list).
        "DEMO_OFFERS": "1",
    })
    # The administrator, as an operator makes one.
    cli(args.binary, env, "create-admin", "--username", "fuzz-admin", stdin=PASSWORD + "\n")
    admin_token = cli(args.binary, env, "create-token", "--username", "fuzz-admin", "--name", "schemathesis").strip().splitlines()[-1]

    log = workdir / "server.log"
    with log.open("wb") as out:
        server = subprocess.Popen([str(args.binary)], cwd=workdir, env=env, stdout=out, stderr=subprocess.STDOUT)
    try:
        wait_healthy(server, base + "/healthz", log)
        # The member, as a person does it: sign up, then make a token on the account page.
        member = Browser(base)
        member.post("/account/signup", {"username": "fuzz-member", "password": PASSWORD, "next": "/account"}, "/account/signup")
        # Making a token asks for the password again.
        page = member.post("/account/tokens", {"name": "schemathesis", "password": PASSWORD}, "/account")
        member_token = re.search(r'class="token-value"[^>]*value="(ps_[A-Za-z0-9_-]{43})"', page).group(1)

        (workdir / "wfc-auth.json").write_text(json.dumps({
            "schemaVersion": "0.2.0",
            "auth": [
                {"name": "admin", "fixedHeaders": [{"name": "Authorization", "value": f"Bearer {admin_token}"}]},
                {"name": "member", "fixedHeaders": [{"name": "Authorization", "value": f"Bearer {member_token}"}]},
            ],
        }))
        command = [
            # As a module: pip may put the `schemathesis` script in a directory not on PATH.
            sys.executable, "-m", "schemathesis.cli", "--config-file", str(CONFIG), "--no-color", "run", str(SPEC), "--url", base, "--checks", "all",
            "--seed", "20261122",
        ]
        if args.max_examples:
            command += ["--max-examples", str(args.max_examples)]
        print("==> " + " ".join(command), flush=True)
        # Its own directory: schemathesis keeps a cache next to where it runs.
        return subprocess.run(command, cwd=workdir, env={**os.environ, "PS_WFC_AUTH": str(workdir / "wfc-auth.json")}).returncode
    finally:
        server.terminate()
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            server.kill()
        if server.returncode not in (0, -15, None):
            print(log.read_text()[-3000:], file=sys.stderr)
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
