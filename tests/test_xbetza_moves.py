"""XBetza construct by construct: the destinations of one piece on e5 of a 9x9 board,
on an empty board and with blockers, written out by hand from what the notation says
(``docs/definitions.md``, "XBetza as morphchess reads it").

Pieces: ``X`` is the piece under test, ``P``/``p`` are stones (``mfW``) of either side,
the kings stand on a2 and i8, out of every line of the pieces tested from e5.
"""

from __future__ import annotations

from functools import cache

import pytest

from morphchess import load
from morphchess.move import Kind
from morphchess.notation import from_fen

from common import assert_make_unmake_exact


@cache
def board(betza: str):
    return load(f"files=9 ranks=9 promoZone=0\nstone:P:mfW:p:\npiece:X:{betza}:x:\nking:K:K:k:a2", "t")


def fen(pieces: dict[str, str], side: str = "w") -> str:
    rows = []
    for r in range(8, -1, -1):
        row, empty = "", 0
        for f in range(9):
            p = pieces.get(f"{chr(97 + f)}{r + 1}")
            if p:
                row += (str(empty) if empty else "") + p
                empty = 0
            else:
                empty += 1
        rows.append(row + (str(empty) if empty else ""))
    return "/".join(rows) + f" {side} - - 0 1"


def position(betza: str, extra: str = "", square: str = "e5", side: str = "w"):
    pieces = {"a2": "K", "i8": "k", square: "X" if side == "w" else "x"}
    pieces.update(dict(x.split("=") for x in extra.split()))
    v = board(betza)
    return v, from_fen(v, fen(pieces, side))


def moves(betza: str, extra: str = "", square: str = "e5", side: str = "w") -> set:
    """``{target}`` for plain moves, ``(target, captured on the way...)`` for multi-leg captures."""
    v, pos = position(betza, extra, square, side)
    sq = v.square(square)
    out = set()
    for m in pos.legal_moves():
        if m.origin == sq:
            names = tuple(v.square_name(x) for x in m.extra) if m.kind is Kind.LEGS else ()
            out.add((v.square_name(m.target),) + names if names or m.target == sq else v.square_name(m.target))
    return out


def line(start: str, dx: int, dy: int, stop: str | None = None) -> set[str]:
    """Squares from ``start`` (excluded) in steps (dx, dy) to the edge, or up to ``stop`` (included)."""
    f, r = ord(start[0]) - 97 + dx, int(start[1:]) - 1 + dy
    out = set()
    while 0 <= f < 9 and 0 <= r < 9:
        name = f"{chr(97 + f)}{r + 1}"
        out.add(name)
        if name == stop:
            break
        f, r = f + dx, r + dy
    return out


ROOK = line("e5", 1, 0) | line("e5", -1, 0) | line("e5", 0, 1) | line("e5", 0, -1)
BISHOP = line("e5", 1, 1) | line("e5", -1, 1) | line("e5", 1, -1) | line("e5", -1, -1)


# -- hoppers -----------------------------------------------------------------------------

def test_cannon_moves_like_a_rook_and_captures_over_one_piece():
    assert moves("mRcpR") == ROOK
    assert moves("mRcpR", "e7=P e9=p") == ROOK - {"e7", "e8", "e9"} | {"e9"}
    assert moves("mRcpR", "e7=p e8=p") == ROOK - {"e7", "e8", "e9"} | {"e8"}  # the hurdle may be an enemy
    assert moves("mRcpR", "e7=P e8=P") == ROOK - {"e7", "e8", "e9"}            # no capture of its own
    assert moves("mRcpR", "e6=p e7=p e8=p") == ROOK - {"e6", "e7", "e8", "e9"} | {"e7"}


def test_vao_is_the_diagonal_cannon():
    assert moves("mBcpB") == BISHOP
    assert moves("mBcpB", "f6=P h8=p") == BISHOP - {"f6", "g7", "h8", "i9"} | {"h8"}


def test_hop_over_then_move_or_capture_pR():
    assert moves("pR") == set()
    assert moves("pR", "e7=P") == {"e8", "e9"}
    assert moves("pR", "e7=P e9=p") == {"e8", "e9"}
    assert moves("pR", "e6=p e8=P") == {"e7"}


