"""Hostile definitions and command lines (issue 19): each is refused at once with one line that names
the key, the piece or the line, before the loader does anything per square or per leg.

Every case ran for seconds to minutes, grew memory by gigabytes, hit the recursion limit or loaded
nonsense before these limits (docs/definitions.md, "Limits").  Each test runs under a time bound of
its own, so a regression shows as a failure, not as a stalled suite.
"""

from __future__ import annotations

import gc
import time
import tracemalloc

import pytest

from morphchess import Board, Position, VariantError, load
from morphchess.cli import main

KING = "\nking:K:K::e1"
QUICK = 1.0  # CPU seconds a refusal may take at most (each takes milliseconds)
SMALL = 20 * 2**20  # bytes it may allocate at most on the way


def refused(text: str, *words: str) -> str:
    """Load ``text``, which must be refused quickly, in little memory, with one line holding ``words``."""
    # CPU seconds of this thread, the collector off: neither threads other tests left running nor a
    # collection of their garbage counts
    gc.collect()
    gc.disable()
    try:
        start = time.thread_time()
        with pytest.raises(VariantError) as e:
            load(text, "hostile")
        assert time.thread_time() - start < QUICK
    finally:
        gc.enable()
    tracemalloc.start()
    try:
        with pytest.raises(VariantError):
            load(text, "hostile")
        _size, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < SMALL
    message = str(e.value)
    assert "\n" not in message and len(message) < 300
    for w in words:
        assert w in message, (w, message)
    return message


@pytest.mark.parametrize("ranks", ["1000000000", "1" + "0" * 200, "100", "0", "٨", "-3"])
def test_board_size_out_of_range_names_the_key(ranks):
    refused(f"files=26 ranks={ranks}\npawn::::a2-h2" + KING, "ranks=", "from 1 to 99")


def test_files_past_z_are_refused():
    refused("files=27 ranks=8\npawn::::a2-h2" + KING, "files=27", "from 1 to 26")


def test_largest_board_loads_and_plays():
    v = load("files=26 ranks=99\npawn::::a2-z2\nrook:R:R::a1,z1" + KING, "huge")
    # 26 pawns step once or twice, the rooks reach b1-d1 and f1-y1, the king d1 and f1 (hand-counted)
    assert len(Position(v).legal_moves()) == 2 * 26 + 3 + 20 + 2


@pytest.mark.parametrize("count", [30, 1000])
def test_long_multi_leg_moves_are_refused_before_any_walk(count):
    # 'mafs' thirty times: 31 legs, about 4 * 2**30 walks from one square (the walker never finished);
    # a thousand times: over Python's recursion limit in the walker
    refused("lion:L:" + "mafs" * count + "W::d1" + KING, "piece 'lion'", "XBetza")


def test_walks_over_the_bound_are_refused_naming_the_piece():
    # 'mafsmafsR', a rook that bends twice: 4*25 * 2*25 * 2*25 = 250000 walks from one square of 26x26
    message = refused("files=26 ranks=26\nhook:H:mafsmafsR::d1" + KING, "piece 'hook'", "250000")
    assert "26x26" in message
    assert load("files=8 ranks=8\nhook:H:mafsmafsR::d1" + KING)  # 4*7 * 2*7 * 2*7 = 5488 on 8x8


def test_universal_leapers_beyond_the_table_bound_are_refused():
    # 40 types of universal leaper on 26x26: 40 * 2600 * 676 squares of move tables
    lines = "".join(f"\nu{i}:{chr(65 + i % 26) if i < 26 else '+' + chr(65 + i % 26)}:U::" for i in range(40))
    refused("files=26 ranks=26" + lines + "\nking:K:K::e1", "move tables", "26x26")


def test_long_xbetza_text_is_refused():
    refused("u:U:" + "U" * 3000 + "::a1" + KING, "piece 'u'", "3000 characters")


