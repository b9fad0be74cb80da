"""Checking a definition as it is typed: its error or warnings, each with its place in the text.

The loader's messages name the item at fault (``piece 'knight': XBetza 'Nx',
position 2: ...``, ``promoChoice=QX: ...``, ``unknown key foo=1 ...``);
:func:`locate` finds that item in the text and gives its line and, where the
message says it, the column (both from 1).  The live editor of the web page
(``POST /api/editor/check``) shows them beside the text.
"""

from __future__ import annotations

import re
import warnings
from dataclasses import dataclass, field

from ..errors import InputError
from ..loader import load
from ..variant import Variant

__all__ = ["Note", "Checked", "check_definition", "locate"]


@dataclass(frozen=True)
class Note:
    """An error or a warning: the loader's message and where it points in the text (None: unknown)."""

    message: str
    line: int | None = None
    column: int | None = None

    def view(self) -> dict:
        return {"message": self.message, "line": self.line, "column": self.column}


@dataclass
class Checked:
    """The result of checking a definition: the variant (None when it does not load) and the notes."""

    variant: Variant | None
    errors: list[Note] = field(default_factory=list)
    warnings: list[Note] = field(default_factory=list)


def check_definition(text: str, name: str = "custom") -> Checked:
    """Load ``text``; its error, or its warnings, each located in the text."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            v = load(text, name)
    except (InputError, ValueError, OverflowError, RecursionError) as e:
        message = str(e) or type(e).__name__
        return Checked(None, errors=[Note(message, *locate(text, message))])
    return Checked(v, warnings=[Note(w, *locate(text, w)) for w in v.warnings])


_PIECE = re.compile(r"""piece (?:'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)")""")
_POSITION = re.compile(r"""XBetza '([^']*)', position (\d+)""")
_QUOTED = re.compile(r"""'([^'\n]+)'|"([^"\n]+)"|(?<![\w'"])([A-Za-z][\w]*=[^\s:;,)]*)""")


def _place(text: str, index: int) -> tuple[int, int]:
    line = text.count("\n", 0, index) + 1
    return line, index - (text.rfind("\n", 0, index) + 1) + 1


def locate(text: str, message: str) -> tuple[int | None, int | None]:
    """The line and column (from 1) of the text a loader message is about; (None, None) if not found."""
    piece = _PIECE.match(message)
    if not piece:
        return _first_quoted(text, message, 0, len(text)) or (None, None)
    name = (piece[1] if piece[1] is not None else piece[2]).replace("\\'", "'").replace('\\"', '"')
    found = re.search(rf"(?:^|\s){re.escape(name)}:", text) if name else None
    if not found:
        return _first_quoted(text, message[piece.end():], 0, len(text)) or (None, None)
    start = found.start() + found[0][0].isspace()
    betza = _POSITION.search(message)
    if betza:  # the moves are the third field: name:ID:moves
        after_id = text.find(":", text.find(":", start + len(name)) + 1) + 1
        if after_id and text.startswith(betza[1], after_id):
            return _place(text, after_id + int(betza[2]) - 1)
    end = re.compile(r"\s\S+:|\n").search(text, start + len(name) + 1)  # the next piece line, or line end
    return _first_quoted(text, message[piece.end():], start, end.start() if end else len(text)) or _place(text, start)


def _first_quoted(text: str, message: str, start: int, end: int) -> tuple[int, int] | None:
    """Where the first text the message quotes occurs in ``text[start:end]``."""
    for quoted in _QUOTED.finditer(message):
        at = text.find(next(s for s in quoted.groups() if s), start, end)
        if at >= 0:
            return _place(text, at)
    return None
