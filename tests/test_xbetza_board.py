"""Board geometry for the move generator: holes end rays and take no pieces, a hole blocks lame
leaps and hurdles of hoppers, and castling with ``j`` finds its partner one piece in."""

from __future__ import annotations

import warnings

from morphchess import load
from morphchess.notation import from_fen, move_to_coord

HOLED = """
files=8 ranks=8 promoZone=0 symmetry=none
hole::::d4,f6
rook:R:R:r:d1
knight:N:N:n:
mao:M:nN:m:
cannon:C:mRcpR:c:
bishop:B:B:b:
king:K:K:k:a1,,h8
"""


def holed():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return load(HOLED, "holed")


def targets(fen: str, square: str) -> set[str]:
    v = holed()
    pos = from_fen(v, fen)
    return {move_to_coord(pos, m)[2:] for m in pos.legal_moves() if m.origin == v.square(square)}


def test_a_hole_ends_a_ride():
    assert targets("7k/8/8/8/8/8/8/K2R4 w - - 0 1", "d1") == {"b1", "c1", "e1", "f1", "g1", "h1", "d2", "d3"}
    assert targets("7k/8/8/8/8/8/1B6/K7 w - - 0 1", "b2") == {"c1", "a3", "c3"}
    assert "g7" not in targets("7k/8/8/8/8/8/8/K3B3 w - - 0 1", "e1")


def test_leapers_jump_holes_but_never_land_on_them():
    assert targets("7k/8/8/8/8/8/4N3/K7 w - - 0 1", "e2") == {"c1", "g1", "c3", "g3", "f4"}
    assert targets("7k/8/8/8/8/8/4M3/K7 w - - 0 1", "e2") == {"c1", "g1", "c3", "g3", "f4"}
    assert targets("7k/8/8/8/8/8/8/K2M4 w - - 0 1", "d1") == {"b2", "f2", "c3", "e3"}
    assert targets("7k/8/8/8/8/8/3M4/K7 w - - 0 1", "d3") - {"c1", "e1", "b2", "f2", "b4", "f4"} == set()


def test_a_hole_is_no_hurdle_and_no_line_of_check():
    assert targets("7k/8/8/3n4/8/8/8/K2C4 w - - 0 1", "d1") == {"b1", "c1", "e1", "f1", "g1", "h1", "d2", "d3"}
    pos = from_fen(holed(), "3k4/8/8/8/8/8/8/K2R4 b - - 0 1")
    assert not pos.in_check()


def test_castling_partner_one_piece_in_with_j():
    v = load("files=8 ranks=8\nknight:N:N:n:a1,h1\nrook:R:R:r:b1,g1\nking:K:KisjO2:k:e1", "skip")
    assert sorted(v.square_name(s) for s in v.tables.partner_of.values()) == ["b1", "b8", "g1", "g8"]
    pos = from_fen(v, "nr2k1rn/8/8/8/8/8/8/NR2K1RN w KQkq - 0 1")
    assert {"e1c1", "e1g1"} & {move_to_coord(pos, m) for m in pos.legal_moves()} == {"e1c1"}
