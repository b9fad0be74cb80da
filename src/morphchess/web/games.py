"""Games in progress on the web server: variants, boards, players and the thinking engine.

The server keeps every game in memory under a random id.  The page keeps the
id and the game's record (variant, definition, setup, moves) in the browser,
so a reload finds the game again, and a restarted server can rebuild it.
"""

from __future__ import annotations

import hashlib
import secrets
import threading
from dataclasses import dataclass, field

from .. import engine, gamecourier
from ..board import Board, Move
from ..idiagram import load
from ..notation import MoveError, move_to_coord
from ..variant import BLACK, WHITE, Variant, VariantError
from ..variants import builtin, names

__all__ = ["GameError", "Conflict", "Variants", "Game", "Store", "PLAYERS"]

PLAYERS = ("human", "engine")
MAX_GAMES = 1000  # games kept in memory; the page rebuilds a forgotten one from its record


class GameError(ValueError):
    """Bad input for a game (unknown variant, illegal move...): a 4xx answer."""


class Conflict(GameError):
    """The request does not fit the game's state (the engine is thinking, no move to take back)."""


class Variants:
    """Built-in variants by name and pasted definitions by a key made from their text."""

    def __init__(self) -> None:
        self._loaded: dict[str, Variant] = {}
        self._lock = threading.Lock()

    def get(self, key: str) -> Variant:
        with self._lock:
            if key not in self._loaded:
                if key not in names():
                    raise KeyError(key)
                self._loaded[key] = builtin(key)
            return self._loaded[key]

    def add_definition(self, text: str, name: str | None = None) -> str:
        """Load definition text (VariantError/BetzaError on bad text) and return its key."""
        key = "custom-" + hashlib.sha256(text.encode()).hexdigest()[:12]
        with self._lock:
            if key not in self._loaded:
                self._loaded[key] = load(text, name or "custom")
        return key


@dataclass
class EngineJob:
    """One search running in a thread; ``stop`` ends it early with the best move so far."""

    level: int
    stop: threading.Event = field(default_factory=threading.Event)
    info: dict = field(default_factory=dict)  # progress: depth, score, principal variation
    thread: threading.Thread | None = None


class Game:
    """A game: the board, who plays each side, and the engine job if it is thinking."""

    def __init__(self, gid: str, key: str, board: Board, players: dict[int, str], level: int) -> None:
        self.id = gid
        self.key = key
        self.board = board
        self.players = players
        self.level = level
        self.notes: list[dict] = []  # each move of board.move_stack in coordinate text, SAN and GC
        self.job: EngineJob | None = None
        self.last_engine: dict = {}
        self.version = 0  # counts changes, so that the page can drop answers that come late
        self.lock = threading.RLock()

    # -- playing ----------------------------------------------------------------
    def parse(self, text: str) -> Move:
        """A legal move from coordinate text or SAN; GameError names the problem."""
        text = text.strip()
        if not text:
            raise GameError("empty move text")
        try:
            return self.board.parse_uci(text)
        except MoveError as coord_error:
            try:
                return self.board.parse_san(text)
            except MoveError:
                raise GameError(str(coord_error)) from None

    def push(self, move: Move) -> None:
        self.notes.append({"uci": move.uci(), "san": self.board.san(move),
                           "gc": gamecourier.write_move(self.board, move)})
        self.board.push(move)
        self.version += 1

    def play(self, text: str) -> Move:
        """Play a move given as text for the side to move."""
        with self.lock:
            if self.job:
                raise Conflict("the engine is thinking; stop it first")
            if self.board.outcome() is not None:
                raise Conflict("the game is over")
            move = self.parse(text)
            self.push(move)
            return move

    def undo(self, plies: int) -> None:
        """Take back ``plies`` half-moves (stops the engine first)."""
        self.cancel_engine()
        with self.lock:
            if plies < 1 or plies > len(self.board.move_stack):
                raise Conflict(f"cannot take back {plies} move(s): {len(self.board.move_stack)} played")
            for _ in range(plies):
                self.board.pop()
                self.notes.pop()
            self.last_engine = {}
            self.version += 1

    # -- the engine ---------------------------------------------------------------
    def start_engine(self, level: int | None = None) -> EngineJob:
        """Let the engine play the side to move, in a thread."""
        with self.lock:
            if self.job:
                raise Conflict("the engine is already thinking")
            if self.board.outcome() is not None:
                raise Conflict("the game is over")
            job = EngineJob(level or self.level)
            self.job = job
            self.version += 1
            job.thread = threading.Thread(target=self._think, args=(job,), daemon=True, name=f"engine-{self.id}")
            job.thread.start()
            return job

    def _think(self, job: EngineJob) -> None:
        def on_info(info) -> None:
            job.info = _info_view(self.board, info)

        try:
            pos = self.board.position.copy()
            result = engine.search(pos, stop=job.stop, on_info=on_info, **engine.level_limits(job.level))
        except Exception as e:  # noqa: BLE001 - reported to the page instead of lost in a thread
            with self.lock:
                if self.job is job:
                    self.job = None
                    self.version += 1
                    self.last_engine = {"error": f"the engine failed: {e}"}
            return
        with self.lock:
            if self.job is not job:
                return  # cancelled (take back, new position)
            move = next((m for m in self.board.legal_moves if m.raw == result.move), None)
            if move is None:
                self.last_engine = {"error": "the engine returned no legal move"}
            else:
                self.last_engine = {"move": move.text, "depth": result.depth, "score": result.score,
                                    "mate": result.mate, "nodes": result.nodes,
                                    "seconds": round(result.seconds, 2), "stopped": job.stop.is_set()}
                self.push(move)
            self.job = None
            self.version += 1

    def stop_engine(self) -> None:
        """Ask the thinking engine to play its best move so far."""
        job = self.job
        if job:
            job.stop.set()

    def wait_engine(self, timeout: float | None = None) -> None:
        job = self.job
        if job and job.thread:
            job.thread.join(timeout)

    def cancel_engine(self) -> None:
        """Stop the engine and drop its move."""
        with self.lock:
            job = self.job
            self.job = None
            self.version += 1
        if job:
            job.stop.set()
            if job.thread:
                job.thread.join()


