"""JSON views of variants for the web board: piece legend, move diagrams, morph tables."""

from __future__ import annotations

from ..diagrams import move_diagram
from ..pieceset import svg, symbol_of
from ..variant import BLACK, WHITE, Variant

__all__ = ["variant_view"]


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
