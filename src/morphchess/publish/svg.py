"""One drawing model, written as SVG text and rendered to PNG from that text.

A :class:`Canvas` collects shapes (rectangles, circles, lines, polygons, text and
piece glyphs from :mod:`morphchess.pieceset`) and writes them as one SVG
document; :func:`png` renders that same document with cairosvg (the ``publish``
extra; it needs the cairo library, present wherever a desktop or Chromium is),
so the PNG pictures can never differ from the SVG ones.  Every string reaches
the SVG through :func:`attr` or :func:`text`, which escape it.
"""

from __future__ import annotations

import math
from xml.sax.saxutils import escape, quoteattr

from ..errors import InputError

__all__ = ["Canvas", "attr", "text", "png", "MissingExtra"]


class MissingExtra(InputError):
    """A picture format needs a package that is not installed; the message says which extra to install."""


def attr(value: object) -> str:
    """An XML attribute value, quoted and escaped."""
    return quoteattr(str(value))


def text(value: object) -> str:
    """XML character data, escaped."""
    return escape(str(value))


def _num(x: float) -> str:
    return f"{x:.2f}".rstrip("0").rstrip(".")


class Canvas:
    """Shapes on a ``width`` x ``height`` picture, written by :meth:`svg`."""

    def __init__(self, width: float, height: float, title: str = "") -> None:
        self.width, self.height = math.ceil(width), math.ceil(height)
        self.parts: list[str] = []
        if title:
            self.parts.append(f"<title>{text(title)}</title>")

    def _shape(self, tag: str, tip: object = "", **attrs: object) -> None:
        words = " ".join(f"{k.replace('_', '-')}={attr(_num(v) if isinstance(v, float) else v)}"
                         for k, v in attrs.items() if v is not None)
        self.parts.append(f"<{tag} {words}><title>{text(tip)}</title></{tag}>" if tip else f"<{tag} {words}/>")

    def rect(self, x: float, y: float, w: float, h: float, fill: str, tip: str = "", **more: object) -> None:
        self._shape("rect", tip, x=float(x), y=float(y), width=float(w), height=float(h), fill=fill, **more)

    def circle(self, cx: float, cy: float, r: float, fill: str = "none", **more: object) -> None:
        self._shape("circle", cx=float(cx), cy=float(cy), r=float(r), fill=fill, **more)

    def line(self, x1: float, y1: float, x2: float, y2: float, stroke: str, width: float, **more: object) -> None:
        self._shape("line", x1=float(x1), y1=float(y1), x2=float(x2), y2=float(y2), stroke=stroke,
                    stroke_width=float(width), stroke_linecap="round", **more)

    def polygon(self, points: list[tuple[float, float]], fill: str, **more: object) -> None:
        self._shape("polygon", points=" ".join(f"{_num(x)},{_num(y)}" for x, y in points), fill=fill, **more)

    def label(self, x: float, y: float, words: str, size: float, anchor: str = "middle", fill: str = "#222",
              bold: bool = False) -> None:
        weight = ' font-weight="bold"' if bold else ""
        self.parts.append(f'<text x={attr(_num(x))} y={attr(_num(y))} font-family="DejaVu Sans, sans-serif" '
                          f'font-size={attr(_num(size))} text-anchor={attr(anchor)} fill={attr(fill)}{weight}>'
                          f"{text(words)}</text>")

    def glyph(self, piece_svg: str, x: float, y: float, size: float) -> None:
        """A piece drawing (an SVG on a 100 x 100 canvas, :func:`morphchess.pieceset.svg`) in a box."""
        inner = piece_svg[piece_svg.index(">") + 1:piece_svg.rindex("</svg>")]
        self.parts.append(f'<g transform="translate({_num(x)} {_num(y)}) scale({_num(size / 100)})">{inner}</g>')

    def outline(self, d: str, x: float, y: float, size: float, fill: str) -> None:
        """A filled outline (SVG path data on a 100 x 100 box, :mod:`morphchess.cjk_glyphs`) in a box."""
        self.parts.append(f'<path transform="translate({_num(x)} {_num(y)}) scale({_num(size / 100)})" '
                          f'fill={attr(fill)} d={attr(d)}/>')

    def svg(self) -> str:
        """The picture as a standalone SVG document."""
        w, h = _num(self.width), _num(self.height)
        return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}">'
                + "".join(self.parts) + "</svg>")


def png(svg_text: str, scale: float = 1.0) -> bytes:
    """PNG bytes of an SVG document (cairosvg; ``pip install 'morphchess[publish]'``)."""
    try:
        import cairosvg
    except (ImportError, OSError) as e:  # OSError: the package is there but the cairo library is not
        raise MissingExtra(f"PNG pictures need cairosvg and the cairo library ({e}); "
                           "install them with: pip install 'morphchess[publish]'") from None
    return cairosvg.svg2png(bytestring=svg_text.encode(), scale=scale)
