"""XBetza move notation -> move descriptions.

This module is pure: it knows nothing about boards.  :func:`parse` turns a
string such as ``ifmnDfmWfceF`` (the FIDE pawn) into a :class:`PieceMoves`,
a list of :class:`Step` objects, each one direction of one atom, seen from
White's side (``dy > 0`` is forward, ``dx > 0`` is to White's right).

Supported (see ``docs/rules.md``): the atoms W F D N A H C Z G with the X and
Y extensions, the shortcuts K R B Q, riders by doubling or a range number,
the direction modifiers f b l r v s h (including the two-letter forms that
pick single oblique leaps), the modalities m c e, lame leaps n, initial moves
i and castling O<n>.  Anything else is refused with a :class:`BetzaError`
that names the construct; the notation is never guessed.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import gcd

from .errors import InputError

__all__ = ["BetzaError", "Step", "Castling", "PieceMoves", "parse"]


class BetzaError(InputError):
    """An XBetza string that cannot be compiled; the message says where and why."""

    def __init__(self, text: str, pos: int, message: str) -> None:
        super().__init__(f"XBetza {text!r}, position {pos + 1}: {message}")
        self.text = text
        self.pos = pos


@dataclass(frozen=True)
class Step:
    """One direction of one atom, from White's point of view.

    ``rng`` is 1 for a leap, 0 for an unlimited rider and n > 1 for a rider
    limited to n steps.  ``lame`` leaps need every square strictly between
    start and destination empty (for the knight: the orthogonal square next
    to the start, as in XBetza's ``nN``).
    """

    dx: int
    dy: int
    rng: int = 1
    move: bool = True
    capture: bool = True
    ep: bool = False
    lame: bool = False
    initial: bool = False


@dataclass(frozen=True)
class Castling:
    """Castling: the royal piece moves ``steps`` squares to the side(s) ``sides`` (-1 left, +1 right)."""

    steps: int
    sides: tuple[int, ...]


@dataclass(frozen=True)
class PieceMoves:
    """Everything an XBetza string says: the steps and the castlings."""

    text: str
    steps: tuple[Step, ...]
    castlings: tuple[Castling, ...]


# Base atoms: (long, short) leg of the leap.
_ATOMS = {"W": (1, 0), "F": (1, 1), "D": (2, 0), "N": (2, 1), "A": (2, 2),
          "H": (3, 0), "C": (3, 1), "Z": (3, 2), "G": (3, 3)}
# Shortcuts: atom -> ((base atom, rider?), ...)
_SHORTCUTS = {"K": (("W", False), ("F", False)), "R": (("W", True),),
              "B": (("F", True),), "Q": (("W", True), ("F", True))}
_DIRECTION_LETTERS = "fblrvsh"
_VERTICAL = "fbv"
_HORIZONTAL = "lrs"
_UNSUPPORTED = {
    "a": "multi-leg moves ('a')", "p": "hoppers ('p')", "g": "grasshopper hops ('g')",
    "j": "jumping modifier 'j'", "t": "multi-leg 't'", "u": "unload 'u'", "d": "friendly capture 'd'",
    "x": "modifier 'x'", "y": "modifier 'y'", "z": "crooked moves ('z')", "q": "circular moves ('q')",
    "o": "cylinder moves ('o')", "k": "modifier 'k'", "w": "modifier 'w'",
}


def _symmetric(a: int, b: int) -> list[tuple[int, int]]:
    """All (up to 8) board vectors of the leap (a, b)."""
    out = []
    for x, y in ((a, b), (b, a)):
        for sx in (1, -1):
            for sy in (1, -1):
                v = (sx * x, sy * y)
                if v not in out:
                    out.append(v)
    return out


def _single(letter: str, x: int, y: int) -> bool:
    """Does the one-letter direction ``letter`` select vector (x, y)?"""
    if letter == "f":
        return y > 0 and abs(x) <= y
    if letter == "b":
        return y < 0 and abs(x) <= -y
    if letter == "r":
        return x > 0 and abs(y) <= x
    if letter == "l":
        return x < 0 and abs(y) <= -x
    if letter == "v":
        return abs(x) <= abs(y)
    if letter == "s":
        return abs(y) <= abs(x)
    return True  # a lone 'h' selects nothing narrower


def _half(letter: str, x: int, y: int) -> bool:
    """The half board on ``letter``'s side ('v'/'s': both halves)."""
    return {"f": y > 0, "b": y < 0, "r": x > 0, "l": x < 0, "v": y != 0, "s": x != 0}.get(letter, True)


def _selects(token: str, x: int, y: int) -> bool:
    """Does direction token (one or two letters) select vector (x, y)?"""
    if len(token) == 1 or token[0] == token[1]:
        return _single(token[0], x, y)
    a, b = token
    if "h" in token:
        return _half(b if a == "h" else a, x, y)
    if x == 0 or y == 0:  # orthogonal: each letter adds its direction
        return _single(a, x, y) or _single(b, x, y)
    if abs(x) == abs(y):  # diagonal: the letters intersect
        return _half(a, x, y) and _half(b, x, y)
    # oblique: the second letter picks the pair, the first one member of it
    return _single(b, x, y) and _half(a, x, y)


def _direction_tokens(mods: str) -> list[str]:
    letters = [c for c in mods if c in _DIRECTION_LETTERS]
    tokens, i = [], 0
    while i < len(letters):
        c = letters[i]
        if i + 1 < len(letters):
            d = letters[i + 1]
            if (c == d or "h" in (c, d)
                    or (c in _VERTICAL and d in _HORIZONTAL) or (c in _HORIZONTAL and d in _VERTICAL)):
                tokens.append(c + d)
                i += 2
                continue
        tokens.append(c)
        i += 1
    return tokens


def _lame_ok(text: str, pos: int, a: int, b: int, rider: bool) -> None:
    if rider and (a, b) not in ((1, 0), (1, 1)):
        raise BetzaError(text, pos, "lame riders ('n' on a rider) are not supported")
    if a != b and b != 0 and (a, b) != (2, 1):
        raise BetzaError(text, pos, f"'n' on the oblique leap ({a},{b}) is not supported")


def parse(text: str) -> PieceMoves:
    """Compile an XBetza string into a :class:`PieceMoves`.

    >>> sorted((s.dx, s.dy) for s in parse("fhN").steps)
    [(-2, 1), (-1, 2), (1, 2), (2, 1)]
    """
    steps: list[Step] = []
    castlings: list[Castling] = []
    i, n = 0, len(text)
    if not text.strip():
        raise BetzaError(text, 0, "empty move description")
    while i < n:
        start = i
        while i < n and text[i].islower():
            if text[i] in _UNSUPPORTED:
                raise BetzaError(text, i, f"{_UNSUPPORTED[text[i]]} not supported")
            if text[i] not in _DIRECTION_LETTERS + "mcein":
                raise BetzaError(text, i, f"unknown modifier {text[i]!r}")
            i += 1
        mods = text[start:i]
        if i >= n:
            raise BetzaError(text, start, f"modifiers {mods!r} are not followed by an atom")
        atom_pos, atom = i, text[i]
        i += 1
        if atom == "O":
            j = i
            while i < n and text[i].isdigit():
                i += 1
            if j == i or int(text[j:i]) < 1:
                raise BetzaError(text, atom_pos, "castling 'O' needs a number of squares, e.g. O2")
            sides = tuple(s for s, ok in ((-1, _castle_side(mods, "l")), (1, _castle_side(mods, "r"))) if ok)
            castlings.append(Castling(int(text[j:i]), sides))
            continue
        if atom in _SHORTCUTS:
            parts = _SHORTCUTS[atom]
        elif atom in _ATOMS:
            parts = ((atom, False),)
        elif atom in "()[]{}-!'":
            raise BetzaError(text, atom_pos, f"grouping and continuation syntax {atom!r} is not supported")
        elif atom.isupper():
            raise BetzaError(text, atom_pos, f"unknown atom {atom!r}")
        else:
            raise BetzaError(text, atom_pos, f"unexpected character {atom!r}")
        a, b = _ATOMS[parts[0][0]]
        if i < n and text[i] in "XY" and atom in _ATOMS:
            a, b = (a + 3, b) if text[i] == "X" else (a + 2, b + 2)
            i += 1
        rng = 1
        if i < n and text[i] == atom and atom in _ATOMS:  # doubled atom: unlimited rider
            rng = 0
            i += 1
        elif i < n and text[i].isdigit():
            j = i
            while i < n and text[i].isdigit():
                i += 1
            rng = int(text[j:i])
        tokens = _direction_tokens(mods)
        has_mode = any(c in mods for c in "mce")
        for base, rider in parts:
            pa, pb = (a, b) if atom in _ATOMS else _ATOMS[base]
            r = 0 if (rider and rng == 1) else rng
            if "n" in mods:
                _lame_ok(text, atom_pos, pa, pb, r != 1)
            for x, y in _symmetric(pa, pb):
                if tokens and not any(_selects(t, x, y) for t in tokens):
                    continue
                steps.append(Step(x, y, r, move="m" in mods or not has_mode,
                                  capture="c" in mods or not has_mode, ep="e" in mods,
                                  lame="n" in mods and not (abs(x) <= 1 and abs(y) <= 1),
                                  initial="i" in mods))
    return PieceMoves(text, tuple(steps), tuple(castlings))


def _castle_side(mods: str, side: str) -> bool:
    letters = [c for c in mods if c in "lrs"]
    return not letters or side in letters or "s" in letters


def leap_path(dx: int, dy: int) -> tuple[tuple[int, int], ...]:
    """The squares (as offsets) that a lame leap (dx, dy) needs empty."""
    g = gcd(dx, dy)
    if abs(dx) != abs(dy) and dx and dy:  # the knight: the orthogonal square first
        return (((dx > 0) - (dx < 0), 0),) if abs(dx) > abs(dy) else ((0, (dy > 0) - (dy < 0)),)
    ux, uy = dx // g, dy // g
    return tuple((ux * k, uy * k) for k in range(1, g))
