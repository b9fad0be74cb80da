"""Text forms of positions and moves: FEN-like positions and coordinate move text.

Position text is FEN with these generalisations (``docs/notation.md``):

* empty runs may be more than 9 (``10`` on wide boards);
* the castling field ``KQkq`` names the outermost piece on each side of an
  unmoved castling king, whatever its type; a file letter names it by file;
* a piece letter may carry ``*`` (has moved) or ``^`` (has not moved) where
  the default is wrong.  The default: a piece is unmoved iff it stands on a
  square where its type starts in one of the variant's setups; castling
  kings and partners take their state from the castling field;
* the en-passant field may list several squares, comma separated;
* in variants with hands the board field ends with them: ``...RNBQKBNR[Pp]``.

Coordinate move text (spec section 9): ``e2e4``, ``e8e9q`` (promotion),
``c1c1n`` (transformation), ``P@e4`` (drop), ``e4f5,f5e6`` (a multi-leg move,
leg by leg to each square it captures on); castling is the king's move, Fischer castling
(shuffled arrays) the king taking its partner (``b1a1``).
"""

from __future__ import annotations

import re

from .errors import InputError, quote
from .idiagram import parse_placement
from .move import Kind, Move
from .pieces import as_unmoved, code, colour_of, is_own, is_unmoved, type_of
from .position import Position
from .tables import Tables
from .variant import BLACK, WHITE, Variant, VariantError

__all__ = ["FenError", "MoveError", "NotCoordinates", "to_fen", "from_fen", "move_to_coord", "parse_coord"]


class FenError(InputError):
    """Position text that cannot be read; the message says which field is wrong."""


class MoveError(InputError):
    """Move text that is unreadable or names no legal move."""


class NotCoordinates(MoveError):
    """Move text that is not coordinate text at all (it may still be SAN)."""


def _start_squares(v: Variant) -> set[tuple[int, int, int]]:
    return {(sq, ti, c) for placement in v.setups.values() for sq, (ti, c) in placement.items()}


def _castle_partners(pos: Position, kings: list[int]) -> dict:
    """{(colour, side, king square): partner square or None} for the given castling kings."""
    return {(colour_of(pos.board[r]), side, r): pos.castle_partner(r, side) for r in kings for side in (-1, 1)}


def _castles(pos: Position, p: int) -> bool:
    """Is ``p`` a type that castles (whatever its moved-state)?"""
    return bool(pos.t.castle[as_unmoved(p)])


def _defaults(pos: Position, partners: dict, rights: set) -> dict[int, bool]:
    """Default moved-state (True = unmoved) of every tracked piece.

    Castling kings are unmoved iff they have a right, the partners named in
    ``partners`` iff their right is in ``rights``; other pieces iff they stand
    on a start square of their type (or in its initial region, :meth:`Variant.fresh_on`)."""
    t = pos.t
    starts = _start_squares(pos.variant)
    out = {}
    for sq, p in enumerate(pos.board):
        if p and t.tracks_virgin[type_of(p)]:
            if _castles(pos, p):
                out[sq] = any(ps in rights for (_c, _s, k), ps in partners.items() if k == sq)
            else:
                fresh = pos.variant.fresh_on(type_of(p), colour_of(p), sq)
                out[sq] = (sq, type_of(p), colour_of(p)) in starts if fresh is None else fresh
    for (colour, _side, _k), ps in partners.items():
        if ps is not None and is_own(pos.board[ps], colour) and not _castles(pos, pos.board[ps]):
            out[ps] = ps in rights
    return out


