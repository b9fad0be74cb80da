"""Evaluation for any variant: piece values from moves and morph-aware piece-square tables.

A piece type's value follows from its moves
(:func:`mobility`): the average number of squares it reaches from a square of
the board, where every square on the way is occupied with probability
:data:`DENSITY` (so a rider's far squares count less than a leaper's, and a
lame leap counts less than a free one), move-only and capture-only moves count
partly, and initial-only moves hardly at all.  :func:`value_of_mobility` maps
that count to centipawns; it is fitted once so that orthodox chess gives about
P 100, N 315, B 355, R 500, Q 940, and every other variant uses the same curve.

A piece that may transform in place (Polymorph) is worth the best of its
forms; its piece-square terms still differ by form, so the search transforms
when the new form suits the square better.

Pieces change shape, so a piece on a square is worth more than its type when
the squares it can reach turn it into something better (a knight on a light
square of Morphomania becomes an archbishop with any move, a pawn near the
last rank becomes a queen).  :class:`EvalTables` computes that value by a few
rounds of looking one move ahead through the morph and promotion tables
(:data:`LOOKAHEAD` is the weight of what the piece can become), adds a small
centralisation term from the per-square mobility, and stores the result as a
signed piece-square table ``pst[code][square]`` (positive for White), so the
search keeps the evaluation up to date by adding three table entries a move.

Where the search takes a static score it adds :meth:`EvalTables.dynamic`, one walk over the
board for what a table cannot know: the game phase of this node (from the material left) that
blends a royal piece's middlegame table (stay home) into its endgame table (centralise), pawn
structure for every pawn-like type (passed, doubled, isolated, supported), the safety of each
royal piece (enemy pieces near it, own pawns in front of it) and pairs of colour-bound pieces.
Their weights are the named terms of :data:`~.config.TERMS`, the same for every variant unless
its configuration (:mod:`.config`) gives it its own.
"""

from __future__ import annotations

import copy
from array import array
from collections.abc import Mapping, Sequence

from ..betza import leap_path
from ..pieces import colour_of
from ..position import Position
from ..variant import BLACK, WHITE, Variant
from .config import TERMS, EngineConfig, changes_shape, config_for

__all__ = ["piece_values", "mobility", "value_of_mobility", "EvalTables", "eval_tables", "game_phase",
           "attack_units"]

DENSITY = 0.3          # chance that a square on a piece's way is occupied
LOOKAHEAD = 0.3        # weight of what a piece can become with its next move
ROUNDS = 4             # how many moves ahead the morph/promotion value looks
CENTRE = 5             # centipawns per reachable square above the piece's average
KING_SHELTER = 12      # middlegame: centipawns a royal piece loses per rank it leaves home
ROYAL_ORDER_VALUE = 2000  # a royal piece as attacker sorts last in capture ordering
QS_GAIN = 150          # a quiet move gaining this much by morph or promotion counts as tactical
PAWN, ROYAL, PIECE, BOUND = 1, 2, 3, 4  # what the dynamic terms see in a code
PAWN_CACHE = 50_000    # pawn structures kept (per variant and process) before the cache is cleared
GUARDED = 1 << 16      # mobility's mark of a square that an enemy pawn-like piece attacks (1: one next to a royal)
NEAR = GUARDED - 1     # the part of a sum of marks that counts squares next to royals
ATTACK_UNITS = 12      # king attack: squares next to royal pieces counted at most


