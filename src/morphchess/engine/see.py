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

__all__ = ["ROYAL_SEE", "see", "exchange_exact", "see_values", "Exchange", "exchange_tables"]

ROYAL_SEE = 20000  # a royal piece in an exchange: capturing it ends the exchange in that side's favour


def exchange_exact(pos: Position) -> bool:
    """Can :func:`see` list every attacker of a square in this variant (no hoppers, no multi-leg moves)?"""
    return not pos.t.complex_attacks


def see_values(t, value: Sequence[int]) -> array:
    """Per-code exchange values (an int array): ``value`` with royal pieces worth :data:`ROYAL_SEE`."""
    return array("i", [ROYAL_SEE if t.royal[c] else value[c] for c in range(t.ncodes)])


class Exchange:
    """What :func:`see` reads for a variant and its values (:func:`exchange_tables` builds it once):
    ``value``, the :func:`see_values`; ``landing[code * size + square]``, the code a piece has after
    arriving on the square (its best promotion choice by value, the first of equals; 0 for invalid
    codes); and ``Tables.att`` as int arrays, where ``lists`` from ``start[colour * size + square]``
    holds the number of rays, each ray as its length and ``(square, set)`` per square walked outward
    (a source that attacks whatever stands between is a ray of one square, before the others), then
    the number of blockable leaps, each as ``(source, set, n, n blocking squares)``; a set numbers the
    codes that attack from there, ``members[set * ncodes + code]`` is 1 for each of them."""

    def __init__(self, variant: Variant, value: Sequence[int]) -> None:
        t = variant.tables
        self.size, self.ncodes = t.size, t.ncodes
        self.value = see_values(t, value)
        self.landing = array("i", [_landing(t, c, to, self.value) if t.valid[c] else 0
                                   for c in range(t.ncodes) for to in range(t.size)])
        sets: dict[frozenset, int] = {}
        lists: list[int] = []
        start = []
        for colour in (0, 1):
            for sq in range(t.size):
                start.append(len(lists))
                near, rays, lame, _hops = t.att[colour][sq]
                lists.append(len(near) + len(rays))
                for ray in [((src, codes),) for src, codes in near] + list(rays):
                    lists.append(len(ray))
                    for s, codes in ray:
                        lists += (s, sets.setdefault(codes, len(sets)))
                lists.append(len(lame))
                for src, blockers, codes in lame:
                    lists += (src, sets.setdefault(codes, len(sets)), len(blockers), *blockers)
        self.start, self.lists = array("i", start), array("i", lists)
        self.members = bytes(c in codes for codes in sets for c in range(t.ncodes))

    def least_attacker(self, b: Sequence[int], colour: int, sq: int) -> int:
        """The square of the least valuable piece of ``colour`` that attacks ``sq`` on ``b``, or -1."""
        lists, value, members, ncodes = self.lists, self.value, self.members, self.ncodes
        best, best_value = -1, ROYAL_SEE + 1
        i = self.start[colour * self.size + sq]
        for _ray in range(lists[i]):
            end = i + 2 + 2 * lists[i + 1]
            i += 2
            while i < end:  # the first piece on the ray decides
                p = b[lists[i]]
                if p:
                    if value[p] < best_value and members[lists[i + 1] * ncodes + p]:
                        best, best_value = lists[i], value[p]
                    break
                i += 2
            i = end - 1
        i += 1
        for _leap in range(lists[i]):
            p = b[lists[i + 1]]
            if (p and value[p] < best_value and members[lists[i + 2] * ncodes + p]
                    and _empty(b, lists, i + 4, lists[i + 3])):
                best, best_value = lists[i + 1], value[p]
            i += 3 + lists[i + 3]
        return best


def exchange_tables(variant: Variant, value: Sequence[int]) -> Exchange:
    """The :class:`Exchange` of a variant and values, kept with the variant."""
    return variant.derived(("exchange", tuple(value)), lambda: Exchange(variant, value))


def _empty(b: Sequence[int], lists: Sequence[int], i: int, n: int) -> bool:
    """Are the ``n`` squares ``lists[i:i + n]`` empty on ``b``?"""
    for j in range(i, i + n):
        if b[lists[j]]:
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


def see(pos: Position, m: Move, ex: Exchange) -> int:
    """Material the side to move wins with capture ``m`` (centipawns of ``ex.value``) when both sides
    then recapture on the target square with their least valuable attacker while it pays."""
    value, landing = ex.value, ex.landing
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
    while True:
        src = ex.least_attacker(b, side, to)
        if src < 0:
            break
        p = b[src]
        new = landing[p * ex.size + to]
        gains.append(value[on] + value[new] - value[p] - gains[-1])
        b[src] = 0
        b[to] = on = new
        side ^= 1
    for d in range(len(gains) - 1, 0, -1):
        gains[d - 1] = -max(-gains[d - 1], gains[d])
    return gains[0]