def _state_matters(pos: Position, sq: int, p: int) -> bool:
    """Can the moved-state of piece ``p`` on ``sq`` still change what is legal?

    For types with initial moves always; for a castling king only while it has
    a partner left, for a partner only while its king has not moved.  So a
    knight back on g1 is written plain ``N``, as in FEN."""
    t = pos.t
    colour = colour_of(p)
    if t.has_initial[p]:
        return True
    if _castles(pos, p):
        partners = (pos.castle_partner(sq, -1), pos.castle_partner(sq, 1))
        return any(ps is not None and is_own(pos.board[ps], colour) and is_unmoved(pos.board[ps]) for ps in partners)
    return any(is_unmoved(pos.board[k]) and t.castle[pos.board[k]] and sq in (pos.castle_partner(k, -1),
                                                                               pos.castle_partner(k, 1))
               for k in pos.castling_pieces(colour))


def castling_rights(pos: Position) -> list[tuple[int, int, int]]:
    """``(colour, side, partner square)`` of each castling right (an unmoved castling king with an
    unmoved partner), the last-file side (1) first."""
    return _rights(pos, _unmoved_partners(pos))


def _unmoved_partners(pos: Position) -> dict:
    """:func:`_castle_partners` of the unmoved castling kings."""
    kings = [r for c in (WHITE, BLACK) for r in pos.castling_pieces(c) if is_unmoved(pos.board[r])]
    return _castle_partners(pos, kings)


def _rights(pos: Position, partners: dict) -> list[tuple[int, int, int]]:
    ordered = sorted(partners.items(), key=lambda kv: -kv[0][1])
    return [(colour, side, partner) for (colour, side, _r), partner in ordered
            if partner is not None and is_unmoved(pos.board[partner]) and is_own(pos.board[partner], colour)]


def to_fen(pos: Position) -> str:
    """The position as FEN-like text; :func:`from_fen` reads it back exactly."""
    field = {WHITE: "", BLACK: ""}
    partners = _unmoved_partners(pos)
    rights = _rights(pos, partners)
    for colour, wing, _partner in rights:
        letter = "K" if wing == 1 else "Q"
        letter = letter if colour == WHITE else letter.lower()
        if letter not in field[colour]:  # two castling kings may share a partner
            field[colour] += letter
    defaults = _defaults(pos, partners, {partner for *_, partner in rights})

    def mark(sq: int, p: int) -> str:
        if sq in defaults and defaults[sq] != is_unmoved(p) and _state_matters(pos, sq, p):
            return "^" if is_unmoved(p) else "*"
        return ""

    board = _board_field(pos, mark) + _hand_field(pos)
    castling = field[WHITE] + field[BLACK] or "-"
    ep = ",".join(pos.variant.square_name(s) for s in pos.ep[0]) if pos.ep else "-"
    side = "w" if pos.turn == WHITE else "b"
    checks = "" if pos.checks is None else f"{pos.checks[WHITE]}+{pos.checks[BLACK]} "
    return f"{board} {side} {castling} {ep} {checks}{pos.halfmove} {pos.fullmove}"


def _board_field(pos: Position, mark) -> str:
    """The board field: ranks from the top, runs of empty squares as numbers, ``mark(sq, code)`` after a letter."""
    F, R = pos.t.files, pos.t.ranks
    rows = []
    for r in range(R - 1, -1, -1):
        row, empty = "", 0
        for sq in range(r * F, r * F + F):
            p = pos.board[sq]
            if not p:
                empty += 1
                continue
            if empty:
                row += str(empty)
                empty = 0
            row += pos.t.letter[p] + mark(sq, p)
        rows.append(row + (str(empty) if empty else ""))
    return "/".join(rows)


def has_hands(v: Variant) -> bool:
    """Does the variant keep pieces in hand (its position text then has a hand field)?"""
    return v.captures_to_hand or v.drops or any(v.holdings)


def _hand_field(pos: Position) -> str:
    """``[...]``: the pieces in hand, White's then Black's, one letter per piece; "" without hands."""
    if not has_hands(pos.variant):
        return ""
    letters = pos.t.letter
    return "[" + "".join(letters[code(ti, colour)] * n for colour, hand in enumerate(pos.hands)
                         for ti, n in enumerate(hand)) + "]"


