"""The tournaments' rules, pure (no database): points with the arena's streak bonus, pairing the free
players of an arena, and pairing a round of a Swiss tournament.

Swiss pairing is a simple form of the Dutch system (FIDE's C.04.3; docs/web.md says why it is written
here rather than taken from a library): players are ranked by
score, then by their entry (the pairing numbers: there are no ratings in tournaments yet); within a
score group the top half meets the bottom half in order (1-5, 2-6, 3-7, 4-8 of eight); a player who
cannot be paired there floats down to the next group; two players never meet twice; with an odd
number the lowest ranked player who has not had a bye gets one.  Where the preferred pairing would
make a repeat, a depth-first search tries the next candidates in the same order, within
:data:`SWISS_TRIES` candidates tried; a round that cannot be paired by then is not paired (the
tournament ends).  Colours, in both kinds: White to the player who has had Black more often.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass, field

__all__ = ["Waiting", "points", "arena_pairs", "swiss_round", "FIRE", "SHORT_DRAW", "SWISS_TRIES"]

FIRE = 2  # arena: wins in a row after which wins and draws score double
SHORT_DRAW = 20  # arena: a draw in fewer plies (ten moves each) scores nothing
SWISS_TRIES = 20_000  # candidates a Swiss round's search may try (docs/web.md: what rounds need)


def points(outcome: str, streak: int, plies: int | None = None) -> tuple[int, int]:
    """The points one counted arena game of ``plies`` scores (``outcome``: ``win``, ``draw`` or ``loss``)
    for a player who had won ``streak`` games in a row before it, and their streak after it; a draw in
    fewer than :data:`SHORT_DRAW` plies scores nothing (two players cannot farm quick draws).  With
    ``streak`` 0 and no ``plies`` these are a Swiss game's half-points (2, 1, 0)."""
    double = 2 if streak >= FIRE else 1
    if outcome == "win":
        return 2 * double, streak + 1
    if outcome == "draw":
        return (0 if plies is not None and plies < SHORT_DRAW else double), 0
    return 0, 0


@dataclass(frozen=True)
class Waiting:
    """A player as pairing sees them."""

    id: int
    score: int = 0
    balance: int = 0  # games as White minus games as Black
    last_opponent: int | None = None  # arena: whom they played last
    met: frozenset[int] = field(default_factory=frozenset)  # Swiss: everyone they were paired with
    had_bye: bool = False  # Swiss


def arena_pairs(free: Sequence[Waiting], again: bool = False) -> list[tuple[int, int]]:
    """The (White, Black) pairs to start among an arena's free players listed best first (score, then
    the longest waiting): each in turn meets the nearest below them who was not their last opponent,
    nor they theirs (``again``: they are the tournament's only two active players, who may meet again).
    A player left without a partner waits.  At most n²/2 comparisons for n players."""
    left = list(free)
    out = []
    while len(left) >= 2:
        first = left.pop(0)
        partner = next((p for p in left if again or (p.id != first.last_opponent and p.last_opponent != first.id)),
                       None)
        if partner is None:
            continue
        left.remove(partner)
        out.append(_colours(first, partner))
    return out


def swiss_round(ranked: Sequence[Waiting], tries: int = SWISS_TRIES) -> tuple[list[tuple[int, int]], int | None] | None:
    """One Swiss round for players ranked best first (score, then entry): the (White, Black) pairs and the
    id of the player with the bye (None for an even number), or None when no pairing without a repeat
    (and without a second bye) was found within ``tries`` candidates."""
    budget = [tries]
    byes: list[Waiting | None] = [None] if len(ranked) % 2 == 0 else [p for p in reversed(ranked) if not p.had_bye]
    for bye in byes:
        found = _match([p for p in ranked if p is not bye], budget)
        if found is not None:
            return [_colours(a, b) for a, b in found], bye.id if bye else None
        if budget[0] <= 0:
            break
    return None


def _match(rest: list[Waiting], budget: list[int]) -> list[tuple[Waiting, Waiting]] | None:
    """Pairs of everyone in ``rest`` (ranked) that repeat no meeting, the Dutch order's first found."""
    if not rest:
        return []
    first, others = rest[0], rest[1:]
    for partner in _candidates(first, others):
        if partner.id in first.met:
            continue
        budget[0] -= 1
        if budget[0] < 0:
            return None
        tail = _match([p for p in others if p is not partner], budget)
        if tail is not None:
            return [(first, partner), *tail]
    return None


def _candidates(first: Waiting, others: list[Waiting]) -> list[Waiting]:
    """``first``'s opponents in the order tried: their score group from its middle down (the top half
    meets the bottom half), then that group's upper players nearest first, then the groups below."""
    group = [p for p in others if p.score == first.score]
    middle = max(0, (len(group) + 1) // 2 - 1)
    return group[middle:] + group[:middle][::-1] + [p for p in others if p.score != first.score]


def _colours(a: Waiting, b: Waiting) -> tuple[int, int]:
    if a.balance != b.balance:
        return (a.id, b.id) if a.balance < b.balance else (b.id, a.id)
    return (a.id, b.id) if secrets.randbelow(2) else (b.id, a.id)
