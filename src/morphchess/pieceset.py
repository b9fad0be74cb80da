"""The web board's piece set: SVG drawings made for morphchess.

Every piece type gets a *symbol*: a base glyph (the six orthodox ones plus
``nightrider``, ``commoner``), optionally split with a second glyph (left half
| right half: the compounds archbishop, chancellor, amazon, ...) and optionally
a small badge (``plus`` for a dragon horse's extra wazir steps, ``cross`` for a
dragon king's ferz steps, ``rider`` (an infinity sign) for a compound whose knight
part is a nightrider, ``crown`` for a royal non-king, ``speed`` for a speedpawn,
``mitre``/``horse`` for Polymorph's Knishop and Bishight).  Types
with no known shape are drawn as their letter in a disc.  On a Xiangqi board
(:mod:`morphchess.boardstyle`) the pieces are discs with their Chinese characters,
red for White and black for Black, chosen by their moves (:data:`XIANGQI_FACES`).
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape

from .cjk_glyphs import OUTLINES
from .variant import PieceType

__all__ = ["Symbol", "symbol_of", "svg"]


@dataclass(frozen=True)
class Symbol:
    """How a piece type is drawn: ``base`` glyph, optional ``split`` glyph (right half), ``badge``."""

    base: str  # a glyph name, or "letter"
    split: str | None = None
    badge: str | None = None
    letter: str = ""
    face: str = ""  # base "face": the Chinese characters of White's and Black's piece


    def describe(self) -> str:
        words = {"letter": f"letter {self.letter}", "face": f"face {self.face}"}.get(self.base, self.base)
        if self.split:
            words += f" | {self.split}"
        if self.badge:
            words += f" + {self.badge}"
        return words


# Shapes on a 100 x 100 canvas.  "body" parts are filled with the piece colour,
# "line" parts are details drawn in the contrast colour.
_BASE = '<rect x="24" y="76" width="52" height="10" rx="3"/>'
GLYPHS: dict[str, tuple[str, str]] = {
    "pawn": (
        '<circle cx="50" cy="29" r="11"/><rect x="37" y="41" width="26" height="7" rx="3"/>'
        '<path d="M41 48 L59 48 L66 76 L34 76 Z"/>' + _BASE,
        ""),
    "rook": (
        '<path d="M27 42 L27 20 L37 20 L37 28 L45 28 L45 20 L55 20 L55 28 L63 28 L63 20 L73 20 L73 42 Z"/>'
        '<path d="M33 42 L67 42 L70 76 L30 76 Z"/>' + _BASE,
        '<path d="M31 44 L69 44 M32 70 L68 70"/>'),
    "bishop": (
        '<circle cx="50" cy="15" r="6"/>'
        '<path d="M50 20 C67 32 70 48 61 59 L39 59 C30 48 33 32 50 20 Z"/>'
        '<path d="M40 59 L60 59 L64 76 L36 76 Z"/>' + _BASE,
        '<path d="M55 33 L45 46 M40 63 L60 63"/>'),
    "knight": (
        '<path d="M71 76 C75 52 69 29 53 21 L49 11 L43 21 C36 26 30 35 24 45 L22 53 '
        'C23 59 30 60 34 56 L45 50 C40 59 34 66 33 76 Z"/>' + _BASE,
        '<circle cx="42" cy="32" r="3"/><path d="M58 26 C66 38 67 56 64 72"/>'),
    "queen": (
        '<path d="M29 76 L21 36 L37 55 L35 28 L46 53 L50 23 L54 53 L65 28 L63 55 L79 36 L71 76 Z"/>'
        '<circle cx="21" cy="33" r="5"/><circle cx="35" cy="25" r="5"/><circle cx="50" cy="20" r="5"/>'
        '<circle cx="65" cy="25" r="5"/><circle cx="79" cy="33" r="5"/>' + _BASE,
        '<path d="M31 68 L69 68"/>'),
    "king": (
        '<path d="M46 10 L54 10 L54 18 L62 18 L62 26 L54 26 L54 40 L46 40 L46 26 L38 26 L38 18 L46 18 Z"/>'
        '<path d="M29 76 L21 48 C21 36 40 36 50 50 C60 36 79 36 79 48 L71 76 Z"/>' + _BASE,
        '<path d="M31 68 L69 68 M50 50 L50 68"/>'),
    "commoner": (  # a crown without the cross: non-royal king steps (duke, man, commoner)
        '<circle cx="50" cy="30" r="7"/>'
        '<path d="M29 76 L21 48 C21 36 40 36 50 50 C60 36 79 36 79 48 L71 76 Z"/>' + _BASE,
        '<path d="M31 68 L69 68 M50 50 L50 68"/>'),
}
# The nightrider: a knight with a second head behind it (repeated knight leaps).
GLYPHS["nightrider"] = (
    '<g transform="translate(30 4) scale(0.72)">' + GLYPHS["knight"][0].replace(_BASE, "") + "</g>"
    + GLYPHS["knight"][0], GLYPHS["knight"][1])

BADGES: dict[str, str] = {
    "plus": '<path d="M80 12 L80 32 M70 22 L90 22" stroke-width="5"/>',
    "cross": '<path d="M72 14 L88 30 M88 14 L72 30" stroke-width="5"/>',
    "speed": '<path d="M72 24 L80 16 L88 24 M72 32 L80 24 L88 32" stroke-width="4" fill="none"/>',
    "crown": '<path d="M70 30 L70 16 L75 22 L80 13 L85 22 L90 16 L90 30 Z" stroke-width="2"/>',
    "rider": '<path d="M80 22 C76 14 69 15 69 22 C69 29 76 30 80 22 C84 14 91 15 91 22 C91 29 84 30 80 22 Z" '
             'fill="none" stroke-width="3.5"/>',
}
# Badges that are small glyphs: Polymorph's Knishop (knight + backward bishop) and Bishight.
GLYPH_BADGES = {"mitre": "bishop", "horse": "knight"}

# name (lower case) -> symbol; compounds list the knight-like part first (left half).
NAMES: dict[str, Symbol] = {
    "pawn": Symbol("pawn"), "knight": Symbol("knight"), "bishop": Symbol("bishop"),
    "rook": Symbol("rook"), "queen": Symbol("queen"), "king": Symbol("king"),
    "archbishop": Symbol("knight", "bishop"), "cardinal": Symbol("knight", "bishop"),
    "princess": Symbol("knight", "bishop"), "chancellor": Symbol("knight", "rook"),
    "marshall": Symbol("knight", "rook"), "empress": Symbol("knight", "rook"),
    "amazon": Symbol("knight", "queen"), "dragon horse": Symbol("bishop", badge="plus"),
    "dragon king": Symbol("rook", badge="cross"), "nightrider": Symbol("nightrider"),
    "cardinalrider": Symbol("knight", "bishop", "rider"), "chancellorrider": Symbol("knight", "rook", "rider"),
    "speedpawn": Symbol("pawn", badge="speed"), "knishop": Symbol("knight", badge="mitre"),
    "bishight": Symbol("bishop", badge="horse"), "duke": Symbol("commoner"),
    "commoner": Symbol("commoner"), "man": Symbol("commoner"),
}
# XBetza -> name, for types whose name says nothing (letters sorted to ignore order).
BETZA: dict[str, str] = {
    "N": "knight", "B": "bishop", "R": "rook", "Q": "queen", "BN": "archbishop", "NR": "chancellor",
    "NQ": "amazon", "BW": "dragon horse", "FR": "dragon king", "NN": "nightrider", "K": "commoner",
    "BNN": "cardinalrider", "NNR": "chancellorrider", "fhNbB": "knishop", "fBbhN": "bishight",
}


# Xiangqi's faces (red, black) by XBetza as the library's xiangqi writes them; the royal type is the general.
XIANGQI_FACES: dict[str, str] = {"F": "仕士", "nA": "相象", "nN": "傌馬", "R": "俥車", "mRcpR": "炮砲",
                                 "fW": "兵卒", "fsW": "兵卒"}
_GENERAL = "帥將"


def symbol_of(t: PieceType, board_style: str = "chequered") -> Symbol:
    """The symbol drawn for a piece type: by its name, else by its moves, else its letter; on a Xiangqi
    board (``board_style``) its Chinese face by its moves, else its letter."""
    if board_style == "xiangqi":
        face = _GENERAL if t.royal else XIANGQI_FACES.get(t.betza, "")
        return Symbol("face", letter=t.letter, face=face) if face else Symbol("letter", letter=t.letter)
    name = " ".join(t.name.lower().split())
    crown = False
    if name.startswith("royal "):
        name, crown = name[6:], True
    sym = NAMES.get(name)
    if sym is None:
        key = t.betza if t.betza in BETZA else "".join(sorted(t.betza))
        sym = NAMES.get(BETZA.get(key, ""), Symbol("letter", letter=t.letter))
    if (crown or t.royal) and sym.base != "king":
        sym = Symbol(sym.base, sym.split, "crown", t.letter)
    return Symbol(sym.base, sym.split, sym.badge, t.letter)


def _glyph(name: str, fill: str, ink: str, clip: str | None = None) -> str:
    body, lines = GLYPHS[name]
    clip_attr = f' clip-path="url(#{clip})"' if clip else ""
    return (f'<g{clip_attr} fill="{fill}" stroke="{ink}" stroke-width="3" stroke-linejoin="round">{body}</g>'
            f'<g{clip_attr} fill="none" stroke="{ink if fill == "#fff" else "#eee"}" stroke-width="2.5" '
            f'stroke-linecap="round">{lines}</g>')


def svg(sym: Symbol, colour: int, uid: str = "p") -> str:
    """The SVG text of a symbol for White (0) or Black (1); ``uid`` keeps clip ids unique in a page."""
    fill, ink = ("#fff", "#222") if colour == 0 else ("#2b2b2b", "#000")
    parts = []
    if sym.base == "face":
        return _face(sym.face[colour])
    if sym.base == "letter":
        size = 52 if len(sym.letter) == 1 else 36
        text_fill = "#222" if colour == 0 else "#f4f4f4"
        parts.append(f'<circle cx="50" cy="50" r="36" fill="{fill}" stroke="{ink}" stroke-width="4"/>'
                     f'<text x="50" y="51" text-anchor="middle" dominant-baseline="central" '
                     f'font-family="sans-serif" font-weight="bold" font-size="{size}" '
                     f'fill="{text_fill}">{escape(sym.letter)}</text>')
    elif sym.split:
        left, right = f"{uid}L", f"{uid}R"
        parts.append(f'<defs><clipPath id="{left}"><rect x="0" y="0" width="50" height="100"/></clipPath>'
                     f'<clipPath id="{right}"><rect x="50" y="0" width="50" height="100"/></clipPath></defs>')
        parts.append(_glyph(sym.base, fill, ink, left))
        parts.append(_glyph(sym.split, fill, ink, right))
        parts.append(f'<path d="M50 8 L50 88" stroke="{ink}" stroke-width="3"/>')
    else:
        parts.append(_glyph(sym.base, fill, ink))
    if sym.badge in BADGES:
        badge_fill, badge_ink = ("#2b2b2b", "#fff") if colour == 0 else ("#fff", "#222")
        parts.append(f'<circle cx="80" cy="22" r="15" fill="{badge_fill}" stroke="{ink}" stroke-width="2"/>'
                     f'<g fill="{badge_ink}" stroke="{badge_ink}" stroke-linecap="round" '
                     f'stroke-linejoin="round">{BADGES[sym.badge]}</g>')
    elif sym.badge in GLYPH_BADGES:
        inner = _glyph(GLYPH_BADGES[sym.badge], "#2b2b2b" if colour == 0 else "#fff", ink)
        parts.append(f'<circle cx="78" cy="76" r="19" fill="#ddd" stroke="{ink}" stroke-width="2"/>'
                     f'<g transform="translate(61 58) scale(0.34)">{inner}</g>')
    return ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100" class="piece">'
            + "".join(parts) + "</svg>")


def _face(character: str) -> str:
    """A Xiangqi piece: a wooden disc with a ring and the character (its outline, no font needed), red
    (White) or black."""
    ink = "#b3261e" if character in "帥仕相傌俥炮兵" else "#1b1b1b"
    return ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100" class="piece">'
            f'<circle cx="50" cy="50" r="45" fill="#f3deb0" stroke="#6b4a1e" stroke-width="3"/>'
            f'<circle cx="50" cy="50" r="37" fill="none" stroke="{ink}" stroke-width="3"/>'
            f'<path transform="translate(50 50) scale(0.56) translate(-50 -50)" fill="{ink}" '
            f'd="{OUTLINES[character]}"/></svg>')
