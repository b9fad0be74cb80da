"""How a variant's board is drawn (:attr:`Variant.board_style`, the ``boardStyle=`` key).

``chequered``: squares of two shades, pieces inside them.  ``xiangqi``: the pieces stand on the
points where lines cross, as Xiangqi's players know the board: the river between the two middle
ranks (no file line crosses it but the edges), and a palace, a box with its two diagonals, where
the royal type is kept (its ``confine=`` zone); the pieces get Chinese faces
(:func:`morphchess.pieceset.symbol_of`).  The web board, the published pictures and the terminal
all draw from :func:`lines_of`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .variant import Variant

__all__ = ["BOARD_STYLES", "Lines", "lines_of"]

BOARD_STYLES = ("chequered", "xiangqi")


@dataclass(frozen=True)
class Lines:
    """A board of points: ``files`` x ``ranks`` points; ``river`` the rank (from 0) below which the
    river runs (None: no river); ``palaces`` boxes ``(file0, rank0, file1, rank1)`` drawn with both
    diagonals."""

    files: int
    ranks: int
    river: int | None
    palaces: tuple[tuple[int, int, int, int], ...]

    def crosses_river(self, rank: int) -> bool:
        """Does the file line from ``rank`` to ``rank + 1`` cross the river (only the edges do)?"""
        return self.river is not None and rank == self.river - 1


def lines_of(v: Variant) -> Lines | None:
    """The lines of a board drawn as points (``boardStyle=xiangqi``), None for chequered squares."""
    if v.board_style != "xiangqi":
        return None
    river = v.ranks // 2 if v.ranks % 2 == 0 else None
    palaces = []
    for t in v.types:
        if not t.royal or not v.barred.get(t.index):
            continue
        for colour in (0, 1):
            allowed = set(range(v.size)) - v.barred_squares(t.index, colour)
            box = _box(v, allowed)
            if box is not None and box not in palaces:
                palaces.append(box)
    return Lines(v.files, v.ranks, river, tuple(palaces))


def _box(v: Variant, squares: set[int]) -> tuple[int, int, int, int] | None:
    """The rectangle ``squares`` fill, if they fill one of at least 2 x 2 points."""
    if not squares:
        return None
    files = [sq % v.files for sq in squares]
    ranks = [sq // v.files for sq in squares]
    f0, f1, r0, r1 = min(files), max(files), min(ranks), max(ranks)
    if (f1 - f0 + 1) * (r1 - r0 + 1) != len(squares) or f1 == f0 or r1 == r0:
        return None
    return f0, r0, f1, r1
