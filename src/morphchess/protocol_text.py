"""What the engine protocols say that both their sides share: morphchess as the engine
(:mod:`morphchess.protocols`) and other engines as players (:mod:`morphchess.engine.external`).

The name a variant is offered under (UCI's ``UCI_Variant``, XBoard's ``variant``), and XBoard's view of a
variant: its piece types and holdings, its rank numbers on boards 10 high, and its move text (a morph as
a promotion suffix, a shogi-style promotion as ``+``).
"""

from __future__ import annotations

import re
from functools import cache

from .board import Board, Move
from .library import fairy_name
from .notation import MoveError
from .variant import WHITE, PieceType, Variant
from .variants import names

__all__ = ["protocol_names", "offered_name", "hand_types", "promoted_partners", "xboard_king", "xboard_slots",
           "holdings_types", "rank_shift", "shift_ranks", "move_text", "parse_move", "IMAGE_SLOT", "SPARE_SLOTS"]


@cache
def protocol_names() -> dict[str, str]:
    """Offered name -> built-in name, orthodox chess first: Fairy-Stockfish's name for the game
    where it has one (``fischerandom`` for chess960), so that GUIs set up for Fairy-Stockfish
    select the same games here; else morphchess's own name."""
    return {fairy_name(n) or n: n for n in ["chess", *(n for n in names() if n != "chess")]}


def offered_name(variant: Variant) -> str:
    """The name a variant is offered under: a built-in's protocol name, else its own."""
    return {n: offered for offered, n in protocol_names().items()}.get(variant.name, variant.name)


# XBoard 4.9's piece types (its ChessSquare order) by the image names of definitions, or their type names
# where they name no images; the others get spare types without special behaviour (not Lance, Falcon,
# Cobra or Lion).
IMAGE_SLOT = {"pawn": 0, "knight": 1, "bishop": 2, "rook": 3, "queen": 4, "cardinal": 7, "archbishop": 7,
              "chancellor": 8, "duke": 10, "nightrider": 12, "promotedbishop": 13, "promotedrook": 14, "amazon": 29}
SPARE_SLOTS = (5, 6, 9, 11, 15, 16, 20, 22, 23, 24, 25, 26, 27, 28)


def hand_types(variant: Variant) -> list[PieceType]:
    """The types that can be in a hand and dropped (XBoard's holdings), in definition order: none
    unless the variant drops; the types in hand at the start and, where captures go to the
    capturer's hand (``holdingsType`` < 0), every type a captured piece becomes there."""
    if not variant.drops:
        return []
    found = {i for hand in variant.holdings for i, n in hand.items() if n}
    for t in variant.types:
        goes = variant.to_hand(t.index, WHITE) if not t.royal else None
        if goes:
            found.add(goes[1])
    return [t for t in variant.types if t.index in found]


def promoted_partners(variant: Variant) -> dict[int, PieceType]:
    """Shogi-style promoted types (``promoOffset``) -> the type each promotes from, for XBoard's own
    form of them (``+P`` in the piece table, in positions and as a move's suffix), with which XBoard
    demotes a captured one as the ID's ``holdingsType=-1`` does.  None where captured pieces keep
    their type in the hand (``holdingsType=-2``)."""
    if not variant.promo_offset or variant.holdings_type == -2:
        return {}
    out: dict[int, PieceType] = {}
    for t in variant.types:
        n = variant.promoted_type(t)
        if n is not None and n != t.index and variant.promoted_type(variant.type(n)) is None:
            out.setdefault(n, t)
    return out


def xboard_king(variant: Variant) -> PieceType | None:
    """The type that is XBoard's king (last in its table): the royal ``K``, else the first royal type."""
    royal = [t for t in variant.types if t.royal]
    return next((t for t in royal if t.letter == "K"), royal[0] if royal else None)


def xboard_slots(variant: Variant) -> dict[int, PieceType]:
    """The types of a variant by XBoard's piece type (its ChessSquare number), the king left out.

    XBoard numbers its holdings by the order of the types in its table.  Where captured pieces go to
    a hand, the types that can be in one (:func:`hand_types`) come before all others, so that no
    other type has a holdings row a capture could fill.  Where they go to none, every type keeps
    the XBoard type of its image (a pawn stays XBoard's pawn, a rook its rook, which castles with
    ``KQkq``), and the holdings reach as far as the last type that can be in a hand."""
    king = xboard_king(variant)
    first = hand_types(variant) if variant.captures_to_hand else []
    slots: dict[int, PieceType] = {}
    spare = iter(SPARE_SLOTS)
    floor = -1
    for group in (first, [t for t in variant.types if t not in first]):
        for t in group:
            if t is king:
                continue
            slot = IMAGE_SLOT.get(t.image or t.name.lower().replace(" ", ""))
            if slot is None or slot in slots or slot <= floor:
                slot = next(s for s in spare if s > floor)
            slots[slot] = t
        floor = max(slots, default=-1)
    return slots


def holdings_types(variant: Variant) -> list[PieceType]:
    """The types of XBoard's holdings rows, nearest its owner first: those of :func:`xboard_slots`
    up to the last type that can be in a hand, shogi-style promoted ones left out (XBoard skips them)."""
    hand = hand_types(variant)
    partners = promoted_partners(variant)
    rows = [t for _slot, t in sorted(xboard_slots(variant).items()) if t.index not in partners]
    return rows[:max((rows.index(t) + 1 for t in hand), default=0)]


def rank_shift(variant: Variant) -> int:
    """XBoard numbers the ranks of a board 10 squares high (holdings included) from 0, as Xiangqi
    players do: what to add to morphchess's rank numbers to get XBoard's."""
    return -1 if max(variant.ranks, len(holdings_types(variant))) == 10 else 0


def shift_ranks(text: str, shift: int) -> str:
    """Square names in move or square text with their rank numbers shifted by ``shift``."""
    return re.sub(r"([a-z_`])(\d+)", lambda m: f"{m[1]}{int(m[2]) + shift}", text) if shift else text


def move_text(move: Move, variant: Variant | None = None) -> str:
    """Coordinate text for XBoard: a morph carries the new type's letter as a promotion suffix, and a
    shogi-style promotion of ``variant`` (:func:`promoted_partners`) the suffix ``+``."""
    text = move.uci()
    if move.is_morph and not move.is_transformation and not move.is_castling:
        text += move.new_piece.lower()
    elif variant and move.is_choice and not move.is_transformation and _shogi_promotion(variant, move):
        text = text[:-len(move.new_piece)] + "+"
    return text


def _shogi_promotion(variant: Variant, move: Move) -> bool:
    return variant.type_by_letter(move.new_piece.upper()).index in promoted_partners(variant)


def parse_move(board: Board, text: str) -> Move:
    """The legal move named by XBoard's text, also with a morph's suffix (``f2f3z``), XBoard's shogi
    promotion suffix ``+`` or its suffix ``=`` for a promotion declined."""
    try:
        return board.parse_uci(text)
    except (MoveError, ValueError):
        if text[-1:] == "=":
            return board.parse_uci(text[:-1])
        for move in board.legal_moves:
            if move_text(move, board.variant) == text:
                return move
        raise
