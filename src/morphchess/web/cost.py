"""What a variant costs the server: an estimate made once, when its definition is compiled.

A variant's price is paid in three places: its move tables (every move of every
piece code from every square, built as the engine walks the board), the legal
moves of each position a game keeps, and the engine's evaluation tables.  None
of them may be measured by building it (that is the cost itself), so
:func:`estimate` samples: the table moves of every piece code from a few squares
spread over the board, scaled to the whole board, and the legal moves of the
start position.  The budgets of :mod:`morphchess.web.limits` refuse or cap a
variant's games, imports, analyses and engine searches from these figures
before any of that work starts.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..board import Board
from ..variant import Variant
from .errors import BadInput

__all__ = ["Cost", "estimate", "cost_of", "check_replay", "check_engine", "engine_refusal", "MOVE_BYTES",
           "TABLE_MOVE_BYTES", "PLY_BYTES", "REPLAY_BYTES", "ENGINE_BYTES"]

SAMPLE = 16  # squares sampled per piece code
# Bytes measured with tracemalloc (130 to 190 a legal move, 10 to 204 a table move on built-in and
# 16x16 definitions; tests/test_web_budgets.py checks them against real builds):
MOVE_BYTES = 200  # one legal move a board keeps (the Move, its core tuple, its place in a set)
TABLE_MOVE_BYTES = 200  # one move of the move tables (with its share of the entries holding it)
PLY_BYTES = 1000  # one played move of a kept board (its Move, the position's undo entry)
MB = 1 << 20
REPLAY_BYTES = 256 * MB  # moves read from a request (a new game's, an analysis's) hold at most this
ENGINE_BYTES = 256 * MB  # the engine plays a variant whose move tables take at most this


@dataclass(frozen=True)
class Cost:
    """A variant's estimated cost: its board, piece codes, the moves of its tables, and the legal
    moves of its start position."""

    squares: int
    codes: int
    pieces: int
    table_moves: int
    legal: int

    @property
    def table_bytes(self) -> int:
        """Bytes of the move tables once the whole board is walked (the engine walks it)."""
        return self.table_moves * TABLE_MOVE_BYTES

    @property
    def position_bytes(self) -> int:
        """Bytes of one position's legal moves as a board keeps them (as many as the start's)."""
        return max(self.legal, 1) * MOVE_BYTES

    def replay_bytes(self, plies: int) -> int:
        """Bytes a board holds after ``plies`` moves read from a record (each position's legal moves)."""
        return plies * (self.position_bytes + PLY_BYTES)

    def board_bytes(self, plies: int) -> int:
        """Bytes of a kept board: its played moves and one position's legal moves."""
        return plies * PLY_BYTES + self.position_bytes + self.squares * 8


def estimate(v: Variant) -> Cost:
    """The cost of a compiled variant (see the module documentation); builds the move tables of a
    sample of squares and the start position's legal moves, nothing more."""
    t = v.tables
    size = v.size
    step = max(1, size // SAMPLE)
    sample = range(step // 2, size, step)
    sampled = 0
    for c in range(t.ncodes):
        if t.valid[c]:
            sampled += sum(len(t.becomes(c, to)) for sq in sample for to, *_rest in t.reach(c, sq))
    start = Board(v)
    return Cost(squares=size, codes=t.ncodes, pieces=sum(1 for p in start.position.board if p),
                table_moves=sampled * size // len(sample), legal=len(start.legal_moves))


def cost_of(v: Variant) -> Cost:
    """The cost of ``v``, estimated once and kept with the variant."""
    return v.derived(("web cost",), lambda: estimate(v))


def check_replay(v: Variant, plies: int) -> None:
    """Refuse (BadInput) ``plies`` moves on ``v`` to be read at once if their positions' legal moves
    would take over :data:`REPLAY_BYTES` (before a move is read)."""
    cost = cost_of(v)
    if cost.replay_bytes(plies) > REPLAY_BYTES:
        most = REPLAY_BYTES // (cost.position_bytes + PLY_BYTES)
        raise BadInput(f"moves: {plies} given; this variant has {cost.legal} legal moves a position, so at most "
                       f"{most} are read at once (play the others one by one)")


def engine_refusal(v: Variant) -> str | None:
    """Why the engine does not play ``v`` (its move tables would take over :data:`ENGINE_BYTES`), or None."""
    cost = cost_of(v)
    if cost.table_bytes <= ENGINE_BYTES:
        return None
    return (f"the engine does not play this variant here: its move tables would take about "
            f"{cost.table_bytes // MB} MB (at most {ENGINE_BYTES // MB} MB)")


def check_engine(v: Variant) -> None:
    """Refuse (BadInput) an engine search on ``v`` when :func:`engine_refusal` gives a reason."""
    why = engine_refusal(v)
    if why is not None:
        raise BadInput(why)
