"""The public game API, in the spirit of python-chess: :class:`Board` and :class:`Move`.

A :class:`Board` is a :class:`~morphchess.position.Position` plus the moves
played on it, so that moves can be taken back and written down (SAN, PGN,
Game Courier logs).  Use :class:`Position` directly where speed matters.

>>> board = Board("crossroads")
>>> board.push_san("f3(Z)")
<Move f2f3>
>>> board.piece_at("f3")
'Z'
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from . import san as _san
from .errors import InputError, cut, quote
from .move import Kind
from .move import Move as CoreMove
from .notation import MoveError, coord_text, from_fen, mover_chose, parse_coord, text_target, to_fen
from .position import Outcome, Position
from .variant import WHITE, Variant
from .variants import load_variant

__all__ = ["Board", "Move", "LegalMoves", "RecordError", "RESULTS", "move_number", "number_fits", "play_recorded",
           "check_result"]

RESULTS = ("1-0", "0-1", "1/2-1/2", "*")  # how a record may end


class Move:
    """One move, as seen from the position it was made in.

    ``piece`` and ``new_piece`` are the letters of the mover before and after
    the move (for a drop, the dropped piece) (upper case = White): they differ after a promotion, a
    transformation or a forced morph.  ``captured`` is the letter of the
    captured piece or None (a multi-leg move: the piece on its target, else the first
    taken on the way; ``legs`` names where it captures on the way).  ``raw`` is the
    core's :class:`morphchess.move.Move`; two moves are equal when their raw moves are.  Everything else is worked
    out when first asked for, so that listing the legal moves stays cheap.
    """

    __slots__ = ("raw", "_variant", "_mover", "_captured")

    def __init__(self, raw: CoreMove, variant: Variant, mover: int, captured: int) -> None:
        self.raw, self._variant, self._mover, self._captured = raw, variant, mover, captured

    from_square = property(lambda self: self.raw.origin, doc="The square the mover leaves.")
    to_square = property(lambda self: self.raw.target, doc="The square the mover arrives on.")
    is_castling = property(lambda self: self.raw.kind is Kind.CASTLE)
    is_en_passant = property(lambda self: self.raw.kind is Kind.EN_PASSANT)
    is_transformation = property(lambda self: self.raw.kind is Kind.TRANSFORM)
    is_drop = property(lambda self: self.raw.kind is Kind.DROP, doc="A piece put on the board from the hand.")
    legs = property(lambda self: self.raw.extra if self.raw.kind is Kind.LEGS else (),
                    doc="The squares a multi-leg move captures on before its target, in order.")
    piece = property(lambda self: self._variant.tables.letter[self._mover], doc="The mover's letter before.")
    new_piece = property(lambda self: self._variant.tables.letter[self.raw.piece], doc="The mover's letter after.")

    @property
    def castling_partner(self) -> tuple[int, int] | None:
        """Castling: the partner's (rook's) squares before and after; None for other moves."""
        if self.raw.kind is not Kind.CASTLE:
            return None
        return self.raw.extra[0], self.raw.extra[1]

    @property
    def unload_square(self) -> int | None:
        """An unload move (XBetza ``u``): where the taken piece is put (the origin for a swap); else None."""
        return self.raw.extra[0] if self.raw.kind is Kind.UNLOAD else None

    @property
    def text_to_square(self) -> int:
        """The square the coordinate text ends on: ``to_square``, except Fischer castling (shuffled
        arrays), written as the king taking its partner (``b1a1``)."""
        return text_target(self._variant.tables, self.raw)

    @property
    def captured(self) -> str | None:
        return self._variant.tables.letter[self._captured] or None

    @property
    def is_capture(self) -> bool:
        return self._captured != 0

    @property
    def is_choice(self) -> bool:
        """Did the player choose the new type (promotion or transformation)?"""
        return mover_chose(self._variant.tables, self._mover, self.raw)

    @property
    def is_morph(self) -> bool:
        """A forced change of type (the variant's morph table), not a choice."""
        return not self.is_choice and self.new_piece != self.piece

    @property
    def text(self) -> str:
        return coord_text(self._variant, self._mover, self.raw)

    def uci(self) -> str:
        """Coordinate text: ``e2e4``, ``e8e9q`` (promotion), ``c1c1n`` (transformation), ``P@e4``
        (drop), ``e4f5,f5e6`` (multi-leg capture)."""
        return self.text

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Move) and other.raw == self.raw

    def __hash__(self) -> int:
        return hash(self.raw)

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"<Move {self.text}>"


