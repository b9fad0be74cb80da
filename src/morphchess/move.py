"""The core's move: a small immutable value that says everything a move changes.

``piece`` is the code of the mover *after* the move (morphed, promoted or
transformed), so undo, hashing, notation and the screen all see the change.
``kind`` says what else happens, with its squares in ``extra``:

========================  ==============================================
``Kind.NORMAL``           nothing else (``extra`` is empty)
``Kind.DOUBLE``           a lame initial step; ``extra``: the squares it
                          passed, open to en-passant capture
``Kind.EN_PASSANT``       ``extra``: ``(victim square,)``
``Kind.CASTLE``           ``extra``: ``(partner from, partner to,
                          partner code after)``
``Kind.TRANSFORM``        a change of type in place (``origin == target``)
``Kind.DROP``             a piece from the hand put on ``target``
                          (``origin == target``, ``piece``: its code)
``Kind.LEGS``             a multi-leg move; ``extra``: the squares of the
                          pieces it captures on the way, in order; it
                          may end on its start (``target == origin``)
``Kind.UNLOAD``           the piece on ``target`` is taken and unloaded
                          (XBetza ``u``), marked moved; ``extra``:
                          ``(square it goes to,)``, empty after the
                          move or ``origin`` (a swap)
``Kind.WALL``             a move that also places a wall (a duck, an
                          arrow: Fairy-Stockfish's wallingRule);
                          ``extra``: ``(the move, wall square, square
                          the wall leaves or -1)``; origin, target and
                          piece are the move's (a wall alone: the move
                          is a TRANSFORM of a piece into itself)
========================  ==============================================

Moves are made by :class:`morphchess.position.Position` (the move generator
builds most of them once, in :mod:`morphchess.tables`); the public
:class:`morphchess.board.Move` adds the letters and text a user sees.
"""

from __future__ import annotations

from enum import IntEnum
from typing import NamedTuple

__all__ = ["Kind", "Move"]


class Kind(IntEnum):
    """What a move does besides taking the mover from ``origin`` to ``target``."""

    NORMAL = 0
    DOUBLE = 1
    EN_PASSANT = 2
    CASTLE = 3
    TRANSFORM = 4
    DROP = 5
    LEGS = 6
    UNLOAD = 7
    WALL = 8


class Move(NamedTuple):
    """One move of the core (see the module documentation)."""

    origin: int
    target: int
    piece: int
    kind: Kind = Kind.NORMAL
    extra: tuple = ()
