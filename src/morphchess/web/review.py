"""Reviews of finished games: the engine evaluates every position at a fixed node budget.

A review is one row a game (``reviews``): its state, the number of plies and the evaluations found
so far (JSON, one a position, in White's view), written after each position so that a reader sees
its progress.  Its work runs in the engine pool of the engine seats one position at a time, every
review under one pool client (:data:`POOL_CLIENT`): all reviews together take one client's turn,
so an engine seat waits at most for one position's search.  The work is bounded before it starts:
:data:`NODES` a position, at most :data:`MAX_REVIEW_PLIES` plies (:data:`NODE_BUDGET` nodes in all), and
:data:`RUNNING` reviews at once per process (more are refused with 429).

The process running a review renews its lease with each position; a review whose lease ran out
(its server stopped) or that failed is taken up again, where it stopped, by the next request.

Automatic reviews: as a game ends with moves (:meth:`Reviews.ended`, a hook of
:attr:`Store.endings`), its review is *queued* in the ending's own transaction, and started once that
has committed and one of the :data:`RUNNING` places is free (the oldest queued game first).  At most
``auto_reviews`` games wait in a process (:class:`~morphchess.web.limits.Limits`); a game ending while
they are all taken is not queued (it is reviewed when someone asks), and a queued game not started
within :data:`AUTO_WAIT` is dropped (its review then reads as failed, and asking starts it).
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from sqlalchemy import Column, DateTime, ForeignKey, Integer, String, Table, Text, event, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection
from sqlalchemy.exc import SQLAlchemyError

from .. import engine
from ..board import Board, Move
from ..engine.search import MATE
from ..engine.tt import TranspositionTable
from ..position import WHITE
from .bots import Bots, engine_ready
from .caches import REPLAY_KEPT
from .cost import check_engine
from .db import aware, metadata, now
from .errors import ApiError, BadInput, Conflict, NotFound, RateLimited
from .game import Game, Status
from .store import Store

__all__ = ["Reviews", "reviews", "NODES", "MAX_REVIEW_PLIES", "NODE_BUDGET", "RUNNING", "MARKS", "CLIP",
           "AUTO_WAIT"]

NODES = 5000  # engine nodes a position
NODE_BUDGET = 1_500_000  # engine nodes of one review
MAX_REVIEW_PLIES = NODE_BUDGET // NODES - 1  # plies a review covers (each one's position and the start's)
RUNNING = 2  # reviews running at once in one server process
POOL_CLIENT = "review"  # the engine pool's client of every review
LEASE = timedelta(seconds=30)  # a running review's process renews it with every position
TT_SLOTS = 1 << 14  # a review's transposition table, kept from one position to the next
CLIP = 1000  # scores beyond this many centipawns (mates among them) count as this for a move's loss
MARKS = ((400, "??"), (200, "?"), (100, "?!"))  # a move losing at least this many centipawns is so marked
AUTO_WAIT = timedelta(minutes=10)  # a queued automatic review not started by then is dropped
UNCOMMITTED_S = 60.0  # a queued game whose ending was never committed (nor rolled back) is forgotten after this

log = logging.getLogger("morphchess.web")

reviews = Table(
    "reviews", metadata,
    Column("game_id", String(16), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("state", String(8), nullable=False),  # queued, running, done, failed
    Column("total", Integer, nullable=False),  # the game's plies
    Column("evals", Text, nullable=False),  # JSON: one evaluation a position reviewed so far (see _evaluate)
    Column("error", Text),  # failed: why
    Column("lease", DateTime(timezone=True), nullable=False),  # running: alive until then; queued: dropped then
    Column("created", DateTime(timezone=True), nullable=False),
    Column("updated", DateTime(timezone=True), nullable=False),
)


@dataclass
class _Run:
    """A review this process runs: the game's moves, the board at the next position to evaluate."""

    gid: str
    moves: list[Move]
    board: Board
    evals: list[dict]
    tt: TranspositionTable = field(default_factory=lambda: TranspositionTable(TT_SLOTS))


