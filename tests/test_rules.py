"""The rules of spec sections 2.3 and 4-7, checked on hand-made positions.

Expected values come from the spec and from counting by hand, never from
running the engine.  Squares: on 9x9 boards a1 is dark and a square is dark
iff file index + rank index is even.
"""

from __future__ import annotations

import random

import pytest

from morphchess import BLACK, WHITE, Position, builtin, load
from morphchess.notation import MoveError, from_fen, move_to_coord, parse_coord, to_fen
from morphchess.pieces import code

DEGENS = ["morphomania", "snappy-chess", "morphing-chess", "crossroads"]

# A plain 9x9 army with O3 castling and no morphs (the king's moves are the ID's default).
CASTLE9 = """
files=9 ranks=9 promoChoice=QRBN
pawn:P:ifmnDfmWfceF:pawn:a2-i2
knight:N:N:knight:b1,h1
bishop:B:B:bishop:c1,g1
rook:R:R:rook:a1,i1
queen:Q:Q:queen:d1,f1
king:K:::e1
"""


def play(pos: Position, moves: str) -> Position:
    for text in moves.split():
        pos.make(parse_coord(pos, text))
    return pos


def coords(pos: Position) -> set[str]:
    return {move_to_coord(pos, m) for m in pos.legal_moves()}


def piece(pos: Position, square: str) -> str:
    """The letter on a square ('' if empty): upper case White."""
    return pos.t.letter[pos.board[pos.variant.square(square)]]


def dark(square: str) -> bool:
    return (ord(square[0]) - 97 + int(square[1:]) - 1) % 2 == 0


def squares(files: int = 9, ranks: int = 9):
    return [f"{chr(97 + f)}{r + 1}" for r in range(ranks) for f in range(files)]


# -- section 7: the Degens games -------------------------------------------------


@pytest.mark.parametrize("name,count", [("morphomania", 17), ("snappy-chess", 18), ("morphing-chess", 35),
                                        ("crossroads", 22), ("polymorph", 32), ("chess", 20)])
def test_start_perft1(name, count):
    assert Position(builtin(name)).perft(1) == count


def test_polymorph_perft1_is_moves_plus_transformations():
    pos = Position(builtin("polymorph"))
    moves = pos.legal_moves()
    transforms = [m for m in moves if m.origin == m.target]
    assert len(transforms) == 12 and len(moves) - len(transforms) == 20


@pytest.mark.parametrize("name,move,square,letter", [
    ("crossroads", "f2f3", "f3", "Z"), ("crossroads", "e2e4", "e4", "N"), ("crossroads", "h1g3", "g3", "D"),
    ("morphomania", "b1c3", "c3", "A"), ("morphomania", "a2a3", "a3", "S"),
    ("snappy-chess", "e2e3", "e3", "Q"), ("snappy-chess", "a2a4", "a4", "P"),
    ("morphing-chess", "e2e3", "e3", "P"),
])
def test_hand_checked_morphs(name, move, square, letter):
    pos = play(Position(builtin(name)), move)
    assert piece(pos, square) == letter
    assert piece(pos, move[:2]) == ""


def test_morphing_chess_e5_makes_an_amazon():
    v = builtin("morphing-chess")
    # a White knight on c4 jumps to e5; so does a Black knight from c6; a rook (WDHWX) from e1
    # (each side keeps a pawn on the edge: a bare side would have ended the game)
    pos = from_fen(v, "4k4/p8/9/9/9/2N6/9/9/4K4 w - - 0 1")
    assert piece(play(pos, "c4e5"), "e5") == "Z"
    pos = from_fen(v, "4k4/9/9/2n6/9/9/9/8P/4K4 b - - 0 1")
    assert piece(play(pos, "c6e5"), "e5") == "z"
    pos = from_fen(v, "4k4/p8/9/9/9/9/9/9/R3K4 w - - 0 1")
    assert piece(play(pos, "a1a5"), "a5") == "P"


@pytest.mark.parametrize("name", DEGENS)
def test_degens_common_rules(name):
    """9x9, R N B Q K Q B N R where pieces start on rank 1, stalemate loses, bare king, O3."""
    v = builtin(name)
    assert (v.files, v.ranks) == (9, 9)
    assert v.stalemate_loses and v.baring is not None and not v.bare_king_immediate
    king = v.type_by_letter("K")
    assert king.royal and [(c.steps, c.sides) for c in king.moves.castlings] == [(3, (-1, 1))]
    start = Position(v)
    for sq in squares():
        p, q = piece(start, sq), piece(start, sq[0] + str(10 - int(sq[1:])))
        assert p.swapcase() == q  # Black is White mirrored
    if name != "snappy-chess":
        assert "".join(piece(start, f + "1") for f in "abcdefghi") == "RNBQKQBNR"


def _morph_letter(v, letter: str, square: str) -> str:
    """What a White piece of type ``letter`` becomes on ``square`` according to the variant."""
    t = v.type_by_letter(letter)
    target = t.morph[v.square(square)] if t.morph else None
    return v.type(target).letter if target else letter


def test_morphomania_tables():
    v = builtin("morphomania")
    for sq in squares():
        d, rank = dark(sq), int(sq[1:])
        for a in "NA":
            assert _morph_letter(v, a, sq) == ("A" if d else "N"), (a, sq)
        for a in "RC":
            assert _morph_letter(v, a, sq) == ("R" if d else "C"), (a, sq)
        for a in "QZ":
            assert _morph_letter(v, a, sq) == ("Z" if d else "Q"), (a, sq)
        for a in "BH":
            assert _morph_letter(v, a, sq) == ("B" if rank % 2 else "H"), (a, sq)
        inner = 2 <= rank <= 8
        assert _morph_letter(v, "P", sq) == ("S" if inner and d else "P"), sq
        assert _morph_letter(v, "S", sq) == ("P" if inner and not d else "S"), sq
        assert _morph_letter(v, "K", sq) == "K"
    assert [v.type(i).letter for i in v.promo_choice] == list("NBRQHACZ")
    assert v.max_promote == 2 and [t.letter for t in v.types[:2]] == ["P", "S"]


