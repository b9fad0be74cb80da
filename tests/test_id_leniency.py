"""What the Interactive Diagram loads, morphchess loads (issue 22): the ID's own reading of
``extinction=0`` and ``royal=0``, the piece lines it skips, and XBetza it reads that morphchess used to
refuse, each with one warning naming what was skipped or guessed.

The ID's behaviour is read from its script (ParseGameDef and BetzaParse of the pre-morph-board
``betza.js``); the move counts are hand-derived from the start arrays.
"""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest

from morphchess import Position, VariantError, load
from morphchess.notation import move_to_coord

DEFINITIONS = Path(__file__).with_name("definitions")


def loaded(text: str):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        v = load(text, "lenient")
    assert len(caught) == len(v.warnings)
    return v


def test_extinction_zero_is_off_and_eight_royal_kings_load():
    # the ID reads extinction= as a number; 0 names no type (its types count from 1)
    v = loaded("files=8 ranks=8 extinction=0 royal=K\npawn::::a2-h2\nking:K:K::a1-h1")
    assert v.extinction == ()
    assert sum(1 for t, c in v.setups["standard"].values() if v.type(t).royal) == 16
    # the kings are boxed in by their own rank and pawns: only the pawns' 8 steps and 8 double steps
    assert len(Position(v).legal_moves()) == 16


def test_royal_zero_leaves_the_game_without_a_royal_type():
    # the ID sets royal[0] (no type) and then gives the last type no default royalty
    v = loaded("royal=0\npawn::::a2-h2\nking:K:K::e1")
    assert not any(t.royal for t in v.types)


def test_a_piece_line_with_too_few_fields_is_skipped_with_a_warning():
    v = loaded("files=8 ranks=8\nknight:N:N\npawn::::a2-h2\nking:K:K::e1")
    assert [t.name for t in v.types] == ["pawn", "king"]
    assert v.warnings == ("piece line 'knight:N:N' has 3 field(s), fewer than the five name:ID:moves:image:squares: "
                          "skipped, as the ID skips it",)
    assert len(Position(v).legal_moves()) == 16 + 2  # pawns, and the king to d1 and f1


def test_a_piece_line_without_name_and_image_is_skipped():
    v = loaded(":X:W::b1\npawn::::a2-h2\nking:K:K::e1")
    assert [t.name for t in v.types] == ["pawn", "king"]
    assert "neither a name nor an image" in v.warnings[0]


def test_a_text_of_skipped_lines_only_stays_refused():
    # the ID: "Cannot make a diagram with 0 pieces"
    with pytest.raises(VariantError, match="no piece lines"):
        load("files=8 ranks=8\nknight:N:N\nking:K")


def test_tamerlane_ii_king_takes_any_own_piece_as_the_id_shows_it():
    v = loaded((DEFINITIONS / "tamerlane-ii.txt").read_text())
    assert len(v.warnings) == 1 and "'dU' takes any own piece" in v.warnings[0] and "BadZone" in v.warnings[0]
    pos = Position(v)
    king = [move_to_coord(pos, m) for m in pos.legal_moves() if m.origin == v.square("f2")]
    # K: only f1 is empty around f2; dU: every one of White's 27 other pieces (2 princes, 11 pawns,
    # 2 each of camels, cannons, elephants, knights, bishops, rooks, ships), wherever it stands
    assert len(king) == 28 and "f2f1" in king and "f2a3" in king and "f2k1" in king


def test_wildebeest_pawns_ride_to_their_own_half_as_the_id_reads_w_star():
    # the ID's '*' after an atom: range up to the last rank of the own half (ranks 1-5 of 10 for White),
    # at least one step, the squares passed open to en passant
    v = loaded((DEFINITIONS / "wildebeest.txt").read_text())
    assert v.warnings and "satellite=wildebeest" in v.warnings[0]
    pos = Position(v)
    moves = {move_to_coord(pos, m) for m in pos.legal_moves()}
    # 11 pawns to ranks 3, 4 and 5; knights a3 c3 i3 k3; camels g4 i4 h4 j4; the wildebeest (NC) on g1:
    # f3 h3 f4 h4 (hand-counted, Wildebeest's rule: a pawn on its second rank moves up to three squares)
    assert len(moves) == 33 + 4 + 4 + 4
    assert {"a2a5", "k2k3", "g1f4"} <= moves and "a2a6" not in moves
    pos.make(next(m for m in pos.legal_moves() if move_to_coord(pos, m) == "e2e5"))
    assert pos.ep[0] == (v.square("e3"), v.square("e4"))
    black = {move_to_coord(pos, m) for m in pos.legal_moves()}
    assert {"e9e6", "e9e8"} <= black and "e9e5" not in black
    # a pawn on its third rank moves up to two squares (to rank 5)
    pos = Position(load("files=11 ranks=10 pawn::fmW*fceF::c3\nking:K:K::f1"))
    assert {move_to_coord(pos, m) for m in pos.legal_moves() if m.origin == v.square("c3")} == {"c3c4", "c3c5"}


@pytest.mark.parametrize("betza", ["W*", "fcW*", "fmnW*", "afmW*", "U*"])
def test_w_star_other_than_a_move_only_leap_stays_refused(betza):
    with pytest.raises(VariantError, match=r"'\*'"):
        load(f"pawn::{betza}::a2-h2\nking:K:K::e1")


# Rooksquare Chess, diagram text of its chessvariants.com page (diffobjective.dir/rooksquare.html),
# the cosmetic keys left out
ROOKSQUARE = """satellite=main files=8 ranks=8 promoZone=1 maxPromote=0 promoChoice=QNRB symmetry=mirror holdingsType=0
Pawn::::a2-h2
morph=#******#
Knight:N:::b1,g1
morph=#......#
Bishop::::c1,f1
morph=#......#
Rook::::a1,h1
morph=#......#
Queen::::d1
morph=#......#
King::KisO2::e1
morph=+......+
"""


def test_rooksquare_one_rank_morph_tables_with_marks_load_with_two_warnings():
    v = loaded(ROOKSQUARE)
    short, marks, satellite = v.warnings
    assert "'Pawn', 'Knight', 'Bishop', 'Rook', 'Queen', 'King'" in short and "top ranks" in short
    assert "'#' on a8, h8" in marks and "'*' on b8, c8, d8, e8, f8, g8" in marks and "'+' on a8, h8" in marks
    assert "satellite=main" in satellite
    assert all(t.morph == (None,) * 64 for t in v.types)  # marks only: no type changes
    assert Position(v).perft(2) == 400  # chess's array and moves: chess's perft(2)


def test_a_one_rank_morph_table_is_the_top_rank():
    v = loaded("files=8 ranks=8\npawn:P:fW::a2-h2\nmorph=QQQQQQQQ\nqueen:Q:Q::d1\nking:K:K::e1")
    pawn = v.type_by_letter("P")
    assert [v.square_name(sq) for sq, m in enumerate(pawn.morph) if m] == [f"{f}8" for f in "abcdefgh"]
    with pytest.raises(VariantError, match="9 rank segments"):
        load("pawn:P:fW::a2-h2\nmorph=////////Q\nqueen:Q:Q::d1\nking:K:K::e1")
