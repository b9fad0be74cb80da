"""JSON views of variants for the web board: piece legend, move diagrams, morph tables."""

from __future__ import annotations

from ..pieces import code
from ..position import Position
from ..variant import BLACK, WHITE, PieceType, Variant
from .pieces import svg, symbol_of

__all__ = ["variant_view", "move_diagram"]


def move_diagram(v: Variant, t: PieceType) -> dict:
    """Where a White piece of type ``t`` on a central square of an empty board may go.

    Returns square names under ``move`` (move only), ``capture`` (capture only),
    ``both``, and ``initial`` (targets only a never-moved piece has)."""
    centre = (v.ranks // 2) * v.files + v.files // 2
    tables = v.tables
    tracks = tables.tracks_virgin[t.index]

    def targets(piece: int) -> tuple[set, set]:
        reach = list(tables.reach(piece, centre))
        quiet, captures = _path_targets(v, piece, centre)
        return (quiet | {to for to, _b, move, _c, _ep in reach if move},
                captures | {to for to, _b, _m, cap, _ep in reach if cap})

    quiet, captures = targets(code(t.index, WHITE, tracks))
    initial: set = set()
    if tracks:
        later_quiet, later_captures = targets(code(t.index, WHITE, False))
        initial = (quiet | captures) - (later_quiet | later_captures)
    name = v.square_name
    return {
        "square": name(centre),
        "move": sorted(name(s) for s in quiet - captures - initial),
        "capture": sorted(name(s) for s in captures - quiet - initial),
        "both": sorted(name(s) for s in quiet & captures - initial),
        "initial": sorted(name(s) for s in initial),
    }


def _path_targets(v: Variant, piece: int, centre: int) -> tuple[set, set]:
    """Where the multi-leg moves (XBetza ``a``) of code ``piece`` on ``centre`` end: on an empty board
    (quiet), and taking a lone Black piece put on each square in turn (captures).  ``Tables.reach``
    leaves these out; the move walker follows their legs."""
    t = v.tables
    more = t.moves[piece][centre][3]
    if not more or not more[2]:
        return set(), set()
    enemy = code(next((x.index for x in v.types if not x.royal), v.types[0].index), BLACK)

    def ends(board: list[int]) -> set:
        moves = Position.from_board(v, board).pseudo_moves()
        return {m.target for m in moves if m.origin == centre and m.target != centre}

    empty = [0] * t.size
    empty[centre] = piece
    captures = set()
    for sq in range(t.size):
        if sq != centre and sq not in t.holes:
            board = list(empty)
            board[sq] = enemy
            if sq in ends(board):
                captures.add(sq)
    return ends(empty), captures


def variant_view(key: str, v: Variant) -> dict:
    """Everything the page needs to draw a variant and its legend."""
    types = []
    for t in v.types:
        sym = symbol_of(t)
        types.append({
            "letter": t.letter,
            "name": t.name,
            "betza": t.betza,
            "royal": t.royal,
            "symbol": sym.describe(),
            "svg": [svg(sym, WHITE, f"w{t.letter}"), svg(sym, BLACK, f"b{t.letter}")],
            "promotes": v.promotes(t),
            "morph": None if t.morph is None else [v.type(i).letter if i else "" for i in t.morph],
            "diagram": move_diagram(v, t),
        })
    def letter(i: int) -> str:
        return v.type(i).letter

    return {
        "key": key,
        "name": v.name,
        "files": v.files,
        "ranks": v.ranks,
        "holes": sorted(v.square_name(s) for s in v.holes),
        "setups": list(v.setups),
        "types": types,
        "promotion": {"zone": v.promo_zone, "choices": [letter(i) for i in v.promo_choice]},
        "transforms": [[letter(i) for i in group] for group in v.transforms],
        "rules": {
            "stalemate": "loses" if v.stalemate_loses else "draw",
            "bare_king": v.baring is not None,
            "fifty_moves": v.fifty_moves,
            "repetitions": v.repetitions,
        },
        "warnings": list(v.warnings),
        "definition": v.text,
    }
