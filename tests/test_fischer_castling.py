"""Fischer castling in shuffled arrays (``shuffle=``), against python-chess's Chess960 and
Fairy-Stockfish's Capablanca Random Chess, move list against move list."""

from __future__ import annotations

import random
import warnings
from pathlib import Path

import chess
import pytest

from morphchess import Board, Position, gamecourier, load, pgn
from morphchess.move import Kind
from morphchess.notation import from_fen, move_to_coord, parse_coord, to_fen

from common import CHESS960, assert_make_unmake_exact, perft_against


@pytest.fixture(scope="module")
def c960():
    v = load(CHESS960, "c960")
    assert not v.warnings  # Fischer castling is played
    return v


def ours(pos: Position) -> dict:
    return {move_to_coord(pos, m): m for m in pos.legal_moves()}


def python_chess(fen: str):
    """python-chess's Chess960 move texts after some moves from ``fen``."""
    def theirs(moves: list[str]) -> set:
        board = chess.Board(fen, chess960=True)
        for text in moves:
            board.push_uci(text)
        return {m.uci() for m in board.legal_moves}
    return theirs


# Chess960 positions with castling on both wings; the first is from the Chess960 perft suite
# (perft 3 = 12189), the others put king and rook on each other's landing squares.
POSITIONS = [
    ("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", 3, 12189),
    ("2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w HEhe - 1 9", 3, None),
    ("rk4r1/8/8/8/8/8/8/RK4R1 w KQkq - 0 1", 3, None),  # O-O-O: king b1-c1, rook a1-d1
    ("2rk3r/8/8/8/8/8/8/2RK3R w KQkq - 0 1", 3, None),  # O-O-O swaps king and rook
    ("5rkr/8/8/8/8/8/8/5RKR w KQkq - 0 1", 3, None),  # O-O: the king stays, the rook f1 stays
    ("1r2k3/8/8/8/8/8/8/RK5R w KQ - 0 1", 3, None),  # b8 attacks b1: no O-O-O out of check
    ("4k3/8/8/8/8/8/2r5/R5KR w KQ - 0 1", 3, None),
    ("4k3/8/8/8/8/8/8/R2r1K1R w KQ - 0 1", 2, None),
]


@pytest.mark.parametrize("fen,depth,count", POSITIONS)
def test_positions_against_python_chess(c960, fen, depth, count):
    pos = from_fen(c960, fen)
    n = perft_against(pos, python_chess(fen), depth)
    assert count is None or n == count
    assert to_fen(pos) == to_fen(from_fen(c960, fen))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_shuffled_arrays_against_python_chess(c960, seed):
    pos = Position(c960, f"shuffle-{seed}")
    assert perft_against(pos, python_chess(to_fen(pos)), 3) > 7000


