"""The examples of the XBetza documentation, one by one, on a board.

Source: H. G. Muller, "Betza notation (extended)", https://www.chessvariants.com/page/MSbetza-notation-extended
(atoms and their X/Y extensions, ranges, direction and modality modifiers, the legacy modifiers
``n j p g z q o``, and XBetza's ``a d e i k y U O`` and brackets), with his chessvariants.com comments
that extend it: the ``z``/``q`` modifiers on later legs (2021-05-20, 2021-12-03: ``afsafzW``,
``afafsKafsafzfK``), and the bracket form (2024-04-13: ``[F?R]``, ``[W-F]``).  The ``q`` of Tamerlane II's
ship ``[F?fqR]`` is H. G. Muller's own diagram (tests/definitions/tamerlane-ii.txt).

Every expected set is written out by hand from the documentation's description: the piece under
test stands on e5 of an empty 9x9 board (kings on a2 and i8 unless a test moves them), ``P``/``p``
are stones of either side (``extra``), and a locust capture is ``(target, captured square)``.
"""

from __future__ import annotations

import pytest

from morphchess import Board, Position, load
from morphchess.notation import move_to_coord
from test_xbetza_moves import checks, moves

ROOK = {"e1", "e2", "e3", "e4", "e6", "e7", "e8", "e9", "a5", "b5", "c5", "d5", "f5", "g5", "h5", "i5"}
BISHOP = {"a1", "b2", "c3", "d4", "f6", "g7", "h8", "i9", "a9", "b8", "c7", "d6", "f4", "g3", "h2", "i1"}
KNIGHT = {"d7", "f7", "c6", "g6", "c4", "g4", "d3", "f3"}
KING = {"d4", "d5", "d6", "e4", "e6", "f4", "f5", "f6"}
KINGS_AWAY = "a2= i8= e1=K e9=k"  # for pieces that reach a2 or i8 but never e1 or e9


# -- atoms, their extensions and shortcuts ------------------------------------------------------

@pytest.mark.parametrize("betza,expected", [
    ("W", {"d5", "f5", "e4", "e6"}),
    ("F", {"d4", "d6", "f4", "f6"}),
    ("D", {"c5", "g5", "e3", "e7"}),
    ("N", KNIGHT),
    ("A", {"c3", "c7", "g3", "g7"}),
    ("H", {"b5", "h5", "e2", "e8"}),
    ("C", {"d8", "f8", "d2", "f2", "b6", "h6", "b4", "h4"}),
    ("L", {"d8", "f8", "d2", "f2", "b6", "h6", "b4", "h4"}),
    ("Z", {"c8", "g8", "c2", "g2", "b7", "h7", "b3", "h3"}),
    ("J", {"c8", "g8", "c2", "g2", "b7", "h7", "b3", "h3"}),
    ("G", {"b8", "h8", "b2", "h2"}),
    ("K", KING),
    ("WX", {"a5", "i5", "e1", "e9"}),                          # (4,0)
    ("FX", {"a4", "a6", "i4", "i6", "d1", "f1", "d9", "f9"}),  # (4,1), the giraffe
    ("AY", {"a1", "a9", "i1", "i9"}),                          # (4,4)
    ("DY", {"c1", "g1", "c9", "g9", "a3", "a7", "i3", "i7"}),  # (4,2)
])
def test_atoms(betza, expected):
    assert moves(betza) == expected


def test_the_3_4_leap_NY():
    assert moves("NY", KINGS_AWAY) == {"b1", "h1", "b9", "h9", "a2", "i2", "a8", "i8"}


@pytest.mark.parametrize("betza", ["R", "WW", "W0", "RR"])
def test_rook_spellings(betza):
    assert moves(betza) == ROOK


@pytest.mark.parametrize("betza", ["B", "FF", "F0"])
def test_bishop_spellings(betza):
    assert moves(betza) == BISHOP


