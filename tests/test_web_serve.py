"""A real ``morphchess serve`` process run for others: SIGTERM and SIGINT stop it while pages hold event
streams, X-Forwarded-For is believed only from a trusted proxy, /healthz answers from the database, the
access log holds no token, and every limit option is checked (exit status 2, one line)."""

from __future__ import annotations

import http.client
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("uvicorn")

from online_support import read_events  # noqa: E402
from programs import free_port  # noqa: E402


class Serve:
    """``morphchess serve`` in a subprocess on a free port, its stderr kept; ``before``: Python run in
    the process before the command (``-c``)."""

    def __init__(self, tmp_path, *options: str, before: str | None = None) -> None:
        self.port = free_port()
        self.log = tmp_path / f"serve-{self.port}.log"
        start = ["-m", "morphchess"] if before is None else \
            ["-c", before + "\nimport sys\nfrom morphchess.cli import main\nsys.exit(main(sys.argv[1:]))"]
        self.proc = subprocess.Popen(
            [sys.executable, *start, "serve", "--port", str(self.port), "--db",
             f"sqlite:///{tmp_path}/games.db", *options],
            stdout=subprocess.DEVNULL, stderr=self.log.open("wb"))
        end = time.monotonic() + 60
        while time.monotonic() < end:
            try:
                if self.call("GET", "/healthz")[0] == 200:
                    return
            except OSError:
                time.sleep(0.1)
        self.proc.kill()
        raise RuntimeError("the server did not start: " + self.log.read_text()[-2000:])

    def call(self, method: str, path: str, body: dict | None = None, headers: dict | None = None):
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        try:
            conn.request(method, path, None if body is None else json.dumps(body),
                         {"Content-Type": "application/json", **(headers or {})})
            r = conn.getresponse()
            return r.status, json.loads(r.read() or b"null")
        finally:
            conn.close()

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


@pytest.fixture
def served(tmp_path):
    made: list[Serve] = []

    def start(*options: str, before: str | None = None) -> Serve:
        made.append(Serve(tmp_path, *options, before=before))
        return made[-1]
    yield start
    for s in made:
        s.stop()


def _open_stream(port: int, gid: str) -> http.client.HTTPResponse:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=20)
    conn.request("GET", f"/api/games/{gid}/events")
    response = conn.getresponse()
    assert response.status == 200
    assert b"retry:" in response.read1(100)
    return response


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_stops_the_server_while_pages_hold_event_streams(served, sig):
    server = served()
    status, g = server.call("POST", "/api/games", {"black": "human"})
    assert status == 200
    streams = [_open_stream(server.port, g["id"]) for _ in range(4)]
    time.sleep(0.5)
    start = time.monotonic()
    server.proc.send_signal(sig)
    server.proc.wait(10)
    assert time.monotonic() - start < 5  # streams ended at once; SHUTDOWN_S is the backstop
    for response in streams:  # each stream was closed by the server (the page's EventSource reconnects)
        while response.read1(1000):
            pass
    assert "Traceback" not in server.log.read_text()


def test_x_forwarded_for_is_believed_only_from_a_trusted_proxy(served):
    server = served("--games-per-minute", "2")
    answers = [server.call("POST", "/api/games", {}, {"X-Forwarded-For": f"203.0.113.{i}"})[0] for i in range(3)]
    assert answers == [200, 200, 429]  # a forged address is not a new client
    proxied = served("--games-per-minute", "1", "--trusted-proxy", "127.0.0.1")
    answers = [proxied.call("POST", "/api/games", {}, {"X-Forwarded-For": f"203.0.113.{i}"})[0] for i in range(3)]
    assert answers == [200, 200, 200]  # three clients behind the proxy
    assert proxied.call("POST", "/api/games", {}, {"X-Forwarded-For": "203.0.113.0"})[0] == 429


def test_healthz_and_an_access_log_without_tokens(served):
    server = served()
    status, health = server.call("GET", "/healthz")
    assert status == 200 and health == {"ok": True, "database": "sqlite"}
    status, g = server.call("POST", "/api/games", {"black": "human"})
    token = g["seat"]["token"]
    auth = {"Authorization": f"Bearer {token}"}
    assert server.call("POST", f"/api/games/{g['id']}/moves", {"move": "e2e4", "ply": 0}, auth)[0] == 200
    server.call("GET", f"/api/games/{g['id']}?seat={token}")
    events = read_events(server.port, f"/api/games/{g['id']}/events?since=0", lambda ev: len(ev) >= 2)
    assert events[0][1] == "move"
    server.proc.send_signal(signal.SIGTERM)
    server.proc.wait(10)
    log = server.log.read_text()
    assert f"POST /api/games/{g['id']}/moves 200" in log and "[redacted]" in log
    assert token not in log


