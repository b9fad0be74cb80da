"""Standard algebraic notation (SAN) for every variant, morphs and transformations included.

The form (``docs/records.md``): piece ID (none for the pawn ``P``), the
disambiguation needed (file, else rank, else square), ``x`` for a capture, the
destination, ``=X`` for a chosen promotion, ``(X)`` for a forced morph, then
``+`` or ``#``.  Castling is ``O-O`` (towards the last file) or ``O-O-O``;
a transformation is the piece, its square and ``=X``: ``Bc1=N``; a drop
``P@e4``; a multi-leg move in full: ``Le4xf5xe6``, ``Ld3xd4-d3``.

Reading is forgiving (missing ``x``/``+``/``(X)``, long algebraic ``Ng1f3``
or ``Ng1-f3``, coordinate text ``e7e8q``, ``0-0``) but never guesses between
two moves.  Functions take a :class:`morphchess.board.Board`.
"""

from __future__ import annotations

import re

from .errors import quote
from .move import Kind
from .notation import MoveError

__all__ = ["write", "parse"]

_SAN = re.compile(r"(?P<piece>[A-Z])?(?P<file>[a-z])??(?P<rank>[0-9]{1,3})??(?P<sep>[x:-])?(?P<to>[a-z][0-9]{1,3})"
                  r"(?:=?(?P<choice>[A-Za-z]))?(?:\((?P<morph>[A-Za-z])\))?")
_LEGS = re.compile(r"(?P<piece>[A-Z])?(?P<frm>[a-z][0-9]{1,3})(?P<legs>(?:[x:][a-z][0-9]{1,3})*)[x:-]"
                   r"(?P<to>[a-z][0-9]{1,3})(?:=?(?P<choice>[A-Za-z]))?(?:\((?P<morph>[A-Za-z])\))?")
_UNLOAD = re.compile(r"(?P<piece>[A-Z])?(?P<frm>[a-z][0-9]{1,3})[x:-]?(?P<to>[a-z][0-9]{1,3})"
                     r"(?:=?(?P<choice>[A-Za-z]))?>(?P<at>[a-z][0-9]{1,3})(?:\((?P<morph>[A-Za-z])\))?")
_SQUARE = re.compile(r"[a-z][0-9]{1,3}")
_WALL = re.compile(r"[^,]+,[a-z][0-9]{1,3}")  # a move, then the square of the wall it puts
_CASTLE = re.compile(r"(?P<castle>[O0]-[O0](?P<long>-[O0])?)(?:\((?P<morph>[A-Za-z])\))?")
_SUFFIX = re.compile(r"(?:[+#!?]|\s*e\.?p\.?)+$")  # one character a repetition: no backtracking blow-up
MAX_LENGTH = 40  # longer text is no move (and is not searched)


def _castle_side(board, move) -> str:
    """``O-O`` or ``O-O-O``: the side of the king the partner stands on (Fischer castling too)."""
    F = board.variant.files
    return "O-O" if move.castling_partner[0] % F > move.from_square % F else "O-O-O"