def test_queen_is_rook_and_bishop_and_king_is_wazir_and_ferz():
    assert moves("Q") == moves("RB") == ROOK | BISHOP
    assert moves("WF") == KING


def test_range_W3_and_R3_mean_the_same():
    three = {"e6", "e7", "e8", "e4", "e3", "e2", "d5", "c5", "b5", "f5", "g5", "h5"}
    assert moves("W3") == moves("R3") == three
    assert moves("W3", "e7=p") == three - {"e8"}


def test_nightrider_NN():
    riders = KNIGHT | {"c9", "g9", "a7", "i7", "a3", "i3", "c1", "g1"}
    assert moves("NN") == riders
    assert moves("NN", "f7=P") == riders - {"f7", "g9"}
    assert moves("NN", "f7=p") == riders - {"g9"}


def test_compounds_BN_and_the_shatranj_pawn():
    assert moves("BN") == BISHOP | KNIGHT
    assert moves("fmWfcF") == {"e6"}
    assert moves("fmWfcF", "e6=p d6=p f6=p") == {"d6", "f6"}


# -- direction modifiers ------------------------------------------------------------------------

@pytest.mark.parametrize("betza,expected", [
    ("fR", {"e6", "e7", "e8", "e9"}),
    ("bR", {"e4", "e3", "e2", "e1"}),
    ("lR", {"d5", "c5", "b5", "a5"}),
    ("rR", {"f5", "g5", "h5", "i5"}),
    ("vR", {"e6", "e7", "e8", "e9", "e4", "e3", "e2", "e1"}),
    ("sR", {"d5", "c5", "b5", "a5", "f5", "g5", "h5", "i5"}),
    ("fB", {"f6", "g7", "h8", "i9", "d6", "c7", "b8", "a9"}),
    ("fF", {"d6", "f6"}), ("bF", {"d4", "f4"}), ("lF", {"d4", "d6"}), ("rF", {"f4", "f6"}),
    ("frF", {"f6"}), ("flF", {"d6"}), ("brF", {"f4"}), ("blF", {"d4"}),
    ("fN", {"d7", "f7"}), ("bN", {"d3", "f3"}), ("lN", {"c4", "c6"}), ("rN", {"g4", "g6"}),
    ("fsN", {"c6", "g6"}), ("bsN", {"c4", "g4"}),          # fs = fl + fr
    ("fhN", {"c6", "d7", "f7", "g6"}),                     # the forward half
    ("frN", {"g6"}), ("rfN", {"f7"}), ("flN", {"c6"}), ("lfN", {"d7"}),  # fr and rf differ
])
def test_directions(betza, expected):
    assert moves(betza) == expected


def test_black_directions_are_its_own():
    assert moves("fR", side="b") == {"e4", "e3", "e2", "e1"}
    assert moves("frN", side="b") == {"c4"}


# -- modality modifiers -------------------------------------------------------------------------

def test_capture_only_and_move_only():
    assert moves("cQ") == set()
    assert moves("cQ", "e8=p c3=P g7=p i1=p h2=p") == {"e8", "g7", "h2"}
    assert moves("mQ", "e8=p c3=P") == (ROOK | BISHOP) - {"e8", "e9", "c3", "b2", "a1"}


def test_d_destroys_an_own_piece():
    assert moves("dK", "d5=P d6=p") == {"d5"}


def test_k_only_checks():
    assert checks("fkR", "a2=K e1=X e9=k")
    assert moves("fkR", "e9=p") == set()


def test_i_initial_pawn():
    board = Board("chess")
    assert {m.uci() for m in board.legal_moves if m.uci().startswith("e2")} == {"e2e3", "e2e4"}
    for text in ("e2e3", "a7a6"):
        board.push_uci(text)
    assert {m.uci() for m in board.legal_moves if m.uci().startswith("e3")} == {"e3e4"}


def test_e_en_passant_after_the_lame_double_step():
    board = Board("chess")
    for text in ("e2e4", "a7a6", "e4e5", "d7d5"):
        board.push_uci(text)
    assert {m.uci() for m in board.legal_moves if m.uci().startswith("e5")} == {"e5e6", "e5d6"}


