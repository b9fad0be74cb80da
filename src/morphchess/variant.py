"""Variant: the board, the piece types and every rule a game needs.

A :class:`Variant` is plain data, usually made by :func:`morphchess.idiagram.load`
from Interactive Diagram text, which freezes it (:meth:`Variant.freeze`): its
move tables are compiled on first use (:attr:`Variant.tables`, see
:mod:`morphchess.tables`) and could not follow a later change, so a frozen
variant refuses changes.  Data derived from it (the engine's tables) lives in
:meth:`Variant.derived`, so it can neither outlive nor confuse its variant.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from types import MappingProxyType
from typing import Any, NamedTuple

from .betza import PieceMoves
from .connection import Connection
from .errors import InputError, quote
from .pieces import BLACK, WHITE, code
from .shuffle import shuffled
from .tables import Tables

__all__ = ["VariantError", "PieceType", "PromoLimit", "Variant", "WHITE", "BLACK"]


class VariantError(InputError):
    """A definition that cannot be used; the message names the item at fault and why."""


class _Freezable:
    """Refuses attribute changes once :meth:`_freeze_fields` has run."""

    def __setattr__(self, name: str, value: Any) -> None:
        if self.__dict__.get("_frozen"):
            raise AttributeError(f"{type(self).__name__} {getattr(self, 'name', '')!r} is frozen: "
                                 f"load a new definition instead of changing {name!r}")
        super().__setattr__(name, value)

    def _freeze_fields(self, **values: Any) -> None:
        self.__dict__.update(values, _frozen=True)


class PromoLimit(NamedTuple):
    """Where a promotion choice may be taken (promoChoice's ``!``, ``*`` and rank count)."""

    not_last_rank: bool = False  # '!': not on the last rank (there the piece must choose another)
    from_hand: bool = False  # '*': only while a piece of that type is in the promoting side's hand
    depth: int = 0  # only on the last ``depth`` ranks; 0: the whole zone


@dataclass(eq=False)
class PieceType(_Freezable):
    """One piece type.  ``index`` counts from 1 in definition order (``maxPromote`` uses it)."""

    index: int
    name: str
    letter: str
    betza: str
    moves: PieceMoves
    image: str = ""
    royal: bool = False
    # What the type becomes on each square (square index -> type index), from
    # White's point of view; None: the type never morphs.
    morph: Sequence[int | None] | None = None


@dataclass(eq=False)
class Variant(_Freezable):
    """A chess variant: geometry, piece types, setups and end-of-game rules.

    Squares are numbered ``rank * files + file`` from a1 = 0.
    """

    name: str
    files: int
    ranks: int
    types: Sequence[PieceType]
    # setup name -> {square: (type index, colour)}; "standard" is the default.
    setups: Mapping[str, Mapping[int, tuple[int, int]]]
    promo_zone: int = 1
    promo_choice: Sequence[int] = field(default_factory=list)
    max_promote: int = 1
    stalemate_loses: bool = False
    baring: int | None = None  # None: no bare-king rule; n: types 1..n do not count as material
    bare_king_immediate: bool = False
    en_passant: bool = True  # False: 'e' captures are switched off (key enPassant=0)
    fifty_moves: int = 50  # 0 switches the rule off
    repetitions: int = 3  # 0 switches the rule off
    transforms: Sequence[Sequence[int]] = field(default_factory=list)
    # Squares that are not on the board (the ID's "hole" lines); no piece enters or crosses them.
    holes: frozenset[int] = frozenset()
    # Pieces in hand at the start, per colour: {type index: count}; holdings_type is the ID's
    # holdingsType (0: captured pieces vanish, > 0: to their owner's hand, < 0: to the capturer's,
    # -1 demoted by promo_offset); captures_to_hand = holdings_type != 0.
    holdings: Sequence[Mapping[int, int]] = field(default_factory=lambda: ({}, {}))
    holdings_type: int = 0
    captures_to_hand: bool = False
    promo_offset: int = 0  # shogi style: type n (n <= max_promote) promotes to type n + promo_offset
    # Fairy-Stockfish's shogi style (promotedPieceType): a move that starts or ends in the zone may
    # promote, with or without hands (offset_either_end); with offset_forced it must
    # (mandatoryPiecePromotion); with immobility_illegal no move that keeps the type leaves a piece
    # where it has no move (immobilityIllegal)
    offset_either_end: bool = False
    offset_forced: bool = False
    immobility_illegal: bool = False
    # Drop rules (Fairy-Stockfish's dropNoDoubled, dropNoDoubledCount, shogiPawnDropMateIllegal): a
    # piece of type no_doubled (0: none) is not dropped on a file where no_doubled_count of its side's
    # stand; a checkmate by dropping a piece of type drop_mate_loses (0: none) loses for the dropper
    no_doubled: int = 0
    no_doubled_count: int = 1
    drop_mate_loses: int = 0
    # types dropped also where they have no move (Fairy-Stockfish without immobilityIllegal, but its pawns)
    stuck_drops: Sequence[int] = ()
    promo_limits: Mapping[int, PromoLimit] = field(default_factory=dict)
    # promotion is forced in the whole zone unless the own type is a choice, as the ID makes it;
    # Fairy-Stockfish's optional zones (mandatoryPawnPromotion = false) force it on the last rank only
    promo_forced: bool = True
    # Fairy-Stockfish's doubleStepRegion: type index -> (White's squares, Black's squares) where a
    # piece of the type counts as unmoved whenever it stands there, and nowhere else once it moved
    # (a pawn dropped on the first rank double-steps from the second); empty: the ID's rule
    initial_region: Mapping[int, tuple[frozenset[int], frozenset[int]]] = field(default_factory=dict)
    # Castling as Fairy-Stockfish's keys give it: (colour, side -1 or 1) -> (the king's steps, the
    # partner's square); when given, it replaces the sides, lengths and partners of the XBetza O move
    castling: Mapping[tuple[int, int], tuple[int, int]] = field(default_factory=dict)
    # Type indices named by protected=, counterStrike=, iron=, extinction=, succession=.
    protected: Sequence[int] = ()
    counter_strike: Sequence[int] = ()
    iron: Sequence[int] = ()
    extinction: Sequence[int] = ()
    succession: Sequence[int] = ()
    shuffle: Sequence[str] = ()  # shuffle= groups, applied in turn (setup "shuffle-SEED")
    # Zones (morphchess's confine=/forbid= keys): type index -> squares, from White's point of
    # view (Black's mirrored by rank), that pieces of the type may not enter (a palace, a river).
    barred: Mapping[int, frozenset[int]] = field(default_factory=dict)
    flying_general: bool = False  # royal pieces may not face each other on an open file or rank (Xiangqi)
    # Atomic captures (Fairy-Stockfish's blastOnCapture): a capture also removes the capturer and every
    # piece on the eight squares around the target, but pieces of the types in blast_immune (never
    # removed, not even as the capturer) and those of blast_spared standing around it (its pawns)
    blast: bool = False
    blast_immune: Sequence[int] = ()
    blast_spared: Sequence[int] = ()
    # Types named by Fairy-Stockfish's mutuallyImmuneTypes: a piece of one never takes one of its own type
    mutually_immune: Sequence[int] = ()
    # Flag rules (Fairy-Stockfish's flagPiece and flagRegion), per colour: the type whose pieces win by
    # standing in the region (0: any piece) and the region's squares (none: no flag rule); flag_count
    # pieces must stand there; with flag_move the other side gets one more move to reach its own region
    flag_piece: tuple[int, int] = (0, 0)
    flag_region: tuple[frozenset[int], frozenset[int]] = (frozenset(), frozenset())
    flag_count: int = 1
    flag_move: bool = False
    flag_safe: bool = False  # flagPieceSafe: with exactly flag_count there, none may stand attacked
    flag_blocked_win: bool = False  # flagPieceBlockedWin: one flag piece in a region full of pieces wins too
    checking: bool = True  # False: no move may give check (Fairy-Stockfish's checking = false)
    # Check counting (Fairy-Stockfish's checkCounting): the checks White and Black must give to win
    # from the start; None: no such rule
    check_counts: tuple[int, int] | None = None
    # Losing games (Fairy-Stockfish's mustCapture, stalemateValue, checkmateValue, extinctionValue):
    # a capture must be played when one is legal; the stalemated or mated side wins; a side with at
    # most army_extinction pieces (board and hand; None: no such rule) has lost its army, and losing
    # an extinction (of a type or the army) wins where extinction_wins says so
    must_capture: bool = False
    stalemate_wins: bool = False
    checkmate_wins: bool = False
    army_extinction: int | None = None
    extinction_count: int = 0  # a side with at most this many pieces of an extinction type has lost it
    extinction_wins: bool = False
    # both sides extinct at once (a promotion that takes the last piece of a type, a blast): the
    # side that moved is judged first (Fairy-Stockfish's order, every variants.ini section), else the
    # side to move, so that the mover wins (the ID's)
    extinction_mover_first: bool = False
    # Connection games (Fairy-Stockfish's connectN, connectNxN, collinearN, connectRegion...): the
    # rule the side that has just moved may complete (morphchess.connection); None: no such rule
    connection: Connection | None = None
    # How drawn games score (Fairy-Stockfish's nFoldValue, nFoldValueAbsolute, stalematePieceCount,
    # materialCounting): a repetition's value for the side to move (1 win, -1 loss, 0 draw; for
    # White where repetition_absolute, then negated when Black is to move); a stalemate won by the side
    # with fewer pieces and lost by the other (with stalemate_wins; the other way round otherwise);
    # and a draw by the n-move rule, repetition or stalemate decided by material_counting:
    # "unweighted" (more pieces win), "whitedrawodds" (White wins) or "blackdrawodds" (Black wins)
    repetition_value: int = 0
    repetition_absolute: bool = False
    stalemate_piece_count: bool = False
    material_counting: str | None = None
    # Fairy-Stockfish's perpetualCheckIllegal: a repetition in which one side gave check at every
    # move loses for that side (both sides: a draw)
    perpetual_check_loses: bool = False
    # Walls (Fairy-Stockfish's wallingRule): every move also puts a wall on an empty square: "duck"
    # moves the one wall, "arrow" shoots it where the moved piece could go, "past" leaves it where
    # the piece stood, "edge" puts it on the board's edge or beside a wall; "": no walls.  With
    # wall_or_move a side either moves or puts a wall
    walling: str = ""
    wall_or_move: bool = False
    # Fairy-Stockfish's mustDrop and mustDropType: while a side holds a piece of this type (0: any),
    # it must drop one, of this type, where it can; None: no such rule
    must_drop: int | None = None
    # how the board is drawn (morphchess.boardstyle): "chequered" squares, or "xiangqi": pieces on the
    # points of lines, with river and palaces, and Chinese piece faces
    board_style: str = "chequered"
    params: Mapping[str, str] = field(default_factory=dict)
    warnings: Sequence[str] = field(default_factory=list)
    text: str = ""

    # -- geometry ---------------------------------------------------------
    @property
    def size(self) -> int:
        return self.files * self.ranks

    def square(self, name: str) -> int:
        """Square index of a name such as ``e4`` or ``a10``; ValueError if it is not on the board."""
        name = name.strip().lower()
        if not re.fullmatch(r"[a-z][1-9][0-9]{0,2}", name):
            raise ValueError(f"{quote(name)} is not a square name")
        f, r = ord(name[0]) - 97, int(name[1:]) - 1
        if not (0 <= f < self.files and 0 <= r < self.ranks):
            raise ValueError(f"square {quote(name)} is off the {self.files}x{self.ranks} board")
        return r * self.files + f

    def square_name(self, sq: int) -> str:
        return f"{chr(97 + sq % self.files)}{sq // self.files + 1}"

    # -- piece types ------------------------------------------------------
    def type_by_letter(self, letter: str) -> PieceType:
        for t in self.types:
            if t.letter == letter.upper():
                return t
        raise KeyError(letter)

    def type(self, index: int) -> PieceType:
        return self.types[index - 1]

    def promotes(self, t: PieceType) -> bool:
        """Chess-style promotion (promoChoice); with promo_offset the ID promotes shogi-style only."""
        return (self.promo_zone > 0 and t.index <= self.max_promote and bool(self.promo_choice)
                and not self.promo_offset)

    def promoted_type(self, t: PieceType) -> int | None:
        """Shogi style (promo_offset): the type ``t`` promotes to; the ID wraps past the last type
        to type promo_offset + 1.  None where ``t`` does not promote this way."""
        if not self.promo_offset or t.index > self.max_promote:
            return None
        n = t.index + self.promo_offset
        return n if n <= len(self.types) else self.promo_offset + 1

    def to_hand(self, captured: int, colour: int) -> tuple[int, int] | None:
        """Where a captured piece of type ``captured`` and ``colour`` goes, as the ID's holdings do:
        (hand colour, type index), or None where captured pieces vanish."""
        if self.holdings_type == 0:
            return None
        if self.holdings_type > 0:
            return colour, captured
        if self.holdings_type == -1 and self.promo_offset and captured > self.promo_offset:
            captured -= self.promo_offset
        return colour ^ 1, captured

    @property
    def drops(self) -> bool:
        """May pieces in hand be dropped?  Decision: with holdings_type < 0 (shogi), or with hands
        given at the start and no holdings_type (the ID lets the user drop them)."""
        return self.holdings_type < 0 or (self.holdings_type == 0 and any(self.holdings))

    def fresh_on(self, ti: int, colour: int, sq: int) -> bool | None:
        """Does a piece of type ``ti`` that arrives on ``sq`` count as unmoved there
        (:attr:`initial_region`)?  None where the type has no region (the ID's rule: moved)."""
        region = self.initial_region.get(ti)
        return None if region is None else sq in region[colour]

    def in_zone(self, colour: int, sq: int) -> bool:
        """Is ``sq`` in the promotion zone of ``colour`` (its last promo_zone ranks)?"""
        rank = sq // self.files
        return (self.ranks - 1 - rank if colour == WHITE else rank) < self.promo_zone

    def offset_promotion(self, t: PieceType, colour: int, origin: int, target: int, captures: bool) -> int | None:
        """Shogi style: the type a move of ``t`` may (never must) promote to, else None.

        As the ID does: with hands (holdings_type != 0) any move that starts or
        ends in the zone; without, a move that enters the zone or captures
        inside it.  Decision: promo_zone 0 means promotion on capture, anywhere."""
        new = self.promoted_type(t)
        if new is None:
            return None
        if self.promo_zone == 0:
            return new if captures else None
        enter, leave = self.in_zone(colour, target), self.in_zone(colour, origin)
        if self.holdings_type or self.offset_either_end:
            return new if enter or leave else None
        return new if (captures if leave else enter) else None

    def promotion_choices(self, t: PieceType, depth: int) -> tuple[int, ...]:
        """Chess style: the types ``t`` may choose on arriving ``depth`` ranks before the last
        (0 = the last rank), promo_limits applied except ``from_hand`` (a position's matter)."""
        if not self.promotes(t) or depth >= self.promo_zone:
            return ()
        out = []
        for i in self.promo_choice:
            limit = self.promo_limits.get(i, PromoLimit())
            if (limit.not_last_rank and depth == 0) or (limit.depth and depth >= limit.depth):
                continue
            out.append(i)
        return tuple(out)

    def barred_squares(self, type_index: int, colour: int) -> frozenset[int]:
        """The squares a piece of ``type_index`` and ``colour`` may not enter (its zones)."""
        squares = self.barred.get(type_index, frozenset())
        if colour == WHITE or not squares:
            return squares
        F, R = self.files, self.ranks
        return frozenset((R - 1 - sq // F) * F + sq % F for sq in squares)

    def is_pawn_like(self, t: PieceType) -> bool:
        """Types whose moves reset the 50-move count: promoting types and types named '... pawn'."""
        return self.promotes(t) or (not t.royal and t.name.lower().endswith("pawn"))

    def placement(self, setup: str) -> Mapping[int, tuple[int, int]]:
        """The start array named ``setup``; :class:`VariantError` lists the names if there is none.

        With shuffle= groups, ``shuffle-SEED`` (SEED a whole number) names the
        array shuffled from the standard one by that seed (at most 18 digits), the same every time."""
        if setup in self.setups:
            return self.setups[setup]
        seed = setup[8:] if setup.startswith("shuffle-") else ""
        if self.shuffle and seed:
            if not re.fullmatch(r"[0-9]{1,18}", seed):
                raise VariantError(f"setup {quote(setup)}: the seed after 'shuffle-' must be a whole number "
                                   "of at most 18 digits (ASCII)")
            return self.derived(("shuffle", int(seed)), lambda: MappingProxyType(shuffled(self, int(seed))))
        names = ", ".join([*self.setups, "shuffle-SEED"] if self.shuffle else self.setups)
        raise VariantError(f"{self.name} has no setup {quote(setup)}; it has: {names}")

    def kings_only_draw(self) -> bool:
        """Is a board of royal pieces only a draw?  Only where every royal type reaches just the
        squares next to it and keeps its type wherever it goes (kings can then never win), no
        flag rule lets a king win by walking, and no material counting scores the draw."""
        return (self.derived("kings_only_draw", self._royals_are_kings) and not any(self.flag_region)
                and self.material_counting is None)

    def _royals_are_kings(self) -> bool:
        t = self.tables
        sq = (self.ranks // 2) * self.files + self.files // 2
        for pt in self.types:
            if not pt.royal:
                continue
            c = code(pt.index, WHITE)
            near = all(max(abs(to % self.files - sq % self.files), abs(to // self.files - sq // self.files)) <= 1
                       for to, *_ in t.reach(c, sq))
            if not near or pt.morph is not None or self.promotes(pt) or self.promoted_type(pt):
                return False
        return True

    # -- freezing and derived data ------------------------------------------
    def freeze(self) -> None:
        """Make the variant (and its piece types) read-only; the loader calls it when it is done."""
        for t in self.types:
            t._freeze_fields(morph=None if t.morph is None else tuple(t.morph))
        self._freeze_fields(
            types=tuple(self.types), promo_choice=tuple(self.promo_choice), holes=frozenset(self.holes),
            holdings=tuple(MappingProxyType(dict(h)) for h in self.holdings),
            promo_limits=MappingProxyType(dict(self.promo_limits)), shuffle=tuple(self.shuffle),
            transforms=tuple(tuple(g) for g in self.transforms), warnings=tuple(self.warnings),
            blast_immune=tuple(self.blast_immune), blast_spared=tuple(self.blast_spared),
            mutually_immune=tuple(self.mutually_immune), stuck_drops=tuple(self.stuck_drops),
            setups=MappingProxyType({k: MappingProxyType(dict(p)) for k, p in self.setups.items()}),
            params=MappingProxyType(dict(self.params)), _derived={},
            barred=MappingProxyType({k: frozenset(v) for k, v in self.barred.items()}))

    def derived(self, key: Any, build: Callable[[], Any]) -> Any:
        """Data computed from this (frozen) variant, built once per ``key`` and kept with it."""
        if not self.__dict__.get("_frozen"):
            raise AttributeError(f"variant {self.name!r} is not frozen: call freeze() first")
        store = self.__dict__["_derived"]
        if key not in store:
            store[key] = build()
        return store[key]

    @cached_property
    def tables(self) -> Tables:
        """The compiled move tables (see :mod:`morphchess.tables`)."""
        if not self.__dict__.get("_frozen"):
            self.freeze()
        return Tables(self)

    def __repr__(self) -> str:
        return f"<Variant {self.name} {self.files}x{self.ranks}, {len(self.types)} piece types>"