def test_snappy_tables():
    v = builtin("snappy-chess")
    rows = {3: "RHNDQDNHR", 7: "RHNDQDNHR", 5: "CAJIZIJAC"}
    assert v.type_by_letter("N").betza == "NN"
    for t in v.types:
        for sq in squares():
            want = rows.get(int(sq[1:]), "")
            expected = want[ord(sq[0]) - 97] if want and t.letter != "K" else t.letter
            assert _morph_letter(v, t.letter, sq) == expected, (t.letter, sq)
    assert [v.type(i).letter for i in v.promo_choice] == list("RQACZNHDIJ")


def test_snappy_start_has_mirrored_i9_pawn():
    start = Position(builtin("snappy-chess"))
    assert piece(start, "i9") == "p" and piece(start, "e9") == "k"
    assert "".join(piece(start, f + "1") for f in "abcdefghi") == "PPPPKPPPP"


def test_morphing_chess_tables_and_royal_kings():
    v = builtin("morphing-chess")
    rank5 = "PPACZCAPP"
    for letter in "PNBRQ":
        for sq in squares():
            expected = rank5[ord(sq[0]) - 97] if sq[1:] == "5" else letter
            assert _morph_letter(v, letter, sq) == expected
    for letter in "ACZJLMO":
        assert v.type_by_letter(letter).morph is None
    for sq in squares():
        expected = "JJLMOMLJJ"[ord(sq[0]) - 97] if sq[1:] == "5" else "K"
        assert _morph_letter(v, "K", sq) == expected
    assert all(v.type_by_letter(x).royal for x in "KJLMO")
    assert not any(v.type_by_letter(x).royal for x in "PNBRQACZ")
    assert v.promo_zone == 0


def test_morphing_chess_morphed_king_is_still_royal():
    """A king that became a royal chancellor on d5 can be checkmated and may not walk into check."""
    v = builtin("morphing-chess")
    pos = from_fen(v, "4k4/9/9/9/9/3K5/9/P8/7r1 w - - 0 1")
    play(pos, "d4d5")
    assert piece(pos, "d5") == "M" and pos.royals[WHITE] == (v.square("d5"),)
    play(pos, "h1d1")  # the rook (WDHWX) leaps four squares: it attacks d5
    assert pos.in_check()
    moves = coords(pos)
    assert "d5d4" not in moves  # still attacked (three squares from d1)
    assert {"d5d6", "d5d1"} <= moves  # out of reach, or capturing the checker along the file


def test_crossroads_tables():
    v = builtin("crossroads")
    rows = {2: "PPPPPPPPP", 8: "PPPPPPPPP", 3: "BZDZBZDZB", 7: "BZDZBZDZB",
            4: "QHZQNQZHQ", 6: "QHZQNQZHQ", 5: "LQBNRNBQL"}
    for t in v.types:
        for sq in squares():
            want = rows.get(int(sq[1:]), "")
            expected = want[ord(sq[0]) - 97] if want and t.letter != "K" else t.letter
            assert _morph_letter(v, t.letter, sq) == expected, (t.letter, sq)
    assert not v.type_by_letter("L").royal and v.type_by_letter("L").betza == "K"
    assert [v.type(i).letter for i in v.promo_choice] == list("NBRQZHDL")


def test_crossroads_only_unmoved_pawns_double_step():
    v = builtin("crossroads")
    # A pawn that reached a2 by morphing (a rook arriving there) has moved: no double step,
    # and the position text marks it as moved although a2 is a pawn's start square.
    pos = play(from_fen(v, "4k3p/9/9/9/9/9/9/9/R3K4 w - - 0 1"), "a1a2 e9e8")
    assert piece(pos, "a2") == "P"
    assert {m for m in coords(pos) if m.startswith("a2")} == {"a2a3"}
    assert to_fen(pos).split()[0].endswith("/P*8/4K4")
    assert coords(from_fen(v, to_fen(pos))) == coords(pos)
    assert {m for m in coords(Position(v)) if m.startswith("a2")} == {"a2a3", "a2a4"}


def test_crossroads_has_no_en_passant():
    v = builtin("crossroads")
    pos = from_fen(v, "rnbqkqbnr/ppppppppp/9/9/9/3p5/9/PPPPPPPPP/RNBQKQBNR w KQkq - 0 1")
    play(pos, "e2e4")  # the pawn arrives as a knight on e4
    assert "d4e3" not in coords(pos)


# -- section 2.3: morph rules --------------------------------------------------------

ASYMMETRIC = """
files=9 ranks=9
knight:N:N:knight:b1 morph=//////A........//
archbishop:A:BN:cardinal:
pawn:P:fW:pawn:i2
king:K:K:king:e1
"""


def test_black_uses_the_table_mirrored_top_to_bottom():
    v = load(ASYMMETRIC, "asym")
    assert piece(play(Position(v), "b1a3"), "a3") == "A"          # White: a3 is in the table
    assert piece(play(Position(v), "i2i3 b9a7"), "a7") == "a"     # Black: a7 mirrors a3
    pos = from_fen(v, "4k4/9/9/9/9/9/9/9/1n2K4 b - - 0 1")
    assert piece(play(pos, "b1a3"), "a3") == "n"                   # a3 is White's square only
    pos = from_fen(v, "1N2k4/9/9/9/9/9/9/9/4K4 w - - 0 1")
    assert piece(play(pos, "b9a7"), "a7") == "N"                   # a7 is Black's square only


def test_capture_morphs_and_morphed_piece_gives_check():
    """Crossroads: a knight capturing on e5 becomes a rook and checks along the file at once."""
    v = builtin("crossroads")
    pos = from_fen(v, "4k4/9/9/9/4p4/9/3N5/9/4K4 w - - 0 1")
    play(pos, "d3e5")
    assert piece(pos, "e5") == "R"
    assert pos.in_check()  # Black's king on e9 is attacked by the new rook


