"""The pictures of a rules page, each a :class:`~morphchess.publish.svg.Canvas`.

Boards are drawn from White's side, a1 at the bottom left, with the file letters
and rank numbers around them.  Move diagrams come from
:func:`morphchess.diagrams.move_diagram` (legal moves of a lone piece), morph
tables from the piece types' ``morph`` lists, start positions from
:class:`~morphchess.position.Position`: nothing here decides a rule.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..boardstyle import Lines, lines_of
from ..cjk_glyphs import OUTLINES
from ..diagrams import move_diagram
from ..errors import OptionError, quote
from ..pieces import colour_of, type_of
from ..pieceset import svg as piece_svg
from ..pieceset import symbol_of
from ..position import Position
from ..variant import BLACK, WHITE, PieceType, Variant
from .svg import Canvas

__all__ = ["read_squares", "read_arrows", "MAX_MARKS",
           "SQUARE", "PALETTE", "NO_CHANGE", "MARK_WORDS", "MARK_SIGNS", "position_picture", "start_picture",
           "move_picture", "morph_tables", "morph_picture", "type_colour", "promotion_picture",
           "transform_picture"]

MAX_MARKS = 64  # arrows or highlighted squares in one picture
SQUARE = 44  # pixels per square
MARGIN = 20  # room for the coordinates
LINE = 20  # height of one legend line
LIGHT, DARK, HOLE = "#f0e2c4", "#c09a6b", "#ffffff"
WOOD, INK = "#ecc98a", "#5a3a12"  # a board of points (boardStyle=xiangqi): its wood and its lines
# Morph tables: one colour per piece type, in definition order (Sasha Trubetskoy's 20 distinct colours).
PALETTE = ("#e6194b", "#3cb44b", "#ffe119", "#4363d8", "#f58231", "#911eb4", "#46f0f0", "#f032e6",
           "#bcf60c", "#fabebe", "#008080", "#e6beff", "#9a6324", "#fffac8", "#800000", "#aaffc3",
           "#808000", "#ffd8b1", "#000075", "#808080")
NO_CHANGE = "#e8e8e8"
HIGHLIGHT, ARROW = "#f4d03f", "#1f77b4"
# How each flag of a move diagram is drawn, and what the legend says about it.
# ... and the words for the sign itself (the page's text).
MARK_SIGNS = {"move": "green dot", "capture": "red ring", "hop-move": "blue diamond", "hop-capture": "dashed blue ring",
              "legs": "orange triangle", "initial": "purple"}
MARK_WORDS = {
    "move": "moves here",
    "capture": "captures here",
    "hop-move": "moves here only over a piece in between (a hop)",
    "hop-capture": "captures here only over a piece in between (a hop)",
    "legs": "ends a move of several legs here",
    "initial": "only as the piece's first move (purple)",
}
GREEN, RED, BLUE, ORANGE, PURPLE = "#1e8c3a", "#d62828", "#1f5fbf", "#e07b00", "#8e44ad"


def type_colour(v: Variant, index: int | None) -> str:
    """The colour of a type in morph tables (``NO_CHANGE`` for None: the piece keeps its type)."""
    return NO_CHANGE if not index else PALETTE[(index - 1) % len(PALETTE)]


class _Board:
    """A board on a canvas, with ``below`` pixels under it for a legend."""

    def __init__(self, v: Variant, title: str, uid: str, below: int = 0, width: int = 0) -> None:
        self.v, self.uid = v, uid
        self.left, self.top = MARGIN, 28 if title else 6
        board_w = v.files * SQUARE
        self.canvas = Canvas(max(board_w + 2 * MARGIN, width), self.top + v.ranks * SQUARE + MARGIN + below, title)
        if title:  # a long title gets a smaller font, so that it fits the picture's width
            room = self.canvas.width - 2 * MARGIN
            self.canvas.label(self.left, 18, title, max(8, min(14, room / (0.62 * len(title)))), anchor="start",
                              bold=True)
        self.legend_y = self.top + v.ranks * SQUARE + MARGIN + 4

    def box(self, sq: int) -> tuple[float, float]:
        """Top left corner of a square."""
        F = self.v.files
        return self.left + (sq % F) * SQUARE, self.top + (self.v.ranks - 1 - sq // F) * SQUARE

    def centre(self, sq: int) -> tuple[float, float]:
        x, y = self.box(sq)
        return x + SQUARE / 2, y + SQUARE / 2

    def squares(self, fills: dict[int, str] | None = None, tips: dict[int, str] | None = None) -> None:
        v, c = self.v, self.canvas
        lines = lines_of(v)
        if lines is not None:
            self._points(lines, fills or {}, tips or {})
        else:
            for sq in range(v.size):
                x, y = self.box(sq)
                shade = LIGHT if (sq % v.files + sq // v.files) % 2 else DARK
                fill = HOLE if sq in v.holes else (fills or {}).get(sq, shade)
                c.rect(x, y, SQUARE, SQUARE, fill, (tips or {}).get(sq, v.square_name(sq)))
            c.rect(self.left, self.top, v.files * SQUARE, v.ranks * SQUARE, "none", stroke="#555", stroke_width=1.0)
        for f in range(v.files):
            c.label(self.left + f * SQUARE + SQUARE / 2, self.top + v.ranks * SQUARE + 14, chr(97 + f), 11)
        for r in range(v.ranks):
            c.label(self.left - 9, self.top + (v.ranks - r) * SQUARE - SQUARE / 2 + 4, str(r + 1), 11)

    def _points(self, lines: Lines, fills: dict[int, str], tips: dict[int, str]) -> None:
        """A board of points: wood, the squares' fills as soft patches, the lines, river and palaces."""
        v, c = self.v, self.canvas
        c.rect(self.left, self.top, v.files * SQUARE, v.ranks * SQUARE, WOOD)
        for sq in range(v.size):
            x, y = self.box(sq)
            c.rect(x, y, SQUARE, SQUARE, fills.get(sq, WOOD), tips.get(sq, v.square_name(sq)),
                   fill_opacity=0.7 if sq in fills else 0.0)
        point = self.centre
        for r in range(v.ranks):
            c.line(*point(r * v.files), *point(r * v.files + v.files - 1), INK, 1.5)
        for f in range(v.files):
            for r in range(v.ranks - 1):
                if f in (0, v.files - 1) or not lines.crosses_river(r):
                    c.line(*point(r * v.files + f), *point((r + 1) * v.files + f), INK, 1.5)
        for f0, r0, f1, r1 in lines.palaces:
            c.line(*point(r0 * v.files + f0), *point(r1 * v.files + f1), INK, 1.5)
            c.line(*point(r0 * v.files + f1), *point(r1 * v.files + f0), INK, 1.5)
        if lines.river is not None:  # the river's words, 楚河 and 漢界, in the two halves
            y = self.top + (v.ranks - lines.river) * SQUARE - SQUARE * 0.4
            for i, ch in enumerate("楚河漢界"):
                x = self.left + SQUARE * (1 + i if i < 2 else v.files - 4.8 + i)  # half a square in from the edges
                c.outline(OUTLINES[ch], x, y, SQUARE * 0.8, INK)
        c.rect(self.left, self.top, v.files * SQUARE, v.ranks * SQUARE, "none", stroke=INK, stroke_width=2.0)

    def piece(self, sq: int, t: PieceType, colour: int, size: float = SQUARE) -> None:
        x, y = self.centre(sq)
        self.put(t, colour, x - size / 2, y - size / 2, size)

    def put(self, t: PieceType, colour: int, x: float, y: float, size: float) -> None:
        uid = f"{self.uid}{'wb'[colour]}{t.index}"
        self.canvas.glyph(piece_svg(symbol_of(t, self.v.board_style), colour, uid), x, y, size)

    def legend(self, row: int, words: str, draw=None) -> None:
        """One legend line under the board; ``draw(x, y)`` draws its key in a 16-pixel box."""
        y = self.legend_y + row * LINE
        if draw:
            draw(self.left, y)
        self.canvas.label(self.left + 22, y + 13, words, 12, anchor="start")