def _read_hands(variant: Variant, board: str) -> tuple[str, tuple[dict, dict]]:
    """Split ``board[hand]`` into the board field and the hands ``({type: count}, {type: count})``."""
    hands: tuple[dict, dict] = ({}, {})
    if "[" not in board and "]" not in board:
        return board, hands
    m = re.fullmatch(r"([^\[\]]*)\[([^\[\]]*)\]", board)
    if not m:
        raise FenError(f"board field {quote(board)}: the hand must be one [...] at its end")
    board, text = m[1], m[2]
    if text in ("", "-"):
        return board, hands
    if not has_hands(variant):
        raise FenError(f"hand field {quote(text)}: {variant.name} has no pieces in hand")
    for letter in re.findall(r"\+?[A-Za-z]|.", text):
        try:
            ti = variant.type_by_letter(letter).index
        except KeyError:
            raise FenError(f"hand field {quote(text)}: {letter!r} is no piece of {variant.name}") from None
        colour = WHITE if letter[-1].isupper() else BLACK
        hands[colour][ti] = hands[colour].get(ti, 0) + 1
        if hands[colour][ti] > variant.files * variant.ranks:
            raise FenError(f"hand field: more than {variant.files * variant.ranks} (the board's squares) of "
                           f"{letter!r} in a hand")
    return board, hands


def from_fen(variant: Variant, fen: str) -> Position:
    """Read position text (standard FEN works for chess).  Raises :class:`FenError`."""
    fen, checks = _read_checks(variant, fen)
    board, side, castling, ep, half, full = _fields(fen)
    board, hands = _read_hands(variant, board)
    try:
        placed = parse_placement(board, variant, "board field")
    except VariantError as e:
        raise FenError(str(e)) from None
    if side not in ("w", "b"):
        raise FenError(f"side to move {quote(side)}: use w or b")
    turn = WHITE if side == "w" else BLACK
    for name, value in (("halfmove clock", half), ("move number", full)):
        if not _COUNTER.fullmatch(value):
            raise FenError(f"the {name} {quote(value)} must be a whole number >= 0 (at most 9 digits)")
    halfmove, fullmove = int(half), int(full)
    if fullmove < 1:
        raise FenError("the move number (last field) must be at least 1")
    for sq, (ti, _colour, mark) in placed.items():
        if mark is not None and not variant.tables.tracks_virgin[ti]:
            raise FenError(f"board field: the moved-state mark on {variant.square_name(sq)} means nothing "
                           f"for a {variant.type(ti).name}")
    codes = _with_moved_state(variant, placed, turn, castling)
    pos = Position.from_board(variant, codes, turn, _en_passant(variant, codes, turn, ep), halfmove, fullmove,
                              hands, checks)
    _check_royals(pos)
    _check_reachable(pos)
    if pos.checked(turn ^ 1):
        raise FenError("impossible position: the side not to move is in check")
    return pos


def _check_royals(pos: Position) -> None:
    """Refuse a board where a side has no royal piece although the variant's start arrays give it one
    (and no blast could have removed it: a game so ended)."""
    v = pos.variant
    if v.blast:
        return
    for colour, name in ((WHITE, "White"), (BLACK, "Black")):
        royal = {v.type(ti).letter for placement in v.setups.values() for ti, c in placement.values()
                 if c == colour and v.type(ti).royal}
        if royal and not pos.royals[colour]:
            letters = sorted(royal) if colour == WHITE else sorted(x.lower() for x in royal)
            raise FenError(f"board field: {name} has no royal piece ({', '.join(letters)})")


