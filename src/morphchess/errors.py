"""The one base class of every error that bad input can cause.

Readers (definition text, position text, move text, records, options) raise a
subclass of :class:`InputError` whose message says what is wrong and where, in
one line.  Anything else that escapes is a bug.
"""

from __future__ import annotations

__all__ = ["InputError", "OptionError"]


class InputError(ValueError):
    """Input that cannot be used; the message says what is wrong and where."""


class OptionError(InputError):
    """A setting out of range or malformed: a level, a search limit, a player, a setup name."""
