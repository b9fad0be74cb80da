"""Connection wins (Fairy-Stockfish's ``connectN``, ``connectNxN``, ``collinearN`` and
``connectRegion...`` keys, ``docs/rules.md``): a :class:`Connection` is the rule as a variant holds
it, :func:`connected` tells whether a side's pieces make it.

Squares are numbered ``rank * files + file`` from a1 = 0, as everywhere in the core.  Lines and
chains never wrap round the board's edge.
"""

from __future__ import annotations

from collections.abc import Set
from typing import NamedTuple

__all__ = ["Connection", "connected", "EAST", "NORTH", "DIAGONALS"]

# Fairy-Stockfish's connection directions: (files, ranks) of one step
EAST, NORTH = (1, 0), (0, 1)
DIAGONALS = ((1, 1), (1, -1))
_NO_REGIONS: tuple[tuple[frozenset[int], frozenset[int]], ...] = ((frozenset(), frozenset()),) * 2


class Connection(NamedTuple):
    """One variant's connection rule.  The side that has just moved makes a connection with its
    pieces of ``types`` (type indices; empty: every type) when ``line`` of them stand in a row (a
    step of ``directions`` apart), when they fill a ``square`` x ``square`` block, when ``collinear``
    of them stand on one line of ``directions`` (gaps allowed), or when a chain of them leads from
    its first region into its second (``regions[colour]``).  A rule set to 0 is off.  ``value`` is
    the result for the side that made the connection: 1 a win, -1 a loss, 0 a draw."""

    types: frozenset[int] = frozenset()
    directions: tuple[tuple[int, int], ...] = (EAST, NORTH, *DIAGONALS)
    line: int = 0
    square: int = 0
    collinear: int = 0
    regions: tuple[tuple[frozenset[int], frozenset[int]], ...] = _NO_REGIONS
    value: int = 1


def connected(rule: Connection, mine: Set[int], colour: int, files: int, ranks: int) -> bool:
    """Do the squares ``mine`` (``colour``'s pieces of the rule's types) make a connection?"""
    if not mine:
        return False
    cells = {(sq % files, sq // files) for sq in mine}
    if rule.line and any(_in_row(cells, cell, d, rule.line) for d in rule.directions for cell in cells):
        return True
    if rule.square and any(all((x + i, y + j) in cells for i in range(rule.square) for j in range(rule.square))
                           for x, y in cells):
        return True
    if rule.collinear and any(n >= rule.collinear for d in rule.directions for n in _lines(cells, d).values()):
        return True
    first, second = rule.regions[colour]
    return bool(first and second) and _chain(mine, first, second, rule.directions, files, ranks)


def _in_row(cells: set[tuple[int, int]], cell: tuple[int, int], d: tuple[int, int], n: int) -> bool:
    x, y = cell
    return all((x + i * d[0], y + i * d[1]) in cells for i in range(n))


def _lines(cells: set[tuple[int, int]], d: tuple[int, int]) -> dict[int, int]:
    """How many of ``cells`` stand on each line of direction ``d`` (a line named by what stays
    the same along it)."""
    out: dict[int, int] = {}
    for x, y in cells:
        key = y * d[0] - x * d[1]
        out[key] = out.get(key, 0) + 1
    return out


def _chain(mine: Set[int], first: Set[int], second: Set[int], directions: tuple[tuple[int, int], ...],
           files: int, ranks: int) -> bool:
    """Does a chain of ``mine`` lead from a piece in ``first`` to one in ``second``?  As
    Fairy-Stockfish grows it: each link one step of ``directions`` (east, north, north-east,
    south-east: never back west or south), the pieces in ``second`` counting only when reached
    by such a step."""
    reached = {sq for sq in mine if sq in first}
    todo = list(reached)
    while todo:
        sq = todo.pop()
        x, y = sq % files, sq // files
        for dx, dy in directions:
            if 0 <= x + dx < files and 0 <= y + dy < ranks:
                nxt = sq + dy * files + dx
                if nxt in mine and nxt in second:
                    return True
                if nxt in mine and nxt not in reached:
                    reached.add(nxt)
                    todo.append(nxt)
    return False
