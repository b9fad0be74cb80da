"""JSON views of variants for the web board: piece legend, move diagrams, morph tables."""

from __future__ import annotations

from ..notation import from_fen
from ..tables import code
from ..variant import BLACK, WHITE, PieceType, Variant
from .pieces import svg, symbol_of

__all__ = ["variant_view", "move_diagram"]


def _lone_piece_fen(v: Variant, letter: str, sq: int) -> str:
    rows = []
    for r in range(v.ranks - 1, -1, -1):
        row, empty = "", 0
        for f in range(v.files):
            if r * v.files + f == sq:
                row += (str(empty) if empty else "") + letter
                empty = 0
            else:
                empty += 1
        rows.append(row + (str(empty) if empty else ""))
    return "/".join(rows) + " w - - 0 1"


def move_diagram(v: Variant, t: PieceType) -> dict:
    """Where a White piece of type ``t`` on a central square of an empty board may go.

    Returns square names under ``move`` (move only), ``capture`` (capture only),
    ``both``, and ``initial`` (targets only a never-moved piece has)."""
    centre = (v.ranks // 2) * v.files + v.files // 2
    tracks = v.tables.tracks_virgin[t.index]
    pos = from_fen(v, _lone_piece_fen(v, t.letter + ("^" if tracks else ""), centre))

    def targets(piece: int) -> tuple[set, set]:
        pos.board[centre] = piece
        quiet = {m[1] for m in pos.pseudo_moves() if m[0] == centre and m[1] != centre}
        captures = set()
        enemy = code(v.types[0].index, BLACK)
        for sq in range(v.size):
            if sq == centre:
                continue
            pos.board[sq] = enemy
            if any(m[0] == centre and m[1] == sq for m in pos.pseudo_moves()):
                captures.add(sq)
            pos.board[sq] = 0
        return quiet, captures

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
