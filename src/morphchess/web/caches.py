"""The server's memory caches, bounded in bytes: least recently used entries leave first.

:class:`ByteLRU` keeps values with their estimated size (from the variant's
:mod:`~morphchess.web.cost`); :class:`Boards` keeps the boards of recent games
with only their current position's legal moves, so that a change replays only
the moves it has not seen and a long game on a big board costs its moves, not
every position's legal moves.  With each board it keeps the game's move rows and
the version of the game they were read or written at: a change that finds the
game's row at that version reads no moves from the database.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Generic, TypeVar

from ..board import Board
from ..variant import Variant
from .cost import cost_of

__all__ = ["ByteLRU", "Boards", "REPLAY_KEPT", "BOARD_BYTES", "NOTE_BYTES", "MB"]

K = TypeVar("K")
V = TypeVar("V")
MB = 1 << 20
BOARD_BYTES = 256 * MB  # boards of games kept per process (--boards-mb)
REPLAY_KEPT = 16  # a replay drops the earlier positions' legal moves after this many moves
NOTE_BYTES = 800  # one move row kept with a board (its dict and texts; tests/test_web_budgets.py measures it)


class ByteLRU(Generic[K, V]):
    """A thread-safe map of at most ``max_bytes`` (by the sizes given) and ``max_entries`` values;
    the least recently used leave first, and a value larger than the whole budget is not kept."""

    def __init__(self, max_bytes: int, max_entries: int | None = None) -> None:
        self.max_bytes, self.max_entries = max_bytes, max_entries
        self._items: OrderedDict[K, tuple[V, int]] = OrderedDict()
        self._lock = threading.Lock()
        self.bytes = 0

    def get(self, key: K) -> V | None:
        with self._lock:
            item = self._items.get(key)
            if item is None:
                return None
            self._items.move_to_end(key)
            return item[0]

    def put(self, key: K, value: V, size: int) -> None:
        with self._lock:
            old = self._items.pop(key, None)
            if old is not None:
                self.bytes -= old[1]
            if size > self.max_bytes:
                return
            self._items[key] = (value, size)
            self.bytes += size
            while self.bytes > self.max_bytes or (self.max_entries is not None and len(self._items) > self.max_entries):
                _key, (_value, gone) = self._items.popitem(last=False)
                self.bytes -= gone

    def keys(self) -> list[K]:
        """The keys, least recently used first."""
        with self._lock:
            return list(self._items)


class Boards:
    """Boards of recent games by id (at most ``max_bytes`` of them) with their move rows and the game's
    version, so a change replays only the moves it has not seen yet, and reads none at a version kept."""

    def __init__(self, max_bytes: int) -> None:
        self._boards: ByteLRU[str, tuple[int, list[dict], Board]] = ByteLRU(max_bytes)

    def version(self, gid: str) -> int | None:
        """The version of game ``gid`` whose board is kept, if one is."""
        version, _notes, _board = self._boards.get(gid) or (None, [], None)
        return version

    def at(self, gid: str, version: int, variant: Variant) -> tuple[list[dict], Board] | None:
        """The move rows and board of game ``gid`` at ``version`` if they are kept (a copy of each: the
        caller may play on them; the rows themselves are shared and never changed), else None."""
        _version, notes, board = self._boards.get(gid) or (None, [], None)
        if board is None or _version != version or board.variant is not variant:
            return None
        return notes[:], board.copy()

    def board(self, gid: str, variant: Variant, setup: str, fen: str | None, notes: list[dict],
              version: int) -> Board:
        """The board of game ``gid`` after the move rows ``notes``, read at ``version`` (a copy: the
        caller may play on it)."""
        _version, known, board = self._boards.get(gid) or (None, [], None)
        ucis = [n["uci"] for n in notes]
        if board is None or board.variant is not variant or [n["uci"] for n in known] != ucis[:len(known)]:
            board, known = Board(variant, fen=fen, setup=setup), []
        else:
            board = board.copy()
        for i, text in enumerate(ucis[len(known):], start=1):
            board.push_uci(text)
            if i % REPLAY_KEPT == 0:
                board.forget_earlier()
        self.remember(gid, version, notes, board)
        return board

    def remember(self, gid: str, version: int, notes: list[dict], board: Board) -> None:
        """Keep a copy of the board of a game at ``version`` (read, or after a change that committed) with
        its move rows ``notes``, and the legal moves of its current position only; not over a newer
        version kept meanwhile (a read that began before a change ends after it)."""
        newer = self.version(gid)
        if newer is not None and newer > version:
            return
        kept = board.copy()
        kept.forget_earlier()
        size = cost_of(board.variant).board_bytes(len(kept.move_stack)) + len(notes) * NOTE_BYTES
        self._boards.put(gid, (version, notes[:], kept), size)

    @property
    def bytes(self) -> int:
        return self._boards.bytes
