"""XBetza move notation -> move descriptions.

This module is pure: it knows nothing about boards.  :func:`parse` turns a
string such as ``ifmnDfmWfceF`` (the FIDE pawn) into a :class:`PieceMoves`,
seen from White's side (``dy > 0`` is forward, ``dx > 0`` is to White's right):

* :class:`Step`: one direction of a plain leap or ride (the move tables' fast paths);
* :class:`Hop`: one direction of a hopper (``pR`` cannon, ``pB`` vao, ``gQ`` grasshopper);
* :class:`Path`: a move of several legs (``a``, the bracket form ``[...]``), a crooked
  (``z``) or circular (``q``) ride, or a one-leg move that needs the general walker
  (``d``, ``k``, ``j``, ``o``, ``n`` riders).

Every construct of ``docs/definitions.md`` ("XBetza as morphchess reads it") is
compiled; anything else (``t w x``, the unloads ``u`` it does not read, unknown atoms) is refused with a
:class:`BetzaError` that names the construct: the notation is never guessed.  Strings past
:data:`MAX_TEXT` characters, moves of more than :data:`MAX_LEGS` legs and more than :data:`MAX_STEPS`
one-leg directions are refused before they are expanded; :func:`expansion` bounds what a piece visits
from one square, for the loader's limits.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from math import gcd

from .errors import InputError, cut, quote

__all__ = ["BetzaError", "Step", "Hop", "Leg", "Path", "Castling", "PieceMoves", "parse", "leg_vector",
           "leap_path", "unrolled", "expansion", "MAX_TEXT", "MAX_LEGS", "MAX_STEPS"]

# Bounds on one XBetza string, checked before the work they bound (docs/definitions.md, "Limits").
MAX_TEXT = 500  # characters
MAX_LEGS = 10  # legs of one multi-leg move (before a final hop's extra leg)
MAX_STEPS = 10_000  # one-leg directions (steps and hops) of one string: a universal leaper 'U' has 2600


class BetzaError(InputError):
    """An XBetza string that cannot be compiled; the message says where and why."""

    def __init__(self, text: str, pos: int, message: str) -> None:
        super().__init__(f"XBetza {quote(text)}, position {pos + 1}: {message}")
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
    half: bool = False  # the ID's '*' (``fmW*``): rides to the last rank of its own half, at least one step
    # a lame leap that gives en-passant rights on the squares it passes, as the ID reads XBetza:
    # 'n' after 'i' (the pawn's initial double step) or 'nn' (a double step from any square)
    ep_rights: bool = False


@dataclass(frozen=True)
class Hop:
    """One direction of a hopper: ride up to ``rng`` steps (0: unlimited) to the first piece (the
    hurdle, of either side, which stays), then up to ``after`` steps beyond it (0: unlimited;
    1: the square just behind it, the grasshopper), stopping at the next piece."""

    dx: int
    dy: int
    rng: int
    after: int
    move: bool = True
    capture: bool = True
    initial: bool = False


@dataclass(frozen=True)
class Leg:
    """One leg of a :class:`Path`.

    The atom is ``(a, b)`` (long and short leap, (1, 0) = W) or the king system (K, Q, and
    every orthogonal or diagonal atom after the first leg).  ``dirs`` are direction indices
    0..7 (0 straight ahead, then clockwise in 45 degree steps): absolute (White's view) on
    the first leg, relative to the previous leg's direction on later legs.  ``modes``:
    ``m`` end on an empty square, ``c`` on an enemy (captured), ``d`` on a friend
    (captured), ``p`` on any piece (hopped over, stays), ``E``/``F`` on an enemy / a friend
    (hopped over: the ID's ``cau``/``dau``), ``k`` check only (final leg).
    ``skip`` squares are passed whatever stands there (``j`` on unit atoms); ``hurdle``:
    the square halfway must be occupied (``j`` on longer leaps), ``lame``: empty (``n``);
    ``wrap``: the board is a cylinder (``o``).
    """

    a: int
    b: int
    king: bool
    rng: int
    dirs: tuple[int, ...]
    modes: str
    skip: int = 0
    hurdle: bool = False
    lame: bool = False
    wrap: bool = False


@dataclass(frozen=True)
class Path:
    """A move of one or more legs; each leg starts where the previous one ended.

    ``cycle`` > 0 (crooked and circular rides): the last ``cycle`` legs repeat, the move may
    end after any leg (the legs before its end go to empty squares) and has at most ``limit``
    legs (0: as many as the board allows); :func:`unrolled` gives the move of n legs."""

    legs: tuple[Leg, ...]
    initial: bool = False
    cycle: int = 0
    limit: int = 0


@dataclass(frozen=True)
class Castling:
    """Castling: the royal piece moves ``steps`` squares to the side(s) ``sides`` (-1 left, +1 right),
    with the partner ``skip`` pieces in from the outermost one (``j``)."""

    steps: int
    sides: tuple[int, ...]
    skip: int = 0


@dataclass(frozen=True)
class PieceMoves:
    """Everything an XBetza string says: the steps, hops, paths and castlings."""

    text: str
    steps: tuple[Step, ...]
    castlings: tuple[Castling, ...]
    hops: tuple[Hop, ...] = ()
    paths: tuple[Path, ...] = ()


# Base atoms: (long, short) leg of the leap.  L and J are the camel and zebra's other letters.
_ATOMS = {"W": (1, 0), "F": (1, 1), "D": (2, 0), "N": (2, 1), "A": (2, 2),
          "H": (3, 0), "C": (3, 1), "Z": (3, 2), "G": (3, 3), "L": (3, 1), "J": (3, 2)}
# Shortcuts: atom -> ((base atom, rider?), ...)
_SHORTCUTS = {"K": (("W", False), ("F", False)), "R": (("W", True),),
              "B": (("F", True),), "Q": (("W", True), ("F", True))}
_DIGITS = "0123456789"
_HALF = ("'*' after an atom (the ID's range to the own half of the board, Wildebeest's pawn 'fmW*') is read on "
         "a one-leg move that only moves ('m'), without 'n', 'j', 'o', 'e' or a range")
_UNIVERSAL = 25  # U, the universal leaper, reaches every square of a board up to 26x26
_DIRECTION_LETTERS = "fblrvsh"
_MODE_LETTERS = "mceindkpgyjoazqu"
_VERTICAL = "fbv"
_HORIZONTAL = "lrs"
_UNSUPPORTED = {
    "t": "'t' (XBoard's friendly-only hop and tame piece; the Interactive Diagram does not read it)",
    "w": "modifier 'w' (no meaning in the XBetza documentation)",
    "x": "move induction and borrowing 'x' (moves that depend on the piece on the square reached)",
}
_UNLOAD = ("unload 'u' is read on the last leg only, when that leg may capture ('c', 'd' or no modality, "
           "not a hop) and every leg before it goes to an empty square, or right after a capturing leg "
           "('cau', 'dau': a hop over an enemy or a friend only)")
_BENT_MODES = "mcdikzq"  # what a one-leg crooked or circular move may carry besides directions
# Rotation matrices (x' = a x + b y, y' = c x + d y) of the eight directions, clockwise from ahead.
_ROT = ((1, 0, 0, 1), (0, 1, 1, 0), (0, 1, -1, 0), (1, 0, 0, -1),
        (-1, 0, 0, -1), (0, -1, -1, 0), (0, -1, 1, 0), (-1, 0, 0, 1))
# Relative directions on later legs: one letter alone (narrow), and the wide sets that two
# perpendicular letters intersect (``fs`` = the two 45 degree turns).
_NARROW = {"f": {0}, "b": {4}, "r": {2}, "l": {6}, "s": {2, 6}, "v": {0, 4}, "h": set(range(8))}
_WIDE = {"f": {7, 0, 1}, "b": {3, 4, 5}, "r": {1, 2, 3}, "l": {5, 6, 7}, "s": {1, 2, 3, 5, 6, 7},
         "v": {7, 0, 1, 3, 4, 5}, "h": set(range(8))}
_AXIS = {"f": 1, "b": 1, "l": 2, "r": 2, "s": 6, "v": 5, "h": 4}


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
    a, b = token[0], token[1]
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


def _relative_dirs(mods: str, eightfold: bool) -> tuple[int, ...]:
    """Direction indices, relative to the previous leg, that the letters of a later leg select.
    Without letters: every direction but straight back (on four-fold atoms: ahead and the two
    right angles)."""
    letters = [c for c in mods if c in _DIRECTION_LETTERS]
    out: set[int] = set()
    i = 0
    while i < len(letters):
        c = letters[i]
        d = letters[i + 1] if i + 1 < len(letters) else ""
        if d == c:
            out |= _NARROW[c]
            i += 2
        elif d and _AXIS[c] < 4 and (_AXIS[c] | _AXIS[d]) & 3 == 3:
            out |= _WIDE[c] & _WIDE[d]
            i += 2
        else:
            out |= _NARROW[c]
            i += 1
    if not out:
        out = {0, 1, 2, 3, 5, 6, 7} if eightfold else {0, 2, 6}
    return tuple(sorted(out))


def _kingwise(leg: Leg) -> bool:
    """Does the leg use the king system (orthogonal and diagonal directions of one length)?"""
    return leg.king or leg.b == 0 or leg.a == leg.b


def leg_vector(leg: Leg, d: int) -> tuple[int, int]:
    """The board vector (White's view) of ``leg`` in direction index ``d``."""
    ra, rb, rc, rd = _ROT[d % 8]
    if _kingwise(leg):
        x, y = (0, leg.a) if d % 2 == 0 else (leg.a, leg.a)
    else:
        x, y = leg.b, leg.a
    return ra * x + rb * y, rc * x + rd * y


def _ep_rights(mods: str, x: int, y: int) -> bool:
    """Does a lame leap give en-passant rights?  The ID's reading: an 'n' that follows an 'i' or
    another 'n' on a leap of up to four squares (``ifmnD``, ``fmnnD``); morphchess also takes
    ``nifmD``, the modifiers in either order."""
    n = mods.find("n")
    if n < 0 or max(abs(x), abs(y)) < 2 or max(abs(x), abs(y)) > 4:
        return False
    return "i" in mods or "n" in mods[n + 1:]


def _lame_ok(text: str, pos: int, a: int, b: int, rider: bool) -> None:
    if rider and (a, b) not in ((1, 0), (1, 1)):
        raise BetzaError(text, pos, "lame riders ('n' on a rider) are not supported")
    if a != b and b != 0 and (a, b) != (2, 1):
        raise BetzaError(text, pos, f"'n' on the oblique leap ({a},{b}) is not supported")


@dataclass(frozen=True)
class _Unit:
    """One atom with its modifiers, as written: ``mods`` (letters before it), the leap (a, b),
    ``king`` (K or Q), ``rng`` and whether it is the universal leaper."""

    mods: str
    pos: int
    atom: str
    a: int
    b: int
    king: bool
    rng: int
    universal: bool = False
    half: bool = False  # '*' after the atom: range to the own half of the board


def _read_mods(text: str, i: int) -> int:
    """Index after the modifier letters starting at ``i`` (refusing the unsupported ones)."""
    while i < len(text) and text[i].islower():
        if text[i] in _UNSUPPORTED:
            raise BetzaError(text, i, f"{_UNSUPPORTED[text[i]]} is not supported")
        if text[i] not in _DIRECTION_LETTERS + _MODE_LETTERS:
            raise BetzaError(text, i, f"unknown modifier {text[i]!r}")
        i += 1
    return i


def _read_atom(text: str, start: int, i: int) -> tuple[_Unit, int]:
    """The atom at ``i`` (modifiers from ``start``), its X/Y extension and range."""
    n = len(text)
    mods = text[start:i]
    if i >= n:
        raise BetzaError(text, start, f"modifiers {mods!r} are not followed by an atom")
    atom_pos, atom = i, text[i]
    i += 1
    if atom == "U":
        return _Unit(mods, atom_pos, atom, 0, 0, False, 1, universal=True), i
    if atom in _SHORTCUTS:
        parts = _SHORTCUTS[atom]
    elif atom in _ATOMS:
        parts = ((atom, False),)
    elif atom in "()]{}-!'?":
        raise BetzaError(text, atom_pos, f"grouping and continuation syntax {atom!r} is not supported")
    elif atom.isupper():
        raise BetzaError(text, atom_pos, f"unknown atom {atom!r}")
    else:
        raise BetzaError(text, atom_pos, f"unexpected character {atom!r}")
    a, b = _ATOMS[parts[0][0]]
    if i < n and text[i] in "XY" and atom in _ATOMS:
        a, b = (a + 3, b) if text[i] == "X" else (a + 2, b + 2)
        i += 1
    rng = 0 if parts[0][1] else 1
    if i < n and text[i] == atom and atom in _ATOMS:  # doubled atom: unlimited rider
        rng = 0
        i += 1
    elif i < n and text[i] in _DIGITS:
        j = i
        while i < n and text[i] in _DIGITS:
            i += 1
        rng = int(text[j:i])
    elif i < n and text[i] == "*":
        return _Unit(mods, atom_pos, atom, a, b, atom in "KQ", 0, half=True), i + 1
    return _Unit(mods, atom_pos, atom, a, b, atom in "KQ", rng), i


def parse(text: str, reach: int = _UNIVERSAL) -> PieceMoves:
    """Compile an XBetza string into a :class:`PieceMoves`; the universal leaper ``U`` leaps at most
    ``reach`` squares along each axis (the board's size less one: every square of the board).

    >>> sorted((s.dx, s.dy) for s in parse("fhN").steps)
    [(-2, 1), (-1, 2), (1, 2), (2, 1)]
    """
    if len(text) > MAX_TEXT:
        raise BetzaError(text, 0, f"{len(text)} characters, at most {MAX_TEXT} are read")
    out = _Collector(text, min(reach, _UNIVERSAL))
    i, n = 0, len(text)
    if not text.strip():
        raise BetzaError(text, 0, "empty move description")
    if text.strip() == "-":  # a piece without moves (Chak's offering)
        return PieceMoves(text, (), ())
    if "(" in text:
        return _grouped(text, reach)
    while i < n:
        start = i
        i = _read_mods(text, i)
        if i < n and text[i] == "[":
            i = out.bracket(start, i)
            continue
        if i < n and text[i] == "O":
            i = out.castling(start, i)
            continue
        unit, i = _read_atom(text, start, i)
        out.unit(unit)
        if len(out.steps) + len(out.hops) > MAX_STEPS:
            raise BetzaError(text, start, f"more than {MAX_STEPS} one-leg directions")
    return PieceMoves(text, tuple(out.steps), tuple(out.castlings), tuple(out.hops), tuple(out.paths))


# A group of modifiers in parentheses with an optional count, inside one atom's term: x(y)Nz A
_GROUP = re.compile(r"([a-z]*)\(([a-z]+)\)([0-9]*)([a-z]*)([A-Z][XY]?(?:[A-Z]|[0-9]+|\*)?)")


def _grouped(text: str, reach: int) -> PieceMoves:
    """XBetza with a repeated group: ``x(y)zA`` is ``xzA xyzA xyyzA ...`` (H. G. Muller, 2021-05-20,
    the Quintessence ``(az)N``).  Decision: a count after the group bounds its repetitions
    (``(az)7N``: at most seven, so at most eight leaps); without one the group repeats as long as
    the move stays within :data:`MAX_LEGS` legs.  The expansion is read as written out."""
    def expand(m: re.Match) -> str:
        x, y, count, z, atom = m.groups()
        legs = (x + z).count("a") + 1
        if "a" not in y:
            raise BetzaError(text, m.start(2) - 1, "a group in parentheses repeats legs: it needs an 'a'")
        most = (MAX_LEGS - legs) // y.count("a")
        if count:
            if int(count[:4]) > most:
                raise BetzaError(text, m.start(3), f"{count} repetitions make more than {MAX_LEGS} legs")
            most = int(count)
        return "".join(x + y * k + z + atom for k in range(most + 1))

    written = _GROUP.sub(expand, text)
    if "(" in written or ")" in written:
        raise BetzaError(text, written.find("(") % len(text), "grouping in parentheses is read as 'x(y)zA' only "
                                                              "(modifiers, one group to an atom)")
    try:
        moves = parse(written, reach)
    except BetzaError as e:
        raise BetzaError(text, text.index("("), f"as written out, {cut(written)}: {e}") from None
    return PieceMoves(text, moves.steps, moves.castlings, moves.hops, moves.paths)


def _modes(mods: str) -> str:
    """The modality letters of ``mods``; ``E``/``F``: hop over an enemy / a friend only (``cau``, ``dau``)."""
    return "".join(c for c in mods if c in "mcdkpgyeEFu")


class _Collector:
    """Collects the compiled moves of one XBetza string."""

    def __init__(self, text: str, reach: int) -> None:
        self.text = text
        self.reach = reach
        self.steps: list[Step] = []
        self.hops: list[Hop] = []
        self.paths: list[Path] = []
        self.castlings: list[Castling] = []

    def fail(self, pos: int, message: str) -> None:
        raise BetzaError(self.text, pos, message)

    def castling(self, start: int, i: int) -> int:
        text, n = self.text, len(self.text)
        mods = text[start:i]
        atom_pos = i
        i += 1
        j = i
        while i < n and text[i].isdigit():
            i += 1
        if j == i or int(text[j:i]) < 1:
            self.fail(atom_pos, "castling 'O' needs a number of squares, e.g. O2")
        sides = tuple(s for s, ok in ((-1, _castle_side(mods, "l")), (1, _castle_side(mods, "r"))) if ok)
        self.castlings.append(Castling(int(text[j:i]), sides, mods.count("j")))
        return i

    # -- one atom with its modifiers ------------------------------------------------
    def unit(self, u: _Unit) -> None:
        if u.half and (u.universal or _modes(u.mods) != "m" or set(u.mods) & set("azqnjoe")):
            self.fail(u.pos, _HALF)
        groups = u.mods.split("a")
        if len(groups) > 1:
            self.chain([(g, u) for g in groups], u.pos)
            return
        if "u" in u.mods and not set(u.mods) & set("zq"):
            self.chain([(u.mods, u)], u.pos)
            return
        if "z" in u.mods or "q" in u.mods:
            self.bent(u)
            return
        modes = _modes(u.mods)
        special = set(modes) & set("dkpgy") or set(u.mods) & set("jo")
        if not special:
            self.plain(u)
        elif set(modes) & set("pg") and not set(u.mods) & set("dkyjoen"):
            self.hop(u, modes)
        elif u.universal and not set(u.mods) - set(_DIRECTION_LETTERS + "mcdi"):
            self.universal(u)
        else:
            self.chain([(u.mods, u)], u.pos)

    def _vectors(self, u: _Unit, mods: str) -> list[tuple[int, int]]:
        """The board vectors of ``u`` that the direction letters of ``mods`` select (White's view)."""
        if u.universal:
            base = [(x, y) for x in range(-self.reach, self.reach + 1)
                    for y in range(-self.reach, self.reach + 1) if x or y]
        elif u.king:
            base = _symmetric(1, 0) + _symmetric(1, 1)
        else:
            base = _symmetric(u.a, u.b)
        tokens = _direction_tokens(mods)
        return [v for v in base if not tokens or any(_selects(t, *v) for t in tokens)]

    def plain(self, u: _Unit) -> None:
        """Leaps and rides: :class:`Step` values."""
        mods = u.mods
        if "n" in mods:
            if u.universal:
                self.fail(u.pos, "'n' on the universal leaper 'U' is not supported")
            for a, b in ((1, 0), (1, 1)) if u.king else ((u.a, u.b),):
                _lame_ok(self.text, u.pos, a, b, u.rng != 1)
        has_mode = any(c in mods for c in "mce")
        for x, y in self._vectors(u, mods):
            self.steps.append(Step(x, y, u.rng, move="m" in mods or not has_mode,
                                   capture="c" in mods or not has_mode, ep="e" in mods,
                                   lame="n" in mods and not (abs(x) <= 1 and abs(y) <= 1),
                                   initial="i" in mods, half=u.half, ep_rights=_ep_rights(mods, x, y)))

    def universal(self, u: _Unit) -> None:
        """``d`` on the universal leaper (``dU``, Tamerlane II's king): a leap to any square that may
        take a friend there, as the ID shows it, compiled as one-leg :class:`Path` values, one per
        leap (a, b) with the directions of ``u`` that reach it (the walker knows the ``d`` mode)."""
        end = "".join(c for c in u.mods if c in "mcd")
        by_leap: dict[tuple[int, int], list[tuple[int, int]]] = {}
        for x, y in self._vectors(u, u.mods):
            by_leap.setdefault((max(abs(x), abs(y)), min(abs(x), abs(y))), []).append((x, y))
        for (a, b), vectors in sorted(by_leap.items()):
            leg = Leg(a, b, False, 1, (), end)
            dirs = tuple(sorted({_dir_index(leg, v) for v in vectors}))
            self.paths.append(Path((Leg(a, b, False, 1, dirs, end),), "i" in u.mods))

    def hop(self, u: _Unit, modes: str) -> None:
        """``p`` and ``g`` on one leg: :class:`Hop` values."""
        if u.universal:
            self.fail(u.pos, "hops of the universal leaper 'U' are not supported")
        after = u.rng if "p" in modes else (0 if u.rng == 1 else 1)
        has_mode = any(c in modes for c in "mc")
        for x, y in self._vectors(u, u.mods):
            self.hops.append(Hop(x, y, u.rng, after, move="m" in modes or not has_mode,
                                 capture="c" in modes or not has_mode, initial="i" in u.mods))

    def bent(self, u: _Unit) -> None:
        """``z`` (crooked: each step turns a right angle, alternately either way) and ``q``
        (circular: each step turns the same way, a right angle on orthogonal and diagonal atoms,
        the next leap of the octagon on oblique ones) on a one-leg move: rides of the atom's
        leap (a leaper rides too: ``qN`` is the rose), as two mirror-image :class:`Path` families."""
        other = sorted(set(u.mods) - set(_DIRECTION_LETTERS + _BENT_MODES))
        if u.universal or other or ("z" in u.mods and "q" in u.mods):
            what = "the universal leaper" if u.universal else repr("".join(other) or "zq")
            self.fail(u.pos, f"crooked or circular moves ('z', 'q') with {what} are not supported")
        end = "".join(c for c in u.mods if c in "mcdk") or "mc"
        first = self._leg(u.mods, u, 1, None, False)
        first = _with_modes(first, end)
        oblique = not _kingwise(first)
        crooked = "z" in u.mods
        turn = 2 if crooked or not oblique else 1
        closes = 8 if oblique and not crooked else 4  # a circular path comes back after this many legs
        limit = u.rng if u.rng > 1 else 0
        if not crooked:
            limit = min(limit or closes - 1, closes - 1)
        for side in (turn, 8 - turn):
            cycle = (side, 8 - side) if crooked else (side,)
            legs = (first,) + tuple(Leg(u.a, u.b, u.king, 1, (d,), end) for d in cycle)
            self.paths.append(Path(legs, "i" in u.mods, len(cycle), limit))

    # -- several legs ------------------------------------------------------------------
    def chain(self, parts: list[tuple[str, _Unit]], pos: int, stops: tuple[int, ...] = (),
              outward: bool = False) -> None:
        """:class:`Path` values of the legs ``parts`` (modifiers, atom); ``stops``: legs after which
        the move may also end (the bracket form's ``?``); ``outward``: later legs without
        direction letters go straight on (bracket form) instead of every way but back.  ``z``
        and ``q`` on later legs turn against or with the previous turn (:func:`_sided`)."""
        if len(parts) > MAX_LEGS:
            self.fail(pos, f"a move of {len(parts)} legs; at most {MAX_LEGS} are read")
        if "z" in parts[0][0] or "q" in parts[0][0]:
            self.fail(parts[0][1].pos, "crooked or circular 'z'/'q' on the first leg of a multi-leg move "
                                       "is not supported")
        for variant, side in self._sided(self._unloads(parts)):
            self._chain(variant, pos, stops, outward, side)

    def _unloads(self, parts: list[tuple[str, _Unit]]) -> list[tuple[str, _Unit]]:
        """``u`` right after a capturing leg (``cau``, ``dau``) puts the piece taken back where it
        stood: as in the ID, that leg hops over an enemy (``E``) or a friend (``F``) only.  A ``u``
        on a last leg that may capture, after legs to empty squares only, stays: the piece taken
        there is unloaded where that leg starts.  Any other ``u`` is refused."""
        out: list[tuple[str, _Unit]] = []
        for k, (mods, u) in enumerate(parts):
            if "u" in mods and out and set(out[-1][0]) & set("cd"):
                out[-1] = (out[-1][0].replace("c", "E").replace("d", "F"), out[-1][1])
                mods = mods.replace("u", "")
            elif "u" in mods and not self._unloads_ok(mods, out, k == len(parts) - 1):
                self.fail(u.pos, _UNLOAD)
            out.append((mods, u))
        return out

    @staticmethod
    def _unloads_ok(mods: str, before: list[tuple[str, _Unit]], last: bool) -> bool:
        """May a leg with modifiers ``mods`` unload, after the legs ``before``?"""
        modes = _modes(mods)
        captures = modes == "u" or bool(set(modes) & set("cd"))
        return (last and captures and mods.count("u") == 1 and not set(modes) & set("pgyk")
                and all(not set(_modes(m)) - set("m") for m, _u in before))

    def _sided(self, parts: list[tuple[str, _Unit]]) -> list[tuple[list[tuple[str, _Unit]], str]]:
        """The variants of a multi-leg move with ``z``/``q`` on later legs, each with its letters
        made explicit (``l``/``r``) and the chirality its first leg is kept to ('' for any)."""
        if not any(c in mods for mods, _u in parts[1:] for c in "zq"):
            return [(parts, "")]
        first = self._leg(parts[0][0], parts[0][1], 1, None, False)
        starts = sorted({_chirality(*leg_vector(first, d)) for d in first.dirs}, key=str)
        out = []
        for start in starts:
            for rest in self._resolve(parts[1:], start if start != "o" else ""):
                out.append(([parts[0]] + rest, start))
        return out

    def _resolve(self, rest: list[tuple[str, _Unit]], side: str) -> list[list[tuple[str, _Unit]]]:
        """Every way to write the legs ``rest`` with ``l``/``r`` for ``s``, ``z``, ``q``, the last
        turn having been to ``side`` ('' for none yet)."""
        if not rest:
            return [[]]
        (mods, u), tail = rest[0], rest[1:]
        needed = any(c in m for m, _u in tail for c in "zq")
        out: list[list[tuple[str, _Unit]]] = []
        seen = set()
        for choice in ("l", "r"):
            other = "r" if choice == "l" else "l"
            if side:
                table = {"z": other if side == choice else choice, "q": side}
            else:
                table = {"z": choice, "q": choice}
            if needed:
                table["s"] = choice
            written = "".join(table.get(c, c) for c in mods)
            if written in seen:
                continue
            seen.add(written)
            turn = _turn_side(_relative_dirs(written, True), bool(needed), self, u.pos)
            for later in self._resolve(tail, turn if turn is not None else side):
                out.append([(written, u)] + later)
        return out

    def _chain(self, parts: list[tuple[str, _Unit]], pos: int, stops: tuple[int, ...], outward: bool,
               side: str) -> None:
        legs: list[Leg] = []
        toggle = False
        for k, (mods, u) in enumerate(parts):
            if u.universal:
                self.fail(u.pos, f"the universal leaper 'U' with {u.mods!r} (multi-leg, d, k, j, o) is not "
                                 "supported (the ID's swap dU among them)")
            if k and "i" in mods:
                self.fail(u.pos, "'i' on a later leg is not supported")
            if "e" in mods:
                self.fail(u.pos, "en-passant 'e' in a multi-leg move is not supported")
            rng = (0 if legs[-1].rng == 1 else 1) if toggle else u.rng
            toggle = any(c in mods for c in "gy")
            legs.append(self._leg(mods, u, rng, legs[-1] if legs else None, outward, side))
        initial = "i" in parts[0][0]
        for k in stops:
            self.paths.append(Path(self._finish(legs[:k + 1], parts[k][1].pos), initial))
        self.paths.append(Path(self._finish(legs, pos), initial))

    def _leg(self, mods: str, u: _Unit, rng: int, prev: Leg | None, outward: bool, side: str = "") -> Leg:
        """One leg; a first leg keeps only the vectors of chirality ``side`` ('' for all)."""
        skip = mods.count("j") if (u.a, u.b) in ((1, 0), (1, 1)) or u.king else 0
        leg = Leg(u.a, u.b, u.king, rng, (), _modes(mods),
                  skip=skip, hurdle="j" in mods and not skip, lame="n" in mods, wrap="o" in mods)
        if prev is None:
            vectors = [v for v in self._vectors(u, mods) if not side or _chirality(*v) == side]
            dirs = tuple(sorted({_dir_index(leg, v) for v in vectors}))
        elif outward and not any(c in mods for c in _DIRECTION_LETTERS):
            dirs = (1, 7) if _crossing(prev, leg) else (0,)
        else:
            dirs = _relative_dirs(mods, leg.king or not _kingwise(leg))
        return Leg(leg.a, leg.b, leg.king, rng, dirs, leg.modes, leg.skip, leg.hurdle, leg.lame, leg.wrap)

    def _finish(self, legs: list[Leg], pos: int) -> tuple[Leg, ...]:
        """Default modalities (m on the way, mc at the end) and a final hop as two legs."""
        out = [_with_modes(leg, leg.modes.replace("y", "m").replace("g", "p") or "m") for leg in legs[:-1]]
        for leg in out:
            if "k" in leg.modes:
                self.fail(pos, "check-only 'k' on a leg before the last is not supported")
        last = legs[-1]
        if "y" in last.modes:
            self.fail(pos, "'y' on the last leg (nothing follows to change its range)")
        end = "".join(c for c in last.modes if c in "mcdk") or "mc"
        end += "u" if "u" in last.modes else ""
        if "p" in last.modes or "g" in last.modes:  # a hopper's last leg: to the hurdle, then on
            rng = last.rng if "p" in last.modes else (0 if last.rng == 1 else 1)
            out.append(_with_modes(last, "p"))
            last = Leg(last.a, last.b, last.king, rng, (0,), end, lame=last.lame, wrap=last.wrap)
        out.append(_with_modes(last, end))
        return tuple(out)

    def bracket(self, start: int, i: int) -> int:
        """The bracket form ``[leg-leg?leg]``: ``-`` passes on, ``?`` may also stop there."""
        text = self.text
        prefix = text[start:i]
        close = text.find("]", i)
        if close < 0:
            self.fail(i, "'[' without its ']'")
        parts: list[tuple[str, _Unit]] = []
        stops: list[int] = []
        j = i + 1
        while j < close:
            m = _read_mods(text, j)
            u, j = _read_atom(text[:close], j, m)
            mods = (prefix + u.mods) if not parts else u.mods
            parts.append((mods, u))
            if j < close:
                if text[j] not in "-?":
                    self.fail(j, f"{text[j]!r} between the legs of a bracket move (use '-' or '?')")
                if text[j] == "?":
                    stops.append(len(parts) - 1)
                j += 1
        if not parts:
            self.fail(i, "empty bracket move")
        self.chain(parts, i, tuple(stops), outward=True)
        return close + 1


def _with_modes(leg: Leg, modes: str) -> Leg:
    return Leg(leg.a, leg.b, leg.king, leg.rng, leg.dirs, modes, leg.skip, leg.hurdle, leg.lame, leg.wrap)


def _chirality(x: int, y: int) -> str:
    """'l' or 'r'': the side a leap turns to, seen as starting along its longer leg (along the
    rank for a diagonal one: NE is a left move), as the ID breaks the symmetry of oblique and
    diagonal first legs for ``z``/``q``; 'o' for an orthogonal leap (no side)."""
    if x == 0 or y == 0:
        return "o"
    if abs(x) >= abs(y):
        return "l" if (x > 0) == (y > 0) else "r"
    return "l" if (y > 0) != (x > 0) else "r"


def _turn_side(dirs: tuple[int, ...], needed: bool, out: _Collector, pos: int) -> str | None:
    """The side a later leg with relative directions ``dirs`` turns to (None: straight on or back);
    ``needed``: a later ``z``/``q`` depends on it, so it must be one side or none."""
    sides = {"r" if d < 4 else "l" for d in dirs if d % 4}
    if len(sides) == 1 and (not needed or all(d % 4 for d in dirs)):
        return sides.pop()
    if needed and sides:
        out.fail(pos, "'z'/'q' after a leg that may turn either way or go straight is not supported")
    return None


def unrolled(path: Path, n: int) -> tuple[Leg, ...]:
    """The move of ``n`` legs of a repeating :class:`Path` (``cycle`` > 0): its legs in turn, the
    repeating ones again and again, every leg but the last going to an empty square."""
    head = len(path.legs) - path.cycle
    legs = list(path.legs[:head])
    while len(legs) < n:
        legs.append(path.legs[head + (len(legs) - head) % path.cycle])
    return tuple(_with_modes(leg, "m") for leg in legs[:n - 1]) + (legs[n - 1],)


def expansion(moves: PieceMoves, files: int, ranks: int) -> int:
    """An upper bound on the squares a piece with ``moves`` visits from one square of a ``files`` x
    ``ranks`` board: each step's and hop's ray, and each path's walks (the product over its legs of
    directions times range), so that the loader can refuse a piece before any table is built."""
    extent = max(files, ranks) - 1
    total = sum(s.rng if 0 < s.rng < extent else extent for s in moves.steps)
    total += extent * len(moves.hops)
    for path in moves.paths:
        reach = [leg.rng if 0 < leg.rng < extent else (files * ranks if leg.wrap else extent)
                 for leg in path.legs]
        if path.cycle:  # one chain of single steps after the first leg, at most files + ranks long
            walks = len(path.legs[0].dirs) * reach[0] * min(path.limit or files + ranks, files + ranks)
        else:
            walks = 1
            for leg, r in zip(path.legs, reach):
                walks *= max(1, len(leg.dirs)) * r
        total += walks
    return total


def _crossing(prev: Leg, leg: Leg) -> bool:
    """Does ``leg`` run on the other kind of line (orthogonal/diagonal) than ``prev``'s atom?"""
    if prev.king or leg.king or not (_kingwise(prev) and _kingwise(leg)):
        return False
    return (prev.b == 0) != (leg.b == 0)


def _dir_index(leg: Leg, v: tuple[int, int]) -> int:
    return next(d for d in range(8) if leg_vector(leg, d) == v)


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
