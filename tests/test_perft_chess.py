"""Orthodox chess against python-chess: perft of the standard suite and random games.

Every reference number is computed here by python-chess (push/pop), never copied in.
"""

from __future__ import annotations

import random

import pytest

from morphchess import Position, builtin
from morphchess.notation import from_fen, move_to_coord, parse_coord, to_fen

chess = pytest.importorskip("chess")

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
# The start position and positions 2-6 of the public perft suite (chessprogramming.org).
SUITE = [
    START,
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
]


def reference_perft(board, depth: int) -> int:
    if depth == 0:
        return 1
    n = 0
    for m in board.legal_moves:
        board.push(m)
        n += reference_perft(board, depth - 1)
        board.pop()
    return n


@pytest.fixture(scope="module")
def v():
    return builtin("chess")


@pytest.mark.parametrize("fen", SUITE)
def test_perft_depth3(v, fen):
    pos = from_fen(v, fen)
    h = pos.hash
    assert pos.perft(3) == reference_perft(chess.Board(fen), 3)
    assert to_fen(pos) == fen and pos.hash == h


@pytest.mark.slow
@pytest.mark.parametrize("fen", [SUITE[0], SUITE[2], SUITE[3]])
def test_perft_depth4(v, fen):
    assert from_fen(v, fen).perft(4) == reference_perft(chess.Board(fen), 4)


def test_divide_position2(v):
    """Per-root-move counts: a wrong count names the move."""
    fen = SUITE[1]
    pos, board = from_fen(v, fen), chess.Board(fen)
    mine = {}
    for m in pos.legal_moves():
        text = move_to_coord(pos, m)
        pos.make(m)
        mine[text] = pos.perft(2)
        pos.unmake()
    ref = {}
    for m in board.legal_moves:
        board.push(m)
        ref[m.uci()] = reference_perft(board, 2)
        board.pop()
    assert mine == ref


def test_standard_start_position(v):
    assert to_fen(Position(v)) == START


def _random_games(v, games: int, seed: int):
    rng = random.Random(seed)
    for _ in range(games):
        pos, board = Position(v), chess.Board()
        for _ply in range(rng.randrange(20, 120)):
            yield pos, board
            legal = sorted(m.uci() for m in board.legal_moves)
            if not legal:
                break
            text = rng.choice(legal)
            pos.make(parse_coord(pos, text))
            board.push_uci(text)


def test_random_games_move_sets(v):
    """Legal move sets, check and game end agree with python-chess along random games."""
    for pos, board in _random_games(v, 40, 7):
        mine = sorted(move_to_coord(pos, m) for m in pos.legal_moves())
        assert mine == sorted(m.uci() for m in board.legal_moves), board.fen()
        assert pos.in_check() == board.is_check(), board.fen()


def test_random_games_fen_round_trip(v):
    """Every position of random games survives to_fen -> from_fen exactly."""
    for pos, _board in _random_games(v, 40, 11):
        text = to_fen(pos)
        again = from_fen(v, text)
        assert to_fen(again) == text
        assert again.hash == pos.hash, text
        assert sorted(again.legal_moves()) == sorted(pos.legal_moves()), text


def test_random_games_standard_fen(v):
    """For orthodox chess to_fen writes python-chess's FEN (en passant square only when capturable aside)."""
    for pos, board in _random_games(v, 40, 11):
        mine = to_fen(pos).split()
        ref = board.fen(en_passant="fen").split()
        assert mine == ref


def test_knights_back_home_give_the_start_fen(v):
    pos = Position(v)
    for text in "g1f3 g8f6 f3g1 f6g8".split():
        pos.make(parse_coord(pos, text))
    assert to_fen(pos) == "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 4 3"


def test_hash_depends_on_position_only(v):
    """Transpositions reach the same hash; different castling rights give different hashes."""
    a, b = Position(v), Position(v)
    for text in "g1f3 g8f6 b1c3 b8c6".split():
        a.make(parse_coord(a, text))
    for text in "b1c3 b8c6 g1f3 g8f6".split():
        b.make(parse_coord(b, text))
    assert a.hash == b.hash
    c = Position(v)
    for text in "g1f3 g8f6 f3g1 f6g8".split():
        c.make(parse_coord(c, text))
    assert c.hash == Position(v).hash  # knights back home: the same position
    d = Position(v)
    for text in "e2e4 e7e5 e1e2 e8e7 e2e1 e7e8".split():
        d.make(parse_coord(d, text))
    start = Position(v)
    for text in "e2e4 e7e5".split():
        start.make(parse_coord(start, text))
    assert d.hash != start.hash  # the kings lost their castling rights
