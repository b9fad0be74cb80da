"""Static exchange evaluation on hand-built positions, and the evaluation's weights from the configuration."""

import dataclasses
import json
import random
from importlib import resources

import pytest

from morphchess import Board, builtin, load
from morphchess.engine.config import CONFIG_FILE, EngineConfig, config_for, default_config, fingerprint, load_entry
from morphchess.engine.evaluate import EvalTables, eval_tables
from morphchess.engine.see import ROYAL_SEE, exchange_exact, exchange_tables, see
from morphchess.notation import from_fen
from morphchess.pieces import code

from common import VARIANTS


def exchange(variant: str, fen: str, uci: str) -> tuple[int, dict]:
    """SEE of a move and the exchange values by letter (upper case: White's)."""
    board = Board(variant, fen=fen)
    pos = board.position
    t = pos.t
    ex = exchange_tables(pos.variant, eval_tables(pos.variant, 1.0).value)
    letters = {t.letter[c]: ex.value[c] for c in range(t.ncodes) if t.valid[c]}
    return see(pos, board.parse_uci(uci).raw, ex), letters


def test_undefended_and_defended_captures():
    gain, v = exchange("chess", "4k3/8/8/4p3/8/8/8/4RK2 w - - 0 1", "e1e5")
    assert gain == v["p"]
    gain, v = exchange("chess", "4k3/8/3p4/4p3/8/8/8/4RK2 w - - 0 1", "e1e5")  # the pawn d6 recaptures
    assert gain == v["p"] - v["R"]


def test_x_ray_and_least_valuable_recapture():
    # a rook behind the capturing rook recaptures through it: the pawn is won
    gain, v = exchange("chess", "4r1k1/8/8/4p3/8/8/4R3/4R1K1 w - - 0 1", "e2e5")
    assert gain == v["p"]
    # the classic knight takes pawn: both sides bring knight, rook/bishop and queen; White loses N for P
    gain, v = exchange("chess", "1k1r3q/1ppn3p/p4b2/4p3/8/P2N2P1/1PP1R1BP/2K1Q3 w - - 0 1", "d3e5")
    assert gain == v["p"] - v["N"]


def test_a_king_recaptures_only_an_undefended_piece():
    gain, v = exchange("chess", "8/8/8/3k4/4p3/8/8/4R1K1 w - - 0 1", "e1e4")
    assert gain == v["p"] - v["R"]
    gain, v = exchange("chess", "8/8/8/3k4/4p3/8/4R3/4R1K1 w - - 0 1", "e2e4")  # e4 is defended twice
    assert gain == v["p"] and v["k"] == ROYAL_SEE


def test_the_recapture_wins_what_the_capturer_morphed_into():
    # Crossroads: a knight taking on f3 becomes an amazon there, so the pawn that recaptures wins an
    # amazon, not a knight (and itself becomes what f3 makes of a pawn)
    board = Board("crossroads", fen="8k/9/9/9/9/4p4/5b3/9/K3N4 w - - 0 1")
    pos, t = board.position, board.position.t
    ex = exchange_tables(pos.variant, eval_tables(pos.variant, 1.0).value)
    value = ex.value
    move = board.parse_uci("e1f3").raw
    amazon = t.letter[move.piece]
    assert amazon == "Z"
    pawn, f3 = board.position.board[pos.variant.square("e4")], pos.variant.square("f3")
    landed = max(t.becomes(pawn, f3), key=value.__getitem__)
    by = {t.letter[c]: value[c] for c in range(t.ncodes) if t.valid[c]}
    expected = by["b"] + by["Z"] - by["N"] - (by["Z"] + value[landed] - by["p"])
    assert see(pos, move, ex) == expected < 0 < by["b"] - by["N"]


def test_exact_only_without_hoppers():
    assert all(exchange_exact(Board(n).position) for n in VARIANTS)
    cannon = load("files=8 ranks=8 royal=K cannon:C:mRcpR:cannon:a1,,a8 king:K:K:king:e1,,e8")
    assert not exchange_exact(Board(cannon).position)


