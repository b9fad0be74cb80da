"""Test support for the online web board: a PostgreSQL server in a temporary directory, the server
in a subprocess, and a small JSON client over the standard library."""

from __future__ import annotations

import glob
import http.client
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from programs import debian_program, free_port

PG_BIN = sorted(glob.glob("/usr/lib/postgresql/*/bin"))


def _as_postgres(cmd: list[str]) -> list[str]:
    """initdb and the server refuse to run as root: run them as the postgres user then."""
    return ["runuser", "-u", "postgres", "--", *cmd] if os.geteuid() == 0 else cmd


def start_postgres() -> tuple[str, Callable[[], None]]:
    """Start a PostgreSQL server in a temporary directory: its URL and a function that stops it."""
    debian_program(f"{PG_BIN[-1]}/initdb" if PG_BIN else None, "postgresql")
    bin_dir = PG_BIN[-1]
    folder = Path(tempfile.mkdtemp(prefix="morphchess-pg-"))  # not under pytest's root-only folders
    data = folder / "pgdata"
    if os.geteuid() == 0:
        shutil.chown(folder, "postgres")
    port = free_port()
    run = {"check": True, "stdout": subprocess.DEVNULL, "stderr": subprocess.PIPE}
    subprocess.run(_as_postgres([f"{bin_dir}/initdb", "-D", str(data), "-U", "postgres", "--auth=trust",
                                 "-E", "UTF8"]), **run)
    options = f"-p {port} -k {folder} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200"
    subprocess.run(_as_postgres([f"{bin_dir}/pg_ctl", "-D", str(data), "-o", options, "-w", "-l",
                                 str(folder / "log"), "start"]), **run)

    def stop() -> None:
        subprocess.run(_as_postgres([f"{bin_dir}/pg_ctl", "-D", str(data), "-m", "immediate", "stop"]),
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        shutil.rmtree(folder, ignore_errors=True)
    return f"postgresql://postgres@127.0.0.1:{port}/postgres", stop


class Server:
    """``uvicorn`` running the app in a subprocess (``workers`` processes) on a free port."""

    def __init__(self, db_url: str, workers: int = 1, games_per_minute: int = 100000) -> None:
        self.db_url, self.workers, self.games_per_minute = db_url, workers, games_per_minute
        self.port = free_port()
        self.proc: subprocess.Popen | None = None

    def start(self) -> Server:
        rates = ("GAMES_PER_MINUTE", "PASTES_PER_MINUTE", "IMPORTS_PER_MINUTE", "TALK_PER_MINUTE")
        env = {**os.environ, "MORPHCHESS_DB": self.db_url,
               **{f"MORPHCHESS_{name}": str(self.games_per_minute) for name in rates}}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "uvicorn", "--factory", "morphchess.web.app:app_from_env", "--port",
             str(self.port), "--workers", str(self.workers), "--log-level", "warning"],
            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
        end = time.monotonic() + 60
        while time.monotonic() < end:
            try:
                if self.call("GET", "/api/levels")[0] == 200:
                    return self
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("the server did not start: " + self.proc.stderr.read1().decode()[-2000:])

    def kill(self) -> None:
        """SIGKILL the server and all its workers."""
        os.killpg(self.proc.pid, 9)
        self.proc.wait()

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            os.killpg(self.proc.pid, 15)
            self.proc.wait(20)

    def call(self, method: str, path: str, body: dict | None = None, token: str | None = None,
             timeout: float = 30) -> tuple[int, dict]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        try:
            conn.request(method, path, None if body is None else json.dumps(body), headers)
            response = conn.getresponse()
            return response.status, json.loads(response.read() or b"null")
        finally:
            conn.close()


def read_events(port: int, path: str, stop_when, headers: dict | None = None, timeout: float = 20) -> list[tuple]:
    """Read a Server-Sent Events stream until ``stop_when(events)``: a list of (id, event, data)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    conn.request("GET", path, headers=headers or {})
    response = conn.getresponse()
    assert response.status == 200 and response.getheader("Content-Type").startswith("text/event-stream")
    events, fields = [], {}
    end = time.monotonic() + timeout
    try:
        while time.monotonic() < end:
            line = response.fp.readline().decode().rstrip("\n")
            if line == "":
                if "event" in fields:
                    events.append((fields.get("id"), fields["event"], json.loads(fields["data"])))
                    if stop_when(events):
                        return events
                fields = {}
            elif not line.startswith(":"):
                key, _, value = line.partition(": ")
                fields[key] = value
    finally:
        conn.close()
    raise AssertionError(f"the stream ended early: {[e[:2] for e in events]}")