@pytest.mark.parametrize("king,check", [("3k5", True), ("6k2", False)])
def test_check_is_judged_with_the_new_shape(king, check):
    """Crossroads: a knight landing on e8 is a pawn there: it attacks d9 and f9, no longer g9."""
    v = builtin("crossroads")
    pos = play(from_fen(v, f"{king}/p8/9/5N3/9/9/9/9/4K4 w - - 0 1"), "f6e8")
    assert piece(pos, "e8") == "P" and pos.in_check() == check


# -- section 4: castling on 9 files ------------------------------------------------


def castle_variant():
    return load(CASTLE9, "castle9")


EMPTY_BACK = "r3k3r/9/9/9/9/9/9/9/R3K3R"


def test_castling_both_sides_and_result():
    v = castle_variant()
    assert v.type_by_letter("K").betza == "KisO3"
    pos = from_fen(v, EMPTY_BACK + " w KQkq - 0 1")
    assert {"e1b1", "e1h1"} <= coords(pos)
    assert to_fen(play(pos.copy(), "e1b1")) == "r3k3r/9/9/9/9/9/9/9/1KR5R b kq - 1 1"
    assert to_fen(play(pos.copy(), "e1h1")) == "r3k3r/9/9/9/9/9/9/9/R5RK1 b kq - 1 1"
    black = from_fen(v, EMPTY_BACK + " b KQkq - 0 1")
    assert to_fen(play(black, "e9b9")) == "1kr5r/9/9/9/9/9/9/9/R3K3R w KQ - 1 2"
    black = from_fen(v, EMPTY_BACK + " b KQkq - 0 1")
    assert to_fen(play(black, "e9h9")) == "r5rk1/9/9/9/9/9/9/9/R3K3R w KQ - 1 2"


def test_castling_unmake_restores():
    v = castle_variant()
    pos = from_fen(v, EMPTY_BACK + " w KQkq - 0 1")
    before, h = to_fen(pos), pos.hash
    for text in ("e1b1", "e1h1"):
        play(pos, text)
        pos.unmake()
        assert to_fen(pos) == before and pos.hash == h


def test_castling_from_the_start_position_after_clearing():
    v = castle_variant()
    pos = Position(v)
    play(pos, "b1c3 b9c7 d2d3 d8d6 c1e3 c9e7 d1d2 d9d7")
    assert "e1b1" in coords(pos)
    play(pos, "e1b1")
    assert piece(pos, "b1") == "K" and piece(pos, "c1") == "R" and piece(pos, "a1") == ""


def test_no_castling_after_king_moved():
    v = castle_variant()
    pos = play(from_fen(v, EMPTY_BACK + " w KQkq - 0 1"), "e1e2 e9e8 e2e1 e8e9")
    assert not {"e1b1", "e1h1"} & coords(pos)
    assert to_fen(pos).split()[2] == "-"
    again = from_fen(v, to_fen(pos))
    assert coords(again) == coords(pos)


def test_no_castling_with_moved_partner():
    v = castle_variant()
    pos = play(from_fen(v, EMPTY_BACK + " w KQkq - 0 1"), "a1a2 a9a8 a2a1 a8a9")
    assert "e1b1" not in coords(pos) and "e1h1" in coords(pos)
    assert to_fen(pos).split()[2] == "Kk"
    pos = play(from_fen(v, EMPTY_BACK + " w KQkq - 0 1"), "i1i2")
    assert to_fen(pos).split()[2] == "Qkq"


@pytest.mark.parametrize("blocker", ["b1", "c1", "d1", "f1", "g1", "h1"])
@pytest.mark.parametrize("colour", ["N", "n"])
def test_castling_needs_empty_squares_between(blocker, colour):
    v = castle_variant()
    rank1 = {"a": "R", "e": "K", "i": "R", blocker[0]: colour}
    row, empty = "", 0
    for f in "abcdefghi":
        if f in rank1:
            row += (str(empty) if empty else "") + rank1[f]
            empty = 0
        else:
            empty += 1
    row += str(empty) if empty else ""
    pos = from_fen(v, f"r3k3r/9/9/9/9/9/9/9/{row} w KQkq - 0 1")
    blocked, free = ("e1b1", "e1h1") if blocker < "e1" else ("e1h1", "e1b1")
    assert blocked not in coords(pos) and free in coords(pos)


def test_no_castling_out_of_check():
    v = castle_variant()
    pos = from_fen(v, "r3k3r/9/9/9/4r4/9/9/9/R3K3R w KQkq - 0 1")
    assert pos.in_check() and not {"e1b1", "e1h1"} & coords(pos)


@pytest.mark.parametrize("attacked,lost", [
    ("d", {"e1b1"}), ("c", {"e1b1"}), ("b", {"e1b1"}),     # passes over / lands on
    ("f", {"e1h1"}), ("g", {"e1h1"}), ("h", {"e1h1"}),
    ("a", set()), ("i", set()),                              # only the partner is attacked
])
def test_castling_through_or_into_attack(attacked, lost):
    v = castle_variant()
    # a Black rook on the file of the attacked square, rank 5
    f = ord(attacked) - 97
    rank5 = (str(f) if f else "") + "r" + (str(8 - f) if 8 - f else "")
    pos = from_fen(v, f"r3k3r/9/9/9/{rank5}/9/9/9/R3K3R w KQkq - 0 1")
    assert {"e1b1", "e1h1"} - coords(pos) == lost


def test_castling_rights_survive_fen_round_trip():
    v = castle_variant()
    for rights in ("KQkq", "Kq", "Qk", "K", "q", "-"):
        pos = from_fen(v, f"{EMPTY_BACK} w {rights} - 0 1")
        assert to_fen(pos) == f"{EMPTY_BACK} w {rights} - 0 1"
        assert ("e1h1" in coords(pos)) == ("K" in rights)
        assert ("e1b1" in coords(pos)) == ("Q" in rights)


