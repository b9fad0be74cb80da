"""Drops, hands and multi-leg moves in every text form: position text with a hand field,
coordinate text (``P@e4``, ``e4f5,f5e6``), SAN, PGN and Game Courier logs, read back exactly
over random games; drops and hands checked against Fairy-Stockfish's crazyhouse (pyffish)."""

from __future__ import annotations

import random
import warnings

import pytest

from morphchess import Board, gamecourier, load, pgn
from morphchess.notation import FenError, MoveError, from_fen, to_fen
from morphchess.records import read_record
from test_xbetza_drops import DEFINITION as DROPS_DEFINITION
from test_xbetza_shogi import DEFINITION as SHOGI_DEFINITION
from test_xbetza_walker import DEFINITION as LEGS_TWO_KINGS

CRAZYHOUSE = DROPS_DEFINITION.format(hand="")
SHOGI = SHOGI_DEFINITION
# multi-leg pieces (lion, checker-jumping man, griffon, mao) and hoppers (cannon, vao, grasshopper)
LEGS = LEGS_TWO_KINGS.replace("e1,,f10", "e1")


def variant(text: str, name: str):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the loader's notes on rules it does not play
        return load(text, name)


@pytest.fixture(scope="module", params=[(CRAZYHOUSE, "mczh"), (SHOGI, "mcshogi"), (LEGS, "mclegs")],
                ids=["crazyhouse", "shogi", "legs"])
def games(request) -> list[Board]:
    """Random games of the variant (the same every run)."""
    v = variant(*request.param)
    rng = random.Random(request.param[1])
    out = []
    for _ in range(6):
        board = Board(v)
        for _ply in range(rng.randrange(30, 90)):
            legal = list(board.legal_moves)
            if not legal:
                break
            board.push(rng.choice(legal))
        out.append(board)
    return out


@pytest.mark.slow
def test_every_legal_move_has_its_own_coordinate_text_and_san(games):
    kinds = set()
    for game in games:
        board = game.root()
        for played in game.move_stack:
            legal = list(board.legal_moves)
            assert len({m.uci() for m in legal}) == len(legal)
            for move in legal:
                assert board.parse_uci(move.uci()) == move, (move.uci(), board.fen())
                assert board.parse_san(board.san(move)) == move, (board.san(move), board.fen())
                kinds.add("drop" if move.is_drop else "legs" if move.legs else "other")
            board.push(played)
    assert kinds == ({"drop", "other"} if games[0].variant.drops else {"legs", "other"})


def test_position_text_with_hands_reads_back_exactly(games):
    for game in games:
        board = game.root()
        for move in game.move_stack:
            board.push(move)
            pos = from_fen(board.variant, board.fen())
            assert to_fen(pos) == board.fen()
            assert pos.hands == board.position.hands and pos.hash == board.position.hash
    if games[0].variant.drops:
        assert any("[]" not in game.fen() for game in games)


@pytest.mark.slow
def test_pgn_game_courier_and_coordinate_records_replay_the_games(games):
    for game in games:
        assert pgn.read(pgn.write(game)).board.move_stack == game.move_stack
        log = gamecourier.write(game)
        assert gamecourier.read(log, game.variant).move_stack == game.move_stack
        coords = " ".join(m.uci() for m in game.move_stack)
        record = read_record(coords, variant=game.variant)
        assert record.form == "coord" and record.board.move_stack == game.move_stack


def crazyhouse_board(fen: str) -> Board:
    return Board(variant(CRAZYHOUSE, "mczh"), fen=fen)


def test_drop_and_multi_leg_texts():
    board = crazyhouse_board("4k3/8/8/8/8/8/8/4K3[Nq] w - - 0 1")
    drop = board.parse_uci("N@f3")
    assert drop.is_drop and drop.piece == "N" and drop.uci() == "N@f3" and not drop.is_capture
    assert board.san(drop) == "N@f3" and gamecourier.write_move(board, drop) == "N*f3"
    board.push(drop)
    assert board.san(board.parse_uci("q@e2")) == "Q@e2+"  # Black's drops are written upper case too
    assert gamecourier.write_move(board, board.parse_san("Q@e2")) == "q*e2"
    lion = Board(variant(LEGS, "mclegs"), fen="4k5/10/10/10/10/10/4p5/3Lp5/10/K9 w - - 0 1")
    igui = lion.parse_uci("d3e3,e3d3")
    assert igui.legs == (lion.variant.square("e3"),) and igui.captured == "p"
    assert lion.san(igui) == "Ld3xe3-d3" and gamecourier.write_move(lion, igui) == "L d3-e3; e3-d3"
    double = lion.parse_san("Ld3xe3xe4")
    assert double.uci() == "d3e3,e3e4" and double.captured == "p"
    assert lion.parse_uci("d3d3").legs == () and lion.san(lion.parse_uci("d3d3")) == "Ld3-d3"


