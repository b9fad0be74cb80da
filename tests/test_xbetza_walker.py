"""The walker on hoppers and multi-leg pieces: in random games of a variant full of them, the
captures, the attack detection and make/unmake agree with the plain move list."""

from __future__ import annotations

import pytest

from morphchess import load
from morphchess.move import Kind
from morphchess.notation import to_fen
from morphchess.pieces import is_own

from common import assert_make_unmake_exact, random_positions

DEFINITION = """
files=10 ranks=10 promoChoice=LGC
pawn:P:ifmnDfmWfceF:pawn:a2-j2
man:M:fmFfcafmF:m:a3,c3,h3,j3
cannon:C:mRcpR:cannon:b1,i1
vao:V:mBcpB:vao:c1
grasshopper:G:gQ:g:h1
lion:L:KNADcaKcabKmabK:lion:d1
griffon:F:[F?R]:griffon:g1
mao:O:mafsW:o:b3,i3
rook:R:R:rook:a1,j1
king:K:KisO3:king:e1,,f10
"""


def test_captures_are_the_captures_among_the_legal_moves():
    checked = 0
    kinds = set()
    for pos in random_positions(load(DEFINITION, "legs"), "standard", 8, "captures"):
        generated = pos.captures()
        assert len(generated) == len(set(generated))
        assert len(pos.pseudo_moves()) == len(set(pos.pseudo_moves()))
        legal = pos.legal_moves()
        kinds.update(m.kind for m in legal)
        legal_captures = {m for m in legal if pos.capture_square(m) is not None}
        assert {m for m in generated if pos.is_safe(m)} == legal_captures
        checked += 1
    assert checked > 200
    assert {Kind.NORMAL, Kind.DOUBLE, Kind.LEGS} <= kinds


def test_attacked_agrees_with_the_opponents_captures():
    """A square holding a piece of the side to move is attacked exactly when one of the opponent's
    moves (after a null move) takes it, at the end or on the way."""
    for pos in random_positions(load(DEFINITION, "legs"), "standard", 6, "attacks"):
        us = pos.turn
        pos.make_null()
        taken = set()
        for m in pos.pseudo_moves():
            taken.update(m.extra if m.kind is Kind.LEGS else ())
            if m.target != m.origin and pos.board[m.target]:
                taken.add(m.target)
        pos.unmake()
        mine = {sq for sq, p in enumerate(pos.board) if is_own(p, us)}
        assert {sq for sq in mine if pos.attacked(sq, us ^ 1)} == taken & mine, to_fen(pos)


@pytest.mark.parametrize("seed", ["a", "b"])
def test_make_unmake_and_hash(seed):
    for pos in random_positions(load(DEFINITION, "legs"), "standard", 3, seed):
        assert_make_unmake_exact(pos)
