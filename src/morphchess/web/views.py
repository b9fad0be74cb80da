"""JSON views of variants for the web board: piece legend, move diagrams, morph tables."""

from __future__ import annotations

from ..boardstyle import lines_of
from ..cjk_glyphs import OUTLINES
from ..diagrams import move_diagram
from ..pieceset import svg, symbol_of
from ..variant import BLACK, WHITE, PieceType, Variant

__all__ = ["variant_view", "board_view", "zones_view"]


def variant_view(key: str, v: Variant) -> dict:
    """Everything the page needs to draw a variant and its legend."""
    types = []
    for t in v.types:
        sym = symbol_of(t, v.board_style)
        types.append({
            "letter": t.letter,
            "name": t.name,
            "betza": t.betza,
            "royal": t.royal,
            "symbol": sym.describe(),
            "svg": [svg(sym, WHITE, f"w{t.letter}"), svg(sym, BLACK, f"b{t.letter}")],
            "promotes": v.promotes(t),
            "morph": None if t.morph is None else [v.type(i).letter if i else "" for i in t.morph],
            "diagram": move_diagram(v, t).by_kind(v),
        })
    def letter(i: int) -> str:
        return v.type(i).letter

    return {
        "key": key,
        "name": v.name,
        "files": v.files,
        "ranks": v.ranks,
        "holes": sorted(v.square_name(s) for s in v.holes),
        "board": board_view(v),
        "zones": zones_view(v),
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


def board_view(v: Variant) -> dict:
    """How the board is drawn (morphchess.boardstyle): its style, and for a board of points the rank
    (from 0) below which the river runs, the palaces as [first corner, far corner] square names and
    the river's words as outlines (SVG path data on a 100 x 100 box)."""
    lines = lines_of(v)
    if lines is None:
        return {"style": v.board_style}
    name = v.square_name
    return {"style": v.board_style, "river": lines.river,
            "palaces": [[name(r0 * v.files + f0), name(r1 * v.files + f1)] for f0, r0, f1, r1 in lines.palaces],
            "words": [OUTLINES[ch] for ch in "楚河漢界"] if lines.river is not None else []}


def zones_view(v: Variant) -> list[dict]:
    """The zones a definition names, for the page to show on request: each side's promotion zone, and
    for each group of types kept to part of the board (a palace, the own half) the squares each side's
    pieces of the group may stand on."""
    out = []
    sides = ((WHITE, "White's"), (BLACK, "Black's"))
    if v.promo_zone and any(v.promotes(t) for t in v.types):
        for colour, side in sides:
            rows = [v.ranks - 1 - d if colour == WHITE else d for d in range(v.promo_zone)]
            out.append({"name": f"{side} promotion zone",
                        "squares": _names(v, {r * v.files + f for r in rows for f in range(v.files)})})
    groups: dict[frozenset[int], list[PieceType]] = {}
    for t in v.types:
        if v.barred.get(t.index):
            groups.setdefault(v.barred[t.index], []).append(t)
    everywhere = set(range(v.files * v.ranks))
    for group in groups.values():
        names = " and ".join(t.name for t in group)
        for colour, side in sides:
            allowed = everywhere - v.barred_squares(group[0].index, colour)
            out.append({"name": f"where {side} {names} may stand", "squares": _names(v, allowed)})
    return out


def _names(v: Variant, squares: set[int]) -> list[str]:
    return sorted(v.square_name(sq) for sq in squares if sq not in v.holes)
