"""Move tables compiled from a :class:`~morphchess.variant.Variant`.

Pieces on the board are codes (:mod:`morphchess.pieces`).  Every table below is
indexed ``[code][square]`` and holds only squares on the board, with the
:class:`~morphchess.move.Move` objects built once here, so the move walker in
:mod:`morphchess.position` is a few loops over tuples:

* ``leaps``: ``(to, moves)`` of plain leaps (move or capture, never blocked);
* ``slides``: rays of plain riders, nearest square first, each a tuple of ``(to, moves)``;
* ``specials``: everything else, one entry per target
  ``(to, blockers, can_move, can_capture, can_ep, moves)``;
* ``transforms``: the transformation moves (Polymorph);
* ``morph_to``: the code the piece has after arriving on a square;
* ``promo``: the codes a promoting piece may choose on a square (or None).

``moves`` holds one move per type the piece may have after arriving (several
where it promotes).  :meth:`Tables.reach` walks the same targets as plain
squares, for the attack tables below and for evaluation and diagrams.

For check detection the tables are reversed: ``att_near[colour][sq]`` lists
``(square, codes)`` pairs whose pieces attack ``sq`` whatever stands between,
``att_rays[colour][sq]`` lists rays walked outward from ``sq``, each entry
``(square, codes)`` naming the codes that attack ``sq`` from there when that
square holds the first piece on the ray, and ``att_lame`` the remaining lame
leaps (the knight's ``nN``).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from math import gcd

from .betza import leap_path
from .move import Kind, Move
from .pieces import code
from .variant import BLACK, WHITE, PieceType, Variant

class Tables:
    """The compiled tables of one variant (built once, read by every position)."""

    def __init__(self, v: Variant) -> None:
        F, R = v.files, v.ranks
        self.files, self.ranks, self.size = F, R, F * R
        n = 4 * (len(v.types) + 1)
        self.ncodes = n
        self.has_castling = any(t.moves.castlings for t in v.types)
        self.has_ep = v.en_passant and any(s.ep for t in v.types for s in t.moves.steps)
        # Types whose moved/unmoved state can matter; the others are always "moved".
        self.tracks_virgin = [False] * (len(v.types) + 1)
        for t in v.types:
            self.tracks_virgin[t.index] = (self.has_castling or t.moves.castlings != ()
                                           or any(s.initial for s in t.moves.steps))
        self.leaps: list = [None] * n
        self.slides: list = [None] * n
        self.specials: list = [None] * n
        self.morph_to: list = [None] * n
        self.promo: list = [None] * n
        self.transforms: list = [None] * n
        # per code and square: True where two steps reach one target (the walker drops the repeat)
        self.dups: list = [None] * n
        self.castle: list = [()] * n
        self.royal = [False] * n
        self.resets = [False] * n  # a move of this piece resets the 50-move count
        self.letter = [""] * n
        self.type_of = [0] * n
        self.valid = [False] * n
        for t in v.types:
            for colour in (WHITE, BLACK):
                for virgin in ((False, True) if self.tracks_virgin[t.index] else (False,)):
                    self._compile_code(v, t, colour, virgin)
        self._compile_transforms(v)
        self.no_quiet = [[False] * self.size] * n  # Position.captures: no quiet moves from any square
        self.royal_morphs = self._royal_morphs()
        self.partner_of = self._castling_partners(v)
        self.partner_squares = [{sq for (c, _r, _s), sq in self.partner_of.items() if c == colour}
                                for colour in (WHITE, BLACK)]
        self.has_initial = [self.valid[c] and any(s.initial for s in v.type(self.type_of[c]).moves.steps)
                            for c in range(n)]
        self._attack_tables(v)
        self._zobrist(v)

    # -- compiling one code ------------------------------------------------
    def _compile_code(self, v: Variant, t: PieceType, colour: int, virgin: bool) -> None:
        c = code(t.index, colour, virgin)
        self.valid[c] = True
        self.type_of[c] = t.index
        self.royal[c] = t.royal
        self.resets[c] = v.is_pawn_like(t)
        self.letter[c] = t.letter if colour == WHITE else t.letter.lower()
        self.morph_to[c] = self._morphs(v, t, colour)
        self.promo[c] = self._promotions(v, t, colour)
        leaps, slides, specials, dups = [], [], [], []
        for sq in range(self.size):
            lp, sl, sp, dup = self._targets_from(t, colour, virgin, c, sq)
            leaps.append(lp)
            slides.append(sl)
            specials.append(sp)
            dups.append(dup)
        self.leaps[c], self.slides[c], self.specials[c] = leaps, slides, specials
        self.dups[c] = dups if any(dups) else None
        if virgin:
            sign = 1 if colour == WHITE else -1
            self.castle[c] = tuple((cs.steps, side * sign) for cs in t.moves.castlings for side in cs.sides)

    def _targets_from(self, t: PieceType, colour: int, virgin: bool, c: int, sq: int) -> tuple:
        """The leaps, slides and special targets of code ``c`` on ``sq``, and whether two steps share a target."""
        F, R = self.files, self.ranks
        sign = 1 if colour == WHITE else -1
        f0, r0 = sq % F, sq // F
        lp: list = []
        sl: list = []
        sp: list = []
        seen: set = set()
        dup = False
        for s in t.moves.steps:
            if s.initial and not virgin:
                continue
            dx, dy = s.dx * sign, s.dy * sign
            ep = s.ep and self.has_ep
            ray = []
            k = 1
            while 0 <= f0 + k * dx < F and 0 <= r0 + k * dy < R and (s.rng == 0 or k <= s.rng):
                ray.append(sq + k * (dy * F + dx))
                k += 1
            if not ray:
                continue
            dup |= any(to in seen for to in ray)
            seen.update(ray)
            if s.rng == 1:
                to = ray[0]
                blockers = tuple(sq + oy * F + ox for ox, oy in leap_path(dx, dy)) if s.lame else ()
                double = self.has_ep and s.initial and s.lame and s.move and not s.capture and blockers
                if s.move and s.capture and not ep and not blockers:
                    lp.append((to, self.moves_to(c, sq, to)))
                elif s.move or s.capture or ep:
                    kind, extra = (Kind.DOUBLE, blockers) if double else (Kind.NORMAL, ())
                    sp.append((to, blockers, s.move, s.capture, ep, self.moves_to(c, sq, to, kind, extra)))
            elif s.move and s.capture and not ep:
                sl.append(tuple((to, self.moves_to(c, sq, to)) for to in ray))
            elif s.move or s.capture or ep:
                sp.extend((to, tuple(ray[:i]), s.move, s.capture, ep, self.moves_to(c, sq, to))
                          for i, to in enumerate(ray))
        return tuple(lp), tuple(sl), tuple(sp), dup

    def becomes(self, c: int, to: int) -> tuple[int, ...]:
        """The codes a piece of code ``c`` may have after arriving on ``to`` (several where it promotes)."""
        promo = self.promo[c]
        return promo[to] if promo and promo[to] else (self.morph_to[c][to],)

    def moves_to(self, c: int, sq: int, to: int, kind: Kind = Kind.NORMAL, extra: tuple = ()) -> tuple:
        """The moves of code ``c`` from ``sq`` to ``to``: one per type it may have there."""
        return tuple(Move(sq, to, new, kind, extra) for new in self.becomes(c, to))

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
        the squares the piece reaches when ``blockers`` are empty (transformations not included)."""
        for to, _moves in self.leaps[c][sq]:
            yield to, (), True, True, False
        for ray in self.slides[c][sq]:
            for i, (to, _moves) in enumerate(ray):
                yield to, tuple(s for s, _m in ray[:i]), True, True, False
        for to, blockers, can_move, can_capture, can_ep, _moves in self.specials[c][sq]:
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
            out.append(code(target, colour))
        return out

    def _promotions(self, v: Variant, t: PieceType, colour: int) -> list | None:
        if not v.promotes(t):
            return None
        F, R = v.files, v.ranks
        choices = tuple(code(p, colour) for p in v.promo_choice)
        morphs = self._morphs(v, t, colour)
        out: list = []
        for sq in range(F * R):
            depth = (R - 1 - sq // F) if colour == WHITE else sq // F  # 0 on the last rank
            if depth >= v.promo_zone:
                out.append(None)
            elif depth == 0:
                out.append(choices)
            else:  # deeper in the zone promotion is optional
                out.append((morphs[sq],) + tuple(x for x in choices if x != morphs[sq]))
        return out

    @staticmethod
    def _castling_partners(v: Variant) -> dict:
        """{(colour, rank, side): square}: where each castling king's partners start.

        A partner square is the outermost occupied square of a castling
        king's rank on that side, in the variant's setups."""
        out = {}
        for placement in v.setups.values():
            for sq, (ti, colour) in placement.items():
                if not v.type(ti).moves.castlings:
                    continue
                rank = sq // v.files
                for side in (-1, 1):
                    f = sq % v.files + side
                    while 0 <= f < v.files:
                        if rank * v.files + f in placement and placement[rank * v.files + f][1] == colour:
                            out[(colour, rank, side)] = rank * v.files + f
                        f += side
        return out

    # -- reversed tables for attack detection ---------------------------------
    def _attack_tables(self, v: Variant) -> None:
        F, size = v.files, v.files * v.ranks
        self.att_near = [[() for _ in range(size)] for _ in (0, 1)]
        self.att_rays = [[() for _ in range(size)] for _ in (0, 1)]
        self.att_lame = [[() for _ in range(size)] for _ in (0, 1)]
        self.ep_sources = [[() for _ in range(size)] for _ in (0, 1)]
        for colour in (WHITE, BLACK):
            near: dict = {}   # (target, source) -> codes
            rays: dict = {}   # (target, (ux, uy)) -> {distance: codes}
            lame: dict = {}   # (target, source, blockers) -> codes
            eps: dict = {}    # (target, source) -> codes
            for c in range(colour, self.ncodes, 2):
                if not self.valid[c]:
                    continue
                for sq in range(size):
                    for to, blockers, _m, cap, ep in self.reach(c, sq):
                        if ep:
                            eps.setdefault((to, sq), set()).add(c)
                        if cap:
                            self._add_attack(near, rays, lame, c, sq, to, blockers, F)
            table_near = [dict() for _ in range(size)]
            for (to, src), cs in near.items():
                table_near[to][src] = cs
            table_rays = [[] for _ in range(size)]
            for (to, (ux, uy)), by_dist in rays.items():
                far = max(by_dist)
                entries = tuple((to + k * (uy * F + ux), frozenset(by_dist.get(k, ())))
                                for k in range(1, far + 1))
                if far == 1:
                    sq1, cs = entries[0]
                    table_near[to].setdefault(sq1, set()).update(cs)
                else:
                    table_rays[to].append(entries)
            for to in range(size):
                self.att_near[colour][to] = tuple((s, frozenset(cs)) for s, cs in table_near[to].items())
                # longer rays last: short ones find an attacker sooner
                self.att_rays[colour][to] = tuple(sorted(table_rays[to], key=len))
            for (to, src, blockers), cs in lame.items():
                self.att_lame[colour][to] += ((src, blockers, frozenset(cs)),)
            for (to, src), cs in eps.items():
                self.ep_sources[colour][to] += ((src, frozenset(cs)),)

    @staticmethod
    def _add_attack(near, rays, lame, c, src, to, blockers, F) -> None:
        dx, dy = to % F - src % F, to // F - src // F
        g = gcd(abs(dx), abs(dy))
        ux, uy = dx // g, dy // g
        line = tuple(src + k * (uy * F + ux) for k in range(1, g))
        if not blockers and g > 1:  # an unblockable leap
            near.setdefault((to, src), set()).add(c)
        elif blockers == line:  # first piece on the line from the target
            rays.setdefault((to, (-ux, -uy)), {}).setdefault(g, set()).add(c)
        else:
            lame.setdefault((to, src, blockers), set()).add(c)

    # -- hashing -------------------------------------------------------------
    def _zobrist(self, v: Variant) -> None:
        rnd = random.Random(0x6D6F7270)
        size = v.files * v.ranks
        self.zob = [[rnd.getrandbits(64) for _ in range(size)] for _ in range(self.ncodes)]
        self.zob_side = rnd.getrandbits(64)
        self.zob_ep = [rnd.getrandbits(64) for _ in range(size)]
        # The moved-state is hashed only for types with initial moves; castling
        # enters the hash as rights (Position.castle_key), as in FIDE chess.
        self.zob_castle = {key: rnd.getrandbits(64) for key in self.partner_of}
        self.castle_squares = frozenset(self.partner_of.values())
        for t in v.types:
            if any(s.initial for s in t.moves.steps):
                continue
            for colour in (WHITE, BLACK):
                moved, virgin = code(t.index, colour), code(t.index, colour, True)
                self.zob[virgin] = self.zob[moved]
