"""Move tables compiled from a :class:`~morphchess.variant.Variant`.

Pieces on the board are codes (:mod:`morphchess.pieces`).  ``moves[code][square]`` is
one entry per piece and square, compiled on first use on boards larger than 10x10 (so a
26x26 board loads at once) and at once on smaller ones (plain lists are quicker to read),
with the :class:`~morphchess.move.Move` objects built once here, so the move walker in
:mod:`morphchess.position` is a few loops over tuples.  An entry is the tuple
``(leaps, slides, specials, more, dup)``:

* ``leaps``: ``(to, moves)`` of plain leaps (move or capture, never blocked);
* ``slides``: rays of plain riders, nearest square first, each a tuple of ``(to, moves)``;
* ``specials``: leaps that only move or only capture, lame leaps, en passant: one entry
  per target ``(to, blockers, can_move, can_capture, can_ep, moves)``;
* ``more``: empty for most pieces, else ``(rides, hops, paths)``: ``(ray, can_move,
  can_capture)`` of riders that only move or only capture, ``(ray, rng, after, can_move,
  can_capture)`` of hoppers (:class:`~morphchess.betza.Hop`), and the compiled multi-leg
  moves (:class:`PathLeg` tuples) the walker follows leg by leg;
* ``dup``: True where two moves may reach one target (the walker drops the repeat).

``transforms`` holds the transformation moves (Polymorph), ``morph_to`` the code a
piece has after arriving on a square, ``promo`` the codes a promoting piece may choose
on a square (or None).  ``moves`` in an entry hold one move per type the piece may have
after arriving (several where it promotes).  :meth:`Tables.reach` walks the plain
targets as squares, for evaluation and diagrams.  :meth:`Tables.drop_moves` lists where
a piece in hand may be dropped, ``hand_of[code]`` which hand a captured piece joins.

For check detection the tables are reversed, per colour and target square, also on first
use (on large boards): ``att[colour][sq]`` is ``(near, rays, lame, hops)``: ``near`` lists ``(square,
codes)`` pairs whose pieces attack ``sq`` whatever stands between, ``rays`` lists rays
walked outward from ``sq``, each entry ``(square, codes)`` naming the codes that attack
``sq`` from there when that square holds the first piece on the ray, ``lame`` the
remaining blockable leaps ``(square, blockers, codes)`` and ``hops`` the hopper lines
``(ray, ((codes, rng, after), ...))``.  Multi-leg moves cannot be reversed this way:
``path_codes`` names the codes whose attacks :class:`~morphchess.position.Position`
finds by walking their moves.
"""

from __future__ import annotations

import random
from array import array
from collections.abc import Callable, Iterator
from math import gcd
from typing import TYPE_CHECKING, NamedTuple

from .betza import Leg, Step, leap_path, leg_vector, unrolled
from .move import Kind, Move
from .pieces import BLACK, WHITE, code
from .shuffle import shuffled_types

if TYPE_CHECKING:
    from .variant import PieceType, Variant

_HAND_KEYS = 64  # hash keys per type in hand; larger counts share the last one
_CHECK_KEYS = 16  # hash keys per count of checks still to give; larger counts share the last one


_EAGER = 100  # boards up to 10x10 get their tables at once, larger ones square by square


def _table(size: int, build: Callable) -> list | dict:
    """``build(square)`` for every square: a list filled now on small boards, else a dict
    filled on first use."""
    return [build(sq) for sq in range(size)] if size <= _EAGER else _Lazy(build)


class _Lazy(dict):
    """Entries per square, computed by ``build(square)`` on first use."""

    __slots__ = ("build",)

    def __init__(self, build: Callable) -> None:
        super().__init__()
        self.build = build

    def __missing__(self, sq: int):
        value = self[sq] = self.build(sq)
        return value


class PathLeg(NamedTuple):
    """A leg of a multi-leg move, compiled for one colour: ``vectors[d]`` is the board vector
    of direction index ``d``; ``dirs`` are absolute on the first leg, relative later;
    ``modes`` are the modalities (``m c d k`` at the end, ``m c d p`` on the way); ``ends``: the
    modalities with which the move may also end after this leg ('' if it may not)."""

    key: int
    dirs: tuple[int, ...]
    vectors: tuple[tuple[int, int], ...]
    rng: int
    modes: str
    skip: int
    hurdle: bool
    lame: bool
    wrap: bool
    ends: str = ""


WALL = 1  # the board's code of a wall (Variant.walling): type 0, which no piece has, never unmoved


