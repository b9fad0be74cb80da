"""The python-chess-like API (Board, Move) and the record round trips of random games."""

import random

import chess
import pytest

from morphchess import BLACK, WHITE, Board, Move, gamecourier, pgn
from morphchess.notation import MoveError
from morphchess.variant import VariantError

from common import VARIANTS


def test_new_board_and_moves():
    b = Board()
    assert b.turn == WHITE and b.setup == "standard" and b.move_stack == []
    assert b.fen() == chess.STARTING_FEN
    assert sorted(m.uci() for m in b.legal_moves) == sorted(m.uci() for m in chess.Board().legal_moves)
    m = b.push_san("e4")
    assert (m.from_square, m.to_square, m.piece, m.new_piece) == (12, 28, "P", "P")
    assert b.turn == BLACK and b.piece_at("e4") == "P" and b.piece_at(12) is None
    assert b.move_stack == [m] and b.peek() == m
    assert b.pop() == m and b.fen() == chess.STARTING_FEN


def test_push_checks_legality_and_types():
    b = Board()
    e4 = b.parse_uci("e2e4")
    b.push(e4)
    with pytest.raises(MoveError, match="illegal"):
        b.push(e4)  # a Move of the previous position
    with pytest.raises(TypeError):
        b.push("e7e5")
    with pytest.raises(MoveError):
        b.push_uci("e7e4")
    with pytest.raises(MoveError):
        b.push_uci("zz")
    with pytest.raises(IndexError):
        Board().pop()


def test_copy_is_independent():
    b = Board("crossroads")
    b.push_uci("f2f3")
    c = b.copy()
    c.push_uci("f8f7")
    assert len(b.move_stack) == 1 and b.turn == BLACK and b.piece_at("f7") is None
    assert c.pop().uci() == "f8f7" and c.fen() == b.fen()
    assert c.pop().uci() == "f2f3" and c.fen() == Board("crossroads").fen()


def test_move_fields_morph_promotion_transformation_castling_ep():
    b = Board("crossroads")
    f3 = b.parse_uci("f2f3")
    assert f3.new_piece == "Z" and f3.is_morph and not f3.is_choice and not f3.is_capture
    b = Board("chess", fen="4k3/1P6/8/8/8/8/8/R3K2R w KQ - 0 1")
    promo = b.parse_uci("b7b8n")
    assert promo.new_piece == "N" and promo.is_choice and not promo.is_morph and promo.uci() == "b7b8n"
    castle = b.parse_uci("e1c1")
    assert castle.is_castling and not castle.is_capture
    b = Board("polymorph")
    t = b.parse_uci("c1c1a")
    assert t.is_transformation and t.is_choice and t.new_piece == "A" and t.from_square == t.to_square
    b = Board("chess", fen="4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1")
    ep = b.parse_uci("e5d6")
    assert ep.is_en_passant and ep.is_capture and ep.captured == "p"
    b.push(ep)
    assert b.piece_at("d5") is None


def test_outcome_checkmate_and_variant_from_file(tmp_path):
    b = Board()
    for san in "f3 e5 g4 Qh4#".split():
        b.push_san(san)
    assert b.is_check() and b.is_checkmate() and b.is_game_over()
    assert b.outcome().winner == BLACK and b.outcome().result() == "0-1"
    path = tmp_path / "mini.txt"
    path.write_text("files=5 ranks=5 royal=K\nrook:R:R:rook:a1\nking:K:K:king:c1\n")
    b = Board(str(path))
    assert b.variant.name == "mini" and b.piece_at("a5") == "r"


def test_setups_and_root():
    b = Board("polymorph", setup="hybrids")
    assert b.fen().startswith("ragqkgar/") and not b.custom_start
    b.push_uci("c1c1n")
    assert b.root().fen() == Board("polymorph", setup="hybrids").fen()
    with pytest.raises(VariantError, match="no setup"):
        Board("polymorph", setup="rooks")
    b = Board("chess", fen="4k3/8/8/8/8/8/8/4K3 w - - 0 1")
    assert b.custom_start and b.root_fen == b.fen()


# -- round trips of random games -------------------------------------------------

def random_game(variant: str, seed: int, plies: int) -> Board:
    """A random legal game; every move's SAN and coordinate text must name it again."""
    rnd = random.Random(seed)
    setups = list(Board(variant).variant.setups)
    board = Board(variant, setup=setups[seed % len(setups)])
    while len(board.move_stack) < plies and board.outcome() is None:
        move = rnd.choice(board.legal_moves)
        assert board.parse_san(board.san(move)) == move
        assert board.parse_uci(move.uci()) == move
        board.push(move)
    return board


@pytest.mark.slow
@pytest.mark.parametrize("variant", VARIANTS)
def test_random_games_survive_every_record_form(variant):
    ended = 0
    for seed in range(4):
        board = random_game(variant, seed, 120)
        coords = [m.uci() for m in board.move_stack]
        ended += board.outcome() is not None
        replays = [
            gamecourier.read(gamecourier.write(board), variant, setup=board.setup),
            pgn.read(pgn.write(board)).board,
        ]
        coord_board = Board(variant, setup=board.setup)
        for text in coords:
            coord_board.push_uci(text)
        replays.append(coord_board)
        for replay in replays:
            assert [m.uci() for m in replay.move_stack] == coords
            assert replay.fen() == board.fen()
            assert replay.outcome() == board.outcome()
            assert replay.setup == board.setup


def test_some_random_games_end():
    """The round trips above cover finished games too (outcomes, # in SAN)."""
    board = random_game("snappy-chess", 0, 120)
    assert board.outcome() is not None and board.outcome().termination == "checkmate"
    last = board.pop()
    assert board.san(last).endswith("#")


def test_chess_san_matches_python_chess():
    """Independent reference: python-chess's SAN of the same random games."""
    for seed in range(8):
        rnd = random.Random(seed)
        ours, ref = Board(), chess.Board()
        while ours.outcome() is None and len(ours.move_stack) < 150:
            move = rnd.choice(ours.legal_moves)
            assert ours.san(move) == ref.san(chess.Move.from_uci(move.uci()))
            ours.push(move)
            ref.push_uci(move.uci())
        assert (ours.is_checkmate(), ours.is_stalemate()) == (ref.is_checkmate(), ref.is_stalemate())


def test_move_is_hashable_and_prints_coordinates():
    b = Board()
    moves = set(b.legal_moves)
    assert len(moves) == 20 and isinstance(next(iter(moves)), Move)
    assert str(b.parse_uci("g1f3")) == "g1f3"
