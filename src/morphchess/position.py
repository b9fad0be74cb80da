"""Positions: make/unmake, legal move generation, check, hashing, outcome.

A move is a tuple ``(from, to, new_code, special)``: ``new_code`` is the piece
the mover is after the move (morphed, promoted or transformed), so undo,
hashing and notation all see the change.  ``special`` is None for most moves,
else one of

* ``("d", squares)``: a lame initial step that leaves en-passant squares;
* ``("x", victim)``: an en-passant capture of the piece on ``victim``;
* ``("O", partner_from, partner_to, partner_code)``: castling;
* ``("t",)``: a transformation in place (``from == to``).

The public, python-chess-like :class:`morphchess.board.Board` wraps this class;
use :class:`Position` directly where speed matters (perft, search).
"""

from __future__ import annotations

from dataclasses import dataclass

from .tables import TRANSFORM, code
from .variant import BLACK, WHITE, Variant

__all__ = ["Position", "Outcome"]

Move = tuple


@dataclass(frozen=True)
class Outcome:
    """How a game ended: ``winner`` is WHITE (0), BLACK (1) or None for a draw."""

    termination: str  # checkmate, stalemate, bare king, fifty moves, repetition, insufficient material
    winner: int | None

    def result(self) -> str:
        return "1/2-1/2" if self.winner is None else ("1-0" if self.winner == WHITE else "0-1")

    def __str__(self) -> str:
        who = "draw" if self.winner is None else ("White wins" if self.winner == WHITE else "Black wins")
        return f"{who} by {self.termination} ({self.result()})"