@pytest.mark.parametrize("count", ["10000000", "100000000000000000000", "65", "1,65"])
def test_hand_counts_are_bounded_by_the_squares(count):
    refused(f"pawn::::a2-h2:{count}" + KING, "piece 'pawn'", "holdings")


def test_hand_count_of_the_whole_board_loads():
    v = load("pawn::::a2-h2:64" + KING)
    assert dict(v.holdings[0]) == {1: 64}


def test_promotion_zone_deeper_than_the_board_is_refused():
    refused("promoZone=9\npawn::::a2-h2\nqueen:Q:Q::d1" + KING, "promoZone=9", "0 to 8")


@pytest.mark.parametrize("key", ["fiftyMoves=1" + "0" * 5000, "repetitions=101", "enPassant=7", "holdingsType=-3",
                                 "promoOffset=9", "maxPromote=+1"])
def test_every_count_has_a_range(key):
    refused(key + "\npawn::::a2-h2" + KING, key.split("=")[0] + "=")


def test_shuffle_seed_of_5000_digits_is_refused():
    v = load("shuffle=NB\nknight:N:N::b1,g1\nbishop:B:B::c1,f1" + KING)
    with pytest.raises(VariantError, match="at most 18 digits"):
        Board(v, setup="shuffle-" + "9" * 5000)
    with pytest.raises(VariantError, match="at most 18 digits"):
        Board(v, setup="shuffle-٧")  # an Arabic-Indic seven
    placed = Board(v, setup="shuffle-" + "9" * 18).position.board  # the longest seed still shuffles
    assert sorted(placed) == sorted(Board(v).position.board)


@pytest.mark.parametrize("char", ["\x00", "\x07", "\x1b", "\u202e", "\x9b"])
def test_control_characters_in_a_piece_name_are_refused(char):
    refused(f"files=8 ranks=8\npa{char}wn:P:fW::a2-h2" + KING, "line 2", f"U+{ord(char):04X}")


def test_a_seventh_field_loads_with_a_warning_naming_the_piece():
    with pytest.warns(UserWarning, match=r"piece 'pawn': 1 field\(s\) after the sixth \('extra'\) ignored"):
        v = load("pawn::::a2-h2:0:extra" + KING)
    assert [t.name for t in v.types] == ["pawn", "king"]


def test_square_ranges_cannot_name_more_squares_than_the_board():
    refused("files=26 ranks=99\npawn::::" + ",".join(["a1-z99"] * 3000) + KING, "piece 'pawn'", "more squares")


def test_more_piece_types_than_ids_are_refused_before_they_are_built():
    lines = "".join(f"\np{i}:A:W::" for i in range(60))
    refused(lines + KING, "more than 52 piece types")


# -- the command line: exit status 2 and one line ---------------------------------------------------
@pytest.mark.parametrize("rank", ["08", "٨", "８", "0008", "1" * 5000])
def test_fen_ranks_take_only_ascii_counts_without_leading_zeros(capsys, rank):
    fen = f"rnbqkbnr/pppppppp/{rank}/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    assert main(["perft", "chess", "1", "--fen", fen]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "rank 6" in err


def test_empty_moves_option_is_refused(capsys):
    assert main(["perft", "chess", "1", "--moves", ""]) == 2
    assert capsys.readouterr().err.strip() == ("morphchess: error: --moves is empty: give coordinate moves, "
                                               "or leave --moves out")


@pytest.mark.parametrize("text", ["files=26 ranks=1000000000\npawn::::a2-h2\nking:K:K::e1",
                                  "lion:L:" + "mafs" * 1000 + "W::d1\nking:K:K::e1",
                                  "pawn::::a2-h2:100000000000000000000\nking:K:K::e1",
                                  "promoZone=9\npawn::::a2-h2\nking:K:K::e1",
                                  "pa\x00wn:P:fW::a2-h2\nking:K:K::e1"])
def test_hostile_definition_files_exit_2_with_one_line(capsys, tmp_path, text):
    path = tmp_path / "hostile.txt"
    path.write_text(text)
    start = time.thread_time()
    assert main(["perft", str(path), "1"]) == 2
    assert time.thread_time() - start < QUICK
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("morphchess: error: ")



