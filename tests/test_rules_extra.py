"""Game-parameter rules of the Interactive Diagram: extinction, succession, iron pieces and the
Lion-trading rules (protected, counterStrike); docs/rules.md says how each is played."""

from __future__ import annotations

import random
import warnings
from pathlib import Path

import pytest

from morphchess import Board, Position, load
from morphchess.notation import from_fen, move_to_coord, parse_coord, to_fen

from common import EXTINCTION, assert_make_unmake_exact


def texts(pos: Position) -> set[str]:
    return {move_to_coord(pos, m) for m in pos.legal_moves()}


# -- extinction ----------------------------------------------------------------------------


def test_an_extinction_type_is_not_royal_unless_royal_names_it():
    v = load(EXTINCTION, "extinction")
    assert not v.warnings and not any(t.royal for t in v.types)
    named = load("royal=K " + EXTINCTION, "x")
    assert [t.letter for t in named.types if t.royal] == ["K"]
    assert load(EXTINCTION.replace("KQRBNP", "R"), "x").type_by_letter("K").royal  # the default stays


sf = pytest.importorskip("pyffish")


@pytest.mark.parametrize("seed", range(4))
def test_extinction_games_against_fairy_stockfish(seed):
    """Fairy-Stockfish's extinction chess: the same moves at every ply (castling included: a king
    that is not royal castles with no regard to attacks), and the game ends by extinction exactly
    when and as Fairy-Stockfish says."""
    v = load(EXTINCTION, "extinction")
    rng = random.Random(seed)
    ended = 0
    for _ in range(8):
        fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
        pos, moves = from_fen(v, fen), []
        for _ply in range(200):
            over, value = sf.is_immediate_game_end("extinction", fen, moves)
            outcome = pos.outcome()
            assert (outcome is not None and outcome.termination == "extinction") == over, moves
            if over:
                assert value < 0 and outcome.winner == pos.turn ^ 1  # the side to move lost
                ended += 1
                break
            mine = {move_to_coord(pos, m): m for m in pos.legal_moves()}
            assert set(mine) == set(sf.legal_moves("extinction", fen, moves)), moves
            if outcome or not mine:
                break
            captures = [t for t in sorted(mine) if pos.captured(mine[t])]
            text = rng.choice(captures if captures and rng.random() < 0.7 else sorted(mine))
            pos.make(mine[text])
            moves.append(text)
    assert ended >= 4


@pytest.mark.parametrize("fen", [
    "rnbqkr2/ppppp1pp/8/8/8/2NBQ3/PPPPP1PP/R3K2R w KQq - 0 1",  # castling through and out of attack
    "r3k2r/pppq1ppp/2nbbn2/8/8/2NBBN2/PPPQ1PPP/R3K2R b KQkq - 0 1",
])
def test_a_king_that_is_not_royal_castles_as_fairy_stockfish_says(fen):
    pos = from_fen(load(EXTINCTION, "extinction"), fen)
    assert to_fen(pos) == fen
    mine = {move_to_coord(pos, m): m for m in pos.legal_moves()}
    assert set(mine) == set(sf.legal_moves("extinction", fen, []))
    assert {m for m in mine if m.startswith(("e1g1", "e1c1", "e8g8", "e8c8"))}
    for text, m in mine.items():
        pos.make(m)
        assert set(texts(pos)) == set(sf.legal_moves("extinction", fen, [text])), text
        pos.unmake()
    assert_make_unmake_exact(pos)


def _move(pos: Position, text: str):
    return parse_coord(pos, text)


def test_the_side_that_moves_wins_when_both_lose_a_type():
    v = load("extinction=P\npawn:P:fmWfcF::\nknight:N:N::b1\nking:K:K::e1", "x")
    pos = from_fen(v, "1n2k3/P7/8/8/8/8/7p/4K3 w - - 0 1")
    pos.make(_move(pos, "a7b8n"))  # takes nothing of Black's pawns: White has no pawn left
    assert pos.outcome().termination == "extinction" and pos.outcome().winner == 1
    pos.unmake()
    both = from_fen(v, "1p2k3/P7/8/8/8/8/8/4K3 w - - 0 1")
    both.make(_move(both, "a7b8n"))  # White's last pawn promotes taking Black's last pawn
    assert both.outcome().winner == 0


def test_pieces_in_hand_keep_a_type_alive():
    v = load("extinction=N holdingsType=-2\nknight:N:N::b1\nking:K:K::e1", "x")
    pos = from_fen(v, "4k3/8/8/8/8/8/8/4K3[Nn] w - - 0 1")
    assert pos.outcome() is None
    assert from_fen(v, "4k3/8/8/8/8/8/8/4K3[N] w - - 0 1").outcome().winner == 0


# -- succession ------------------------------------------------------------------------------
SUCCESSION = """succession=F
prince:F:K::d1
rook:R:R::a1
king:K:K::e1
"""


@pytest.fixture(scope="module")
def heirs():
    v = load(SUCCESSION, "heirs")
    assert not v.warnings
    return v


