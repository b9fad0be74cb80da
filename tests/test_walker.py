"""The move walker: capture-only generation agrees with the legal moves; moves are values."""

from __future__ import annotations

import pytest

from morphchess import Position, builtin
from morphchess.move import Kind
from morphchess.notation import from_fen, move_to_coord

from common import SETUPS, random_positions


@pytest.mark.parametrize("name,setup", SETUPS)
def test_captures_are_the_captures_among_the_legal_moves(name, setup):
    """On thousands of random positions, Position.captures() filtered for legality is exactly the set
    of legal moves that capture (en passant and promotions included)."""
    checked = 0
    for pos in random_positions(name, setup, games=30, seed=f"captures/{name}/{setup}"):
        legal_captures = {m for m in pos.legal_moves() if pos.capture_square(m) is not None}
        generated = pos.captures()
        assert len(generated) == len(set(generated)), "a capture is generated twice"
        assert {m for m in generated if pos.is_safe(m)} == legal_captures
        checked += 1
    assert checked >= 1000


@pytest.mark.parametrize("name,setup", SETUPS)
def test_quiet_moves_added_on_request(name, setup):
    """captures(quiet_from=...) adds exactly the quiet moves of the named pieces (never a transformation,
    a drop, which is no piece's move, or castling, which the walker adds outside the pieces' tables)."""
    for pos in random_positions(name, setup, games=4, seed=f"quiet/{name}/{setup}", max_plies=60):
        movers = {m.origin for m in pos.pseudo_moves()}
        chosen = set(sorted(movers)[::2])
        table = [[sq in chosen for sq in range(pos.t.size)] for _code in range(pos.t.ncodes)]
        expected = {m for m in pos.pseudo_moves() if m.kind not in (Kind.TRANSFORM, Kind.DROP, Kind.CASTLE)
                    and (pos.capture_square(m) is not None or m.origin in chosen)}
        assert set(pos.captures(table)) == expected


def test_null_move_passes_the_turn_and_unmakes():
    pos = Position(builtin("chess"))
    pos.make(pos.legal_moves()[0])
    before = (pos.hash, pos.turn, pos.ep, pos.halfmove, pos.fullmove)
    pos.make_null()
    assert pos.turn != before[1] and pos.hash != before[0] and pos.ep is None
    pos.unmake()
    assert (pos.hash, pos.turn, pos.ep, pos.halfmove, pos.fullmove) == before


def test_moves_are_immutable_values():
    pos = Position(builtin("crossroads"))
    m = pos.legal_moves()[0]
    with pytest.raises(AttributeError):
        m.target = 0  # type: ignore[misc]
    assert m == type(m)(*m) and hash(m) == hash(type(m)(*m))


@pytest.mark.parametrize("fen,barred", [
    ("4k4/9/9/9/9/9/9/4c4/9/3AK4 w - - 0 1", {"d1e2"}),                 # the advisor would screen the cannon
    ("4k4/9/9/9/9/4c4/9/4N4/4A4/4K4 w - - 0 1", {"e3d5", "e3f5", "e2d1", "e2f1", "e2d3", "e2f3"}),  # two screens
])
def test_moves_onto_or_off_a_cannons_line_are_played_out(fen, barred):
    """The pin shortcut of the legality test also watches the hoppers' lines through the king: a move
    that gives an enemy cannon its screen, or takes away one of two, is illegal (against pyffish)."""
    pytest.importorskip("pyffish")
    from test_library import walk  # pyffish's move lists, compared at every node

    pos = from_fen(builtin("xiangqi"), fen)
    assert not barred & {move_to_coord(pos, m) for m in pos.legal_moves()}
    assert barred <= {move_to_coord(pos, m) for m in pos.pseudo_moves()}
    assert walk(pos, "xiangqi", fen, 3) > 0
