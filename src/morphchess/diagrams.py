"""Move diagrams: where a lone piece may go from a central square of an open board.

A diagram is what the Interactive Diagram's move diagrams show, found by asking
:class:`~morphchess.position.Position` for legal moves (so it can never disagree
with play): a lone White piece on the empty board gives the quiet moves; one
Black piece put on each square in turn gives the captures; a hurdle on a square
(and a victim beyond it) gives the hops.  Each square reached gets a set of flags:

===============  ================================================================
``move``         a quiet move ends there
``capture``      a capture there (also a piece taken on the way by a multi-leg move)
``hop-move``     a quiet move there, only over a hurdle (grasshoppers, cannons)
``hop-capture``  a capture there, only over a hurdle (the cannon's capture)
``legs``         where a multi-leg move ends that captures on the way (a locust's landing
                 square) or comes back to its start, and no plainer move does
``initial``      every way there exists only while the piece has not moved
===============  ================================================================

The web legend and the published rules pages (:mod:`morphchess.publish`) both
draw from :func:`move_diagram`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .move import Kind
from .pieces import code
from .position import Position
from .variant import BLACK, WHITE, PieceType, Variant

__all__ = ["FLAGS", "MoveDiagram", "move_diagram", "centre_square"]

FLAGS = ("move", "capture", "hop-move", "hop-capture", "legs", "initial")
_NOT_DIAGRAM = (Kind.TRANSFORM, Kind.CASTLE, Kind.DROP)


@dataclass(frozen=True)
class MoveDiagram:
    """A piece on ``square`` and the flags of every square it reaches (``marks``: square -> flags)."""

    square: int
    marks: dict[int, frozenset[str]]

    def squares(self, flag: str) -> list[int]:
        """The squares that carry ``flag``."""
        return sorted(s for s, flags in self.marks.items() if flag in flags)

    def kind(self, sq: int) -> str | None:
        """One word for a square, as the web legend colours it: initial, hop, legs, move, capture, both."""
        flags = self.marks.get(sq, frozenset())
        if not flags:
            return None
        if "initial" in flags:
            return "initial"
        move, capture = flags & {"move", "hop-move"}, flags & {"capture", "hop-capture"}
        if not flags & {"move", "capture"} and (move or capture):
            return "hop"
        if not move and not capture:
            return "legs"
        return "both" if move and capture else "move" if move else "capture"

    def by_kind(self, v: Variant) -> dict:
        """Square names under each :meth:`kind`, and the piece's square under ``square`` (the web's JSON)."""
        out: dict = {k: [] for k in ("move", "capture", "both", "initial", "hop", "legs")}
        for name, s in sorted((v.square_name(s), s) for s in self.marks):
            out[self.kind(s) or "move"].append(name)
        return {"square": v.square_name(self.square), **out}


def centre_square(v: Variant) -> int:
    """The square a diagram puts its piece on: the centre, or the nearest square that is not a hole."""
    files, ranks = v.files, v.ranks
    centre = (ranks // 2) * files + files // 2

    def distance(s: int) -> tuple[int, int]:
        return abs(s % files - centre % files) + abs(s // files - centre // files), s

    return min((s for s in range(files * ranks) if s not in v.holes), key=distance)


class _Probe:
    """Legal moves of one White piece on an open board, with chosen Black pieces beside it."""

    def __init__(self, v: Variant, t: PieceType, unmoved: bool) -> None:
        self.v, self.t, self.sq = v, t, centre_square(v)
        self.piece = code(t.index, WHITE, unmoved)
        victims = [u for u in v.types if not u.royal and u.index not in v.iron] or list(v.types)
        self.other = code(victims[0].index, BLACK, v.tables.tracks_virgin[victims[0].index])
        self.others = [s for s in range(v.size) if s != self.sq and s not in v.holes]

    def moves(self, black: Iterable[int] = ()) -> tuple[Position, list]:
        """The position with Black pieces on ``black``, and the piece's legal moves in it."""
        board = [0] * self.v.size
        for s in black:
            board[s] = self.other
        board[self.sq] = self.piece
        pos = Position.from_board(self.v, board)
        return pos, [m for m in pos.legal_moves() if m.origin == self.sq and m.kind not in _NOT_DIAGRAM]

    def flags(self) -> dict[int, set[str]]:
        """Every square reached, with how (the flags of :data:`FLAGS` but ``initial``)."""
        out: dict[int, set[str]] = {}
        legs: set[int] = set()  # where moves of several legs end
        _pos, moves = self.moves()
        for m in moves:  # a move of several legs that comes back to its square marks it
            if m.target == self.sq:
                legs.add(m.target)
            else:
                out.setdefault(m.target, set()).add("move")
        for s in self.others:
            pos, moves = self.moves((s,))
            for m in moves:
                if pos.capture_square(m) == s:
                    out.setdefault(s, set()).add("capture")
                    if m.kind is Kind.LEGS and m.target != s:
                        legs.add(m.target)
        for s in legs - set(out):
            out[s] = {"legs"}
        if self.t.moves.hops or self.t.moves.paths:
            self._hurdled(out)
        return out

    def _hurdled(self, out: dict[int, set[str]]) -> None:
        """Add what the piece reaches only with a hurdle between: quietly, or capturing beyond it."""
        hop_moves: set[int] = set()
        hop_captures: set[int] = set()
        for h in self.others:
            _pos, moves = self.moves((h,))
            hop_moves.update(m.target for m in moves if m.target != h)
            for s in self._beyond(h):
                pos, moves = self.moves((h, s))
                hop_captures.update(s for m in moves if pos.capture_square(m) == s)
        for s in hop_moves:
            if not out.get(s, set()) & {"move", "legs"}:
                out.setdefault(s, set()).add("hop-move")
        for s in hop_captures:
            if "capture" not in out.get(s, set()):
                out.setdefault(s, set()).add("hop-capture")

    def _beyond(self, h: int) -> list[int]:
        """The squares on the straight line from the piece through ``h``, past ``h``."""
        F = self.v.files
        dx, dy = h % F - self.sq % F, h // F - self.sq // F
        if dx and dy and abs(dx) != abs(dy):
            return []
        sx, sy = (dx > 0) - (dx < 0), (dy > 0) - (dy < 0)
        out, x, y = [], h % F + sx, h // F + sy
        while 0 <= x < F and 0 <= y < self.v.ranks:
            out.append(y * F + x)
            x, y = x + sx, y + sy
        return out


def move_diagram(v: Variant, t: PieceType) -> MoveDiagram:
    """The move diagram of type ``t``: a White piece on :func:`centre_square` of an empty board."""
    return v.derived(("move_diagram", t.index), lambda: _diagram(v, t))


def _diagram(v: Variant, t: PieceType) -> MoveDiagram:
    tracks = v.tables.tracks_virgin[t.index]
    flags = _Probe(v, t, tracks).flags()
    if tracks:
        later = _Probe(v, t, False).flags()
        for s in set(flags) - set(later):
            flags[s].add("initial")
    return MoveDiagram(centre_square(v), {s: frozenset(f) for s, f in flags.items()})
