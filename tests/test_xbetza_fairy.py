"""Hoppers and a two-leg move against Fairy-Stockfish (pyffish), move list by move list.

Fairy-Stockfish knows the cannon (``mRcpR``), the vao (``mBcpB``), the grasshopper
(``gQ``) and the lame knight of Xiangqi (``nN``).  morphchess writes that knight as a
two-leg move twice, ``mafsW`` and the bracket form ``[W-F]`` (a W step to an empty
square, then an F step outward), so its multi-leg walker is compared too.  Checks
through a hurdle (a cannon's screen moving in or out) are exercised by the random games.
"""

from __future__ import annotations

import pytest

from morphchess import Position, load
from morphchess.notation import from_fen, to_fen
from test_perft_fairy import random_games_then_perft, walk

sf = pytest.importorskip("pyffish")

COMMON = """
maxRank = 9
maxFile = 9
promotionRank = 9
castlingKingsideFile = h
castlingQueensideFile = b
castlingKingFile = e
pawn = -
knight = -
bishop = -
queen = -
customPiece1 = p:fmWfcF
customPiece2 = c:mRcpR
customPiece3 = v:mBcpB
customPiece4 = g:gQ
customPiece5 = m:nN
customPiece6 = h:nN
promotionPawnTypes = p
promotionPieceTypes = cvg
startFen = rcvgkmhcr/ppppppppp/9/9/9/9/9/PPPPPPPPP/RCVGKMHCR w KQkq - 0 1
"""

DEFINITION = """
files=9 ranks=9 promoChoice=CVG
pawn:P:fmWfcF:pawn:a2-i2
cannon:C:mRcpR:cannon:b1,h1
vao:V:mBcpB:vao:c1
grasshopper:G:gQ:g:d1
mao:M:mafsW:m:f1
horse:H:[W-F]:h:g1
rook:R:R:rook:a1,i1
king:K:KisO3:king:e1
"""

NAME = "mchoppers"


@pytest.fixture(scope="module")
def variant():
    sf.load_variant_config(f"[{NAME}:chess]{COMMON}")
    return load(DEFINITION, NAME)


def test_start_position_depth3(variant):
    pos = Position(variant)
    assert to_fen(pos) == sf.start_fen(NAME)
    before = to_fen(pos)
    assert walk(pos, NAME, sf.start_fen(NAME), [], 3) == 3055
    assert to_fen(pos) == before


@pytest.mark.parametrize("fen", [
    "4k4/9/9/4p4/9/4P4/9/9/4C3K b - - 0 1",        # two pieces between: no check; a capture would give one
    "4k4/9/9/9/4P4/9/9/9/4C3K b - - 0 1",          # check through the screen on e5
    "4k4/4c4/9/9/4P4/9/9/9/4K4 w - - 0 1",         # White's pawn e5 is pinned by the cannon's screen rule
    "k8/9/2p6/9/4G4/9/9/9/8K w - - 0 1",           # grasshopper over c7 to b8, next to the king
    "4k4/9/9/9/2M1H4/3p5/9/9/4K4 w - - 0 1",       # lame knights blocked on d4
    "3vk4/9/9/9/9/9/5P3/9/7K1 w - - 0 1",          # vao through the f3 screen
])
def test_positions(variant, fen):
    walk(from_fen(variant, fen), NAME, fen, [], 3)


def test_random_games_then_perft(variant):
    random_games_then_perft(variant, NAME, 4, (16, 50))