class Position:
    """A position of a variant, changed in place by :meth:`make` and :meth:`unmake`."""

    __slots__ = ("variant", "t", "board", "turn", "ep", "halfmove", "fullmove", "hash", "royals", "rights",
                 "_stack")

    def __init__(self, variant: Variant, setup: str = "standard") -> None:
        if setup not in variant.setups:
            raise ValueError(f"{variant.name} has no setup {setup!r}; it has: {', '.join(variant.setups)}")
        self.variant = variant
        self.t = t = variant.tables
        self.board = [0] * t.size
        for sq, (ti, colour) in variant.setups[setup].items():
            self.board[sq] = code(ti, colour, t.tracks_virgin[ti])
        self.turn = WHITE
        self.ep = None  # (squares, victim, hash part) after a double step
        self.halfmove = 0
        self.fullmove = 1
        self._stack: list = []
        self.refresh()

    def refresh(self) -> None:
        """Recompute the royal squares and the hash from the board (after editing it directly)."""
        t = self.t
        roy = ([], [])
        h = t.zob_side if self.turn == BLACK else 0
        for sq, p in enumerate(self.board):
            if p:
                h ^= t.zob[p][sq]
                if t.royal[p]:
                    roy[p & 1].append(sq)
        if self.ep:
            h ^= self.ep[2]
        self.royals = (tuple(roy[0]), tuple(roy[1]))
        self.rights = self.castle_key()
        self.hash = h ^ self.rights

    def castle_key(self) -> int:
        """Hash part of the castling rights: an unmoved castling king and an unmoved partner."""
        t = self.t
        b = self.board
        F = t.files
        key = 0
        for (colour, rank, side), ps in t.partner_of.items():
            if b[ps] & 3 == 2 | colour:
                for r in self.royals[colour]:
                    k = b[r]
                    if k & 2 and r // F == rank and t.castle[k] and (ps % F - r % F) * side > 0:
                        key ^= t.zob_castle[(colour, rank, side)]
                        break
        return key

    def ep_key(self, squares: tuple, capturer: int) -> int:
        """Hash part of en-passant squares: only squares a piece of ``capturer`` could take on count
        (so that the position after a double step repeats as in FIDE rules)."""
        t = self.t
        b = self.board
        key = 0
        for s in squares:
            for src, codes in t.ep_sources[capturer][s]:
                if b[src] in codes:
                    key ^= t.zob_ep[s]
                    break
        return key

    def copy(self) -> "Position":
        p = Position.__new__(Position)
        for name in Position.__slots__:
            setattr(p, name, getattr(self, name))
        p.board = self.board[:]
        p._stack = self._stack[:]
        return p

    # -- attacks -----------------------------------------------------------------
    def attacked(self, sq: int, by: int) -> bool:
        """Is ``sq`` attacked by a piece of colour ``by``?"""
        b = self.board
        t = self.t
        for src, codes in t.att_near[by][sq]:
            if b[src] in codes:
                return True
        for ray in t.att_rays[by][sq]:
            for s, codes in ray:
                p = b[s]
                if p:
                    if p in codes:
                        return True
                    break
        for src, blockers, codes in t.att_lame[by][sq]:
            if b[src] in codes and not any(b[x] for x in blockers):
                return True
        return False

    def in_check(self) -> bool:
        """Is any royal piece of the side to move attacked?"""
        them = self.turn ^ 1
        return any(self.attacked(r, them) for r in self.royals[self.turn])

    def _pinned(self, us: int) -> set:
        """Own pieces that may shield a royal piece (a superset of the pinned ones)."""
        b = self.board
        t = self.t
        them = us ^ 1
        out = set()
        for r in self.royals[us]:
            for ray in t.att_rays[them][r]:
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
            for src, blockers, codes in t.att_lame[them][r]:
                if b[src] in codes:
                    out.update(x for x in blockers if b[x])
        return out

    # -- move generation -------------------------------------------------------
    def pseudo_moves(self) -> list:
        """Moves that obey the pieces' rules, ignoring check and castling."""
        b = self.board
        us = self.turn
        t = self.t
        leaps, slides, specials, morph_to, fixup, transform_to = (
            t.leaps, t.slides, t.specials, t.morph_to, t.fixup, t.transform_to)
        ep = self.ep
        out = []
        add = out.append
        for sq, p in enumerate(b):
            if not p or (p & 1) != us:
                continue
            mt = morph_to[p]
            start = len(out)
            for to in leaps[p][sq]:
                q = b[to]
                if not q or (q & 1) != us:
                    add((sq, to, mt[to], None))
            for ray in slides[p][sq]:
                for to in ray:
                    q = b[to]
                    if q:
                        if (q & 1) != us:
                            add((sq, to, mt[to], None))
                        break
                    add((sq, to, mt[to], None))
            for to, blockers, can_move, can_capture, can_ep, double in specials[p][sq]:
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
                        add((sq, to, mt[to], ("x", ep[1])))
                    elif can_move:
                        add((sq, to, mt[to], double))
                elif can_capture and (q & 1) != us:
                    add((sq, to, mt[to], None))
            fix = fixup[p]
            if fix and fix[sq]:
                self._fixup(out, start, p)
            for c in transform_to[p]:
                add((sq, sq, c, TRANSFORM))
        return out

    def _fixup(self, out: list, start: int, p: int) -> None:
        """Drop duplicate targets and expand promotion choices of the moves ``out[start:]``."""
        promo = self.t.promo[p]
        seen = set()
        fixed = []
        for m in out[start:]:
            key = (m[1], m[3])
            if key in seen:
                continue
            seen.add(key)
            choices = promo[m[1]] if promo else None
            if choices:
                fixed.extend((m[0], m[1], c, m[3]) for c in choices)
            else:
                fixed.append(m)
        out[start:] = fixed

    def legal_moves(self) -> list:
        """All legal moves of the side to move."""
        us = self.turn
        them = us ^ 1
        moves = self.pseudo_moves()
        royals = self.royals[us]
        if not royals:
            return moves
        checked = False
        for r in royals:
            if self.attacked(r, them):
                checked = True
                break
        if checked or self.t.royal_morphs:
            return [m for m in moves if self._safe(m)]
        risky = self._pinned(us)
        risky.update(royals)
        legal = [m for m in moves if (m[0] not in risky and (m[3] is None or m[3][0] != "x")) or self._safe(m)]
        for r in royals:
            p = self.board[r]
            if self.t.castle[p]:
                self._castlings(r, p, legal)
        return legal

    def _safe(self, m: Move) -> bool:
        """Does the move leave every royal piece of the mover unattacked?"""
        us = self.turn
        self.make(m)
        ok = True
        for r in self.royals[us]:
            if self.attacked(r, us ^ 1):
                ok = False
                break
        self.unmake()
        return ok

    def _castlings(self, k: int, king: int, out: list) -> None:
        b = self.board
        t = self.t
        F = t.files
        us = king & 1
        f0 = k % F
        for steps, side in t.castle[king]:
            partner = t.partner_of.get((us, k // F, side), -1)
            if partner < 0 or (partner % F - f0) * side <= steps:
                continue
            p = b[partner]
            if (p & 1) != us or not p & 2:
                continue
            if any(b[s] for s in range(k + side, partner, side)):
                continue
            dest = k + side * steps
            b[k] = 0
            passes = True
            for i in range(1, steps):
                s = k + side * i
                b[s] = king
                hit = self.attacked(s, us ^ 1)
                b[s] = 0
                if hit:
                    passes = False
                    break
            b[k] = king
            if not passes:
                continue
            m = (k, dest, t.morph_to[king][dest], ("O", partner, dest - side, p & ~2))
            if self._safe(m):
                out.append(m)

    # -- make / unmake ---------------------------------------------------------
    def make(self, m: Move) -> None:
        """Play a move (legal or at least pseudo-legal) on this position."""
        frm, to, new, special = m
        b = self.board
        t = self.t
        z = t.zob
        piece = b[frm]
        cap = b[to]
        us = self.turn
        ep = self.ep
        saved = (m, piece, cap, ep, self.halfmove, self.hash, self.royals, self.rights)
        h = self.hash ^ t.zob_side ^ z[piece][frm] ^ z[new][to]
        if ep:
            h ^= ep[2]
            self.ep = None
        if special is None:
            b[frm] = 0
            b[to] = new
            if cap:
                h ^= z[cap][to]
                self.halfmove = 0
            elif t.resets[piece] or (new >> 2) != (piece >> 2):
                self.halfmove = 0
            else:
                self.halfmove += 1
        else:
            kind = special[0]
            if kind == "t":
                cap = 0
                b[frm] = new
                self.halfmove += 1
            else:
                b[frm] = 0
                b[to] = new
                if cap:
                    h ^= z[cap][to]
                if kind == "d":
                    eph = self.ep_key(special[1], us ^ 1)
                    self.ep = (special[1], to, eph)
                    h ^= eph
                elif kind == "x":
                    victim = special[1]
                    cap = b[victim]
                    b[victim] = 0
                    h ^= z[cap][victim]
                elif kind == "O":
                    _, pfrom, pto, pnew = special
                    h ^= z[b[pfrom]][pfrom] ^ z[pnew][pto]
                    b[pfrom] = 0
                    b[pto] = pnew
                if cap or t.resets[piece] or kind == "x" or (new >> 2) != (piece >> 2):
                    self.halfmove = 0
                else:
                    self.halfmove += 1
        royal = t.royal
        if royal[piece] or royal[new] or (cap and royal[cap]):
            self._move_royals(frm, to, piece, new, cap, us)
        rights = self.rights
        if rights and (royal[piece] or frm in t.castle_squares or to in t.castle_squares):
            self.rights = self.castle_key()
            h ^= rights ^ self.rights
        if us == BLACK:
            self.fullmove += 1
        self.turn = us ^ 1
        self.hash = h
        if cap != saved[2]:  # en passant: the victim stood elsewhere
            saved = saved[:2] + (cap,) + saved[3:]
        self._stack.append(saved)

    def _move_royals(self, frm: int, to: int, piece: int, new: int, cap: int, us: int) -> None:
        royal = self.t.royal
        mine = [s for s in self.royals[us] if s != frm or not royal[piece]]
        if royal[new]:
            mine.append(to)
        theirs = self.royals[us ^ 1]
        if cap and royal[cap]:  # only in broken positions; keeps the state consistent
            theirs = tuple(s for s in theirs if s != to)
        self.royals = (tuple(mine), theirs) if us == WHITE else (theirs, tuple(mine))

    def unmake(self) -> None:
        """Take back the last move made with :meth:`make`."""
        m, piece, cap, ep, half, h, royals, rights = self._stack.pop()
        frm, to, _new, special = m
        b = self.board
        if special is None:
            b[to] = cap
            b[frm] = piece
        else:
            kind = special[0]
            if kind == "x":
                b[to] = 0
                b[special[1]] = cap
            elif kind == "O":
                b[to] = 0
                b[special[2]] = 0
                b[special[1]] = special[3] | 2
            else:
                b[to] = cap
            b[frm] = piece
        self.turn ^= 1
        if self.turn == BLACK:
            self.fullmove -= 1
        self.ep = ep
        self.halfmove = half
        self.hash = h
        self.royals = royals
        self.rights = rights

    # -- end of game -------------------------------------------------------------
    def material(self, colour: int) -> list[int]:
        """Squares of the pieces of ``colour`` that count against the bare-king rule."""
        t = self.t
        skip = self.variant.baring or 0
        return [sq for sq, p in enumerate(self.board)
                if p and (p & 1) == colour and not t.royal[p] and t.type_of[p] > skip]

    def history(self) -> list[int]:
        """Hashes of the positions before each move made since the position was set up, oldest first."""
        return [entry[5] for entry in self._stack]

    def repetitions(self) -> int:
        """How often the current position has occurred since the position was set up."""
        n = 1
        h = self.hash
        back = min(self.halfmove, len(self._stack))
        for i in range(2, back + 1, 2):
            if self._stack[-i][5] == h:
                n += 1
        return n

    def outcome(self, legal: list | None = None) -> Outcome | None:
        """The result if the game is over in this position, else None.

        Order: bare king, then checkmate/stalemate, then the draws (fifty moves,
        repetition, kings only), each switchable in the variant.
        """
        v = self.variant
        us, them = self.turn, self.turn ^ 1
        if legal is None:
            legal = self.legal_moves()
        if v.baring is not None:
            mine, theirs = self.material(us), self.material(them)
            if not mine and not theirs:
                return Outcome("bare king", None)
            if not theirs:  # the side that just moved is bare: it lost
                return Outcome("bare king", us)
            if not mine:
                if v.bare_king_immediate or len(theirs) > 1 or not any(
                        m[1] == theirs[0] or (m[3] is not None and m[3][0] == "x" and m[3][1] == theirs[0])
                        for m in legal):
                    return Outcome("bare king", them)
        if not legal:
            if self.in_check():
                return Outcome("checkmate", them)
            return Outcome("stalemate", them if v.stalemate_loses else None)
        if v.fifty_moves and self.halfmove >= 2 * v.fifty_moves:
            return Outcome("fifty moves", None)
        if v.repetitions and self.repetitions() >= v.repetitions:
            return Outcome("repetition", None)
        if all(not p or self.t.royal[p] for p in self.board):
            return Outcome("insufficient material", None)
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