SNAPPY_OPEN = "ppppkpppp/ppppppppp/9/9/9/9/9/PPPPPPPPP/P3K3P"


def test_snappy_castles_with_corner_pawns():
    v = builtin("snappy-chess")
    pos = from_fen(v, SNAPPY_OPEN + " w KQkq - 0 1")
    assert {"e1b1", "e1h1"} <= coords(pos)
    after = play(pos.copy(), "e1b1")
    assert piece(after, "b1") == "K" and piece(after, "c1") == "P" and piece(after, "a1") == ""
    after = play(pos.copy(), "e1h1")
    assert piece(after, "h1") == "K" and piece(after, "g1") == "P" and piece(after, "i1") == ""


def test_snappy_pawn_partner_lost_rights():
    v = builtin("snappy-chess")
    pos = from_fen(v, SNAPPY_OPEN + " w Kkq - 0 1")
    assert "e1b1" not in coords(pos) and "e1h1" in coords(pos)
    # the a1 pawn walks up a free file: the queenside right is gone for good
    pos = from_fen(v, "ppppkpppp/ppppppppp/9/9/9/9/9/1PPPPPPPP/P3K3P w KQkq - 0 1")
    play(pos, "a1a2 a8a7")
    assert "e1b1" not in coords(pos) and to_fen(pos).split()[2] == "Kkq"


def test_snappy_no_castling_at_the_start():
    v = builtin("snappy-chess")
    pos = Position(v)
    assert not {"e1b1", "e1h1"} & coords(pos)


# -- promotion -----------------------------------------------------------------------


def test_morphomania_both_pawn_types_promote():
    v = builtin("morphomania")
    pos = from_fen(v, "4k3r/P1S6/9/9/9/9/9/9/4K3R w - - 0 1")
    moves = coords(pos)
    for frm, to in (("a8", "a9"), ("c8", "c9")):
        assert {m for m in moves if m.startswith(frm + to)} == {frm + to + x for x in "nbrqhacz"}
    with pytest.raises(MoveError):
        parse_coord(pos, "a8a9")
    # The speedpawn also reaches the last rank by its capture-only triple step (fcnH).
    pos = from_fen(v, "2r1k3r/9/9/2S6/9/9/9/9/4K3R w - - 0 1")
    assert {m for m in coords(pos) if m.startswith("c6c9")} == {"c6c9" + x for x in "nbrqhacz"}
    pos = from_fen(v, "2r1k3r/2p6/9/2S6/9/9/9/9/4K3R w - - 0 1")
    assert not {m for m in coords(pos) if m.startswith("c6c9")}  # c8 blocks the lame leap


def test_promoted_piece_does_not_morph_on_that_move():
    v = builtin("morphomania")
    pos = from_fen(v, "4k3r/P8/9/9/9/9/9/9/4K3R w - - 0 1")
    assert dark("a9")
    play(pos, "a8a9q")  # a queen on a dark square becomes an amazon, but not on this move
    assert piece(pos, "a9") == "Q"
    play(pos, "e9e8 a9a7")  # its next move morphs it (a7 is dark too)
    assert dark("a7") and piece(pos, "a7") == "Z"


def test_max_promote_1_leaves_type_2_unpromoted():
    text = builtin("morphomania").text.replace("maxPromote=2", "maxPromote=1")
    v = load(text, "morphomania-1")
    pos = from_fen(v, "4k3r/P1S6/9/9/9/9/9/9/4K3R w - - 0 1")
    moves = coords(pos)
    assert {m for m in moves if m.startswith("c8")} == {"c8c9"}
    assert len({m for m in moves if m.startswith("a8")}) == 8


def test_promo_zone_0_never_promotes():
    v = builtin("morphing-chess")
    pos = from_fen(v, "4k3r/P8/9/9/9/9/9/9/4K3R w - - 0 1")
    assert {m for m in coords(pos) if m.startswith("a8")} == {"a8a9"}
    play(pos, "a8a9")
    assert piece(pos, "a9") == "P"
    play(pos, "i9h9")
    assert not {m for m in coords(pos) if m.startswith("a9")}


def test_chess_promotion_choices_and_text():
    v = builtin("chess")
    pos = from_fen(v, "4k3/P7/8/8/8/8/8/4K3 w - - 0 1")
    assert {m for m in coords(pos) if m.startswith("a7")} == {"a7a8q", "a7a8r", "a7a8b", "a7a8n"}
    play(pos, "a7a8n")
    assert piece(pos, "a8") == "N"
    assert to_fen(pos) == "N3k3/8/8/8/8/8/8/4K3 b - - 0 1"


# -- section 5: winning, losing, drawing ------------------------------------------------


def test_bare_king_loses_when_it_cannot_capture():
    v = builtin("crossroads")
    pos = from_fen(v, "4k4/9/9/9/9/9/9/9/R3K4 b - - 0 1")
    out = pos.outcome()
    assert out is not None and out.termination == "bare king" and out.winner == WHITE
    assert pos.perft(1) == 5  # perft ignores the rule: the bare king still has its moves


def test_bare_king_capturing_the_last_piece_draws():
    v = builtin("crossroads")
    pos = from_fen(v, "4k4/3R5/9/9/9/9/9/9/4K4 b - - 0 1")
    assert pos.outcome() is None
    play(pos, "e9d8")
    out = pos.outcome()
    assert out is not None and out.winner is None and out.termination == "bare king"


def test_bare_king_against_two_pieces_loses_at_once():
    v = builtin("crossroads")
    pos = from_fen(v, "4k4/3R5/9/9/9/9/9/9/R3K4 b - - 0 1")
    out = pos.outcome()
    assert out is not None and out.winner == WHITE


def test_bare_king_immediate_option():
    v = load(builtin("crossroads").text + "\nbareKing=immediate", "crossroads-immediate")
    assert v.bare_king_immediate
    pos = from_fen(v, "4k4/3R5/9/9/9/9/9/9/4K4 b - - 0 1")
    out = pos.outcome()
    assert out is not None and out.termination == "bare king" and out.winner == WHITE


