"""Game Courier logs (chessvariants.com), read and written.

A log is a list of turns in full algebraic notation: ``1. P e2-e4``,
``1... n h9-g7``.  A turn may chain actions with ``;``: a promotion is the
move plus a placement (``P e8-e9; Q-e9``), a transformation a placement on
the piece's own square (``N-c1``).  Details and choices: ``docs/records.md``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .board import Board, Move, RecordError, move_number
from .variant import Variant

__all__ = ["write", "write_move", "read"]

_SQ = r"[a-z]\d+"
_MOVE = re.compile(rf"(?P<frm>{_SQ})-(?P<to>{_SQ})")
_PLACE = re.compile(rf"(?P<label>[A-Za-z]+|@)-(?P<to>{_SQ})")
_REMOVE = re.compile(rf"(?P<sq>{_SQ})-@?")
_LABEL = re.compile(r"[A-Za-z]+")
_TOKEN = re.compile(r"\d+\s*\.+|;|[^\s;]+")
_NUMBER = re.compile(r"\d+\s*\.+")
_RESULTS = ("1-0", "0-1", "1/2-1/2", "*")  # a result written at the end is ignored


def write_move(board: Board, move: Move) -> str:
    """The Game Courier text of one legal move of ``board`` (no move number)."""
    v = board.variant
    to = v.square_name(move.to_square)
    if move.is_transformation:
        return f"{move.new_piece}-{to}"
    text = f"{move.piece} {v.square_name(move.from_square)}-{to}"
    if move.is_choice:
        text += f"; {move.new_piece}-{to}"
    return text


def write(board: Board) -> str:
    """The game of ``board`` as a Game Courier log, one numbered turn per line.

    Forced morphs, castling partners and en-passant victims are not written
    (the rules apply them); the last line ends with ``// <outcome>`` when the
    game is over.
    """
    b = board.root()
    lines = []
    for move in board.move_stack:
        lines.append(f"{move_number(b)} {write_move(b, move)}")
        b.push(move)
    outcome = b.outcome()
    if outcome is not None:
        if lines:
            lines[-1] += f" // {outcome}"
        else:
            lines.append(f"// {outcome}")
    return "".join(line + "\n" for line in lines)


# -- reading -------------------------------------------------------------------
@dataclass
class _Action:
    kind: str  # "move", "place" or "remove"
    text: str
    label: str | None = None
    frm: str | None = None
    to: str | None = None


@dataclass
class _Turn:
    actions: list
    text: str
    error: str | None = None


def _action(label: str | None, tok: str) -> _Action | None:
    text = f"{label} {tok}" if label else tok
    if m := _MOVE.fullmatch(tok):
        return _Action("move", text, label, m["frm"], m["to"])
    if label is None and (m := _PLACE.fullmatch(tok)):
        if m["label"] == "@":
            return _Action("remove", text, to=m["to"])
        return _Action("place", text, m["label"], to=m["to"])
    if label is None and (m := _REMOVE.fullmatch(tok)):
        return _Action("remove", text, to=m["sq"])
    return None


def _turns(text: str) -> list[_Turn]:
    """Split a log into turns; an unreadable token becomes a turn with ``error`` set (and ends the list)."""
    body = "\n".join(line.split("//", 1)[0] for line in text.splitlines())
    turns: list[_Turn] = []
    chained = False
    label = None
    for tok in _TOKEN.findall(body):
        if tok in _RESULTS:
            continue
        if _NUMBER.fullmatch(tok) or tok == ";":
            if label is not None:
                return turns + [_Turn([], label, f"label {label!r} is not followed by a move")]
            if tok == ";":
                if not turns or chained:
                    return turns + [_Turn([], tok, "';' must join two actions")]
                chained = True
            continue
        if label is None and _LABEL.fullmatch(tok):
            label = tok
            continue
        act = _action(label, tok)
        if act is None:
            shown = f"{label} {tok}" if label else tok
            return turns + [_Turn([], shown, "not Game Courier move text (e.g. P e2-e4, Q-e8, e5-)")]
        label = None
        if chained:
            turns[-1].actions.append(act)
            turns[-1].text += "; " + act.text
            chained = False
        else:
            turns.append(_Turn([act], act.text))
    if label is not None:
        turns.append(_Turn([], label, f"label {label!r} is not followed by a move"))
    elif chained:
        turns.append(_Turn([], ";", "';' at the end of the log joins nothing"))
    return turns


def _resolve(board: Board, turn: _Turn) -> Move:
    """The legal move a turn describes; ValueError with the reason if none."""
    first, rest = turn.actions[0], turn.actions[1:]
    if first.kind == "place":
        sq = board.variant.square(first.to)
        if rest:
            raise ValueError("a transformation (placement) cannot be chained with other actions")
        cands = [m for m in board.legal_moves
                 if m.is_transformation and m.from_square == sq and m.new_piece.upper() == first.label.upper()]
        if not cands:
            raise ValueError(f"no own piece on {first.to} can transform into {first.label.upper()}")
        return cands[0]
    if first.kind == "remove":
        raise ValueError("a turn cannot start by removing a piece")
    frm, to = board.variant.square(first.frm), board.variant.square(first.to)
    piece = board.piece_at(frm)
    if piece is None:
        raise ValueError(f"no piece on {first.frm}")
    if first.label and first.label.upper() != piece.upper():
        raise ValueError(f"the label says {first.label} but {piece} stands on {first.frm}")
    cands = [m for m in board.legal_moves if m.from_square == frm and m.to_square == to]
    if not cands:
        raise ValueError("illegal move")
    places = [a for a in rest if a.kind == "place" and a.to == first.to]
    if len(places) > 1:
        raise ValueError(f"two placements on {first.to}")
    if places:
        new = places[0].label.upper()
        chosen = [m for m in cands if m.new_piece.upper() == new]
        if not chosen:
            becomes = ", ".join(sorted({m.new_piece.upper() for m in cands}))
            raise ValueError(f"the piece cannot become {new} here (it becomes {becomes})")
    else:
        chosen = [m for m in cands if not m.is_choice]
        if not chosen:
            options = sorted({m.new_piece for m in cands})
            raise ValueError(f"a promotion needs the new piece, e.g. '; {options[0]}-{first.to}' "
                             f"(one of {', '.join(options)})")
    move = chosen[0]
    for a in rest:
        if a in places:
            continue
        if not _side_effect(board, move, a):
            raise ValueError(f"{a.text!r} is not part of this move")
    return move


def _side_effect(board: Board, move: Move, a: _Action) -> bool:
    """Does action ``a`` only restate what ``move`` does anyway (castling partner, en-passant capture)?"""
    v = board.variant
    if move.is_castling and a.kind == "move":
        pfrom, pto, _code = move.raw.extra
        return (a.frm, a.to) == (v.square_name(pfrom), v.square_name(pto)) and (
            a.label is None or a.label.upper() == board.piece_at(pfrom).upper())
    if move.is_en_passant and a.kind == "remove":
        return a.to == v.square_name(move.raw.extra[0])
    return False


def read(text: str, variant: str | Variant, setup: str | None = None, fen: str | None = None) -> Board:
    """Replay a Game Courier log of ``variant`` (from ``setup`` or ``fen``) and return the board.

    Move numbers, labels (any case) and ``//`` comments are optional.  A turn
    that cannot be read or played raises :class:`~morphchess.board.RecordError`
    naming its move number and text; ``error.board`` holds the game so far.
    """
    board = Board(variant, fen=fen, setup=setup)
    for turn in _turns(text):
        if turn.error:
            raise RecordError(turn.error, board, move_number(board), turn.text)
        try:
            move = _resolve(board, turn)
        except ValueError as e:
            raise RecordError(str(e), board, move_number(board), turn.text) from None
        board.push(move)
    return board
