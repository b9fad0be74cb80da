"""The one base class of every error that bad input can cause.

Readers (definition text, position text, move text, records, options) raise a
subclass of :class:`InputError` whose message says what is wrong and where, in
one line.  Anything else that escapes is a bug.
"""

from __future__ import annotations

__all__ = ["InputError", "OptionError", "cut", "quote"]

EXCERPT = 40  # characters of the input an error message quotes at most


class InputError(ValueError):
    """Input that cannot be used; the message says what is wrong and where."""


class OptionError(InputError):
    """A setting out of range or malformed: a level, a search limit, a player, a setup name."""


def quote(text: str, limit: int = EXCERPT) -> str:
    """``text`` quoted for an error message, cut to ``limit`` characters (``...`` marks the cut)."""
    return repr(text) if len(text) <= limit else repr(text[:limit]) + "..."


def cut(text: str, limit: int = EXCERPT) -> str:
    """``text`` cut to ``limit`` characters (``...`` marks the cut), for error messages."""
    return text if len(text) <= limit else text[:limit] + "..."