def check_reviewable(game: Game, max_plies: int = MAX_REVIEW_PLIES) -> None:
    """Refuse (Conflict, BadInput) a review of a game not over, without moves, longer than
    ``max_plies``, or whose variant the engine does not play, before any work starts."""
    if game.status != Status.OVER:
        raise Conflict(f"only a finished game is reviewed; this one is {game.status}")
    if game.ply == 0:
        raise Conflict("the game has no moves to review")
    if game.ply > max_plies:
        raise BadInput(f"the game has {game.ply} plies; a review covers at most {max_plies} "
                       f"({NODES} engine nodes a position)")
    check_engine(game.variant)


def _evaluate(board: Board, tt: TranspositionTable, stop: threading.Event) -> dict | None:
    """The position's evaluation in White's view: ``score`` (centipawns; a mate scores near
    :data:`~morphchess.engine.search.MATE`), ``mate`` (moves to mate, + White mates; 0: mated on the
    board), the best move (``best`` in SAN, ``best_uci``; None where the game is over) and who is to
    move (``white``); None if stopped."""
    sign = 1 if board.turn == WHITE else -1
    entry: dict = {"white": board.turn == WHITE, "best": None, "best_uci": None}
    outcome = board.outcome()
    if outcome is not None:
        won = 0 if outcome.winner is None else (1 if outcome.winner == WHITE else -1)
        return {**entry, "score": won * MATE, "mate": 0 if won else None}
    result = engine.search(board.position.copy(), nodes=NODES, stop=stop, tt=tt)
    if stop.is_set() or result.move is None:
        return None
    best = board.move(result.move)
    return {**entry, "score": sign * result.score, "mate": None if result.mate is None else sign * result.mate,
            "best": board.san(best), "best_uci": best.uci()}


