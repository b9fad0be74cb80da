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

from typing import NamedTuple

from ..move import Move

__all__ = ["TranspositionTable", "Entry", "EXACT", "LOWER", "UPPER"]

EXACT, LOWER, UPPER = 0, 1, 2
DEFAULT_SLOTS = 1 << 19


class Entry(NamedTuple):
    """One searched position: its ``hash``, the ``depth`` searched, whether ``score`` is EXACT or a
    LOWER or UPPER bound, the best ``move`` found (None: none known) and the search's ``age``."""

    hash: int
    depth: int
    bound: int
    score: int
    move: Move | None
    age: int


class TranspositionTable:
    """A table of :class:`Entry` by position hash; :meth:`get` returns a position's or None."""

    def __init__(self, slots: int = DEFAULT_SLOTS) -> None:
        if slots < 2 or slots & (slots - 1):
            raise ValueError(f"the table needs a power of two of at least 2 slots, not {slots}")
        self.slots: list[Entry | None] = [None] * slots
        self.mask = (slots - 1) & ~1
        self.age = 0
        self.evals: dict[int, int] = {}
        self.gains: tuple[dict[int, int], dict[int, int]] = ({}, {})

    def new_search(self) -> None:
        """Mark everything stored so far as older than what comes next."""
        self.age += 1

    def get(self, h: int) -> Entry | None:
        """The entry of the position with hash ``h``, or None."""
        i = h & self.mask
        slots = self.slots
        e = slots[i]
        if e is not None and e.hash == h:
            return e
        e = slots[i + 1]
        if e is not None and e.hash == h:
            return e
        return None

    def put(self, h: int, depth: int, bound: int, score: int, move: Move | None) -> None:
        """Keep a result (see the module doc for which slot it replaces)."""
        i = h & self.mask
        slots = self.slots
        e = slots[i]
        if e is None or e.hash == h or e.age != self.age or depth >= e.depth:
            if e is not None and e.hash == h and move is None:
                move = e.move  # keep the best move known for this position
            slots[i] = Entry(h, depth, bound, score, move, self.age)
        else:
            slots[i + 1] = Entry(h, depth, bound, score, move, self.age)

    def used(self) -> int:
        """How many slots hold an entry (for tests and statistics; walks the whole table)."""
        return sum(e is not None for e in self.slots)
