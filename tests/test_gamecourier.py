"""Game Courier logs: hand-written games of every built-in variant, writing, malformed logs.

The expected positions and results below were worked out by hand from the rules
(docs/rules.md), not taken from the engine.
"""

import pytest

from morphchess import BLACK, WHITE, Board, RecordError, gamecourier

NINE = ["crossroads", "morphomania", "snappy-chess", "morphing-chess"]


def pieces(board, squares):
    return {sq: board.piece_at(sq) for sq in squares}


# -- openings from the start, written the way players write them ------------------------

def test_chess_en_passant_and_castling_written_out_apply_once():
    log = """
    1. P e2-e4 1... n g8-f6
    2. P e4-e5 2... p d7-d5
    3. P e5-d6; d5-          // en passant, the capture written out
    3... q d8-d6
    4. N g1-f3 4... p c7-c6 5. B f1-e2 5... b c8-g4
    6. K e1-g1; R h1-f1      // castling with the rook move written out
    """
    b = gamecourier.read(log, "chess")
    assert b.fen() == "rn2kb1r/pp2pppp/2pq1n2/8/6b1/5N2/PPPPBPPP/RNBQ1RK1 b kq - 3 6"


def test_fools_mate_as_on_the_site():
    b = gamecourier.read("1. P f2-f3 1... p e7-e5 2. P g2-g4 2... q d8-h4 // checkmate!", "chess")
    assert b.outcome().termination == "checkmate" and b.outcome().winner == BLACK


def test_crossroads_forced_morphs_with_and_without_the_placement():
    b = gamecourier.read("1. P f2-f3; Z-f3\n1... p f8-f7\n2. N h1-g3", "crossroads")
    assert pieces(b, ["f3", "f7", "g3", "f2", "h1"]) == {"f3": "Z", "f7": "z", "g3": "D", "f2": None, "h1": None}


def test_morphomania_morphs_by_square_colour():
    b = gamecourier.read("1. N b1-c3 1... p a8-a7 2. P a2-a3", "morphomania")
    assert pieces(b, ["c3", "a7", "a3"]) == {"c3": "A", "a7": "s", "a3": "S"}


def test_snappy_lower_case_labels_and_no_numbers():
    b = gamecourier.read("p e2-e3\np a8-a6\np a2-a4\np b8-b7\n", "snappy-chess")
    assert pieces(b, ["e3", "a6", "a4", "b7"]) == {"e3": "Q", "a6": "p", "a4": "P", "b7": "h"}


def test_morphing_chess_arrival_on_e5_makes_an_amazon():
    b = gamecourier.read("e2-e3 a8-a7 e3-e4 a7-a6 e4-e5", "morphing-chess")  # no labels
    assert pieces(b, ["e5", "a6", "e2"]) == {"e5": "Z", "a6": "p", "e2": None}
    assert b.turn == BLACK


def test_polymorph_transformations_on_black_knights_array():
    b = gamecourier.read("1. P e2-e4 1... n c8-d6 2. N-f1 2... b-b8 3. N f1-e3", "polymorph", setup="knights")
    assert pieces(b, ["f1", "e3", "b8", "d6", "c8"]) == {"f1": None, "e3": "N", "b8": "b", "d6": "n", "c8": None}


def test_polymorph_transformation_written_as_a_move_in_place():
    b = gamecourier.read("1. B c1-c1; G-c1 1... p e7-e5 1-0", "polymorph")
    assert b.piece_at("c1") == "G" and len(b.move_stack) == 2


def test_polymorph_promotion_to_a_knishop_and_mate_by_transformation():
    b = gamecourier.read("1. P b7-b8; A-b8", "polymorph", fen="4k3/1P6/8/8/8/8/8/4K3 w - - 0 1")
    assert b.piece_at("b8") == "A"
    b = gamecourier.read("1. N-f7 // smothered", "polymorph", fen="6rk/5Bpp/8/8/8/8/8/K7 w - - 0 1")
    assert b.outcome().termination == "checkmate" and b.outcome().winner == WHITE


