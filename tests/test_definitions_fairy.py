"""Collected real definitions that Fairy-Stockfish can express, move list against move list.

Capablanca Random Chess (tests/definitions/capablanca-random.txt) is Fairy-Stockfish's
``capablanca`` from another array: its nominal array (castling O3 both ways, as Fairy-Stockfish
castles on ten files) and shuffled arrays (``setup=shuffle-SEED``; compared here without castling
rights: Fischer castling is checked in tests/test_fischer_castling.py).  Carrera 960
(carrera-960.txt) is the same with promotion to Q, A and C only.  Xiangqi (xiangqi.txt) is
Fairy-Stockfish's ``xiangqi`` once the rules its page keeps outside the text are laid over
morphchess's moves.
"""

from __future__ import annotations

import random
import warnings
from pathlib import Path

import pytest

from morphchess import Board, Position, load
from morphchess.notation import from_fen, to_fen
from test_perft_fairy import walk

pytestmark = pytest.mark.slow  # left out of the fast loop (-m "not slow")

sf = pytest.importorskip("pyffish")


def collected(name: str):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return load(Path(__file__).with_name("definitions").joinpath(f"{name}.txt").read_text(), name)


@pytest.fixture(scope="module")
def crc():
    return collected("capablanca-random")


@pytest.fixture(scope="module")
def carrera():
    sf.load_variant_config("[carrera960:capablanca]\npromotionPieceTypes = qac\n")
    return collected("carrera-960")


def test_nominal_array_depth3(crc):
    pos = Position(crc)
    fen = to_fen(pos)
    assert fen == "ranbqkbncr/pppppppppp/10/10/10/10/PPPPPPPPPP/RANBQKBNCR w KQkq - 0 1"
    assert walk(pos, "capablanca", fen, [], 3) > 20_000


def shuffled_fen(crc, seed: int) -> str:
    fields = to_fen(Position(crc, f"shuffle-{seed}")).split()
    fields[2] = "-"
    return " ".join(fields)


@pytest.mark.parametrize("seed", range(1, 7))
def test_shuffled_arrays_depth2(crc, seed):
    fen = shuffled_fen(crc, seed)
    assert walk(from_fen(crc, fen), "capablanca", fen, [], 2) > 500


@pytest.mark.slow
def test_shuffled_array_depth3(crc):
    fen = shuffled_fen(crc, 7)
    assert walk(from_fen(crc, fen), "capablanca", fen, [], 3) > 20_000


def test_promotion_to_the_page_choices(crc):
    fen = "r4k3r/1P8/10/10/10/10/10/R4K3R w - - 0 1"
    assert walk(from_fen(crc, fen), "capablanca", fen, [], 2) > 0


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_carrera_960_depth2(carrera, seed):
    fen = shuffled_fen(carrera, seed)
    assert walk(from_fen(carrera, fen), "carrera960", fen, [], 2) > 500


def test_carrera_960_promotes_to_queen_archbishop_chancellor(carrera):
    fen = "r4k3r/1P8/10/10/10/10/10/R4K3R w - - 0 1"
    pos = from_fen(carrera, fen)
    assert walk(pos, "carrera960", fen, [], 2) > 0
    assert {m for m in sf.legal_moves("carrera960", fen, []) if m.startswith("b7b8")} == {"b7b8q", "b7b8a", "b7b8c"}


def page_rules_text(board, move) -> str | None:
    """Fairy-Stockfish's text of a move of the collected Xiangqi (xiangqi.txt) under the two rules its
    page keeps outside the text, or None where they forbid it: the general and the advisors stay in
    the palace and the elephants on their side of the river (the page's script, warned), and a pawn
    entering the zone must promote, as the ID's script makes it (docs/definitions.md, open question)."""
    letter, text = move.piece, move.uci()
    white = letter.isupper()
    file, rank = move.to_square % 9, move.to_square // 9  # rank 0..9 from White's side
    own_rank = rank if white else 9 - rank
    if letter.upper() in "KA" and not (3 <= file <= 5 and own_rank <= 2):
        return None
    if letter.upper() == "E" and own_rank > 4:
        return None
    if letter.upper() == "P" and own_rank > 4:
        return text[:-1] if move.is_choice else None
    return text


def test_xiangqi_plays_as_fairy_stockfish_but_for_the_page_rules():
    """Random games of the collected Xiangqi: with the page's confinement and forced promotion laid
    over morphchess's moves (what the text cannot say), the move lists equal Fairy-Stockfish's
    xiangqi at every position; without them, morphchess has more moves (the missing rules)."""
    board = Board(collected("xiangqi"))
    start = sf.start_fen("xiangqi")
    rng = random.Random(11)
    extra = 0
    for _ in range(6):
        board = Board(board.variant)
        played: list[str] = []
        while len(played) < 120:
            legal = {page_rules_text(board, m): m for m in board.legal_moves}
            extra += None in legal
            legal.pop(None, None)
            theirs = set(sf.legal_moves("xiangqi", start, played))
            assert set(legal) == theirs, (played, sorted(set(legal) ^ theirs))
            if not theirs:
                break
            text = rng.choice(sorted(theirs))
            board.push(legal[text])
            played.append(text)
    assert extra > 0
