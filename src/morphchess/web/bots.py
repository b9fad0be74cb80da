"""The engine seats: searches run in one bounded pool of whichever server process claims them.

A claim is written to the game's row (job id, the position asked about, a lease
renewed while the search waits or runs).  The answer is played only if the row
still names the same job, so a take back, a new move or a change of players
while it thinks drops it, and a job whose process died is claimed again when its
lease runs out.  *Stop* is a flag in the row, so it reaches the search in any
process.  At most ``engine_games`` searches run at once in a process; the others
wait their turn in :class:`~morphchess.web.pool.FairPool` by the client that created
the game, so one client's many engine games never keep another's behind them.  None
runs longer than ``engine_seconds``, whatever the level and the board; one watcher
thread renews the leases and publishes the progress of them all.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import threading
import time
import weakref
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from sqlalchemy import select

from .. import engine
from ..board import Board
from ..engine.evaluate import eval_tables
from ..engine.tt import TranspositionTable
from ..notation import MoveError
from ..variant import WHITE, Variant
from .cost import engine_refusal
from .db import games, now
from .errors import ApiError, BadInput, Busy, Conflict, Unavailable
from .game import Game, Status
from .limits import Limits, within
from .pool import FairPool
from .store import Store

__all__ = ["Bots", "info_view", "search_limits", "engine_ready", "search_table"]

LEASE = timedelta(seconds=5)
WATCH_S = 0.25  # how often a running search looks at its row (stop flag, progress, lease)
TT_SLOTS = 1 << 17  # a search's own transposition table (about 15 MB full), dropped when it ends
_log = logging.getLogger("morphchess.web")


class _TableBuild:
    """The build of one variant's evaluation tables, in a bounded work of its own thread."""

    def __init__(self, v: Variant, budget: float) -> None:
        self.done = threading.Event()
        self.error: str | None = None
        self.busy = False
        threading.Thread(target=self._run, args=(v, budget), daemon=True, name="morphchess-engine-tables").start()

    def _run(self, v: Variant, budget: float) -> None:
        try:
            within(budget, eval_tables, v, 1.0, slots=_BUILD_SLOTS)
        except Busy:
            self.busy = True  # no bounded-work slot was free: the next search tries again
        except ApiError as e:
            self.error = str(e)
        finally:
            self.done.set()


_BUILD_SLOTS = threading.BoundedSemaphore(1)  # table builds at once: apart from the other bounded work
_builds: weakref.WeakKeyDictionary[Variant, _TableBuild] = weakref.WeakKeyDictionary()
_builds_lock = threading.Lock()


def engine_ready(v: Variant, wait: float, budget: float) -> bool:
    """Are the engine's evaluation tables of ``v`` ready?  The first search on a variant starts their
    build (at most ``budget`` seconds of CPU, then abandoned: BadInput for every later search) and
    waits for it at most ``wait`` seconds, so a search never runs far past its own time; the build
    goes on for the next one."""
    with _builds_lock:
        build = _builds.get(v)
        if build is None or (build.busy and build.done.is_set()):
            build = _builds[v] = _TableBuild(v, budget)
    if not build.done.wait(wait):
        return False
    if build.error is not None:
        raise BadInput(f"the engine's tables of this variant: {build.error}")
    return not build.busy


def search_table() -> TranspositionTable:
    """A transposition table for one search, dropped when it ends: a variant kept in memory holds none
    (the engine's own default, one a variant, would keep tens of megabytes with each)."""
    return TranspositionTable(TT_SLOTS)


def info_view(board: Board, result) -> dict:
    """A search's progress or result as the page shows it; scores also from White's side."""
    view = {"depth": result.depth, "score": result.score, "mate": result.mate, "nodes": result.nodes,
            "seconds": round(result.seconds, 2)}
    sign = 1 if board.turn == WHITE else -1
    view["score_white"] = sign * result.score
    view["mate_white"] = None if result.mate is None else sign * result.mate
    probe, coords, sans = board.copy(), [], []
    for raw in result.pv or []:
        try:
            move = probe.move(raw)
            sans.append(probe.san(move))
            coords.append(move.uci())
            probe.push(move)
        except (MoveError, IndexError, ValueError):
            break
    view["pv"] = " ".join(coords)
    view["pv_san"] = " ".join(sans)
    return view