def position_picture(v: Variant, board: Sequence[int], title: str = "", arrows: Sequence[tuple[int, int]] = (),
                     highlights: Sequence[int] = (), notes: Sequence[str] = (), uid: str = "pos") -> Canvas:
    """A position (piece codes per square), with highlighted squares, arrows and lines of notes below."""
    b = _Board(v, title, uid, below=LINE * len(notes))
    b.squares(dict.fromkeys(highlights, HIGHLIGHT))
    for sq, p in enumerate(board):
        if p:
            b.piece(sq, v.type(type_of(p)), colour_of(p))
    for frm, to in arrows:
        _arrow(b, frm, to)
    for i, note in enumerate(notes):
        b.legend(i, note)
    return b.canvas


def _arrow(b: _Board, frm: int, to: int) -> None:
    (x1, y1), (x2, y2) = b.centre(frm), b.centre(to)
    length = max(((x2 - x1) ** 2 + (y2 - y1) ** 2) ** 0.5, 1.0)
    ux, uy = (x2 - x1) / length, (y2 - y1) / length
    head = SQUARE * 0.38
    bx, by = x2 - ux * head, y2 - uy * head
    b.canvas.line(x1, y1, bx, by, ARROW, SQUARE * 0.14, opacity="0.8")
    w = SQUARE * 0.2
    b.canvas.polygon([(x2, y2), (bx - uy * w, by + ux * w), (bx + uy * w, by - ux * w)], ARROW, opacity="0.8")