class LegalMoves:
    """The legal moves of a board, generated when first asked for (like python-chess's
    ``LegalMoveGenerator``): iterate, ``len``, ``in``, index; ``list(...)`` for a copy."""

    __slots__ = ("_board",)

    def __init__(self, board: Board) -> None:
        self._board = board

    def _moves(self) -> list[Move]:
        return self._board._legal()[0]

    def __iter__(self) -> Iterator[Move]:
        return iter(self._moves())

    def __len__(self) -> int:
        return len(self._board._legal()[1])

    def __bool__(self) -> bool:
        return bool(self._board._legal()[1])

    def __contains__(self, move: object) -> bool:
        return isinstance(move, Move) and move.raw in self._board._legal()[1]

    def __getitem__(self, i: int) -> Move:
        return self._moves()[i]

    def __repr__(self) -> str:
        return f"<LegalMoves ({', '.join(m.text for m in self)})>"


def move_number(board: Board) -> str:
    """The number of the move about to be played: ``"12."`` (White) or ``"12..."`` (Black)."""
    pos = board.position
    return f"{pos.fullmove}." if pos.turn == WHITE else f"{pos.fullmove}..."


def number_fits(board: Board, token: str) -> bool:
    """Does a record's move number (``12.``, ``12...``, ``12``) fit the move about to be played?
    ``12.`` may stand before either side's move, ``12...`` only before Black's."""
    digits = token.rstrip(". \t\r\n")
    return digits.lstrip("0") == str(board.position.fullmove) and ("..." not in token or board.turn != WHITE)


class RecordError(MoveError):
    """A game record that cannot be replayed to the end.

    ``board`` holds the game up to the move at fault (None if no game could
    be set up), ``move_number`` names that move (``"12."`` or ``"12..."``),
    ``text`` is its text in the record and ``line`` its line (1 = first).
    """

    def __init__(self, message: str, board: Board | None = None, move_number: str | None = None,
                 text: str | None = None, line: int | None = None) -> None:
        where = [f"line {line}"] if line is not None else []
        if move_number is not None:
            where.append(f"move {move_number}" + (f" {quote(text)}" if text is not None else ""))
        super().__init__(f"{', '.join(where)}: {message}" if where else message)
        self.board = board
        self.move_number = move_number
        self.text = text
        self.line = line


def play_recorded(board: Board, text: str, read: Callable[[str], Move], line: int | None = None) -> Move:
    """Play the move of a game record that ``read(text)`` names (e.g. ``board.parse_san``).

    Raises :class:`RecordError` naming the move when the game was over before it
    or ``read`` raises :class:`MoveError`; the board is then as it was."""
    number = move_number(board)
    outcome = board.outcome()
    if outcome is not None:
        raise RecordError(f"the game was already over: {outcome}", board, number, text, line)
    try:
        move = read(text)
    except MoveError as e:
        raise RecordError(str(e), board, number, text, line) from None
    board.push(move)
    return move


def check_result(board: Board, result: str, line: int | None = None) -> None:
    """Refuse a record's result (``1-0``, ``0-1``, ``1/2-1/2``, ``*``) that the rules contradict."""
    outcome = board.outcome()
    if outcome is not None and result != "*" and result != outcome.result():
        raise RecordError(f"the record says {result} but the rules say {outcome}", board, line=line)


