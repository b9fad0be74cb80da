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
    """``text`` quoted for an error message, at most ``limit`` characters between the quotes, escapes
    included (``...`` marks a cut)."""
    shown = repr(text[:limit + 1])
    return shown if len(shown) <= limit + 2 else shown[:limit + 1] + shown[0] + "..."


def cut(text: str, limit: int = EXCERPT) -> str:
    """``text`` cut to ``limit`` characters (``...`` marks the cut), for error messages."""
    return text if len(text) <= limit else text[:limit] + "..."
