"""The disagreements with Fairy-Stockfish found in random games (issue 51), each against pyffish:
a dropped pawn's double step, castling with a partner inward from the corner, the text of a
one-square castling, lame leaps Fairy-Stockfish cannot make, games over before any move, and royal
pieces facing along a rank under the flying-general rule."""

from __future__ import annotations

from pathlib import Path

import pytest

from morphchess import Position, VariantError, builtin, load
from morphchess.move import Kind
from morphchess.notation import from_fen, parse_coord
from test_fairy_ini import quiet_load
from test_library import text as move_text

from common import perft_against

sf = pytest.importorskip("pyffish")
FSF_TEXT = Path(__file__).with_name("data").joinpath("fairy-stockfish-variants.ini").read_text()
sf.load_variant_config(FSF_TEXT)


def against(pos: Position, name: str, fen: str, depth: int, played: tuple[str, ...] = ()) -> int:
    """perft of ``pos`` (``fen`` after ``played``) with every node's moves equal to pyffish's."""
    return perft_against(pos, lambda moves: set(sf.legal_moves(name, fen, [*played, *moves])), depth, None,
                         move_text)


def test_chessgi_pawn_dropped_on_the_first_rank_double_steps_from_the_second():
    fen, played = "4k3/8/8/8/8/8/8/4K3[P] w - - 0 1", ("P@d1", "e8d8", "d1d2", "d8e8")
    pos = from_fen(builtin("chessgi"), fen)
    for text in played:
        pos.make(parse_coord(pos, text))
    assert "d2d4" in {move_text(pos, m) for m in pos.legal_moves()}
    assert against(pos, "chessgi", fen, 3, played) > 0


def test_flying_generals_may_not_face_each_other_along_a_rank_either():
    """ordavsempire differed in a random game: Fairy-Stockfish's flyingGeneral bars a rank too."""
    text = "[fgchess:chess]\nflyingGeneral = true\n"
    sf.load_variant_config(FSF_TEXT + "\n" + text)
    v = quiet_load(text, "fgchess")
    fen = "8/8/1p6/8/7k/3K4/8/8 w - - 0 1"
    pos = from_fen(v, fen)
    moves = {move_text(pos, m) for m in pos.legal_moves()}
    assert "d3e3" in moves and not {"d3c4", "d3d4", "d3e4"} & moves  # rank 4 faces the king on h4
    assert against(pos, "fgchess", fen, 3) > 0


def test_active_castles_with_the_rook_inward_from_the_queen_in_the_corner():
    v = quiet_load(FSF_TEXT, "active")
    fen = "r2k3rq/9/9/9/9/9/9/R2K3RQ w KQkq - 0 1"
    pos = from_fen(v, fen)
    castlings = {move_text(pos, m) for m in pos.legal_moves() if m.kind is Kind.CASTLE}
    assert castlings == {"d1a1", "d1g1"}  # one square to c1 (written king takes rook), three to g1
    assert against(pos, "active", fen, 3) > 0


def test_haynie_one_square_castling_is_written_king_takes_rook():
    v = quiet_load(FSF_TEXT, "haynie")
    fen = "r2k1r/6/6/6/6/R2K1R w KQkq - 0 1"
    pos = from_fen(v, fen)
    texts = [move_text(pos, m) for m in pos.legal_moves()]
    assert len(texts) == len(set(texts))  # no text names two moves
    assert parse_coord(pos, "d1a1").kind is Kind.CASTLE and parse_coord(pos, "d1f1").kind is Kind.CASTLE
    assert parse_coord(pos, "d1c1").kind is Kind.NORMAL
    assert against(pos, "haynie", fen, 3) > 0


def test_lame_leap_fairy_stockfish_cannot_make():
    with pytest.raises(VariantError, match=r"customPiece1.*fcnH"):
        load("[lame:chess]\ncustomPiece1 = a:fcnHmH\n", "lame")
    from morphchess.convert import to_fairy
    text, lost = to_fairy(builtin("morphomania"))
    assert any("fcnH" in line for line in lost) and "# lost: speedpawn (fWfnDfcnH)" in text
    section = text.replace("[morphomania]", "[lame-morphomania]")
    sf.load_variant_config(section)
    fen = sf.start_fen("lame-morphomania")
    assert against(Position(quiet_load(section)), "lame-morphomania", fen, 3) == 6082


@pytest.mark.parametrize("name,fen", [
    ("extinction", "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),   # Black has lost its queen
    ("extinction", "rnbqkbnr/pppppppp/8/8/8/8/8/RNBQKBNR b KQkq - 0 1"),         # White has lost its pawns
    ("shatranj", "4k3/8/8/8/8/8/8/R3K2R w - - 0 1"),    # Black, who just moved, is bare
    ("shatranj", "4k3/8/8/8/8/8/8/R3K2R b - - 0 1"),    # Black is bare and cannot bare White at once
    ("shatranj", "4k3/8/8/8/8/8/3R4/4K3 b - - 0 1"),    # Black is bare but may take the rook: not over
    ("shatranj", "4k3/8/8/8/8/8/8/4K3 w - - 0 1"),      # both bare: Fairy-Stockfish plays on
])
def test_no_moves_once_the_game_is_over(name, fen):
    pos = from_fen(builtin(name), fen)
    mine = {move_text(pos, m) for m in pos.legal_moves()}
    assert mine == set(sf.legal_moves(name, fen, []))
    assert (not mine) == sf.is_immediate_game_end(name, fen, [])[0]
