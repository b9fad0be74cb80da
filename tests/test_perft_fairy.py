"""Morph-free 9x9 definitions (and Capablanca Chess, 10x8) against Fairy-Stockfish (pyffish).

Each variant is written twice: as Interactive Diagram text for morphchess and as a
Fairy-Stockfish variant configuration.  At every node of the tree the two move lists
(coordinate text) must be equal, so a difference names the position and the move.
Fairy-Stockfish's perft would stop at a bare king; no position here comes near one.
"""

from __future__ import annotations

import random

import pytest

from morphchess import Position, load
from morphchess.notation import from_fen, move_to_coord, to_fen

from common import perft_against

pytestmark = pytest.mark.slow  # left out of the fast loop (-m "not slow")

sf = pytest.importorskip("pyffish")

# name -> (ID definition, Fairy-Stockfish section)
VARIANTS = {
    # FIDE pawns (double step, en passant), archbishop, chancellor, amazon by promotion, O3.
    "mcfairy": ("""
        files=9 ranks=9 promoChoice=NBRACZ
        pawn:P:ifmnDfmWfceF:pawn:a2-i2
        knight:N:N:knight:b1,h1
        bishop:B:B:bishop:c1,g1
        rook:R:R:rook:a1,i1
        archbishop:A:BN:cardinal:d1
        chancellor:C:RN:chancellor:f1
        amazon:Z:QN:amazon:
        king:K:KisO3:king:e1
        """, """
        customPiece1 = a:BN
        customPiece2 = c:RN
        customPiece3 = z:QN
        startFen = rnbakcbnr/ppppppppp/9/9/9/9/9/PPPPPPPPP/RNBAKCBNR w KQkq - 0 1
        promotionPieceTypes = nbracz
        doubleStepRank = 2
        """),
    # Lame pawns (fWfcnD), nightrider, dragon horse, dragon king, N2, WFDA.
    "mcriders": ("""
        files=9 ranks=9 promoChoice=HDNR
        pawn:P:fWfcnD:pawn:a2-i2
        nightrider:N:NN:nightrider:b1,h1
        dragon horse:H:BW:promotedbishop:c1
        short nightrider:X:N2:x:d1
        squire:W:WFDA:w:f1
        dragon king:D:RF:promotedrook:g1
        rook:R:R:rook:a1,i1
        king:K:KisO3:king:e1
        """, """
        pawn = -
        knight = -
        customPiece1 = p:fWfcnD
        customPiece2 = n:NN
        customPiece3 = h:BW
        customPiece4 = x:N2
        customPiece5 = w:WFDA
        customPiece6 = d:RF
        promotionPawnTypes = p
        promotionPieceTypes = hdnr
        startFen = rnhxkwdnr/ppppppppp/9/9/9/9/9/PPPPPPPPP/RNHXKWDNR w KQkq - 0 1
        """),
    # Two promoting types (maxPromote=2): Snappy's fWfnD pawn and a shatranj pawn fmWfcF;
    # FAG and WDH leapers, queen and amazon.  (Fairy-Stockfish has no lame H, so the
    # speedpawn's fcnH is checked by hand in test_betza.py.)
    "mcspeed": ("""
        files=9 ranks=9 promoChoice=QAZ maxPromote=2
        pawn:P:fWfnD:pawn:a2,c2,e2,g2,i2
        shatranj pawn:S:fmWfcF:s:b2,d2,f2,h2
        knight:N:N:knight:b1,h1
        tripper:T:FAG:t:c1
        threeleaper:W:WDH:w:g1
        rook:R:R:rook:a1,i1
        queen:Q:Q:queen:d1
        amazon:Z:QN:amazon:f1
        archbishop:A:BN:cardinal:
        king:K:KisO3:king:e1
        """, """
        pawn = -
        customPiece1 = p:fWfnD
        customPiece2 = s:fmWfcF
        customPiece3 = t:FAG
        customPiece4 = w:WDH
        customPiece5 = z:QN
        customPiece6 = a:BN
        promotionPawnTypes = ps
        promotionPieceTypes = qaz
        startFen = rntqkzwnr/pspspspsp/9/9/9/9/9/PSPSPSPSP/RNTQKZWNR w KQkq - 0 1
        """),
    # Castling partners of another type: chancellors in the corners (Snappy castles with pawns).
    "mcpartner": ("""
        files=9 ranks=9 promoChoice=QC
        pawn:P:ifmnDfmWfceF:pawn:a2-i2
        chancellor:C:RN:chancellor:a1,i1
        knight:N:N:knight:b1,h1
        bishop:B:B:bishop:c1,g1
        queen:Q:Q:queen:d1,f1
        king:K:KisO3:king:e1
        """, """
        customPiece1 = c:RN
        castlingRookPieces = c
        startFen = cnbqkqbnc/ppppppppp/9/9/9/9/9/PPPPPPPPP/CNBQKQBNC w KQkq - 0 1
        promotionPieceTypes = qc
        doubleStepRank = 2
        """),
}