def castling_games(v, setup: str, seed: int, games: int = 6, plies: int = 50):
    """Positions of random games from ``setup`` that castle whenever they can and half the time
    move a piece off the back rank (not the king), to make room."""
    rng = random.Random(seed)
    castled = 0
    for _ in range(games):
        pos = Position(v, setup)
        for _ply in range(plies):
            legal = pos.legal_moves()
            yield pos
            if not legal or pos.outcome(legal) is not None:
                break
            castles = [m for m in legal if m.kind is Kind.CASTLE]
            castled += bool(castles)
            back = [m for m in legal
                    if m.origin // v.files in (0, v.ranks - 1) and m.origin not in pos.royals[pos.turn]]
            pos.make(rng.choice(castles or (back if back and rng.random() < 0.5 else legal)))
    assert castled >= games // 2  # the games did castle


@pytest.mark.parametrize("seed", [4, 5, 6, 7])
def test_castling_games_against_python_chess(c960, seed):
    for pos in castling_games(c960, f"shuffle-{seed}", seed):
        fen = to_fen(pos)
        board = chess.Board(fen, chess960=True)
        assert set(ours(pos)) == {m.uci() for m in board.legal_moves}, fen
        assert_make_unmake_exact(pos)
        assert to_fen(from_fen(c960, fen)) == fen


def test_a_king_whose_partners_moved_is_written_plain(c960):
    pos = Position(c960, "shuffle-0")
    assert to_fen(pos).startswith("brknrqnb/")  # bishops in the corners, rooks inside
    for text in ["b2b3", "b7b6", "b1b2", "b8b7", "e2e3", "e7e6", "e1e2", "e8e7"]:
        pos.make(parse_coord(pos, text))
    fen = to_fen(pos)
    assert fen == "b1kn1qnb/prpprppp/1p2p3/8/8/1P2P3/PRPPRPPP/B1KN1QNB w - - 2 5"
    assert chess.Board(fen, chess960=True).fen() == fen
    assert to_fen(from_fen(c960, fen)) == fen


def test_swap_makes_and_unmakes_exactly(c960):
    pos = from_fen(c960, "3k4/8/8/8/8/8/8/2RK3R w KQ - 0 1")
    before, h = to_fen(pos), pos.hash
    castle = next(m for m in pos.legal_moves() if move_to_coord(pos, m) == "d1c1")
    pos.make(castle)
    assert to_fen(pos) == "3k4/8/8/8/8/8/8/2KR3R b - - 1 1"
    made = pos.hash
    pos.refresh()
    assert pos.hash == made
    pos.unmake()
    assert (to_fen(pos), pos.hash) == (before, h)


def test_records_round_trip(c960):
    board = Board(c960, fen="rk5r/8/8/8/8/8/8/6KR w Kkq - 0 1")
    assert board.san(board.parse_uci("g1h1")) == "O-O"  # the king stays on g1
    assert board.parse_uci("g1h1") == board.parse_san("O-O")
    board.push_san("O-O")
    board.push_san("O-O-O")  # black: king b8 to c8, rook a8 to d8
    assert board.fen().startswith("2kr3r/8/8/8/8/8/8/5RK1 w")
    assert pgn.read(pgn.write(board), c960).board.fen() == board.fen()
    log = gamecourier.write(board)
    assert "K g1-g1; R h1-f1" in log
    assert gamecourier.read(log, c960, fen="rk5r/8/8/8/8/8/8/6KR w Kkq - 0 1").fen() == board.fen()


def test_king_move_and_castling_on_the_same_squares(c960):
    fen = "rk4r1/8/8/8/8/8/8/RK4R1 w KQkq - 0 1"
    board = Board(c960, fen=fen)
    king, castle = board.parse_uci("b1c1"), board.parse_uci("b1a1")
    assert not king.is_castling and castle.is_castling and castle.to_square == king.to_square
    assert board.san(castle) == "O-O-O"
    assert gamecourier.write_move(board, castle) == "K b1-c1; R a1-d1"
    for move in (king, castle):
        text = gamecourier.write_move(board, move)
        assert gamecourier.read(text, c960, fen=fen).move_stack[0] == move


# -- Capablanca Random Chess against Fairy-Stockfish ------------------------------------------
sf = pytest.importorskip("pyffish")


@pytest.fixture(scope="module")
def crc():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        text = Path(__file__).with_name("definitions").joinpath("capablanca-random.txt").read_text()
        v = load(text, "crc")
    assert not [w for w in v.warnings if "shuffle" in w]
    return v


def fairy(fen: str):
    """Fairy-Stockfish's Capablanca (Chess960 castling) move texts after some moves from ``fen``."""
    return lambda moves: set(sf.legal_moves("capablanca", fen, moves, True))


@pytest.mark.parametrize("fen", [
    "r4k3r/pppppppppp/10/10/10/10/PPPPPPPPPP/R4K3R w KQkq - 0 1",
    "1r3k2r1/10/10/10/10/10/10/1R3K2R1 w KQkq - 0 1",
    "3rk4r/10/10/10/10/10/10/3RK4R w KQkq - 0 1",
    "rk7r/10/10/10/10/10/10/RK7R w KQkq - 0 1",
])
def test_crc_positions_against_fairy_stockfish(crc, fen):
    assert perft_against(from_fen(crc, fen), fairy(fen), 3) > 1000


@pytest.mark.parametrize("seed", [2, 3])
def test_crc_castling_games_against_fairy_stockfish(crc, seed):
    for pos in castling_games(crc, f"shuffle-{seed}", seed, games=3, plies=40):
        fen = to_fen(pos)
        assert set(ours(pos)) == set(sf.legal_moves("capablanca", fen, [], True)), fen
        assert_make_unmake_exact(pos)
