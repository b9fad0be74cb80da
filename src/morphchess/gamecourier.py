"""Game Courier logs (chessvariants.com), read and written.

A log is a list of turns in full algebraic notation: ``1. P e2-e4``,
``1... n h9-g7``.  A turn may chain actions with ``;``: a promotion is the
move plus a placement (``P e8-e9; Q-e9``), a transformation a placement on
the piece's own square (``N-c1``), a drop ``P*e4``, a multi-leg move its legs
(``L e4-f5; f5-e6``).  Details and choices: ``docs/records.md``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import partial

from .board import RESULTS, Board, Move, RecordError, check_result, move_number, number_fits, play_recorded
from .errors import cut, quote
from .notation import MoveError
from .variant import Variant

__all__ = ["write", "write_move", "read", "read_log"]

_SQ = r"[a-z][0-9]{1,3}"
_MOVE = re.compile(rf"(?P<frm>{_SQ})-(?P<to>{_SQ})")
_PLACE = re.compile(rf"(?P<label>[A-Za-z]+|@)-(?P<to>{_SQ})")
_REMOVE = re.compile(rf"(?P<sq>{_SQ})-@?")
_DROP = re.compile(rf"(?P<label>[A-Za-z]+)\*(?P<to>{_SQ})")
_LABEL = re.compile(r"[A-Za-z]+")
_TOKEN = re.compile(r"[0-9]+\s*\.+|;|[^\s;]+")
_NUMBER = re.compile(r"[0-9]+\s*\.+")


def write_move(board: Board, move: Move) -> str:
    """The Game Courier text of one legal move of ``board`` (no move number)."""
    v = board.variant
    to = v.square_name(move.to_square)
    if move.is_transformation:
        return f"{move.new_piece}-{to}"
    if move.is_drop:
        return f"{move.piece}*{to}"
    squares = [v.square_name(sq) for sq in (move.from_square, *move.legs, move.to_square)]
    text = f"{move.piece} " + "; ".join(f"{a}-{b}" for a, b in zip(squares, squares[1:]))
    if move.is_choice:
        text += f"; {move.new_piece}-{to}"
    if (partner := move.castling_partner) and v.tables.fischer:  # the partner's move tells it from a king's move
        pfrom, pto = partner
        text += f"; {board.piece_at(pfrom)} {v.square_name(pfrom)}-{v.square_name(pto)}"
    if move.unload_square is not None:  # the piece taken, put where it is unloaded
        text += f"; {board.piece_at(move.to_square)}-{v.square_name(move.unload_square)}"
    return text


def write(board: Board, texts: list[str] | None = None) -> str:
    """The game of ``board`` as a Game Courier log, one numbered turn per line.

    Forced morphs, castling partners and en-passant victims are not written
    (the rules apply them); the last line ends with ``// <outcome>`` when the
    game is over.  ``texts``: the moves already written by :func:`write_move`
    (a stored game), so that the moves are not played again.
    """
    if texts is None:
        b, texts = board.root(), []
        for move in board.move_stack:
            texts.append(write_move(b, move))
            b.push(move)
    lines = [f"{number} {text}" for number, text in zip(board.move_numbers(), texts)]
    outcome = board.outcome()
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
    shown: str = ""  # the text of a token that could not be read
    error: str | None = None
    number: str | None = None  # the move number written before it

    @property
    def text(self) -> str:
        return "; ".join(a.text for a in self.actions) if self.actions else self.shown


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
    if label is None and (m := _DROP.fullmatch(tok)):
        return _Action("drop", text, m["label"], to=m["to"])
    return None


class _Log:
    """Splits a log into turns; an unreadable token becomes a last turn with ``error`` set."""

    def __init__(self, text: str) -> None:
        self.turns: list[_Turn] = []
        self.result: str | None = None  # a result written at the end
        self.chained = False
        self.label: str | None = None
        self.number: str | None = None
        body = "\n".join(line.split("//", 1)[0] for line in text.splitlines())
        for tok in _TOKEN.findall(body):
            error = self.take(tok)
            if error:
                self.turns.append(_Turn([], error[0], error[1]))
                return
        if self.label is not None:
            self.turns.append(_Turn([], self.label, f"label {quote(self.label)} is not followed by a move"))
        elif self.chained:
            self.turns.append(_Turn([], ";", "';' at the end of the log joins nothing"))

    def take(self, tok: str) -> tuple[str, str] | None:
        """Take one token; (text, reason) if it cannot be read."""
        if self.result is not None:
            return tok, f"the result {self.result} must end the log"
        if tok in RESULTS or _NUMBER.fullmatch(tok) or tok == ";":
            return self.separator(tok)
        if self.label is None and _LABEL.fullmatch(tok):
            self.label = tok
            return None
        act = _action(self.label, tok)
        if act is None:
            return (f"{self.label} {tok}" if self.label else tok,
                    "not Game Courier move text (e.g. P e2-e4, Q-e8, e5-)")
        self.label = None
        if self.chained:
            self.turns[-1].actions.append(act)
            self.chained = False
        else:
            self.turns.append(_Turn([act], number=self.number))
            self.number = None
        return None

    def separator(self, tok: str) -> tuple[str, str] | None:
        """A result, a move number or ``;``."""
        if self.label is not None:
            return self.label, f"label {quote(self.label)} is not followed by a move"
        if tok == ";":
            if not self.turns or self.chained:
                return tok, "';' must join two actions"
            self.chained = True
        elif self.chained:
            return tok, "';' must join two actions"
        elif tok in RESULTS:
            self.result = tok
        else:
            self.number = tok
        return None


def _square(board: Board, name: str) -> int:
    try:
        return board.variant.square(name)
    except ValueError as e:
        raise MoveError(str(e)) from None


def _resolve(board: Board, turn: _Turn) -> Move:
    """The legal move a turn describes; MoveError with the reason if none."""
    first, rest = turn.actions[0], turn.actions[1:]
    if first.kind == "place":
        sq = _square(board, first.to)
        if rest:
            raise MoveError("a transformation (placement) cannot be chained with other actions")
        cands = [m for m in board.legal_moves
                 if m.is_transformation and m.from_square == sq and m.new_piece.upper() == first.label.upper()]
        if not cands:
            raise MoveError(f"no own piece on {first.to} can transform into {cut(first.label.upper())}")
        return cands[0]
    if first.kind == "remove":
        raise MoveError("a turn cannot start by removing a piece")
    if first.kind == "drop":
        return _drop(board, first, rest)
    frm = _square(board, first.frm)
    legs, to, rest = _multi_leg(board, first, rest)
    to_name = board.variant.square_name(to)
    piece = board.piece_at(frm)
    if piece is None:
        raise MoveError(f"no piece on {first.frm}")
    if first.label and first.label.upper() != piece.upper():
        raise MoveError(f"the label says {cut(first.label)} but {piece} stands on {first.frm}")
    cands = [m for m in board.legal_moves
             if m.from_square == frm and m.to_square == to and m.legs == legs and not m.is_drop]
    # a Fischer castling may share its squares with a king's move, an unload with a capture:
    # the partner's move or the placement of the piece taken decides
    cands = ([m for m in cands if _special(m) and any(_side_effect(board, m, a) for a in rest)]
             or [m for m in cands if not _special(m)] or cands)
    if not cands:
        raise MoveError("illegal move")
    move = _chosen(cands, [a for a in rest if a.kind == "place" and a.to == to_name], to_name)
    for a in rest:
        if not (a.kind == "place" and a.to == to_name) and not _side_effect(board, move, a):
            raise MoveError(f"{quote(a.text)} is not part of this move")
    return move


def _drop(board: Board, first: _Action, rest: list[_Action]) -> Move:
    """The drop ``P*e4``: a piece from the hand put on a square, alone in its turn."""
    if rest:
        raise MoveError("a drop cannot be chained with other actions")
    to = _square(board, first.to or "")
    cands = [m for m in board.legal_moves if m.is_drop and m.to_square == to
             and m.piece.upper() == (first.label or "").upper()]
    if not cands:
        raise MoveError(f"no {cut(first.label or '')} in hand can be dropped on {first.to}")
    return cands[0]


def _multi_leg(board: Board, first: _Action, rest: list[_Action]) -> tuple[tuple, int, list[_Action]]:
    """A multi-leg move written as chained moves, each from where the last ended (``L e4-f5; f5-e6``):
    (the squares between its legs, its target, the actions after it) when a legal move fits;
    else ``((), the first move's target, rest)``."""
    names = [first.to or ""]
    for a in rest:
        if a.kind != "move" or a.frm != names[-1]:
            break
        names.append(a.to or "")
    if len(names) > 1:
        frm, squares = _square(board, first.frm or ""), tuple(_square(board, name) for name in names)
        if any(m.from_square == frm and m.to_square == squares[-1] and m.legs == squares[:-1]
               for m in board.legal_moves):
            return squares[:-1], squares[-1], rest[len(names) - 1:]
    return (), _square(board, first.to or ""), rest


def _resolve_text(board: Board, turn: _Turn, _text: str) -> Move:
    return _resolve(board, turn)


def _chosen(cands: list[Move], places: list[_Action], to: str) -> Move:
    """The move of ``cands`` that the placements on its destination ``to`` choose."""
    if len(places) > 1:
        raise MoveError(f"two placements on {to}")
    if places:
        new = (places[0].label or "").upper()
        chosen = [m for m in cands if m.new_piece.upper() == new]
        if not chosen:
            becomes = ", ".join(sorted({m.new_piece.upper() for m in cands}))
            raise MoveError(f"the piece cannot become {cut(new)} here (it becomes {becomes})")
    else:
        chosen = [m for m in cands if not m.is_choice]
        if not chosen:
            options = sorted({m.new_piece for m in cands})
            raise MoveError(f"a promotion needs the new piece, e.g. '; {options[0]}-{to}' "
                            f"(one of {', '.join(options)})")
    return chosen[0]


def _special(move: Move) -> bool:
    """Is ``move`` told from a plain move with its squares only by an action after it?"""
    return move.is_castling or move.unload_square is not None


def _side_effect(board: Board, move: Move, a: _Action) -> bool:
    """Does action ``a`` only restate what ``move`` does anyway (castling partner, en-passant capture,
    the unloading of the piece taken)?"""
    v = board.variant
    if move.unload_square is not None and a.kind == "place":
        return a.to == v.square_name(move.unload_square) and a.label == board.piece_at(move.to_square)
    if (partner := move.castling_partner) and a.kind == "move":
        pfrom, pto = partner
        return (a.frm, a.to) == (v.square_name(pfrom), v.square_name(pto)) and (
            a.label is None or a.label.upper() == (board.piece_at(pfrom) or "").upper())
    if move.is_en_passant and a.kind == "remove":
        return a.to == v.square_name(move.raw.extra[0])
    return False


def read(text: str, variant: str | Variant, setup: str | None = None, fen: str | None = None) -> Board:
    """Replay a Game Courier log of ``variant`` (from ``setup`` or ``fen``) and return the board
    (:func:`read_log` also gives the result written at its end)."""
    return read_log(text, variant, setup, fen)[0]


def read_log(text: str, variant: str | Variant, setup: str | None = None,
             fen: str | None = None) -> tuple[Board, str | None]:
    """Replay a Game Courier log; the board and the result written at its end (None if none).

    Move numbers, labels (any case) and ``//`` comments are optional; a move
    number must fit its move, a result must end the log and fit the rules.
    A turn that cannot be read or played, or comes after the end of the game,
    raises :class:`~morphchess.board.RecordError` naming its move number and
    text; ``error.board`` holds the game so far.
    """
    board = Board(variant, fen=fen, setup=setup)
    log = _Log(text)
    for turn in log.turns:
        if turn.error:
            raise RecordError(turn.error, board, move_number(board), turn.text)
        if turn.number is not None and not number_fits(board, turn.number):
            raise RecordError(f"the move number {quote(turn.number)} does not fit", board, move_number(board),
                              turn.text)
        play_recorded(board, turn.text, partial(_resolve_text, board, turn))
    if log.result is not None:
        check_result(board, log.result)
    return board, log.result
