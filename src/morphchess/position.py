"""Positions: make/unmake, the move walker, check, hashing, outcome.

Moves are :class:`morphchess.move.Move` values; the board holds piece codes
(:mod:`morphchess.pieces`).  This module and :mod:`morphchess.tables` are the
core: their inner loops test the code bits inline, for speed.  Every other
module asks a :class:`Position` (or a :class:`morphchess.board.Board`, the
public, python-chess-like wrapper) instead of reaching into it.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .connection import connected
from .errors import InputError
from .move import Kind, Move
from .pieces import code
from .tables import WALL
from .variant import BLACK, WHITE, Variant

__all__ = ["Position", "Outcome", "PositionError", "Undo", "compiled"]

NORMAL, DOUBLE, EN_PASSANT, CASTLE, TRANSFORM, DROP, LEGS, UNLOAD = (
    Kind.NORMAL, Kind.DOUBLE, Kind.EN_PASSANT, Kind.CASTLE, Kind.TRANSFORM, Kind.DROP, Kind.LEGS, Kind.UNLOAD)
WALLED = Kind.WALL


if TYPE_CHECKING:
    from . import _cython as cython
else:  # Cython is needed only to build the compiled core; without it this module runs as its source
    try:
        import cython
    except ImportError:  # the few names of Cython's pure-Python mode this module uses
        from . import _cython as cython

_COMPILED = cython.compiled


def compiled() -> bool:
    """Does the core run compiled (this module built by Cython), rather than as Python source?"""
    return _COMPILED


class PositionError(InputError):
    """A position that cannot be set up (a piece code or square that does not fit the variant)."""


@dataclass(frozen=True)
class Outcome:
    """How a game ended: ``winner`` is WHITE (0), BLACK (1) or None for a draw."""

    termination: str  # checkmate, stalemate, extinction, flag, royal capture, bare king, fifty moves, ...
    winner: int | None

    def result(self) -> str:
        return "1/2-1/2" if self.winner is None else ("1-0" if self.winner == WHITE else "0-1")

    def __str__(self) -> str:
        who = "draw" if self.winner is None else ("White wins" if self.winner == WHITE else "Black wins")
        return f"{who} by {self.termination} ({self.result()})"


class Undo:
    """What :meth:`Position.unmake` needs to take back one move: the ``move`` (None for a null
    move), the code of the mover before it (``piece``), what it took (``taken``: the code that stood
    on the target; for en passant the victim's code; for a multi-leg move ``(code on the target,
    codes taken on the way)``), and the position's en-passant state, halfmove clock, hash, royal
    squares, castling rights and hands before it (:meth:`Position._saved` makes them); with atomic
    captures, ``blasted``: the ``(square, code)`` pairs the blast removed.  Compiled, an extension
    type (``position.pxd``)."""

    __slots__ = ("move", "piece", "taken", "ep", "halfmove", "hash", "royals", "rights", "hands", "blasted")
    move: Move | None
    piece: int
    taken: Any  # a code, or (code, codes) for a multi-leg move
    ep: tuple | None
    halfmove: int
    hash: int
    royals: tuple
    rights: int
    hands: tuple
    blasted: tuple


class Position:
    """A position of a variant, changed in place by :meth:`make` and :meth:`unmake`.

    ``board`` holds a piece code per square (an ``array('i')``), ``turn`` the side to move, ``ep``
    the en-passant state ``(squares, victim square, hash part)`` after a
    double step, ``royals`` the royal squares per colour, ``hands`` the pieces in
    hand per colour (a count per type index), ``checks`` the checks each colour must still give
    to win where the variant counts them (:attr:`Variant.check_counts`).  Read them freely; change
    them only through this class's methods.
    """

    __slots__ = ("variant", "t", "board", "turn", "ep", "halfmove", "fullmove", "hash", "royals", "rights",
                 "hands", "_stack", "checks", "_checks_saved", "_zob", "_b")

    def __init__(self, variant: Variant, setup: str = "standard") -> None:
        placement = variant.placement(setup)
        t = variant.tables
        board = [0] * t.size
        for sq, (ti, colour) in placement.items():
            board[sq] = code(ti, colour, t.tracks_virgin[ti])
        self._set(variant, board, WHITE, None, 0, 1, variant.holdings, variant.check_counts)

    @classmethod
    def from_board(cls, variant: Variant, board: list[int], turn: int = WHITE, ep: tuple | None = None,
                   halfmove: int = 0, fullmove: int = 1, hands: Sequence[Mapping[int, int]] = ({}, {}),
                   checks: tuple[int, int] | None = None) -> Position:
        """A position from piece codes, one per square (a diagram, or what position text describes).

        ``ep`` is ``(squares, victim square)`` after a double step, ``hands`` the pieces in
        hand per colour ``{type index: count}`` (none unless given), ``checks`` the checks each
        colour must still give where the variant counts them (None: as at the start).  Raises
        :class:`PositionError` if a code, square or hand does not fit the variant."""
        t = variant.tables
        if len(board) != t.size:
            raise PositionError(f"{len(board)} squares given for the {t.files}x{t.ranks} board")
        bad = next((sq for sq, p in enumerate(board) if p and not (0 < p < t.ncodes and t.valid[p])), None)
        if bad is not None:
            raise PositionError(f"square {variant.square_name(bad)}: {board[bad]!r} is not a piece of {variant.name}")
        if turn not in (WHITE, BLACK) or halfmove < 0 or fullmove < 1:
            raise PositionError("the side to move must be WHITE or BLACK, the halfmove clock >= 0, "
                                "the move number >= 1")
        if any(not 0 < ti <= len(variant.types) or n < 0 for hand in hands for ti, n in hand.items()):
            raise PositionError(f"a hand holds a type or count that {variant.name} does not have")
        if checks is not None and (variant.check_counts is None or min(checks) < 0):
            raise PositionError(f"{variant.name} counts no checks" if variant.check_counts is None
                                else "the checks still to give cannot be negative")
        pos = cls.__new__(cls)
        pos._set(variant, list(board), turn, ep, halfmove, fullmove, hands, checks or variant.check_counts)
        return pos

    def _set(self, variant: Variant, board: list[int], turn: int, ep: tuple | None, halfmove: int,
             fullmove: int, hands: Sequence[Mapping[int, int]], checks: tuple[int, int] | None) -> None:
        self.checks = checks
        self._checks_saved: list = []
        self.variant = variant
        self.t = variant.tables
        self._zob = self.t.zob  # the Zobrist keys as a typed view, for make's C arithmetic
        self.board = self._b = array("i", board)  # ``_b``: the same squares as a typed view, for C reads
        self.hands = tuple(tuple(hand.get(ti, 0) for ti in range(len(variant.types) + 1)) for hand in hands)
        self.turn = turn
        self.halfmove = halfmove
        self.fullmove = fullmove
        self._stack: list[Undo] = []
        self.ep = None
        if ep is not None:
            squares, victim = ep
            self.ep = (tuple(squares), victim, self.ep_key(tuple(squares), turn))
        self.refresh()

    def refresh(self) -> None:
        """Recompute the royal squares, castling rights and the hash from the board (a consistency check)."""
        t = self.t
        roy: tuple[list, list] = ([], [])
        h = t.zob_side if self.turn == BLACK else 0
        for sq, p in enumerate(self.board):
            if p:
                h ^= t.zob[p * t.size + sq]
                if t.royal[p]:
                    roy[p & 1].append(sq)
        if self.ep:
            h ^= self.ep[2]
        for colour, hand in enumerate(self.hands):
            for ti, n in enumerate(hand):
                h ^= t.zob_hand(colour, ti, n)
        self.royals = (tuple(roy[0]), tuple(roy[1]))
        self.rights = self.castle_key()
        self.hash = h ^ self.rights ^ (t.zob_strike if t.counter_strike and self._struck() else 0) ^ self._checks_key()

    def _checks_key(self) -> int:
        """Hash part of the checks still to give (0 where the variant counts none)."""
        if self.checks is None:
            return 0
        keys = self.t.zob_checks
        return keys[WHITE][min(self.checks[WHITE], len(keys[0]) - 1)] ^ keys[BLACK][min(self.checks[BLACK],
                                                                                          len(keys[0]) - 1)]

    def _count_check(self, us: int) -> None:
        """Check counting, after ``us`` moved: keep the counts for unmake, count a check it gave."""
        checks = self.checks
        self._checks_saved.append(checks)
        if checks is not None and self.in_check():
            before = self._checks_key()
            self.checks = (max(checks[0] - 1, 0), checks[1]) if us == WHITE else (checks[0], max(checks[1] - 1, 0))
            self.hash ^= before ^ self._checks_key()

    @cython.locals(F=cython.Py_ssize_t, colour=cython.Py_ssize_t, rank=cython.Py_ssize_t,
                   side=cython.Py_ssize_t, ps=cython.Py_ssize_t, r=cython.Py_ssize_t, k=cython.Py_ssize_t,
                   key=cython.ulonglong, right=cython.ulonglong)
    def castle_key(self) -> int:
        """Hash part of the castling rights: an unmoved castling king and an unmoved partner."""
        t = self.t
        b = self._b
        F = t.files
        key = 0
        if t.fischer:
            return self._fischer_castle_key()
        for colour, rank, side, ps, right in t.castle_rights:
            if b[ps] & 3 == 2 | colour:
                for r in self.castling_pieces(colour) if t.free_castlers else self.royals[colour]:
                    k = b[r]
                    if k & 2 and r // F == rank and t.castle[k] and (ps % F - r % F) * side > 0:
                        key ^= right
                        break
        return key

    def _fischer_castle_key(self) -> int:
        """:meth:`castle_key` where the partners are found on the board (Fischer castling)."""
        t = self.t
        b = self._b
        F = t.files
        rights = set()
        for colour in (WHITE, BLACK):
            for r in self.castling_pieces(colour):
                if b[r] & 2 and t.castle[b[r]]:
                    for side in (-1, 1):
                        ps = self.castle_partner(r, side)
                        if ps is not None and b[ps] & 3 == 2 | colour:
                            rights.add((colour, r // F, side))
        key = 0
        for right in rights:
            key ^= t.zob_castle[right]
        return key

    def castling_pieces(self, colour: int) -> list[int]:
        """The squares of ``colour``'s pieces of castling types that may castle: the royal ones and,
        where a castling type is not royal, those on the castling ranks."""
        t = self.t
        b = self._b
        out = [r for r in self.royals[colour] if t.castle[b[r] | 2]]
        if t.free_castlers:
            F = t.files
            out += [sq for c, rank in t.castle_ranks if c == colour for sq in range(rank * F, rank * F + F)
                    if b[sq] and b[sq] & 1 == colour and not t.royal[b[sq]] and t.castle[b[sq] | 2]]
        return out

    def castle_partner(self, k: int, side: int) -> int | None:
        """The square of the partner of the castling king on ``k`` on ``side`` (-1 towards the
        first file, 1 towards the last), moved or not, or None: the partner square of the
        start array, or with Fischer castling the outermost piece of the partner's type."""
        t = self.t
        F = t.files
        key = (self.board[k] & 1, k // F, side)
        fischer = t.fischer.get(key)
        if fischer is None:
            ps = t.partner_of.get(key)
            return ps if ps is not None and (ps % F - k % F) * side > 0 else None
        partner = fischer[0]
        edge = k // F * F + (F - 1 if side > 0 else 0)
        for sq in range(edge, k, -side):
            if self.board[sq] | 2 == partner | 2:
                return sq
        return None

    @cython.locals(key=cython.ulonglong)
    def ep_key(self, squares: tuple, capturer: int) -> int:
        """Hash part of en-passant squares: only squares a piece of ``capturer`` could take on count
        (so that the position after a double step repeats as in FIDE rules)."""
        t = self.t
        b = self._b
        key = 0
        for s in squares:
            for src, codes in t.ep_sources[capturer][s]:
                if b[src] in codes:
                    key ^= t.zob_ep[s]
                    break
        return key

    def code_at(self, sq: int) -> int:
        """The code of the piece on square ``sq`` (0: none)."""
        return self._b[sq]

    def copy(self) -> Position:
        """An independent copy, its history included (:meth:`unmake` works on it)."""
        p = cython.declare(Position, Position.__new__(Position))
        p.variant, p.t, p._zob = self.variant, self.t, self._zob
        p.board = p._b = self.board[:]
        p._stack, p._checks_saved = self._stack[:], self._checks_saved[:]
        p.turn, p.ep, p.halfmove, p.fullmove, p.hash = self.turn, self.ep, self.halfmove, self.fullmove, self.hash
        p.royals, p.rights, p.hands, p.checks = self.royals, self.rights, self.hands, self.checks
        return p

    # -- attacks -----------------------------------------------------------------
    @cython.locals(src=cython.Py_ssize_t, s=cython.Py_ssize_t, x=cython.Py_ssize_t, near=tuple, rays=tuple,
                   lame=tuple, ray=tuple, blockers=tuple, codes=frozenset)
    def attacked(self, sq: int, by: int) -> bool:
        """Is ``sq`` attacked by a piece of colour ``by``?"""
        b = self._b
        t = self.t
        near, rays, lame, hops = t.att[by][sq]
        for src, codes in near:
            if b[src] in codes:
                return True
        for ray in rays:
            for s, codes in ray:
                p = b[s]
                if p:
                    if p in codes:
                        return True
                    break
        for src, blockers, codes in lame:
            if b[src] in codes:
                for x in blockers:
                    if b[x]:
                        break
                else:
                    return True
        if hops and self._hopped(sq, hops):
            return True
        return t.path_attacks and self._path_attack(sq, by)

    def _hopped(self, sq: int, hops: tuple) -> bool:
        """Does a hopper capture on ``sq`` along one of the hopper lines ``hops``?"""
        b = self._b
        for ray, specs in hops:
            hurdle = -1
            for i, s in enumerate(ray):
                p = b[s]
                if p:
                    if hurdle < 0:
                        hurdle = i
                        continue
                    for codes, rng, after in specs:
                        if p in codes and (not after or hurdle < after) and (not rng or i - hurdle <= rng):
                            return True
                    break
        return False

    def _path_attack(self, sq: int, by: int) -> bool:
        """Does a multi-leg move of a piece of ``by`` capture on ``sq`` (or check it, ``k``)?"""
        b = self._b
        t = self.t
        codes, reach, moves, F = t.path_codes[by], t.path_reach, t.moves, t.files
        for s, p in enumerate(b):
            if p and codes[p]:
                bound = reach[p]
                if bound and max(abs(s % F - sq % F), abs(s // F - sq // F)) > bound:
                    continue
                found: list = []
                more = moves[p][s][3]
                for legs in more[2] if more else ():
                    self._legs(p, s, legs, 0, s, 0, (), found, False, True)
                if any(sq in m[4] or (m[1] == sq and b[sq]) for m in found):
                    return True
        return False

    def in_check(self) -> bool:
        """Is any royal piece of the side to move attacked (one whose attack matters, :meth:`guarded`)?"""
        return self.checked(self.turn)

    def checked(self, colour: int) -> bool:
        """Is any royal piece of ``colour`` attacked (one whose attack matters, :meth:`guarded`; with
        atomic captures not one beside a royal piece of the other side)?"""
        them = colour ^ 1
        for r in self.guarded(colour):
            if self.attacked(r, them) and not (self.t.blast and self._touches(r, them)):
                return True
        return False

    def _touches(self, sq: int, them: int) -> bool:
        """Atomic captures: does a royal piece of ``them`` stand next to ``sq``?  A royal piece there
        is in no check: taking it would blow up the taker's own."""
        zone = self.t.blast_zone[sq]
        for r in self.royals[them]:
            if r in zone:
                return True
        return False

    def guarded(self, colour: int) -> tuple:
        """The squares of ``colour``'s royal pieces that may not be left attacked: all of them, but
        with ``succession`` none while the side has two or more royal pieces and successors."""
        royals = self.royals[colour]
        return () if self.t.succession and len(royals) > 1 else royals

    def reach_marks(self, sq: int, marks: Sequence[int]) -> tuple[int, int]:
        """For the piece on ``sq``, the squares its plain leaps and slides reach as the board stands
        (empty, or holding a piece of the other side; not hops, multi-leg or move-only and capture-only
        moves): how many, and the sum of ``marks[square]`` over them (the evaluation's mobility)."""
        b = self._b
        p = b[sq]
        mine = p & 1
        entry = self.t.moves[p][sq]
        leaps, slides = entry[0], entry[1]
        n = total = 0
        for to, _moves in leaps:
            q = b[to]
            if not q or q & 1 != mine:
                n += 1
                total += marks[to]
        for ray in slides:
            for to, moves in ray:  # no moves: a square of a zone the piece passes but may not enter
                q = b[to]
                if moves and (not q or q & 1 != mine):
                    n += 1
                    total += marks[to]
                if q:
                    break
        return n, total

    @cython.locals(s=cython.Py_ssize_t, shield=cython.Py_ssize_t, p=cython.Py_ssize_t,
                   rays=tuple, lame=tuple, ray=tuple, codes=frozenset)
    def _pinned(self, us: int) -> set:
        """Own pieces that may shield a royal piece (a superset of the pinned ones)."""
        b = self._b
        t = self.t
        them = us ^ 1
        out = set()
        for r in self.royals[us]:
            _near, rays, lame, _hops = t.att[them][r]
            for ray in rays:
                shield = -1
                for s, codes in ray:
                    p = b[s]
                    if p:
                        if shield >= 0:
                            if p in codes:
                                out.add(shield)
                            break
                        if (p & 1) != us:
                            break
                        shield = s
            for src, blockers, codes in lame:
                if b[src] in codes:
                    for x in blockers:
                        if b[x]:
                            out.add(x)
        return out

    # -- the move walker -----------------------------------------------------------
    def pseudo_moves(self) -> list[Move]:
        """Moves that obey the pieces' rules, ignoring check and castling."""
        return self._walk(None)

    def captures(self, quiet_from: list | None = None) -> list[Move]:
        """Pseudo-legal captures (en passant and promotions included), no transformations.

        ``quiet_from[code][square]``, where true, adds the quiet moves of that
        piece too (the search's quiescence uses it for moves that gain by morphing)."""
        return self._walk(quiet_from or self.t.no_quiet)

    @cython.locals(out=list, us=cython.Py_ssize_t, sq=cython.Py_ssize_t, p=cython.Py_ssize_t,
                   q=cython.Py_ssize_t, to=cython.Py_ssize_t, x=cython.Py_ssize_t, start=cython.Py_ssize_t,
                   leaps=tuple, slides=tuple, specials=tuple, ray=tuple, blockers=tuple)
    def _walk(self, quiet_from: list | None) -> list[Move]:
        """The one walk over the compiled tables: every pseudo-legal move, or only captures plus the
        quiet moves of the pieces ``quiet_from`` names (None: all quiet moves and transformations)."""
        b = self._b
        us = self.turn
        t = self.t
        table, transforms = t.moves, t.transforms
        ep = self.ep
        out: list = []
        for sq in range(t.size):
            p = b[sq]
            if not p or (p & 1) != us:
                continue
            quiet = quiet_from is None or quiet_from[p][sq]
            start = len(out)
            leaps, slides, specials, more, dup = table[p][sq]
            for to, ms in leaps:
                q = b[to]
                if q:
                    if (q & 1) != us:
                        out += ms
                elif quiet:
                    out += ms
            for ray in slides:
                for to, ms in ray:
                    q = b[to]
                    if q:
                        if (q & 1) != us:
                            out += ms
                        break
                    if quiet:
                        out += ms
            for to, blockers, can_move, can_capture, can_ep, ms in specials:
                if blockers:
                    for x in blockers:
                        if b[x]:
                            break
                    else:
                        blockers = ()
                    if blockers:
                        continue
                q = b[to]
                if not q:
                    if can_ep and ep and to in ep[0]:
                        out += t.moves_to(p, sq, to, EN_PASSANT, (ep[1],))
                    elif can_move and quiet:
                        out += ms
                elif can_capture and (q & 1) != us:
                    out += ms
            if more:
                self._more(p, sq, more, quiet, out)
            if dup:
                out[start:] = dict.fromkeys(out[start:])
            if quiet_from is None:
                out += transforms[p][sq]
        if t.capture_only:
            only = t.capture_only
            out = [m for m in out if m not in only or b[m[1]]]
        if t.from_hand:
            hand, needs = self.hands[us], t.from_hand
            out = [m for m in out if m not in needs or hand[m[2] >> 2] or b[m[0]] >> 2 == m[2] >> 2]
        if quiet_from is None and t.drops_allowed:
            for ti, n in enumerate(self.hands[us]):
                if n:
                    if t.no_doubled and ti * 4 == t.no_doubled:
                        self._undoubled_drops(ti * 4 + us, out)
                        continue
                    for to, ms in t.drop_moves(ti * 4 + us):
                        if not b[to]:
                            out += ms
        if t.walk_rules:
            out = self._walk_rules(out, quiet_from is None)
        if t.walling:
            out = self._walled(out, quiet_from is None)
        return out

    def _walled(self, moves: list, quiet: bool) -> list:
        """Walls (Variant.walling): no move takes a wall; each move also puts a wall on one of the
        squares :meth:`_wall_squares` gives (with wall_or_move: each move as it is, and, with ``quiet``
        and not in check, as Fairy-Stockfish has it, a wall put by the lowest piece of the side to move
        staying where it is)."""
        b = self._b
        moves = [m for m in moves if b[m[1]] != WALL and not (m[3] is LEGS and any(b[x] == WALL for x in m[4]))]
        if self.t.wall_or_move:
            if not quiet or self.in_check():
                return moves
            sq = next((s for s, p in enumerate(self.board) if p and p & 1 == self.turn and p != WALL), -1)
            bases = [Move(sq, sq, b[sq], TRANSFORM)] if sq >= 0 else []
        else:
            moves, bases = [], moves
        return moves + self._with_walls(bases)

    def _with_walls(self, bases: list) -> list:
        """The moves ``bases``, each with every wall it may put (Kind.WALL)."""
        lifted = self.board.index(WALL) if self.t.walling == "duck" and WALL in self.board else -1
        out: list = []
        for m in bases:
            out += [Move(m[0], m[1], m[2], WALLED, (m, w, lifted)) for w in self._wall_squares(m)]
        return out

    def _wall_squares(self, m: Move) -> list[int]:
        """The squares where move ``m`` may put its wall: empty after it (and before, but for the
        squares it leaves, where a capture blasts), and for "arrow" reached by the moved piece's
        leaps, slides and rides from its target, for "past" its origin, for "edge" on the board's
        edge or beside a wall that stood before it."""
        t = self.t
        rule, F, R = t.walling, t.files, t.ranks
        near = {s for s, p in enumerate(self.board) if p == WALL} if rule == "edge" else set()
        # a blast empties squares the wall may not take (Fairy-Stockfish picks them before the move)
        filled = {s for s, p in enumerate(self.board) if p} if t.blast else set()
        filled -= {m[0], m[4][0]} if m[3] is EN_PASSANT or m[3] is CASTLE else {m[0]}
        self.make(m)
        b = self._b
        if rule == "arrow":
            out = self._quiet_reach(b[m[1]], m[1])
        elif rule == "past":
            out = [m[0]] if not b[m[0]] else []
        else:
            out = [s for s in range(t.size) if not b[s]]
        if filled:
            out = [s for s in out if s not in filled]
        if rule == "edge":
            out = [s for s in out if s % F in (0, F - 1) or s // F in (0, R - 1)
                   or any(w in near for w in (s - F, s + F)) or (s % F and s - 1 in near)
                   or (s % F < F - 1 and s + 1 in near)]
        self.unmake()
        return out

    def _quiet_reach(self, p: int, sq: int) -> list[int]:
        """The empty squares the piece ``p`` on ``sq`` could move to by its leaps, slides, lame
        leaps and rides (not its hops or multi-leg moves)."""
        b = self._b
        leaps, slides, specials, more, _dup = self.t.moves[p][sq]
        out = [to for to, ms in leaps if ms and not b[to]]
        lines = list(slides) + [ray for ray, can_move, _c in (more[0] if more else ()) if can_move]
        for ray in lines:
            for to, ms in ray:
                if b[to]:
                    break
                if ms:
                    out.append(to)
        out += [to for to, blockers, can_move, _c, _e, _ms in specials
                if can_move and not b[to] and not any(b[x] for x in blockers)]
        return list(dict.fromkeys(out))

    def _undoubled_drops(self, c: int, out: list) -> None:
        """The drops of code ``c`` under dropNoDoubled: none on a file where the side has
        :attr:`Variant.no_doubled_count` pieces of the code already."""
        b = self.board
        F = self.t.files
        most = self.variant.no_doubled_count
        counts = [0] * F
        for sq, p in enumerate(b):
            if p | 2 == c | 2:
                counts[sq % F] += 1
        for to, ms in self.t.drop_moves(c):
            if not b[to] and counts[to % F] < most:
                out += ms

    def _walk_rules(self, moves: list, quiet: bool) -> list:
        """The walk's rare rules: castling of kings that are not royal (with ``quiet``), and the
        moves that iron pieces, the counter-strike rule and the protected rule leave."""
        t = self.t
        if quiet and t.free_castlers:
            for k in self.castling_pieces(self.turn):
                p = self.board[k]
                if p & 2 and not t.royal[p]:
                    self._castlings(k, p, moves, None)
        if not t.capture_rules:
            return moves
        moves = [m for m in moves if not self._takes(m, t.iron)]
        if t.mutual:
            moves = [m for m in moves if not self._mutual(m)]
        if self._struck():
            moves = [m for m in moves if not self._takes(m, t.counter)]
        return [m for m in moves if not t.protected[self.board[m[0]]] or not self._trades_protected(m)]

    def _takes(self, m: Move, flags: list) -> bool:
        """Does move ``m`` capture a piece whose code ``flags`` marks?"""
        b = self._b
        kind = m[3]
        if kind is LEGS:
            return any(flags[b[x]] for x in m[4]) or (m[1] != m[0] and flags[b[m[1]]])
        if kind is EN_PASSANT:
            return flags[b[m[4][0]]]
        return (kind is not CASTLE and kind is not TRANSFORM and kind is not DROP and kind is not UNLOAD
                and flags[b[m[1]]])

    def _mutual(self, m: Move) -> bool:
        """Fairy-Stockfish's mutuallyImmuneTypes: does ``m`` take, on its target, a piece of its own
        type that is of one of those types?"""
        b = self._b
        p, q = b[m[0]], b[m[1]]
        t = self.t
        return bool(q) and m[3] is not CASTLE and m[0] != m[1] and t.mutual[p] and t.type_of[q] == t.type_of[p]

    def _trades_protected(self, m: Move) -> bool:
        """The protected rule: does a piece of a protected type take one of a protected type and
        stand where the opponent could take it back (pins and checks aside)?"""
        if not self._takes(m, self.t.protected):
            return False
        self.make(m)
        exposed = self.attacked(m[1], self.turn)
        self.unmake()
        return exposed

    def _struck(self) -> bool:
        """The counter-strike rule: did the last move take a counterStrike piece with a piece of
        another type (then no counterStrike piece may be taken now)?"""
        entry = self._stack[-1] if self._stack else None
        if entry is None or entry.move is None:
            return False
        kind = entry.move[3]
        if kind is CASTLE or kind is UNLOAD:
            return False
        taken = (entry.taken[0],) + entry.taken[1] if kind is LEGS else (entry.taken,)
        return self._strikes(entry.piece, taken)

    def _strikes(self, piece: int, taken: tuple) -> bool:
        """Does ``piece``, taking the codes ``taken``, start a counter-strike ban?"""
        counter = self.t.counter
        return not counter[piece] and any(counter[c] for c in taken)

    def _more(self, p: int, sq: int, more: tuple, quiet: bool, out: list) -> None:
        """The moves of modal riders, hoppers and multi-leg paths of piece ``p`` on ``sq``."""
        b = self._b
        us = p & 1
        rides, hops, paths = more
        for ray, can_move, can_capture in rides:
            for to, ms in ray:
                q = b[to]
                if q:
                    if can_capture and (q & 1) != us:
                        out += ms
                    break
                if can_move and quiet:
                    out += ms
        for hop in hops:
            self._hop(hop, us, quiet, out)
        for legs in paths:
            self._legs(p, sq, legs, 0, sq, 0, (), out, quiet, False)

    def _hop(self, hop: tuple, us: int, quiet: bool, out: list) -> None:
        """The moves of one hopper line: up to the hurdle, then beyond it (see the tables)."""
        b = self._b
        ray, rng, after, can_move, can_capture = hop
        n = len(ray)
        limit = min(n, rng) if rng else n
        i = 0
        while i < limit and not b[ray[i][0]]:
            i += 1
        if i >= limit:
            return
        for to, ms in ray[i + 1:min(n, i + 1 + after) if after else n]:
            q = b[to]
            if q:
                if can_capture and (q & 1) != us:
                    out += ms
                return
            if can_move and quiet:
                out += ms

    def _legs(self, p: int, origin: int, legs: tuple, i: int, sq: int, d: int, taken: tuple, out: list,
              quiet: bool, attack: bool) -> None:
        """Follow leg ``i`` of a multi-leg move of piece ``p`` (from ``origin``) starting on ``sq``
        after a leg in direction ``d``; ``taken``: squares captured on the way.  The origin
        counts as empty.  ``attack``: check-only (``k``) ends count as captures."""
        b = self._b
        t = self.t
        us = p & 1
        leg = legs[i]
        last = i == len(legs) - 1
        modes = leg.modes
        ends = "" if last else leg.ends  # a crooked or circular ride may also end here
        for rel in leg.dirs:
            dd = rel if i == 0 else (rel + d) & 7
            for s, mid in t.leg_ray(leg, dd, sq)[leg.skip:]:
                if mid >= 0 and (mid != origin and b[mid] != 0) != leg.hurdle:
                    break
                q = 0 if s == origin else b[s]
                if ends:
                    self._leg_end(p, origin, sq, s, q, ends, taken, out, quiet, attack)
                if last:
                    self._leg_end(p, origin, sq, s, q, modes, taken, out, quiet, attack)
                elif not q:
                    if "m" in modes:
                        self._legs(p, origin, legs, i + 1, s, dd, taken, out, quiet, attack)
                else:
                    if "p" in modes or ("E" if (q & 1) != us else "F") in modes:  # E/F: enemy/friend hurdles only
                        self._legs(p, origin, legs, i + 1, s, dd, taken, out, quiet, attack)
                    if s not in taken and ("c" in modes if (q & 1) != us else "d" in modes):
                        self._legs(p, origin, legs, i + 1, s, dd, taken + (s,), out, quiet, attack)
                if q:
                    break

    def _leg_end(self, p: int, origin: int, start: int, s: int, q: int, modes: str, taken: tuple, out: list,
                 quiet: bool, attack: bool) -> None:
        """Add the move of a multi-leg path ending on ``s`` (holding ``q``), if its last leg (from
        ``start``) allows it; with ``u`` the piece taken there is unloaded on ``start``."""
        us = p & 1
        if not q:
            ok = "m" in modes and (quiet or bool(taken))
        elif s in taken:
            ok = False
        else:
            ok = ("c" in modes or (attack and "k" in modes)) if (q & 1) != us else "d" in modes
        if not ok:
            return
        if not q or "u" not in modes:
            out += self.t.leg_moves(p, origin, s, taken)
        elif quiet or attack:  # an unload takes nothing off the board: no capture for captures()
            out += self.t.unload_moves(p, origin, s, start)

    def legal_moves(self) -> list[Move]:
        """All legal moves of the side to move: none once the game is decided whatever is played
        (:meth:`decided`); where no move may give check, none that does."""
        t = self.t
        if t.ends_early and self.decided():
            return []
        legal = self._legal()
        if t.no_checks:
            legal = [m for m in legal if not self.gives_check(m)]
        if self.variant.must_drop is not None:
            legal = self._drops_first(legal)
        if self.variant.must_capture:
            return self._captures_first(legal)
        return legal

    def _drops_first(self, legal: list) -> list:
        """The must-drop rule (:attr:`Variant.must_drop`), while a piece of its type is in hand: only
        drops of that type, and the other moves only where no such drop is legal."""
        ti = self.variant.must_drop
        hand = self.hands[self.turn]
        if not (hand[ti] if ti else any(hand)):
            return legal
        drops = [m for m in legal if m[3] is DROP and (not ti or m[2] >> 2 == ti)]
        return drops or [m for m in legal if m[3] is not DROP]

    def _captures_first(self, legal: list) -> list:
        """The must-capture rule: the captures among ``legal`` if there are any, else all of them."""
        captures = [m for m in legal if self.capture_square(m) is not None]
        return captures or legal

    def gives_check(self, m: Move) -> bool:
        """Does move ``m`` attack a royal piece of the opponent?"""
        self.make(m)
        check = self.in_check()
        self.unmake()
        return check

    def _legal(self) -> list[Move]:
        """The pseudo-legal moves that leave no royal piece attacked, castling added."""
        moves = self._walk(None)
        royals = self.royals[self.turn]
        if not royals:
            return moves
        if self.t.succession and len(royals) > 1:
            return self._unguarded_moves(moves, royals)
        if self.t.blast:
            return self._blast_legal(moves, royals)
        risky, onto, castle = self._legality(royals)
        if risky is None:
            legal = [m for m in moves if self.is_safe(m)]
        else:
            legal = [m for m in moves if self._unexposing(m, risky, onto) or self.is_safe(m)]
        if castle:
            for r in royals:
                p = self.board[r]
                if self.t.castle[p]:
                    self._castlings(r, p, legal, self.is_safe)
        return legal

    def legal_test(self) -> Callable[[Move], bool] | None:
        """A test of this position's pseudo-legal moves (castling aside): is the move legal?  None when
        every one is.  Cheap for most moves: only pieces that may shield a royal piece, the royal pieces
        themselves and en passant are played out (the engine's staged move generation uses it)."""
        royals = self.royals[self.turn]
        v = self.variant
        if self.t.no_checks or v.must_capture or v.must_drop is not None:  # rules that look at more than the move
            return self.legal_moves().__contains__
        if not royals or (self.t.succession and len(royals) > 1):
            return None
        if self.t.blast:
            return self._blast_safe
        risky, onto, _castle = self._legality(royals)
        safe = self.is_safe
        if risky is None:
            return safe
        return lambda m: self._unexposing(m, risky, onto) or safe(m)

    def _legality(self, royals: tuple) -> tuple[set | None, set, bool]:
        """While ``royals`` are guarded, the pin shortcut: the squares whose moves must be played out
        to be judged (None: every move must), the squares a move onto must be played out (a hopper's
        lines through a royal piece, where the mover may become its screen), and whether castling may
        be added."""
        them = self.turn ^ 1
        t = self.t
        if t.check_all:
            return None, set(), False
        for r in royals:
            if self.attacked(r, them):
                return None, set(), False
        # a multi-leg piece may check through the mover, and a lifted duck open a line
        if t.path_attacks or t.walling == "duck":
            return None, set(), True
        risky = self._pinned(self.turn)
        risky.update(royals)
        onto: set = set()
        if t.complex_attacks:  # a hopper checks over a screen: leaving or entering its line may change that
            for r in royals:
                for line, _specs in t.att[them][r][3]:
                    onto.update(line)
            risky.update(onto)
        return risky, onto, True

    def _unexposing(self, m: Move, risky: set, onto: set) -> bool:
        """Is move ``m`` legal without playing it out, by the pin shortcut (:meth:`_legality`): not from
        a ``risky`` square, not onto an ``onto`` square, not en passant?"""
        mv = cython.cast(tuple, m)
        return mv[0] not in risky and mv[3] is not EN_PASSANT and (not onto or mv[1] not in onto)

    def _blast_legal(self, moves: list, royals: tuple) -> list:
        """Legal moves with atomic captures: those :meth:`_blast_safe` keeps, and castling while no
        royal piece is in check."""
        legal = [m for m in moves if self._blast_safe(m)]
        if self.checked(self.turn):
            return legal
        for r in royals:
            p = self.board[r]
            if self.t.castle[p]:
                self._castlings(r, p, legal, self._blast_safe)
        return legal

    def _blast_safe(self, m: Move) -> bool:
        """With atomic captures, as Fairy-Stockfish judges a move: illegal where its blast removes a
        royal piece of the mover, legal where it removes one of the other side's, else legal where
        no royal piece of the mover is left attacked (one beside a royal piece of the other side is
        in no check)."""
        us, them = self.turn, self.turn ^ 1
        mine, theirs = len(self.royals[us]), len(self.royals[them])
        self.make(m)
        if len(self.royals[us]) < mine:
            ok = False
        elif len(self.royals[them]) < theirs:
            ok = True
        else:
            ok = not self.checked(us)
        self.unmake()
        return ok

    def quiets(self, captures: list | None = None) -> list[Move]:
        """The legal moves that :meth:`captures` does not list (quiet moves, castling, transformations,
        drops); pass the captures already walked to save walking them again."""
        listed = set(self.captures() if captures is None else captures)
        return [m for m in self.legal_moves() if m not in listed]

    def is_pseudo_legal(self, m: Move) -> bool:
        """Could ``m`` be a move of this position (a piece of the side to move on its origin, not
        landing on its own piece)?  A cheap test for a move remembered from another position (the
        engine's hash and killer moves); :meth:`legal_moves` decides."""
        frm, to, _new, kind, _extra = cython.cast(tuple, m)  # a Move is a tuple: read as one
        if kind is DROP:
            return not self.board[to]
        p = self.board[frm]
        if not p or (p & 1) != self.turn:
            return False
        q = self.board[to]
        return not q or (q & 1) != self.turn or kind is CASTLE or to == frm

    def _unguarded_moves(self, moves: list, royals: tuple) -> list:
        """Legal moves while checks do not matter (a royal piece and a successor, ``succession``):
        every move, and castling, which still may not start, pass or end on an attacked square."""
        them = self.turn ^ 1
        for r in royals:
            p = self.board[r]
            if self.t.castle[p] and not self.attacked(r, them):
                self._castlings(r, p, moves, lambda m: self._lands_safe(m, them))
        return moves

    def _lands_safe(self, m: Move, them: int) -> bool:
        """Is the target of move ``m`` unattacked by ``them`` after the move?"""
        self.make(m)
        ok = not self.attacked(m[1], them)
        self.unmake()
        return ok

    def is_safe(self, m: Move) -> bool:
        """Does the (pseudo-legal) move leave every royal piece of the mover unattacked
        (those whose attack matters, :meth:`guarded`)?"""
        us = self.turn
        self.make(m)
        ok = True
        for r in self.guarded(us):
            if self.attacked(r, us ^ 1):
                ok = False
                break
        self.unmake()
        return ok

    def _castlings(self, k: int, king: int, out: list, safe: Callable[[Move], bool] | None) -> None:
        """Add the castling moves of the king ``king`` on ``k``; ``safe`` judges the position after
        each, None: a king that is not royal castles with no regard to attacks."""
        b = self._b
        t = self.t
        F = t.files
        us = king & 1
        for steps, side in t.castle[king]:
            fischer = t.fischer.get((us, k // F, side)) if t.fischer else None
            if fischer is not None:
                partner, dest = self._fischer_squares(k, side, fischer[1] + side * steps)
            else:
                partner = t.partner_of.get((us, k // F, side), -1)
                dest = k + side * steps
                if partner >= 0 and ((partner % F - k % F) * side <= steps or self._occupied(k + side, partner, side)):
                    continue
            if partner < 0:
                continue
            p = b[partner]
            if (p & 1) != us or not p & 2:
                continue
            if safe is not None and not self._passage_safe(k, king, dest):
                continue
            m = Move(k, dest, t.morph_to[king][dest], CASTLE, (partner, dest - side, p & ~2))
            if safe is not None and t.walling and not t.wall_or_move:  # judged with each of its walls
                out += [w for w in self._with_walls([m]) if safe(w)]
            elif safe is None or safe(m):
                out.append(m)

    @cython.locals(s=cython.Py_ssize_t)
    def _occupied(self, start: int, stop: int, step: int) -> bool:
        """Does a piece stand on a square of ``range(start, stop, step)``?"""
        b = self._b
        for s in range(start, stop, step):
            if b[s]:
                return True
        return False

    def _fischer_squares(self, k: int, side: int, file: int) -> tuple[int, int]:
        """Fischer castling of the king on ``k`` towards ``side``, landing on ``file`` (where it lands
        from the start array): (partner square, king's landing square) where every square between
        the four is empty but for king and partner, else (-1, 0)."""
        b = self._b
        F = self.t.files
        partner = self.castle_partner(k, side)
        if partner is None or not (0 <= file < F and 0 <= file - side < F):
            return -1, 0
        dest = k // F * F + file
        ends = (k, partner, dest, dest - side)
        if any(b[s] and s != k and s != partner for s in range(min(ends), max(ends) + 1)):
            return -1, 0
        return partner, dest

    def _passage_safe(self, k: int, king: int, dest: int) -> bool:
        """Is every square the castling king passes (not the start, not the destination) unattacked?"""
        b = self._b
        b[k] = 0
        step = 1 if dest > k else -1
        try:
            for s in range(k + step, dest, step):
                old = b[s]  # the partner, when the king passes its square (Fischer castling)
                b[s] = king
                hit = self.attacked(s, (king & 1) ^ 1) and not (self.t.blast and self._touches(s, (king & 1) ^ 1))
                b[s] = old
                if hit:
                    return False
            return True
        finally:
            b[k] = king

    def capture_square(self, m: Move) -> int | None:
        """The square of the piece the move captures, or None."""
        frm, to, _new, kind, extra = cython.cast(tuple, m)  # a Move is a tuple: read as one
        if kind is WALLED:
            return self.capture_square(extra[0])
        if kind is EN_PASSANT:
            return extra[0]
        if kind is LEGS:
            if to != frm and self.board[to]:
                return to
            return extra[0] if extra else None
        if kind is TRANSFORM or kind is CASTLE or kind is UNLOAD or not self.board[to]:
            return None
        return to

    def captured(self, m: Move) -> int:
        """The code of the piece the move captures (0 for none)."""
        sq = self.capture_square(m)
        return 0 if sq is None else self.board[sq]

    # -- make / unmake ---------------------------------------------------------
    @cython.locals(frm=cython.Py_ssize_t, to=cython.Py_ssize_t, new=cython.Py_ssize_t,
                   piece=cython.Py_ssize_t, cap=cython.Py_ssize_t, us=cython.Py_ssize_t, S=cython.Py_ssize_t,
                   h=cython.ulonglong, saved=Undo)
    def make(self, m: Move) -> None:
        """Play a move (legal or at least pseudo-legal) on this position."""
        frm, to, new, kind, extra = cython.cast(tuple, m)  # a Move is a tuple: read as one
        if kind is WALLED:
            self._make_wall(m)
            return
        b = self._b
        t = self.t
        z = self._zob
        S = t.size
        piece = b[frm]
        cap = b[to]
        us = self.turn
        ep = self.ep
        saved = self._saved(m, piece, cap)
        h = self.hash ^ t.zob_side ^ z[piece * S + frm] ^ z[new * S + to]
        if ep:
            h ^= ep[2]
            self.ep = None
        if kind is NORMAL:
            b[frm] = 0
            b[to] = new
            if cap:
                h ^= z[cap * S + to]
                self.halfmove = 0
            elif t.resets[piece] or (new >> 2) != (piece >> 2):
                self.halfmove = 0
            else:
                self.halfmove += 1
        elif kind is TRANSFORM:
            cap = 0
            b[frm] = new
            self.halfmove += 1
        elif kind is LEGS:
            h, saved.taken = self._make_legs(m, piece, h)
            cap = saved.taken[0]
        elif kind is UNLOAD:
            h = self._make_unload(m, piece, cap, h)
            cap = 0
        elif kind is CASTLE:  # both leave first: either may land where the other stood
            pfrom, pto, pnew = extra
            h ^= z[b[pfrom] * S + pfrom] ^ z[pnew * S + pto]
            b[frm] = 0
            b[pfrom] = 0
            b[pto] = pnew
            b[to] = new
            cap = 0
            self.halfmove = 0 if t.resets[piece] or (new >> 2) != (piece >> 2) else self.halfmove + 1
        else:
            b[frm] = 0
            b[to] = new
            if cap:
                h ^= z[cap * S + to]
            if kind is DOUBLE:
                eph = self.ep_key(extra, us ^ 1)
                self.ep = (extra, to, eph)
                h ^= eph
            elif kind is EN_PASSANT:
                victim = extra[0]
                cap = saved.taken = b[victim]  # the victim stands beside the target
                b[victim] = 0
                h ^= z[cap * S + victim]
            elif kind is DROP:
                h = self._from_hand(h, new, us)
            if cap or t.resets[piece] or (new >> 2) != (piece >> 2):
                self.halfmove = 0
            else:
                self.halfmove += 1
        royal = t.royal
        if (royal[piece] or royal[new] or (cap and royal[cap])) and kind is not UNLOAD:
            self._move_royals(frm, to, piece, new, cap, us)
        rights = self.rights
        if rights and (royal[piece] or t.castle_square[frm] or t.castle_square[to] or kind is LEGS):
            self.rights = self.castle_key()
            h ^= rights ^ self.rights
        if t.special_make:
            if m in t.from_hand and piece >> 2 != new >> 2:  # not the same move of a piece already of the type
                h = self._from_hand(h, new, us)
            victims = saved.taken[1] if kind is LEGS else ()
            if t.to_hand and (cap or victims):
                h = self._to_hand(h, (cap,) + victims)
            if t.blast:
                saved.blasted = ()
                if cap or victims:
                    h = self._blast(h, to, saved)
            for x in victims:
                if royal[x]:
                    self._rescan_royals()
                    break
            if t.counter_strike and self._struck() != self._strikes(piece, (cap,) + victims):
                h ^= t.zob_strike  # a ban ends or begins
        if us == BLACK:
            self.fullmove += 1
        self.turn = us ^ 1
        self.hash = h
        self._stack.append(saved)
        if t.check_counting:
            self._count_check(us)

    def _make_wall(self, m: Move) -> None:
        """Make a move that puts a wall (Kind.WALL): its move, then the wall, lifted first from
        where it stood for a duck."""
        base, wall, lifted = m[4]
        self.make(base)
        self._stack[-1].move = m
        b = self._b
        key = self._zob
        S = self.t.size
        if lifted >= 0:
            b[lifted] = 0
            self.hash ^= key[WALL * S + lifted]
        b[wall] = WALL
        self.hash ^= key[WALL * S + wall]

    def _unmake_wall(self, m: Move) -> Move:
        """Take back the wall of a move of Kind.WALL; returns its move, to be taken back next."""
        base, wall, lifted = m[4]
        b = self._b
        b[wall] = 0
        if lifted >= 0:
            b[lifted] = WALL
        return base

    def _blast(self, h: int, to: int, saved: Undo) -> int:
        """An atomic capture on ``to``: remove the capturer and the pieces around (as
        :attr:`Variant.blast` says), kept in ``saved`` for unmake; royal squares, castling rights and
        hands follow.  Returns the hash."""
        t = self.t
        b = self._b
        z, S = self._zob, t.size
        gone = []
        for s in t.blast_zone[to]:
            p = b[s]
            if p and not t.blast_immune[p] and (s == to or not t.blast_spared[p]):
                gone.append((s, p))
                b[s] = 0
                h ^= z[p * S + s]
        saved.blasted = tuple(gone)
        if t.to_hand:
            h = self._to_hand(h, tuple(p for _s, p in gone))
        if any(t.royal[p] for _s, p in gone):
            self._rescan_royals()
        rights = self.rights
        if rights:
            self.rights = self.castle_key()
            h ^= rights ^ self.rights
        return h

    def _to_hand(self, h: int, taken: tuple) -> int:
        """Put the captured pieces ``taken`` (codes, 0 for none) in a hand, as the variant says;
        returns the hash."""
        t = self.t
        hands = [list(hand) for hand in self.hands]
        for c in taken:
            goes = t.hand_of[c]
            if goes:
                owner, ti = goes
                n = hands[owner][ti]
                h ^= t.zob_hand(owner, ti, n) ^ t.zob_hand(owner, ti, n + 1)
                hands[owner][ti] = n + 1
        self.hands = (tuple(hands[0]), tuple(hands[1]))
        return h

    def _from_hand(self, h: int, new: int, us: int) -> int:
        """Take a piece of ``new``'s type from ``us``'s hand (a drop, or a promotion to a type
        that only the hand supplies); returns the hash."""
        t = self.t
        ti = new >> 2
        hand = list(self.hands[us])
        h ^= t.zob_hand(us, ti, hand[ti]) ^ t.zob_hand(us, ti, hand[ti] - 1)
        hand[ti] -= 1
        self.hands = (tuple(hand), self.hands[1]) if us == WHITE else (self.hands[0], tuple(hand))
        return h

    def _make_legs(self, m: Move, piece: int, h: int) -> tuple[int, tuple]:
        """Make a multi-leg move on the board; returns the hash and ``(code taken on the target,
        codes taken on the way)``."""
        frm, to, new, _kind, extra = m
        b = self._b
        z, S = self._zob, self.t.size
        b[frm] = 0
        cap = b[to]
        victims = tuple(b[x] for x in extra)
        for x, victim in zip(extra, victims):
            h ^= z[victim * S + x]
            b[x] = 0
        if cap:
            h ^= z[cap * S + to]
        b[to] = new
        if cap or victims or self.t.resets[piece] or (new >> 2) != (piece >> 2):
            self.halfmove = 0
        else:
            self.halfmove += 1
        return h, (cap, victims)

    def _make_unload(self, m: Move, piece: int, cap: int, h: int) -> int:
        """Make a move that takes ``cap`` on its target and unloads it, moved, on ``m.extra[0]``
        (royal squares and castling rights follow); returns the hash."""
        frm, to, new, _kind, extra = m
        b = self._b
        t = self.t
        at = extra[0]
        moved = cap & ~2
        b[frm] = 0
        b[to] = new
        b[at] = moved
        h ^= self._zob[cap * t.size + to] ^ self._zob[moved * t.size + at]
        self.halfmove = 0 if t.resets[piece] or (new >> 2) != (piece >> 2) else self.halfmove + 1
        royal = t.royal
        if royal[piece] or royal[new] or royal[cap]:
            self._rescan_royals()
        rights = self.rights
        if rights:  # the piece unloaded (a king, say) moved as well
            self.rights = self.castle_key()
            h ^= rights ^ self.rights
        return h

    def _rescan_royals(self) -> None:
        """Find the royal squares again (after a multi-leg move took a royal piece on its way)."""
        roy: tuple[list, list] = ([], [])
        for sq, p in enumerate(self.board):
            if p and self.t.royal[p]:
                roy[p & 1].append(sq)
        self.royals = (tuple(roy[0]), tuple(roy[1]))

    def _move_royals(self, frm: int, to: int, piece: int, new: int, cap: int, us: int) -> None:
        royal = self.t.royal
        mine = [s for s in self.royals[us] if s != to and (s != frm or not royal[piece])]  # to: a friend taken
        if royal[new]:
            mine.append(to)
        theirs = self.royals[us ^ 1]
        if cap and royal[cap]:  # a king beside a successor, or a broken position: those left standing
            b = self._b
            theirs = tuple([s for s in theirs if royal[b[s]] and b[s] & 1 != us])
        self.royals = (tuple(mine), theirs) if us == WHITE else (theirs, tuple(mine))

    @cython.locals(u=Undo)
    def _saved(self, m: Move | None, piece: int, taken) -> Undo:
        """The undo entry of move ``m`` (None: a null move) of ``piece``, which takes ``taken``,
        made from the position before it."""
        u = Undo.__new__(Undo)
        u.move, u.piece, u.taken, u.ep, u.halfmove = m, piece, taken, self.ep, self.halfmove
        u.hash, u.royals, u.rights, u.hands = self.hash, self.royals, self.rights, self.hands
        return u

    def make_null(self) -> None:
        """Pass the turn (the search's null move); :meth:`unmake` takes it back."""
        ep = self.ep
        struck = self.t.counter_strike and self._struck()
        self._stack.append(self._saved(None, 0, 0))
        self.hash ^= self.t.zob_side ^ (ep[2] if ep else 0) ^ (self.t.zob_strike if struck else 0)
        self.ep = None
        self.halfmove = 0
        if self.turn == BLACK:
            self.fullmove += 1
        self.turn ^= 1
        if self.t.check_counting:
            self._checks_saved.append(self.checks)

    @cython.locals(frm=cython.Py_ssize_t, to=cython.Py_ssize_t, undo=Undo)
    def unmake(self) -> None:
        """Take back the last move made with :meth:`make` (or :meth:`make_null`)."""
        undo = self._stack.pop()
        m = undo.move
        if m is not None and cython.cast(tuple, m)[3] is WALLED:
            m = self._unmake_wall(m)
        if m is not None:
            frm, to, _new, kind, extra = cython.cast(tuple, m)
            cap = undo.taken
            b = self._b
            if self.t.blast:
                for s, p in undo.blasted:
                    b[s] = p
            if kind is NORMAL:
                b[to] = cap
            elif kind is EN_PASSANT:
                b[to] = 0
                b[extra[0]] = cap
            elif kind is CASTLE:
                b[to] = 0
                b[extra[1]] = 0
                b[extra[0]] = extra[2] | 2
            elif kind is LEGS:
                b[to] = cap[0]
                for x, victim in zip(extra, cap[1]):
                    b[x] = victim
            elif kind is UNLOAD:
                b[extra[0]] = 0
                b[to] = cap
            else:
                b[to] = cap
            b[frm] = undo.piece
        self.turn ^= 1
        if self.turn == BLACK:
            self.fullmove -= 1
        self.ep = undo.ep
        self.halfmove = undo.halfmove
        self.hash = undo.hash
        self.royals = undo.royals
        self.rights = undo.rights
        self.hands = undo.hands
        if self.t.check_counting:
            self.checks = self._checks_saved.pop()

    # -- end of game -------------------------------------------------------------
    def material(self, colour: int) -> list[int]:
        """Squares of the pieces of ``colour`` that count against the bare-king rule."""
        t = self.t
        skip = self.variant.baring or 0
        return [sq for sq, p in enumerate(self.board)
                if p and (p & 1) == colour and not t.royal[p] and t.type_of[p] > skip]

    def history(self) -> list[int]:
        """Hashes of the positions before each move made since the position was set up, oldest first."""
        return [entry.hash for entry in self._stack]

    def repetitions(self) -> int:
        """How often the current position has occurred since the position was set up."""
        return 1 + len(self._repeats())

    def _repeats(self) -> list[int]:
        """How many plies ago the current position occurred before, nearest first."""
        h = self.hash
        back = min(self.halfmove, len(self._stack))
        return [i for i in range(2, back + 1, 2) if self._stack[-i].hash == h]

    def outcome(self, legal: list | None = None) -> Outcome | None:
        """The result if the game is over in this position, else None.

        Order: extinction, flag, check count, connection, bare king, then checkmate/stalemate,
        then the draws (fifty moves, repetition, kings only), each switchable in the variant.
        """
        v = self.variant
        us, them = self.turn, self.turn ^ 1
        if legal is None:
            legal = self.legal_moves()
        if self.t.extinction or v.army_extinction is not None:
            # both at once: the side that moved is judged first where the variant says so (Fairy-Stockfish:
            # it loses, or wins where extinction wins), else the side to move, which loses
            for loser in ((them, us) if v.extinction_mover_first else (us, them)):
                if self.extinct(loser):
                    return Outcome("extinction", loser if v.extinction_wins else loser ^ 1)
        if self.t.flags:
            flag = self._flag_outcome()
            if flag is not None:
                return flag
        if self.checks is not None and not self.checks[them]:
            return Outcome("check count", them)
        if v.connection is not None and self.connected(them):
            value = v.connection.value
            return Outcome("connection", them if value > 0 else (us if value < 0 else None))
        if self.t.succession and not self.royals[us]:  # a double capture took the last two
            return Outcome("royal capture", them)
        if v.baring is not None:
            bare = self._bare_king(us, legal)
            if bare is not None:
                return bare
        if not legal:
            if self.in_check():
                if v.drop_mate_loses and self._drop_mated():
                    return Outcome("pawn-drop mate", us)
                return Outcome("checkmate", us if v.checkmate_wins else them)
            return self._scored("stalemate", self._stalemate_value())
        if v.fifty_moves and self.halfmove >= 2 * v.fifty_moves:
            return self._scored("fifty moves", 0)
        if v.repetitions and self.repetitions() >= v.repetitions:
            value = v.repetition_value
            value = -value if v.repetition_absolute and us == BLACK else value
            perpetual = self._perpetual_check() if v.perpetual_check_loses else None
            return self._scored("repetition", value if perpetual is None else perpetual)
        if (all(not p or self.t.royal[p] for p in self.board) and not any(map(any, self.hands))
                and v.kings_only_draw() and not any(self.guarded(c) != self.royals[c] for c in (WHITE, BLACK))):
            return Outcome("insufficient material", None)  # a successor beside a royal piece may mate
        return None

    def _drop_mated(self) -> bool:
        """shogiPawnDropMateIllegal: was the mating move a drop of a piece of the type
        :attr:`Variant.drop_mate_loses` (which loses the game for the dropper)?"""
        last = self._stack[-1].move if self._stack else None
        return last is not None and last[3] is DROP and last[2] >> 2 == self.variant.drop_mate_loses

    def _scored(self, termination: str, value: int) -> Outcome:
        """The outcome worth ``value`` to the side to move (1 won, -1 lost, 0 drawn); a draw goes to
        the variant's material counting (:attr:`Variant.material_counting`) where it has one."""
        us = self.turn
        counting = self.variant.material_counting
        if not value and counting:
            if counting == "unweighted":
                mine, theirs = self._on_board(us), self._on_board(us ^ 1)
                value = (mine > theirs) - (mine < theirs)
            else:
                value = 1 if (counting == "whitedrawodds") == (us == WHITE) else -1
        return Outcome(termination, None if not value else (us if value > 0 else us ^ 1))

    def _perpetual_check(self) -> int | None:
        """Fairy-Stockfish's ``perpetualCheckIllegal`` on a repetition: the side that gave check in
        every position from the first of the repeated ones to this one, while the other did not,
        loses (1 or -1 for the side to move; 0 where both did); None where neither did.  The moves
        since that position are taken back to look, and made again."""
        plies = self._repeats()[self.variant.repetitions - 2]
        checked, moves = [self.in_check()], []
        for _ in range(plies):
            moves.append(self._stack[-1].move)
            self.unmake()
            checked.append(self.in_check())
        for m in reversed(moves):
            self.make(m)
        them, us = all(checked[0::2]), all(checked[1::2])  # the side to move was in check / the other was
        if them and us:
            return 0
        return 1 if them else (-1 if us else None)

    def _stalemate_value(self) -> int:
        """What stalemate is worth to the stalemated side to move; with
        :attr:`Variant.stalemate_piece_count` the side with fewer pieces on the board gets the
        stalemate's value and the other its opposite (equal counts: a draw)."""
        v = self.variant
        value = -1 if v.stalemate_loses else (1 if v.stalemate_wins else 0)
        if not v.stalemate_piece_count:
            return value
        mine, theirs = self._on_board(self.turn), self._on_board(self.turn ^ 1)
        return 0 if mine == theirs else (value if mine < theirs else -value)

    def decided(self) -> bool:
        """Is the game over before any move, as Fairy-Stockfish ends it: a side has lost an
        extinction type, a flag rule ends it, the side that just moved gave its last check, the side
        that just moved is bare while the other is not, or the side to move is bare and cannot bare
        the other (which has two or more pieces beside its royal ones), or the side that just moved
        made a connection."""
        us, them = self.turn, self.turn ^ 1
        if (self.t.extinction or self.variant.army_extinction is not None) and (self.extinct(us) or self.extinct(them)):
            return True
        if self.t.flags and self._flag_outcome() is not None:
            return True
        if self.checks is not None and not self.checks[them]:
            return True
        if self.variant.connection is not None and self.connected(them):
            return True
        if self.variant.baring is None:
            return False
        mine, theirs = self.material(us), self.material(them)
        return bool(mine and not theirs or not mine and len(theirs) > 1)

    def extinct(self, colour: int) -> bool:
        """Has ``colour`` lost every piece (on the board and in hand) of one of the extinction types,
        or its army (:attr:`Variant.army_extinction`)?"""
        t = self.t
        army = self.variant.army_extinction
        if army is not None and self._army(colour) <= army:
            return True
        hand = self.hands[colour]
        n = self.variant.extinction_count
        if n:  # Three Kings: a side with two kings or fewer has lost
            return any(hand[ti] + sum(1 for p in self.board if p and p & 1 == colour and t.type_of[p] == ti) <= n
                       for ti in t.extinction)
        have = {t.type_of[p] for p in self.board if p and p & 1 == colour}
        return any(ti not in have and not hand[ti] for ti in t.extinction)

    def connected(self, colour: int) -> bool:
        """Do ``colour``'s pieces on the board make the variant's connection (:attr:`Variant.connection`)?"""
        v = self.variant
        rule = v.connection
        if rule is None:
            return False
        types = rule.types
        mine = {sq for sq, p in enumerate(self.board) if p and p & 1 == colour and (not types or p >> 2 in types)}
        return connected(rule, mine, colour, v.files, v.ranks)

    def flag_reached(self, colour: int) -> bool:
        """Do enough of ``colour``'s flag pieces stand in its flag region (:attr:`Variant.flag_region`)?"""
        v = self.variant
        ti, b, region = v.flag_piece[colour], self.board, v.flag_region[colour]
        flags = [sq for sq in region if b[sq] and b[sq] & 1 == colour and (not ti or b[sq] >> 2 == ti)]
        if not flags or (len(flags) < v.flag_count and not (v.flag_blocked_win and all(b[sq] for sq in region))):
            return False
        if v.flag_safe and (not v.flag_move or colour != self.turn) and len(flags) == v.flag_count:
            return not any(self.attacked(sq, colour ^ 1) for sq in flags)
        return True

    def _flag_outcome(self) -> Outcome | None:
        """The flag rules as Fairy-Stockfish ends a game by them.  Without flag_move, a side whose
        flag is reached after its move has won.  With flag_move the other side gets one more move:
        Black, with a royal flag piece, not in check and able to step into its region, plays on
        (then both reached it: a draw); a side that reached its region before that move has won.
        With flag_safe a flag piece under attack wins only once it has survived a move."""
        v = self.variant
        us, them = self.turn, self.turn ^ 1
        if (v.flag_move or v.flag_safe) and self.flag_reached(us):
            both = (v.flag_move and us == WHITE and self._royal_flag(them)) or (v.flag_safe and not v.flag_move)
            return Outcome("flag", None if both and self.flag_reached(them) else us)
        if (not v.flag_move or v.flag_safe or self._royal_flag(us)) and self.flag_reached(them):
            if v.flag_move and us == BLACK and self._flag_in_reach(us):
                return None
            return Outcome("flag", them)
        return None

    def _royal_flag(self, colour: int) -> bool:
        ti = self.variant.flag_piece[colour]
        return bool(ti) and self.variant.type(ti).royal

    def _flag_in_reach(self, us: int) -> bool:
        """May ``us``, not in check, move a flag piece into its region by a legal move?"""
        if self.in_check():
            return False
        region, ti = self.variant.flag_region[us], self.variant.flag_piece[us]
        legal = [m for m in self._legal() if m[1] in region and self.board[m[0]] >> 2 == ti and m[3] is not DROP]
        return any(not self.gives_check(m) for m in legal) if self.t.no_checks else bool(legal)

    def _on_board(self, colour: int) -> int:
        """How many pieces ``colour`` has on the board."""
        return sum(1 for p in self.board if p and p & 1 == colour)

    def _army(self, colour: int) -> int:
        """How many pieces ``colour`` has, on the board and in hand."""
        return self._on_board(colour) + sum(self.hands[colour])

    def _bare_king(self, us: int, legal: list) -> Outcome | None:
        mine, theirs = self.material(us), self.material(us ^ 1)
        if not mine and not theirs:
            return Outcome("bare king", None)
        if not theirs:  # the side that just moved is bare: it lost
            return Outcome("bare king", us)
        if not mine and (self.variant.bare_king_immediate or len(theirs) > 1
                         or not any(self.capture_square(m) == theirs[0] for m in legal)):
            return Outcome("bare king", us ^ 1)
        return None

    # -- perft -------------------------------------------------------------------
    def perft(self, depth: int) -> int:
        """Count the leaf nodes of the legal move tree (every leaf is made and unmade)."""
        if depth <= 0:
            return 1
        n = 0
        make, unmake = self.make, self.unmake
        if depth == 1:
            for m in self.legal_moves():
                make(m)
                n += 1
                unmake()
            return n
        for m in self.legal_moves():
            make(m)
            n += self.perft(depth - 1)
            unmake()
        return n
