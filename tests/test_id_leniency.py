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
