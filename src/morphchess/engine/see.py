"""Static exchange evaluation: what a capture wins once both sides have recaptured on its square.

The attackers of a square come from the core's reversed attack tables (``Tables.att``), read
on a copy of the board from which every piece that has captured is removed, so pieces behind
them (x-rays) join in.  A piece that lands on the square takes the shape it morphs or promotes
into there (the best choice), and that shape is what the other side wins by recapturing; the
morph's own gain counts for the side that makes it.  Each side recaptures with its least
valuable attacker and stops when that would lose.  Pins are ignored.

Hoppers and multi-leg moves attack in ways these tables do not list square by square, so for a
variant that has them :func:`exchange_exact` is false and the search does not use SEE.
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence

from ..move import Move
from ..position import Position
from ..variant import Variant

__all__ = ["ROYAL_SEE", "see", "exchange_exact", "see_values", "landings"]

ROYAL_SEE = 20000  # a royal piece in an exchange: capturing it ends the exchange in that side's favour


def exchange_exact(pos: Position) -> bool:
    """Can :func:`see` list every attacker of a square in this variant (no hoppers, no multi-leg moves)?"""
    return not pos.t.complex_attacks


def see_values(t, value: Sequence[int]) -> array:
    """Per-code exchange values (an int array): ``value`` with royal pieces worth :data:`ROYAL_SEE`."""
    return array("i", [ROYAL_SEE if t.royal[c] else value[c] for c in range(t.ncodes)])


def landings(variant: Variant, value: Sequence[int]) -> array:
    """Per code and square (index ``code * size + square``) the code a piece has after arriving there:
    its best promotion choice by ``value`` (see :func:`see_values`), the first of equals; 0 for invalid
    codes.  Built once per variant and values."""
    t = variant.tables
    return variant.derived(("see landings", tuple(value)), lambda: array("i", [
        _landing(t, c, to, value) if t.valid[c] else 0 for c in range(t.ncodes) for to in range(t.size)]))


def _least_attacker(b: Sequence[int], att: tuple, value: Sequence[int]) -> int:
    """The square of the least valuable piece listed in ``att`` that attacks its square on ``b``, or -1."""
    near, rays, lame, _hops = att
    best, best_value = -1, ROYAL_SEE + 1
    for src, codes in near:
        p = b[src]
        if p and value[p] < best_value and p in codes:
            best, best_value = src, value[p]
    for ray in rays:
        for s, codes in ray:
            p = b[s]
            if p:
                if value[p] < best_value and p in codes:
                    best, best_value = s, value[p]
                break
    for src, blockers, codes in lame:
        p = b[src]
        if p and value[p] < best_value and p in codes and _empty(b, blockers):
            best, best_value = src, value[p]
    return best


def _empty(b: Sequence[int], squares) -> bool:
    """Are all ``squares`` empty on ``b``?"""
    for x in squares:
        if b[x]:
            return False
    return True


def _landing(t, p: int, to: int, value: Sequence[int]) -> int:
    """The code piece ``p`` has after arriving on ``to`` (its best promotion choice, the first of equals)."""
    codes = t.becomes(p, to)
    best = codes[0]
    for c in codes:
        if value[c] > value[best]:
            best = c
    return best


def see(pos: Position, m: Move, value: Sequence[int], landing: Sequence[int]) -> int:
    """Material the side to move wins with capture ``m`` (centipawns of ``value``) when both sides
    then recapture on the target square with their least valuable attacker while it pays
    (``landing``: :func:`landings` of ``value``)."""
    t = pos.t
    b = pos.board[:]
    to = m.target
    cap_sq = pos.capture_square(m)
    on = m.piece
    gains = [(value[b[cap_sq]] if cap_sq is not None else 0) + value[on] - value[b[m.origin]]]
    b[m.origin] = 0
    if cap_sq is not None:
        b[cap_sq] = 0
    b[to] = on
    side = pos.turn ^ 1
    att = t.att
    while True:
        src = _least_attacker(b, att[side][to], value)
        if src < 0:
            break
        p = b[src]
        new = landing[p * t.size + to]
        gains.append(value[on] + value[new] - value[p] - gains[-1])
        b[src] = 0
        b[to] = on = new
        side ^= 1
    for d in range(len(gains) - 1, 0, -1):
        gains[d - 1] = -max(-gains[d - 1], gains[d])
    return gains[0]
