"""The engine seats: searches run in a thread of whichever server process claims them.

A claim is written to the game's row (job id, the position asked about, a lease
renewed while the search runs).  The answer is played only if the row still
names the same job, so a take back, a new move or a change of players while it
thinks drops it, and a job whose process died is claimed again when its lease
runs out.  *Stop* is a flag in the row, so it reaches the search in any process.
"""

from __future__ import annotations

import json
import logging
import secrets
import threading
import time
from collections.abc import Callable
from datetime import datetime, timedelta

from sqlalchemy import select

from .. import engine
from ..board import Board
from ..notation import MoveError
from ..variant import WHITE
from .db import games, now
from .errors import ApiError, Conflict
from .store import Game, Store

__all__ = ["Bots", "info_view"]

LEASE = timedelta(seconds=5)
WATCH_S = 0.25  # how often a running search looks at its row (stop flag, progress, lease)
_log = logging.getLogger("morphchess.web")


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


class Bots:
    """Starts, watches and finishes the engine's searches for one server process."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.db = store.db

    def kick(self, game: Game) -> Game | None:
        """Start the engine if an engine seat is to move and no live search works on this position;
        the game as it is then, or None if nothing started."""
        row = game.row
        if not game.engine_due() or game.thinking(now()):
            return None
        if row["engine_job"] == "error" and row["engine_fen"] == game.board.fen():
            return None  # it failed here; a change of the game lets it try again
        try:
            return self.start(game.id, force=False)
        except ApiError:
            return None

    def start(self, gid: str, force: bool = True, level: int | None = None,
              check: Callable[[Game], None] | None = None) -> Game:
        """Claim the side to move for a new search (``force``: even a human side) and start it;
        ``check`` refuses the request (e.g. a token without the seats)."""
        job = secrets.token_hex(8)
        claimed: dict = {}

        def act(conn, game: Game, at: datetime) -> None:
            if check is not None:
                check(game)
            if game.row["status"] != "playing":
                raise Conflict("the game is over" if game.row["status"] != "open" else "the game waits for an opponent")
            if game.thinking(at):
                raise Conflict("the engine is already thinking")
            if not force and not game.engine_due():
                raise Conflict("no engine seat is to move")
            self.store.update(conn, game, at, engine_job=job, engine_fen=game.board.fen(), engine_lease=at + LEASE,
                              engine_stop=False, engine_info=None, level=level or game.row["level"])
            claimed["board"] = game.board.copy()

        game = self.store.change(gid, act)
        threading.Thread(target=self._run, args=(gid, job, claimed["board"], game.row["level"]), daemon=True,
                         name=f"engine-{gid}").start()
        return game

    def _run(self, gid: str, job: str, board: Board, level: int) -> None:
        stop, done = threading.Event(), threading.Event()
        progress: dict = {}
        watcher = threading.Thread(target=self._watch, args=(gid, job, stop, done, progress), daemon=True)
        watcher.start()
        try:
            result = engine.search(board.position.copy(), stop=stop, **engine.level_limits(level),
                                   on_info=lambda info: progress.update(info=info_view(board, info)))
            outcome = {"result": result, "stopped": stop.is_set()}
        except Exception as e:  # noqa: BLE001 - shown on the page instead of lost in a thread
            _log.exception("engine failed in game %s", gid)
            outcome = {"error": f"the engine failed: {str(e)[:200]}"}
        finally:
            done.set()
        watcher.join()
        self._finish(gid, job, board, outcome)

    def _watch(self, gid: str, job: str, stop: threading.Event, done: threading.Event, progress: dict) -> None:
        """While the search runs: obey the stop flag, publish progress, renew the lease."""
        shown = None
        renewed = time.monotonic()
        while not done.wait(WATCH_S):
            with self.db.read() as conn:
                row = conn.execute(select(games.c.engine_job, games.c.engine_stop).where(games.c.id == gid)).first()
            if row is None or row.engine_job != job or row.engine_stop:
                stop.set()  # cancelled (take back, new move) or asked to play now
            info = progress.get("info")
            if info is not shown or time.monotonic() - renewed > LEASE.total_seconds() / 4:
                values: dict[str, object] = {"engine_lease": now() + LEASE}
                if info is not shown:
                    values.update(engine_info=json.dumps(info), engine_seq=games.c.engine_seq + 1)
                with self.db.write() as conn:
                    conn.execute(games.update().where(games.c.id == gid, games.c.engine_job == job).values(**values))
                    self.db.notify(conn, gid)
                shown, renewed = info, time.monotonic()
                self.store.changed(gid)

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

    def wait(self, gid: str, timeout: float) -> None:
        """Wait until no search runs for the game (or ``timeout`` seconds)."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            with self.db.read() as conn:
                row = conn.execute(select(games.c.engine_job, games.c.engine_lease)
                                   .where(games.c.id == gid)).first()
            if row is None or row.engine_job in (None, "error"):
                return
            time.sleep(0.05)

    def sweep(self) -> None:
        """Start the engine in games where an engine seat is to move and nothing thinks (after a restart)."""
        with self.db.read() as conn:
            ids = conn.execute(select(games.c.id).where(
                games.c.status == "playing", (games.c.white == "engine") | (games.c.black == "engine"))
                .order_by(games.c.updated.desc()).limit(100)).scalars().all()
        for gid in ids:
            self.kick(self.store.get(gid))