def test_grasshopper_lands_just_behind_the_hurdle():
    assert moves("gQ") == set()
    assert moves("gQ", "e7=P") == {"e8"}
    assert moves("gQ", "e7=P e8=p") == {"e8"}
    assert moves("gQ", "e7=P e8=P") == set()
    assert moves("gQ", "d6=p g5=P") == {"c7", "h5"}
    assert moves("gQ", "e6=p") == {"e7"}  # an adjacent hurdle


def test_grasshopper_on_a_leaper_rides_on_gK():
    assert moves("gK", "e6=P") == {"e7", "e8", "e9"}
    assert moves("gK", "e6=P e8=p") == {"e7", "e8"}
    assert moves("gK", "e7=P") == set()


# -- two legs ----------------------------------------------------------------------------

KNIGHT = {"d7", "f7", "c6", "g6", "c4", "g4", "d3", "f3"}


@pytest.mark.parametrize("betza", ["mafsW", "[W-F]", "nN"])
def test_mao_steps_orthogonally_then_diagonally_outward(betza):
    assert moves(betza) == KNIGHT
    assert moves(betza, "e6=p") == KNIGHT - {"d7", "f7"}
    assert moves(betza, "e6=p d5=P") == KNIGHT - {"d7", "f7", "c6", "c4"}


def test_moa_steps_diagonally_then_orthogonally_outward():
    assert moves("mafsF") == KNIGHT
    assert moves("mafsF", "d6=p") == KNIGHT - {"d7", "c6"}


GRIFFON_NE = {"f6"} | line("f6", 1, 0) | line("f6", 0, 1)


@pytest.mark.parametrize("betza", ["FyafsF", "[F?R]"])
def test_griffon_bends_outward_after_its_diagonal_step(betza):
    got = moves(betza)
    assert got >= GRIFFON_NE and len(got) == 4 * 7  # per F square: itself and two rides of three
    blocked = moves(betza, "f6=p")
    assert not GRIFFON_NE - {"f6"} & blocked and "f6" in blocked
    assert moves(betza, "f8=p") >= {"f7", "f8"} and "f9" not in moves(betza, "f8=p")


def test_bracket_legs_must_pass_or_may_stop():
    assert moves("[F-R]") == moves("[F?R]") - {"d4", "d6", "f4", "f6"}
    assert moves("[F-B]") == BISHOP - {"d4", "d6", "f4", "f6"}       # a bishop that moves two or more
    assert moves("[W?B]", "i8= i9=k") == moves("WyafsW", "i8= i9=k")  # the aanca
    assert moves("[W?sR]") >= {"e6", "d6", "a6", "i6"}


def test_later_legs_turn_relative_to_the_first():
    assert moves("mafW") == {"e7", "e3", "c5", "g5"}            # straight on: a lame dabbaba
    assert moves("mafW", "e6=p") == {"e3", "c5", "g5"}
    assert moves("mabW") == {("e5",)}                           # out and back: a pass
    assert moves("marW") == {"f6", "f4", "d4", "d6"}            # a right turn after each W step


def test_locust_capture_and_checker_jump():
    assert moves("fmFfcafmF") == {"d6", "f6"}
    assert moves("fmFfcafmF", "f6=p") == {"d6", ("g7", "f6")}
    assert moves("fmFfcafmF", "f6=p g7=P") == {"d6"}
    assert moves("fmFfcafmF", "f6=P") == {"d6"}


def test_lion_igui_and_double_capture():
    assert moves("KcabK", "d5=p") == (line("e5", 1, 0, "f5") | {"d4", "d6", "e4", "e6", "f4", "f6", "d5"}
                                      | {("e5", "d5")})
    assert ("c5", "d5") in moves("cafcK", "d5=p c5=p")
    assert ("c5", "d5") not in moves("cafcK", "d5=p c5=P")
    assert ("c6", "d5") in moves("cacK", "d5=p c6=p")  # the second leg may turn


def test_two_king_steps_reach_the_five_by_five_square():
    got = moves("KaK")
    assert got == {f"{f}{r}" for f in "cdefg" for r in range(3, 8)} - {"e5"}
    assert "e7" not in moves("KaK", "e6=p d6=p f6=p") - {"e6"}  # every way to e7 passes a piece