def _check_reachable(pos: Position) -> None:
    """Refuse a board no game of the variant can reach: more royal pieces of a type than its start arrays
    give a side (where no move makes one), or a piece on a square where it has no move and could not have
    arrived (a white pawn on chess's eighth rank: arriving there, it promotes)."""
    v, t = pos.variant, pos.t
    if not t.royal_morphs:
        for colour, name in ((WHITE, "White"), (BLACK, "Black")):
            for ti, most in _royals_in_setups(v, colour).items():
                n = sum(1 for sq in pos.royals[colour] if type_of(pos.board[sq]) == ti)
                if n > most:
                    letter = t.letter[code(ti, colour)]
                    raise FenError(f"board field: {name} has {n} royal {letter} ({v.type(ti).name}), but "
                                   f"{v.name} starts with {most} and no move makes one")
    for sq, p in enumerate(pos.board):
        if p and sq not in t.holes and not _has_moves(t, p, sq) and not _could_arrive(v, t, p, sq):
            raise FenError(f"board field: the {t.letter[p]} ({v.type(type_of(p)).name}) on {v.square_name(sq)} "
                           f"has no move there and could not have arrived there in {v.name}")


def _royals_in_setups(v: Variant, colour: int) -> dict[int, int]:
    """Royal type -> the most pieces of it ``colour`` has in any start array."""
    most: dict[int, int] = {}
    for placement in v.setups.values():
        counts: dict[int, int] = {}
        for ti, c in placement.values():
            if c == colour and v.type(ti).royal:
                counts[ti] = counts.get(ti, 0) + 1
        for ti, n in counts.items():
            most[ti] = max(most.get(ti, 0), n)
    return most


def _has_moves(t: Tables, p: int, sq: int) -> bool:
    """Has piece code ``p`` on ``sq`` a move on an empty board (as a drop there needs), or a transformation?"""
    return any(t.moves[p][sq][:4]) or bool(t.transforms[p][sq])


def _could_arrive(v: Variant, t: Tables, p: int, sq: int) -> bool:
    """Can piece code ``p`` stand on ``sq``: does it start there, or is it what some piece of its side may
    become by arriving there (the type itself, where no promotion is forced there, or a morph)?"""
    ti, colour = type_of(p), colour_of(p)
    if any(placement.get(sq) == (ti, colour) for placement in v.setups.values()):
        return True
    return any(t.valid[c] and colour_of(c) == colour and sq not in t.barred[c]
               and any(type_of(x) == ti for x in t.becomes(c, sq)) for c in range(t.ncodes))


def _read_checks(variant: Variant, fen: str) -> tuple[str, tuple[int, int] | None]:
    """Where the variant counts checks: the text without its ``W+B`` field (the checks White and
    Black must still give, after the en-passant field as Fairy-Stockfish writes it) and the
    counts; without the field, the counts of the start.  Elsewhere the text as it is."""
    if variant.check_counts is None:
        return fen, None
    fields = fen.split()
    for i, f in enumerate(fields[1:5], 1):
        m = re.fullmatch(r"([0-9]{1,2})\+([0-9]{1,2})", f)
        if m:
            return " ".join(fields[:i] + fields[i + 1:]), (int(m[1]), int(m[2]))
    return fen, variant.check_counts


def _fields(fen: str) -> list[str]:
    """The six fields of position text, the missing trailing ones filled with their defaults."""
    fields = fen.split()
    if not fields:
        raise FenError("empty position text")
    if len(fields) > 6:
        raise FenError(f"position text has {len(fields)} fields, at most 6 are expected")
    if len(fields) == 4 and all(_COUNTER.fullmatch(f) for f in fields[2:]):  # Fairy-Stockfish's shogi: no
        fields[2:2] = ["-", "-"]                                              # castling, no en passant
    return fields + ["w", "-", "-", "0", "1"][len(fields) - 1:]


