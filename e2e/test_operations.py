"""Running the server: readiness while it shuts down, requests in flight finishing, the metrics
listener, JSON logs with request ids, and pages that do not wait on an upstream that never answers.

Each test starts its own server process (the debug build) against its own stub on 127.0.0.1: the
slow and hanging upstream these tests set up must not reach the session's app (a request of its
catalogue worker left hanging would open its iTunes breaker for 30 s, into the next test file)."""

from __future__ import annotations

import json
import signal
import threading
import time
import urllib.error
import urllib.request

import pytest

from conftest import FREE_PORT, Stub, launch_app


@pytest.fixture
def stub(tmp_path_factory):
    """A stub of this test's own (the shared one keeps answering the session's app)."""
    instance = Stub(tmp_path_factory.mktemp("own-stub")).start()
    try:
        yield instance
    finally:
        instance.stop()


def get(url: str, timeout: float = 10.0, headers: dict | None = None) -> tuple[int, dict, str]:
    request = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, dict(response.headers), response.read().decode("utf-8", "replace")
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read().decode("utf-8", "replace")


def test_shutdown_drains_then_finishes_requests_in_flight(stub, tmp_path):
    app = launch_app(
        stub, tmp_path,
        # The default 1 s bound on waiting for an upstream (the suite raises it to 3 s elsewhere).
        {"SHUTDOWN_DRAIN_SECONDS": "2", "SHUTDOWN_TIMEOUT_SECONDS": "5", "METRICS_PORT": FREE_PORT, "LOG_FORMAT": "json",
         "UPSTREAM_WAIT_MS": "1000"},
    )
    metrics_port = int(app.env["METRICS_PORT"])
    try:
        # The metrics listener is its own port; the site's port has no /metrics.
        status, headers, text = get(f"http://127.0.0.1:{metrics_port}/metrics")
        assert status == 200 and headers["Content-Type"].startswith("text/plain; version=0.0.4")
        assert 'http_server_requests_total{method="GET",route="/healthz",status="200"}' in text
        assert get(app.url("/metrics"))[0] == 404

        # A request in flight: iTunes answers after 2.5 s, the page after about 1 s (the upstream bound).
        stub.set(latency_ms=2500, scope="itunes")
        answers: list[tuple[int, float]] = []

        def slow_page():
            started = time.monotonic()
            status, _, text = get(app.url("/movies?year=2019"), headers={"X-Request-Id": "in-flight-1"})
            answers.append((status, time.monotonic() - started, "Offline" in text))

        worker = threading.Thread(target=slow_page)
        worker.start()
        time.sleep(0.3)
        stopped_at = time.monotonic()
        app.process.send_signal(signal.SIGTERM)
        time.sleep(0.4)
        status, _, text = get(app.url("/ready"))
        assert (status, text) == (503, "not ready: shutting down"), "the balancer is told at once"
        assert get(app.url("/health"))[0] == 200, "still alive and serving while it drains"
        worker.join(timeout=10)
        assert answers and answers[0][0] == 200, f"the request in flight was answered: {answers}"
        assert answers[0][1] < 2.0 and answers[0][2], "answered at the upstream bound, from the bundled catalogue"
        code = app.process.wait(timeout=15)
        took = time.monotonic() - stopped_at
        assert code == 0, f"exit code {code}: {app.stderr_tail()}"
        assert 1.8 <= took < 9, f"stopped {took:.1f} s after SIGTERM (2 s of draining, then within the 5 s bound)"

        lines = [json.loads(line) for line in app.stderr_path.read_text().splitlines() if line.startswith("{")]
        assert lines, "LOG_FORMAT=json writes one JSON object a line"
        assert all({"time", "level", "label", "message"} <= line.keys() for line in lines)
        assert any(line["message"].startswith("shutting down") for line in lines)
        traced = [line for line in lines if line.get("request_id") == "in-flight-1"]
        assert traced, "the upstream's slowness was logged with the request's id"
    finally:
        if app.process.poll() is None:
            app.stop()


def test_an_upstream_that_never_answers_holds_no_page_past_the_bound(stub, tmp_path):
    app = launch_app(stub, tmp_path, {"UPSTREAM_WAIT_MS": "1000"})  # the default bound, not the suite's 3 s
    try:
        stub.set(mode="hang", scope="all")
        for path, notice in [("/movies?year=2018", "Offline — iTunes can’t be reached"), ("/shows", "Offline — TVMaze can’t be reached")]:
            started = time.monotonic()
            status, _, text = get(app.url(path))
            took = time.monotonic() - started
            assert status == 200 and notice in text, (path, status, text[:300])
            assert took < 2.0, f"{path} took {took:.1f} s (the bound is 1 s; it was 8 s)"
    finally:
        app.stop()
