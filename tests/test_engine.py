"""The engine: piece values, tactics in every variant (mates by morph and by transformation), limits."""

import json
import random
import threading
from importlib import resources

import pytest

from morphchess import Position, builtin, load
from morphchess.cli import main
from morphchess.engine import level_limits, piece_values, search
from morphchess.engine.config import CONFIG_FILE, EngineConfig, config_for, default_config
from morphchess.engine.evaluate import QS_GAIN, EvalTables
from morphchess.engine.search import Params, _Searcher
from morphchess.move import Kind
from morphchess.notation import from_fen, move_to_coord, parse_coord, to_fen
from morphchess.pieces import as_moved, type_of
from morphchess.variants import definition_text

from common import EXTINCTION

# (variant, position, the mating move(s), how it mates: "plain", "morph" or "transformation")
MATES = [
    # back-rank mate
    ("chess", "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", {"a1a8"}, "plain"),
    # a bishop turns into a knight (or a knishop, whose forward knight leaps also reach h8): smothered mate
    ("polymorph", "6rk/5Bpp/8/8/8/8/8/K7 w - - 0 1", {"f7f7n", "f7f7a"}, "transformation"),
    # the queen reaches the dark square f8 and becomes an amazon, whose knight leap mates on h9
    ("morphomania", "6pkp/6ppp/9/9/9/9/5Q3/9/K8 w - - 0 1", {"f3f8"}, "morph"),
    # the rook lands on h7, becomes an amazon and mates i9 with a knight leap
    ("crossroads", "7pk/7p1/9/9/9/9/9/9/1K5R1 w - - 0 1", {"h1h7"}, "morph"),
    # the nightrider leaps to e7 (e5) and becomes a queen (an amazon) there
    ("snappy-chess", "3pkp3/3p1p3/9/2N6/9/9/9/9/K8 w - - 0 1", {"c6e7", "c6e5"}, "morph"),
    # the bishop (FAGAY) leaps to e5 and becomes an amazon checking up the file
    ("morphing-chess", "9/3ppp3/3pkp3/3p1p3/9/9/2B6/9/K8 w - - 0 1", {"c3e5"}, "morph"),
]


@pytest.mark.parametrize("variant,fen,mates,how", MATES, ids=[m[0] for m in MATES])
def test_mate_in_one(variant, fen, mates, how):
    pos = from_fen(builtin(variant), fen)
    before = pos.hash
    result = search(pos, depth=3)
    assert pos.hash == before and to_fen(pos) == fen
    assert move_to_coord(pos, result.move) in mates
    assert result.mate == 1 and result.score > 90_000
    move = result.move
    old = pos.board[move.origin]
    pos.make(move)
    outcome = pos.outcome()
    assert outcome is not None and outcome.termination == "checkmate" and outcome.winner == 0
    assert (move.kind is Kind.TRANSFORM) == (how == "transformation")
    assert (type_of(move.piece) != type_of(old)) == (how != "plain")
    if how == "morph":  # the unchanged piece on the same square would not give check
        pos.unmake()
        pos.make(move._replace(piece=as_moved(old)))
        assert not pos.in_check()


WINNING_CAPTURES = [
    ("chess", "4k3/8/8/3q4/8/8/3R4/4K3 w - - 0 1", "d2d5"),
    ("polymorph", "4k3/8/8/3q4/8/8/3R4/4K3 w - - 0 1", "d2d5"),
] + [(v, "4k4/9/9/9/3z5/9/9/9/3RK4 w - - 0 1", "d1d5")
     for v in ("morphomania", "snappy-chess", "morphing-chess", "crossroads")]


@pytest.mark.parametrize("variant,fen,best", WINNING_CAPTURES, ids=[w[0] for w in WINNING_CAPTURES])
def test_winning_capture(variant, fen, best):
    pos = from_fen(builtin(variant), fen)
    result = search(pos, depth=3)
    assert move_to_coord(pos, result.move) == best
    assert result.score > 500


