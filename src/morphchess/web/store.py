"""Games in the database: creating them, and every change, each in one locked transaction.

A :class:`Game` is a snapshot read in a transaction: the game's row, its move
rows and the board they give.  Every change locks the row, checks the request
against the snapshot, writes, and commits before it is answered.
"""

from __future__ import annotations

import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from sqlalchemy import func, select
from sqlalchemy.engine import Connection

from .. import gamecourier
from ..board import Board, Move
from ..errors import InputError
from ..notation import MoveError
from ..variant import WHITE, Variant
from . import clocks, seats
from .catalog import Catalog
from .db import Database, aware, games, moves, now
from .errors import BadInput, Conflict, IllegalMove, NotFound, RateLimited

__all__ = ["Game", "Store", "NewGame", "start_board", "MODES", "KINDS"]

MODES = ("local", "invite", "open")
KINDS = ("human", "engine")
BOARD_CACHE = 256  # boards kept per process, so that a change replays only the moves it has not seen
LISTED_FROM_PLY = 2  # the lobby lists a local game once both sides have moved


@dataclass
class Game:
    """A game as read in one transaction."""

    row: dict
    moves: list[dict]
    board: Board
    variant: Variant

    @property
    def id(self) -> str:
        return self.row["id"]

    @property
    def ply(self) -> int:
        return self.row["ply"]

    @property
    def turn(self) -> str:
        return "white" if self.board.turn == WHITE else "black"

    @property
    def tc(self) -> clocks.TimeControl | None:
        return clocks.parse(self.row["tc"])

    def sides_of(self, token: str | None) -> list[str]:
        """The seats a token holds."""
        return seats.held(self.row, token)

    def clock_running(self) -> str | None:
        """The side losing time now, or None."""
        row = self.row
        if row["tc"] and row["status"] == "playing" and row["ply"] >= clocks.CLOCK_FROM_PLY:
            return self.turn
        return None

    def time_left(self, side: str, at: datetime) -> int:
        stored = self.row[f"{side}_ms"]
        if self.clock_running() == side:
            return clocks.time_left(stored, aware(self.row["clock_at"]), at)
        return stored

    def deadline(self) -> datetime | None:
        """When the side to move runs out of time, if its clock runs."""
        side = self.clock_running()
        if side is None:
            return None
        return aware(self.row["clock_at"]) + timedelta(milliseconds=self.row[f"{side}_ms"])

    def thinking(self, at: datetime) -> bool:
        lease = aware(self.row["engine_lease"])
        return bool(self.row["engine_job"]) and self.row["engine_job"] != "error" and lease is not None \
            and lease > at

    def engine_due(self) -> bool:
        """Is an engine seat to move?"""
        return self.row["status"] == "playing" and self.row[self.turn] == "engine"


@dataclass
class NewGame:
    """What a new game is made of (the API's request, checked)."""

    variant: str = "chess"
    definition: str | None = None
    setup: str | None = None
    fen: str | None = None
    moves: list[str] = field(default_factory=list)
    mode: str = "local"
    side: str = "white"
    white: str | None = None  # local games: human and engine by default; others: human
    black: str | None = None
    level: int = 3
    time_control: str | None = None
    name: str | None = None


class Boards:
    """Boards of recent games by id, so a change replays only the moves it has not seen yet."""

    def __init__(self, size: int = BOARD_CACHE) -> None:
        self._boards: OrderedDict[str, tuple[tuple, Board]] = OrderedDict()
        self._lock = threading.Lock()
        self.size = size

    def board(self, gid: str, variant: Variant, setup: str, fen: str | None, ucis: list[str]) -> Board:
        with self._lock:
            known, board = self._boards.get(gid, ((), None))
        if board is None or board.variant is not variant or list(known) != ucis[:len(known)]:
            board, known = Board(variant, fen=fen, setup=setup), ()
        else:
            board = board.copy()
        for text in ucis[len(known):]:
            board.push_uci(text)
        self.remember(gid, board)
        return board

    def remember(self, gid: str, board: Board) -> None:
        """Keep a copy of the board of a game (after a change that committed)."""
        with self._lock:
            self._boards[gid] = (tuple(m.uci() for m in board.move_stack), board.copy())
            self._boards.move_to_end(gid)
            while len(self._boards) > self.size:
                self._boards.popitem(last=False)


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
        except MoveError:
            raise IllegalMove(str(coord_error)[:200]) from None