# Fairy-Stockfish's own Capablanca Chess (10x8, castling O3 on ten files), written as a definition.
CAPABLANCA = """
files=10 ranks=8 promoChoice=QRBNAC royal=K
pawn:P:ifmnDfmWfceF:pawn:a2-j2
rook:R:R:rook:a1,j1
knight:N:N:knight:b1,i1
archbishop:A:BN:cardinal:c1
bishop:B:B:bishop:d1,g1
queen:Q:Q:queen:e1
king:K:KisO3:king:f1
chancellor:C:RN:chancellor:h1
"""

COMMON = """
maxRank = 9
maxFile = 9
promotionRank = 9
castlingKingsideFile = h
castlingQueensideFile = b
castlingKingFile = e
"""


@pytest.fixture(scope="module")
def variants():
    """name -> morphchess Variant, with every Fairy-Stockfish section loaded."""
    ini = "".join(f"[{name}:chess]{COMMON}{section}\n" for name, (_, section) in VARIANTS.items())
    sf.load_variant_config("\n".join(line.strip() for line in ini.splitlines()))
    out = {name: load(text, name) for name, (text, _) in VARIANTS.items()}
    out["capablanca"] = load(CAPABLANCA, "capablanca")
    return out


def ours(pos: Position) -> dict:
    return {move_to_coord(pos, m): m for m in pos.legal_moves()}


def theirs(name: str, fen: str, moves: list[str]) -> set:
    return set(sf.legal_moves(name, fen, moves))


def walk(pos: Position, name: str, fen: str, moves: list[str], depth: int) -> int:
    """Perft against Fairy-Stockfish's ``name`` from ``fen`` after ``moves``, move sets compared at every node."""
    return perft_against(pos, lambda more: theirs(name, fen, more), depth, moves)


def test_start_fen_agrees(variants):
    for name, v in variants.items():
        assert to_fen(Position(v)) == sf.start_fen(name)


@pytest.mark.parametrize("name", [*VARIANTS, "capablanca"])
def test_start_position_depth3(variants, name):
    pos = Position(variants[name])
    before = to_fen(pos)
    n = walk(pos, name, sf.start_fen(name), [], 3)
    assert n > 10_000
    assert to_fen(pos) == before  # make/unmake left the position as it was


# Hand-made positions: castling through and into attack, promotion with capture, en passant.
FENS = [
    ("mcfairy", "r3k3r/pPp3pp1/9/9/9/9/9/1P4Pp1/R3K3R w KQkq - 0 1", 3),
    ("mcfairy", "r3k3r/9/9/3pP4/9/9/9/9/R3K3R w KQkq d7 0 1", 3),
    ("mcfairy", "r3k3r/1P7/9/9/4c4/9/9/4A4/R3K3R b KQkq - 0 1", 2),
    ("mcfairy", "4k4/2P6/9/9/9/6Pp1/9/9/R3K3R b KQ g3 0 1", 3),
    ("mcriders", "r3k3r/ppP6/9/3N5/9/9/6n2/2p3PPP/R3K3R w KQkq - 0 1", 3),
    ("mcriders", "r3k3r/9/9/9/4n4/9/9/9/R3K3R w KQkq - 0 1", 2),
    ("mcspeed", "r3k3r/1sP6/P8/9/9/9/4S4/1p6p/R3K3R w KQkq - 0 1", 3),
    ("mcspeed", "r3k3r/S1z6/9/9/4Z4/9/9/1s7/R3K3R b KQkq - 0 1", 2),
    ("mcpartner", "c3k3c/pp5pp/9/9/4q4/9/9/PP3P1PP/C3K3C w KQkq - 0 1", 3),
    ("mcpartner", "c3k3c/1P7/9/9/9/9/9/9/C3K3C b KQkq - 0 1", 3),
    ("capablanca", "r4k3r/pppppppppp/10/10/10/10/PPPPPPPPPP/R4K3R w KQkq - 0 1", 3),
    ("capablanca", "r4k3r/1P8/5c4/10/10/10/10/R4K3R w KQkq - 0 1", 2),
]


@pytest.mark.parametrize("name,fen,depth", FENS)
def test_positions(variants, name, fen, depth):
    walk(from_fen(variants[name], fen), name, fen, [], depth)


def random_games_then_perft(v, name: str, games: int, plies: tuple[int, int]) -> None:
    """Random games of ``v`` (Fairy-Stockfish's ``name``) with move sets compared at every ply;
    perft(2) where each game stops."""
    rng = random.Random(name)
    start = sf.start_fen(name)
    for _game in range(games):
        pos, moves = Position(v), []
        for _ply in range(rng.randrange(*plies)):
            mine = ours(pos)
            assert set(mine) == theirs(name, start, moves), f"{name} after {' '.join(moves)}"
            if not mine or min(len(pos.material(c)) for c in (0, 1)) < 3:
                break
            text = rng.choice(sorted(mine))
            pos.make(mine[text])
            moves.append(text)
        walk(pos, name, sf.get_fen(name, start, moves), [], 2)


@pytest.mark.parametrize("name", list(VARIANTS))
def test_random_games_then_perft(variants, name):
    random_games_then_perft(variants[name], name, 3, (12, 40))
