"""The server's memory caches, bounded in bytes: least recently used entries leave first.

:class:`ByteLRU` keeps values with their estimated size (from the variant's
:mod:`~morphchess.web.cost`); :class:`Boards` keeps the boards of recent games
with only their current position's legal moves, so that a change replays only
the moves it has not seen and a long game on a big board costs its moves, not
every position's legal moves.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Generic, TypeVar

from ..board import Board
from ..variant import Variant
from .cost import cost_of

__all__ = ["ByteLRU", "Boards", "REPLAY_KEPT", "BOARD_BYTES", "MB"]

K = TypeVar("K")
V = TypeVar("V")
MB = 1 << 20
BOARD_BYTES = 256 * MB  # boards of games kept per process (--boards-mb)
REPLAY_KEPT = 16  # a replay drops the earlier positions' legal moves after this many moves


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
    """Boards of recent games by id (at most ``max_bytes`` of them), so a change replays only the moves
    it has not seen yet."""

    def __init__(self, max_bytes: int) -> None:
        self._boards: ByteLRU[str, tuple[tuple, Board]] = ByteLRU(max_bytes)

    def board(self, gid: str, variant: Variant, setup: str, fen: str | None, ucis: list[str]) -> Board:
        """The board of game ``gid`` after the moves ``ucis`` (a copy: the caller may play on it)."""
        known, board = self._boards.get(gid) or ((), None)
        if board is None or board.variant is not variant or list(known) != ucis[:len(known)]:
            board, known = Board(variant, fen=fen, setup=setup), ()
        else:
            board = board.copy()
        for i, text in enumerate(ucis[len(known):], start=1):
            board.push_uci(text)
            if i % REPLAY_KEPT == 0:
                board.forget_earlier()
        self.remember(gid, board)
        return board

    def remember(self, gid: str, board: Board) -> None:
        """Keep a copy of the board of a game (after a change that committed), with the legal moves
        of its current position only."""
        kept = board.copy()
        kept.forget_earlier()
        size = cost_of(board.variant).board_bytes(len(kept.move_stack))
        self._boards.put(gid, (tuple(m.uci() for m in kept.move_stack), kept), size)

    @property
    def bytes(self) -> int:
        return self._boards.bytes