def _info_view(board: Board, info) -> dict:
    """What the page shows while the engine thinks (fields of the engine's progress report)."""
    view = {}
    for name in ("depth", "score", "mate", "nodes", "seconds"):
        value = getattr(info, name, None)
        if value is not None:
            view[name] = value
    pv = getattr(info, "pv", None) or []
    probe = board.position.copy()
    words = []
    for m in pv:
        try:
            words.append(move_to_coord(probe, m))
            probe.make(m)
        except (IndexError, TypeError, ValueError):
            break
    view["pv"] = " ".join(words)
    return view


class Store:
    """All games of a server, by id."""

    def __init__(self, variants: Variants | None = None) -> None:
        self.variants = variants or Variants()
        self.games: dict[str, Game] = {}
        self._lock = threading.Lock()

    def variant(self, key: str) -> Variant:
        try:
            return self.variants.get(key)
        except KeyError:
            raise GameError(f"unknown variant {key!r}; built-in variants: {', '.join(names())}") from None

    def create(self, key: str, setup: str | None = None, moves: list[str] | None = None,
               players: dict[int, str] | None = None, level: int = 3, fen: str | None = None,
               board: Board | None = None) -> Game:
        """A new game of the variant ``key``, with ``moves`` (text) already played."""
        if board is None:
            v = self.variant(key)
            try:
                board = Board(v, fen=fen, setup=setup)
            except (VariantError, ValueError) as e:
                raise GameError(str(e)) from None
        players = players or {WHITE: "human", BLACK: "engine"}
        for side in (WHITE, BLACK):
            if players.get(side) not in PLAYERS:
                raise GameError(f"player {players.get(side)!r}: use one of {', '.join(PLAYERS)}")
        game = Game(secrets.token_hex(8), key, Board(board.variant, fen=board.root_fen if board.custom_start
                                                      else None, setup=board.setup), players, level)
        for move in board.move_stack:
            game.push(game.board.parse_uci(move.text))
        for i, text in enumerate(moves or [], start=1):
            try:
                game.push(game.parse(text))
            except GameError as e:
                raise GameError(f"move {i} ({text!r}): {e}") from None
        with self._lock:
            self.games[game.id] = game
            while len(self.games) > MAX_GAMES:  # forget the oldest game that is not thinking
                old = next((g for g in self.games.values() if g.job is None), None)
                if old is None:
                    break
                del self.games[old.id]
        return game

    def get(self, gid: str) -> Game:
        game = self.games.get(gid)
        if game is None:
            raise KeyError(gid)
        return game
