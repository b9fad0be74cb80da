"""Shogi style promotion (promoOffset), hands with demotion (holdingsType=-1) and drops against
Fairy-Stockfish's minishogi (pyffish), move list by move list in random games.

Two rules of Fairy-Stockfish's shogi are not the ID's: one pawn per file for drops (the ID has
no drop rule but the piece's moves) and the pawn's forced promotion on the last rank (the ID
makes promotion optional).  Those moves are left out of morphchess's list before comparing;
Fairy-Stockfish is told to allow pawn-drop mates, which the ID allows too.
"""

from __future__ import annotations

import random
import warnings

import pytest

from morphchess import Position, load
from morphchess.move import Kind
from morphchess.notation import to_fen

sf = pytest.importorskip("pyffish")

NAME = "mcminishogi"
# Types 1..4 promote to types 7..10 (promoOffset=6); gold and king stay.
DEFINITION = """files=5 ranks=5 promoZone=1 promoOffset=6 maxPromote=4 promoChoice=+ holdingsType=-1
symmetry=rotate royal=K
pawn:P:fW:pawn:a2
silver:S:FfW:silver:c1
bishop:B:B:bishop:d1
rook:R:R:rook:e1
gold:G:WfF:gold:b1
king:K:K:king:a1
tokin:T:WfF:tokin:
promoted silver:U:WfF:u:
horse:H:BW:horse:
dragon:D:RF:dragon:
"""


@pytest.fixture(scope="module")
def variant():
    sf.load_variant_config(f"[{NAME}:minishogi]\nshogiPawnDropMateIllegal = false\n")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return load(DEFINITION, NAME)


def text(pos: Position, m) -> str:
    """Fairy-Stockfish's move text: ``P@c3`` drops, ``+`` for a promotion."""
    v = pos.variant
    if m.kind is Kind.DROP:
        return f"{pos.t.letter[m.piece].upper()}@{v.square_name(m.target)}"
    promotes = (m.piece >> 2) != (pos.board[m.origin] >> 2)
    return v.square_name(m.origin) + v.square_name(m.target) + ("+" if promotes else "")


def comparable(pos: Position) -> dict:
    out = {}
    for m in pos.legal_moves():
        pawn = pos.t.letter[m.piece].upper() == "P"
        if pawn and m.kind is Kind.DROP and any(pos.board[f] == m.piece for f in range(m.target % 5, 25, 5)):
            continue  # a second pawn on a file
        if pawn and m.kind is not Kind.DROP and m.target // 5 in (0, 4):
            continue  # a pawn on the last rank, unpromoted
        out[text(pos, m)] = m
    return out


def test_start_position(variant):
    assert to_fen(Position(variant)) == sf.start_fen(NAME).replace("[-] w 0 1", "[] w - - 0 1")


def test_random_games(variant):
    start = sf.start_fen(NAME)
    rng = random.Random(NAME)
    seen = set()
    for _game in range(10):
        pos, moves = Position(variant), []
        for _ply in range(rng.randrange(30, 80)):
            mine = comparable(pos)
            assert set(mine) == set(sf.legal_moves(NAME, start, moves)), " ".join(moves)
            if not mine:
                break
            choice = rng.choice(sorted(mine))
            seen.update(k for k in ("@", "+") if k in choice)
            pos.make(mine[choice])
            moves.append(choice)
    assert seen == {"@", "+"}