def test_chess_stalemate_is_a_draw():
    b = gamecourier.read("1. Q e7-f7", "chess", fen="7k/4Q3/6K1/8/8/8/8/8 w - - 0 1")
    assert b.outcome().termination == "stalemate" and b.outcome().winner is None


# -- endings of the Degens games ------------------------------------------------------------
# Morphing Chess's rook is a short leaper (WDHWX): a chancellor does the rook's work there.
# The pinned black piece is a bishop or, where there is none, an archbishop.

def _rook(variant):
    return "C" if variant == "morphing-chess" else "R"


@pytest.mark.parametrize("variant", NINE)
def test_back_rank_checkmate(variant):
    r = _rook(variant)
    b = gamecourier.read(f"1. {r} a1-a9 // checkmate", variant, fen=f"4k4/3ppp3/9/9/9/9/9/9/{r}3K4 w - - 0 1")
    assert b.piece_at("a9") == r  # no morph on the last rank
    assert (b.outcome().termination, b.outcome().winner) == ("checkmate", WHITE)


@pytest.mark.parametrize("variant", NINE)
def test_stalemated_side_loses(variant):
    pinned = "a" if variant in ("snappy-chess", "morphing-chess") else "b"
    b = gamecourier.read("1. K d8-c8", variant, fen=f"k8/{pinned}2K5/9/9/9/9/9/9/{_rook(variant)}8 w - - 0 1")
    assert (b.outcome().termination, b.outcome().winner) == ("stalemate", WHITE)


@pytest.mark.parametrize("variant", NINE)
def test_bare_king_loses_and_draws_when_it_takes_the_last_piece(variant):
    r = _rook(variant)
    b = gamecourier.read(f"1. {r} a1-e1", variant, fen=f"8k/9/9/9/9/9/9/9/{r}3n2K1 w - - 0 1")
    assert (b.outcome().termination, b.outcome().winner) == ("bare king", WHITE)
    b = gamecourier.read(f"1. {r} a1-d1 1... k e2-d1", variant, fen=f"8K/9/9/9/9/9/9/4k4/{r}2n5 w - - 0 1")
    assert (b.outcome().termination, b.outcome().winner) == ("bare king", None)


# -- writing ------------------------------------------------------------------------------

def test_write_uses_the_site_syntax():
    b = Board("crossroads", fen="4k4/1P6p/9/9/9/9/9/9/R3K3R w KQ - 0 1")
    for text in ("e1h1", "e9d9", "b8b9z"):
        b.push_uci(text)
    assert gamecourier.write(b) == "1. K e1-h1\n1... k e9-d9\n2. P b8-b9; Z-b9\n"
    b = Board("polymorph")
    b.push_uci("c1c1g")
    b.push_uci("b8b8a")
    assert gamecourier.write(b) == "1. G-c1\n1... a-b8\n"


def test_write_ends_with_the_outcome():
    b = gamecourier.read("1. P f2-f3 1... p e7-e5 2. P g2-g4 2... q d8-h4", "chess")
    assert gamecourier.write(b).splitlines()[-1] == "2... q d8-h4 // Black wins by checkmate (0-1)"


# -- malformed logs -----------------------------------------------------------------------

