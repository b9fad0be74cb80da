"""The win conditions of Fairy-Stockfish's games (flags, check counting, must-capture and losing
games) against pyffish: random games played to their end with move lists and results compared,
positions that use each rule, and the rules read from variants.ini keys (perft(3) from the start:
test_library.py's slow run)."""

from __future__ import annotations

import random

import pytest

from morphchess import Position, Variant
from morphchess.notation import from_fen
from test_library import game, text, walk

sf = pytest.importorskip("pyffish")

GAMES = ["kingofthehill", "racingkings", "3check", "5check", "antichess", "giveaway", "losers", "codrus", "kinglet",
         "threekings", "misere", "clobber", "clobber10", "breakthrough", "jesonmor", "fox-and-hounds", "armageddon",
         "suicide", "minixiangqi", "atomic", "nocheckatomic", "atomar", "minishogi", "gorogoro", "judkins",
         "torishogi", "dobutsu", "duck", "amazons"]


def fsf_result(name: str, fen: str, moves: list[str]) -> int | None:
    """Fairy-Stockfish's result for the side to move (1 win, 0 draw, -1 loss), None while it plays on."""
    end, value = sf.is_immediate_game_end(name, fen, moves)
    if not end:
        end, value = sf.is_optional_game_end(name, fen, moves)
    if not end and not sf.legal_moves(name, fen, moves):
        end, value = True, sf.game_result(name, fen, moves)
    return (value > 0) - (value < 0) if end else None


def mine(pos: Position) -> int | None:
    out = pos.outcome()
    if out is None:
        return None
    return 0 if out.winner is None else (1 if out.winner == pos.turn else -1)


def play_to_end(name: str, fen: str, seed: str, plies: int = 1000, variant: Variant | None = None) -> str:
    """A random game from ``fen`` of the library's ``name`` (or of ``variant``, loaded into
    Fairy-Stockfish as ``name``) with move lists compared at every ply and the result at its end;
    returns how ours ended."""
    rng = random.Random(seed)
    v = variant or game(name)
    pos, moves = Position(v) if fen == sf.start_fen(name) else from_fen(v, fen), []  # FSF's may omit fields
    for _ply in range(plies):
        legal = {text(pos, m): m for m in pos.legal_moves()}
        assert set(legal) == set(sf.legal_moves(name, fen, moves)), f"{name} after {' '.join(moves)}"
        result = mine(pos)
        if result is not None:
            ended = pos.outcome().termination
            if ended == "insufficient material":  # Fairy-Stockfish asks about it apart from its game end
                assert sf.has_insufficient_material(name, fen, moves) == (True, True)
            else:
                assert result == fsf_result(name, fen, moves), f"{name} after {' '.join(moves)}: {pos.outcome()}"
            return ended
        choice = rng.choice(sorted(legal))
        pos.make(legal[choice])
        moves.append(choice)
    return "unfinished"


@pytest.mark.parametrize("name", GAMES)
def test_random_games_to_their_end(name):
    ends = [play_to_end(name, sf.start_fen(name), f"{name}{i}") for i in range(5)]
    assert "unfinished" not in ends