def search_limits(level: int, limits: Limits) -> dict:
    """The search limits of a level, its time capped by ``limits.engine_seconds`` (a depth too)."""
    out = dict(engine.level_limits(level))
    cap = round(limits.engine_seconds * 1000)
    out["movetime_ms"] = min(out.get("movetime_ms", cap), cap)
    return out


@dataclass
class _Job:
    """A search this process claimed: waiting for the pool, running, or finishing."""

    gid: str
    board: Board
    level: int
    stop: threading.Event = field(default_factory=threading.Event)
    info: dict | None = None  # the latest progress
    shown: dict | None = None  # the progress last written to the row


class Bots:
    """Starts, watches and finishes the engine's searches for one server process."""

    def __init__(self, store: Store, limits: Limits | None = None) -> None:
        self.store = store
        self.db = store.db
        self.limits = limits or Limits()
        self.pool = FairPool(self.limits.engine_games)
        self.jobs: dict[str, _Job] = {}
        self._lock = threading.Lock()
        self._watcher: threading.Thread | None = None
        self.closing = threading.Event()

    def kick(self, game: Game) -> Game | None:
        """Start the engine if an engine seat is to move and no live search works on this position;
        the game as it is then, or None if nothing started."""
        row = game.row
        if self.closing.is_set() or not game.engine_due() or game.thinking(now()):
            return None
        if row["engine_job"] == "error" and row["engine_fen"] == game.board.fen():
            return None  # it failed here; a change of the game lets it try again
        try:
            return self.start(game.id, force=False)
        except BadInput:  # the engine does not play this variant: the row now says why
            return self.store.get(game.id)
        except ApiError:
            return None

    def start(self, gid: str, force: bool = True, level: int | None = None,
              check: Callable[[Game], None] | None = None) -> Game:
        """Claim the side to move for a new search (``force``: even a human side) and queue it;
        ``check`` refuses the request (e.g. a token without the seats)."""
        job_id = secrets.token_hex(8)
        claimed: dict = {}

        def act(conn, game: Game, at: datetime) -> None:
            if check is not None:
                check(game)
            if game.status != Status.PLAYING:
                raise Conflict("the game waits for an opponent" if game.status == Status.OPEN else "the game is over")
            if game.thinking(at):
                raise Conflict("the engine is already thinking")
            if not force and not game.engine_due():
                raise Conflict("no engine seat is to move")
            refused = engine_refusal(game.variant)
            if refused is not None:  # told on the page, and not tried again in this position
                self.store.update(conn, game, at, engine_job="error", engine_fen=game.board.fen(),
                                  engine_lease=None, engine_info=json.dumps({"error": refused}))
                claimed["refused"] = refused
                return
            self.store.update(conn, game, at, engine_job=job_id, engine_fen=game.board.fen(),
                              engine_lease=at + LEASE, engine_stop=False, engine_info=None,
                              level=level or game.row["level"])
            claimed["board"] = game.board.copy()

        game = self.store.change(gid, act)
        if "refused" in claimed:
            raise BadInput(claimed["refused"])
        job = _Job(gid, claimed["board"], game.row["level"])
        with self._lock:
            self.jobs[job_id] = job
            if self._watcher is None:
                self._watcher = threading.Thread(target=self._watch, daemon=True, name="morphchess-engine-watch")
                self._watcher.start()
        self.pool.submit(game.row["creator"], lambda: self._run(job_id, job))
        return game

    def _run(self, job_id: str, job: _Job) -> None:
        if self.closing.is_set():
            return
        board = job.board
        limits = search_limits(job.level, self.limits)
        if job.stop.is_set():  # asked to play at once while it waited: the quickest answer
            limits = {"depth": 1}
        try:
            if not engine_ready(board.variant, self.limits.engine_seconds + 1, self.limits.engine_seconds):
                raise BadInput("the engine's tables of this variant could not be built in time")
            result = engine.search(board.position.copy(), stop=job.stop, **limits, tt=search_table(),
                                   on_info=lambda info: setattr(job, "info", info_view(board, info)))
            outcome = {"result": result, "stopped": job.stop.is_set()}
        except ApiError as e:  # the variant's tables: over their budget
            outcome = {"error": str(e)}
        except Exception as e:  # noqa: BLE001 - shown on the page instead of lost in a thread
            _log.exception("engine failed in game %s", job.gid)
            outcome = {"error": f"the engine failed: {str(e)[:200]}"}
        with self._lock:
            self.jobs.pop(job_id, None)
        if not self.closing.is_set():  # on shutdown the lease runs out and the next server claims it
            self._finish(job.gid, job_id, board, outcome)

    def _watch(self) -> None:
        """While this process has jobs: obey stop flags, publish progress, renew the leases."""
        renewed = 0.0
        while not self.closing.wait(WATCH_S):
            with self._lock:
                jobs = dict(self.jobs)
                if not jobs:
                    self._watcher = None
                    return
            try:
                with self.db.read() as conn:
                    rows = {r.engine_job: r for r in conn.execute(
                        select(games.c.engine_job, games.c.engine_stop)
                        .where(games.c.id.in_({j.gid for j in jobs.values()})))}
                for job_id, job in jobs.items():
                    row = rows.get(job_id)
                    if row is None or row.engine_stop:
                        job.stop.set()  # cancelled (take back, new move) or asked to play now
                renew = time.monotonic() - renewed > LEASE.total_seconds() / 4
                for job_id, job in jobs.items():
                    if renew or job.info is not job.shown:
                        self._publish(job_id, job)
                if renew:
                    renewed = time.monotonic()
            except Unavailable:  # the database is away: keep watching (its leases may run out meanwhile)
                continue

    def _publish(self, job_id: str, job: _Job) -> None:
        values: dict[str, object] = {"engine_lease": now() + LEASE}
        info = job.info
        if info is not job.shown:
            values.update(engine_info=json.dumps(info), engine_seq=games.c.engine_seq + 1)
        with self.db.write() as conn:
            conn.execute(games.update().where(games.c.id == job.gid, games.c.engine_job == job_id).values(**values))
            self.db.notify(conn, job.gid)
        job.shown = info
        self.store.changed(job.gid)

    def _finish(self, gid: str, job: str, board: Board, outcome: dict) -> None:
        """Play the search's move, if its job is still the game's and the position the same."""
        def act(conn, game: Game, at: datetime) -> None:
            if game.row["engine_job"] != job or game.board.fen() != board.fen():
                raise Conflict("the search was cancelled")
            result = outcome.get("result")
            if result is None or result.move is None:
                error = outcome.get("error", "the engine found no move")
                self.store.update(conn, game, at, engine_job="error", engine_lease=None,
                                  engine_info=json.dumps({"error": error}))
                return
            move = game.board.move(result.move)
            info = {**info_view(board, result), "move": move.uci(), "san": game.board.san(move),
                    "stopped": outcome["stopped"]}
            self.store.push(conn, game, move, at)
            self.store.update(conn, game, at, engine_info=json.dumps(info))

        try:
            game = self.store.change(gid, act)
        except ApiError:
            return
        self.kick(game)  # the engine may play the other side too

    def idle(self, gid: str) -> bool:
        """Does no search run for the game?"""
        with self.db.read() as conn:
            row = conn.execute(select(games.c.engine_job).where(games.c.id == gid)).first()
        return row is None or row.engine_job in (None, "error")

    async def wait(self, gid: str, timeout: float) -> None:
        """Wait until no search runs for the game (or ``timeout`` seconds), holding no thread."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while loop.time() < end and not await asyncio.to_thread(self.idle, gid):
            await asyncio.sleep(0.05)

    def wait_limit(self) -> float:
        """The longest a request waits for a search: one search's time and a little more."""
        return self.limits.engine_seconds + 2

    def sweep(self) -> None:
        """Start the engine in games where an engine seat is to move and nothing thinks (after a restart)."""
        with self.db.read() as conn:
            ids = conn.execute(select(games.c.id).where(
                games.c.status == Status.PLAYING.value, (games.c.white == "engine") | (games.c.black == "engine"))
                .order_by(games.c.updated.desc()).limit(100)).scalars().all()
        for gid in ids:
            self.kick(self.store.get(gid))

    def close(self) -> None:
        """Stop every search of this process now (their games are claimed again after the lease)."""
        self.closing.set()
        with self._lock:
            for job in self.jobs.values():
                job.stop.set()
        self.pool.shutdown()