class Board:
    """A game of a variant: the current position and the moves that led to it.

    ``variant`` is a built-in name, the path of a definition file, or a
    :class:`~morphchess.variant.Variant`.  ``setup`` names the start array
    (Polymorph: Black's ``knights``, ``bishops``, ``hybrids``); ``fen`` starts
    from position text instead (``setup`` is then only recorded).
    """

    def __init__(self, variant: str | Variant = "chess", fen: str | None = None, setup: str | None = None) -> None:
        self.variant = variant if isinstance(variant, Variant) else load_variant(variant)
        self.setup = "standard" if setup is None else setup
        self.variant.placement(self.setup)
        self.position = from_fen(self.variant, fen) if fen is not None else Position(self.variant, self.setup)
        self.root_fen = to_fen(self.position)
        self.move_stack: list[Move] = []
        self._cache: tuple | None = None   # (Moves, raw moves) of the current position
        self._caches: list = []            # the caches of the positions before each move

    # -- state ------------------------------------------------------------------
    @property
    def turn(self) -> int:
        """The side to move: WHITE (0) or BLACK (1)."""
        return self.position.turn

    @property
    def custom_start(self) -> bool:
        """Did the game start from position text other than the setup's array?"""
        return self.root_fen != to_fen(Position(self.variant, self.setup))

    def root(self) -> Board:
        """A new board at this game's starting position."""
        board = self.copy()
        while board.move_stack:
            board.pop()
        return board

    def move_numbers(self) -> list[str]:
        """The number of each move of the game (as :func:`move_number` writes it), counted from its
        start without playing the moves again (turns alternate in every variant)."""
        start = self.root().position
        first = 0 if start.turn == WHITE else 1
        return [f"{start.fullmove + (first + ply) // 2}" + ("." if (first + ply) % 2 == 0 else "...")
                for ply in range(len(self.move_stack))]

    def fen(self) -> str:
        """Position text (see ``docs/notation.md``)."""
        return to_fen(self.position)

    def piece_at(self, square: int | str) -> str | None:
        """The letter of the piece on a square (index or name), upper case = White; None if empty.
        Raises :class:`~morphchess.errors.InputError` for a square that is not on the board."""
        try:
            sq = self.variant.square(square) if isinstance(square, str) else square
        except ValueError as e:
            raise InputError(cut(str(e), 80)) from None
        if not 0 <= sq < self.variant.size:
            raise InputError(f"square {square!r} is off the board")
        return self.position.t.letter[self.position.board[sq]] or None

    def copy(self) -> Board:
        """An independent copy, move stack included."""
        b = Board.__new__(Board)
        b.variant, b.setup, b.root_fen = self.variant, self.setup, self.root_fen
        b.position = self.position.copy()
        b.move_stack = self.move_stack[:]
        b._cache, b._caches = self._cache, self._caches[:]
        return b

    # -- moves ------------------------------------------------------------------
    def move(self, raw: CoreMove) -> Move:
        """The :class:`Move` of a core move of the current position (a search result), made without
        generating the legal moves; :meth:`push` checks that it is legal."""
        pos = self.position
        mover = raw.piece if raw.kind is Kind.DROP else pos.board[raw.origin]
        return Move(raw, self.variant, mover, pos.captured(raw))

    def _legal(self) -> tuple:
        if self._cache is None:
            raws = self.position.legal_moves()
            self._cache = ([self.move(m) for m in raws], frozenset(raws))
        return self._cache

    @property
    def legal_moves(self) -> LegalMoves:
        """The legal moves of the side to move (see :class:`LegalMoves`)."""
        return LegalMoves(self)

    def is_legal(self, move: Move) -> bool:
        return move in self.legal_moves

    def push(self, move: Move) -> None:
        """Play a legal move.  Raises :class:`~morphchess.notation.MoveError` if it is not legal here."""
        if not isinstance(move, Move):
            raise TypeError(f"push() takes a Move, not {type(move).__name__}; "
                            "use push_uci() or push_san() for text")
        if move.raw not in self._legal()[1]:
            raise MoveError(f"illegal move {move.text!r} in {self.fen()}")
        self.position.make(move.raw)
        self.move_stack.append(move)
        self._caches.append(self._cache)
        self._cache = None

    def forget_earlier(self) -> None:
        """Drop the legal moves kept for the positions before this one (a take back generates them
        again when they are asked for): a board kept for long holds one position's legal moves."""
        self._caches = [None] * len(self._caches)

    def pop(self) -> Move:
        """Take back the last move and return it."""
        if not self.move_stack:
            raise IndexError("pop() on a board without moves")
        self.position.unmake()
        self._cache = self._caches.pop()
        return self.move_stack.pop()

    def peek(self) -> Move:
        """The last move played."""
        return self.move_stack[-1]

    def parse_uci(self, text: str) -> Move:
        """The legal move named by coordinate text (``e2e4``, ``e8e9q``, ``c1c1n``)."""
        return self.move(parse_coord(self.position, text, [m.raw for m in self._legal()[0]]))

    def push_uci(self, text: str) -> Move:
        move = self.parse_uci(text)
        self.push(move)
        return move

    def san(self, move: Move) -> str:
        """Standard algebraic notation of a legal move (see ``docs/records.md``)."""
        return _san.write(self, move)

    def parse_san(self, text: str) -> Move:
        """The legal move named by SAN text; forgiving, never ambiguous."""
        return _san.parse(self, text)

    def push_san(self, text: str) -> Move:
        move = self.parse_san(text)
        self.push(move)
        return move

    # -- end of game ----------------------------------------------------------------
    def is_check(self) -> bool:
        return self.position.in_check()

    def outcome(self) -> Outcome | None:
        """How the game has ended (checkmate, stalemate, bare king, draws), or None."""
        return self.position.outcome(list(self._legal()[1]))

    def is_game_over(self) -> bool:
        return self.outcome() is not None

    def is_checkmate(self) -> bool:
        return not self.legal_moves and self.is_check()

    def is_stalemate(self) -> bool:
        return not self.legal_moves and not self.is_check()

    def __repr__(self) -> str:
        return f"Board({self.variant.name!r}, fen={self.fen()!r})"
