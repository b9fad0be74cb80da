"""Move tables compiled from a :class:`~morphchess.variant.Variant`.

Pieces on the board are small integers, *codes*::

    code = type_index * 4 + virgin * 2 + colour

so that one table lookup gives everything a piece of that type, colour and
moved-state can do.  Every table below is indexed ``[code][square]`` and holds
only squares on the board, so the move generator in :mod:`morphchess.position`
is a few loops over tuples:

* ``leaps``: plain leaps (move or capture, never blocked);
* ``slides``: rays of plain riders, nearest square first;
* ``specials``: everything else, one entry per target
  ``(to, blockers, can_move, can_capture, can_ep, double_step)``;
* ``morph_to``: the code the piece has after arriving on a square;
* ``promo``: the codes a promoting piece may choose on a square (or None).

For check detection the tables are reversed: ``att_near[colour][sq]`` lists
``(square, codes)`` pairs whose pieces attack ``sq`` whatever stands between,
``att_rays[colour][sq]`` lists rays walked outward from ``sq``, each entry
``(square, codes)`` naming the codes that attack ``sq`` from there when that
square holds the first piece on the ray, and ``att_lame`` the remaining lame
leaps (the knight's ``nN``).
"""

from __future__ import annotations

import random
from math import gcd

from .betza import leap_path
from .variant import BLACK, WHITE, Variant

TRANSFORM = ("t",)


def code(type_index: int, colour: int, virgin: bool = False) -> int:
    return type_index * 4 + (2 if virgin else 0) + colour