def test_mated_side_sees_the_mate():
    pos = from_fen(builtin("chess"), "k7/8/1K6/8/8/8/8/7R b - - 0 1")
    result = search(pos, depth=3)
    assert result.mate == -1 and move_to_coord(pos, result.move) == "a8b8"  # forced, then Rh8 mates


def test_no_legal_move():
    pos = from_fen(builtin("chess"), "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1")
    result = search(pos, depth=2)
    assert result.move is None and result.mate == 0


def test_stalemating_wins_where_stalemate_loses():
    # Morphomania: the stalemated side loses.  Black's rook is pinned by the bishop, the pawn on
    # b9 is stuck behind it and the white king guards a8: a bishop move along the pin line (or
    # anything else keeping all that) wins.  No white move gives check.
    v = builtin("morphomania")
    pos = from_fen(v, "kp7/1r7/K8/3B5/9/9/9/9/9 w - - 0 1")
    result = search(pos, depth=3)
    assert result.mate == 1
    pos.make(result.move)
    assert pos.outcome().termination == "stalemate" and pos.outcome().winner == 0


def test_limits_stop_and_info():
    pos = Position(builtin("crossroads"))
    fen = to_fen(pos)
    infos = []
    result = search(pos, depth=3, on_info=infos.append)
    assert [i.depth for i in infos] == [1, 2, 3] and result.depth == 3 and result.move in pos.legal_moves()
    assert infos[-1].pv[0] == result.move and all(i.nodes > 0 for i in infos)
    assert to_fen(pos) == fen
    few = search(pos, nodes=300)
    assert few.nodes < 600 and few.move in pos.legal_moves()
    stop = threading.Event()
    stop.set()
    stopped = search(pos, stop=stop)
    assert stopped.move in pos.legal_moves() and stopped.seconds < 1
    assert to_fen(pos) == fen
    timed = search(pos, movetime_ms=150)
    assert timed.seconds < 1.0 and timed.move in pos.legal_moves()
    with pytest.raises(ValueError, match="depth"):
        search(pos, depth=0)


def test_levels():
    assert level_limits(1) == {"depth": 1}
    for level in range(1, 9):
        assert set(level_limits(level)) <= {"depth", "movetime_ms", "nodes"}
    for bad in (0, 9):
        with pytest.raises(ValueError, match="level"):
            level_limits(bad)


def test_piece_values_follow_the_moves():
    chess = piece_values(builtin("chess"))
    # the classical order and rough size (P 1, N/B 3, R 5, Q 9)
    assert chess["P"] < chess["N"] <= chess["B"] < chess["R"] < chess["Q"]
    assert 80 <= chess["P"] <= 120 and 270 <= chess["N"] <= 370 and 450 <= chess["R"] <= 550
    assert 850 <= chess["Q"] <= 1000 and chess["K"] == 0
    snappy = piece_values(builtin("snappy-chess"))
    assert snappy["N"] > piece_values(builtin("crossroads"))["N"]   # nightrider > knight
    assert snappy["Z"] > snappy["Q"] > snappy["C"] > snappy["A"]   # amazon > queen > chancellor > archbishop
    poly = piece_values(builtin("polymorph"))
    assert poly["A"] == poly["G"]                                  # knishop and bishight mirror each other


def test_morph_aware_tables():
    v = builtin("morphomania")
    et = EvalTables(v)
    knight = v.type_by_letter("N").index * 4
    # a knight on a light square becomes an archbishop with any move: worth more than one on a dark square
    assert et.pst[knight][v.square("e4")] > et.pst[knight][v.square("e5")] + 50
    chess = builtin("chess")
    et = EvalTables(chess)
    pawn = chess.type_by_letter("P").index * 4
    assert et.pst[pawn][chess.square("e7")] > et.pst[pawn][chess.square("e4")] > 0
    assert et.pst[pawn + 1][chess.square("e2")] < et.pst[pawn + 1][chess.square("e5")] < 0  # Black's mirror


