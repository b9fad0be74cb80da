"""The transposition table: results of searched positions, kept from one search to the next.

A fixed number of slots in pairs; a position's hash picks its pair.  The first slot of a pair
keeps the deeper result (depth-preferred), unless it is from an older search, the second always
takes the newest one.  :meth:`TranspositionTable.new_search` ages every entry at once, so the
table never has to be cleared: old entries are overwritten first and still answer until then.
Beside the entries it keeps the search's dynamic evaluations and the side to move's morph gains
(all of them, and the safe ones) by hash (``evals``, ``gains``), so a player's evaluations, like its
results, are its own.
"""

from __future__ import annotations

from ..move import Move

__all__ = ["TranspositionTable", "EXACT", "LOWER", "UPPER"]

EXACT, LOWER, UPPER = 0, 1, 2
DEFAULT_SLOTS = 1 << 19


class TranspositionTable:
    """Entries are tuples ``(hash, depth, bound, score, move, age)``; :meth:`get` returns one or None."""

    def __init__(self, slots: int = DEFAULT_SLOTS) -> None:
        if slots < 2 or slots & (slots - 1):
            raise ValueError(f"the table needs a power of two of at least 2 slots, not {slots}")
        self.slots: list = [None] * slots
        self.mask = (slots - 1) & ~1
        self.age = 0
        self.evals: dict[int, int] = {}
        self.gains: tuple[dict[int, int], dict[int, int]] = ({}, {})

    def new_search(self) -> None:
        """Mark everything stored so far as older than what comes next."""
        self.age += 1

    def get(self, h: int) -> tuple | None:
        i = h & self.mask
        slots = self.slots
        e = slots[i]
        if e is not None and e[0] == h:
            return e
        e = slots[i + 1]
        if e is not None and e[0] == h:
            return e
        return None

    def put(self, h: int, depth: int, bound: int, score: int, move: Move | None) -> None:
        i = h & self.mask
        slots = self.slots
        e = slots[i]
        if e is None or e[0] == h or e[5] != self.age or depth >= e[1]:
            if e is not None and e[0] == h and move is None:
                move = e[4]  # keep the best move known for this position
            slots[i] = (h, depth, bound, score, move, self.age)
        else:
            slots[i + 1] = (h, depth, bound, score, move, self.age)

    def used(self) -> int:
        """How many slots hold an entry (for tests and statistics; walks the whole table)."""
        return sum(e is not None for e in self.slots)