def _square(v, name: str, option: str) -> int:
    try:
        return v.square(name)
    except ValueError as e:
        raise OptionError(f"{option}: {e}") from None


def read_squares(v, text: str, option: str = "--highlight") -> list[int]:
    """Square names separated by spaces or commas."""
    words = text.replace(",", " ").split()
    if len(words) > MAX_MARKS:
        raise OptionError(f"{option}: {len(words)} squares; at most {MAX_MARKS}")
    return [_square(v, w, option) for w in words]


def read_arrows(v, text: str, option: str = "--arrows") -> list[tuple[int, int]]:
    """Arrows written as two square names each (``e2e4``), separated by spaces or commas."""
    out = []
    words = text.replace(",", " ").split()
    if len(words) > MAX_MARKS:
        raise OptionError(f"{option}: {len(words)} arrows; at most {MAX_MARKS}")
    for w in words:
        m = re.fullmatch(r"([a-z][0-9]{1,2})-?([a-z][0-9]{1,2})", w.lower())
        if not m:
            raise OptionError(f"{option}: {quote(w)} is not an arrow; write it as two squares, e.g. e2e4")
        out.append((_square(v, m[1], option), _square(v, m[2], option)))
    return out


def start_picture(v: Variant, setup: str = "standard") -> Canvas:
    """The start position (``setup``), with the pieces in hand at the start listed below."""
    pos = Position(v, setup)
    notes = []
    for colour, hand in zip(("White", "Black"), v.holdings, strict=True):
        if hand:
            held = ", ".join(f"{n} {v.type(ti).name}" for ti, n in sorted(hand.items()))
            notes.append(f"{colour} holds in hand: {held}")
    return position_picture(v, pos.board, f"{v.name}: start position", notes=notes, uid=f"start{setup}")


def _mark(b: _Board, x: float, y: float, flag: str, initial: bool, size: float = SQUARE) -> None:
    """The sign of one diagram flag centred on (x, y)."""
    c, r = b.canvas, size / 2
    colour = PURPLE if initial else {"move": GREEN, "capture": RED, "legs": ORANGE}.get(flag, BLUE)
    if flag in ("move", "hop-move"):
        if flag == "move":
            c.circle(x, y, r * 0.36, colour, stroke="#fff", stroke_width=1.0)
        else:
            c.polygon([(x, y - r * 0.42), (x + r * 0.42, y), (x, y + r * 0.42), (x - r * 0.42, y)], colour,
                      stroke="#fff", stroke_width=1.0)
    elif flag in ("capture", "hop-capture"):
        dash = "4 3" if flag == "hop-capture" else None
        c.circle(x, y, r * 0.72, stroke=colour, stroke_width=r * 0.16, stroke_dasharray=dash)
    elif flag == "legs":
        c.polygon([(x, y - r * 0.5), (x + r * 0.45, y + r * 0.35), (x - r * 0.45, y + r * 0.35)], colour,
                  stroke="#fff", stroke_width=1.0)


def move_picture(v: Variant, t: PieceType) -> Canvas:
    """The move diagram of ``t``: a White piece on a central square and a sign on every square it reaches."""
    d = move_diagram(v, t)
    used = [f for f in MARK_WORDS if f != "initial" and d.squares(f)]
    has_initial = bool(d.squares("initial"))
    rows = len(used) + has_initial or 1
    b = _Board(v, f"{t.name} ({t.letter}): {t.betza}", f"mv{t.index}", below=LINE * rows, width=340)
    tips = {s: f"{v.square_name(s)}: {', '.join(sorted(flags))}" for s, flags in d.marks.items()}
    b.squares(tips=tips)
    b.piece(d.square, t, WHITE)
    for s, flags in d.marks.items():
        x, y = b.centre(s)
        for flag in MARK_WORDS:
            if flag in flags and flag != "initial":
                _mark(b, x, y, flag, "initial" in flags)
    for i, flag in enumerate(used):
        b.legend(i, MARK_WORDS[flag], lambda x, y, f=flag: _mark(b, x + 8, y + 9, f, False, 22))
    if has_initial:
        b.legend(len(used), MARK_WORDS["initial"], lambda x, y: _mark(b, x + 8, y + 9, "move", True, 22))
    if not d.marks:
        b.legend(0, "no moves on an open board")
    return b.canvas


def morph_tables(v: Variant) -> list[tuple[tuple[int | None, ...], list[PieceType]]]:
    """Each distinct morph table once, with the types that use it, in definition order."""
    out: dict[tuple, list[PieceType]] = {}
    for t in v.types:
        if t.morph is not None:
            out.setdefault(tuple(t.morph), []).append(t)
    return list(out.items())


