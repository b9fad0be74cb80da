"""Shuffled start arrays, as the Interactive Diagram's ``shuffle=`` key makes them.

``shuffle=QA,N!BR!AC!QK`` lists groups of piece IDs, applied in turn to the
standard array.  In each group the pieces of the listed types trade places
at random among the squares they stand on.  ``!`` before an ID spreads two
or more pieces of that type over both square shades and keeps a single one
on its shade; ``:`` puts a pair on squares mirrored left-right.  When the royal piece that castles is in a group
together with the type standing in both corners of its rank, it lands
between two of those pieces.  Black's array follows White's by the
definition's symmetry (shuffled on its own with ``symmetry=none``).  The
same seed gives the same array: the array of ``Board(v, setup="shuffle-7")``
is recorded by its setup name.
"""

from __future__ import annotations

import random
import re
from typing import TYPE_CHECKING

from .pieces import BLACK, WHITE

if TYPE_CHECKING:
    from .variant import Variant

__all__ = ["shuffled"]


def shuffled(v: Variant, seed: int) -> dict[int, tuple[int, int]]:
    """The standard array of ``v`` shuffled by its shuffle= groups with ``seed``."""
    rng = random.Random(seed)
    board = dict(v.setups["standard"])
    symmetry = v.params.get("symmetry", "mirror").strip().lower()
    for group in v.shuffle:
        _shuffle_group(v, board, group, WHITE, rng)
        if symmetry == "none":
            _shuffle_group(v, board, group, BLACK, rng)
        else:
            _copy_to_black(v, board, symmetry)
    return board


def shuffled_types(v: Variant) -> set[int]:
    """The type indices that the ``shuffle=`` groups move."""
    return {i for group in v.shuffle for i in _marks(v, group)}


def _marks(v: Variant, group: str) -> dict[int, str]:
    """{type index: prefix} for the IDs of a group (prefix '', '!' or ':')."""
    return {v.type_by_letter(letter).index: prefix if prefix in ("!", ":") else ""
            for prefix, letter in re.findall(r"([!:#]?)(\+?.)", group)}


def _shuffle_group(v: Variant, board: dict, group: str, colour: int, rng: random.Random) -> None:
    marks = _marks(v, group)
    squares = sorted(sq for sq, (t, c) in board.items() if c == colour and t in marks)
    counts: dict[int, int] = {}
    for sq in squares:
        counts[board[sq][0]] = counts.get(board[sq][0], 0) + 1
    king, rook = _castlers(v, board, colour, counts)
    free = list(squares)
    placed: dict[int, int] = {}
    for t, prefix in marks.items():  # pass 1: types spread over the shades
        if prefix and t in counts and t not in (king, rook):
            own = [sq for sq in squares if board[sq][0] == t]
            if prefix == ":" and len(own) == 2:
                _mirrored_pair(v, free, placed, t, rng)
            else:
                _spread(v, free, placed, t, own, rng)
    for t in marks:  # pass 2: the others, the castling pieces last
        if t in counts and t not in placed.values() and t not in (king, rook):
            for _ in range(counts[t]):
                placed[free.pop(rng.randrange(len(free)))] = t
    if king:
        _place_castlers(free, placed, king, rook, rng)
    for sq, t in placed.items():
        board[sq] = (t, colour)


def _spread(v: Variant, free: list[int], placed: dict, t: int, own: list[int], rng: random.Random) -> None:
    """Place the pieces of type t on alternating shades (a single one on the shade it stands on)."""
    shade = (own[0] % v.files + own[0] // v.files) % 2 if len(own) == 1 else rng.randrange(2)
    for _ in own:
        options = [sq for sq in free if (sq % v.files + sq // v.files) % 2 == shade] or free
        sq = rng.choice(options)
        free.remove(sq)
        placed[sq] = t
        shade ^= 1


def _mirrored_pair(v: Variant, free: list[int], placed: dict, t: int, rng: random.Random) -> None:
    """``:`` on a pair: two squares of one rank mirrored left-right (so on both shades on an even
    number of files)."""
    def mirror(sq: int) -> int:
        return sq // v.files * v.files + v.files - 1 - sq % v.files

    options = [sq for sq in free if mirror(sq) in free and mirror(sq) != sq]
    if not options:
        return _spread(v, free, placed, t, [0, 0], rng)
    sq = rng.choice(options)
    for s in (sq, mirror(sq)):
        free.remove(s)
        placed[s] = t


def _castlers(v: Variant, board: dict, colour: int, counts: dict) -> tuple[int, int]:
    """(king type, rook type) when the castling royal and the type on both corners of its rank
    are in the group, else (0, 0)."""
    for sq, (t, c) in board.items():
        if c != colour or not v.type(t).royal or not v.type(t).moves.castlings or counts.get(t) != 1:
            continue
        rank = sq // v.files * v.files
        left, right = board.get(rank), board.get(rank + v.files - 1)
        if left and right and left == right and left[1] == colour and counts.get(left[0]) == 2:
            return t, left[0]
    return 0, 0


def _place_castlers(free: list[int], placed: dict, king: int, rook: int, rng: random.Random) -> None:
    """Three of the remaining squares: the king in the middle one, the two rooks outside it."""
    rest = sorted(free.pop(rng.randrange(len(free))) for _ in range(3))
    placed[rest[0]], placed[rest[1]], placed[rest[2]] = rook, king, rook


def _copy_to_black(v: Variant, board: dict, symmetry: str) -> None:
    """Black's pieces take the places their White partners took (mirror or rotate)."""
    for sq, (t, c) in list(board.items()):
        if c != WHITE:
            continue
        f, r = sq % v.files, sq // v.files
        partner = (v.ranks - 1 - r) * v.files + (f if symmetry == "mirror" else v.files - 1 - f)
        old = board.get(partner)
        if old and old[1] == BLACK:
            board[partner] = (t, BLACK)