class Tables:
    """The compiled tables of one variant (built once, read by every position)."""

    def __init__(self, v: Variant) -> None:
        F, R = v.files, v.ranks
        self.files, self.ranks, self.size = F, R, F * R
        n = 4 * (len(v.types) + 1)
        self.ncodes = n
        has_castling = any(t.moves.castlings for t in v.types)
        has_ep = v.en_passant and any(s.ep for t in v.types for s in t.moves.steps)
        # Types whose moved/unmoved state can matter; the others are always "moved".
        self.tracks_virgin = [False] * (len(v.types) + 1)
        for t in v.types:
            self.tracks_virgin[t.index] = (has_castling or t.moves.castlings != ()
                                           or any(s.initial for s in t.moves.steps))
        self.leaps: list = [None] * n
        self.slides: list = [None] * n
        self.specials: list = [None] * n
        self.morph_to: list = [None] * n
        self.promo: list = [None] * n
        # per code and square: True where promotion choices or duplicate targets need sorting out
        self.fixup: list = [None] * n
        self.castle: list = [()] * n
        self.transform_to: list = [()] * n
        self.royal = [False] * n
        self.resets = [False] * n  # a move of this piece resets the 50-move count
        self.letter = [""] * n
        self.type_of = [0] * n
        self.valid = [False] * n

        def on(f: int, r: int) -> bool:
            return 0 <= f < F and 0 <= r < R

        for t in v.types:
            for colour in (WHITE, BLACK):
                sign = 1 if colour == WHITE else -1
                for virgin in ((False, True) if self.tracks_virgin[t.index] else (False,)):
                    c = code(t.index, colour, virgin)
                    self.valid[c] = True
                    self.type_of[c] = t.index
                    self.royal[c] = t.royal
                    self.resets[c] = v.is_pawn_like(t)
                    self.letter[c] = t.letter if colour == WHITE else t.letter.lower()
                    leaps, slides, specials = [], [], []
                    overlaps = []
                    reach = []
                    for sq in range(F * R):
                        f0, r0 = sq % F, sq // F
                        lp, sl, sp, seen = [], [], [], set()
                        overlap = False
                        for s in t.moves.steps:
                            if s.initial and not virgin:
                                continue
                            dx, dy = s.dx * sign, s.dy * sign
                            if s.rng == 1:
                                if not on(f0 + dx, r0 + dy):
                                    continue
                                to = sq + dy * F + dx
                                blockers = tuple(sq + oy * F + ox for ox, oy in leap_path(dx, dy)) if s.lame else ()
                                double = None
                                if has_ep and s.initial and s.lame and s.move and not s.capture and blockers:
                                    double = ("d", blockers)
                                targets = [to]
                                ep = s.ep and has_ep
                                if s.move and s.capture and not ep and not blockers:
                                    lp.append(to)
                                elif s.move or s.capture or ep:
                                    sp.append((to, blockers, s.move, s.capture, ep, double))
                            else:
                                ray = []
                                k = 1
                                while on(f0 + k * dx, r0 + k * dy) and (s.rng == 0 or k <= s.rng):
                                    ray.append(sq + k * (dy * F + dx))
                                    k += 1
                                if not ray:
                                    continue
                                targets = ray
                                ep = s.ep and has_ep
                                if s.move and s.capture and not ep:
                                    sl.append(tuple(ray))
                                elif s.move or s.capture or ep:
                                    sp.extend((to, tuple(ray[:i]), s.move, s.capture, ep, None)
                                              for i, to in enumerate(ray))
                            for to in targets:
                                overlap |= to in seen
                                seen.add(to)
                        overlaps.append(overlap)
                        reach.append(seen)
                        leaps.append(tuple(lp))
                        slides.append(tuple(sl))
                        specials.append(tuple(sp))
                    self.leaps[c], self.slides[c], self.specials[c] = leaps, slides, specials
                    self.morph_to[c] = self._morphs(v, t, colour)
                    self.promo[c] = self._promotions(v, t, colour)
                    promo = self.promo[c]
                    fix = [o or (promo is not None and any(promo[to] for to in r)) for o, r in zip(overlaps, reach)]
                    self.fixup[c] = fix if any(fix) else None
                    if virgin:
                        self.castle[c] = tuple((cs.steps, side * sign) for cs in t.moves.castlings
                                               for side in cs.sides)
        for group in v.transforms:
            for colour in (WHITE, BLACK):
                for ti in group:
                    others = tuple(code(o, colour) for o in group if o != ti)
                    for virgin in (False, True):
                        c = code(ti, colour, virgin)
                        if self.valid[c]:
                            self.transform_to[c] = others
        # can a non-royal piece become royal (by morph, promotion or transformation)?
        self.royal_morphs = False
        for c in range(n):
            if self.valid[c] and not self.royal[c]:
                becomes = set(self.morph_to[c]) | set(self.transform_to[c])
                for choices in self.promo[c] or ():
                    becomes.update(choices or ())
                self.royal_morphs |= any(self.royal[x] for x in becomes)
        self.partner_of = self._castling_partners(v)
        self.partner_squares = [{sq for (c, _r, _s), sq in self.partner_of.items() if c == colour}
                                for colour in (WHITE, BLACK)]
        self.has_initial = [self.valid[c] and any(s.initial for s in v.type(self.type_of[c]).moves.steps)
                            for c in range(n)]
        self._attack_tables(v)
        self._zobrist(v)

    # -- per-type helpers --------------------------------------------------
    def _morphs(self, v: Variant, t, colour: int) -> list[int]:
        F, R = v.files, v.ranks
        out = []
        for sq in range(F * R):
            target = t.index
            if t.morph is not None:
                look = sq if colour == WHITE else (R - 1 - sq // F) * F + sq % F
                target = t.morph[look] or t.index
            out.append(code(target, colour))
        return out

    def _promotions(self, v: Variant, t, colour: int):
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
                    f0, r0 = sq % F, sq // F
                    for to, blockers, _m, cap, ep, _d in self.specials[c][sq]:
                        if ep:
                            eps.setdefault((to, sq), set()).add(c)
                        if cap:
                            self._add_attack(near, rays, lame, c, sq, to, blockers, F)
                    for to in self.leaps[c][sq]:
                        self._add_attack(near, rays, lame, c, sq, to, (), F)
                    for ray in self.slides[c][sq]:
                        for i, to in enumerate(ray):
                            self._add_attack(near, rays, lame, c, sq, to, ray[:i], F)
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