# -- one-leg modifiers -------------------------------------------------------------------

def test_j_skips_the_first_square():
    assert moves("jR") == ROOK - {"d5", "f5", "e4", "e6"}
    assert moves("jR", "e6=p") == moves("jR")


def test_j_on_a_longer_leap_needs_a_piece_to_jump():
    assert moves("jD") == set()
    assert moves("jD", "e6=p") == {"e7"}


def test_cylinder_wraps_the_files():
    assert moves("oW", square="a5") == {"a6", "a4", "b5", "i5"}
    assert moves("osR", square="a5") == line("a5", 1, 0)
    assert moves("osR", "c5=p", square="a5") == {"b5", "c5", "i5", "h5", "g5", "f5", "e5", "d5"}
    assert moves("osR", "c5=p g5=P", square="a5") == {"b5", "c5", "i5", "h5"}


def test_d_captures_own_pieces():
    assert moves("dK", "d5=P d6=p") == {"d5"}
    assert moves("cdK", "d5=P d6=p") == {"d5", "d6"}


def test_universal_leaper():
    assert moves("mU") == {f"{f}{r}" for f in "abcdefghi" for r in range(1, 10)} - {"e5", "a2", "i8"}


def test_nn_is_a_lame_leap():
    assert moves("nnD") == moves("nD") == {"e7", "e3", "c5", "g5"}
    assert moves("nnD", "e6=p") == {"e3", "c5", "g5"}


def test_range_on_every_atom():
    assert moves("F2") == {"d6", "c7", "f6", "g7", "d4", "c3", "f4", "g3"}
    assert moves("mafsW2") >= {"c6", "d7"}


def checks(betza: str, pieces: str) -> bool:
    """Is Black (to move) in check from White's ``X`` (``betza``) among ``pieces``?"""
    return from_fen(board(betza), fen(dict(x.split("=") for x in pieces.split()), "b")).in_check()


def test_check_only_k_gives_check_without_moving():
    assert checks("fkR", "a2=K e1=X e9=k")
    assert not checks("fkR", "a2=K e1=X e9=k e5=p")
    v, pos = position("fkR", "e9=p")
    assert not [m for m in pos.legal_moves() if m.origin == v.square("e5")]


def test_hopper_and_locust_checks():
    assert checks("mRcpR", "a2=K e1=X e7=p e9=k")
    assert checks("mRcpR", "a2=K e1=X e7=P e9=k")
    assert not checks("mRcpR", "a2=K e1=X e9=k")
    assert not checks("mRcpR", "a2=K e1=X e3=P e7=p e9=k")
    assert checks("gQ", "a2=K e1=X e7=P e8=k")
    assert not checks("gQ", "a2=K e1=X e6=P e8=k")
    assert checks("fcafmF", "a2=K b1=X c2=k")           # the king would be jumped
    assert not checks("fcafmF", "a2=K b1=X c2=k d3=P")  # no landing square behind it


def test_multi_leg_make_unmake_restores_position_and_hash():
    v, pos = position("KcabKcacK", "d5=p c5=p f6=p")
    assert_make_unmake_exact(pos)
    assert {m.kind for m in pos.legal_moves()} >= {Kind.LEGS, Kind.NORMAL}


def test_initial_multi_leg_move_only_before_the_first_move():
    from morphchess import Position
    v = load("files=8 ranks=8\npawn:P:fmWfcFimafW:pawn:a2-h2\nking:K:K:king:e1", "init")
    pos = Position(v)
    e2 = v.square("e2")
    assert {v.square_name(m.target) for m in pos.legal_moves() if m.origin == e2} == {"e3", "e4"}
    pos.make(next(m for m in pos.legal_moves() if m.origin == e2 and v.square_name(m.target) == "e3"))
    pos.make(next(m for m in pos.legal_moves() if v.square_name(m.origin) == "a7"))
    e3 = v.square("e3")
    assert {v.square_name(m.target) for m in pos.legal_moves() if m.origin == e3} == {"e4"}
    assert not pos.in_check()  # the moved pawn has no multi-leg move left to check with
