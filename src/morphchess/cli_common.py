"""What the command lines share (``cli`` and the subcommands of ``publish``, ``lab``, ``protocols`` and
``web.serve``): definitions, positions, records and files read from arguments, and numbers.

Everything here turns bad input into an :class:`~morphchess.errors.InputError` (or, for a number, an
argparse error) naming the argument, which the command line prints as one line with exit status 2.
Files are read only when they are regular files, and at most :data:`MAX_INPUT` bytes of them, so that a
FIFO, a device or a huge file cannot hang the command or fill the memory.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import stat
import sys
import warnings

from .board import Board, RecordError, play_recorded
from .errors import InputError, cut, quote
from .idiagram import VariantWarning
from .position import Position
from .records import Record, read_record
from .variant import Variant
from .variants import load_variant

__all__ = ["UsageError", "MAX_INPUT", "MAX_GAMES", "MAX_MOVETIME", "MAX_SEED", "MAX_GAME_PLIES", "whole",
           "whole_number",
           "warnings_in_one_line", "read_variant", "start_position", "read_text", "record", "output_file"]

MAX_INPUT = 16 * 1024 * 1024  # bytes of a record or definition file (characters of standard input) read at most
MAX_GAMES = 1_000_000  # games of a match or a lab
MAX_MOVETIME = 3_600_000  # milliseconds a move: an hour
MAX_SEED = 2**63 - 1
MAX_GAME_PLIES = 10_000  # a lab's move cap
PATH_SHOWN = 200  # characters of a path an error message quotes
_WHOLE = re.compile(r"[+-]?[0-9]{1,30}")  # ASCII digits only: int() would also read '١' or '５'


class UsageError(InputError):
    """Bad input on the command line: printed as one line, exit status 2."""


def whole_number(text: str, low: int, high: int) -> int:
    """A whole number in ASCII digits (a sign allowed) from ``low`` to ``high``, else a ValueError naming
    the value and the range."""
    if not _WHOLE.fullmatch(text):
        raise ValueError(f"{quote(text)}: write a whole number in digits 0-9")
    value = int(text)
    if not low <= value <= high:
        raise ValueError(f"{value if len(text) <= 20 else quote(text)}: use {low} to {high}")
    return value


def whole(low: int, high: int):
    """An argparse ``type``: :func:`whole_number` from ``low`` to ``high``."""
    def read(text: str) -> int:
        try:
            return whole_number(text, low, high)
        except ValueError as e:
            raise argparse.ArgumentTypeError(str(e)) from None
    return read


@contextlib.contextmanager
def warnings_in_one_line():
    """Print each warning about a definition loaded inside as one line ``warning: ...`` on stderr."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", VariantWarning)
        try:
            yield
        finally:
            for w in caught:
                print(f"warning: {cut(str(w.message), 200)}", file=sys.stderr)


def read_variant(spec: str) -> Variant:
    """The variant a command names (built-in, definition file or FILE.ini:SECTION), its warnings one line each;
    a definition file longer than :data:`MAX_INPUT` bytes is refused before it is read."""
    path = spec if os.path.isfile(spec) else spec.rpartition(":")[0]
    if os.path.isfile(path) and os.path.getsize(path) > MAX_INPUT:
        raise UsageError(f"{quote(path, PATH_SHOWN)}: longer than {MAX_INPUT // (1024 * 1024)} MB")
    with warnings_in_one_line():
        return load_variant(spec)


def start_position(v: Variant, setup: str | None, fen: str | None, moves: str | None) -> Position:
    """The position named by --setup/--fen/--moves options (moves after the end of the game refused)."""
    if fen is not None and setup is not None:
        raise UsageError("give --fen or --setup, not both")
    if fen is not None and not fen.strip():
        raise UsageError("--fen is empty: give position text, or leave --fen out for the start position")
    if moves is not None and not moves.strip():
        raise UsageError("--moves is empty: give coordinate moves, or leave --moves out")
    board = Board(v, fen=fen, setup=setup)
    for text in (moves or "").split():
        try:
            play_recorded(board, text, board.parse_uci)
        except RecordError as e:
            raise UsageError(f"--moves: {e}") from None
    return board.position


def read_text(path: str) -> str:
    """The text of the regular file ``path`` (``-``: standard input), at most :data:`MAX_INPUT` bytes;
    a UsageError naming the path for anything else (a folder, a FIFO, a device, a file too long, not UTF-8)."""
    try:
        if path == "-":
            text = sys.stdin.read(MAX_INPUT + 1)
        else:
            text = _read_regular(path).decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")  # as open() does
        if len(text) > MAX_INPUT:
            raise UsageError(f"{quote(path, PATH_SHOWN)}: longer than {MAX_INPUT // (1024 * 1024)} MB")
        return text
    except OSError as e:
        raise UsageError(f"{quote(path, PATH_SHOWN)}: cannot read the file ({e.strerror or e})") from None
    except UnicodeDecodeError as e:
        raise UsageError(f"{quote(path, PATH_SHOWN)}: not UTF-8 text (byte {e.start})") from None


def _read_regular(path: str) -> bytes:
    """At most MAX_INPUT + 1 bytes of ``path``, refused unless it is a regular file (opened without
    blocking, so that a FIFO with no writer cannot hang the command)."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    with os.fdopen(fd, "rb") as f:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise UsageError(f"{quote(path, PATH_SHOWN)}: not a regular file")
        return f.read(MAX_INPUT + 1)


def record(args) -> Record:
    """The game record of a command's ``file``, ``source``, ``variant`` and ``setup`` arguments, replayed."""
    text = read_text(args.file)
    with warnings_in_one_line():  # a PGN's [VariantDefinition] is loaded too
        return read_record(text, args.source, args.variant, args.setup)


def output_file(option: str, path: str):
    """Open ``path`` for writing before the work starts; UsageError naming ``option`` if it cannot be."""
    if not path.strip():
        raise UsageError(f"{option} is empty: give the path of the file to write")
    try:
        return open(path, "w", encoding="utf-8")
    except OSError as e:
        raise UsageError(f"{option} {quote(path, PATH_SHOWN)}: cannot write the file ({e.strerror})") from None
