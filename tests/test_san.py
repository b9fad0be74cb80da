"""SAN: the written forms chosen in docs/records.md, forgiving reading, refusals."""

import chess
import pytest

from morphchess import Board
from morphchess.notation import MoveError


def sans(board):
    return {board.san(m) for m in board.legal_moves}


def test_disambiguation_by_file_rank_and_square():
    fen = "4k3/8/8/R7/8/Q7/8/Q1Q1K2R w - - 0 1"
    b = Board("chess", fen=fen)
    written = sans(b)
    # queens a1, a3, c1 all reach b2; a1/a3 share a file, a1/c1 a rank
    assert {"Qa1b2", "Q3b2", "Qcb2", "Q1a2", "Q3a2", "Rah5", "Rhh5"} <= written
    ref = chess.Board(fen)
    assert written == {ref.san(m) for m in ref.legal_moves}
    for text in written:
        assert b.san(b.parse_san(text)) == text


def test_pawn_captures_name_the_file_even_straight_ahead():
    # Morphing Chess pawn (fWfcnD) captures two squares straight ahead
    b = Board("morphing-chess", fen="4k4/9/9/9/9/4n4/9/4P4/4K4 w - - 0 1")
    assert b.san(b.parse_uci("e2e4")) == "exe4"
    b = Board("chess", fen="4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1")
    assert b.san(b.parse_uci("e5d6")) == "exd6"
    assert b.parse_san("exd6 e.p.").is_en_passant


def test_forced_morphs_are_shown_in_brackets_for_both_colours():
    b = Board("crossroads")
    assert b.san(b.parse_uci("f2f3")) == "f3(Z)"
    assert b.san(b.parse_uci("h1g3")) == "Ng3(D)"
    assert b.san(b.parse_uci("e2e4")) == "e4(N)"
    b.push_san("f3(Z)")
    assert b.san(b.parse_uci("f8f7")) == "f7(Z)"  # Black's table is mirrored
    # the bracket may be left out when reading, but a wrong one is refused
    assert b.parse_san("f7").uci() == "f8f7"
    with pytest.raises(MoveError):
        b.parse_san("f7(Q)")


def test_royal_morph_and_morph_after_capture():
    b = Board("morphing-chess", fen="4k4/9/9/9/3p5/4K4/9/P8/9 w - - 0 1")
    assert b.san(b.parse_uci("e4e5")) == "Ke5(O)+"  # the royal amazon sees e9
    assert b.san(b.parse_uci("e4d5")) == "Kxd5(M)"


def test_castling_on_nine_files():
    b = Board("crossroads", fen="r3k3r/9/9/9/9/9/9/9/R3K3R w KQkq - 0 1")
    assert {"O-O", "O-O-O"} <= sans(b)
    b.push_san("O-O")
    assert (b.piece_at("h1"), b.piece_at("g1"), b.piece_at("i1")) == ("K", "R", None)
    b.push_san("0-0-0")  # zeros are read too
    assert (b.piece_at("b9"), b.piece_at("c9"), b.piece_at("a9")) == ("k", "r", None)


def test_transformation_and_promotion():
    b = Board("polymorph")
    assert {"Bc1=N", "Bc1=A", "Bc1=G", "Nb1=B"} <= sans(b)
    assert b.parse_san("Bc1=G").uci() == "c1c1g"
    assert b.parse_san("c1c1g").uci() == "c1c1g"
    mate = Board("polymorph", fen="6rk/5Bpp/8/8/8/8/8/K7 w - - 0 1")
    assert mate.san(mate.parse_uci("f7f7n")) == "Bf7=N#"
    b = Board("crossroads", fen="4k4/1P6p/9/9/9/9/9/9/4K4 w - - 0 1")
    assert {"b9=Z+", "b9=L", "b9=Q+"} <= sans(b)
    for text in ("b9=Z", "b9Z", "b9=z", "b8b9z"):
        assert b.parse_san(text).uci() == "b8b9z"
    with pytest.raises(MoveError, match="say what the piece becomes"):
        b.parse_san("b9")


def test_forgiving_forms():
    b = Board()
    for text in ("Nf3", "Ng1f3", "Ng1-f3", "g1f3", "Nf3+", "Nf3!?", "Ngf3"):
        assert b.parse_san(text).uci() == "g1f3"
    assert b.parse_san("e2-e4").uci() == "e2e4"


@pytest.mark.parametrize("text,message", [
    ("Rd1", "ambiguous"),  # rooks a1 and h1
    ("Nf6", "illegal"),
    ("Kxd2", "illegal"),  # d2 is empty: x requires a capture
    ("hello", "not a move"),
    ("Rz1", "off the"),
    ("O-O", "no such castling"),
])
def test_refused(text, message):
    b = Board("chess", fen="4k3/8/8/8/8/8/4K3/R6R w - - 0 1")
    with pytest.raises(MoveError, match=message):
        b.parse_san(text)