def test_start_arrays_that_make_one_move_list_too_much_work_are_refused():
    # three pieces a side that walk five king steps: 2 * 3 * 8 * 7**4 = 115248 walks (+ the kings' 16)
    lines = "".join(f"\np{i}:{c}:mamamamaK::{c.lower()}4" for i, c in enumerate("ABC"))
    refused("files=8 ranks=8" + lines + KING, "setup standard", "115264")
    v = load("files=8 ranks=8\np0:A:mamamamaK::a4" + KING)  # one a side loads
    assert Position(v).legal_moves()


def test_a_crooked_ride_with_a_huge_range_compiles_as_the_board_allows():
    # each leg of a crooked ride gains ground, so none has more than files + ranks legs on the board
    huge, plain = (load(f"crook:C:{b}::d4" + KING) for b in ("zW4000", "zW"))
    assert len(huge.tables._path_legs[(1, 0)][0][0]) == 16
    assert {m.target for m in Position(huge).legal_moves()} == {m.target for m in Position(plain).legal_moves()}


@pytest.mark.parametrize("keys", ["maxRank = 1000000000", "maxRank = " + "9" * 5000, "maxFile = 100",
                                  "maxRank = 0", "castlingRank = x", "startFen = " + "9" * 5000 + "/8/8/8/8/8/8/8 w"])
def test_hostile_variants_ini_sections_are_refused_before_the_board_is_walked(keys):
    # Fairy-Stockfish's variants.ini reaches the same loader (morphchess.loader): the board size is
    # checked before any region key walks the board, every number is ASCII and at most nine digits
    from morphchess.loader import load as load_any
    start = time.thread_time()
    with pytest.raises(VariantError) as e:
        load_any(f"[hostile:chess]\n{keys}\npromotionRegionWhite = a* *8\n", "hostile")
    assert time.thread_time() - start < QUICK
    assert "\n" not in str(e.value) and len(str(e.value)) < 300


@pytest.mark.parametrize("move", ["e02e04", "e2e٤", "e2e４", "e2e" + "4" * 5000])
def test_coordinate_moves_take_only_ascii_square_numbers_without_leading_zeros(capsys, move):
    assert main(["perft", "chess", "1", "--moves", move]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--moves" in err and len(err) < 300


def test_an_empty_start_position_in_variants_ini_is_refused():
    # found by tests/test_loader_fuzz.py: 'startFen =' was an IndexError
    from morphchess.loader import load as load_any
    with pytest.raises(VariantError, match="startFen = : no position given"):
        load_any("[hostile:chess]\nstartFen =\n", "hostile")


def test_names_of_pieces_and_setups_are_at_most_100_characters():
    refused("p" * 101 + ":P:fW::a2-h2" + KING, "a name of 101 characters")
    refused("setup=" + "s" * 101 + ":8/8/8/8/8/8/8/4K3\npawn::::a2-h2" + KING, "a name of 101 characters")
    assert load("p" * 100 + ":P:fW::a2-h2" + KING).types[0].name == "p" * 100


def test_a_three_megabyte_line_of_text_is_refused_in_one_short_line(capsys, tmp_path):
    path = tmp_path / "junk.txt"
    path.write_text("a" * 3_000_000)
    assert main(["perft", str(path), "1"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "unexpected text 'aaaa" in err and len(err) < 200


def test_hands_in_position_text_are_bounded_by_the_squares_too():
    from morphchess.notation import FenError, from_fen
    v = load("holdingsType=-2\npawn::::a2-h2" + KING)
    with pytest.raises(FenError, match="more than 64"):
        from_fen(v, "4k3/8/8/8/8/8/8/4K3[" + "P" * 65 + "] w - - 0 1")
    assert from_fen(v, "4k3/8/8/8/8/8/8/4K3[" + "P" * 64 + "] w - - 0 1").hands[0][1] == 64