def random_plies(pos: Position, rng: random.Random, plies: int):
    """Play up to ``plies`` random legal moves on ``pos`` (fewer if the game ends), yielding it after each."""
    for _ply in range(plies):
        legal = pos.legal_moves()
        if not legal or pos.outcome(legal) is not None:
            return
        pos.make(rng.choice(legal))
        yield pos


def dynamic(fen: str) -> int:
    v = builtin("chess")
    return EvalTables(v).dynamic(from_fen(v, fen).board)


def test_dynamic_terms_see_pawn_structure_pairs_and_phase():
    """Hand-made positions, each against one that differs in one term (White's view)."""
    # a passed pawn is worth more the further it is, most in the endgame
    assert dynamic("8/5k2/3P4/8/8/8/5K2/8 w - - 0 1") > dynamic("8/5k2/8/8/3P4/8/5K2/8 w - - 0 1") > 0
    # blocked by a pawn on the next file it is not passed
    assert dynamic("8/2p2k2/8/8/3P4/8/5K2/8 w - - 0 1") < dynamic("8/p4k2/8/8/3P4/8/5K2/8 w - - 0 1")
    # doubled and isolated pawns against connected ones, supported against not
    assert dynamic("4k3/8/8/8/8/P7/P7/4K3 w - - 0 1") < dynamic("4k3/8/8/8/8/8/PP6/4K3 w - - 0 1")
    assert dynamic("4k3/8/8/8/8/1P6/P7/4K3 w - - 0 1") > dynamic("4k3/8/8/8/8/8/P1P5/4K3 w - - 0 1")
    # the bishop pair (light and dark), not two bishops of one colour
    assert dynamic("4k3/8/8/8/8/8/8/2B1KB2 w - - 0 1") - dynamic("4k3/8/8/8/8/8/8/1B2KB2 w - - 0 1") == 35
    # with all pieces on, the king stays home; alone with pawns it comes out
    v = builtin("chess")
    et = EvalTables(v)
    assert et.phase(Position(v).board) == 1.0 and et.phase(from_fen(v, "4k3/pp6/8/8/8/8/PP6/4K3 w - - 0 1").board) == 0
    assert dynamic("4k3/pp6/8/8/4K3/8/PP6/8 w - - 0 1") > dynamic("4k3/pp6/8/8/8/8/PP6/4K3 w - - 0 1") + 20


def test_dynamic_terms_are_colour_blind():
    """A position and its mirror (colours swapped, ranks flipped) score the same for the other side."""
    import chess
    v = builtin("chess")
    et = EvalTables(v)
    rng = random.Random(11)
    for _game in range(6):
        for pos in random_plies(Position(v), rng, rng.randrange(10, 60)):
            mirror = from_fen(v, chess.Board(to_fen(pos)).mirror().fen())
            assert et.dynamic(pos.board) == -et.dynamic(mirror.board), to_fen(pos)