def _within(files: int, ranks: int, d: int) -> list[tuple[int, ...]]:
    """Per square the squares at most ``d`` files and ``d`` ranks away, itself included."""
    return [tuple(y * files + x for y in range(max(0, sq // files - d), min(ranks, sq // files + d + 1))
                      for x in range(max(0, sq % files - d), min(files, sq % files + d + 1)))
            for sq in range(files * ranks)]


def _centred(values: list[float]) -> list[float]:
    """``values`` less their mean."""
    mean = sum(values) / len(values)
    return [x - mean for x in values]


def _square_mobility(v: Variant, t) -> list[float]:
    """Weighted number of squares type ``t`` (as White) reaches from each square."""
    F, R = v.files, v.ranks
    free = 1.0 - DENSITY
    out = []
    for sq in range(F * R):
        f0, r0 = sq % F, sq // F
        m = 0.0
        for s in t.moves.steps:
            w = 1.0 if s.move and s.capture else (0.6 if s.move else 0.5)
            if s.initial:
                w *= 0.15
            if s.rng == 1:
                if 0 <= f0 + s.dx < F and 0 <= r0 + s.dy < R:
                    m += w * free ** (len(leap_path(s.dx, s.dy)) if s.lame else 0)
            else:
                k = 1
                while 0 <= f0 + k * s.dx < F and 0 <= r0 + k * s.dy < R and (s.rng == 0 or k <= s.rng):
                    m += w * free ** (k - 1)
                    k += 1
        out.append(m)
    return out


def mobility(v: Variant, t) -> float:
    """Average weighted number of squares a piece of type ``t`` reaches (see module doc)."""
    per_square = _square_mobility(v, t)
    return sum(per_square) / len(per_square)


def value_of_mobility(m: float) -> int:
    """Centipawns of a piece with mobility ``m`` (one curve for every variant)."""
    return round(30 + 48 * m + 1.2 * m * m)


def piece_values(variant: Variant) -> dict[str, int]:
    """Value in centipawns of each piece type, by letter; royal types are worth 0 (they cannot be lost)."""
    return {t.letter: 0 if t.royal else value_of_mobility(mobility(variant, t)) for t in variant.types}


class EvalTables:
    """Per-code tables the search reads: ``pst`` (signed, White positive), ``value``, ``order_value``,
    ``counts`` (the piece counts as material for the bare-king rule), ``pawnlike`` and
    ``gainers[code][square]`` (some move from there gains at least :data:`QS_GAIN` by changing shape).

    ``phase`` is 1.0 with all pieces on the board and 0.0 in a bare endgame; it blends the royal
    pieces' table from "stay home" to "come to the centre".  Everything else does not depend on
    the phase and is computed once per variant (:func:`eval_tables` keeps it with the variant);
    a table for another phase only recomputes the royal rows.  ``config`` gives the table weights
    (default: the plain :class:`~.config.EngineConfig`; the search's are :func:`~.config.config_for`'s).
    """

    def __init__(self, variant: Variant, phase: float = 1.0, config: EngineConfig | None = None) -> None:
        t = variant.tables
        self.variant = variant
        self.config = w = config or EngineConfig()
        n, size = t.ncodes, t.size
        values = {k: round(v * w.material.get(k, 1.0)) for k, v in piece_values(variant).items()}
        for group in variant.transforms:  # a polymorph can take any of its forms: it is worth the best
            best = max(values[variant.type(i).letter] for i in group)
            values.update((variant.type(i).letter, best) for i in group)
        self.square_mob = {ty.index: _centred(_square_mobility(variant, ty)) for ty in variant.types}
        self.value = [0] * n
        self.order_value = [0] * n
        self.counts = [False] * n
        self.pawnlike = [False] * n
        skip = variant.baring or 0
        for c in range(n):
            if not t.valid[c]:
                continue
            ty = variant.type(t.type_of[c])
            self.value[c] = values[ty.letter]
            self.order_value[c] = ROYAL_ORDER_VALUE if ty.royal else self.value[c]
            self.counts[c] = not ty.royal and ty.index > skip
            self.pawnlike[c] = variant.is_pawn_like(ty)
        self.worth = worth = self._lookahead(t, n, size)
        self.pst = [[0] * size for _ in range(n)]
        for c in range(n):
            if t.valid[c]:
                self.pst[c] = self._row(c, phase, worth[c])
        self._dynamic_tables(variant, n)
        self.gainers = [[False] * size for _ in range(n)]
        for c in range(n):
            if t.valid[c] and not t.royal[c]:
                sign = -1 if colour_of(c) == BLACK else 1
                for sq in range(size):
                    here = self.pst[c][sq]
                    self.gainers[c][sq] = any(sign * (self.pst[x][to] - here) >= QS_GAIN
                                              for to, codes in _targets(t, c, sq) for x in codes)

    def _dynamic_tables(self, variant: Variant, n: int) -> None:
        """What :meth:`dynamic` reads: per code whether it is royal, the phase material it counts,
        whether its type is colour-bound, and a royal row's endgame table less its middlegame one."""
        t = variant.tables
        self.royal = [bool(t.valid[c] and t.royal[c]) for c in range(n)]
        self.phase_value = array("i", [0 if not t.valid[c] or self.royal[c] or self.pawnlike[c] else self.value[c]
                                       for c in range(n)])
        board = Position(variant).board
        start = sum(self.phase_value[p] for p in board if p)
        self.phase_start = start or 1
        self.bound = [False] * n
        for c in range(n):
            if t.valid[c] and not self.royal[c] and not self.pawnlike[c]:
                ty = variant.type(t.type_of[c])
                steps = ty.moves.steps
                self.bound[c] = bool(steps) and not ty.morph and all((s.dx + s.dy) % 2 == 0 for s in steps)
        self.pawn_cache: dict = {}
        self.kind = array("i", [PAWN if self.pawnlike[c] else ROYAL if self.royal[c] else BOUND if self.bound[c]
                                else PIECE for c in range(n)])
        self.colour = array("i", [colour_of(c) for c in range(n)])
        # per bound code one bit for its type and colour (what a pair shares), and the bits of White's
        self.pair_bit = [1 << (c & ~2) if self.bound[c] else 0 for c in range(n)]
        self.white_pairs = 0
        for c in range(0, n, 2):  # White's codes
            self.white_pairs |= self.pair_bit[c]
        F, R = variant.files, variant.ranks
        self.square_colour = array("i", [(sq % F + sq // F) & 1 for sq in range(F * R)])
        self.centre_distance = [round(max(abs(2 * (sq % F) - F + 1), abs(2 * (sq // F) - R + 1)) / 2)
                                for sq in range(F * R)]
        self.zone = _within(F, R, 2)
        self.ring = _within(F, R, 1)
        self.front = [[tuple((sq // F + ahead) * F + x for x in range(max(0, sq % F - 1), min(F, sq % F + 2))
                             if 0 <= sq // F + ahead < R) for sq in range(F * R)] for ahead in (1, -1)]
        w = self.config
        plain = self._mobility_weights(variant, n)
        self.set_mobility([x * w.mobility_types.get(t.letter[c].upper(), 1.0) for c, x in enumerate(plain)],
                          [x * w.mobility_unsafe for x in plain])
        self.pawn_attacks = [[tuple(to for to, blockers, can_move, can_capture, _ep in t.reach(c, sq)
                                    if can_capture and not can_move and not blockers)
                              for sq in range(t.size)] if self.pawnlike[c] else [] for c in range(n)]
        self.term_values = {name: w.term(name) for name in TERMS}
        self.royal_eg = [[e - m for e, m in zip(self._row(c, 0.0, None), self._row(c, 1.0, None))]
                         if self.royal[c] else [] for c in range(n)]
        self.square_eg = self._signed_squares(w.squares_eg) if w.squares_eg else None

    def _signed_squares(self, squares: Mapping[str, list[float]]) -> list[list[float]]:
        """Per code the centipawns of ``squares`` (per piece letter, its own side's view) on each square, White
        positive; 0 for letters without an entry."""
        t = self.variant.tables
        rows = [[0.0] * t.size for _ in range(t.ncodes)]
        for c in range(t.ncodes):
            entry = squares.get(t.letter[c].upper()) if t.valid[c] else None
            if entry:
                sign = -1 if colour_of(c) == BLACK else 1
                rows[c] = [sign * entry[self.own_square(c, sq)] for sq in range(t.size)]
        return rows

    def _mobility_weights(self, variant: Variant, n: int) -> list[float]:
        """Per code the worth of one reachable square relative to the others: ``8 / (m + 4)`` for a
        type reaching ``m`` squares on average (a knight's square counts about twice a queen's); 0 for
        pawn-like and royal pieces, and for pieces that change shape when they move or in place (what
        they reach as they are says little about what they will do: measured, see docs/engine.md)."""
        t = variant.tables
        out = [0.0] * n
        for c in range(n):
            if t.valid[c] and not self.royal[c] and not self.pawnlike[c]:
                ty = variant.type(t.type_of[c])
                if not changes_shape(variant, ty):
                    out[c] = 8 / (mobility(variant, ty) + 4)
        return out

    def set_mobility(self, weight: Sequence[float], unsafe: Sequence[float]) -> None:
        """Per code the worth of a reachable square, and of one an enemy pawn-like piece attacks."""
        self.mobility_weight, self.mobility_unsafe = array("d", weight), array("d", unsafe)
        self.unsafe_apart = list(unsafe) != list(weight)  # only then does mobility look for the pawns' squares

    def mobility(self, pos: Position) -> tuple[float, list[int], list[int]]:
        """Squares the pieces (not pawn-like or royal) reach, empty or enemy, by leaps and slides
        (:meth:`~morphchess.position.Position.reach_marks`), each weighed by :meth:`_mobility_weights` times
        the type's ``mobility_types`` multiplier, or where an enemy pawn-like piece attacks the square by
        ``mobility_unsafe`` instead (White positive); and per colour how many of those squares lie next to
        the other side's royal pieces and how many pieces reach one."""
        weight, unsafe, colour, kind = self.mobility_weight, self.mobility_unsafe, self.colour, self.kind
        board = pos.board
        size = len(board)
        marks = ([0] * size, [0] * size)  # per colour and square: 1 next to an enemy royal, + GUARDED
        for side in (0, 1):
            mark = marks[side]
            for r in pos.royals[side ^ 1]:
                for s in self.ring[r]:
                    mark[s] = 1
        if self.unsafe_apart:
            for sq in range(size):
                p = board[sq]
                if p and kind[p] == PAWN:
                    mark = marks[colour[p] ^ 1]
                    for s in self.pawn_attacks[p][sq]:
                        mark[s] |= GUARDED
        units = [0, 0]
        attackers = [0, 0]
        score = 0.0
        for sq in range(size):
            p = board[sq]
            if p and (weight[p] or unsafe[p]):
                mine = colour[p]
                n, tags = pos.reach_marks(sq, marks[mine])  # squares reached; the sum of their marks
                bad = tags // GUARDED
                worth = weight[p] * (n - bad) + unsafe[p] * bad
                score += worth if mine == WHITE else -worth
                near = tags & NEAR
                if near:
                    units[mine] += near
                    attackers[mine] += 1
        return score, units, attackers

    def mopup(self, board: list[int]) -> int:
        """Against a side left with royal pieces alone: the other side gains 10 a step that the
        lone royal piece stands from the centre and 4 a step its own royal pieces come closer
        (White positive), so that a won ending is driven to mate."""
        F = self.variant.files
        centre = self.centre_distance
        royals: tuple[list, list] = ([], [])
        others = [0, 0]
        colour = self.colour
        for sq in range(len(board)):
            p = board[sq]
            if p:
                if self.royal[p]:
                    royals[colour[p]].append(sq)
                else:
                    others[colour[p]] += 1
        score = 0
        for lone in (0, 1):
            if others[lone] or not others[lone ^ 1] or not royals[lone]:
                continue
            sign = -1 if lone == 0 else 1
            for sq in royals[lone]:
                near = min((max(abs(sq % F - r % F), abs(sq // F - r // F)) for r in royals[lone ^ 1]),
                           default=0)
                score += sign * (10 * centre[sq] - 4 * near)
        return score

    def phase(self, board: list[int]) -> float:
        """1.0 while the pieces other than pawns and royals are worth what they are at the start, falling to 0."""
        pv = self.phase_value
        return min(1.0, sum(pv[p] for p in board if p) / self.phase_start)

    def dynamic(self, board: Sequence[int], root_phase: bool = False) -> int:
        """The terms of :data:`TERMS` for a board, White positive, weighted by the node's phase (see the
        module doc); with ``root_phase`` the royal tables stay the ones the search started with."""
        w = self.term_values
        kind, pv, side_of, pair_bit = self.kind, self.phase_value, self.colour, self.pair_bit
        size = len(board)
        pawns = bytearray(size)  # per square 1 for a White pawn-like piece, 2 for a Black one
        royals = []              # squares of royal pieces, in board order
        light = dark = 0         # the pair bits of the bound pieces on each colour of square
        heavy = 0
        for sq in range(size):
            p = board[sq]
            if p:
                k = kind[p]
                if k == PAWN:
                    pawns[sq] = 1 + side_of[p]
                elif k == ROYAL:
                    royals.append(sq)
                else:
                    heavy += pv[p]
                    if k == BOUND:
                        if self.square_colour[sq]:
                            dark |= pair_bit[p]
                        else:
                            light |= pair_bit[p]
        phase = min(1.0, heavy / self.phase_start)
        mg, eg = self._pawn_terms(bytes(pawns))
        attackers, shelters = w["royal_attackers"], w["royal_shelter"]
        for colour in (0, 1):
            sign = 1 if colour == 0 else -1
            for sq in royals:
                if side_of[board[sq]] == colour:
                    near = self._near_pieces(board, sq, colour ^ 1)
                    shelter = _count_marked(self.front[colour][sq], pawns, 1 + colour)
                    mg += sign * (attackers * near + shelters * shelter)
        both = light & dark
        pairs = (both & self.white_pairs).bit_count() - (both & ~self.white_pairs).bit_count()
        if self.square_eg is not None:
            eg += _table_sum(self.square_eg, board)
        score = phase * mg + (1 - phase) * eg + w["pair"] * pairs
        if w["taper"] and not root_phase:
            for colour in (0, 1):
                for sq in royals:
                    p = board[sq]
                    if side_of[p] == colour:
                        score += (1 - phase) * self.royal_eg[p][sq]
        return round(score)

    def _near_pieces(self, board: Sequence[int], sq: int, them: int) -> int:
        """How many pieces of ``them`` (not pawn-like or royal) stand at most two files and ranks from ``sq``."""
        kind, side_of = self.kind, self.colour
        n = 0
        for s in self.zone[sq]:
            p = board[s]
            if p and kind[p] >= PIECE and side_of[p] == them:
                n += 1
        return n

    def _pawn_terms(self, pawns: bytes) -> tuple[float, float]:
        """:meth:`_pawn_structure` of the pawn-like pieces marked in ``pawns``, kept in ``pawn_cache``."""
        cached = self.pawn_cache.get(pawns)
        if cached is None:
            if len(self.pawn_cache) >= PAWN_CACHE:
                self.pawn_cache.clear()
            cached = self.pawn_cache[pawns] = self._pawn_structure(pawns, self.variant.files, self.variant.ranks)
        return cached

    def _pawn_structure(self, pawns: bytes, files: int, ranks: int) -> tuple[float, float]:
        """Middlegame and endgame score (White positive) of the pawn-like pieces (``pawns``: per square 1
        for a White one, 2 for a Black one): passed (by progress squared), doubled, isolated, supported."""
        w = self.term_values
        passed_mg, passed_eg = w["passed_mg"], w["passed_eg"]
        doubled, isolated, supported = w["doubled"], w["isolated"], w["supported"]
        count = ([0] * (files + 2), [0] * (files + 2))   # per file, with a sentinel file each side
        most_white = [ranks] * (files + 2)   # lowest rank of a White pawn per file
        most_black = [-1] * (files + 2)      # highest rank of a Black pawn per file
        for sq in range(len(pawns)):
            f, r = sq % files + 1, sq // files
            if pawns[sq] == 1:
                count[0][f] += 1
                most_white[f] = min(most_white[f], r)
            elif pawns[sq] == 2:
                count[1][f] += 1
                most_black[f] = max(most_black[f], r)
        mg = eg = 0.0
        top = max(ranks - 1, 1)
        for colour in (0, 1):
            sign = 1 if colour == 0 else -1
            behind = -files if colour == 0 else files
            cnt = count[colour]
            for sq in range(len(pawns)):
                if pawns[sq] != 1 + colour:
                    continue
                f, r = sq % files + 1, sq // files
                if colour == 0:
                    free = most_black[f - 1] <= r and most_black[f] <= r and most_black[f + 1] <= r
                    progress = r / top
                else:
                    free = most_white[f - 1] >= r and most_white[f] >= r and most_white[f + 1] >= r
                    progress = (ranks - 1 - r) / top
                s_mg = s_eg = 0.0
                if free:
                    s_mg += passed_mg * progress * progress
                    s_eg += passed_eg * progress * progress
                if not cnt[f - 1] and not cnt[f + 1]:
                    s_mg += isolated
                    s_eg += isolated
                back = sq + behind
                mark = 1 + colour
                if (f > 1 and _marked(pawns, back - 1, mark)) or (f < files and _marked(pawns, back + 1, mark)):
                    s_mg += supported
                    s_eg += supported
                mg += sign * s_mg
                eg += sign * s_eg
            extra = 0
            for c in cnt:
                if c > 1:
                    extra += c - 1
            mg += sign * doubled * extra
            eg += sign * doubled * extra
        return mg, eg

    def rephased(self, phase: float) -> EvalTables:
        """These tables with the royal rows for ``phase`` (the other rows are shared)."""
        other = copy.copy(self)
        t = self.variant.tables
        other.pst = [self._row(c, phase, None) if t.valid[c] and t.royal[c] else row
                     for c, row in enumerate(self.pst)]
        return other

    def _row(self, c: int, phase: float, worth: list[float] | None) -> list[int]:
        """The signed piece-square row of code ``c``: its weighted :meth:`terms` summed, and its type's
        fitted ``squares``."""
        w = self.config
        t = self.variant.tables
        sign = -1 if colour_of(c) == BLACK else 1
        squares = w.squares.get(t.letter[c].upper())
        row = []
        for sq in range(t.size):
            material, ahead, centre, king = self.terms(c, sq, phase, worth)
            extra = squares[self.own_square(c, sq)] if squares else 0.0
            row.append(sign * round(material + w.lookahead * ahead + w.centre * centre + w.king * king + extra))
        return row

    def own_square(self, c: int, sq: int) -> int:
        """``sq`` as code ``c``'s side sees it, numbered as White's (Black's ranks mirrored)."""
        files, ranks = self.variant.files, self.variant.ranks
        return sq if colour_of(c) != BLACK else (ranks - 1 - sq // files) * files + sq % files

    def terms(self, c: int, sq: int, phase: float, worth: list[float] | None) -> tuple[float, float, float, float]:
        """Unweighted parts of code ``c``'s worth on ``sq`` (own colour's view): type value, lookahead
        gain (``worth``, the :meth:`_lookahead` row, minus the value), centralisation, and for a royal
        piece the phase's blend of shelter and centralisation."""
        t = self.variant.tables
        ty = self.variant.type(t.type_of[c])
        mob = self.square_mob[ty.index]
        own = self.own_square(c, sq)  # the per-square mobility is White's
        own_rank = own // t.files
        centre = CENTRE * mob[own]
        if ty.royal:
            return 0.0, 0.0, 0.0, (1 - phase) * centre - phase * KING_SHELTER * own_rank
        value = self.value[c]
        ahead = worth[sq] - value if worth else 0.0
        return value, ahead, 0.0 if self.pawnlike[c] else centre, 0.0

    def _lookahead(self, t, n: int, size: int) -> list[list[float]]:
        """Value of each code on each square, counting what it can turn into on the squares it reaches."""
        base = [float(v) for v in self.value]
        reach: list[list[list[tuple[int, tuple]]] | None] = [None] * n
        for c in range(n):
            if t.valid[c] and not t.royal[c]:
                reach[c] = [_targets(t, c, sq) for sq in range(size)]
        worth = [[base[c]] * size for c in range(n)]
        for _ in range(ROUNDS):
            new = [row[:] for row in worth]
            for c in range(n):
                targets = reach[c]
                if targets is None:
                    continue
                for sq in range(size):
                    outcomes = [max(worth[x][to] for x in codes) for to, codes in targets[sq]]
                    if outcomes:
                        ahead = 0.5 * (sum(outcomes) / len(outcomes)) + 0.5 * max(outcomes)
                        new[c][sq] = (1 - LOOKAHEAD) * base[c] + LOOKAHEAD * ahead
            worth = new
        return worth

    def morph_gain(self, pos: Position, safe: bool = False) -> int:
        """The most the side to move gains by one quiet move that changes shape (the tables' gain; with
        ``safe`` only to squares the other side does not attack): in games where nearly every move
        does, who moved last would otherwise swing a static score (the search's ``tempo``)."""
        b = pos.board
        pst = self.pst
        sign = 1 if pos.turn == 0 else -1
        best = 0
        for m in pos.captures(self.gainers):
            g = sign * (pst[m.piece][m.target] - pst[b[m.origin]][m.origin])
            if g > best and pos.capture_square(m) is None and not (safe and pos.attacked(m.target, pos.turn ^ 1)):
                best = g
        return best

    def evaluate(self, board: list[int]) -> int:
        """Static score of a board from White's point of view (the search updates it incrementally)."""
        return _table_sum(self.pst, board)


def attack_units(units: list[int], attackers: list[int]) -> list[int]:
    """Per colour the king attack the ``attack`` weight multiplies, from :meth:`EvalTables.mobility`'s
    counts: the squared number of squares next to enemy royal pieces its pieces reach (at most
    :data:`ATTACK_UNITS`), when at least two pieces reach one, else 0."""
    out = [0, 0]
    for colour in (0, 1):
        if attackers[colour] >= 2:
            out[colour] = min(units[colour], ATTACK_UNITS) ** 2
    return out


def _marked(marks: bytes | bytearray, sq: int, mark: int) -> bool:
    """Is ``sq`` a square of the board ``marks`` covers, marked ``mark``?"""
    return 0 <= sq < len(marks) and marks[sq] == mark


def _count_marked(squares: tuple[int, ...], marks: bytes | bytearray, mark: int) -> int:
    """How many of ``squares`` are marked ``mark`` in ``marks``."""
    n = 0
    for x in squares:
        if marks[x] == mark:
            n += 1
    return n


def _table_sum(rows: list, board: Sequence[int]):
    """The sum of ``rows[piece][square]`` over the pieces on ``board``, in square order."""
    total = 0
    for sq in range(len(board)):
        p = board[sq]
        if p:
            total += rows[p][sq]
    return total


def _targets(t, c: int, sq: int) -> list[tuple[int, tuple]]:
    """Squares code ``c`` reaches from ``sq`` on an empty board, each with the codes it may become there."""
    targets = {to for to, _blockers, _move, _capture, _ep in t.reach(c, sq)}
    return [(to, t.becomes(c, to)) for to in targets]


def eval_tables(variant: Variant, phase: float) -> EvalTables:
    """The tables of a variant for a phase rounded to tenths, kept with the variant: the full tables
    are built once (phase 1.0), the other phases reuse them with their own royal rows."""
    phase = round(phase, 1)
    base = variant.derived(("eval tables", 1.0), lambda: EvalTables(variant, 1.0, config=config_for(variant)))
    if phase == 1.0:
        return base
    return variant.derived(("eval tables", phase), lambda: base.rephased(phase))


def game_phase(variant: Variant, board: list[int]) -> float:
    """1.0 when the non-pawn material on the board is at least that of the start, falling to 0."""
    t = variant.tables
    values = piece_values(variant)

    def heavy(b):
        return sum(values[t.letter[p].upper()] for p in b
                   if p and not t.royal[p] and not variant.is_pawn_like(variant.type(t.type_of[p])))
    start = heavy(Position(variant).board)
    return min(1.0, heavy(board) / start) if start else 0.0
