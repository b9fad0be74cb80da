"""Games in the database: reading them, and every change, each in one locked transaction.

Every change locks the game's row, reads it as a :class:`~morphchess.web.game.Game`,
checks the request against that snapshot, writes, and commits before it is
answered.  New games are made in :mod:`morphchess.web.newgame`.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from enum import StrEnum

from sqlalchemy import and_, bindparam, select
from sqlalchemy.engine import Connection

from .. import gamecourier
from ..board import Board, Move
from ..notation import MoveError, NotCoordinates
from . import seats
from .caches import BOARD_BYTES, REPLAY_KEPT, Boards
from .catalog import Catalog
from .db import Database, games, moves, now
from .errors import Conflict, IllegalMove, NotFound
from .game import Game, Status, Termination
from .limits import MAX_PLIES

__all__ = ["Store", "parse_move", "move_note", "move_notes"]

LISTED_FROM_PLY = 2  # the lobby lists a local game once both sides have moved


def parse_move(board: Board, text: str) -> Move:
    """A legal move from coordinate text or SAN."""
    text = text.strip()
    if not text:
        raise IllegalMove("empty move text")
    try:
        return board.parse_uci(text)
    except MoveError as coord_error:
        try:
            return board.parse_san(text)
        except MoveError as san_error:  # SAN's reason, unless the text was coordinates (e2e4q: no such choice)
            reason = san_error if isinstance(coord_error, NotCoordinates) else coord_error
            raise IllegalMove(str(reason)[:200]) from None


def move_note(board: Board, move: Move) -> dict:
    """A move as the moves table keeps it: coordinate text, SAN and Game Courier text (``board`` is the
    position before it)."""
    return {"uci": move.uci(), "san": board.san(move), "gc": gamecourier.write_move(board, move)}


def move_notes(board: Board, replay: Board | None = None) -> list[dict]:
    """Every move of ``board`` from its start as :func:`move_note` writes it, with its ``ply``: played
    again on ``replay`` (a board at the same start; by default a copy of ``board``'s), each move written
    on its own position, keeping few positions' legal moves at a time."""
    b, notes = board.root() if replay is None else replay, []
    for ply, move in enumerate(board.move_stack, start=1):
        notes.append({"ply": ply, **move_note(b, move)})
        b.push(move)
        if ply % REPLAY_KEPT == 0:
            b.forget_earlier()
    return notes


class Store:
    """Every game of a server, in its database."""

    def __init__(self, db: Database, catalog: Catalog, board_bytes: int = BOARD_BYTES) -> None:
        self.db = db
        self.catalog = catalog
        self.boards = Boards(board_bytes)
        self.listeners: list[Callable[[str], None]] = []  # told the id of every game that changed
        self.endings: list[Callable[[Connection, Game], None]] = []  # told of every game that ends (see end)
        self.moved: list[Callable[[Game], None]] = []  # told of every game a change moved, once committed

    # -- reading ------------------------------------------------------------------
    def load(self, conn: Connection, row) -> Game:
        """The game of a row read in the transaction ``conn``: its moves are read only when this process
        does not keep them at the row's version (every change of the moves counts a new version)."""
        row = dict(row)
        gid, version = row["id"], row["version"]
        v = self.catalog.get(row["variant"])
        kept = self.boards.at(gid, version, v)
        if kept is not None:
            return Game(row, *kept, v)
        rows = [dict(r) for r in conn.execute(_MOVES, {"gid": gid}).mappings()]
        return Game(row, rows, self.boards.board(gid, v, row["setup"], row["start_fen"], rows, version), v)

    def get(self, gid: str) -> Game:
        """The game as one statement reads it: its row, and its moves unless this process keeps them at
        the row's version (one snapshot: on PostgreSQL one round trip, no transaction)."""
        kept = self.boards.version(gid)
        row, notes = self._read(gid, kept)
        v = self.catalog.get(row["variant"])
        if kept is not None and row["version"] == kept:
            found = self.boards.at(gid, kept, v)
            if found is not None:
                return Game(row, *found, v)
            row, notes = self._read(gid, None)  # kept no longer (or the variant compiled again)
        return Game(row, notes, self.boards.board(gid, v, row["setup"], row["start_fen"], notes, row["version"]), v)

    def _read(self, gid: str, kept: int | None) -> tuple[dict, list[dict]]:
        """A game's row, and its move rows unless the row is at version ``kept`` (then none)."""
        with self.db.glance() as conn:
            rows = conn.execute(_GAME_MOVES, {"gid": gid, "kept": -1 if kept is None else kept}).mappings().all()
        if not rows:
            raise NotFound(f"no game {gid[:20]!r}")
        notes = [{"game_id": gid, **{k: r[f"move_{k}"] for k in _MOVE_KEYS}} for r in rows if r["move_ply"] is not None]
        return {k: rows[0][k] for k in _GAME_KEYS}, notes

    # -- changing -------------------------------------------------------------------
    def change(self, gid: str, act: Callable[[Connection, Game, datetime], None]) -> Game:
        """Run ``act`` on the locked game and commit; a game whose time ran out is ended first.  If ``act``
        played moves, every hook of :attr:`moved` is then called with the game (outside the transaction)."""
        at = now()
        with self.db.write() as conn:
            row = self.db.lock_game(conn, gid)
            if row is None:
                raise NotFound(f"no game {gid[:20]!r}")
            game = self.load(conn, row)
            before, version = game.ply, game.row["version"]
            deadline = game.deadline()
            if deadline is None or deadline > at:
                act(conn, game, at)
        if deadline is not None and deadline <= at:
            self.flag(gid)
            raise Conflict("the game is over: time ran out")
        if game.row["version"] != version:
            self.boards.remember(gid, game.row["version"], game.moves, game.board)
        self.changed(gid)
        if game.ply > before:
            for hook in self.moved:
                hook(game)
        return game

    def changed(self, gid: str) -> None:
        for listener in self.listeners:
            listener(gid)

    def update(self, conn: Connection, game: Game, at: datetime, move: dict | None = None, /, **values) -> None:
        """Write new values into the game's row (and the snapshot), counting a new version; ``move``, a row of
        the moves table, is written with them (in the same round trip where the database allows)."""
        values = {k: str(v) if isinstance(v, StrEnum) else v for k, v in values.items()}  # the drivers want str
        values.update(version=game.row["version"] + 1, updated=at)
        self.db.update_game(conn, game.id, values, move)
        game.row.update(values)

    def push(self, conn: Connection, game: Game, move: Move, at: datetime) -> None:
        """Play a legal move: its row, the clocks, the result if it ends the game."""
        board, side = game.board, game.turn
        note = {"game_id": game.id, "ply": game.ply + 1, **move_note(board, move), "at": at, "clock_ms": None}
        values: dict = {}
        tc = game.tc
        if tc is not None:
            left = tc.after_move(game.time_left(side, at)) if game.clock_running() else game.row[f"{side}_ms"]
            values.update({f"{side}_ms": left, "clock_at": at})
            if tc.per_move_ms is not None:
                values[f"{seats.other(side)}_ms"] = tc.per_move_ms
            note["clock_ms"] = left
        board.push(move)
        game.moves.append(note)
        values.update(ply=game.ply + 1, draw_offer=None, takeback_offer=None, **_NO_JOB)
        self.settle(conn, game, at, note, **values)

    def settle(self, conn: Connection, game: Game, at: datetime, move: dict | None = None, /, **values) -> None:
        """Write ``values`` (the new ``ply`` among them; ``move``, the row of the move played, with them)
        after moves were played on the game's board, ending the game where its rules or the move limit end it."""
        out = game.board.outcome()
        if out is not None:
            self.end(conn, game, at, out.result(), out.termination, move, **values)
        elif values["ply"] >= MAX_PLIES:
            self.end(conn, game, at, "1/2-1/2", Termination.MOVE_LIMIT, move, **values)
        else:
            self.update(conn, game, at, move, **values)

    def pop(self, conn: Connection, game: Game, plies: int, at: datetime) -> None:
        """Take back ``plies`` moves of a game being played (a finished game stays finished)."""
        if game.status != Status.PLAYING:
            raise Conflict("the game is over; a finished game cannot be taken back")
        if not 1 <= plies <= game.ply:
            raise Conflict(f"cannot take back {plies} move(s): {game.ply} played")
        for _ in range(plies):
            game.board.pop()
            game.moves.pop()
        conn.execute(moves.delete().where(moves.c.game_id == game.id, moves.c.ply > game.ply - plies))
        self.update(conn, game, at, ply=game.ply - plies, draw_offer=None, takeback_offer=None,
                    clock_at=at, engine_info=None, **_NO_JOB)

    def end(self, conn: Connection, game: Game, at: datetime, result: str, termination: str,
            move: dict | None = None, /, **values) -> None:
        """The one way a game ends, whatever ends it: the rules after a move (mate, stalemate, repetition,
        the move limit...), resignation, agreement, time, or an abort (``result`` ``*``: the game is
        aborted, not over).  It writes the result (and ``values``, ``move``) into the locked row, drops the offers
        and the engine's job, then calls every hook of :attr:`endings` once with the transaction and the
        finished game (a rating, a tournament, a notification: a hook that raises rolls the ending back)."""
        if game.status.finished:
            raise Conflict("the game is over")
        status = Status.ABORTED if result == "*" else Status.OVER
        self.update(conn, game, at, move, **{**values, **_NO_JOB, "status": status, "result": result,
                                              "termination": termination, "draw_offer": None, "takeback_offer": None})
        for hook in self.endings:
            hook(conn, game)

    def flag(self, gid: str) -> None:
        """End a game whose side to move has run out of time (if it has)."""
        at = now()
        with self.db.write() as conn:
            row = self.db.lock_game(conn, gid)
            game = self.load(conn, row)
            deadline = game.deadline()
            if deadline is None or deadline > at:
                return
            loser = game.turn
            if _only_royals(game.board, seats.other(loser)):
                result, termination = "1/2-1/2", Termination.TIME_BARE_KING
            else:
                result, termination = "1-0" if loser == "black" else "0-1", Termination.TIME
            self.end(conn, game, at, result, termination, **{f"{loser}_ms": 0})
        self.changed(gid)

    # -- the lobby ---------------------------------------------------------------------------
    def lobby(self, status: tuple[str, ...], limit: int = 50) -> list[dict]:
        """Games of these statuses, newest first; a local game only once both sides have moved (the page
        starts a local game on every first visit: those would fill the lobby)."""
        played = (games.c.mode != "local") | (games.c.ply >= LISTED_FROM_PLY)
        with self.db.read() as conn:
            rows = conn.execute(games.select().where(games.c.status.in_([str(s) for s in status]), played)
                                .order_by(games.c.updated.desc()).limit(limit)).mappings().all()
        return [dict(r) for r in rows]


# Built once (building a statement costs more than running it).  A game's row with its moves, only when its
# version is not the one kept: the row repeated on each move's row, the move's columns named move_*.
_GAME_KEYS = [c.name for c in games.c]
_MOVE_KEYS = [c.name for c in moves.c if c.name != "game_id"]
_GAME_MOVES = (select(games, *(moves.c[k].label(f"move_{k}") for k in _MOVE_KEYS))
               .select_from(games.outerjoin(moves, and_(moves.c.game_id == games.c.id,
                                                        games.c.version != bindparam("kept"))))
               .where(games.c.id == bindparam("gid")).order_by(moves.c.ply))
_MOVES = moves.select().where(moves.c.game_id == bindparam("gid")).order_by(moves.c.ply)
_NO_JOB = {"engine_job": None, "engine_fen": None, "engine_lease": None, "engine_stop": False}


def _only_royals(board: Board, side: str) -> bool:
    """Has ``side`` nothing left but royal pieces (so that it cannot win)?"""
    v = board.variant
    royal = {t.letter for t in v.types if t.royal}
    mine = [board.piece_at(sq) for sq in range(v.size)]
    pieces = [p for p in mine if p and p.isupper() == (side == "white")]
    return all(p.upper() in royal for p in pieces)
