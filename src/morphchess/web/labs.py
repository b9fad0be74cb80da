"""The web board's Lab runs: each in a worker process that dies with its server, recorded in the database.

A run's row (table ``labs``) is written when it starts and kept up to date by the
server process that runs it: one watcher thread counts the games done and renews
the run's lease every :data:`WATCH_S`; when the worker ends, the row gets the
summary and the report (or the error) and the worker's directory is deleted.  So
any worker of the server reads any run, and a run whose server was killed reads
as ended once its lease has run out (and is marked so by the next server that
starts).  The worker itself exits as soon as its server is gone
(:mod:`morphchess.lab.background`); a server asked to stop ends its runs first.
A run plays for at most :data:`RUN_SECONDS`, then reports the games played so
far, so the slot is free again; a worker still alive :data:`GRACE` later is ended.
"""

from __future__ import annotations

import json
import logging
import shutil
import tempfile
import threading
import uuid
from contextlib import suppress
from dataclasses import dataclass
from datetime import datetime, timedelta
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from pathlib import Path

from sqlalchemy import select

from ..lab import background
from ..lab.selfplay import LabSettings
from .db import Database, aware, labs, now
from .errors import ApiError, Conflict, NotFound, RateLimited

__all__ = ["Labs", "MAX_RUNNING", "KEPT", "RUN_SECONDS"]

MAX_RUNNING = 1  # runs at once per server process
RUN_SECONDS = 600.0  # a run's games are played for at most this long (then it reports those played)
GRACE = timedelta(seconds=60)  # for the worker to start and write its report; then it is ended
KEPT = 10  # finished runs kept in the database (older ones are deleted)
LEASE = timedelta(seconds=5)  # a running run whose lease is older than this has lost its server
WATCH_S = 1.0
ENDED = "the lab's server stopped before it finished"
_log = logging.getLogger("morphchess.web")


@dataclass
class _Run:
    """A run of this process: its worker, the pipe end that keeps the worker alive, its directory."""

    id: str
    process: BaseProcess
    lifeline: Connection
    dir: Path
    deadline: datetime  # the worker is ended if still alive then


