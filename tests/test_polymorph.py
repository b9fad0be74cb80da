"""Polymorph Chess: transformations, Black's arrays, Knishop and Bishight."""

import random
import re
import subprocess
import sys

import pytest

from morphchess import Position, builtin, load
from morphchess.notation import from_fen, move_to_coord, parse_coord, to_fen
from morphchess.variants import builtin as _builtin

POLY = builtin("polymorph")


def play(pos, moves):
    for text in moves.split():
        pos.make(parse_coord(pos, text))
    return pos


def targets(pos, square):
    sq = pos.variant.square(square)
    return sorted(move_to_coord(pos, m)[2:] for m in pos.legal_moves() if m.origin == sq)


# -- start arrays and hand-derived perft -------------------------------------------

@pytest.mark.parametrize("setup,black_moves", [
    # Black's first moves: 16 pawn moves, the polymorphs' moves, 12 transformations.
    ("standard", 16 + 4 + 12),
    ("knights", 16 + 8 + 12),   # knights on b8 c8 f8 g8: a6 c6 / b6 d6 / e6 g6 / f6 h6
    ("bishops", 16 + 0 + 12),   # bishops all blocked by the pawns
    ("hybrids", 16 + 4 + 12),   # Knishops leap forward (down) like knights; Bishights are blocked
])
def test_perft_of_each_setup_by_hand(setup, black_moves):
    pos = Position(POLY, setup)
    assert pos.perft(1) == 32  # 20 moves and 12 transformations, whatever Black chose
    # No White first move changes Black's options, so perft(2) is a product.
    assert pos.perft(2) == 32 * black_moves


def test_white_always_starts_with_the_standard_array():
    for setup in POLY.setups:
        fen = to_fen(Position(POLY, setup))
        assert fen.split()[0].endswith("/PPPPPPPP/RNBQKBNR")
    assert to_fen(Position(POLY, "hybrids")).startswith("ragqkgar/")
    assert to_fen(Position(POLY, "knights")).startswith("rnnqknnr/")
    assert to_fen(Position(POLY, "bishops")).startswith("rbbqkbbr/")


def test_unknown_setup_is_refused():
    with pytest.raises(ValueError, match="no setup 'rooks'"):
        Position(POLY, "rooks")


# -- the four forms --------------------------------------------------------------

def test_knishop_and_bishight_directions_for_both_colours():
    pos = from_fen(POLY, "4k3/8/8/3a4/8/3A4/8/4K3 w - - 0 1")
    # White Knishop d3: knight leaps forward (up), bishop slides backward (down)
    assert targets(pos, "d3") == sorted(["b4", "c5", "e5", "f4", "c2", "b1", "e2", "f1"] + ["d3n", "d3b", "d3g"])
    pos = from_fen(POLY, "4k3/8/8/3a4/8/3A4/8/4K3 b - - 0 1")
    # Black Knishop d5: forward is down for Black
    assert targets(pos, "d5") == sorted(["b4", "c3", "e3", "f4", "c6", "b7", "a8", "e6", "f7", "g8"]
                                        + ["d5n", "d5b", "d5g"])
    pos = from_fen(POLY, "4k3/8/8/3g4/8/3G4/8/4K3 w - - 0 1")
    # White Bishight d3: bishop slides forward, knight leaps backward
    assert targets(pos, "d3") == sorted(["c4", "b5", "a6", "e4", "f5", "g6", "h7", "b2", "c1", "f2"]
                                        + ["d3n", "d3b", "d3a"])
    pos = from_fen(POLY, "4k3/8/8/3g4/8/3G4/8/4K3 b - - 0 1")
    assert targets(pos, "d5") == sorted(["c4", "b3", "a2", "e4", "f3", "g2", "h1", "b6", "c7", "e7", "f6"]
                                        + ["d5n", "d5b", "d5a"])


def _pyffish_perft(sf, variant, fen, depth):
    if depth == 1:
        return len(sf.legal_moves(variant, fen, []))
    total = 0
    for m in sf.legal_moves(variant, fen, []):
        total += _pyffish_perft(sf, variant, sf.get_fen(variant, fen, [m]), depth - 1)
    return total


@pytest.mark.slow
def test_forms_agree_with_fairy_stockfish_without_transformations():
    """With transformations switched off, Polymorph is a plain fairy variant that
    Fairy-Stockfish can play: compare perft on random positions of every array."""
    sf = pytest.importorskip("pyffish")
    sf.load_variant_config(
        "[polyforms:chess]\ncustomPiece1 = a:fhNbB\ncustomPiece2 = g:fBbhN\n"
        "pieceToCharTable = PNBRQ.AG.....Kpnbrq.ag.....k\npromotionPieceTypes = qrnbag\n")
    variant = load(_builtin("polymorph").text.replace("transform=NBAG", ""), "polyforms")
    rnd = random.Random(7)
    for game in range(12):
        pos = Position(variant, list(variant.setups)[game % 4])
        for _ in range(rnd.randint(6, 40)):
            moves = pos.legal_moves()
            if not moves:
                break
            pos.make(rnd.choice(moves))
        fen = to_fen(pos)
        plain = re.sub(r"[*^]", "", fen)  # moved-state marks are ours alone
        assert pos.perft(2) == _pyffish_perft(sf, "polyforms", plain, 2), fen


# -- transformations -------------------------------------------------------------