@pytest.mark.parametrize("text", ["d3e3,e4e5", "d3e3,e3d3,d3d3", "d3d4,d4e3", "Z@e5", "P@j10"])
def test_bad_or_illegal_leg_and_drop_text_is_refused(text):
    lion = Board(variant(LEGS, "mclegs"), fen="4k5/10/10/10/10/10/4p5/3Lp5/10/K9 w - - 0 1")
    with pytest.raises(MoveError):
        lion.parse_uci(text)


@pytest.mark.parametrize("fen, where", [
    ("4k3/8/8/8/8/8/8/4K3[Px] w - - 0 1", "'x' is no piece"),
    ("4k3/8/8/8/8/8/8/4K3[P w - - 0 1", "one [...] at its end"),
    ("4k3/8/8/8/8/8/8/4K3[P]x w - - 0 1", "one [...] at its end"),
    ("4k3/8/8/8/8/8/8/4K3[P][p] w - - 0 1", "one [...] at its end"),
    ("4k3/8/8/8/8/8/8/4K3[P3] w - - 0 1", "'3' is no piece"),
])
def test_malformed_hands_are_refused_naming_the_field(fen, where):
    with pytest.raises(FenError, match="hand|board field") as e:
        crazyhouse_board(fen)
    assert where in str(e.value) and "\n" not in str(e.value)


def test_a_hand_in_a_variant_without_hands_is_refused():
    assert Board("chess").fen().startswith("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w")
    with pytest.raises(FenError, match="no pieces in hand"):
        Board("chess", fen="4k3/8/8/8/8/8/8/4K3[Q] w - - 0 1")


@pytest.mark.slow
def test_drops_hands_and_move_text_agree_with_fairy_stockfish():
    sf = pytest.importorskip("pyffish")
    sf.load_variant_config("[mcrecords:crazyhouse]\nfirstRankPawnDrops = true\n")
    start = sf.start_fen("mcrecords")
    rng = random.Random(13)
    drops = 0
    for _game in range(8):
        board, moves = crazyhouse_board(start), []
        for _ply in range(60):
            # no promotion (Fairy-Stockfish demotes a captured promoted piece) and no pawn dropped on
            # the first rank (one moving on to the second may not double step here, there it may)
            legal = [m for m in board.legal_moves if not m.is_choice and not (
                m.is_drop and m.piece.upper() == "P" and m.to_square // 8 in (0, 7))]
            mine = {m.uci() for m in board.legal_moves}
            assert mine == set(sf.legal_moves("mcrecords", start, moves)), board.fen()
            theirs = sf.get_fen("mcrecords", start, moves).split()[0]
            assert hand_sorted(board.fen().split()[0]) == hand_sorted(theirs)
            if not legal:
                break
            move = rng.choice(legal)
            drops += move.is_drop
            moves.append(move.uci())
            board.push(move)
    assert drops > 10


def hand_sorted(field: str) -> str:
    board, _, hand = field.partition("[")
    return board + "[" + "".join(sorted(hand.rstrip("]"))) + "]"


def test_two_castling_kings_sharing_partners_write_each_castling_letter_once():
    v = variant(LEGS_TWO_KINGS, "mctwokings")
    board = Board(v)
    assert board.fen().split()[2] == "KQkq"
    pos = from_fen(v, board.fen())
    assert to_fen(pos) == board.fen() and sorted(pos.legal_moves()) == sorted(board.position.legal_moves())


@pytest.mark.slow
def test_crazyhouse_san_is_python_chess_san_but_for_the_pawn_drop_letter():
    variant_module = pytest.importorskip("chess.variant")
    rng = random.Random(11)
    compared = 0
    for _game in range(4):
        board = crazyhouse_board("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1")
        theirs = variant_module.CrazyhouseBoard()
        for _ply in range(60):
            mine = {m.uci(): m for m in board.legal_moves}
            common = [m for m in theirs.legal_moves if m.uci() in mine]
            for m in common:
                san = theirs.san(m)  # python-chess writes a pawn drop @e4, morphchess P@e4
                assert board.san(mine[m.uci()]) == ("P" + san if san.startswith("@") else san)
                assert board.parse_san(san) == mine[m.uci()]
            compared += len(common)
            # no promotion (python-chess demotes a captured promoted piece), no pawn on the first rank
            playable = [m for m in common if not m.promotion and not (m.drop == 1 and m.to_square // 8 in (0, 7))]
            if not playable or board.is_game_over():
                break
            move = rng.choice(playable)
            board.push(mine[move.uci()])
            theirs.push(move)
    assert compared > 3000
