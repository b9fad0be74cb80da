"""The XBetza constructs of issue 13 in play: crooked (``z``) and circular (``q``) rides, ``z``/``q``
on later legs, the piece without moves (``-``), ``u`` right after a capturing leg (the ID's hop over
a friend or an enemy only), and the refusals of ``t w x`` (unloads: tests/test_xbetza_unload.py).

The walker checks follow tests/test_xbetza_walker.py: in random games of a variant full of the new
pieces, generated captures, attack detection and make/unmake agree with the plain move list.
Fairy-Stockfish reads ``zB`` as ``B`` and ``qN`` as ``N`` (its Betza reader has no crooked or
circular moves), so only the piece without moves is compared with it.
"""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest

from morphchess import Position, load
from morphchess.move import Kind
from morphchess.pieces import is_own
from test_xbetza_moves import checks, moves, position

from common import assert_make_unmake_exact, random_positions

DEFINITIONS = Path(__file__).with_name("definitions")

BENT = """
files=9 ranks=9 promoChoice=BRZ
pawn:P:ifmnDfmWfceF:pawn:a2-i2
boyscout:B:zB:b:c1
crooked rook:Z:zR:z:g1
rose:R:qN:r:b1,h1
falcon:F:afafsKafsafzfK:f:d1
ship:S:[F?fqR]:s:f1
camel:C:afsafzW:c:a1,i1
king:K:KisO2:king:e1
"""


def test_captures_are_the_captures_among_the_legal_moves():
    checked = 0
    for pos in random_positions(load(BENT, "bent"), "standard", 6, "bent captures"):
        generated = pos.captures()
        assert len(generated) == len(set(generated))
        assert len(pos.pseudo_moves()) == len(set(pos.pseudo_moves()))  # two paths to one square: one move
        legal = pos.legal_moves()
        assert {m for m in generated if pos.is_safe(m)} == {m for m in legal if pos.capture_square(m) is not None}
        checked += 1
    assert checked > 150


def test_attacked_agrees_with_the_opponents_captures():
    for pos in random_positions(load(BENT, "bent"), "standard", 4, "bent attacks"):
        us = pos.turn
        pos.make_null()
        taken = {m.target for m in pos.pseudo_moves() if m.kind is not Kind.DROP and pos.board[m.target]}
        pos.unmake()
        mine = {sq for sq, p in enumerate(pos.board) if is_own(p, us)}
        assert {sq for sq in mine if pos.attacked(sq, us ^ 1)} == taken & mine


@pytest.mark.parametrize("seed", ["a", "b"])
def test_make_unmake_and_hash(seed):
    for pos in random_positions(load(BENT, "bent"), "standard", 2, seed):
        assert_make_unmake_exact(pos)


def test_crooked_and_circular_checks():
    assert checks("zB", "a2=K e1=X e3=k")         # e1-f2-e3 or e1-d2-e3
    assert not checks("zB", "a2=K e1=X e3=k f2=p d2=P")
    assert not checks("zB", "a2=K e1=X g3=k")     # a straight diagonal is no crooked path
    assert checks("qN", "a2=K b1=X e4=k")         # b1-c3-e4 or b1-d2-e4
    assert not checks("qN", "a2=K b1=X e4=k c3=P d2=P")


def test_black_pieces_bend_the_same_way():
    assert moves("[F?fqR]", side="b") == moves("[F?fqR]")
    assert moves("zB", "a2= i8= g7=K c3=k", side="b") == moves("zB", "a2= i8= g7=K c3=k")
    assert moves("afsafzW", side="b") == moves("afsafzW")


def test_ranges_limit_crooked_and_circular_rides():
    assert moves("zB2") == {"d4", "d6", "f4", "f6", "e7", "e3", "c5", "g5"}
    assert moves("zR3") == {"e6", "e4", "d5", "f5", "d4", "d6", "f4", "f6", "d7", "f7", "d3", "f3",
                            "c6", "g6", "c4", "g4"}
    assert moves("czB", "e7=p d6=P") == {"e7"}     # capture only, at the end of a crooked path


def test_u_after_a_capturing_leg_hops_over_a_friend_or_an_enemy_only():
    """The ID reads ``dau``/``cau`` as a hop over a friend / an enemy only (the piece taken is put
    back where it stood): a cannon whose screen must be its own piece, or an enemy."""
    rook = {"e1", "e2", "e3", "e4", "e6", "a5", "b5", "c5", "d5", "f5", "g5", "h5", "i5"}
    assert moves("mRdaufcR", "e7=P e9=p") == rook | {"e9"}
    assert moves("mRdaufcR", "e7=p e9=p") == rook
    assert moves("mRcaufcR", "e7=p e9=p") == rook | {"e9"}
    assert moves("mRcaufcR", "e7=P e9=p") == rook
    assert checks("mRdaufcR", "a2=K e1=X e3=P e9=k") and not checks("mRdaufcR", "a2=K e1=X e3=p e9=k")
    v, pos = position("mRdaufcR", "e7=P e9=p")
    assert_make_unmake_exact(pos)


def test_chak_loads_with_its_offering_that_never_moves():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        v = load((DEFINITIONS / "chak.txt").read_text(), "chak")
    assert len(caught) == len(v.warnings) and any("counterbare" in w for w in v.warnings)
    offering = next(t for t in v.types if t.name == "offering")
    assert offering.moves.text == "-"
    pos = Position(v)
    squares = {sq for sq, p in enumerate(pos.board) if p and p >> 2 == offering.index}
    assert len(squares) == 2 and not [m for m in pos.legal_moves() if m.origin in squares]
    assert pos.perft(2) > 0


# -- the piece without moves against Fairy-Stockfish ------------------------------------------------

OFFERING = """
files=9 ranks=9 promoZone=0 royal=K
pawn:P:fsmWfcF:pawn:a3,c3,e3,g3,i3
king:K:K:king:e1
offering:O:-:fish:e2
shaman:S:FvW:s:c1,g1
vulture:V:N:knight:b1,h1
serpent:R:R:rook:a1,i1
jaguar:J:KN:j:d1
divine king:D:Q2:d:f1
"""

OFFERING_FSF = """[mcoffering:chess]
maxRank = 9
maxFile = 9
promotionRank = 9
castling = false
pawn = -
knight = -
bishop = -
queen = -
customPiece1 = p:fsmWfcF
customPiece2 = o:
customPiece3 = s:FvW
customPiece4 = v:N
customPiece5 = j:KN
customPiece6 = d:Q2
startFen = rvsjkdsvr/4o4/p1p1p1p1p/9/9/9/P1P1P1P1P/4O4/RVSJKDSVR w - - 0 1
"""


def test_offering_without_moves_against_fairy_stockfish():
    """Chak's pieces (without its promotions, second royal piece and altar) with the offering ``-``."""
    sf = pytest.importorskip("pyffish")
    from test_perft_fairy import random_games_then_perft, walk

    sf.load_variant_config(OFFERING_FSF)
    v = load(OFFERING, "mcoffering")
    assert walk(Position(v), "mcoffering", sf.start_fen("mcoffering"), [], 2) > 0
    random_games_then_perft(v, "mcoffering", 2, (16, 40))