class Store:
    """Every game of a server, in its database."""

    def __init__(self, db: Database, catalog: Catalog, games_per_minute: int = 60) -> None:
        self.db = db
        self.catalog = catalog
        self.games_per_minute = games_per_minute
        self.boards = Boards()
        self.listeners: list[Callable[[str], None]] = []  # told the id of every game that changed

    # -- reading ------------------------------------------------------------------
    def _load(self, conn: Connection, row) -> Game:
        row = dict(row)
        rows = [dict(r) for r in conn.execute(moves.select().where(moves.c.game_id == row["id"])
                                              .order_by(moves.c.ply)).mappings()]
        v = self.catalog.get(row["variant"])
        board = self.boards.board(row["id"], v, row["setup"], row["start_fen"], [r["uci"] for r in rows])
        return Game(row, rows, board, v)

    def get(self, gid: str) -> Game:
        with self.db.read() as conn:
            row = conn.execute(games.select().where(games.c.id == gid)).mappings().first()
            if row is None:
                raise NotFound(f"no game {gid[:20]!r}")
            return self._load(conn, row)

    def mark(self, gid: str) -> tuple | None:
        """What changes with every change of a game: (version, engine progress count, progress), or None."""
        with self.db.read() as conn:
            row = conn.execute(select(games.c.version, games.c.engine_seq, games.c.engine_info)
                               .where(games.c.id == gid)).first()
        return None if row is None else tuple(row)

    # -- changing -------------------------------------------------------------------
    def change(self, gid: str, act: Callable[[Connection, Game, datetime], None]) -> Game:
        """Run ``act`` on the locked game and commit; a game whose time ran out is ended first."""
        at = now()
        with self.db.write() as conn:
            row = self.db.lock_game(conn, gid)
            if row is None:
                raise NotFound(f"no game {gid[:20]!r}")
            game = self._load(conn, row)
            deadline = game.deadline()
            if deadline is None or deadline > at:
                act(conn, game, at)
        if deadline is not None and deadline <= at:
            self.flag(gid)
            raise Conflict("the game is over: time ran out")
        self.boards.remember(gid, game.board)
        self.changed(gid)
        return game

    def changed(self, gid: str) -> None:
        for listener in self.listeners:
            listener(gid)

    def update(self, conn: Connection, game: Game, at: datetime, **values) -> None:
        """Write new values into the game's row (and the snapshot), counting a new version."""
        values.update(version=game.row["version"] + 1, updated=at)
        conn.execute(games.update().where(games.c.id == game.id).values(**values))
        self.db.notify(conn, game.id)
        game.row.update(values)

    def push(self, conn: Connection, game: Game, move: Move, at: datetime) -> None:
        """Play a legal move: its row, the clocks, the result if it ends the game."""
        board, side = game.board, game.turn
        note = {"game_id": game.id, "ply": game.ply + 1, "uci": move.uci(), "san": board.san(move),
                "gc": gamecourier.write_move(board, move), "at": at}
        values: dict = {}
        tc = game.tc
        if tc is not None:
            left = tc.after_move(game.time_left(side, at)) if game.clock_running() else game.row[f"{side}_ms"]
            values.update({f"{side}_ms": left, "clock_at": at})
            if tc.per_move_ms is not None:
                values[f"{seats.other(side)}_ms"] = tc.per_move_ms
            note["clock_ms"] = left
        board.push(move)
        conn.execute(moves.insert().values(**note))
        game.moves.append(note)
        out = board.outcome()
        if out is not None:
            values.update(status="over", result=out.result(), termination=out.termination)
        if game.row[side] == "human":
            values[f"{side}_joined"] = True
        self.update(conn, game, at, ply=game.ply + 1, draw_offer=None, takeback_offer=None,
                    **values, **_NO_JOB)

    def pop(self, conn: Connection, game: Game, plies: int, at: datetime) -> None:
        """Take back ``plies`` moves; a game that had ended by the rules goes on."""
        if not 1 <= plies <= game.ply:
            raise Conflict(f"cannot take back {plies} move(s): {game.ply} played")
        for _ in range(plies):
            game.board.pop()
            game.moves.pop()
        conn.execute(moves.delete().where(moves.c.game_id == game.id, moves.c.ply > game.ply - plies))
        values = {"status": "playing", "result": None, "termination": None} if game.row["status"] == "over" else {}
        self.update(conn, game, at, ply=game.ply - plies, draw_offer=None, takeback_offer=None,
                    clock_at=at, engine_info=None, **values, **_NO_JOB)

    def finish(self, conn: Connection, game: Game, at: datetime, result: str, termination: str) -> None:
        self.update(conn, game, at, status="over", result=result, termination=termination,
                    draw_offer=None, takeback_offer=None, **_NO_JOB)

    def flag(self, gid: str) -> None:
        """End a game whose side to move has run out of time (if it has)."""
        at = now()
        with self.db.write() as conn:
            row = self.db.lock_game(conn, gid)
            game = self._load(conn, row)
            deadline = game.deadline()
            if deadline is None or deadline > at:
                return
            loser = game.turn
            if _only_royals(game.board, seats.other(loser)):
                self.finish(conn, game, at, "1/2-1/2", "insufficient material on time")
            else:
                self.finish(conn, game, at, "1-0" if loser == "black" else "0-1", "time")
            conn.execute(games.update().where(games.c.id == gid).values({f"{loser}_ms": 0}))
        self.changed(gid)

    # -- creating ------------------------------------------------------------------------
    def create(self, spec: NewGame, client: str) -> tuple[Game, dict[str, list[str]]]:
        """A new game; returns it and the tokens it hands out (token -> the sides it holds)."""
        if spec.mode not in MODES:
            raise BadInput(f"mode {spec.mode[:20]!r}: use one of {', '.join(MODES)}")
        tc = clocks.parse(spec.time_control)
        key = self.catalog.add(spec.definition) if spec.definition is not None else spec.variant
        try:
            v = self.catalog.get(key)
        except NotFound as e:
            raise BadInput(str(e)) from None
        board = start_board(v, spec)
        kinds, tokens = _seats(spec)
        at = now()
        gid = secrets.token_urlsafe(9)
        row = {"id": gid, "variant": key, "setup": board.setup,
               "start_fen": board.root_fen if board.custom_start else None, "mode": spec.mode,
               "status": "open" if spec.mode == "open" else "playing", "level": spec.level,
               "tc": tc.text if tc else None, "clock_at": at, "ply": 0, "version": 0,
               "engine_stop": False, "engine_seq": 0, "creator": client, "created": at, "updated": at}
        creator = next(iter(tokens))
        # the creator's name goes to the one human side the creator holds (with or against the engine)
        named = [side for side in tokens[creator] if kinds[side] == "human"]
        for side in seats.SIDES:
            holder = next((t for t, sides in tokens.items() if side in sides), None)
            row.update({side: kinds[side], f"{side}_token": seats.digest(holder) if holder else None,
                        f"{side}_ms": tc.start_ms if tc else None, f"{side}_joined": holder == creator,
                        f"{side}_name": (spec.name or None) if named == [side] else None})
        with self.db.write() as conn:
            self._check_rate(conn, client, at)
            conn.execute(games.insert().values(**row))
            game = self._load(conn, self.db.lock_game(conn, gid))
            for move in board.move_stack:
                self.push(conn, game, game.board.parse_uci(move.uci()), at)
        self.changed(gid)
        return game, tokens

    def _check_rate(self, conn: Connection, client: str, at: datetime) -> None:
        recent = conn.execute(select(func.count()).select_from(games).where(
            games.c.creator == client, games.c.created > at - timedelta(minutes=1))).scalar_one()
        if recent >= self.games_per_minute:
            raise RateLimited(f"at most {self.games_per_minute} new games a minute; try again shortly",
                              headers={"Retry-After": "60"})

    # -- the lobby ---------------------------------------------------------------------------
    def lobby(self, status: tuple[str, ...], limit: int = 50) -> list[dict]:
        """Games of these statuses, newest first; a local game only once both sides have moved (the page
        starts a local game on every first visit: those would fill the lobby)."""
        played = (games.c.mode != "local") | (games.c.ply >= LISTED_FROM_PLY)
        with self.db.read() as conn:
            rows = conn.execute(games.select().where(games.c.status.in_(status), played)
                                .order_by(games.c.updated.desc()).limit(limit)).mappings().all()
        return [dict(r) for r in rows]


