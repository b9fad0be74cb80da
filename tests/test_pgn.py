"""PGN: tags for variants, setups and definitions; reading other programs' PGN; malformed input."""

import io
import re

import chess
import chess.pgn
import pytest

from morphchess import Board, RecordError, pgn

MINI = """# a small test variant: bishops become knights on the middle rank
files=5 ranks=5 royal=K promoZone=1 promoChoice=R
title=Mini Morph
pawn:P:fW:pawn:a2-e2
rook:R:R:rook:a1,e1
bishop:B:B:bishop:b1
morph=//NNNNN//
knight:N:N:knight:d1
king:K:K:king:c1
"""


def tags(text):
    return [line for line in text.splitlines() if line.startswith("[")]


def test_seven_tag_roster_first_then_variant_tags():
    b = Board("polymorph", setup="knights")
    b.push_san("e4")
    text = pgn.write(b, {"White": 'Ann "the Rook"', "Event": "Test"})
    assert tags(text) == ['[Event "Test"]', '[Site "?"]', '[Date "????.??.??"]', '[Round "?"]',
                          '[White "Ann \\"the Rook\\""]', '[Black "?"]', '[Result "*"]',
                          '[Variant "polymorph"]', '[VariantSetup "knights"]']
    g = pgn.read(text)
    assert g.headers["White"] == 'Ann "the Rook"' and g.result == "*"
    assert g.board.setup == "knights" and g.board.piece_at("c8") == "n"


def test_orthodox_chess_is_plain_pgn_that_python_chess_reads():
    b = Board()
    for san in "e4 e5 Nf3 Nc6 Bb5 a6 Bxc6 dxc6 O-O f6 d4 exd4 Nxd4 c5 Nb3 Qxd1 Rxd1".split():
        b.push_san(san)
    text = pgn.write(b, comments={0: "Exchange Ruy Lopez", 7: "the bishop pair"})
    assert "Variant" not in text
    assert re.search(r"4\. Bxc6 \{the bishop pair\}\s4\.\.\. dxc6", text)
    game = chess.pgn.read_game(io.StringIO(text))
    assert [m.uci() for m in game.mainline_moves()] == [m.uci() for m in b.move_stack]
    assert game.comment == "Exchange Ruy Lopez"


def test_reads_python_chess_output_with_variations_nags_and_comments():
    game = chess.pgn.Game()
    game.headers["White"] = "X"
    node = game.add_variation(chess.Move.from_uci("e2e4"), comment="king's pawn", nags={1})
    node.parent.add_variation(chess.Move.from_uci("d2d4"))  # a side line
    node = node.add_variation(chess.Move.from_uci("e7e5"))
    node = node.add_variation(chess.Move.from_uci("g1f3"))
    text = str(game)
    assert "(" in text and "$1" in text
    g = pgn.read(text)
    assert [m.uci() for m in g.board.move_stack] == ["e2e4", "e7e5", "g1f3"]
    assert g.comments == {1: "king's pawn"} and g.headers["White"] == "X"


def test_fen_start_and_result_of_a_finished_game():
    b = Board("crossroads", fen="4k4/3ppp3/9/9/9/9/9/9/R3K4 w - - 0 1")
    b.push_san("Ra9#")
    text = pgn.write(b)
    assert '[SetUp "1"]' in text and '[FEN "4k4/3ppp3/9/9/9/9/9/9/R3K4 w - - 0 1"]' in text
    assert '[Result "1-0"]' in text and text.rstrip().endswith("1. Ra9# 1-0")
    g = pgn.read(text)
    assert g.board.outcome().winner == 0 and g.board.root_fen == b.root_fen


def test_black_first_and_a_resignation():
    b = Board("chess", fen="4k3/8/8/8/8/8/4P3/4K3 b - - 0 7")
    b.push_san("Kd7")
    b.push_san("e4")
    text = pgn.write(b, {"Result": "0-1"})
    assert "7... Kd7 8. e4 0-1" in text
    g = pgn.read(text)
    assert g.result == "0-1" and g.board.outcome() is None and len(g.board.move_stack) == 2


def test_a_variant_from_a_file_travels_with_its_definition(tmp_path):
    path = tmp_path / "mini.txt"
    path.write_text(MINI)
    b = Board(str(path))
    for text in ("c2c3", "c4c3", "b1c2", "b5c4", "c2d3"):
        b.push_uci(text)
    text = pgn.write(b)
    assert '[Variant "mini"]' in text and "3. Bd3(N)" in text
    assert tags(text)[-8:] == ['[VariantDefinition "files=5 ranks=5 royal=K promoZone=1 promoChoice=R"]',
                               '[VariantDefinition "title=Mini Morph"]',
                               '[VariantDefinition "pawn:P:fW:pawn:a2-e2"]',
                               '[VariantDefinition "rook:R:R:rook:a1,e1"]',
                               '[VariantDefinition "bishop:B:B:bishop:b1"]',
                               '[VariantDefinition "morph=//NNNNN//"]',
                               '[VariantDefinition "knight:N:N:knight:d1"]',
                               '[VariantDefinition "king:K:K:king:c1"]']
    path.unlink()  # replayed elsewhere: the file is gone
    g = pgn.read(text)
    assert g.board.variant.name == "mini"
    # the definition's lines come back as they were
    assert g.board.variant.params["title"] == "Mini Morph" and g.board.variant.type(1).name == "pawn"
    assert [m.uci() for m in g.board.move_stack] == ["c2c3", "c4c3", "b1c2", "b5c4", "c2d3"]
    assert g.board.fen() == b.fen()


def test_read_all_and_result_tokens():
    b1, b2 = Board(), Board("snappy-chess")
    b1.push_san("e4")
    b2.push_san("e3(Q)")
    games = pgn.read_all(pgn.write(b1) + "\n" + pgn.write(b2))
    assert [g.board.variant.name for g in games] == ["chess", "snappy-chess"]
    assert games[1].board.piece_at("e3") == "Q"
    # movetext alone, long algebraic and a morph written without its bracket
    g = pgn.read("1. f2-f3 Nb9c7 2. Zb7 *", "crossroads")
    assert g.board.piece_at("b7") == "Z" and g.board.piece_at("c7") == "d"


@pytest.mark.parametrize("text,message", [
    ('[Variant "crossroads"]\n\n1. e4(N) e6(N) 2. Nf5 *', "move 2. 'Nf5': illegal"),
    ('[Variant "fairyland"]\n\n1. e4 *', "not built in"),
    ('[Variant "chess"]\n[FEN "8/8/8 w - - 0 1"]\n\n1. e4 *', "the game's start"),
    ('[Variant "mine"]\n[VariantDefinition "files=x"]\n\n*', "VariantDefinition"),
    ("1. e4 e5 2. Rd1 *", "move 2. 'Rd1'"),
    ("1. e4 ] *", "unexpected character"),
    ("1. e4 ) *", "without"),
    ("", "no game"),
])
def test_malformed_pgn(text, message):
    with pytest.raises(RecordError, match=message):
        pgn.read(text)


def test_error_keeps_the_game_so_far():
    with pytest.raises(RecordError) as info:
        pgn.read("1. e4 e5 2. Nf3 Nc6 3. Bb5 Nf3 *")
    e = info.value
    assert (e.move_number, e.text) == ("3...", "Nf3")
    assert [m.uci() for m in e.board.move_stack] == ["e2e4", "e7e5", "g1f3", "b8c6", "f1b5"]
