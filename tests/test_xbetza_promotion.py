"""Promotion in the move generator: promoChoice limits (``!``, rank counts) and shogi style
promotion by promoOffset (optional, on entering the zone, on captures there, or on any move
touching the zone where there are hands)."""

from __future__ import annotations

import warnings

from morphchess import load
from morphchess.notation import from_fen


def choices(text: str, fen: str, letters: str = "PS") -> set[tuple[str, str]]:
    """{(from-to, letter after)} of the moves of the pieces named by ``letters``."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        v = load(text, "promo")
    pos = from_fen(v, fen)
    t = pos.t
    return {(v.square_name(m.origin) + v.square_name(m.target), t.letter[m.piece])
            for m in pos.legal_moves() if t.letter[pos.board[m.origin]] in letters}


CHESS = """files=6 ranks=6 promoZone=3 promoChoice=QR2!N
pawn:P:fmW:pawn:a2
knight:N:N:knight:
rook:R:R:rook:
queen:Q:Q:queen:
king:K:K:king:f1
"""


def test_promo_choice_limits_by_rank():
    # promotion is forced in the whole zone, as the ID makes it (docs/rules.md): no ("a3a4", "P")
    assert choices(CHESS, "5k/6/6/P5/6/5K w - - 0 1") == {("a3a4", "Q"), ("a3a4", "N")}
    assert choices(CHESS, "5k/6/P5/6/6/5K w - - 0 1") == {("a4a5", x) for x in "QRN"}
    assert choices(CHESS, "5k/P5/6/6/6/5K w - - 0 1") == {("a5a6", "Q"), ("a5a6", "R")}  # forced, no N


SHOGI = """files=5 ranks=5 promoZone=2 promoOffset=2 maxPromote=2 promoChoice=+{extra}
pawn:P:fW:pawn:a2
silver:S:FfW:silver:b1
tokin:T:WfF:tokin:
promoted silver:U:WfF:u:
king:K:K:king:e1
"""


def test_offset_promotion_on_entering_the_zone():
    got = choices(SHOGI.format(extra=""), "4k/5/P4/5/4K w - - 0 1")
    assert got == {("a3a4", "P"), ("a3a4", "T")}


def test_offset_promotion_inside_the_zone_only_with_a_capture():
    got = choices(SHOGI.format(extra=""), "4k/1S3/p4/5/4K w - - 0 1")
    assert got == {("b4a5", "S"), ("b4b5", "S"), ("b4c5", "S"), ("b4c3", "S"), ("b4a3", "S"), ("b4a3", "U")}


def test_offset_promotion_with_hands_on_every_move_touching_the_zone():
    got = choices(SHOGI.format(extra=" holdingsType=-1"), "4k/1S3/5/5/4K w - - 0 1")
    assert got == {(m, x) for m in ("b4a5", "b4b5", "b4c5", "b4a3", "b4c3") for x in "SU"}


def test_offset_promotion_on_captures_anywhere_with_zone_zero():
    got = choices(SHOGI.format(extra="").replace("promoZone=2", "promoZone=0"), "4k/5/5/p4/P3K w - - 0 1")
    assert got == {("a1a2", "P"), ("a1a2", "T")}
    assert choices(SHOGI.format(extra="").replace("promoZone=2", "promoZone=0"), "4k/5/5/5/P3K w - - 0 1") == {
        ("a1a2", "P")}


def test_shogi_hands_take_captured_pieces_demoted_and_drop_them():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        v = load(SHOGI.format(extra=" holdingsType=-1"), "promo")
    pos = from_fen(v, "4k/5/5/1u3/1S2K w - - 0 1")
    capture = next(m for m in pos.legal_moves() if v.square_name(m.target) == "b2" and pos.t.letter[m.piece] == "S")
    pos.make(capture)
    assert pos.hands[0][2] == 1 and not any(pos.hands[1])  # the promoted silver joins White's hand as a silver
    pos.make(next(m for m in pos.legal_moves() if v.square_name(m.origin) == "e5"))
    drops = [m for m in pos.legal_moves() if m.origin == m.target and pos.t.letter[m.piece] == "S"]
    assert len(drops) == 25 - 3  # every empty square (a silver moves from each)
    pos.make(drops[0])
    assert not any(pos.hands[0])
    pos.unmake()
    assert pos.hands[0][2] == 1


GROSS = """files=6 ranks=6 promoZone=1 holdingsType=1 promoChoice=*Q*N
pawn:P:fmWfcF:pawn:a2
knight:N:N:knight:
queen:Q:Q:queen::1
king:K:K:king:f1
"""


def test_star_choices_come_from_the_hand():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        v = load(GROSS, "gross")
    pos = from_fen(v, "5k/P5/6/6/6/5K w - - 0 1")
    pos = type(pos).from_board(v, pos.board, hands=({3: 1}, {}))
    promos = [m for m in pos.legal_moves() if v.square_name(m.origin) == "a5"]
    assert [pos.t.letter[m.piece] for m in promos] == ["Q"]  # no knight in hand: no knight
    pos.make(promos[0])
    assert pos.hands[0][3] == 0
    pos.unmake()
    assert pos.hands[0][3] == 1
    empty = type(pos).from_board(v, pos.board)
    assert not [m for m in empty.legal_moves() if v.square_name(m.origin) == "a5"]  # nothing to become


def test_optional_promotion_of_a_variants_ini_offers_every_choice():
    """Fairy-Stockfish's mandatoryPawnPromotion=false: before the last rank of the zone the pawn may
    stay, or promote to any choice (the ID's forced promotion does not apply)."""
    from morphchess.loader import load as load_any
    from morphchess.notation import move_to_coord
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        v = load_any("[optional:chess]\npromotionRegionWhite = *6 *7 *8\npromotionRegionBlack = *1 *2 *3\n"
                     "mandatoryPawnPromotion = false\n", "optional")
    pos = from_fen(v, "4k3/8/8/P7/8/8/8/4K3 w - - 0 1")
    texts = {move_to_coord(pos, m) for m in pos.legal_moves() if m.origin == v.square("a5")}
    assert texts == {"a5a6", "a5a6q", "a5a6r", "a5a6b", "a5a6n"}