def _with_moved_state(variant: Variant, placed: dict, turn: int, castling: str) -> list[int]:
    """Piece codes of a board field, marked unmoved where the marks, castling field and defaults say."""
    t = variant.tables
    codes = [0] * t.size
    for sq, (ti, colour, _mark) in placed.items():
        codes[sq] = code(ti, colour)
    pos = Position.from_board(variant, codes, turn)
    # castling kings: unmoved if their colour has a right or their mark says so
    colours = {WHITE if ch.isupper() else BLACK for ch in castling if castling != "-"}
    kings = [r for c in (WHITE, BLACK) for r in pos.castling_pieces(c)
             if (placed[r][2] if placed[r][2] is not None else c in colours)]
    partners = _castle_partners(pos, kings)
    rights = _castling_rights(variant, pos, partners, castling)
    for sq, virgin in _defaults(pos, partners, rights).items():
        mark = placed[sq][2]
        if mark if mark is not None else virgin:
            codes[sq] = as_unmoved(codes[sq])
    return codes


def _castling_rights(variant: Variant, pos: Position, partners: dict, castling: str) -> set[int]:
    """The partner squares the castling field gives a right to."""
    rights: set[int] = set()
    if castling == "-":
        return rights
    for i, ch in enumerate(castling):
        if ch in castling[:i]:
            raise FenError(f"castling field {quote(castling)}: {ch!r} is given twice")
        colour = WHITE if ch.isupper() else BLACK
        if ch.upper() in "KQ":
            side = 1 if ch.upper() == "K" else -1
            found = [ps for (c, s, _k), ps in partners.items() if c == colour and s == side and ps is not None]
        elif ch.isalpha() and ord(ch.lower()) - 97 < variant.files:
            f = ord(ch.lower()) - 97
            found = [ps for (c, _s, _k), ps in partners.items()
                     if c == colour and ps is not None and ps % variant.files == f]
        else:
            raise FenError(f"castling field {quote(castling)}: {ch!r} is not K, Q, k, q or a file letter")
        found = [ps for ps in found if is_own(pos.board[ps], colour)]
        if not found:
            raise FenError(f"castling field {quote(castling)}: no castling king and partner for {ch!r}")
        rights.update(found)
    return rights


def _en_passant(variant: Variant, codes: list[int], turn: int, ep: str) -> tuple | None:
    """``(squares, victim square)`` of the en-passant field, or None for ``-``."""
    if ep == "-":
        return None
    squares = tuple(_square(variant, name, f"en-passant field {quote(ep)}") for name in ep.split(","))
    victim = _stepper(variant, codes, turn, squares)
    if victim is None:
        raise FenError(f"en-passant field {quote(ep)}: no piece of the side that just moved stands behind it")
    promoted = variant.in_zone(colour_of(codes[victim]), victim)  # a double step may end in promotion
    if not variant.tables.has_initial[codes[victim]] and not promoted:
        raise FenError(f"en-passant field {quote(ep)}: the {variant.type(type_of(codes[victim])).name} on "
                       f"{variant.square_name(victim)} has no double step")
    for sq in squares:
        if codes[sq]:
            raise FenError(f"en-passant field {quote(ep)}: {variant.square_name(sq)} is not empty")
    return squares, victim


def _stepper(variant: Variant, codes: list[int], turn: int, squares: tuple) -> int | None:
    """The square of the piece that made the double step over ``squares`` (the side not to move): one
    step beyond the farthest of them along the line they make, or, over one square, straight on or
    diagonally beyond it (a Berolina pawn's step), straight on first.  None if no such piece stands there."""
    F = variant.files
    ahead = F if turn == BLACK else -F  # the mover's forward direction
    far = max(squares) if turn == BLACK else min(squares)
    if len(squares) > 1:
        ordered = sorted(squares, reverse=turn != BLACK)
        steps: tuple = (ordered[1] - ordered[0],)
    else:
        steps = (ahead, ahead - 1, ahead + 1)
    for step in steps:
        sq = far + step
        if (0 <= sq < variant.size and abs(sq % F - far % F) <= 1 and codes[sq]
                and colour_of(codes[sq]) != turn):
            return sq
    return None


