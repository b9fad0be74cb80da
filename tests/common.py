"""What several test modules share: the built-in variant lists, random positions, the make/unmake
check, and definition texts (fixtures live in conftest.py)."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

from morphchess import Position, builtin
from morphchess.notation import move_to_coord, to_fen
from morphchess.variant import Variant

DEGENS = ["morphomania", "snappy-chess", "morphing-chess", "crossroads"]
# the games the rules engine was built for; the library's games have their own perft tests
VARIANTS = ["chess", *DEGENS, "polymorph"]
# every built-in start array: (variant, setup)
SETUPS = [(name, setup) for name in VARIANTS for setup in builtin(name).setups]


def random_positions(variant: str | Variant, setup: str, games: int, seed: object,
                     max_plies: int = 120) -> Iterator[Position]:
    """The positions of ``games`` random games of a variant (a built-in's name or a loaded one), one
    Position changed in place (use each before asking for the next); games stop when they end or
    after ``max_plies``."""
    rng = random.Random(seed)
    v = builtin(variant) if isinstance(variant, str) else variant
    for _ in range(games):
        pos = Position(v, setup)
        for _ply in range(rng.randrange(max_plies // 4, max_plies)):
            legal = pos.legal_moves()
            yield pos
            if not legal or pos.outcome(legal) is not None:
                break
            pos.make(rng.choice(legal))


def perft_against(pos: Position, theirs: Callable[[list[str]], set], depth: int, moves: list[str] | None = None,
                  text: Callable = move_to_coord) -> int:
    """Perft of ``pos`` to ``depth``, checking at every node above the leaves that our legal moves,
    as ``text(pos, move)``, are the other program's ``theirs(moves so far)``."""
    moves = moves or []
    mine = {text(pos, m): m for m in pos.legal_moves()}
    other = theirs(moves)
    assert set(mine) == other, (moves, sorted(set(mine) - other), sorted(other - set(mine)))
    if depth == 1:
        return len(mine)
    n = 0
    for t, m in mine.items():
        pos.make(m)
        n += perft_against(pos, theirs, depth - 1, moves + [t], text)
        pos.unmake()
    return n


def assert_make_unmake_exact(pos: Position) -> None:
    """Every legal move leaves a hash equal to a fresh computation, and unmake restores the position."""
    before, h = to_fen(pos), pos.hash
    for m in pos.legal_moves():
        pos.make(m)
        made = pos.hash
        pos.refresh()
        assert pos.hash == made, m
        pos.unmake()
        assert to_fen(pos) == before and pos.hash == h, m


# orthodox chess as the piece lines of a definition, and Chess960 made from them (Fischer castling)
ORTHODOX = """pawn:P:ifmnDfmWfceF::a2-h2
knight:N:N::b1,g1
bishop:B:B::c1,f1
rook:R:R::a1,h1
queen:Q:Q::d1
king:K:KisO2::e1
"""
CHESS960 = "files=8 ranks=8 shuffle=N!BRQK promoChoice=QRBN\n" + ORTHODOX
EXTINCTION = "extinction=KQRBNP promoChoice=QRBNK\n" + ORTHODOX  # Fairy-Stockfish's extinction chess