class Reviews:
    """The reviews of a server's games: started by :meth:`start`, read by :meth:`view`; at most
    ``running`` at once in this process, of games of at most ``max_plies`` plies."""

    def __init__(self, store: Store, bots: Bots, running: int = RUNNING, max_plies: int = MAX_REVIEW_PLIES,
                 waiting: int = 0) -> None:
        self.store, self.bots, self.running, self.max_plies = store, bots, running, max_plies
        self.waiting = waiting  # games queued for their automatic review at most (0: none)
        self._mine: set[str] = set()  # the games whose review this process runs
        self._queue: OrderedDict[str, tuple[bool, float]] = OrderedDict()  # game -> (its ending committed, when)
        self._lock = threading.Lock()

    # -- automatic reviews -------------------------------------------------------------------------
    def ended(self, conn: Connection, game: Game) -> None:
        """The hook of :meth:`Store.end`: queue the review of a game that ended with moves (if a place is
        free), its row written in the ending's transaction; :meth:`changed` starts it once committed."""
        try:
            check_reviewable(game, self.max_plies)
        except ApiError:
            return
        with self._lock:
            self._forget_stale()
            if len(self._queue) >= self.waiting:
                if self.waiting:
                    log.info("game %s ended while %d reviews wait: not reviewed unless asked", game.id, self.waiting)
                return
            self._queue[game.id] = (False, time.monotonic())
        event.listen(conn, "rollback", lambda _conn: self._unqueue(game.id), once=True)
        at = aware(game.row["updated"])
        insert = (sqlite.insert if conn.dialect.name == "sqlite" else postgresql.insert)(reviews)
        conn.execute(insert.values(game_id=game.id, state="queued", total=game.ply, evals="[]", lease=at + AUTO_WAIT,
                                   created=at, updated=at).on_conflict_do_nothing())

    def changed(self, gid: str) -> None:
        """A listener of the store (after each committed change): a queued game's ending is committed;
        start the reviews waiting if a place is free.  Never raises."""
        if gid not in self._queue:  # the common case, read without the lock
            return
        with self._lock:
            if gid in self._queue:
                self._queue[gid] = (True, self._queue[gid][1])
        self._next()

    def _unqueue(self, gid: str) -> None:
        with self._lock:
            self._queue.pop(gid, None)

    def _forget_stale(self) -> None:
        """Drop (the lock held) the queued games whose ending was never committed, or that waited too long."""
        at = time.monotonic()
        for gid, (committed, since) in list(self._queue.items()):
            if at - since > (AUTO_WAIT.total_seconds() if committed else UNCOMMITTED_S):
                del self._queue[gid]

    def _next(self) -> None:
        """Start the queued reviews, oldest first, while this process runs fewer than :attr:`running`."""
        while True:
            with self._lock:
                self._forget_stale()
                gid = next((g for g, (committed, _) in self._queue.items() if committed), None)
                if gid is None or len(self._mine) >= self.running:
                    return
                since = self._queue.pop(gid)[1]
            try:
                self.start(gid)
            except RateLimited:  # a request took the place meanwhile: first in the queue again
                with self._lock:
                    self._queue[gid] = (True, since)
                    self._queue.move_to_end(gid, last=False)
                return
            except (ApiError, SQLAlchemyError) as e:
                log.warning("no automatic review of game %s: %s", gid, str(e)[:200])

    # -- a review ----------------------------------------------------------------------------------

    def start(self, gid: str) -> dict:
        """Start the review of a finished game (or take up one whose lease ran out or that failed);
        a review running or done is left as it is.  The answer is :meth:`view`'s."""
        game = self.store.get(gid)
        check_reviewable(game, self.max_plies)
        if self._settled(gid):
            return self.view(gid)
        with self._lock:
            if gid in self._mine:
                return self.view(gid)
            if len(self._mine) >= self.running:
                raise RateLimited(f"the engine reviews {self.running} games at once; try again in a minute",
                                  headers={"Retry-After": "30"})
            self._mine.add(gid)
        try:
            with self.store.db.write() as conn:
                evals = self._claim(conn, game)
            if evals is not None:
                board = game.board.root()
                for move in game.board.move_stack[:len(evals)]:
                    _advance(board, move)
                self._submit(_Run(gid, list(game.board.move_stack), board, evals), first=True)
            else:
                self._drop(gid)
        except BaseException:
            self._drop(gid)
            raise
        return self.view(gid)

    def _settled(self, gid: str) -> bool:
        """Is the game's review done, or running in a process that renews its lease?"""
        with self.store.db.read() as conn:
            row = conn.execute(select(reviews.c.state, reviews.c.lease).where(reviews.c.game_id == gid)).first()
        return row is not None and _settled(row.state, row.lease)

    def _claim(self, conn: Connection, game: Game) -> list[dict] | None:
        """Claim the game's review for this process: the evaluations done so far, or None when the
        review is done or another process runs it."""
        at = now()
        self.store.db.lock_game(conn, game.id)
        row = conn.execute(reviews.select().where(reviews.c.game_id == game.id)).mappings().first()
        values = {"state": "running", "error": None, "lease": at + LEASE, "updated": at}
        if row is None:
            conn.execute(reviews.insert().values(game_id=game.id, total=game.ply, evals="[]", created=at, **values))
            return []
        if _settled(row["state"], row["lease"]):
            return None
        conn.execute(reviews.update().where(reviews.c.game_id == game.id).values(**values))
        return json.loads(row["evals"])

    def _drop(self, gid: str) -> None:
        with self._lock:
            self._mine.discard(gid)

    def _submit(self, run: _Run, first: bool = False) -> None:
        try:
            self.bots.pool.submit(POOL_CLIENT, lambda: self._step(run, first))
        except RuntimeError:  # the pool has shut down: the lease runs out, the next server takes it up
            self._drop(run.gid)

    def _step(self, run: _Run, first: bool) -> None:
        """Evaluate the run's next position, store it, and queue the next one (or end the review)."""
        stop = self.bots.closing
        try:
            limit = self.bots.limits.engine_seconds
            if first and not engine_ready(run.board.variant, limit, limit):
                raise BadInput("the engine is still building its tables for this variant; ask again in a minute")
            entry = None if stop.is_set() else _evaluate(run.board, run.tt, stop)
            if entry is None:  # the server stops
                self._drop(run.gid)
                return
            run.evals.append(entry)
            done = len(run.evals) > len(run.moves)
            self._write(run.gid, state="done" if done else "running", evals=json.dumps(run.evals))
            if done:
                self._drop(run.gid)
                self._next()
                return
            _advance(run.board, run.moves[len(run.evals) - 1])
        except ApiError as e:
            self._fail(run.gid, str(e))
            return
        except Exception as e:  # noqa: BLE001 - kept with the review instead of lost in a thread
            self._fail(run.gid, f"the engine failed: {str(e)[:200]}")
            return
        self._submit(run)

    def _fail(self, gid: str, why: str) -> None:
        self._drop(gid)
        self._write(gid, state="failed", error=why)
        self._next()

    def _write(self, gid: str, **values) -> None:
        at = now()
        with self.store.db.write() as conn:
            conn.execute(reviews.update().where(reviews.c.game_id == gid).values(lease=at + LEASE, updated=at,
                                                                                  **values))

    def view(self, gid: str) -> dict:
        """The review of a game: ``state`` (queued, running, done, failed), ``error``, ``done`` of
        ``total`` plies, the start position's ``score`` and ``mate``, and each reviewed ply's move,
        evaluation after it, the best move before it, its ``loss`` and ``mark`` (:func:`plies`).  A
        queued review not started in time reads as failed."""
        with self.store.db.read() as conn:
            row = conn.execute(select(reviews).where(reviews.c.game_id == gid)).mappings().first()
        if row is None:
            self.store.get(gid)  # NotFound for an unknown game
            raise NotFound("this game has no review yet; ask for one with POST")
        evals = json.loads(row["evals"])
        state, error = row["state"], row["error"]
        if state == "queued" and aware(row["lease"]) <= now():
            state, error = "failed", "the engine was too busy to review the game after it ended; ask again"
        return {"state": state, "error": error, "total": row["total"],
                "done": max(len(evals) - 1, 0), "nodes": NODES, "updated": aware(row["updated"]).isoformat(),
                "start": {k: evals[0][k] for k in ("score", "mate")} if evals else None,
                "plies": plies(self.store.get(gid).moves, evals)}


