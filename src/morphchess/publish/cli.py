"""``morphchess page``, ``morphchess picture`` and ``morphchess gif``."""

from __future__ import annotations

import sys
from pathlib import Path

from .. import library
from ..cli_common import read_variant, record, start_position, whole
from ..errors import OptionError, quote
from ..variants import names
from .gif import write_gif
from .page import write_page
from .pictures import position_picture, read_arrows, read_squares
from .svg import png

__all__ = ["add"]

MIN_DELAY, MAX_DELAY = 20, 60_000  # milliseconds a GIF frame shows


def add(sub) -> None:
    """Add the ``page``, ``picture`` and ``gif`` subcommands."""
    p = sub.add_parser("page", help="write a rules page (HTML, with every picture as SVG and PNG) for a variant")
    p.add_argument("variant", help="built-in name or file with a definition text")
    p.add_argument("--out", required=True, help="directory to write rules.html, paste.html and the pictures to")
    p.add_argument("--title", help="the page's title (default: the definition's title or name)")
    p.add_argument("--no-png", action="store_true", help="SVG pictures only")
    p.set_defaults(func=cmd_page)

    p = sub.add_parser("picture", help="draw a position as SVG or PNG, with arrows and highlighted squares")
    p.add_argument("variant", help="built-in name or file with a definition text")
    p.add_argument("--fen", help="position text (default: the start position)")
    p.add_argument("--setup", help="named start array")
    p.add_argument("--moves", help="coordinate moves played first, e.g. \"e2e4 e7e5\"")
    p.add_argument("--arrows", default="", help="arrows as from-to pairs, e.g. \"e2e4 g1f3\"")
    p.add_argument("--highlight", default="", help="squares to highlight, e.g. \"e4 d5\"")
    p.add_argument("--out", required=True, help="file to write: NAME.svg or NAME.png")
    p.set_defaults(func=cmd_picture)

    p = sub.add_parser("gif", help="an animated GIF of a game record (PGN, Game Courier log or moves)")
    p.add_argument("file", help="the record ('-' reads standard input)")
    p.add_argument("--variant", help="variant of a record that does not name one")
    p.add_argument("--setup", help="Black's start array")
    p.add_argument("--source", choices=("pgn", "gc", "coord"), help="the record's form (default: guessed)")
    p.add_argument("--delay", type=whole(MIN_DELAY, MAX_DELAY), default=800,
                   help=f"milliseconds per move, {MIN_DELAY} to {MAX_DELAY} (default 800)")
    p.add_argument("--out", required=True, help="the GIF file to write")
    p.set_defaults(func=cmd_gif)


def cmd_page(args) -> None:
    v = read_variant(args.variant)
    if not args.no_png:  # before the folder is made: without the [publish] extra, stop with nothing written
        png('<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>')
    title = args.title or (library.entry(args.variant).title if args.variant in names() else None)
    try:
        written = write_page(v, args.out, title, pngs=not args.no_png)
    except OSError as e:
        raise OptionError(f"--out {quote(args.out)}: cannot write the folder ({e.strerror})") from None
    print(f"{len(written)} files written to {args.out}: rules.html (pictures inline), paste.html "
          "(for the site's editor, with the PNG files)")


def cmd_picture(args) -> None:
    kind = Path(args.out).suffix.lower()
    if kind not in (".svg", ".png"):
        raise OptionError(f"--out {quote(args.out)}: the name must end in .svg or .png")
    v = read_variant(args.variant)
    pos = start_position(v, args.setup, args.fen, args.moves)
    canvas = position_picture(v, pos.board, v.name, read_arrows(v, args.arrows), read_squares(v, args.highlight))
    data = canvas.svg()
    write_file(args.out, data.encode() if kind == ".svg" else png(data))
    print(f"{args.out}: {v.files}x{v.ranks} board", file=sys.stderr)


def write_file(path: str, data: bytes) -> None:
    """Write ``data`` to ``path``; an OptionError naming --out if it cannot be written."""
    try:
        Path(path).write_bytes(data)
    except OSError as e:
        raise OptionError(f"--out {quote(path)}: cannot write the file ({e.strerror})") from None


def cmd_gif(args) -> None:
    if Path(args.out).suffix.lower() != ".gif":
        raise OptionError(f"--out {quote(args.out)}: the name must end in .gif")
    board = record(args).board
    data = write_gif(board, args.delay)
    write_file(args.out, data)
    print(f"{args.out}: {len(board.move_stack) + 1} frames, {len(data)} bytes")