def test_with_a_prince_the_king_may_stand_in_check_and_be_taken(heirs):
    pos = from_fen(heirs, "3fk3/8/8/8/8/8/8/r2FK3 w - - 0 1")  # a1 rook checks nothing yet
    assert pos.guarded(0) == () and not pos.in_check()
    pos = from_fen(heirs, "3fk3/8/8/8/8/8/r7/3FK3 w - - 0 1")
    assert {"e1e2", "d1c2"} <= texts(pos)  # both may step onto the rook's rank
    checked = from_fen(heirs, "3fk3/8/8/8/8/8/8/4K1rF w - - 0 1")
    assert checked.attacked(checked.variant.square("e1"), 1) and not checked.in_check()
    assert {"h1h2", "e1f1", "e1e2", "h1g1"} <= texts(checked)  # the check may be ignored
    lone = from_fen(heirs, "3fk3/8/8/8/8/8/8/4K1r1 w - - 0 1")
    assert lone.in_check() and "e1f1" not in texts(lone) and "e1e2" in texts(lone)


def test_the_prince_takes_over_when_the_king_is_taken(heirs):
    pos = from_fen(heirs, "3fk3/8/8/8/8/8/8/r3K2F b - - 0 1")
    before, h, royals = to_fen(pos), pos.hash, pos.royals
    pos.make(_move(pos, "a1e1"))
    assert pos.royals[0] == (pos.variant.square("h1"),) and pos.guarded(0) == pos.royals[0]
    assert pos.in_check()  # the rook on e1 attacks h1 along the rank: the prince is royal now
    assert texts(pos) == {"h1g2", "h1h2"}  # not g1, which the rook attacks
    made = pos.hash
    pos.refresh()
    assert pos.hash == made
    pos.unmake()
    assert (to_fen(pos), pos.hash, pos.royals) == (before, h, royals)
    assert_make_unmake_exact(pos)


def test_a_lone_prince_is_checkmated(heirs):
    pos = from_fen(heirs, "3fk3/8/8/8/8/8/r7/1r5F w - - 0 1")
    assert pos.royals[0] == (pos.variant.square("h1"),) and not pos.legal_moves()
    assert pos.outcome().termination == "checkmate" and pos.outcome().winner == 1


def test_a_prince_beside_the_king_is_material(heirs):
    assert from_fen(heirs, "4k3/8/8/8/8/8/8/3FK3 b - - 0 1").outcome() is None  # it helps to mate
    assert from_fen(heirs, "4k3/8/8/8/8/8/8/4K3 b - - 0 1").outcome().termination == "insufficient material"
    assert from_fen(heirs, "4k3/8/8/8/8/8/8/5F2 b - - 0 1").outcome().termination == "insufficient material"


def test_a_king_in_check_with_a_prince_is_written_and_read(heirs):
    board = Board(heirs, fen="3fk2R/8/8/8/8/8/8/3FK3 w - - 0 1")  # Black's king attacked, White to move
    assert board.position.attacked(board.variant.square("e8"), 0)
    assert Board(heirs, fen=board.fen()).fen() == board.fen()


# -- iron pieces and the Lion-trading rules -------------------------------------------------------
def test_iron_pieces_are_never_captured():
    v = load("iron=N\nknight:N:N::b1\nlion:L:KNADcaKcabK::d1\nrook:R:R::a1\nking:K:K::e1", "iron")
    assert not v.warnings
    pos = from_fen(v, "4k3/8/8/3nl3/3L4/8/8/R3K3 w - - 0 1")
    moves = texts(pos)
    assert "d4d5" not in moves and "d4e5" in moves  # the knight stays, the lion may be taken
    assert not any(t.startswith("d4d5,") for t in moves)  # not on a lion's way either
    assert "d4e5,e5e6" in moves


ELVEN = Path(__file__).with_name("definitions").joinpath("elven-chess.txt").read_text()


@pytest.fixture(scope="module")
def elven():
    v = load(ELVEN, "elven-chess")
    assert not v.warnings  # protected=9 and counterStrike=9 (the Warlock) are played
    return v


def test_a_warlock_may_not_take_a_warlock_that_can_be_taken_back(elven):
    free = from_fen(elven, "9k/10/10/10/4w5/10/4W5/10/10/K9 w - - 0 1")
    assert "e4e6" in texts(free)
    guarded = from_fen(elven, "9k/10/10/3p6/4w5/10/4W5/10/10/K9 w - - 0 1")
    assert "e4e6" not in texts(guarded)
    igui = from_fen(elven, "9k/10/10/10/3p6/4w5/4W5/10/10/K9 w - - 0 1")
    assert "e4e5" not in texts(igui) and "e4e5,e5e4" in texts(igui)  # taking and stepping back is safe
    pinned = from_fen(elven, "10/10/10/R2p2k3/4w5/10/4W5/10/10/K9 w - - 0 1")  # the pawn may not take back
    assert "e4e6" not in texts(pinned)
    queen = from_fen(elven, "9k/10/10/3p6/4w5/10/4Q5/10/10/K9 w - - 0 1")
    assert "e4e6" in texts(queen)  # only warlocks are held back