_NO_JOB = {"engine_job": None, "engine_fen": None, "engine_lease": None, "engine_stop": False}


def _only_royals(board: Board, side: str) -> bool:
    """Has ``side`` nothing left but royal pieces (so that it cannot win)?"""
    v = board.variant
    royal = {t.letter for t in v.types if t.royal}
    mine = [board.piece_at(sq) for sq in range(v.size)]
    pieces = [p for p in mine if p and p.isupper() == (side == "white")]
    return all(p.upper() in royal for p in pieces)


def start_board(v: Variant, spec: NewGame) -> Board:
    """The start position with the request's moves played (none after the end of the game)."""
    try:
        board = Board(v, fen=spec.fen, setup=spec.setup)
    except (InputError, ValueError) as e:
        raise BadInput(str(e)[:300]) from None
    for i, text in enumerate(spec.moves, start=1):
        if board.outcome() is not None:
            raise BadInput(f"move {i} ({text[:20]!r}): the game is already over ({board.outcome()})")
        try:
            board.push(parse_move(board, text))
        except IllegalMove as e:
            raise IllegalMove(f"move {i} ({text[:20]!r}): {e}") from None
    return board


def _seats(spec: NewGame) -> tuple[dict[str, str], dict[str, list[str]]]:
    """Who plays each side, and the tokens handed out (the creator's first) with the sides they hold."""
    local = spec.mode == "local"
    kinds = {"white": spec.white or "human", "black": spec.black or ("engine" if local else "human")}
    if any(k not in KINDS for k in kinds.values()):
        raise BadInput(f"players: use one of {', '.join(KINDS)}")
    if local:
        return kinds, {seats.new_token(): list(seats.SIDES)}
    side = secrets.choice(seats.SIDES) if spec.side == "random" else spec.side
    if side not in seats.SIDES:
        raise BadInput(f"side {spec.side[:20]!r}: use white, black or random")
    them = seats.other(side)
    kinds[side] = "human"
    if spec.mode == "open" and kinds[them] == "engine":
        raise BadInput("an open seek waits for a person; play the engine in local or invite mode")
    tokens = {seats.new_token(): [side]}
    if spec.mode == "invite" and kinds[them] == "human":
        tokens[seats.new_token()] = [them]
    return kinds, tokens