def test_morphed_royal_is_not_material():
    """Morphing Chess: a side with only its king (now a royal pawn J) is bare."""
    v = builtin("morphing-chess")
    pos = from_fen(v, "r3k4/9/9/9/9/9/9/9/4J4 w - - 0 1")
    assert pos.royals[WHITE] == (v.square("e1"),)
    out = pos.outcome()
    assert out.termination == "bare king" and out.winner == BLACK


def test_no_bare_king_rule_in_chess():
    pos = from_fen(builtin("chess"), "4k3/8/8/8/8/8/8/R3K3 b - - 0 1")
    assert pos.outcome() is None


# Black: king a9 boxed in by the queen (a queen in every Degens game, WFDA in Morphing
# Chess), and a pawn on its last rank that cannot move (no game reaches it, so position text
# refuses it: the pawn is put there by code).
STALEMATE9 = "k8/9/1Q7/9/9/9/9/9/4K4 b - - 0 1"


def stalemate9(v) -> Position:
    board = list(from_fen(v, STALEMATE9).board)
    board[8] = code(v.type_by_letter("P").index, BLACK)  # i1
    return Position.from_board(v, board, BLACK)


@pytest.mark.parametrize("name", DEGENS)
def test_stalemated_side_loses(name):
    pos = stalemate9(builtin(name))
    assert not pos.legal_moves() and not pos.in_check()
    out = pos.outcome()
    assert out is not None and out.termination == "stalemate" and out.winner == WHITE


def test_stalemate_draws_by_default():
    v = load(CASTLE9, "castle9")
    pos = stalemate9(v)
    out = pos.outcome()
    assert not v.stalemate_loses and out.termination == "stalemate" and out.winner is None
    chess_pos = from_fen(builtin("chess"), "k7/8/1Q6/8/8/8/8/4K3 b - - 0 1")
    assert chess_pos.outcome().winner is None


def test_checkmate():
    v = builtin("chess")
    pos = play(Position(v), "f2f3 e7e5 g2g4 d8h4")
    out = pos.outcome()
    assert out.termination == "checkmate" and out.winner == BLACK and out.result() == "0-1"


def test_fifty_move_rule_and_switch():
    v = builtin("chess")
    pos = from_fen(v, "4k3/8/8/8/8/8/8/R3K3 w - - 99 80")
    assert pos.outcome() is None
    play(pos, "a1a2")
    assert pos.outcome().termination == "fifty moves"
    off = load(v.text + "\nfiftyMoves=0", "chess-no-50")
    pos = from_fen(off, "4k3/8/8/8/8/8/8/R3K3 w - - 120 80")
    assert pos.outcome() is None


def test_threefold_repetition():
    v = builtin("chess")
    pos = Position(v)
    play(pos, "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1")
    assert pos.outcome() is None
    play(pos, "f6g8")
    assert pos.outcome().termination == "repetition"
    off = load(v.text + "\nrepetitions=0", "chess-no-rep")
    pos = play(Position(off), "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8")
    assert pos.outcome() is None


def test_repetition_after_a_double_step():
    """FIDE (and python-chess): the en-passant square only counts when a capture is possible."""
    v = builtin("chess")
    pos = play(Position(v), "e2e4 e7e5 g1f3 b8c6 f3g1 c6b8 g1f3 b8c6 f3g1 c6b8")
    assert pos.repetitions() == 3
    assert pos.outcome().termination == "repetition"


def test_insufficient_material_kings_only():
    pos = from_fen(builtin("chess"), "4k3/8/8/8/8/8/8/4K3 w - - 0 1")
    assert pos.outcome().termination == "insufficient material"


# -- en passant ----------------------------------------------------------------------------


def test_en_passant_on_9_files():
    v = castle_variant()
    pos = from_fen(v, "4k4/3p5/9/4P4/9/9/9/9/4K4 b - - 0 1")
    play(pos, "d8d6")
    assert to_fen(pos).split()[3] == "d7"
    assert "e6d7" in coords(pos)
    play(pos, "e6d7")
    assert piece(pos, "d6") == "" and piece(pos, "d7") == "P"
    pos.unmake()
    assert piece(pos, "d6") == "p" and piece(pos, "e6") == "P"
    # the right lasts one move only
    play(pos, "e1e2 e9e8")
    assert "e6d7" not in coords(pos)


def test_no_en_passant_without_e():
    """Morphomania's lame pawns have no en passant and leave no en-passant square."""
    v = builtin("morphomania")
    pos = from_fen(v, "4k4/9/9/9/9/9/9/4P4/4K4 w - - 0 1")
    assert "e2e4" not in coords(pos)  # fWfcnD: no double step, only a capture two ahead
    pos = play(Position(v), "b2b4")   # the speedpawn's two-step
    assert to_fen(pos).split()[3] == "-"


# -- section 6 and FEN round trips -------------------------------------------------------


@pytest.mark.parametrize("name,setup", [(n, "standard") for n in ["chess", *DEGENS]] + [
    ("polymorph", s) for s in ("standard", "knights", "bishops", "hybrids")])
def test_fen_round_trip_random_games(name, setup):
    """to_fen(from_fen(x)) == x along random games; the read-back position plays the same moves."""
    v = builtin(name)
    rng = random.Random(f"{name}/{setup}")
    for _game in range(4):
        pos = Position(v, setup)
        start_fen, start_hash = to_fen(pos), pos.hash
        plies = 0
        for _ply in range(rng.randrange(30, 90)):
            text = to_fen(pos)
            again = from_fen(v, text)
            assert to_fen(again) == text
            # pieces whose moved-state cannot matter (a knight back home) may read back either way
            assert again.hash == pos.hash, text
            legal = pos.legal_moves()
            assert sorted(map(str, again.legal_moves())) == sorted(map(str, legal)), text
            if not legal or pos.outcome(legal) is not None:
                break
            pos.make(rng.choice(legal))
            plies += 1
        for _ in range(plies):
            pos.unmake()
        assert to_fen(pos) == start_fen and pos.hash == start_hash