@pytest.mark.parametrize("log,number,text,message", [
    ("1. P e2-e4 1... p e7-e5 2. N g1-f4", "2.", "N g1-f4", "illegal move"),
    ("1. P e2-e4 1... N e7-e5", "1...", "N e7-e5", "label says N"),
    ("1. P e2-e4 1... p e6-e5", "1...", "p e6-e5", "no piece on e6"),
    ("1. P e2-e4 1... p e7-e5 2. Nf3", "2.", "Nf3", "not Game Courier move text"),
    ("1. P e2-e4 1... p e7-e5 2. P d2-d4; q-d4", "2.", "P d2-d4; q-d4", "cannot become Q"),
    ("1. P e2-e4; P d2-d4", "1.", "P e2-e4; P d2-d4", "not part of this move"),
    ("1. P e2-e4 ; ; p e7-e5", "1...", ";", "must join two actions"),
    ("1. P e2-e4 1... p e7-e5 resign", "2.", "resign", "not followed by a move"),
    ("1. P e2-e4 1... p e7-e5 2. P z2-z4", "2.", "P z2-z4", "off the"),
    ("1. e4-", "1.", "e4-", "cannot start by removing"),
    ("1. Q-e4", "1.", "Q-e4", "can transform"),
])
def test_malformed_logs_name_the_move_and_keep_the_game(log, number, text, message):
    with pytest.raises(RecordError, match=message) as info:
        gamecourier.read(log, "chess")
    e = info.value
    assert (e.move_number, e.text) == (number, text)
    assert f"move {number}" in str(e) and e.board is not None


def test_promotion_without_the_new_piece_is_refused():
    with pytest.raises(RecordError, match="needs the new piece") as info:
        gamecourier.read("1. P b7-b8", "chess", fen="4k3/1P6/8/8/8/8/8/4K3 w - - 0 1")
    assert info.value.board.fen() == "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1"


def test_the_game_before_the_error_is_kept():
    with pytest.raises(RecordError) as info:
        gamecourier.read("1. P e2-e4 1... p e7-e5 2. N g1-f4", "chess")
    assert [m.uci() for m in info.value.board.move_stack] == ["e2e4", "e7e5"]


# -- the command line: convert and replay ---------------------------------------------------

def run(capsys, *argv):
    from morphchess.cli import main
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_convert_between_all_forms(tmp_path, capsys):
    log = tmp_path / "game.gc"
    log.write_text("1. N-f1 1... p c7-c5\n2. P e2-e4 2... n c8-d6\n")
    code, out, _ = run(capsys, "convert", str(log), "--to", "pgn", "--variant", "polymorph", "--setup", "knights")
    assert code == 0 and '[VariantSetup "knights"]' in out and "1. Bf1=N c5 2. e4 Nd6" in out
    (tmp_path / "game.pgn").write_text(out)
    code, out, _ = run(capsys, "convert", str(tmp_path / "game.pgn"), "--to", "coord")
    assert (code, out) == (0, "f1f1n c7c5 e2e4 c8d6\n")
    (tmp_path / "game.txt").write_text(out)
    code, out, _ = run(capsys, "convert", str(tmp_path / "game.txt"), "--to", "gc", "--variant", "polymorph",
                       "--setup", "knights")
    assert (code, out) == (0, log.read_text().replace(" 1...", "\n1...").replace(" 2...", "\n2..."))


def test_replay_prints_the_final_position_and_outcome(tmp_path, capsys):
    log = tmp_path / "mate.gc"
    log.write_text("1. P f2-f3 1... p e7-e5 2. P g2-g4 2... q d8-h4 // checkmate!\n")
    code, out, _ = run(capsys, "replay", str(log))
    assert code == 0
    assert "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3" in out
    assert "Black wins by checkmate (0-1)" in out


def test_unreadable_records_exit_non_zero_naming_the_move(tmp_path, capsys):
    log = tmp_path / "bad.gc"
    log.write_text("1. P e2-e4 1... p e7-e5 2. N g1-f4\n")
    code, _, err = run(capsys, "convert", str(log), "--to", "pgn")
    assert code == 2 and err.strip() == "morphchess: error: move 2. 'N g1-f4': illegal move"
    log.write_text("e2e4 e7e5 g1f4\n")
    code, _, err = run(capsys, "replay", str(log))
    assert code == 2 and "move 2. 'g1f4'" in err
    code, _, err = run(capsys, "replay", str(tmp_path / "missing.pgn"))
    assert code == 2 and "cannot read" in err