def test_after_a_warlock_falls_to_another_piece_no_warlock_may_be_taken_at_once(elven):
    pos = from_fen(elven, "B6r2/9k/10/10/4w5/2N4W2/10/10/10/K9 w - - 0 1")
    pos.make(parse_coord(pos, "c5e6"))
    moves = texts(pos)
    assert "h10h5" not in moves and "h10a10" in moves
    assert_make_unmake_exact(pos)  # the ban is in the hash
    banned = pos.hash
    pos.make(parse_coord(pos, "h10h9"))
    pos.make(parse_coord(pos, "a1a2"))
    assert "h9h5" in texts(pos)  # one move only
    pos.unmake()
    pos.unmake()
    assert pos.hash == banned
    again = from_fen(elven, to_fen(pos))
    assert "h10h5" in texts(again)  # position text has no history: no ban
    assert again.hash != pos.hash


def test_elven_games_make_and_unmake_exactly(elven):
    """Random Elven Chess games that trade warlocks when they can: every move keeps the hash."""
    rng = random.Random(3)
    struck = 0
    for _ in range(4):
        pos = Position(elven)
        for _ply in range(60):
            legal = pos.legal_moves()
            if not legal or pos.outcome(legal) is not None:
                break
            assert_make_unmake_exact(pos)
            diff = pos.hash ^ from_fen(elven, to_fen(pos)).hash  # position text has no history
            assert diff in (0, pos.t.zob_strike)  # only a counter-strike ban tells them apart
            struck += diff != 0
            warlocks = [m for m in legal if pos.t.counter[pos.captured(m)]]
            pos.make(rng.choice(warlocks or legal))
    assert struck > 0


# -- promoChoice '*': promotion only to a piece in hand (Gross Chess) -------------------------------
def test_gross_chess_promotes_only_to_pieces_in_hand():
    v = load(Path(__file__).with_name("definitions").joinpath("gross-chess.txt").read_text(), "gross")
    assert not v.warnings
    pos = from_fen(v, "12/P5k5/12/12/12/12/12/12/12/12/6K5/12[NW] w - - 0 1")
    promotions = {t for t in texts(pos) if t.startswith("a11")}
    assert promotions == {"a11a12n", "a11a12w"}  # '!P': no pawn on the last rank; no queen in hand
    pos.make(parse_coord(pos, "a11a12w"))
    assert to_fen(pos).startswith("W11/6k5/") and "[N]" in to_fen(pos)
    pos.unmake()
    deeper = from_fen(v, "12/12/P5k5/12/12/12/12/12/12/12/6K5/12[NW] w - - 0 1")
    assert {t for t in texts(deeper) if t.startswith("a10")} == {"a10a11", "a10a11n", "a10a11w"}


def test_a_successor_taken_en_passant_leaves_the_royal_squares_right():
    v = load("succession=P\npawn:P:ifmnDfmWfceF::a2-h2\nking:K:K::e1", "pawns")
    pos = from_fen(v, "4k3/8/8/8/4p3/8/3P4/4K3 w - - 0 1")
    pos.make(parse_coord(pos, "d2d4"))
    pos.make(parse_coord(pos, "e4d3"))  # en passant: the victim stood on d4, not on d3
    made = [sorted(squares) for squares in pos.royals]
    pos.refresh()
    assert [sorted(squares) for squares in pos.royals] == made and pos.royals[0] == (v.square("e1"),)


def test_taking_king_and_prince_at_once_wins():
    v = load("succession=F\nprince:F:K::d1\nlion:L:KNADcaKcabK::c1\nking:K:K::e1", "lions")
    pos = from_fen(v, "3fk3/4L3/8/8/8/8/8/4K3 w - - 0 1")
    pos.make(parse_coord(pos, "e7d8,d8e8"))  # the lion takes the prince, then the king
    assert not pos.royals[1]
    assert (pos.outcome().termination, pos.outcome().winner) == ("royal capture", 0)


def test_a_piece_already_of_a_hand_type_moves_without_the_hand():
    """Spartan Chess: a hoplite may promote to a king only from the hand ('*K'), but a (not royal)
    king's own step to the last rank is the same move and needs no king in hand."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # shared IDs, a side without a royal piece
        v = load("holdingsType=1 promoZone=1 maxPromote=2 promoChoice=*N*K symmetry=none\npawn:P:fW::a2\n"
                 "hoplit:H:fW::,,a7\nknight:N:N::b1:8,0\nking (spartan)::K:king:,,c8\n"
                 "king (persian)::KisO2:king:e1", "spartan-like")
    pos = from_fen(v, "k7/8/8/8/8/8/5k2/A7 b - - 0 1")
    assert {"f2e1", "f2f1", "f2g1"} <= texts(pos)
    pos.make(_move(pos, "f2f1"))
    assert not any(map(any, pos.hands))  # no king was taken from a hand
    assert_make_unmake_exact(pos)
