"""Reading a game record of any form into a :class:`~morphchess.board.Board`.

The one reader behind ``morphchess convert``/``replay`` and the web import: PGN,
Game Courier logs and coordinate move lists, the form guessed when not given
(:func:`record_format`).  Every form is refused, with a :class:`RecordError`
naming the move, when it cannot be replayed exactly: a move that cannot be
read or played, a move after the game ended, a move number or result that
does not fit (``docs/errors.md``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from itertools import islice

from . import gamecourier, pgn
from .board import Board, RecordError, play_recorded
from .variant import Variant

__all__ = ["FORMS", "Record", "record_format", "read_record"]

FORMS = ("pgn", "gc", "coord")
_TAG = re.compile(r'^[ \t]*\[\w+[ \t]+"', re.M | re.ASCII)  # no \s: it would rescan runs of blank lines
_COORD_WORD = re.compile(r"[a-z][0-9]{1,3}[a-z][0-9]{1,3}(?:,[a-z][0-9]{1,3}[a-z][0-9]{1,3})*[a-z]?"
                         r"|[A-Z]@[a-z][0-9]{1,3}")  # e2e4, e7e8q, e4f5,f5e6 (legs), P@e4 (drop)
_GC_ACTION = re.compile(r"(?:^|[\s;])(?:[a-z][0-9]+-[a-z][0-9]+|[A-Za-z]+-[a-z][0-9]+)(?=[\s;]|$)", re.ASCII)


@dataclass
class Record:
    """A record read back: the board after its last move, its form, its tags (PGN; a Game Courier log's
    result as ``Result``) and comments (PGN)."""

    board: Board
    form: str
    headers: dict[str, str] | None = None
    comments: dict[int, str] = field(default_factory=dict)

    @property
    def result(self) -> str:
        """The result the record gives (``*`` if none)."""
        return (self.headers or {}).get("Result", "*")


def record_format(text: str) -> str:
    """Guess a record's form: ``pgn`` (tags or SAN), ``gc`` (Game Courier) or ``coord``.

    Tags mean PGN; words that are all coordinate moves (``e2e4``) a coordinate
    list; an action such as ``e2-e4`` or a placement ``B-b1`` a Game Courier
    log; anything else is read as PGN movetext."""
    if _TAG.search(text):
        return "pgn"
    words = text.split()
    if words and all(_COORD_WORD.fullmatch(w) for w in words):
        return "coord"
    if _GC_ACTION.search(text):
        return "gc"
    return "pgn"


def read_record(text: str, form: str | None = None, variant: str | Variant | None = None,
                setup: str | None = None, tags_win: bool = False) -> Record:
    """Replay a record of ``form`` (guessed when None) of ``variant`` (default chess).

    A PGN text must hold one game; its tags name its variant and setup, and a
    ``variant`` that differs from them is an error unless ``tags_win`` (then
    ``variant`` is for untagged games only).  ``setup`` names the start array of
    a Game Courier log or coordinate list.  Raises :class:`RecordError` (an
    :class:`~morphchess.errors.InputError`).
    """
    text = text.removeprefix("\ufeff")  # a byte order mark is no part of the record
    form = form or record_format(text)
    if form not in FORMS:
        raise RecordError(f"unknown record form {form!r}: use {', '.join(FORMS)}")
    if form == "pgn":
        return _read_pgn(text, variant, setup, tags_win)
    variant = "chess" if variant is None else variant
    if form == "gc":
        board, result = gamecourier.read_log(text, variant, setup=setup)
        return Record(board, form, {"Result": result} if result else None)
    return Record(_read_coord(text, variant, setup), form)


def _read_pgn(text: str, variant: str | Variant | None, setup: str | None, tags_win: bool) -> Record:
    if setup is not None:
        raise RecordError("a PGN record names its own setup ([VariantSetup]); a setup is for gc and coord")
    first_two = list(islice(pgn.games(text, variant, tags_win), 2))
    if not first_two:
        raise RecordError("no game in the PGN text")
    if len(first_two) > 1:
        raise RecordError("the PGN text holds more than one game; give one")
    game = first_two[0]
    return Record(game.board, "pgn", game.headers, game.comments)


def _read_coord(text: str, variant: str | Variant, setup: str | None) -> Board:
    """Replay coordinate moves (``e2e4 e7e5``), any number a line."""
    board = Board(variant, setup=setup)
    for line, words in enumerate(text.splitlines(), start=1):
        for word in words.split():
            play_recorded(board, word, board.parse_uci, line)
    return board