def plies(played: list[dict], evals: list[dict]) -> list[dict]:
    """Each ply with both its positions evaluated: the move played (``san``, ``uci``), the score after
    it (White's view), the engine's best move before it, the move's ``loss`` in centipawns for its
    mover (scores clipped at :data:`CLIP`; none when it was the best move) and its ``mark``."""
    out = []
    for before, after, move in zip(evals, evals[1:], played):
        side = 1 if before["white"] else -1
        loss = max(0, _clip(side * before["score"]) - _clip(side * after["score"]))
        if move["uci"] == before["best_uci"]:  # the engine's own choice: its loss is the search's noise
            loss = 0
        out.append({"ply": move["ply"], "san": move["san"], "uci": move["uci"], "score": after["score"],
                    "mate": after["mate"], "best": before["best"], "best_uci": before["best_uci"], "loss": loss,
                    "mark": next((mark for least, mark in MARKS if loss >= least), None)})
    return out


def _advance(board: Board, move: Move) -> None:
    """Play the next move of a review, keeping few positions' legal moves (as a replay does)."""
    board.push(move)
    if len(board.move_stack) % REPLAY_KEPT == 0:
        board.forget_earlier()


def _settled(state: str, lease: datetime) -> bool:
    return state == "done" or (state == "running" and aware(lease) > now())


def _clip(score: int) -> int:
    return max(-CLIP, min(CLIP, score))