@pytest.mark.parametrize("name", ["chess", *DEGENS, "polymorph"])
def test_hash_matches_a_fresh_computation(name):
    v = builtin(name)
    rng = random.Random(name)
    pos = Position(v)
    for _ in range(60):
        legal = pos.legal_moves()
        if not legal:
            break
        pos.make(rng.choice(legal))
        fresh = pos.copy()
        fresh.refresh()
        assert fresh.hash == pos.hash, to_fen(pos)


def test_fen_examples_from_the_spec_forms():
    v = builtin("chess")
    pos = from_fen(v, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1")
    assert "d7d5" in coords(pos)
    assert to_fen(from_fen(v, "8/8/8/8/8/8/8/K6k w - - 0 1")) == "8/8/8/8/8/8/8/K6k w - - 0 1"
    # fields may be left off: side, castling, en passant and counters have defaults
    assert to_fen(from_fen(v, "4k3/8/8/8/8/8/8/4K3")) == "4k3/8/8/8/8/8/8/4K3 w - - 0 1"


def test_fen_with_empty_partner_square():
    v = builtin("chess")
    fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w Qkq - 0 1"
    assert to_fen(from_fen(v, fen)) == fen


def test_fen_of_unmoved_king_with_moved_partners():
    """King never moved, both rooks moved and came back: no castling, also after reading the text."""
    v = builtin("chess")
    pos = play(Position(v), "a2a4 a7a6 a1a3 a6a5 a3a1 b7b6 h2h4 b6b5 h1h3 c7c6 h3h1 c6c5")
    assert not {"e1g1", "e1c1"} & coords(pos)
    again = from_fen(v, to_fen(pos))
    assert to_fen(again) == to_fen(pos)
    assert not {"e1g1", "e1c1"} & coords(again)


# -- an independent, deliberately naive generator -------------------------------------------
#
# Written from the spec alone (no move tables, no make/unmake): it copies the board for every
# move and finds attacks by generating the opponent's captures.  Only the XBetza vectors come
# from morphchess (betza.parse, checked on its own in test_betza.py).


class Naive:
    """Board: {square name: (letter, virgin)}; the letter is upper case for White."""

    def __init__(self, v, board: dict, turn: int, ep=None):
        self.v, self.board, self.turn, self.ep = v, board, turn, ep
        self.has_ep = any(s.ep for t in v.types for s in t.moves.steps)

    @classmethod
    def of(cls, pos: Position) -> Naive:
        v, t = pos.variant, pos.t
        board = {v.square_name(sq): (t.letter[p], bool(p & 2)) for sq, p in enumerate(pos.board) if p}
        ep = None
        if pos.ep:
            ep = ([v.square_name(s) for s in pos.ep[0]], v.square_name(pos.ep[1]))
        return cls(v, board, pos.turn, ep)

    # geometry
    def at(self, f: int, r: int):
        return self.board.get(f"{chr(97 + f)}{r + 1}")

    def on(self, f: int, r: int) -> bool:
        return 0 <= f < self.v.files and 0 <= r < self.v.ranks

    @staticmethod
    def colour(letter: str) -> int:
        return WHITE if letter.isupper() else BLACK

    def type(self, letter: str):
        return self.v.type_by_letter(letter)

    def lame_path(self, dx: int, dy: int) -> list[tuple[int, int]]:
        if dx and dy and abs(dx) != abs(dy):  # knight-like: the orthogonal square next to the start
            return [((dx > 0) - (dx < 0), 0)] if abs(dx) > abs(dy) else [(0, (dy > 0) - (dy < 0))]
        n = max(abs(dx), abs(dy))
        return [(dx // n * k, dy // n * k) for k in range(1, n)]

    def targets(self, f0: int, r0: int, letter: str, virgin: bool):
        """(f, r, kind) the piece can reach: kind 'm' move, 'c' capture, 'e' en passant, 'd' double step."""
        us = self.colour(letter)
        sign = 1 if us == WHITE else -1
        for s in self.type(letter).moves.steps:
            if s.initial and not virgin:
                continue
            dx, dy = s.dx * sign, s.dy * sign
            limit = 99 if s.rng == 0 else s.rng
            for k in range(1, limit + 1):
                f, r = f0 + k * dx, r0 + k * dy
                if not self.on(f, r):
                    break
                if s.lame and s.rng == 1 and any(self.at(f0 + a, r0 + b) for a, b in self.lame_path(dx, dy)):
                    break
                occupant = self.at(f, r)
                name = f"{chr(97 + f)}{r + 1}"
                if occupant is None:
                    if s.ep and self.ep and name in self.ep[0]:
                        yield f, r, "e"
                    elif s.move:
                        yield f, r, ("d" if s.initial and s.lame and not s.capture and self.has_ep else "m")
                else:
                    if s.capture and self.colour(occupant[0]) != us:
                        yield f, r, "c"
                    break

    def attacked(self, square: str, by: int) -> bool:
        for sq, (letter, virgin) in self.board.items():
            if self.colour(letter) == by:
                f0, r0 = ord(sq[0]) - 97, int(sq[1:]) - 1
                for f, r, kind in self.targets(f0, r0, letter, virgin):
                    if kind == "c" and f"{chr(97 + f)}{r + 1}" == square:
                        return True
        return False

    def in_check(self, colour: int) -> bool:
        return any(self.attacked(sq, colour ^ 1) for sq, (x, _) in self.board.items()
                   if self.colour(x) == colour and self.type(x).royal)

    def becomes(self, letter: str, square: str) -> str:
        t = self.type(letter)
        f, r = ord(square[0]) - 97, int(square[1:]) - 1
        if t.morph is None:
            return letter
        look = r if self.colour(letter) == WHITE else self.v.ranks - 1 - r
        target = t.morph[look * self.v.files + f]
        new = self.v.type(target).letter if target else t.letter
        return new if letter.isupper() else new.lower()

    def results(self, letter: str, square: str) -> list[str]:
        """The letters the piece may have after arriving on ``square`` (several on promotion)."""
        v, t = self.v, self.type(letter)
        r = int(square[1:]) - 1
        depth = v.ranks - 1 - r if letter.isupper() else r
        if v.promo_zone and t.index <= v.max_promote and v.promo_choice and depth < v.promo_zone:
            choices = [v.type(i).letter for i in v.promo_choice]
            choices = [c if letter.isupper() else c.lower() for c in choices]
            return choices if depth == 0 else sorted({self.becomes(letter, square), *choices})
        return [self.becomes(letter, square)]

    def child(self, changes: dict, ep=None) -> Naive:
        board = dict(self.board)
        for sq, value in changes.items():
            if value is None:
                board.pop(sq, None)
            else:
                board[sq] = value
        return Naive(self.v, board, self.turn ^ 1, ep)

    def legal(self) -> dict:
        """{(from, to, letter after the move): resulting Naive position} of the side to move."""
        out = {}
        us = self.turn
        for sq, (letter, virgin) in list(self.board.items()):
            if self.colour(letter) != us:
                continue
            f0, r0 = ord(sq[0]) - 97, int(sq[1:]) - 1
            for f, r, kind in self.targets(f0, r0, letter, virgin):
                to = f"{chr(97 + f)}{r + 1}"
                for new in self.results(letter, to):
                    changes = {sq: None, to: (new, False)}
                    ep = None
                    if kind == "e":
                        changes[self.ep[1]] = None
                    if kind == "d":
                        step = (r - r0) // abs(r - r0) if r != r0 else 0
                        side = (f - f0) // abs(f - f0) if f != f0 else 0
                        n = max(abs(f - f0), abs(r - r0))
                        ep = ([f"{chr(97 + f0 + side * k)}{r0 + step * k + 1}" for k in range(1, n)], to)
                    out[(sq, to, new)] = self.child(changes, ep)
            t = self.type(letter)
            for group in self.v.transforms:
                if t.index in group:
                    for other in group:
                        if other != t.index:
                            new = self.v.type(other).letter
                            new = new if letter.isupper() else new.lower()
                            out[(sq, sq, new)] = self.child({sq: (new, False)})
            if virgin and t.moves.castlings and not self.in_check(us):
                for c in t.moves.castlings:
                    for side in c.sides:
                        self._castle(sq, letter, c.steps, side, out)
        return {k: p for k, p in out.items() if not p.in_check(us)}

    def _castle(self, sq: str, letter: str, steps: int, side: int, out: dict) -> None:
        f0, r0 = ord(sq[0]) - 97, int(sq[1:]) - 1
        edge = 0 if side < 0 else self.v.files - 1
        partner = self.at(edge, r0)
        if abs(edge - f0) <= steps or partner is None or not partner[1] \
                or self.colour(partner[0]) != self.colour(letter):
            return
        if any(self.at(f, r0) for f in range(min(f0, edge) + 1, max(f0, edge))):
            return
        name = lambda f: f"{chr(97 + f)}{r0 + 1}"  # noqa: E731
        for k in range(1, steps):  # the squares passed over: the king standing there is not attacked
            if self.child({sq: None, name(f0 + side * k): (letter, False)}).in_check(self.turn):
                return  # (the landing square is judged with the rest of the move's legality)
        to = name(f0 + side * steps)
        out[(sq, to, self.becomes(letter, to))] = self.child(
            {sq: None, name(edge): None, to: (self.becomes(letter, to), False),
             name(f0 + side * (steps - 1)): (partner[0], False)})


def engine_moves(pos: Position) -> dict:
    v, t = pos.variant, pos.t
    return {(v.square_name(m.origin), v.square_name(m.target), t.letter[m.piece]): m for m in pos.legal_moves()}


def engine_board(pos: Position) -> dict:
    return {pos.variant.square_name(sq): pos.t.letter[p] for sq, p in enumerate(pos.board) if p}


# Start positions with the back ranks cleared, so that random games castle now and then.
OPEN = {
    "morphomania": "r3k3r/pspspspsp/9/9/9/9/9/PSPSPSPSP/R3K3R w KQkq - 0 1",
    "snappy-chess": "p3k3p/ppppppppp/9/9/9/9/9/PPPPPPPPP/P3K3P w KQkq - 0 1",
    "morphing-chess": "r3k3r/ppppppppp/9/9/9/9/9/PPPPPPPPP/R3K3R w KQkq - 0 1",
    "crossroads": "r3k3r/ppppppppp/9/9/9/9/9/PPPPPPPPP/R3K3R w KQkq - 0 1",
    "polymorph": "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1",
}


@pytest.mark.slow
@pytest.mark.parametrize("name,start", [(n, "standard") for n in DEGENS] + [
    ("polymorph", "hybrids"), ("chess", "standard")] + list(OPEN.items()))
def test_random_games_against_the_naive_generator(name, start):
    """Legal moves (with the piece each move leaves) and the boards they lead to agree."""
    v = builtin(name)
    rng = random.Random(f"naive/{name}/{start}")
    for _game in range(2):
        pos = Position(v, start) if start in v.setups else from_fen(v, start)
        for _ply in range(rng.randrange(40, 100)):
            naive = Naive.of(pos)
            mine = engine_moves(pos)
            ref = naive.legal()
            assert set(mine) == set(ref), (to_fen(pos), sorted(set(mine) ^ set(ref)))
            if not mine:
                break
            key = rng.choice(sorted(mine))
            pos.make(mine[key])
            assert engine_board(pos) == {sq: x for sq, (x, _) in ref[key].board.items()}, (to_fen(pos), key)


# -- more rules and bad input ------------------------------------------------------------


def test_halfmove_clock():
    """Reset by captures, pawn moves, promotions and morphs; not by a Polymorph transformation."""
    halfmove = lambda pos: int(to_fen(pos).split()[4])  # noqa: E731
    assert halfmove(play(Position(builtin("chess")), "g1f3")) == 1
    assert halfmove(play(Position(builtin("morphomania")), "b1c3")) == 0  # the knight morphed
    pos = from_fen(builtin("morphomania"), "4k4/p8/9/9/9/9/9/9/R3K4 w - - 7 9")
    assert halfmove(play(pos, "a1a3")) == 8  # a3 is dark: the rook stays a rook
    pos = from_fen(builtin("morphomania"), "4k4/p8/9/9/9/9/9/9/R3K4 w - - 7 9")
    assert halfmove(play(pos, "a1a2")) == 0  # a2 is light: a chancellor now
    assert halfmove(play(Position(builtin("polymorph")), "b1b1b")) == 1


PROMO_EQUALS_MORPH = """
files=8 ranks=8 promoChoice=QN
pawn:P:fW:pawn:a2 morph=QQQQQQQQ///////
queen:Q:Q:queen:
knight:N:N:knight:
king:K:K:king:e1
"""


def test_promotion_choice_that_equals_the_morph_is_still_written():
    v = load(PROMO_EQUALS_MORPH, "pm")
    pos = from_fen(v, "4k3/P7/8/8/8/8/8/4K3 w - - 0 1")
    assert {m for m in coords(pos) if m.startswith("a7")} == {"a7a8q", "a7a8n"}
    assert piece(play(pos, "a7a8q"), "a8") == "Q"


def test_castling_and_transformation_text():
    pos = from_fen(builtin("chess"), "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1")
    assert {"e1g1", "e1c1"} <= coords(pos)
    poly = Position(builtin("polymorph"))
    assert {"b1b1b", "b1b1a", "b1b1g", "c1c1n", "c1c1a", "c1c1g"} <= coords(poly)
    play(poly, "c1c1n")
    assert piece(poly, "c1") == "N" and to_fen(poly).startswith("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNNQKBNR b")


@pytest.mark.parametrize("text,words", [
    ("", ["''"]), ("e2", ["'e2'"]), ("e2e4 e7e5", ["'e2e4 e7e5'"]), ("e2e9", ["e9", "off"]),
    ("i2i4", ["i2", "off"]), ("e2e5", ["illegal", "'e2e5'"]), ("e2e4q", ["'q'"]), ("e2e4e4", ["'e2e4e4'"]),
])
def test_bad_move_text(text, words):
    with pytest.raises(MoveError) as e:
        parse_coord(Position(builtin("chess")), text)
    for w in words:
        assert w in str(e.value)


def test_promotion_needs_a_valid_letter():
    pos = from_fen(builtin("chess"), "4k3/P7/8/8/8/8/8/4K3 w - - 0 1")
    with pytest.raises(MoveError, match="b, n, q, r"):
        parse_coord(pos, "a7a8")
    for bad in ("a7a8k", "a7a8p", "a7a8x"):
        with pytest.raises(MoveError):
            parse_coord(pos, bad)
    assert move_to_coord(pos, parse_coord(pos, "A7A8Q")) == "a7a8q"


START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"


@pytest.mark.parametrize("fen,words", [
    ("", ["empty"]),
    ("8/8/8", ["3 ranks"]),
    (START + "/8 w KQkq - 0 1", ["9 ranks"]),
    ("rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", ["rank 6", "9 files"]),
    ("rnbqkbnr/pppppppp/7/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", ["rank 6", "7 files"]),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1", ["'X'", "rank 1"]),
    (START + " x KQkq - 0 1", ["'x'"]),
    (START + " w KQkZ - 0 1", ["'Z'"]),
    (START + " w KQkq z9 0 1", ["z9"]),
    (START + " w KQkq e3 0 1", ["e3"]),
    (START + " w KQkq - x 1", ["'x'"]),
    (START + " w KQkq - -1 1", ["halfmove"]),
    (START + " w KQkq - 0 0", ["move number"]),
    (START + " w KQkq - 0 1 extra", ["7 fields"]),
    ("4k3/8/8/8/8/8/4Q3/4K3 w - - 0 1", ["in check"]),
])
def test_bad_fen(fen, words):
    from morphchess.notation import FenError
    with pytest.raises(FenError) as e:
        from_fen(builtin("chess"), fen)
    for w in words:
        assert w in str(e.value), (w, str(e.value))


def test_bad_fen_on_a_9x9_board():
    from morphchess.notation import FenError
    v = builtin("crossroads")
    with pytest.raises(FenError, match="8 files"):
        from_fen(v, "rnbqkqbnr/ppppppppp/9/9/9/9/9/PPPPPPPPP/RNBQKQBN w - - 0 1")
    with pytest.raises(FenError, match="'S'"):
        from_fen(v, "rnbqkqbnr/ppppppppp/9/9/9/9/9/PPPPPPPPP/RNBQKQBNS w - - 0 1")


@pytest.mark.parametrize("name,fen,shield", [
    # Morphomania: the Black pawn's capture two ahead (fcnD) over e6, the speedpawn's three ahead (fcnH)
    ("morphomania", "4k4/9/4p4/4N4/4K4/9/9/9/R8 w - - 0 1", "e6"),
    ("morphomania", "4k4/4s4/4N4/9/4K4/9/9/9/R8 w - - 0 1", "e7"),
    ("morphomania", "4k4/4s4/9/4N4/4K4/9/9/9/R8 w - - 0 1", "e6"),
    # Morphing Chess: the knight's second step (N2) from a3 through c4 to e5
    ("morphing-chess", "4k4/9/9/9/4K4/2B6/n8/9/9 w - - 0 1", "c4"),
])
def test_pins_by_lame_and_range_limited_pieces(name, fen, shield):
    """The piece standing on the blocking square of a lame leap or a range-2 ride may not leave."""
    pos = from_fen(builtin(name), fen)
    assert not pos.in_check()
    assert not {m for m in coords(pos) if m.startswith(shield)}
    pos.board[pos.variant.square(shield)] = 0
    pos.refresh()
    assert pos.in_check()  # without the shield the king is attacked