class Labs:
    """The Lab runs of one server process, and the reading of every run in the database."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.runs: dict[str, _Run] = {}
        self._lock = threading.Lock()
        self._watcher: threading.Thread | None = None
        self.closing = threading.Event()

    def start(self, settings: LabSettings, games: int) -> dict:
        """Start a run of ``games`` self-play games (RateLimited while this process runs its maximum)."""
        with self._lock:
            if self.closing.is_set() or len(self.runs) >= MAX_RUNNING:
                raise RateLimited("a lab is already running on this server; wait for it to finish",
                                  {"Retry-After": "60"})
            at = now()
            lab_id = uuid.uuid4().hex[:12]
            with self.db.write() as conn:
                conn.execute(labs.insert().values(id=lab_id, variant=settings.name[:200], player=settings.player,
                                                  games=games, done=0, state="running", lease=at + LEASE,
                                                  created=at, updated=at))
            folder = Path(tempfile.mkdtemp(prefix="morphchess-lab-"))
            process, lifeline = background.start(settings, games, str(folder), RUN_SECONDS)
            deadline = at + timedelta(seconds=RUN_SECONDS) + GRACE
            self.runs[lab_id] = _Run(lab_id, process, lifeline, folder, deadline)
            if self._watcher is None:
                self._watcher = threading.Thread(target=self._watch, daemon=True, name="morphchess-lab-watch")
                self._watcher.start()
        self._prune()
        return self.view(lab_id)

    # -- reading ----------------------------------------------------------------------
    def row(self, lab_id: str) -> dict:
        with self.db.read() as conn:
            row = conn.execute(labs.select().where(labs.c.id == lab_id)).mappings().first()
        if row is None:
            raise NotFound(f"no lab {lab_id[:20]!r} on this server")
        return dict(row)

    def view(self, lab_id: str) -> dict:
        """A run's progress; once done its summary and report's address, once failed or ended why."""
        row = self.row(lab_id)
        at = now()
        state = _state(row, at)
        elapsed = ((aware(row["updated"]) if state != "running" else at) - aware(row["created"])).total_seconds()
        done = row["done"]
        view = {"id": row["id"], "variant": row["variant"], "player": row["player"], "state": state,
                "done": done, "total": row["games"], "elapsed_seconds": round(elapsed, 1),
                "eta_seconds": round(elapsed / done * (row["games"] - done), 1) if done and state == "running"
                else None}
        if state == "done":
            view["summary"] = json.loads(row["summary"])
            view["report"] = f"/api/lab/{row['id']}/report"
            if row["error"]:  # its time ran out first: the report of the games played
                view["note"] = row["error"]
        elif state in ("failed", "ended"):
            view["error"] = row["error"] or ENDED
        return view

    def report(self, lab_id: str) -> str:
        row = self.row(lab_id)
        state = _state(row, now())
        if state != "done":
            raise Conflict(f"the lab is {state}")
        return row["report"]

    # -- the runs of this process -------------------------------------------------------
    def _watch(self) -> None:
        """While this process runs labs: count their games, renew their leases, record those that end."""
        while not self.closing.wait(WATCH_S):
            with self._lock:
                runs = list(self.runs.values())
                if not runs:
                    self._watcher = None
                    return
            for run in runs:
                try:
                    if run.process.is_alive() and now() > run.deadline:  # past its time and grace
                        run.process.terminate()
                        run.process.join(1)
                        self._finish(run, f"the lab ran past its {RUN_SECONDS:g} s and was ended")
                    elif run.process.is_alive():
                        self._write(run.id, done=_done_games(run.dir), lease=now() + LEASE)
                    else:
                        self._finish(run)
                except ApiError as e:  # the database is away: try again at the next look
                    _log.warning("lab %s: %s", run.id, e)

    def _finish(self, run: _Run, why: str | None = None) -> None:
        """Record a run whose worker ended: its summary and report (and the note of a run cut short),
        or its error (``why``, if the watcher ended it)."""
        error = run.dir / background.ERROR_FILE
        report = run.dir / "report.html"
        note = run.dir / background.NOTE_FILE
        values: dict = {"done": _done_games(run.dir)}
        if why is not None:
            values.update(state="failed", error=why)
        elif report.exists():
            values.update(state="done", report=report.read_text(encoding="utf-8"),
                          summary=(run.dir / "summary.json").read_text(encoding="utf-8"),
                          error=note.read_text(encoding="utf-8")[:500] if note.exists() else None)
        else:
            reason = (error.read_text(encoding="utf-8").splitlines() or ["stopped"])[0] if error.exists() \
                else f"the lab stopped (exit code {run.process.exitcode})"
            values.update(state="failed", error=reason[:500])
        self._write(run.id, **values)
        self._forget(run)

    def _write(self, lab_id: str, **values) -> None:
        with self.db.write() as conn:
            conn.execute(labs.update().where(labs.c.id == lab_id, labs.c.state == "running")
                         .values(updated=now(), **values))

    def _forget(self, run: _Run) -> None:
        run.lifeline.close()
        shutil.rmtree(run.dir, ignore_errors=True)
        with self._lock:
            self.runs.pop(run.id, None)

    def _prune(self) -> None:
        """Delete the finished runs older than the newest :data:`KEPT`."""
        with self.db.write() as conn:
            old = conn.execute(select(labs.c.id).where(labs.c.state != "running")
                               .order_by(labs.c.created.desc()).offset(KEPT)).scalars().all()
            if old:
                conn.execute(labs.delete().where(labs.c.id.in_(old)))

    def sweep(self) -> None:
        """Mark ended the runs whose server is gone (their lease ran out): a restart finds them."""
        with self.db.write() as conn:
            conn.execute(labs.update().where(labs.c.state == "running", labs.c.lease < now())
                         .values(state="ended", error=ENDED, updated=now()))

    def close(self) -> None:
        """Stop every run of this process now (the server stops): its worker ends, its row says so."""
        self.closing.set()
        with self._lock:
            runs = list(self.runs.values())
        for run in runs:
            run.lifeline.close()  # the worker exits at once, whatever it was doing
            run.process.terminate()
        for run in runs:
            run.process.join(1)
            with suppress(ApiError):  # the database is away: the lease runs out instead
                self._write(run.id, state="ended", error=ENDED)
            self._forget(run)


def _state(row: dict, at: datetime) -> str:
    """A run's state; ``running`` with a lease run out reads as ``ended`` (its server is gone)."""
    if row["state"] == "running" and aware(row["lease"]) < at:
        return "ended"
    return row["state"]


def _done_games(folder: Path) -> int:
    games = folder / "games.jsonl"
    return games.read_bytes().count(b"\n") if games.exists() else 0
