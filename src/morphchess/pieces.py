"""Piece codes: one small integer per piece type, colour and moved-state.

The board is a list of codes, 0 for an empty square::

    code = type_index * 4 + unmoved * 2 + colour

so that one table lookup gives everything a piece of that type, colour and
moved-state can do.  Type indices count from 1 in definition order.  Outside
the core (:mod:`morphchess.position` and :mod:`morphchess.tables`, whose inner
loops test the bits inline for speed) use these helpers instead of bits.
"""

from __future__ import annotations

__all__ = ["WHITE", "BLACK", "EMPTY", "code", "colour_of", "type_of", "is_unmoved", "as_moved", "as_unmoved", "is_own"]

WHITE, BLACK = 0, 1
EMPTY = 0


def code(type_index: int, colour: int, unmoved: bool = False) -> int:
    """The code of a piece of type ``type_index`` and ``colour`` (WHITE 0, BLACK 1)."""
    return type_index * 4 + (2 if unmoved else 0) + colour


def colour_of(c: int) -> int:
    """WHITE (0) or BLACK (1); meaningless for EMPTY."""
    return c & 1


def type_of(c: int) -> int:
    """The type index (0 for EMPTY)."""
    return c >> 2


def is_unmoved(c: int) -> bool:
    """Has this piece never moved (for types whose moved-state is tracked)?"""
    return bool(c & 2)


def as_moved(c: int) -> int:
    """The same piece, marked as moved."""
    return c & ~2


def as_unmoved(c: int) -> int:
    """The same piece, marked as never moved."""
    return c | 2


def is_own(c: int, colour: int) -> bool:
    """Is there a piece of ``colour`` (not an empty square)?"""
    return c != EMPTY and c & 1 == colour