@pytest.mark.parametrize("options, words", [
    (["--games-per-minute", "-1"], "games-per-minute '-1': at least 1"),
    (["--engine-seconds", "0"], "engine-seconds '0': at least 0.1"),
    (["--engine-games", "two"], "engine-games 'two': not a number"),
    (["--trusted-proxy", "proxy.example"], "trusted-proxy 'proxy.example': not an address"),
    (["--definitions-cached", "0"], "definitions-cached '0': at least 1"),
    (["--port", "٨٠٠٠"], "port '٨٠٠٠': use a number"),  # digits Python's int reads but no one types
    (["--engine-games", "٢"], "engine-games '٢': not a number in digits 0-9"),
    (["--games-per-minute", "５"], "games-per-minute '５': not a number in digits 0-9"),
    (["--definitions-cached", "99999999999999999999999"], "definitions-cached '99999999999999999999': at most"),
    (["--engine-seconds", "1e12"], "engine-seconds '1e12': at most 3600"),
])
def test_every_limit_option_is_checked_in_one_line(options, words):
    r = subprocess.run([sys.executable, "-m", "morphchess", "serve", *options], capture_output=True, text=True,
                       timeout=60, env={**os.environ})
    assert r.returncode == 2 and words in r.stderr and len(r.stderr.strip().splitlines()) == 1, r.stderr


def test_uvicorn_workers_end_their_streams_at_once_on_sigterm(tmp_path):
    port = free_port()
    env = {**os.environ, "MORPHCHESS_DB": f"sqlite:///{tmp_path}/games.db", "MORPHCHESS_ACCESS_LOG": "0"}
    proc = subprocess.Popen([sys.executable, "-m", "uvicorn", "--factory", "morphchess.web.app:app_from_env",
                             "--port", str(port), "--workers", "2", "--no-proxy-headers", "--log-level", "warning"],
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        end = time.monotonic() + 60
        while time.monotonic() < end:
            try:
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
                conn.request("GET", "/healthz")
                if conn.getresponse().status == 200:
                    break
            except OSError:
                time.sleep(0.2)
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        conn.request("POST", "/api/games", json.dumps({"black": "human"}), {"Content-Type": "application/json"})
        gid = json.loads(conn.getresponse().read())["id"]
        streams = [_open_stream(port, gid) for _ in range(4)]
        time.sleep(0.5)
        start = time.monotonic()
        proc.send_signal(signal.SIGTERM)  # no --timeout-graceful-shutdown: the streams end by themselves
        proc.wait(15)
        assert time.monotonic() - start < 5
        for response in streams:
            while response.read1(1000):
                pass
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def _alive(pid: int) -> bool:
    """Is the process running (not gone, not a zombie waiting to be reaped)?"""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def _parent(pid: str) -> int:
    return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])


def _lab_workers(pid: int, timeout: float = 30) -> list[int]:
    """The lab's worker processes of the server ``pid`` (spawned children, not the resource tracker),
    waiting for the first to start."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        found = []
        for entry in os.listdir("/proc"):
            try:
                if not entry.isdigit() or _parent(entry) != pid:
                    continue
                command = Path(f"/proc/{entry}/cmdline").read_bytes()
            except OSError:
                continue
            if b"spawn_main" in command and b"resource_tracker" not in command:
                found.append(int(entry))
        if found:
            return found
        time.sleep(0.1)
    raise AssertionError("no lab worker started")


def _lab_state(server: Serve, lab_id: str, wanted: str, timeout: float) -> dict:
    end = time.monotonic() + timeout
    while True:
        status, lab = server.call("GET", f"/api/lab/{lab_id}")
        assert status == 200, lab
        if lab["state"] == wanted or time.monotonic() > end:
            return lab
        time.sleep(0.2)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_a_lab_worker_dies_with_a_killed_server_and_a_restart_ends_its_run(served):
    """Before, SIGKILL of the server left the lab's worker running at 99% CPU, orphaned, one more a crash."""
    server = served()
    status, lab = server.call("POST", "/api/lab", {"variant": "chess", "games": 100, "level": 3})
    assert status == 200 and lab["state"] == "running"
    workers = _lab_workers(server.proc.pid)
    server.proc.kill()  # SIGKILL: no handler of the server runs
    server.proc.wait()
    end = time.monotonic() + 5
    while any(_alive(w) for w in workers) and time.monotonic() < end:
        time.sleep(0.05)
    assert not any(_alive(w) for w in workers)
    again = served()  # the same database: the run is found, and read as ended once its lease is out
    lab = _lab_state(again, lab["id"], "ended", 10)
    assert lab["state"] == "ended" and "stopped" in lab["error"] and lab["total"] == 100


# an engine whose search ignores its stop, as one building a variant's evaluation tables does for a while
STUCK = "import time\nimport morphchess.engine\nmorphchess.engine.search = lambda *a, **k: time.sleep(600)"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_sigterm_ends_the_server_within_seconds_whatever_runs(served):
    """Before, SIGTERM took 36-37 s while an engine thought or evaluation tables were built: the server
    waited for its searches to stop.  Here a search that never stops, and a lab."""
    from morphchess.web.shutdown import EXIT_S
    server = served(before=STUCK)
    status, lab = server.call("POST", "/api/lab", {"variant": "chess", "games": 100, "level": 3})
    assert status == 200
    workers = _lab_workers(server.proc.pid)
    status, g = server.call("POST", "/api/games", {"white": "engine"})
    assert status == 200
    time.sleep(1)
    start = time.monotonic()
    server.proc.send_signal(signal.SIGTERM)
    server.proc.wait(EXIT_S + 10)
    assert time.monotonic() - start < EXIT_S + 2 and server.proc.returncode == 0
    assert not any(_alive(w) for w in workers)
    assert "still running 5 s after the signal; stopped" in server.log.read_text()
    again = served()
    lab = _lab_state(again, lab["id"], "ended", 0)  # marked ended by the server as it stopped
    assert lab["state"] == "ended"