def morph_picture(v: Variant, table: Sequence[int | None], users: Sequence[PieceType], uid: str) -> Canvas:
    """A morph table: each square coloured by the type a piece arriving there becomes (White's view)."""
    shown = [v.type(i) for i in sorted({i for i in table if i})]
    rows = len(shown) + (None in table)
    names = [f"{t.name} ({t.letter})" for t in users] if len(users) <= 3 else [t.letter for t in users]
    title = "Morph table of " + ", ".join(names)
    b = _Board(v, title, uid, below=LINE * rows)
    fills = {sq: type_colour(v, i) for sq, i in enumerate(table)}
    tips = {sq: f"{v.square_name(sq)}: " + (f"becomes {v.type(i).name}" if i else "no change")
            for sq, i in enumerate(table)}
    b.squares(fills, tips)
    for sq, i in enumerate(table):
        if i and sq not in v.holes:
            x, y = b.centre(sq)
            b.canvas.label(x, y + 6, v.type(i).letter, 17, fill=_ink(type_colour(v, i)), bold=True)
    for row, t in enumerate(shown):
        b.legend(row, f"becomes {t.name} ({t.letter})", lambda x, y, t=t: _swatch(b, x, y, t))
    if None in table:
        b.legend(len(shown), "keeps its type", lambda x, y: b.canvas.rect(x, y, 16, 16, NO_CHANGE, stroke="#555"))
    return b.canvas


def _ink(fill: str) -> str:
    """Black or white letters, whichever reads better on ``fill``."""
    r, g, b = (int(fill[i:i + 2], 16) for i in (1, 3, 5))
    return "#fff" if 0.299 * r + 0.587 * g + 0.114 * b < 140 else "#111"


def _swatch(b: _Board, x: float, y: float, t: PieceType) -> None:
    b.canvas.rect(x, y, 16, 16, type_colour(b.v, t.index), stroke="#555")


def promotion_picture(v: Variant) -> Canvas | None:
    """The promotion zone (White's, shaded) and the types a promoting piece may choose (or, shogi style,
    each promoting type beside the type it becomes), or None without promotion."""
    promoting = [t for t in v.types if v.promotes(t) or v.promoted_type(t)]
    if not promoting or not v.promo_zone:
        return None
    pairs = [(t, v.type(n)) for t in promoting if (n := v.promoted_type(t))]
    choices = [v.type(i) for i in v.promo_choice]
    step = 2 * SQUARE + 8 if v.promo_offset else SQUARE
    shown = len(pairs) if v.promo_offset else len(choices)
    b = _Board(v, "Promotion zone", "promo", below=2 * LINE + SQUARE + 16, width=2 * MARGIN + shown * step)
    zone = {sq for sq in range(v.size) if v.in_zone(WHITE, sq)}
    b.squares(dict.fromkeys(zone, HIGHLIGHT), {sq: f"{v.square_name(sq)}: promotion zone" for sq in zone})
    b.legend(0, f"White's promotion zone: the last {v.promo_zone} rank(s)",
             lambda x, y: b.canvas.rect(x, y, 16, 16, HIGHLIGHT, stroke="#555"))
    y = b.legend_y + 2 * LINE
    if v.promo_offset:
        b.legend(1, "each piece promotes to the piece beside it:")
        for i, (t, new) in enumerate(pairs):
            x = MARGIN + i * step
            b.put(t, WHITE, x, y, SQUARE * 0.9)
            b.put(new, WHITE, x + SQUARE * 0.9, y, SQUARE * 0.9)
            b.canvas.label(x + SQUARE * 0.9, y + SQUARE + 10, f"{t.letter} > {new.letter}", 11)
    else:
        b.legend(1, "the piece chooses one of:")
        for i, t in enumerate(choices):
            b.put(t, WHITE, MARGIN + i * step, y, SQUARE * 0.95)
            b.canvas.label(MARGIN + i * step + SQUARE / 2, y + SQUARE + 10, t.letter, 11)
    return b.canvas


def transform_picture(v: Variant, group: Sequence[int]) -> Canvas:
    """A transformation group (Polymorph): its forms side by side, White and Black."""
    types = [v.type(i) for i in group]
    step = SQUARE * 2.4
    c = Canvas(max(step * len(types) + MARGIN, 200), SQUARE * 2 + 40,
               "Transformation forms: " + ", ".join(t.name for t in types))
    for i, t in enumerate(types):
        x = MARGIN / 2 + i * step
        for colour in (WHITE, BLACK):
            face = piece_svg(symbol_of(t, v.board_style), colour, f"tf{colour}{t.index}{i}")
            c.glyph(face, x + colour * SQUARE, 4, SQUARE)
        c.label(x + SQUARE, SQUARE + 20, f"{t.name} ({t.letter})", 12)
        c.label(x + SQUARE, SQUARE + 36, t.betza, 11, fill="#555")
    return c