class Tables:
    """The compiled tables of one variant (built once, read by every position)."""

    def __init__(self, v: Variant) -> None:
        F, R = v.files, v.ranks
        self.files, self.ranks, self.size = F, R, F * R
        self.holes = frozenset(v.holes)  # squares that are not on the board: rays end before them
        n = 4 * (len(v.types) + 1)
        self.ncodes = n
        self.has_castling = any(t.moves.castlings for t in v.types)
        self.has_ep = v.en_passant and any(s.ep for t in v.types for s in t.moves.steps)
        # Types whose moved/unmoved state can matter; the others are always "moved".
        self.tracks_virgin = [False] * (len(v.types) + 1)
        for t in v.types:
            self.tracks_virgin[t.index] = (self.has_castling or t.moves.castlings != () or _has_initial(t))
        self.moves: list = [None] * n
        # squares each code may not enter (Variant.barred): no move, attack or drop ends there
        self.barred: list[frozenset[int]] = [frozenset()] * n
        for t in v.types:
            for colour in (WHITE, BLACK):
                for virgin in (False, True):
                    self.barred[code(t.index, colour, virgin)] = v.barred_squares(t.index, colour)
        self._variant = v
        self._types = tuple(v.types)
        self._offset_types = [False] + [v.promoted_type(t) is not None for t in v.types]
        self.capture_only: set = set()  # offset promotions a move may make only when it captures
        # promotions to a type marked '*' in promoChoice: only with such a piece in hand, which they use
        self._hand_promotions = {ti for ti, limit in v.promo_limits.items() if limit.from_hand}
        self.from_hand: set = set()
        self.morph_to: list = [None] * n
        self.promo: list = [None] * n
        self.transforms: list = [None] * n
        self.castle: list = [()] * n
        self.royal = array("b", bytes(n))   # per code: 1 for a royal piece
        self.resets = array("b", bytes(n))  # per code: 1 where a move of the piece resets the 50-move count
        self.letter = [""] * n
        self.type_of = [0] * n
        self.valid = [False] * n
        self.path_codes: list[list[bool]] = [[False] * n for _ in (WHITE, BLACK)]
        self.path_reach = [0] * n  # how far (in king steps) a code's paths reach; 0: no bound
        self._path_legs: dict = {}   # (type index, colour) -> compiled paths
        self._rays: dict = {}        # (leg key, direction, square) -> ray of a path leg
        self._leg_moves: dict = {}   # (code, from, to, extra) -> moves of a path
        self._leg_count = 0
        for t in v.types:
            for colour in (WHITE, BLACK):
                self._path_legs[(t.index, colour)] = self._compile_paths(t, colour)
                self._compile_code(v, t, colour, False)
                if self.tracks_virgin[t.index]:
                    self._compile_code(v, t, colour, True)
        self._compile_transforms(v)
        self.no_quiet = [[False] * self.size] * n  # Position.captures: no quiet moves from any square
        self.royal_morphs = self._royal_morphs()
        # While a side has a royal piece and a successor (or two of either), checks do not matter to it.
        self.succession = bool(v.succession)
        self.extinction = tuple(v.extinction)
        self.flags = bool(v.flag_region[0] or v.flag_region[1])  # Position.flag_reached
        self.no_checks = not v.checking
        self.check_counting = v.check_counts is not None  # Position.checks
        # Position.decided: rules that may end a game before any move is made
        self.ends_early = (bool(self.extinction) or self.flags or self.check_counting or v.baring is not None
                           or v.army_extinction is not None or v.connection is not None)
        self.partner_of = self._castling_partners(v)
        self.fischer = self._fischer_castling(v)
        # castling types that are not royal (a king named by extinction=) castle with no regard to attacks
        self.free_castlers = any(t.moves.castlings and not t.royal for t in v.types)
        self.castle_ranks = sorted({(colour, rank) for (colour, rank, _s) in self.partner_of})
        # every move is tried for check: a non-royal piece may become royal, or castle beside royal ones
        self.check_all = self.royal_morphs or (self.free_castlers and any(t.royal for t in v.types))
        self.has_initial = [self.valid[c] and _has_initial(v.type(self.type_of[c])) for c in range(n)]
        # Hoppers and multi-leg moves can check through a piece that moves in between: the
        # pin shortcut of Position.legal_moves does not hold for them.
        self.complex_attacks = any(t.moves.hops or t.moves.paths for t in v.types)
        self.path_attacks = any(t.moves.paths for t in v.types)  # Position._path_attack has work to do
        self._hands(v)
        # Position.make's rare steps: hands, multi-leg moves, promotions from the hand
        self._capture_rules(v)
        self._blasts(v)
        self.walk_rules = self.capture_rules or self.free_castlers  # Position._walk_rules
        self.special_make = (self.to_hand or bool(self._hand_promotions) or any(t.moves.paths for t in v.types)
                             or bool(v.counter_strike) or self.blast)
        self.att = [_table(self.size, lambda sq, colour=colour: self._attackers(colour, sq))
                    for colour in (WHITE, BLACK)]
        self.ep_sources = [_table(self.size, lambda sq, colour=colour: self._ep_sources(colour, sq))
                           for colour in (WHITE, BLACK)]
        self._zobrist(v)
        self._walls(v)

    def _walls(self, v: Variant) -> None:
        """Walls (Variant.walling): the code WALL stands on their squares, a piece of no type that
        moves nowhere, blocks every line and is never taken (Position._walk drops such captures)."""
        self.walling, self.wall_or_move = v.walling, v.wall_or_move
        if v.walling:
            self.moves[WALL] = _table(self.size, lambda sq: ((), (), (), None, False))
            self.letter[WALL] = "*"

    # -- compiling one code ------------------------------------------------
    def _compile_code(self, v: Variant, t: PieceType, colour: int, virgin: bool) -> None:
        c = code(t.index, colour, virgin)
        self.valid[c] = True
        self.type_of[c] = t.index
        self.royal[c] = t.royal or t.index in v.succession  # successors count with the royal pieces
        self.resets[c] = v.is_pawn_like(t)
        self.letter[c] = t.letter if colour == WHITE else t.letter.lower()
        self.morph_to[c] = self._morphs(v, t, colour)
        self.promo[c] = self._promotions(v, t, colour)
        if virgin and not _has_initial(t):  # only castling tells the states apart: one table
            self.moves[c] = self.moves[code(t.index, colour)]
        else:
            self.moves[c] = _table(self.size, lambda sq: self._entry(t, colour, virgin, c, sq))
        self.path_codes[colour][c] = bool(t.moves.paths)
        self.path_reach[c] = self._reach_bound(self._path_legs[(t.index, colour)])
        if virgin:
            sign = 1 if colour == WHITE else -1
            self.castle[c] = tuple((cs.steps, side * sign) for cs in t.moves.castlings for side in cs.sides)
            if v.castling and t.moves.castlings:
                self.castle[c] = tuple((n, side) for (col, side), (n, _ps) in sorted(v.castling.items())
                                       if col == colour)

    def _ray(self, sq: int, dx: int, dy: int, rng: int, wrap: bool = False) -> list[int]:
        """Squares from ``sq`` in steps (dx, dy), at most ``rng`` (0: to the edge or a hole); ``wrap``:
        the files join into a cylinder, and the ray ends before it comes back to ``sq``."""
        F, R = self.files, self.ranks
        f, r = sq % F, sq // F
        out: list[int] = []
        while rng == 0 or len(out) < rng:
            f, r = f + dx, r + dy
            if wrap:
                f %= F
            if not (0 <= f < F and 0 <= r < R) or r * F + f == sq or r * F + f in self.holes:
                break
            out.append(r * F + f)
        return out

    def _entry(self, t: PieceType, colour: int, virgin: bool, c: int, sq: int) -> tuple:
        """The table entry of code ``c`` on ``sq`` (see the module documentation)."""
        sign = 1 if colour == WHITE else -1
        lp: list = []
        sl: list = []
        rd: list = []
        sp: list = []
        seen: set = set()
        dup = False
        for s in t.moves.steps:
            if s.initial and not virgin:
                continue
            ray = self._ray(sq, s.dx * sign, s.dy * sign, self._half_range(sq, s.dy * sign) if s.half else s.rng)
            if ray:
                dup |= not seen.isdisjoint(ray)
                seen.update(ray)
                self._step_entry(s, sign, c, sq, ray, lp, sl, rd, sp)
        hops = []
        for h in t.moves.hops:
            if h.initial and not virgin:
                continue
            ray = self._ray(sq, h.dx * sign, h.dy * sign, 0)
            if len(ray) > 1:
                dup |= not seen.isdisjoint(ray)
                seen.update(ray)
                hops.append((tuple((to, self.moves_to(c, sq, to)) for to in ray), h.rng, h.after, h.move,
                             h.capture))
        paths = tuple(p for p, initial in self._path_legs[(t.index, colour)] if virgin or not initial)
        more = (tuple(rd), tuple(hops), paths) if rd or hops or paths else ()
        return tuple(lp), tuple(sl), tuple(sp), more, dup or bool(paths)

    def _step_entry(self, s: Step, sign: int, c: int, sq: int, ray: list, lp: list, sl: list, rd: list,
                    sp: list) -> None:
        """File the targets of step ``s`` from ``sq`` (``ray``) under leaps, slides, rides or specials."""
        F = self.files
        ep = s.ep and self.has_ep
        if s.half and self.has_ep:  # the ID's '*': the squares it passes are open to en passant
            sp.extend((to, tuple(ray[:i]), True, False, False,
                       self.moves_to(c, sq, to, Kind.DOUBLE if i else Kind.NORMAL, tuple(ray[:i])))
                      for i, to in enumerate(ray))
        elif s.rng == 1:
            to = ray[0]
            if to in self.barred[c]:
                return
            dx, dy = s.dx * sign, s.dy * sign
            blockers = tuple(sq + oy * F + ox for ox, oy in leap_path(dx, dy)) if s.lame else ()
            if not self.holes.isdisjoint(blockers):  # a hole blocks a lame leap for good
                return
            double = self.has_ep and s.ep_rights and s.move and not s.capture and blockers
            if s.move and s.capture and not ep and not blockers:
                lp.append((to, self.moves_to(c, sq, to)))
            elif s.move or s.capture or ep:
                kind, extra = (Kind.DOUBLE, blockers) if double else (Kind.NORMAL, ())
                sp.append((to, blockers, s.move, s.capture, ep, self.moves_to(c, sq, to, kind, extra)))
        elif ep:
            sp.extend((to, tuple(ray[:i]), s.move, s.capture, ep, self.moves_to(c, sq, to))
                      for i, to in enumerate(ray))
        elif s.move or s.capture:
            line = tuple((to, self.moves_to(c, sq, to)) for to in ray)
            if s.move and s.capture:
                sl.append(line)
            else:
                rd.append((line, s.move, s.capture))

    def _half_range(self, sq: int, dy: int) -> int:
        """The range of a '*' step (board direction ``dy``) from ``sq``: to the last rank of the half
        behind it, at least one step (as the ID's move generator counts it)."""
        r, R = sq // self.files, self.ranks
        return max(1, (r - ((R - 1) >> 1) if dy < 0 else (R >> 1) - r) - 1)

    def becomes(self, c: int, to: int) -> tuple[int, ...]:
        """The codes a piece of code ``c`` may have after arriving on ``to`` (several where it promotes)."""
        promo = self.promo[c]
        return promo[to] if promo and promo[to] else (self.morph_to[c][to],)

    def moves_to(self, c: int, sq: int, to: int, kind: Kind = Kind.NORMAL, extra: tuple = ()) -> tuple:
        """The moves of code ``c`` from ``sq`` to ``to``: one per type it may have there.  A shogi
        style promotion allowed only with a capture is listed in ``capture_only``."""
        if to in self.barred[c]:
            return ()
        moves = tuple(Move(sq, to, new, kind, extra) for new in self.becomes(c, to))
        if self._hand_promotions and self.promo[c]:
            self.from_hand.update(m for m in moves if m.piece >> 2 in self._hand_promotions and m.piece >> 2 != c >> 2)
        if self._variant.immobility_illegal and kind is Kind.NORMAL:
            moves = tuple(m for m in moves if m.piece >> 2 != c >> 2 or self._mobile(c, to))
        if self._offset_types[c >> 2]:
            promoted = self._offset(c, sq, to, kind, extra)
            if promoted:
                forced = self._variant.offset_forced and promoted[0] not in self.capture_only
                moves = (() if forced else moves) + promoted
        return moves

    def _mobile(self, c: int, sq: int) -> bool:
        """Has a piece of code ``c`` on ``sq`` a move on an empty board (immobilityIllegal)?"""
        t = self._types[(c >> 2) - 1]
        sign = 1 if c & 1 == WHITE else -1
        return (bool(t.moves.hops or t.moves.paths)
                or any(self._ray(sq, s.dx * sign, s.dy * sign, 1) for s in t.moves.steps if not s.initial))

    def _offset(self, c: int, sq: int, to: int, kind: Kind, extra: tuple) -> tuple:
        """The shogi style promotion (``promoOffset``) of a move, if the variant offers one."""
        t = self._types[(c >> 2) - 1]
        quiet = self._variant.offset_promotion(t, c & 1, sq, to, False)
        capture = self._variant.offset_promotion(t, c & 1, sq, to, True)
        if capture is None:
            return ()
        m = Move(sq, to, code(capture, c & 1), kind, extra)
        if quiet is None:
            self.capture_only.add(m)
        return (m,)

    # -- multi-leg moves -----------------------------------------------------------
    def _compile_paths(self, t: PieceType, colour: int) -> tuple:
        """The paths of type ``t`` for ``colour``: ``((legs, initial), ...)``.  A crooked or circular
        ride (``cycle``) is one path of its longest move, every leg of which may also end it; none
        on this board has more than files + ranks legs (each leg gains ground in one direction)."""
        out = []
        for path in t.moves.paths:
            legs, ends = path.legs, ""
            if path.cycle:
                most = self.files + self.ranks
                legs, ends = unrolled(path, min(path.limit or most, most)), path.legs[-1].modes
            out.append((tuple(self._compile_leg(leg, colour, ends) for leg in legs), path.initial))
        return tuple(out)

    def _compile_leg(self, leg: Leg, colour: int, ends: str) -> PathLeg:
        sign = 1 if colour == WHITE else -1
        vectors = tuple((x * sign, y * sign) for x, y in (leg_vector(leg, d) for d in range(8)))
        self._leg_count += 1
        return PathLeg(self._leg_count, leg.dirs, vectors, leg.rng, leg.modes, leg.skip, leg.hurdle, leg.lame,
                       leg.wrap, ends)

    @staticmethod
    def _reach_bound(paths: tuple) -> int:
        """The farthest (in king steps) any of the compiled ``paths`` gets from its start; 0: unbounded."""
        bound = 0
        for legs, _initial in paths:
            if any(leg.rng == 0 or leg.wrap for leg in legs):
                return 0
            bound = max(bound, sum(leg.rng * max(max(abs(x), abs(y)) for x, y in leg.vectors) for leg in legs))
        return bound

    def leg_ray(self, leg: PathLeg, d: int, sq: int) -> tuple:
        """The ray of ``leg`` from ``sq`` in direction ``d``: ``(square, middle)`` pairs, ``middle``
        being the square a lame (``n``) or jumping (``j``) leap needs empty or occupied (or -1)."""
        key = (leg.key, d, sq)
        ray = self._rays.get(key)
        if ray is None:
            dx, dy = leg.vectors[d]
            squares = self._ray(sq, dx, dy, leg.rng, leg.wrap)
            mid = -1
            if (leg.lame or leg.hurdle) and leg.rng == 1 and squares and not leg.wrap:
                path = leap_path(dx, dy)
                mid = sq + path[0][1] * self.files + path[0][0] if path else -1
                if mid in self.holes:  # a hole blocks a lame leap and can be jumped like a piece
                    squares, mid = ([] if leg.lame else squares), -1
            ray = self._rays[key] = tuple((s, mid) for s in squares)
        return ray

    def leg_moves(self, c: int, sq: int, to: int, extra: tuple) -> tuple:
        """The moves of a path of code ``c`` from ``sq`` to ``to`` capturing on ``extra`` on the way."""
        key = (c, sq, to, extra)
        ms = self._leg_moves.get(key)
        if ms is None:
            kind = Kind.LEGS if extra or to == sq else Kind.NORMAL
            ms = self._leg_moves[key] = self.moves_to(c, sq, to, kind, extra)
        return ms

    def unload_moves(self, c: int, sq: int, to: int, at: int) -> tuple:
        """The moves of code ``c`` from ``sq`` taking on ``to`` and unloading the piece taken on ``at``."""
        key = (c, sq, to, at, Kind.UNLOAD)
        ms = self._leg_moves.get(key)
        if ms is None:
            ms = self._leg_moves[key] = self.moves_to(c, sq, to, Kind.UNLOAD, (at,))
        return ms

    def _compile_transforms(self, v: Variant) -> None:
        none: tuple = ((),) * self.size
        for c in range(self.ncodes):
            self.transforms[c] = none
        for group in v.transforms:
            for colour in (WHITE, BLACK):
                for ti in group:
                    others = tuple(code(o, colour) for o in group if o != ti)
                    for virgin in (False, True):
                        c = code(ti, colour, virgin)
                        if self.valid[c]:
                            self.transforms[c] = tuple(tuple(Move(sq, sq, o, Kind.TRANSFORM) for o in others)
                                                       for sq in range(self.size))

    def _royal_morphs(self) -> bool:
        """Can a non-royal piece become royal (by morph, promotion or transformation)?"""
        for c in range(self.ncodes):
            if self.valid[c] and not self.royal[c]:
                becomes = set(self.morph_to[c]) | {m.piece for ms in self.transforms[c] for m in ms}
                for choices in self.promo[c] or ():
                    becomes.update(choices or ())
                if any(self.royal[x] for x in becomes):
                    return True
        return False

    def reach(self, c: int, sq: int) -> Iterator[tuple[int, tuple, bool, bool, bool]]:
        """Every target of code ``c`` on ``sq`` as ``(to, blockers, can_move, can_capture, can_ep)``:
        the squares the piece reaches when ``blockers`` are empty (not transformations, hops
        or multi-leg moves)."""
        leaps, slides, specials, more, _dup = self.moves[c][sq]
        rides = more[0] if more else ()
        for to, _moves in leaps:
            yield to, (), True, True, False
        for ray in slides:
            for i, (to, moves) in enumerate(ray):
                if moves:  # a square of a zone the piece may not enter: passed, never reached
                    yield to, tuple(s for s, _m in ray[:i]), True, True, False
        for ray, can_move, can_capture in rides:
            for i, (to, moves) in enumerate(ray):
                if moves:
                    yield to, tuple(s for s, _m in ray[:i]), can_move, can_capture, False
        for to, blockers, can_move, can_capture, can_ep, _moves in specials:
            yield to, blockers, can_move, can_capture, can_ep

    # -- per-type helpers --------------------------------------------------
    def _morphs(self, v: Variant, t: PieceType, colour: int) -> list[int]:
        F, R = v.files, v.ranks
        out = []
        for sq in range(F * R):
            target = t.index
            if t.morph is not None:
                look = sq if colour == WHITE else (R - 1 - sq // F) * F + sq % F
                target = t.morph[look] or t.index
            out.append(code(target, colour, target == t.index and bool(v.fresh_on(target, colour, sq))))
        return out

    def _promotions(self, v: Variant, t: PieceType, colour: int) -> list | None:
        if not v.promotes(t):
            return None
        F, R = v.files, v.ranks
        morphs = self._morphs(v, t, colour)
        out: list = []
        for sq in range(F * R):
            depth = (R - 1 - sq // F) if colour == WHITE else sq // F  # 0 on the last rank
            choices = tuple(code(p, colour) for p in v.promotion_choices(t, depth))
            if depth >= v.promo_zone:
                out.append(None)
            elif (depth == 0 or v.promo_forced) and choices:  # forced (the ID: in the whole zone)
                out.append(choices)
            else:  # optional (Fairy-Stockfish's mandatoryPawnPromotion=false) or no choice here
                out.append((morphs[sq],) + tuple(x for x in choices if x != morphs[sq]))
        return out

    @staticmethod
    def _castling_partners(v: Variant) -> dict:
        """{(colour, rank, side): square}: where each castling king's partners start.

        A partner square is the outermost occupied square of a castling
        king's rank on that side, in the variant's setups; with ``j`` (``KisjO2``,
        Omega Chess) the next one inward for each ``j``; or as :attr:`Variant.castling` names it."""
        if v.castling:
            return {(colour, ps // v.files, side): ps for (colour, side), (_n, ps) in v.castling.items()}
        out = {}
        for placement in v.setups.values():
            for sq, (ti, colour) in placement.items():
                castlings = v.type(ti).moves.castlings
                if not castlings:
                    continue
                skip = max(cs.skip for cs in castlings)
                rank = sq // v.files
                for side in (-1, 1):
                    found = [rank * v.files + f for f in range(sq % v.files + side, -1 if side < 0 else v.files, side)
                             if placement.get(rank * v.files + f, (0, -1))[1] == colour]
                    if len(found) > skip:
                        out[(colour, rank, side)] = found[-1 - skip]
        return out

    def _fischer_castling(self, v: Variant) -> dict:
        """{(colour, rank, side): (partner code, king file)} where castling is Fischer style: where
        a shuffle= group moves a castling king or its partner type.  The partner is then the
        outermost piece of the type that stands on the partner square of the standard array (the
        corner), and king and partner land where they land from the standard array (the king on
        its file there plus its steps); empty otherwise."""
        standard = v.setups.get("standard", {})
        movers = shuffled_types(v)
        out = {}
        for (colour, rank, side), ps in self.partner_of.items():
            kings = [sq for sq, (ti, c) in standard.items()
                     if c == colour and sq // v.files == rank and v.type(ti).moves.castlings]
            if ps in standard and kings and movers & {standard[ps][0], standard[kings[0]][0]}:
                out[(colour, rank, side)] = (code(standard[ps][0], colour), kings[0] % v.files)
        return out

    def _capture_rules(self, v: Variant) -> None:
        """Per code: ``iron`` (cannot be captured), ``counter`` (counterStrike) and ``protected``
        types; ``capture_rules``: does the variant have any of them (Position._walk's last filter)."""
        self.iron, self.counter, self.protected, self.mutual = (
            [self.valid[c] and self.type_of[c] in types for c in range(self.ncodes)]
            for types in (v.iron, v.counter_strike, v.protected, v.mutually_immune))
        self.capture_rules = bool(v.iron or v.counter_strike or v.protected or v.mutually_immune)
        self.counter_strike = bool(v.counter_strike)
        self.zob_strike = random.Random(0x73747269).getrandbits(64)  # hash part of a counter-strike ban

    def _blasts(self, v: Variant) -> None:
        """Atomic captures (:attr:`Variant.blast`): ``blast_zone[sq]``, the target ``sq`` and the
        squares around it, and per code whether the blast never removes it (``blast_immune``) or
        spares it beside the target (``blast_spared``)."""
        self.blast = v.blast
        self.blast_immune, self.blast_spared = (
            [self.valid[c] and self.type_of[c] in types for c in range(self.ncodes)]
            for types in (v.blast_immune, v.blast_spared))
        F, R = self.files, self.ranks
        self.blast_zone = [(sq,) + tuple(r * F + f for r in range(sq // F - 1, sq // F + 2)
                                         for f in range(sq % F - 1, sq % F + 2)
                                         if 0 <= r < R and 0 <= f < F and r * F + f != sq
                                         and r * F + f not in self.holes)
                           for sq in range(self.size)] if v.blast else []

    # -- hands and drops --------------------------------------------------------
    def _hands(self, v: Variant) -> None:
        """Where captured pieces go (``to_hand``, ``hand_of``) and whether the hands drop
        (:meth:`Variant.to_hand`, :attr:`Variant.drops`)."""
        self.to_hand = v.holdings_type != 0
        self.drops_allowed = v.drops
        self.no_doubled = code(v.no_doubled, WHITE) if v.no_doubled else 0  # Position._undoubled_drops
        # per code: (hand colour, type index) a captured piece of that code joins, or None
        self.hand_of: list = [None] * self.ncodes
        for c in range(self.ncodes):
            if self.valid[c] and not self.royal[c]:
                self.hand_of[c] = v.to_hand(self.type_of[c], c & 1)
        self._drops: dict = {}
        self._starts = {(sq, code(ti, colour)) for placement in v.setups.values()
                        for sq, (ti, colour) in placement.items()}
        rnd = random.Random(0x68616E64)
        self._zob_hand = [[[0] + [rnd.getrandbits(64) for _ in range(_HAND_KEYS)] for _ in range(len(v.types) + 1)]
                          for _ in (WHITE, BLACK)]

    def zob_hand(self, colour: int, ti: int, n: int) -> int:
        """Hash part of ``n`` pieces of type ``ti`` in ``colour``'s hand (0 for none)."""
        return self._zob_hand[colour][ti][min(n, _HAND_KEYS)]

    def drop_moves(self, c: int) -> tuple:
        """``(square, moves)`` where a piece of (moved) code ``c`` may be dropped: every square that
        is not a hole and from which it has a move on an empty board (any one for the types of
        :attr:`Variant.stuck_drops`).  A type with initial moves
        is dropped unmoved on the squares where it starts (a pawn dropped on its second rank may
        step twice), as XBoard reads ``i``: a piece on its start square; with an initial region
        (:meth:`Variant.fresh_on`) on the squares of the region."""
        drops = self._drops.get(c)
        if drops is None:
            out = []
            for sq in range(self.size):
                fresh = self._variant.fresh_on(self.type_of[c], c & 1, sq)
                new = c | 2 if self.has_initial[c | 2] and (fresh or fresh is None and (sq, c) in self._starts) else c
                stuck = self.type_of[c] in self._variant.stuck_drops
                if sq not in self.holes and sq not in self.barred[c] and (stuck or any(self.moves[new][sq][:4])):
                    out.append((sq, (Move(sq, sq, new, Kind.DROP),)))
            drops = self._drops[c] = tuple(out)
        return drops

    # -- reversed tables for attack detection ---------------------------------
    def _codes(self, ti: int, colour: int) -> tuple[frozenset, frozenset]:
        """(codes of the type in any state, codes of the unmoved type) for ``colour``."""
        virgin = frozenset((code(ti, colour, True),)) if self.tracks_virgin[ti] else frozenset()
        return virgin | {code(ti, colour)}, virgin

    def _attackers(self, colour: int, sq: int) -> tuple:
        """``(near, rays, lame, hops)``: where pieces of ``colour`` attack ``sq`` from (module doc)."""
        near: dict = {}   # source -> codes
        rays: dict = {}   # outward vector -> {distance: codes}
        lame: dict = {}   # (source, blockers) -> codes
        hops: dict = {}   # outward vector -> [(codes, rng, after)]
        sign = 1 if colour == WHITE else -1
        for t in self._types:
            anyway, unmoved = self._codes(t.index, colour)
            if t.royal and self._flies_to(sq, colour):  # royals face each other along a file or rank
                for dx, dy in ((0, 1), (0, -1), (1, 0), (-1, 0)):
                    self._reverse(sq, Step(dx, dy, 0, move=False), 1, anyway, near, rays, lame)
            if sq in self.barred[code(t.index, colour)]:
                continue
            for s in t.moves.steps:
                if s.capture:
                    self._reverse(sq, s, sign, unmoved if s.initial else anyway, near, rays, lame)
            for h in t.moves.hops:
                if h.capture:
                    hops.setdefault((-h.dx * sign, -h.dy * sign), []).append(
                        (unmoved if h.initial else anyway, h.rng, h.after))
        F = self.files
        table_rays = []
        for (ux, uy), by_dist in rays.items():
            far = max(by_dist)
            entries = tuple((sq + k * (uy * F + ux), frozenset(by_dist.get(k, ()))) for k in range(1, far + 1))
            if far == 1:
                near.setdefault(entries[0][0], set()).update(entries[0][1])
            else:
                table_rays.append(entries)
        return (tuple((s, frozenset(cs)) for s, cs in near.items()),
                tuple(sorted(table_rays, key=len)),  # longer rays last: short ones find an attacker sooner
                tuple((src, blockers, frozenset(cs)) for (src, blockers), cs in lame.items()),
                tuple((tuple(self._ray(sq, ux, uy, 0)), tuple(specs)) for (ux, uy), specs in hops.items()))

    def _flies_to(self, sq: int, colour: int) -> bool:
        """With the flying general rule: may a royal piece of the other side stand on ``sq`` (where
        the royals of ``colour`` then attack it along an open file)?"""
        v = self._variant
        return v.flying_general and any(sq not in v.barred_squares(t.index, colour ^ 1) for t in v.types if t.royal)

    def _reverse(self, sq: int, s: Step, sign: int, codes: frozenset, near: dict, rays: dict, lame: dict) -> None:
        """Enter the squares from which step ``s`` (of ``codes``) captures on ``sq``."""
        if not codes:
            return
        F = self.files
        dx, dy = s.dx * sign, s.dy * sign
        sources = self._ray(sq, -dx, -dy, s.rng)
        g = gcd(abs(dx), abs(dy))
        if s.rng != 1:
            for k, src in enumerate(sources, 1):
                if g == 1:  # first piece on the line from the target
                    rays.setdefault((-dx, -dy), {}).setdefault(k, set()).update(codes)
                else:  # riders of longer leaps (DD, AA) jump over the squares in between
                    lame.setdefault((src, tuple(sources[:k - 1])), set()).update(codes)
            return
        for src in sources:
            blockers = tuple(src + oy * F + ox for ox, oy in leap_path(dx, dy)) if s.lame else ()
            if not self.holes.isdisjoint(blockers):
                continue
            ux, uy = dx // g, dy // g
            if not blockers and g > 1:  # an unblockable leap
                near.setdefault(src, set()).update(codes)
            elif blockers == tuple(src + k * (uy * F + ux) for k in range(1, g)):
                rays.setdefault((-ux, -uy), {}).setdefault(g, set()).update(codes)
            else:
                lame.setdefault((src, blockers), set()).update(codes)

    def _ep_sources(self, capturer: int, sq: int) -> tuple:
        """``(square, codes)``: where pieces of ``capturer`` could take en passant on ``sq``."""
        sign = 1 if capturer == WHITE else -1
        out: dict = {}
        for t in self._types:
            anyway, unmoved = self._codes(t.index, capturer)
            for s in t.moves.steps:
                if s.ep:
                    for src in self._ray(sq, -s.dx * sign, -s.dy * sign, 1):
                        out.setdefault(src, set()).update(unmoved if s.initial else anyway)
        return tuple((src, frozenset(cs)) for src, cs in out.items() if cs)

    # -- hashing -------------------------------------------------------------
    def _zobrist(self, v: Variant) -> None:
        rnd = random.Random(0x6D6F7270)
        size = v.files * v.ranks
        # a key per piece code and square, at zob[code * size + square]; no piece (a drop's empty origin) adds nothing
        self.zob = array("Q", [rnd.getrandbits(64) for _ in range(self.ncodes * size)])
        self.zob[:size] = array("Q", [0] * size)
        self.zob_side = rnd.getrandbits(64)
        self.zob_ep = [rnd.getrandbits(64) for _ in range(size)]
        # The moved-state is hashed only for types with initial moves; castling
        # enters the hash as rights (Position.castle_key), as in FIDE chess.
        self.zob_castle = {key: rnd.getrandbits(64) for key in self.partner_of}
        # per castling right: (colour, rank, side, the partner's square, its hash part) (Position.castle_key)
        self.castle_rights = tuple((*key, ps, self.zob_castle[key]) for key, ps in self.partner_of.items())
        # per square: 1 where a change may change the castling rights (Fischer style: the whole rank)
        self.castle_square = array("b", bytes(size))
        for sq in set(self.partner_of.values()) | {
                rank * self.files + f for (_c, rank, _s) in (self.partner_of if self.free_castlers else self.fischer)
                for f in range(self.files)}:
            self.castle_square[sq] = 1
        for t in v.types:
            if _has_initial(t):
                continue
            for colour in (WHITE, BLACK):
                moved, virgin = code(t.index, colour), code(t.index, colour, True)
                self.zob[virgin * size:virgin * size + size] = self.zob[moved * size:moved * size + size]
        # check counting: a key per colour and count of checks still to give
        self.zob_checks = [[rnd.getrandbits(64) for _ in range(_CHECK_KEYS)] for _ in (WHITE, BLACK)]


def _has_initial(t: PieceType) -> bool:
    """Has the type moves only a piece that never moved may make?"""
    m = t.moves
    return any(s.initial for s in m.steps) or any(h.initial for h in m.hops) or any(p.initial for p in m.paths)