def test_transformation_is_written_and_read_as_from_equals_to():
    pos = Position(POLY)
    m = parse_coord(pos, "c1c1n")
    assert move_to_coord(pos, m) == "c1c1n"
    pos.make(m)
    assert to_fen(pos).split()[0].endswith("RNNQKBNR")
    with pytest.raises(ValueError):
        parse_coord(pos, "c8c8q")  # a queen is not a polymorph form
    with pytest.raises(ValueError):
        parse_coord(pos, "e8e8n")  # nor is the king


def test_no_transformation_while_in_check():
    pos = from_fen(POLY, "4k3/8/8/8/7q/8/8/1N2K3 w - - 0 1")  # e1 in check from h4
    assert pos.in_check()
    assert not [m for m in pos.legal_moves() if m.origin == m.target]


def test_pinned_polymorph_may_transform_it_still_shields_the_king():
    pos = from_fen(POLY, "4k3/8/8/b7/8/8/3N4/4K3 w - - 0 1")  # knight d2 pinned by a5
    moves = [move_to_coord(pos, m) for m in pos.legal_moves() if m.origin == POLY.square("d2")]
    assert sorted(moves) == ["d2d2a", "d2d2b", "d2d2g"]  # no knight leaps, but all transformations
    pos.make(parse_coord(pos, "d2d2b"))
    assert not any(pos.attacked(r, 1) for r in pos.royals[0])


def test_transformation_gives_check_and_mate():
    pos = from_fen(POLY, "6rk/5Bpp/8/8/8/8/8/K7 w - - 0 1")
    pos.make(parse_coord(pos, "f7f7n"))  # smothered mate by a knight that appears on f7
    assert pos.in_check()
    outcome = pos.outcome()
    assert outcome is not None and outcome.termination == "checkmate" and outcome.winner == 0
    pos = from_fen(POLY, "4k3/8/8/8/8/8/8/1N2K3 w - - 0 1")
    pos.make(parse_coord(pos, "b1b1b"))
    assert not pos.in_check()
    pos = from_fen(POLY, "4k3/8/8/8/8/8/8/N3K3 w - - 0 1")
    pos.make(parse_coord(pos, "a1a1g"))  # a Bishight on a1 eyes e5, not e8; the Bishop form:
    assert not pos.in_check()
    pos = from_fen(POLY, "7k/8/8/8/8/8/8/N3K3 w - - 0 1")
    pos.make(parse_coord(pos, "a1a1b"))
    assert pos.in_check()


def test_hash_and_repetition_see_the_form():
    pos = Position(POLY)
    start = pos.hash
    play(pos, "f1f1n")
    assert pos.hash != start
    play(pos, "c8c8n f1f1b c8c8b")  # both back in their old forms
    assert pos.hash == start
    assert pos.repetitions() == 2
    play(pos, "f1f1n c8c8n f1f1b c8c8b")
    assert pos.repetitions() == 3
    assert pos.outcome().termination == "repetition"


def test_transformation_keeps_the_fifty_move_count_and_castling():
    pos = from_fen(POLY, "r3k2r/p7/8/8/8/8/2B5/R3K2R w KQkq - 7 20")
    play(pos, "c2c2n")
    assert pos.halfmove == 8  # a transformation is neither a capture nor a pawn move
    assert to_fen(pos).split()[2] == "KQkq"
    assert {"e8c8", "e8g8"} <= {move_to_coord(pos, m) for m in pos.legal_moves()}
    play(pos, "a7a6")
    assert pos.halfmove == 0
    assert {"e1c1", "e1g1"} <= {move_to_coord(pos, m) for m in pos.legal_moves()}


def test_undo_restores_the_form():
    pos = Position(POLY, "hybrids")
    before = to_fen(pos), pos.hash
    play(pos, "b1b1a")
    pos.unmake()
    assert (to_fen(pos), pos.hash) == before


def test_promotion_to_all_six_pieces():
    pos = from_fen(POLY, "4k3/P7/8/8/8/8/8/4K3 w - - 0 1")
    assert sorted(targets(pos, "a7")) == ["a8a", "a8b", "a8g", "a8n", "a8q", "a8r"]
    play(pos, "a7a8g")
    assert to_fen(pos).startswith("G3k3/")
    # a promoted polymorph may transform
    play(pos, "e8d7")
    assert "a8a8n" in [move_to_coord(pos, m) for m in pos.legal_moves()]


# -- command line ------------------------------------------------------------------

def run_cli(*args):
    return subprocess.run([sys.executable, "-m", "morphchess.cli", *args], capture_output=True, text=True)


def test_cli_perft_with_setup():
    out = run_cli("perft", "polymorph", "2", "--setup", "knights")
    assert out.returncode == 0
    assert out.stdout.strip().splitlines()[-1] == str(32 * 36)
    out = run_cli("perft", "polymorph", "1", "--setup", "hybrids", "--moves", "g1g1a b8b8n")
    assert out.stdout.strip().splitlines()[-1] == str(play(Position(POLY, "hybrids"), "g1g1a b8b8n").perft(1))


def test_cli_show_lists_forms_and_setups():
    out = run_cli("show", "polymorph")
    assert out.returncode == 0
    assert "knishop" in out.stdout and "bishight" in out.stdout
    assert "standard, knights, bishops, hybrids" in out.stdout
    assert "Transformation group" in out.stdout


def test_cli_bad_setup_is_one_line_error():
    out = run_cli("perft", "polymorph", "1", "--setup", "rooks")
    assert out.returncode == 2
    assert out.stderr.count("\n") == 1 and "rooks" in out.stderr