def test_O_castling():
    board = Board("chess", fen="r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    assert {"e1g1", "e1c1"} <= {m.uci() for m in board.legal_moves}


def test_universal_leaper_U():
    every = {f"{f}{r}" for f in "abcdefghi" for r in range(1, 10)}
    assert moves("mU") == every - {"e5", "a2", "i8"}


# -- legacy modifiers: n j p g o z q ------------------------------------------------------------

def test_n_lame_leaps():
    assert moves("nA") == {"c3", "c7", "g3", "g7"}
    assert moves("nA", "d6=p") == {"c3", "g3", "g7"}
    assert moves("nD", "e6=p") == {"e3", "c5", "g5"}
    assert moves("nN", "e6=p") == KNIGHT - {"d7", "f7"}


def test_j_jumps():
    assert moves("jR") == ROOK - {"d5", "f5", "e4", "e6"}
    assert moves("jD") == set()
    assert moves("jD", "e6=p") == {"e7"}


def test_p_hoppers():
    assert moves("pR", "e7=P") == {"e8", "e9"}
    assert moves("mRcpR", "e7=P e9=p") == ROOK - {"e7", "e8"}
    assert moves("mBcpB", "f6=P h8=p") == BISHOP - {"f6", "g7", "i9"}


def test_g_grasshopper():
    assert moves("gQ") == set()
    assert moves("gQ", "e7=P d6=p") == {"e8", "c7"}


def test_o_cylinder():
    assert moves("oW", square="a5") == {"a6", "a4", "b5", "i5"}


# Crooked: each step a right angle to the previous one, alternately left and right.
CROOKED_BISHOP = {"d4", "d6", "f4", "f6", "e7", "e3", "c5", "g5", "f8", "d8", "f2", "d2",
                  "h6", "h4", "b6", "b4", "e9", "e1", "i5", "a5"}
CROOKED_ROOK = {"e6", "e4", "d5", "f5", "d4", "d6", "f4", "f6", "d7", "f7", "d3", "f3", "c6", "g6", "c4", "g4",
                "c7", "g7", "c3", "g3", "c8", "g8", "c2", "g2", "b7", "h7", "b3", "h3", "b8", "h8", "b2", "h2",
                "b9", "h9", "b1", "h1", "a8", "i8", "a2", "i2", "a9", "i9", "a1", "i1"}


def test_z_crooked_bishop():
    kings = "a2= i8= g7=K c3=k"  # squares no crooked bishop path from e5 reaches
    assert moves("zB", kings) == CROOKED_BISHOP
    assert moves("zB", kings + " f6=P") == CROOKED_BISHOP - {"f6", "f8", "h6"}  # e7, g5, e9, i5 by other paths


def test_z_crooked_rook():
    assert moves("zR", KINGS_AWAY) == CROOKED_ROOK
    north_east = {"f6", "f7", "g6", "g7", "g8", "h7", "h8", "h9", "i8", "i9"}
    assert moves("zR", KINGS_AWAY + " e6=P f5=P") == (
        CROOKED_ROOK - north_east - {"e6", "f5"} - {"d7", "c8", "b9"} - {"g4", "h3", "i2"})
    assert moves("zR", KINGS_AWAY + " e6=p") == CROOKED_ROOK - {"f7", "g8", "h9", "d7", "c8", "b9"}


ROSE = KNIGHT | {"h8", "i5", "h2", "e1", "b2", "a5", "b8", "e9"}


def test_q_rose_qN():
    assert moves("qN") == ROSE
    assert moves("qN", "f7=P") == ROSE - {"f7"}
    assert moves("qN", "f7=P g6=P") == ROSE - {"f7", "g6", "h8"}


def test_q_circular_wazir_and_ferz():
    assert moves("qW") == KING
    assert moves("qW", "e6=P") == KING - {"e6"}
    assert moves("qW", "e6=P d5=P f5=P") == {"e4", "d4", "f4"}
    assert moves("qF") == {"d4", "d6", "f4", "f6", "c5", "g5", "e3", "e7"}
    assert moves("qF", "f6=P d6=P") == {"d4", "f4", "c5", "g5", "e3"}


# -- XBetza: a, y, brackets, z and q on later legs ------------------------------------------------

def test_a_checker_jump_and_lion_legs():
    assert moves("fmFfcafmF", "f6=p") == {"d6", ("g7", "f6")}
    assert moves("mabK") == {("e5",)}
    assert ("e5", "d5") in moves("cabK", "d5=p")


@pytest.mark.parametrize("betza", ["mafsW", "[W-F]"])
def test_mao(betza):
    assert moves(betza) == KNIGHT
    assert moves(betza, "e6=p") == KNIGHT - {"d7", "f7"}


GRIFFON = {"d4", "d6", "f4", "f6", "f7", "f8", "f9", "g6", "h6", "i6", "d7", "d8", "d9", "c6", "b6", "a6",
           "f3", "f2", "f1", "g4", "h4", "i4", "d3", "d2", "d1", "c4", "b4", "a4"}


@pytest.mark.parametrize("betza", ["FyafsF", "[F?R]"])
def test_griffon(betza):
    assert moves(betza) == GRIFFON
    assert moves(betza, "f6=P") == GRIFFON - {"f6", "f7", "f8", "f9", "g6", "h6", "i6"}


def test_bracket_must_pass_and_may_stop():
    assert moves("[F-R]") == GRIFFON - {"d4", "d6", "f4", "f6"}
    assert moves("[F-B]") == BISHOP - {"d4", "d6", "f4", "f6"}
    sideways = {"a6", "b6", "c6", "d6", "f6", "g6", "h6", "i6", "a4", "b4", "c4", "d4", "f4", "g4", "h4", "i4",
                "d1", "d2", "d3", "d7", "d8", "d9", "f1", "f2", "f3", "f7", "f8", "f9"}
    assert moves("[W?sR]") == sideways | {"e6", "e4", "d5", "f5"}


def test_tamerlane_ship_fq_rides_along_files():
    ship = {"d4", "d6", "f4", "f6", "f7", "f8", "f9", "d7", "d8", "d9", "f3", "f2", "f1", "d3", "d2", "d1"}
    assert moves("[F?fqR]") == ship
    assert moves("[F?fzR]") == GRIFFON - ship | {"d4", "d6", "f4", "f6"}
    assert moves("[F?fqR]") | moves("[F?fzR]") == moves("[F?fsR]") == GRIFFON


def test_z_on_a_later_leg_bends_back_crooked_camel():
    camel = {"d8", "f8", "d2", "f2", "b6", "h6", "b4", "h4"}
    assert moves("afsafzW") == camel
    assert moves("afsafzW", "e6=P") == camel - {"d8", "f8"}
    assert moves("afsafzW", "f7=P") == camel - {"f8"}
    assert moves("afsafqW") == {"c7", "g7", "c3", "g3"}  # bending the same way twice: the alfil squares


@pytest.mark.parametrize("extra", ["", "e6=P", "f6=P d5=P", "e7=p f5=P"])
def test_falcon_short_form_equals_the_long_one(extra):
    assert moves("afafsKafsafzfK", extra) == moves("mafmafsKmafsmafKmaflmafrKmafrmaflK", extra)


# -- the empty move field --------------------------------------------------------------------

def test_a_piece_without_moves():
    v = load("files=9 ranks=9 promoZone=0\nstone:S:-:s:c3\nking:K:K:k:a2", "offering")
    legal = {move_to_coord(Position(v), m)[:2] for m in Position(v).legal_moves()}
    assert legal == {"a2"}
    assert v.type(1).moves.steps == v.type(1).moves.paths == v.type(1).moves.hops == ()