def _square(variant: Variant, name: str, where: str) -> int:
    """The square named ``name``; FenError naming ``where`` if it is no square of the board."""
    try:
        if _SQUARE.fullmatch(name):
            return variant.square(name)
    except ValueError:
        pass
    raise FenError(f"{where}: {quote(name)} is not a square of the {variant.files}x{variant.ranks} board")


# -- coordinate move text ------------------------------------------------------
_SQ = r"[a-z][1-9][0-9]{0,2}"  # a square: ASCII digits, no leading zero
_LEG = rf"{_SQ}-?{_SQ}"
_COORD = re.compile(rf"(?P<legs>{_LEG}(?:,{_LEG})*)(?P<suffix>[a-z+]?)")
_DROP = re.compile(rf"(\+?[a-z])@({_SQ})")
_SQUARE = re.compile(_SQ)
_COUNTER = re.compile(r"[0-9]{1,9}")


def is_choice(pos: Position, m: Move) -> bool:
    """Did the player choose the new type (promotion or transformation)?"""
    return mover_chose(pos.t, pos.board[m.origin], m)


def mover_chose(t: Tables, mover: int, m: Move) -> bool:
    """Did the player moving piece ``mover`` choose the new type (promotion or transformation)?"""
    if m.kind is Kind.TRANSFORM:
        return True
    if m.kind is Kind.DROP or m.kind is Kind.CASTLE:
        return False
    if not (t.promo[mover] and t.promo[mover][m.target]):
        # a shogi style promotion: the type differs from what a plain arrival makes
        return type_of(m.piece) != type_of(t.morph_to[mover][m.target])
    last = m.target // t.files == (t.ranks - 1 if colour_of(mover) == WHITE else 0)
    # on the last rank promotion is compulsory; deeper in the zone staying is the move without a choice
    return last or m.piece != t.morph_to[mover][m.target]


def move_to_coord(pos: Position, m: Move) -> str:
    """Coordinate text of a move in ``pos`` (before it is made)."""
    return coord_text(pos.variant, pos.board[m.origin], m)


def coord_text(v: Variant, mover: int, m: Move) -> str:
    """Coordinate text of a move of the piece ``mover``: ``P@e4`` for a drop, the legs joined
    by commas for a multi-leg move that captures on the way (``e4f5,f5e6``, ``d3d4,d4d3``) or
    unloads (first to the square where the piece taken goes: ``a1a1,a1a8`` swaps); a move that puts
    a wall, as Fairy-Stockfish writes it: the move, then a leg from its end to the wall (``e2e4,e4d5``)."""
    if m.kind is Kind.WALL:
        base, wall = m.extra[0], m.extra[1]
        end = v.square_name(text_target(v.tables, base))
        stays = base.kind is Kind.TRANSFORM and base.piece == mover  # a wall alone: ``a1a1,a1c3``
        head = end + end if stays else coord_text(v, mover, base)
        return f"{head},{end}{v.square_name(wall)}"
    if m.kind is Kind.DROP:
        return v.tables.letter[m.piece].upper() + "@" + v.square_name(m.target)
    squares = (m.origin, *_text_stops(m), text_target(v.tables, m))
    text = ",".join(v.square_name(a) + v.square_name(b) for a, b in zip(squares, squares[1:]))
    if mover_chose(v.tables, mover, m):
        text += _suffix(v.tables.letter[m.piece])
    return text


def _suffix(letter: str) -> str:
    """The letter coordinate text gives a new type: ``+`` for a promoted type (``+P``), as
    Fairy-Stockfish and XBoard write a shogi-style promotion, else the letter in lower case."""
    return "+" if letter.startswith("+") else letter.lower()


def _text_stops(m: Move) -> tuple:
    """The squares the coordinate text of ``m`` passes between origin and end: where a multi-leg move
    captures on its way, or where an unload move puts the piece it takes."""
    return m.extra if m.kind is Kind.LEGS or m.kind is Kind.UNLOAD else ()