def _disambiguation(board, move, others) -> str:
    """File, else rank, else square of ``move``'s origin, as needed against ``others``."""
    if not others:
        return ""
    F = board.variant.files
    name = board.variant.square_name(move.from_square)
    if all(o.from_square % F != move.from_square % F for o in others):
        return name[0]
    if all(o.from_square // F != move.from_square // F for o in others):
        return name[1:]
    return name


def _long_form(board, move) -> str:
    """A multi-leg move: ``Le4xf5xe6``, ``Ld3xd4-d3`` (igui), ``Ld3-d3`` (back on its square), or
    an unload: ``Ra1xa8>a1`` (the piece taken on a8 goes to a1)."""
    v = board.variant
    text = move.piece.upper() + v.square_name(move.from_square)
    text += "".join("x" + v.square_name(sq) for sq in move.legs)
    takes = move.to_square != move.from_square and board.piece_at(move.to_square)
    text += ("x" if takes else "-") + v.square_name(move.to_square)
    text += "=" + move.new_piece.upper() if move.is_choice else ""
    return text + ("" if move.unload_square is None else ">" + v.square_name(move.unload_square))


def write(board, move) -> str:
    """SAN of a legal move of ``board``."""
    if move not in board.legal_moves:
        raise MoveError(f"illegal move {move.text!r} in {board.fen()}")
    v = board.variant
    letter = move.piece.upper()
    to = v.square_name(move.to_square)
    if move.is_drop:
        text = f"{letter}@{to}"
    elif move.is_transformation:
        text = f"{letter}{to}={move.new_piece.upper()}"
    elif move.is_castling and sum(m.is_castling and _castle_side(board, m) == _castle_side(board, move)
                                  for m in board.legal_moves) == 1:
        text = _castle_side(board, move)
    elif move.legs or move.from_square == move.to_square or move.unload_square is not None:
        text = _long_form(board, move)
    else:
        others = [m for m in board.legal_moves
                  if m.to_square == move.to_square and m.from_square != move.from_square
                  and m.piece.upper() == letter and not m.is_transformation and not m.is_drop and not m.legs
                  and m.unload_square is None]
        if letter == "P" and move.is_capture:
            F = v.files
            same_file = [o for o in others if o.from_square % F == move.from_square % F]
            text = v.square_name(move.from_square) if same_file else v.square_name(move.from_square)[0]
        elif letter == "P":
            text = _disambiguation(board, move, others)
        else:
            text = letter + _disambiguation(board, move, others)
        text += ("x" if move.is_capture else "") + to
        if move.is_choice:
            text += "=" + move.new_piece.upper()
    if move.is_morph:
        text += f"({move.new_piece.upper()})"
    if move.raw.kind is Kind.WALL:  # the wall's square after a comma, as Fairy-Stockfish writes it
        text += "," + v.square_name(move.raw.extra[1])
    pos = board.position
    pos.make(move.raw)
    try:
        if pos.in_check():
            text += "#" if not pos.legal_moves() else "+"
    finally:
        pos.unmake()
    return text


def parse(board, text: str):
    """The legal move of ``board`` named by SAN text.  Raises :class:`MoveError`."""
    if len(text) > MAX_LENGTH:
        raise MoveError(f"{quote(text)} is too long for a move ({len(text)} characters)")
    core = _SUFFIX.sub("", text.strip())
    v = board.variant
    moves = board.legal_moves
    castle = _CASTLE.fullmatch(core)
    if castle:
        side = "O-O-O" if castle["long"] else "O-O"
        cands = [m for m in moves if m.is_castling and _castle_side(board, m) == side]
        if castle["morph"]:
            cands = [m for m in cands if m.new_piece.upper() == castle["morph"].upper()]
        return _one(cands, text, "no such castling here")
    if v.walling and _WALL.fullmatch(core):
        return _walled(board, core, text)
    if "@" in core or "," in core:  # a drop (P@e4; python-chess writes a pawn's @e4) or a move's legs
        return board.parse_uci("P" + core if core.startswith("@") else core)
    legs = _LEGS.fullmatch(core)
    if legs and legs["legs"]:
        return _multi_leg(board, legs, text)
    if unload := _UNLOAD.fullmatch(core):
        return _multi_leg(board, unload, text)
    g = _SAN.fullmatch(core)
    if not g:
        raise MoveError(f"{quote(text)} is not a move in SAN (e.g. Nf3, exd5, e9=Q, O-O, Bc1=N, f3(Z)) "
                        f"or coordinate text (e.g. e2e4)")
    try:
        to = v.square(g["to"])
    except ValueError as e:
        raise MoveError(f"{quote(text)}: {e}") from None
    F = v.files
    file = ord(g["file"]) - 97 if g["file"] else None
    rank = int(g["rank"]) - 1 if g["rank"] else None
    piece = g["piece"]
    if piece is None and (file is None or rank is None):
        piece = "P"  # a pawn move, unless the whole origin square is given
    choice = g["choice"].upper() if g["choice"] else None
    morph = g["morph"].upper() if g["morph"] else None
    cands = [m for m in moves if m.to_square == to and not m.legs and not m.is_drop and m.unload_square is None
             and (piece is None or m.piece.upper() == piece)
             and (file is None or m.from_square % F == file)
             and (rank is None or m.from_square // F == rank)
             and (g["sep"] not in ("x", ":") or m.is_capture)
             and _becomes(m, choice, morph)]
    if not cands and not choice and any(
            m.is_choice and m.to_square == to and (piece is None or m.piece.upper() == piece) for m in moves):
        options = sorted({m.new_piece.upper() for m in moves if m.is_choice and m.to_square == to})
        raise MoveError(f"{quote(text)}: say what the piece becomes, e.g. ={options[0]} (one of {', '.join(options)})")
    return _one(cands, text, "illegal move")


def _becomes(m, choice: str | None, morph: str | None) -> bool:
    """Does move ``m`` make the mover what ``=choice`` and ``(morph)`` (upper case or None) say?"""
    return (m.new_piece.upper() == choice if choice else not m.is_choice) and (
        morph is None or m.new_piece.upper() == morph)


def _multi_leg(board, g: re.Match, text: str):
    """The multi-leg move of the long form ``Le4xf5xe6`` or the unload ``Ra1xa8>a1`` (see
    :func:`_long_form`)."""
    v = board.variant
    unload = "at" in g.groupdict()
    try:
        squares = [v.square(name) for name in [g["frm"], *_SQUARE.findall("" if unload else g["legs"]), g["to"]]]
        extra = (v.square(g["at"]),) if unload else tuple(squares[1:-1])
    except ValueError as e:
        raise MoveError(f"{quote(text)}: {e}") from None
    choice = g["choice"].upper() if g["choice"] else None
    morph = g["morph"].upper() if g["morph"] else None
    cands = [m for m in board.legal_moves if m.from_square == squares[0] and m.to_square == squares[-1]
             and (m.unload_square is not None) == unload and ((m.unload_square,) if unload else m.legs) == extra
             and (g["piece"] is None or m.piece.upper() == g["piece"]) and _becomes(m, choice, morph)]
    return _one(cands, text, "illegal move")


def _walled(board, core: str, text: str):
    """A move that puts a wall, in SAN with the wall's square after a comma (``e4,d5``)."""
    wall = core[core.rindex(",") + 1:]
    cands = [m for m in board.legal_moves if m.raw.kind is Kind.WALL
             and board.variant.square_name(m.raw.extra[1]) == wall and _SUFFIX.sub("", write(board, m)) == core]
    return _one(cands, text, "illegal move")


def _one(cands: list, text: str, why: str):
    if not cands:
        raise MoveError(f"{why} {quote(text)}")
    if len(cands) > 1:
        raise MoveError(f"ambiguous move {quote(text)}: it could be {', '.join(m.text for m in cands)}")
    return cands[0]