@pytest.mark.parametrize("name,fen,depth", [
    ("kingofthehill", "8/8/8/2k5/8/3K4/8/8 w - - 0 1", 3),           # both kings one step from the hill
    ("kingofthehill", "8/8/8/2kq4/8/3K4/8/8 w - - 0 1", 3),          # the hill square e4 is guarded
    ("racingkings", "8/8/8/8/8/8/krbnNBRK/qrbnNBRQ w - - 0 1", 2),
    ("racingkings", "8/1K5k/8/8/8/8/8/8 w - - 0 1", 3),               # both race; Black may still draw
    ("racingkings", "8/1K6/7k/8/8/8/8/2r5 w - - 0 1", 3),             # no move may give check
    ("3check", "r3k2r/ppp2ppp/8/3Q4/8/8/PPP2PPP/R3K2R w KQkq - 1+2 0 1", 3),  # White's next check wins
    ("3check", "4k3/8/8/8/8/8/3q4/R3K2R w KQ - 3+1 0 1", 2),       # in check: evasions, then Black's check
    ("5check", "rnbqkbnr/ppp2ppp/8/3pp3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 5+5 0 1", 3),
    ("antichess", "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w - - 0 1", 3),  # the capture is forced
    ("antichess", "8/8/2k5/8/8/8/1P6/8 w - - 0 1", 5),                 # a king captures; promotion to king
    ("giveaway", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", 3),           # the king is no king: it castles into attack
    ("losers", "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 1", 3),
    ("losers", "4k3/p7/8/8/4r3/8/8/1N2K3 w - - 0 1", 3),               # in check: evasions before captures
    ("losers", "7k/7p/8/8/8/8/6q1/N6K w - - 0 1", 2),                  # the king must take
    ("codrus", "8/8/8/8/8/2p5/1k6/K7 w - - 0 1", 1),                   # the king must take the king, and lose
    ("atomic", "8/8/8/8/3k4/4K3/8/r6R w - - 0 1", 3),                  # touching kings are in no check
    ("atomic", "5r2/8/8/8/8/8/3k4/R3K2R w KQ - 0 1", 3),               # castling beside the other king
    ("atomic", "4k3/4q3/8/8/8/8/3r4/R3K3 w - - 0 1", 3),               # blowing up the king answers a check
    ("atomic", "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", 3),                # en passant explodes on d6
    ("atomic", "2k5/P7/8/8/8/8/6p1/4K2R w K - 0 1", 3),                # promotions that capture explode
    ("atomar", "8/8/8/8/3k4/4K3/8/r6R w - - 0 1", 3),                  # kings take and survive, never each other
    ("nocheckatomic", "8/8/8/2k1K3/3p4/8/8/3R4 w - - 0 1", 2),         # both kings in one blast
    ("minishogi", "4k/5/4G/5/K2R1[P] w - - 0 1", 2),                  # a pawn-drop mate loses for the dropper
    ("minishogi", "4k/4p/5/P4/K4[Pp] w - - 0 1", 3),                   # no pawn dropped beside its own on a file
    ("torishogi", "3k3/7/7/s6/6S/7/3K3[SSss] w - - 0 1", 2),          # two swallows a file, forced promotion
])
def test_rule_positions(name, fen, depth):
    assert walk(from_fen(game(name), fen), name, fen, depth) > 0
    for seed in range(3):
        play_to_end(name, fen, f"{fen}{seed}")


@pytest.mark.parametrize("fen,moves,result", [
    ("8/1K6/8/8/8/8/8/7k w - - 0 1", ["b7b8"], -1),                  # Black cannot reach: White won
    ("8/1K5k/8/8/8/8/8/8 w - - 0 1", ["b7b8"], None),                 # Black can reach the rank: plays on
    ("8/1K5k/8/8/8/8/8/8 w - - 0 1", ["b7b8", "h7h8"], 0),            # both reached: a draw
    ("8/1K5k/8/8/8/8/8/8 w - - 0 1", ["b7b8", "h7g7"], 1),            # Black missed it: White won
    ("8/1K5k/8/8/8/8/8/8 b - - 0 1", ["h7h8"], -1),                   # Black first: White has lost
])
def test_racing_kings_last_move(fen, moves, result):
    pos = from_fen(game("racingkings"), fen)
    for m in moves:
        pos.make({text(pos, x): x for x in pos.legal_moves()}[m])
    assert mine(pos) == result == fsf_result("racingkings", fen, moves)


@pytest.mark.parametrize("name,fen,result", [
    ("antichess", "8/8/8/8/8/8/8/7k w - - 0 1", 1),                  # no pieces left: White has won
    ("antichess", "8/8/8/8/8/k7/P7/8 w - - 0 1", 1),                 # stalemated: White has won
    ("losers", "k7/p7/1Q6/8/8/8/8/7K b - - 0 1", None),               # Black to move may still step
    ("losers", "k7/pQ6/2K5/8/8/8/8/8 b - - 0 1", 1),                  # checkmated: Black has won
    ("losers", "k7/8/8/8/8/8/8/4K2R b - - 0 1", 1),                   # only the king left: Black has won
])
def test_losing_game_ends(name, fen, result):
    assert mine(from_fen(game(name), fen)) == result == fsf_result(name, fen, [])


def test_atomic_blast_removes_and_returns_pieces():
    """A capture removes the capturer and the pieces around the target but pawns; unmake puts them
    back; both kings in one blast lose the game for the side that blew them up, as in Fairy-Stockfish."""
    from morphchess.notation import to_fen

    from common import assert_make_unmake_exact
    fen = "r1bqkbnr/ppp1pppp/2n5/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3"
    pos = from_fen(game("atomic"), fen)
    assert_make_unmake_exact(pos)
    pos.make({text(pos, m): m for m in pos.legal_moves()}["e4d5"])
    assert to_fen(pos).split()[0] == "r1bqkbnr/ppp1pppp/8/8/8/8/PPPP1PPP/RNBQKBNR"  # the knight c6 went too
    pos.unmake()
    assert to_fen(pos) == to_fen(from_fen(game("atomic"), fen))
    fen = "8/8/8/2k1K3/3p4/8/8/3R4 w - - 0 1"
    pos = from_fen(game("nocheckatomic"), fen)
    pos.make({text(pos, m): m for m in pos.legal_moves()}["d1d4"])
    assert pos.outcome().winner == 1 and mine(pos) == fsf_result("nocheckatomic", fen, ["d1d4"]) == 1


def test_pawn_drop_mate_loses_for_the_dropper():
    fen = "4k/5/4G/5/K2R1[P] w - - 0 1"
    pos = from_fen(game("minishogi"), fen)
    pos.make({text(pos, m): m for m in pos.legal_moves()}["P@e4"])
    assert str(pos.outcome()) == "Black wins by pawn-drop mate (0-1)"
    assert mine(pos) == fsf_result("minishogi", fen, ["P@e4"]) == 1


def test_check_counts_in_position_text_and_hash():
    """The ``W+B`` field as Fairy-Stockfish writes it; a check counted, hashed and taken back."""
    from morphchess.notation import to_fen

    from common import assert_make_unmake_exact
    fen = "rnbqkbnr/ppp2ppp/8/3pp3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 3+3 0 1"
    pos = from_fen(game("3check"), fen)
    assert to_fen(pos) == fen and to_fen(Position(game("3check"))) == sf.start_fen("3check")
    assert_make_unmake_exact(pos)
    before = pos.hash
    pos.make({text(pos, x): x for x in pos.legal_moves()}["f1b5"])
    assert pos.checks == (2, 3) and to_fen(pos) == sf.get_fen("3check", fen, ["f1b5"])
    pos.unmake()
    assert pos.checks == (3, 3) and pos.hash == before
    assert from_fen(game("3check"), fen.replace("3+3", "1+3")).hash != before


def test_flag_keys_and_any_piece_flag():
    """flagPiece = * counts any piece; per-colour regions; a kingless game won by its flag only."""
    from test_fairy_ini import quiet_load
    v = quiet_load("[race:chess]\nking = -\ncommoner = k\ncastlingKingPiece = k\nflagPiece = *\n"
                   "flagRegionWhite = *8\nflagRegionBlack = *1\n", "race")
    assert v.flag_piece == (0, 0) and v.flag_region[1] == frozenset(range(8))
    assert not any(t.royal for t in v.types)
    pos = from_fen(v, "4k3/1N6/8/8/8/8/8/4K3 w - - 0 1")
    pos.make({text(pos, x): x for x in pos.legal_moves()}["b7d8"])
    out = pos.outcome()
    assert out is not None and out.termination == "flag" and out.winner == 0 and pos.legal_moves() == []


@pytest.mark.parametrize("name", ["squatter", "kono", "hexapawn", "breakthrough6", "river", "antiantichess",
                                  "rookmate", "nim", "lewthwaite", "allqueenschess", "asimplegame",
                                  "roll-ing-to-four", "symphony", "three-musketeers", "capturethequeen",
                                  "atomic-giveaway", "atomic-giveaway-hill", "6x6atom", "allexplodeatomic",
                                  "gorogoroplus", "antiminishogi", "mounted", "atlantis", "cowboys", "atomicduck",
                                  "picaria", "tictacchess"])
def test_fairy_stockfish_sections_to_their_end(name):
    """Sections of Fairy-Stockfish's own variants.ini that use these rules (flagPieceSafe,
    flagPieceBlockedWin, any-piece flags, losing extinction, check counts from startFen, kingless
    games ended by stalemate, connections: n in a row, n on a line that loses; a kingless game whose
    draws Black wins; atomic captures; shogi-style promotion with drops; a wall put instead of a move,
    on the edge or beside a wall; arrows shot as a knight; a duck beside atomic captures; drops that
    must come first)."""
    from test_fairy_ini import FSF_FILE, quiet_load
    text = FSF_FILE.read_text()
    sf.load_variant_config(text)
    v = quiet_load(text, name)
    ends = [play_to_end(name, sf.start_fen(name), f"{name}{i}", variant=v) for i in range(4)]
    assert "unfinished" not in ends


# Connection rules morphchess reads that no loadable section of Fairy-Stockfish's file uses alone:
# chains between regions (Gale's rule), n x n blocks (Teeko's), a connection that draws, and
# connectPieceTypes with n in a row.
CONNECTIONS = """
[chain]
maxRank = 5
maxFile = 5
customPiece1 = p:mK
startFen = p1p1p/1p1p1/5/1P1P1/P1P1P w - - 0 1
connectRegion1White = a*
connectRegion2White = e*
connectRegion1Black = *1
connectRegion2Black = *5
connectDiagonal = false

[diagonalchain:chain]
customPiece1 = p:mW
startFen = pp1pp/2P2/5/2p2/PP1PP w - - 0 1
connectDiagonal = true

[block]
maxRank = 5
maxFile = 5
customPiece1 = p:mK
startFen = p1p1p/1p1p1/5/1P1P1/P1P1P w - - 0 1
connectNxN = 2
nMoveRule = 0

[drawnline]
maxRank = 5
maxFile = 5
customPiece1 = n:mN
startFen = n1n1n/5/5/5/N1N1N w - - 0 1
collinearN = 3
connectValue = draw
connectVertical = false

[knightrow]
maxRank = 5
maxFile = 5
customPiece1 = n:mN
king = k:mK
startFen = nnnnk/5/5/5/KNNNN w - - 0 1
connectN = 3
connectPieceTypes = n
"""


@pytest.fixture(scope="module")
def connections():
    from test_fairy_ini import quiet_load
    sf.load_variant_config(CONNECTIONS)
    return lambda name: quiet_load(CONNECTIONS, name)


@pytest.mark.parametrize("name", ["chain", "diagonalchain", "block", "drawnline", "knightrow"])
def test_connection_games_to_their_end(name, connections):
    ends = [play_to_end(name, sf.start_fen(name), f"{name}{i}", variant=connections(name)) for i in range(6)]
    assert "unfinished" not in ends


@pytest.mark.parametrize("name,fen,result", [
    ("chain", "pp3/5/1PPPP/PP3/5 b - - 0 1", -1),          # a2-b2, up to b3, east to e3: White has won
    ("chain", "pp3/5/PP3/1PPPP/5 b - - 0 1", None),        # the chain must step south (b3-b2): none, as in FSF
    ("diagonalchain", "p4/5/3P1/P1P1P/1P3 b - - 0 1", -1),  # a2-b1-c2-d3-e2, diagonal links
    ("chain", "1p3/1p3/1p3/1p3/1p2P w - - 0 1", -1),       # Black's file from rank 1 to rank 5
    ("chain", "1p3/pp3/p4/1p3/1p2P w - - 0 1", None),      # its chain would step west (b3-a3): none
    ("block", "p4/5/2PP1/2PP1/5 b - - 0 1", -1),
    ("drawnline", "n3n/5/N1N1N/5/5 b - - 0 1", 0),         # three knights on a rank, gaps between: a draw
    ("drawnline", "n3n/N4/5/N4/N4 b - - 0 1", None),       # on a file, which does not count here
    ("knightrow", "2k2/5/5/5/KNN2 b - - 0 1", None),       # two in a row, the king does not count
])
def test_connection_positions(name, fen, result, connections):
    pos = from_fen(connections(name), fen)
    assert mine(pos) == result == fsf_result(name, fen, [])
    play_to_end(name, fen, fen, variant=connections(name))


# How drawn games score: repetitions worth a win or a loss, for the side to move or for White,
# material counting of draws, stalemates scored by the pieces left.
SCORING = """
[repeatloss:chess]
nFoldRule = 2
nFoldValue = loss

[whiteloses:repeatloss]
nFoldValueAbsolute = true

[counted:chess]
materialCounting = unweighted
nMoveRule = 2

[whiteodds:chess]
materialCounting = whitedrawodds
"""


@pytest.mark.parametrize("name,fen,moves,result", [
    ("repeatloss", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "g1f3 g8f6 f3g1 f6g8", -1),
    ("repeatloss", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "g1f3 g8f6 f3g1 f6g8 g1f3", -1),
    ("whiteloses", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "g1f3 g8f6 f3g1 f6g8", -1),
    ("whiteloses", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "g1f3 g8f6 f3g1 f6g8 g1f3", 1),
    ("counted", "4k3/8/8/8/8/8/PP6/4K3 w - - 0 1", "e1d1 e8d8 d1e1 d8e8", 1),  # two moves each: more pieces win
    ("counted", "4k3/pp6/8/8/8/8/PP6/4K3 w - - 0 1", "e1d1 e8d8 d1e1 d8e8", 0),
    ("counted", "k7/2Q5/1K6/8/8/8/8/8 b - - 0 1", "", -1),              # stalemated, with fewer pieces
    ("whiteodds", "k7/2Q5/1K6/8/8/8/8/8 b - - 0 1", "", -1),
    ("whiteodds", "k7/8/1K6/8/8/8/8/8 w - - 0 1", "", None),             # kings only: play goes on
    ("suicide", "8/8/8/8/8/p7/P7/8 w - - 0 1", "", 0),                   # stalemated, as many pieces
    ("suicide", "7k/8/8/8/8/p7/P7/8 w - - 0 1", "", 1),                  # stalemated with fewer: won
    ("suicide", "8/p7/p7/P7/8/8/8/8 b - - 0 1", "", -1),                 # with more: lost
    # perpetual check loses: the rook checks on b7 and b6 while the general steps back and forth
    ("minixiangqi", "3k3/7/7/7/7/7/1R2K2 w - - 0 1", "b1b7 d7d6 b7b6 d6d7 b6b7 d7d6 b7b6 d6d7 b6b7", 1),
    ("minixiangqi", "3k3/7/7/7/7/7/1R2K2 w - - 0 1", "b1b7 d7d6 b7b6 d6d7 b6b7 d7d6 b7b6 d6d7", None),
    ("minixiangqi", "3k3/7/7/7/7/7/1R2K2 w - - 0 1", "b1b2 d7d6 b2b1 d6d7 b1b2 d7d6 b2b1 d6d7 b1b2", 0),
    ("minixiangqi", "3k3/7/7/7/7/7/1R2K2 w - - 0 1", "b1b7 d7d6 b7b2 d6d7 b2b7 d7d6 b7b2 d6d7 b2b7", 0),
])
def test_draw_scoring(name, fen, moves, result):
    from test_fairy_ini import quiet_load
    sf.load_variant_config(SCORING)
    pos = from_fen(quiet_load(SCORING, name) if name in SCORING else game(name), fen)
    for m in moves.split():
        pos.make({text(pos, x): x for x in pos.legal_moves()}[m])
    assert mine(pos) == result == fsf_result(name, fen, moves.split())


def test_search_plays_the_connection():
    """The engine scores a connection as the game's end: four queens in a row at once."""
    from morphchess.engine.search import mate_moves, search
    from test_fairy_ini import FSF_FILE, quiet_load
    pos = from_fen(quiet_load(FSF_FILE.read_text(), "allqueenschess"), "qq2q/5/3Qq/5/QQQ2 w - - 0 1")
    result = search(pos, depth=3)
    assert text(pos, result.move) == "d3d1" and mate_moves(result.score) == 1


@pytest.mark.parametrize("value", ["loss", "win"])
def test_both_sides_extinct_at_once_in_a_variants_ini_section(value):
    """A promotion that takes the last pawn of each side: Fairy-Stockfish judges the side that moved
    first (it loses, or wins with extinctionValue = win); the ID's rule, the mover wins, is in
    test_rules_extra.py."""
    from test_fairy_ini import FSF_FILE, quiet_load
    name = f"pawnsgone{value}"
    section = f"[{name}:chess]\nextinctionValue = {value}\nextinctionPieceTypes = p\n"
    sf.load_variant_config(FSF_FILE.read_text() + "\n" + section)
    fen = "1p2k3/P7/8/8/8/8/8/4K3 w - - 0 1"
    pos = from_fen(quiet_load(section, name), fen)
    pos.make(next(m for m in pos.legal_moves() if text(pos, m) == "a7b8n"))
    assert mine(pos) == fsf_result(name, fen, ["a7b8n"]) != 0