def text_target(t: Tables, m: Move) -> int:
    """The square the text of ``m`` ends on: the partner's (king takes partner, ``e1h1``) for
    Fischer castling, as UCI writes Chess960, and for a castling whose king lands where a move of
    its own could take it (Haynie's one-square castling ``d1a1``, as Fairy-Stockfish writes it);
    else the target."""
    if m.kind is Kind.CASTLE and (t.fischer or _king_reaches(t, m.piece, m.origin, m.target)):
        return m.extra[0]
    return m.target


def _king_reaches(t: Tables, king: int, origin: int, target: int) -> bool:
    """Could the castling ``king`` reach ``target`` from ``origin`` by a move of its own (on an
    open board)?  Then king-to-target text would also name that move."""
    return any(to == target and can_move for to, _blockers, can_move, _c, _e in t.reach(king, origin))


def parse_coord(pos: Position, text: str, legal: list | None = None) -> Move:
    """The legal move named by coordinate text.  Raises :class:`MoveError`."""
    low = text.strip().lower()
    moves = legal if legal is not None else pos.legal_moves()
    if d := _DROP.fullmatch(low):
        to = _coord_square(pos.variant, d[2], text)
        return _one_coord([mv for mv in moves if mv.kind is Kind.DROP and mv.target == to
                           and pos.t.letter[mv.piece].lower() == d[1]], text)
    if pos.t.walling and "," in low:  # a move and its wall: the text of one of the legal moves
        return _one_coord([mv for mv in moves if mv.kind is Kind.WALL and move_to_coord(pos, mv) == low], text)
    m = _COORD.fullmatch(low)
    if not m:
        raise NotCoordinates(f"{quote(text)} is not coordinate move text (e.g. e2e4, e7e8q, c1c1n, P@e4)")
    squares = _leg_squares(pos.variant, m["legs"], text)
    frm, to, extra = squares[0], squares[-1], squares[1:-1]
    cands = [mv for mv in moves if mv.origin == frm and text_target(pos.t, mv) == to
             and mv.kind is not Kind.DROP and _text_stops(mv) == extra]
    if not cands:  # Fischer castling written as the king's move, where that names no other move
        cands = [mv for mv in moves if mv.kind is Kind.CASTLE and mv.origin == frm and mv.target == to != frm]
    if not cands:
        raise MoveError(f"illegal move {quote(text)}")
    suffix = m["suffix"]
    if suffix:
        chosen = [mv for mv in cands if is_choice(pos, mv) and _suffix(pos.t.letter[mv.piece]) == suffix]
        if not chosen:
            raise MoveError(f"illegal move {quote(text)}: {suffix!r} is not a choice here")
        return chosen[0]
    plain = [mv for mv in cands if not is_choice(pos, mv)]
    if not plain:
        options = ", ".join(sorted({_suffix(pos.t.letter[mv.piece]) for mv in cands}))
        raise MoveError(f"move {quote(text)} needs the new piece's letter, one of: {options}")
    return plain[0]


def _leg_squares(v: Variant, legs: str, text: str) -> tuple[int, ...]:
    """The squares of comma-joined legs ``e4f5,f5e6``: start, the squares between legs, end."""
    pairs = [leg.split("-") if "-" in leg else _SQUARE.findall(leg) for leg in legs.split(",")]
    if any(a[1] != b[0] for a, b in zip(pairs, pairs[1:])):
        raise MoveError(f"{quote(text)}: each leg must start where the one before it ended")
    return tuple(_coord_square(v, name, text) for name in [pairs[0][0]] + [pair[1] for pair in pairs])


def _coord_square(v: Variant, name: str, text: str) -> int:
    try:
        return v.square(name)
    except ValueError as e:
        raise MoveError(f"{quote(text)}: {e}") from None


def _one_coord(cands: list, text: str) -> Move:
    if not cands:
        raise MoveError(f"illegal move {quote(text)}")
    return cands[0]
