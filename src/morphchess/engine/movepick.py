"""Staged move generation for the search: each stage is built only when the search gets to it.

1. the hash move, before any generation (it was legal in a position with the same hash);
2. the captures (:meth:`~morphchess.position.Position.captures`, checked by
   :meth:`~morphchess.position.Position.legal_test`), by most valuable victim, least valuable attacker;
3. the other legal moves (:meth:`~morphchess.position.Position.quiets`): promotions and morphs
   that gain at least :data:`~.evaluate.QS_GAIN`, then the killer moves, then the rest by history
   and by what the piece-square tables gain.

A node that the hash move or a capture settles never walks its quiet moves, and no move is
scored before its stage.  Every legal move comes exactly once.
"""

from __future__ import annotations

from collections.abc import Iterator
from operator import itemgetter

from ..move import Move
from ..position import Position
from .evaluate import QS_GAIN

__all__ = ["staged_moves", "ordered", "order_key"]

HASH_KEY = 1 << 30
CAPTURE_KEY = 1 << 24
GAIN_KEY = 1 << 23
KILLER_KEY = 1 << 22
_FIRST = itemgetter(0)


def order_key(pos: Position, m: Move, pst: list, order_value: list, killers: list, history: dict) -> int:
    """How early move ``m`` is tried (larger first): captures by MVV-LVA, then quiet moves gaining
    :data:`QS_GAIN` by changing shape, then killers, then history plus the piece-square gain."""
    frm, to, new = m.origin, m.target, m.piece
    piece = pos.code_at(frm)
    cap = pos.captured(m)
    if cap:
        return CAPTURE_KEY + order_value[cap] * 64 - order_value[piece] // 8
    if m == killers[0] or m == killers[1]:
        return KILLER_KEY
    gain = (pst[new][to] - pst[piece][frm]) * (1 if pos.turn == 0 else -1)
    return history.get((piece, to), 0) + gain * 8 + (GAIN_KEY if gain >= QS_GAIN else 0)


def ordered(pos: Position, moves: list, pst: list, order_value: list, killers: list, history: dict) -> list:
    """``moves`` sorted by :func:`order_key`, first tried first."""
    keyed = []
    for m in moves:
        keyed.append((order_key(pos, m, pst, order_value, killers, history), m))
    keyed.sort(key=_FIRST, reverse=True)
    return [m for _k, m in keyed]


def staged_moves(pos: Position, tt_move: Move | None, pst: list, order_value: list, killers: list,
                 history: dict) -> Iterator[Move]:
    """The legal moves of ``pos`` in search order, stage by stage (see the module doc)."""
    hashed = None
    if tt_move is not None and pos.is_pseudo_legal(tt_move) and (
            not pos.t.capture_rules or tt_move in pos.legal_moves()):  # those rules look at the last move
        hashed = tt_move
        yield tt_move
    captures = pos.captures()
    test = pos.legal_test()
    legal = [m for m in captures if m != hashed and (test is None or test(m))]
    yield from ordered(pos, legal, pst, order_value, killers, history)
    quiets = pos.quiets(captures)
    if hashed is not None and hashed in quiets:
        quiets.remove(hashed)
    yield from ordered(pos, quiets, pst, order_value, killers, history)