@pytest.mark.parametrize("name", VARIANTS)
def test_tuned_tables_are_colour_symmetric(name):
    v = builtin(name)
    t = v.tables
    for phase in (1.0, 0.4):
        pst = eval_tables(v, phase).pst
        for c in range(0, t.ncodes, 2):  # White's codes
            if not t.valid[c]:
                continue
            for sq in range(t.size):
                flipped = (t.ranks - 1 - sq // t.files) * t.files + sq % t.files
                assert pst[c ^ 1][flipped] == -pst[c][sq]  # Black's piece on the mirrored square


def test_the_configuration_applies_only_to_the_definition_it_was_measured_on():
    """Each entry of the configuration file names a built-in by its fingerprint and sets those fields of
    the variant's configuration (the rest keep the plain engine's); an edited definition plays the plain
    engine, and a setting the configuration does not have is an error naming it."""
    table = json.loads(resources.files("morphchess.engine").joinpath(CONFIG_FILE).read_text(encoding="utf-8"))
    for name, entry in table.items():
        v = builtin(name)
        assert entry["fingerprint"] == fingerprint(v)
        config, default = config_for(v), default_config(v)
        for f in dataclasses.fields(EngineConfig):
            assert getattr(config, f.name) == entry.get(f.name, getattr(default, f.name)), (name, f.name)
        assert eval_tables(v, 1.0).config == config
    assert config_for(builtin("chess")) != default_config(builtin("chess"))
    edited = load("files=8 ranks=8 royal=K pawn:P:fmWfcF:pawn:a2,,a7 king:K:K:king:e1,,e8", "chess")
    assert config_for(edited) == default_config(edited) == EngineConfig()
    with pytest.raises(ValueError, match="config.json: chess: unknown setting tempo_safe"):
        load_entry("chess", {"fingerprint": "x", "tempo_safe": True}, EngineConfig())


def test_square_weights_shift_a_type_on_its_own_side_s_squares():
    """A knight's fitted centipawns on e4 (White's numbering) move White's knight on e4 and Black's on e5."""
    v = builtin("chess")
    bonus = [0.0] * 64
    bonus[v.square("e4")] = 30.0
    plain = EvalTables(v, 1.0, config=EngineConfig())
    shifted = EvalTables(v, 1.0, config=EngineConfig(squares={"N": bonus}))
    white, black = code(v.type_by_letter("N").index, 0), code(v.type_by_letter("N").index, 1)
    for c, sq, delta in ((white, "e4", 30), (black, "e5", -30), (white, "e5", 0), (black, "e4", 0)):
        assert shifted.pst[c][v.square(sq)] - plain.pst[c][v.square(sq)] == delta, (c, sq)
    assert shifted.pst[code(v.type_by_letter("B").index, 0)] == plain.pst[code(v.type_by_letter("B").index, 0)]


def test_endgame_square_weights_grow_as_the_phase_falls():
    """A pawn's endgame centipawns on e4 count nothing with all pieces on the board and fully without them."""
    v = builtin("chess")
    bonus = [0.0] * 64
    bonus[v.square("e4")] = 40.0
    plain = EvalTables(v, 1.0, config=EngineConfig())
    shifted = EvalTables(v, 1.0, config=EngineConfig(squares_eg={"P": bonus}))
    assert shifted.pst == plain.pst  # the tables are the middlegame's; the dynamic terms add the endgame part
    for fen, delta in (("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1", 0),
                       ("4k3/8/8/8/4P3/8/8/4K3 w - - 0 1", 40),
                       ("4k3/8/8/4p3/8/8/8/4K3 w - - 0 1", -40)):  # Black's pawn on its own e4
        board = from_fen(v, fen).board
        assert shifted.dynamic(board) - plain.dynamic(board) == delta, fen
    rooks = from_fen(v, "r3k3/8/8/8/4P3/8/8/R3K3 w - - 0 1").board  # between: a share of the 40
    assert 0 < shifted.phase(rooks) < 1
    assert shifted.dynamic(rooks) - plain.dynamic(rooks) == pytest.approx((1 - shifted.phase(rooks)) * 40, abs=1)


def test_weights_scale_the_terms():
    v = builtin("chess")
    plain = EvalTables(v, 1.0, config=EngineConfig())
    knight = code(v.type_by_letter("N").index, 0)
    richer = EvalTables(v, 1.0, config=EngineConfig({"N": 1.5}, centre=0.0))
    e4 = v.square("e4")
    material, ahead, centre, _king = plain.terms(knight, e4, 1.0, plain.worth[knight])
    assert plain.pst[knight][e4] == round(material + ahead + centre)
    assert richer.value[knight] == round(1.5 * plain.value[knight])
    assert richer.pst[knight][e4] - richer.pst[knight][v.square("a1")] == pytest.approx(
        richer.worth[knight][e4] - richer.worth[knight][v.square("a1")], abs=1)


LAME = ("files=8 ranks=8 royal=K horse:H:nN:horse:b1,g1,,b8,g8 rook:R:R:rook:a1,h1,,a8,h8 bishop:B:B:bishop:c1,,c8 "
        "pawn:P:fmWfcF:pawn:a2,b2,c2,d2,e2,f2,g2,h2,,a7,b7,c7,d7,e7,f7,g7,h7 king:K:K:king:e1,,e8")


@pytest.mark.parametrize("name", ["chess", "crossroads", "morphomania", "lame"])
def test_exchange_finds_an_attacker_exactly_where_the_core_sees_one(name):
    # the exchange's flattened attack lists against Position.attacked, on every square of positions
    # along a seeded random game, for both colours (leaps, rays, and in "lame" blockable leaps)
    v = load(LAME) if name == "lame" else builtin(name)
    pos = Board(v).position
    assert exchange_exact(pos)
    ex = exchange_tables(v, eval_tables(v, 1.0).value)
    rng = random.Random(name)
    for _ply in range(40):
        for colour in (0, 1):
            for sq in range(v.tables.size):
                src = ex.least_attacker(pos.board, colour, sq)
                assert (src >= 0) == pos.attacked(sq, colour), (name, sq, colour)
                assert src < 0 or (pos.board[src] and pos.board[src] & 1 == colour)
        moves = pos.legal_moves()
        if not moves:
            break
        pos.make(rng.choice(moves))
