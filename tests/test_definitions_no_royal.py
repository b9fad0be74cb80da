"""A definition that places no royal piece loads with a warning that says so (issue 51)."""

from __future__ import annotations

import warnings

import pytest

from morphchess import VariantWarning, load

PIECES = "pawn:P:fW::a2\nrook:R:R::b1\n"


@pytest.mark.parametrize("head,king,warned", [
    ("files=5 ranks=5", "king:K:K::", "royal types: K"),              # the royal type has no square
    ("files=5 ranks=5 royal=0", "king:K:K::e1", "no royal type"),     # royal=0 names no type
    ("files=5 ranks=5", "king:K:K::e1", None),                        # a king on e1 and e5
    ("files=5 ranks=5 extinction=R", "king:K:K::", None),             # won by extinction instead
])
def test_no_royal_piece_is_warned(head, king, warned):
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        load(f"{head}\n{PIECES}{king}\n", "t")
    mine = [str(w.message) for w in record
            if w.category is VariantWarning and "royal piece is placed" in str(w.message)]
    if warned is None:
        assert mine == []
    else:
        assert len(mine) == 1 and warned in mine[0] and "checkmated" in mine[0]


def test_variants_ini_without_a_king_in_the_start_position_is_warned():
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        v = load("[kingless:chess]\nstartFen = rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1\n", "kingless")
    assert any("places no king (K) for Black" in str(w.message) for w in record)
    assert any("can never be checkmated" in w for w in v.warnings)
