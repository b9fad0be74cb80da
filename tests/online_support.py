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
from datetime import timedelta
from pathlib import Path

from programs import debian_program, free_port

PG_BIN = sorted(glob.glob("/usr/lib/postgresql/*/bin"))


def _as_postgres(cmd: list[str]) -> list[str]:
    """initdb and the server refuse to run as root: run them as the postgres user then."""
    return ["runuser", "-u", "postgres", "--", *cmd] if os.geteuid() == 0 else cmd


class Postgres:
    """A PostgreSQL server in a temporary directory: started at once, it can be stopped and started
    again on the same data (faults), then removed."""

    def __init__(self) -> None:
        debian_program(f"{PG_BIN[-1]}/initdb" if PG_BIN else None, "postgresql")
        self.bin = PG_BIN[-1]
        self.folder = Path(tempfile.mkdtemp(prefix="morphchess-pg-"))  # not under pytest's root-only folders
        self.data = self.folder / "pgdata"
        if os.geteuid() == 0:
            shutil.chown(self.folder, "postgres")
        self.port = free_port()
        self._run("initdb", "-D", str(self.data), "-U", "postgres", "--auth=trust", "-E", "UTF8")
        self.start()

    @property
    def url(self) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def _run(self, program: str, *args: str) -> None:
        subprocess.run(_as_postgres([f"{self.bin}/{program}", *args]), check=True, stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE)

    def start(self) -> None:
        options = (f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 -c fsync=off "
                   "-c max_connections=200")
        self._run("pg_ctl", "-D", str(self.data), "-o", options, "-w", "-l", str(self.folder / "log"), "start")

    def halt(self) -> None:
        """Stop the server as an administrator would (its sessions are ended), keeping its data."""
        self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop")

    def remove(self) -> None:
        subprocess.run(_as_postgres([f"{self.bin}/pg_ctl", "-D", str(self.data), "-m", "immediate", "stop"]),
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        shutil.rmtree(self.folder, ignore_errors=True)


def start_postgres() -> tuple[str, Callable[[], None]]:
    """Start a PostgreSQL server in a temporary directory: its URL and a function that removes it."""
    server = Postgres()
    return server.url, server.remove


class Server:
    """``uvicorn`` running the app in a subprocess (``workers`` processes) on a free port."""

    def __init__(self, db_url: str, workers: int = 1, games_per_minute: int = 100000) -> None:
        self.db_url, self.workers, self.games_per_minute = db_url, workers, games_per_minute
        self.port = free_port()
        self.proc: subprocess.Popen | None = None

    def start(self) -> Server:
        rates = ("GAMES_PER_MINUTE", "PASTES_PER_MINUTE", "IMPORTS_PER_MINUTE", "TALK_PER_MINUTE", "CHECKS_PER_MINUTE",
                 "OFFERS_PER_MINUTE", "SEEKS_PER_MINUTE")
        env = {**os.environ, "MORPHCHESS_DB": self.db_url, "MORPHCHESS_ACCESS_LOG": "0",
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


class Seat:
    """One person: a token for some seats of a game."""

    def __init__(self, client, gid: str, token: str | None) -> None:
        self.client, self.gid, self.token = client, gid, token

    def headers(self) -> dict:
        return {"Authorization": f"Bearer {self.token}"} if self.token else {}

    def call(self, method: str, what: str = "", body: dict | None = None):
        path = f"/api/games/{self.gid}" + (f"/{what}" if what else "")
        return self.client.request(method, path, json=body, headers=self.headers())

    def state(self) -> dict:
        return self.call("GET").json()

    def move(self, move: str, ply: int | None = None):
        return self.call("POST", "moves", {"move": move, "ply": self.state()["ply"] if ply is None else ply})


def invite(client, join: bool = True, **spec) -> tuple[Seat, Seat, Seat]:
    """An invite game: the creator's seat, the invited seat (taken by joining, unless not ``join``), a
    spectator."""
    r = client.post("/api/games", json={"mode": "invite", **spec})
    assert r.status_code == 200, r.text
    g = r.json()
    assert g["watch"] == f"/game/{g['id']}" and g["seat"]["link"] == f"/game/{g['id']}#seat={g['seat']['token']}"
    guest = Seat(client, g["id"], g["invite"]["token"])
    if join:
        guest.token = taken(guest.call("POST", "join", {}))
    return Seat(client, g["id"], g["seat"]["token"]), guest, Seat(client, g["id"], None)


def taken(r) -> str:
    """The token of a seat taken by joining (the invite link's token is exchanged for it)."""
    assert r.status_code == 200, r.text
    return r.json()["seat"]["token"]


def code(r) -> tuple[int, str]:
    return r.status_code, r.json()["error"]["code"] if r.status_code >= 400 else ""


def age_clock(client, gid: str, seconds: float) -> None:
    """Move the game's clock start back in time, as if the side to move had been thinking."""
    from morphchess.web.db import games
    db = client.app.state.store.db
    with db.write() as conn:
        at = conn.execute(games.select().where(games.c.id == gid)).mappings().first()["clock_at"]
        conn.execute(games.update().where(games.c.id == gid).values(clock_at=at - timedelta(seconds=seconds)))
