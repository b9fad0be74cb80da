"""Hands and drops against Fairy-Stockfish's crazyhouse (pyffish), move list by move list.

The definition is orthodox chess with ``holdingsType=-2`` (a captured piece goes to the
capturer's hand as it is) and, in one test, a knight in each hand from the start (the sixth
field of the knight's line).  Fairy-Stockfish is told that pawns may be dropped on the first
rank, as morphchess allows every square from which the piece can move.  Games stop before a
promotion: Fairy-Stockfish gives back a pawn for a captured promoted piece, the ID does not.
"""

from __future__ import annotations

import random

import pytest

from morphchess import Position, load
from morphchess.move import Kind
from morphchess.notation import move_to_coord

from common import perft_against

sf = pytest.importorskip("pyffish")

NAME = "mczh"
DEFINITION = """
files=8 ranks=8 promoChoice=QRBN holdingsType=-2
pawn:P:ifmnDfmWfceF:pawn:a2-h2
knight:N:N:knight:b1,g1{hand}
bishop:B:B:bishop:c1,f1
rook:R:R:rook:a1,h1
queen:Q:Q:queen:d1
king:K:KisO2:king:e1
"""


@pytest.fixture(scope="module", autouse=True)
def fairy():
    sf.load_variant_config(f"[{NAME}:crazyhouse]\nfirstRankPawnDrops = true\n")


def variant(hand: str = ""):
    return load(DEFINITION.format(hand=hand), NAME)


def text(pos: Position, m) -> str:
    if m.kind is Kind.DROP:
        return f"{pos.t.letter[m.piece].upper()}@{pos.variant.square_name(m.target)}"
    return move_to_coord(pos, m)


def compare(pos: Position, fen: str, moves: list[str], depth: int) -> int:
    """Perft against Fairy-Stockfish's move lists after ``moves`` from ``fen``."""
    return perft_against(pos, lambda more: set(sf.legal_moves(NAME, fen, more)), depth, moves, text)


def test_knights_in_hand():
    pos = Position(variant(":1"))
    assert pos.hands[0][2] == pos.hands[1][2] == 1
    fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Nn] w KQkq - 0 1"
    assert compare(pos, fen, [], 2) == 2565
    assert pos.perft(3) == 88617  # the count of a move-by-move comparison to depth 3 (slow)


def test_random_games_with_captures_to_hand():
    v = variant()
    fen = sf.start_fen(NAME)
    rng = random.Random(NAME)
    dropped = 0
    for _game in range(3):
        pos, moves = Position(v), []
        for _ply in range(rng.randrange(20, 60)):
            legal = {text(pos, m): m for m in pos.legal_moves()}
            assert set(legal) == set(sf.legal_moves(NAME, fen, moves)), " ".join(moves)
            if not legal or any(len(t) == 5 for t in legal):  # stop before a promotion
                break
            choice = rng.choice(sorted(legal))
            dropped += "@" in choice
            h = pos.hash
            pos.make(legal[choice])
            made = pos.hash
            pos.refresh()
            assert pos.hash == made
            pos.unmake()
            assert pos.hash == h
            pos.make(legal[choice])
            moves.append(choice)
        compare(pos, fen, moves, 2)
    assert dropped > 2