def test_cli_values_and_bestmove(capsys):
    assert main(["values", "snappy-chess"]) == 0
    out = capsys.readouterr().out
    assert "nightrider" in out and "value" in out
    assert main(["bestmove", "crossroads", "--fen", "7pk/7p1/9/9/9/9/9/9/1K5R1 w - - 0 1", "--depth", "2"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert lines[-1] == "h1h7" and "mate 1" in lines[-2]
    assert main(["bestmove", "chess", "--moves", "e2e4 e7e5", "--depth", "2"]) == 0
    assert len(capsys.readouterr().out.strip().splitlines()[-1]) == 4
    assert main(["bestmove", "chess", "--depth", "0"]) == 2
    assert "depth" in capsys.readouterr().err


def test_the_search_wins_by_extinction():
    """Extinction chess: taking the last pawn wins at once, taking one of two queens does not."""
    v = load(EXTINCTION, "extinction")
    pos = from_fen(v, "rbn3k1/8/8/q2R2pq/8/8/P7/QBN1K3 w - - 0 1")
    result = search(pos, depth=3)
    assert move_to_coord(pos, result.move) == "d5g5" and result.mate == 1


def test_the_evaluation_follows_unload_moves():
    """The search's incremental evaluation after swaps and displacements (XBetza ucR, afudQ) equals a
    fresh evaluation of the board after the move."""
    v = load("files=6 ranks=6\nswapper:S:RucR::a1\nshover:H:afudQ::b1\nrook:R:R::f1\nking:K:K::e1", "unload")
    rng = random.Random(4)
    pos = Position(v)
    searcher = _Searcher(pos, 1, None, None, None, None, None, None, Params())
    unloads = 0
    for _ply in range(60):
        legal = pos.legal_moves()
        if not legal or pos.outcome(legal) is not None:
            break
        for m in legal:
            before = searcher.et.evaluate(pos.board)
            change, cap = searcher._make(m)
            assert change == searcher.et.evaluate(pos.board) - before, m
            searcher._unmake(cap)
            unloads += m.kind is Kind.UNLOAD
        pos.make(rng.choice(legal))
    assert unloads > 50


def test_mobility_counts_what_python_chess_attacks():
    """Per piece (not pawn or king) the empty or enemy squares it attacks, as python-chess counts them,
    weighed by the type's weight; a knight's square counts more than a queen's.  Of those squares,
    the ones on the enemy king's square or next to it are the king attack's units, and the pieces
    reaching one its attackers.  A type's ``mobility_types`` multiplier scales its squares; a square
    that an enemy pawn attacks counts ``mobility_unsafe`` instead."""
    import chess
    v = builtin("chess")
    plain = EvalTables(v)
    weight = {v.tables.letter[p].upper(): plain.mobility_weight[p] for p in range(v.tables.ncodes)
              if plain.mobility_weight[p]}
    assert weight["N"] > weight["B"] > weight["R"] > weight["Q"] > 0
    et = EvalTables(v, config=EngineConfig(mobility_types={"N": 2.0, "Q": 0.5}, mobility_unsafe=0.25))
    times = {"N": 2.0, "B": 1.0, "R": 1.0, "Q": 0.5}
    rng = random.Random(5)
    attacked = 0
    for _game in range(8):
        pos = Position(v)
        for _ in random_plies(pos, rng, rng.randrange(8, 60)):
            pass
        board = chess.Board(to_fen(pos))
        expected = 0.0
        units, attackers = [0, 0], [0, 0]
        for sq, piece in board.piece_map().items():
            if piece.piece_type not in (chess.PAWN, chess.KING):
                reach = board.attacks(sq) & ~board.occupied_co[piece.color]
                guarded = 0
                for pawn in board.pieces(chess.PAWN, not piece.color):
                    guarded |= chess.BB_PAWN_ATTACKS[not piece.color][pawn]
                letter = piece.symbol().upper()
                unsafe = len(reach & guarded)
                worth = weight[letter] * (times[letter] * (len(reach) - unsafe) + 0.25 * unsafe)
                expected += (1 if piece.color else -1) * worth
                king = board.king(not piece.color)
                near = len(reach & (chess.BB_KING_ATTACKS[king] | chess.BB_SQUARES[king]))
                side = 0 if piece.color else 1
                units[side] += near
                attackers[side] += bool(near)
        score, got_units, got_attackers = et.mobility(pos)
        assert score == pytest.approx(expected), board.fen()
        assert (got_units, got_attackers) == (units, attackers), board.fen()
        attacked += sum(units)
    assert attacked  # the random games did bring pieces next to a king


def test_mopup_drives_a_lone_king_to_mate():
    """King and rook against king: with the mop-up term the search mates within 50 moves, from both sides."""
    v = builtin("chess")
    for fen in ("8/8/8/4k3/8/8/8/R3K3 w - - 0 1", "r3k3/8/8/8/4K3/8/8/8 b - - 0 1"):
        pos = from_fen(v, fen)
        assert EvalTables(v).mopup(pos.board) != 0
        for _ply in range(100):
            result = search(pos, nodes=4000, params=Params(mopup=1))
            if result.move is None:
                break
            pos.make(result.move)
        assert not pos.legal_moves() and pos.in_check(), to_fen(pos)


def configured() -> dict:
    """The entries of the engine's configuration file, by variant name."""
    return json.loads(resources.files("morphchess.engine").joinpath(CONFIG_FILE).read_text(encoding="utf-8"))


def searcher(variant, params):
    """A search of ``variant`` (a built-in's name or a Variant) from its start, set up but not run."""
    v = builtin(variant) if isinstance(variant, str) else variant
    return _Searcher(Position(v), 1, None, None, None, None, None, None, params)


def test_dynamic_terms_and_mobility_play_where_no_piece_changes_shape():
    """By default the dynamic terms are on where no piece changes shape (chess) and off where pieces morph
    or transform (Snappy Chess, Morphing Chess), unless the configuration file records a measured percent
    for the variant's definition; mobility counts only the pieces that keep their shape; an explicit
    percent wins."""
    assert searcher("chess", Params()).dynamic == 100
    assert searcher("snappy-chess", Params()).dynamic == searcher("morphing-chess", Params()).dynamic == 0
    for name, entry in configured().items():
        assert searcher(name, Params()).dynamic == entry.get("dynamic", default_config(builtin(name)).dynamic)
    chess = builtin("chess")
    config = config_for(chess)
    assert (searcher(chess, Params()).mobility, searcher(chess, Params()).attack) == (config.mobility, config.attack)
    assert (searcher(chess, Params(mobility=0, attack=7)).mobility, searcher(chess, Params(attack=7)).attack) == (0, 7)
    edited = load(definition_text("crossroads").replace("promoChoice=NBRQZHDL", "promoChoice=NBRQ"), "crossroads")
    assert searcher(edited, Params()).dynamic == 0  # not the definition that was measured
    assert searcher("chess", Params(dynamic=0)).dynamic == 0
    assert searcher("crossroads", Params(dynamic=50)).dynamic == 50
    assert not any(EvalTables(builtin("crossroads")).mobility_weight)
    for name, letters in (("chess", "NBRQ"), ("polymorph", "RQ")):  # Polymorph's knights and bishops transform
        v = builtin(name)
        weights = EvalTables(v).mobility_weight
        assert {v.tables.letter[c].upper() for c, w in enumerate(weights) if w} == set(letters)


def test_the_capture_search_keeps_its_results_in_the_transposition_table():
    """With ``qtt`` the capture search stores what it finds at depth 0 and a later visit takes a score
    that settles it from there; the move found stays a legal one.  Chess plays it by default."""
    from morphchess.engine.tt import TranspositionTable
    v = builtin("chess")
    pos = from_fen(v, "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ - 0 8")
    depths = {}
    for qtt in (0, 1):
        tt = TranspositionTable(1 << 16)
        result = search(pos, depth=4, tt=tt, params=Params(qtt=qtt))
        assert result.move in pos.legal_moves()
        depths[qtt] = {e.depth for e in tt.slots if e is not None}
    assert 0 not in depths[0] and 0 in depths[1]
    assert searcher(v, Params()).qtt == 1
    assert searcher("snappy-chess", Params()).qtt == 0


def test_pruning_near_the_leaves_saves_nodes_and_keeps_the_move():
    """Reverse futility pruning (a static score far above beta settles a node near the leaves) and
    razoring (far below alpha, a capture search that stays below alpha does) each reach the same depth
    in fewer nodes with the same move, and fewer still together."""
    from morphchess.engine.tt import TranspositionTable
    fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
    results = {(rfp, razor): search(from_fen(builtin("chess"), fen), depth=5, tt=TranspositionTable(),
                                    params=Params(rfp=rfp, razor=razor))
               for rfp, razor in ((0, 0), (80, 0), (0, 150), (80, 150))}
    nodes = {k: r.nodes for k, r in results.items()}
    assert max(nodes[80, 0], nodes[0, 150]) < nodes[0, 0], nodes
    assert nodes[80, 150] < min(nodes[80, 0], nodes[0, 150]), nodes
    assert len({r.move for r in results.values()}) == 1


def test_pruning_near_the_leaves_follows_the_variants_configuration():
    """Reverse futility pruning and razoring default to the variant's configuration (chess: measured to gain
    together); an explicit parameter, 0 included, overrides them."""
    chess = config_for(builtin("chess"))
    assert chess.rfp > 0 and chess.razor > 0
    assert (searcher("chess", Params()).rfp, searcher("chess", Params()).razor) == (chess.rfp, chess.razor)
    assert (searcher("chess", Params(rfp=0, razor=0)).rfp, searcher("chess", Params(razor=0)).razor) == (0, 0)
    assert (searcher("snappy-chess", Params()).rfp, searcher("snappy-chess", Params()).razor) == (0, 0)


def test_small_morphs_are_searched_as_quiet_moves():
    """In Crossroads nearly every move morphs; counted as quiet moves (reduced, pruned at the frontier)
    unless they gain QS_GAIN, they cost the search fewer nodes to the same depth."""
    from morphchess.engine.tt import TranspositionTable
    pos = Position(builtin("crossroads"))
    nodes = {flag: search(pos, depth=4, tt=TranspositionTable(), params=Params(morphs=flag, seeprune=0)).nodes
             for flag in (0, 1)}
    assert nodes[1] < 0.9 * nodes[0], nodes


def test_see_pruning_skips_moves_that_lose_the_exchange():
    """Near the leaves a move that loses more in the exchange on its square than the margin per ply
    is skipped (a knight put where a pawn takes it, a knight taking a pawn the other knight guards),
    a safe move is not; the search needs fewer nodes to the same depth with it than without."""
    from morphchess.engine.tt import TranspositionTable
    fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"
    pos = from_fen(builtin("chess"), fen)
    s = _Searcher(pos, 1, None, None, None, None, None, None, Params())
    assert s._exchange_loses(parse_coord(pos, "f3d4"), True, 3)      # exd4: a knight for nothing
    assert s._exchange_loses(parse_coord(pos, "f3e5"), False, 1)     # Nxe5 Nxe5: a knight for a pawn
    assert not s._exchange_loses(parse_coord(pos, "f3e5"), False, 3)  # within three plies' margin
    assert not s._exchange_loses(parse_coord(pos, "f1c4"), True, 3)
    assert not s._exchange_loses(parse_coord(pos, "f1b5"), True, 3)  # the knight on c6 does not guard b5
    nodes = {d: search(from_fen(builtin("chess"), fen), depth=5, tt=TranspositionTable(),
                       params=Params(seeprune=d)).nodes for d in (0, 3)}
    assert nodes[3] < nodes[0], nodes


def test_king_attack_counts_two_pieces_or_more():
    """Two white pieces reach three squares by the black king: attack / 100 * 3² centipawns for White;
    the queen alone is no attack."""
    def terms(fen, attack):
        pos = from_fen(builtin("chess"), fen)
        return _Searcher(pos, 1, None, None, None, None, None, None, Params(attack=attack))._terms(pos.board)
    both, queen = "6k1/5ppp/8/6N1/7Q/8/5PPP/6K1 w - - 0 1", "6k1/5ppp/8/8/7Q/8/5PPP/6K1 w - - 0 1"
    assert terms(both, 200) - terms(both, 0) == 200 * 3 ** 2 // 100
    assert terms(queen, 200) == terms(queen, 0)
    flipped = "6k1/5ppp/8/7q/6n1/8/5PPP/6K1 b - - 0 1"  # the same attack on White's king
    assert terms(flipped, 200) - terms(flipped, 0) == -(200 * 3 ** 2 // 100)


def test_morph_gain_is_the_best_quiet_shape_change():
    """Crossroads' start: White's best quiet gain is the largest table gain among its legal quiet
    moves (a pawn stepping to the third rank becomes an amazon or a dragon king); in chess none."""
    for name, expect_gain in (("crossroads", True), ("chess", False)):
        pos = Position(builtin(name))
        s = _Searcher(pos, 1, None, None, None, None, None, None, Params())
        quiet = [s.pst[m.piece][m.target] - s.pst[pos.board[m.origin]][m.origin]
                 for m in pos.legal_moves() if pos.capture_square(m) is None]
        best = max(quiet) if max(quiet) >= QS_GAIN else 0
        assert s._morph_gain() == best and (best > 0) == expect_gain
    # with ``safe`` a gain on a square the other side attacks does not count: Morphing Chess' start
    pos = Position(builtin("morphing-chess"))
    plain, safe = (_Searcher(pos, 1, None, None, None, None, None, None, Params(safe=f))._morph_gain() for f in (0, 1))
    s = _Searcher(pos, 1, None, None, None, None, None, None, Params())
    safe_moves = [s.pst[m.piece][m.target] - s.pst[pos.board[m.origin]][m.origin] for m in pos.legal_moves()
                  if pos.capture_square(m) is None and not pos.attacked(m.target, 1)]
    assert 0 < safe < plain and safe == max(safe_moves)


def test_each_variant_takes_its_measured_morph_gain_from_the_configuration():
    """The share of the morph gain (and whether only safe squares count) is the variant's configured one
    where an SPRT accepted it, none elsewhere; an explicit parameter wins."""
    def settings(name: str, params: Params) -> tuple[int, int]:
        s = _Searcher(Position(builtin(name)), 1, None, None, None, None, None, None, params)
        return s.tempo, s.safe
    for name, entry in configured().items():
        assert settings(name, Params()) == (entry.get("tempo", 0), int(entry.get("safe", False))), name
    assert any(settings(name, Params())[0] for name in configured())
    assert settings("chess960", Params()) == (0, 0)
    assert settings("snappy-chess", Params(tempo=0, safe=0)) == (0, 0)
    assert settings("chess", Params(tempo=30, safe=2)) == (30, 1)


def test_tempo_steadies_the_score_where_every_move_morphs():
    """Without the tempo term, Crossroads' root score swings by who moved last (about 1000 cp between
    depths 1 and 2); with the variant's configured tempo the swing is a small part of that."""
    from morphchess.engine.tt import TranspositionTable

    def swing(params: Params) -> int:
        scores: list[int] = []
        search(Position(builtin("crossroads")), depth=4, params=params, tt=TranspositionTable(),
               on_info=lambda r: scores.append(r.score))
        return max(scores) - min(scores)
    without = swing(Params(tempo=0))
    assert without > 600 and swing(Params()) < without / 4


@pytest.mark.parametrize("variant, fen, best, mate", [
    # racing kings: b7b6 lets Black reach the last rank first; b7b8 leaves Black only the draw
    ("racingkings", "8/1K5k/8/8/8/8/8/8 w - - 0 1", "b7b8", None),
    # three-check: White's last check wins at once, whatever Black could answer
    ("3check", "4k3/8/8/8/8/8/8/3QK3 w - - 1+3 0 1", None, 1),
    # antichess: White wins by giving away its last piece (it must be taken, here by promoting)
    ("antichess", "8/8/8/8/8/8/1p6/R7 w - - 0 1", None, 1),
])
def test_the_search_scores_flag_check_count_and_losing_wins(variant, fen, best, mate):
    pos = from_fen(builtin(variant), fen)
    result = search(pos, depth=3)
    if best is not None:
        assert move_to_coord(pos, result.move) == best and result.score == 0
    if mate is not None:
        assert result.mate == mate
