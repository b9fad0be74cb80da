"""Play against the engine in a terminal (``morphchess play``).

Moves are read as SAN (``Nf3``, ``f3(Z)``), coordinates (``e2e4``, ``e7e8q``,
``c1c1n``) or Game Courier text (``P e2-e4``, ``N-c1``).  Commands: ``undo``,
``hint``, ``moves``, ``save FILE``, ``help``, ``quit``.
"""

from __future__ import annotations

import os
import re
import sys
import unicodedata

from .board import Board, Move
from .boardstyle import Lines, lines_of
from .engine import SearchResult, level_limits, search
from .errors import quote
from .gamecourier import read as read_gamecourier
from .notation import MoveError
from .pgn import write as write_pgn
from .pieces import colour_of, is_own
from .pieceset import symbol_of
from .variant import BLACK, WHITE

__all__ = ["Terminal", "render", "parse_move", "main_loop", "score_text"]

_SYMBOLS = {"king": "♚", "queen": "♛", "rook": "♜", "bishop": "♝", "knight": "♞", "pawn": "♟"}
_LIGHT_BG, _DARK_BG, _MARK_BG = "\033[48;5;180m", "\033[48;5;137m", "\033[48;5;143m"
_WHITE_FG, _BLACK_FG, _RESET = "\033[1;97m", "\033[1;30m", "\033[0m"
_COORD = re.compile(r"[a-z]\d+-?[a-z]\d+[a-z]?", re.IGNORECASE)

HELP = """Enter a move as SAN (Nf3, exd5, f3(Z), O-O), coordinates (e2e4, e7e8q, c1c1n)
or Game Courier text (P e2-e4, N-c1).  Commands:
  moves      list the legal moves        hint   let the engine suggest a move
  undo       take back your last move    save FILE   write the game as PGN
  help       this text                   quit   leave"""


def render(board: Board, colour: bool = False, unicode: bool = False, flip: bool = False) -> str:
    """The board as text: ranks and files labelled, the last move's squares marked.

    ``colour`` uses ANSI colours (square shades, white and black pieces); ``unicode``
    draws the orthodox pieces as chess symbols and every other piece by its letter.
    """
    v = board.variant
    if (points := lines_of(v)) is not None:
        return _render_points(board, points, colour, unicode, flip)
    pos = board.position
    t = pos.t
    last = board.move_stack[-1] if board.move_stack else None
    marked = {last.from_square, last.to_square} if last else set()
    ranks = range(v.ranks) if flip else range(v.ranks - 1, -1, -1)
    files = range(v.files - 1, -1, -1) if flip else range(v.files)
    lines = []
    for r in ranks:
        cells = []
        for f in files:
            sq = r * v.files + f
            p = pos.board[sq]
            letter = t.letter[p]
            if not p:
                ch = " " if colour else "."
            elif unicode and colour and v.type(t.type_of[p]).name.lower() in _SYMBOLS:
                ch = _SYMBOLS[v.type(t.type_of[p]).name.lower()]
            elif unicode and not colour and v.type(t.type_of[p]).name.lower() in _SYMBOLS:
                symbol = _SYMBOLS[v.type(t.type_of[p]).name.lower()]
                ch = chr(ord(symbol) - 6) if colour_of(p) == WHITE else symbol  # outlined symbols for White
            else:
                ch = letter
            if colour:
                bg = _MARK_BG if sq in marked else (_DARK_BG if (f + r) % 2 == 0 else _LIGHT_BG)
                fg = _WHITE_FG if is_own(p, WHITE) else _BLACK_FG
                cells.append(f"{bg}{fg} {ch} {_RESET}")
            else:
                cells.append(f"{ch}{'<' if last is not None and sq == last.to_square else ' '}")
        sep = "" if colour else " "
        lines.append(f"{r + 1:>2} {sep.join(cells)}")
    names = [chr(97 + f) for f in files]
    lines.append("   " + ("".join(f" {n} " for n in names) if colour else " ".join(f"{n} " for n in names)))
    return "\n".join(lines)


_RED, _WOOD = "\033[1;31m", "\033[48;5;180m\033[38;5;94m"


def _render_points(board: Board, lines: Lines, colour: bool, unicode: bool, flip: bool) -> str:
    """A board of points (Xiangqi's, :mod:`morphchess.boardstyle`) as text: pieces where the lines
    cross, the river and the palaces' diagonals; ``unicode`` draws the pieces' Chinese faces (two
    columns each) and box lines, ``colour`` the red and black sides on wood."""
    v, pos = board.variant, board.position
    wide = 2 if unicode else 1  # columns of one point
    dash, bar, cross = ("─", "│", "┼") if unicode else ("-", "|", "+")
    files = range(v.files - 1, -1, -1) if flip else range(v.files)
    ranks = list(range(v.ranks) if flip else range(v.ranks - 1, -1, -1))

    def point(sq: int) -> str:
        p = pos.board[sq]
        if not p:
            return cross + dash * (wide - 1)
        t = v.type(pos.t.type_of[p])
        face = symbol_of(t, v.board_style).face
        ch = face[colour_of(p)] if unicode and face else pos.t.letter[p]
        ch += " " * (wide - _columns(ch))
        return (_RED if colour and colour_of(p) == WHITE else _BLACK_FG if colour else "") + ch + (
            _WOOD if colour else "")

    def between(upper: int, lower: int) -> str:
        if lines.crosses_river(min(upper, lower)):
            left, right = (" 楚 河", "漢 界 ") if unicode else (" river", "river ")
            room = (wide + 2) * (v.files - 1) - 1 - _columns(left) - _columns(right)
            return bar + left + " " * room + right + bar
        out = ""
        for i, f in enumerate(files):
            out += bar + " " * (wide - 1)
            if i < v.files - 1:
                out += _diagonal(lines, f, files[i + 1], upper, lower) + " "
        return out.rstrip()

    out = []
    for i, r in enumerate(ranks):
        row = (dash * 2).join(point(r * v.files + f) for f in files).rstrip(dash)
        out.append(f"{r + 1:>2} " + (_WOOD + row + _RESET if colour else row))
        if i < v.ranks - 1:
            out.append("   " + between(r, ranks[i + 1]))
    out.append("   " + "".join(chr(97 + f).ljust(wide + 2) for f in files).rstrip())
    return "\n".join(out)


def _columns(text: str) -> int:
    """Terminal columns of ``text``: two for each wide (CJK) character."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def _diagonal(lines: Lines, f: int, g: int, upper: int, lower: int) -> str:
    """The palace diagonal in the gap between files ``f`` and ``g`` and ranks ``upper`` and ``lower``
    (neighbours on screen), or a space.  The box's main diagonal (file and rank growing together)
    reads ``/`` from either side of the board, the other one ``\\``."""
    low_f, low_r = min(f, g), min(upper, lower)
    for f0, r0, f1, r1 in lines.palaces:
        if f0 <= low_f < f1 and r0 <= low_r < r1:
            if low_f - f0 == low_r - r0:
                return "/"
            if low_f - f0 == r1 - low_r - 1:
                return "\\"
    return " "


def describe(board: Board, move: Move) -> str:
    """A sentence about a move just found in ``board`` (before it is played): SAN plus any change of shape."""
    v = board.variant
    text = board.san(move)
    names = {t.letter: t.name for t in v.types}
    before, after = names[move.piece.upper()], names[move.new_piece.upper()]
    if move.is_transformation:
        text += f" ({before} transforms into {after})"
    elif move.new_piece != move.piece:
        how = "is promoted to" if move.is_choice else "morphs into"
        text += f" ({before} {how} {after} on {v.square_name(move.to_square)})"
    return text


def parse_move(board: Board, text: str) -> Move:
    """The legal move named by SAN, coordinate or Game Courier text; MoveError with a clear reason."""
    text = text.strip()
    if _COORD.fullmatch(text):
        return board.parse_uci(text)
    try:
        return board.parse_san(text)
    except MoveError as san_error:
        if "-" not in text:
            raise MoveError(f"cannot read {quote(text)}: {san_error}") from None
        try:
            replay = read_gamecourier(text, board.variant, fen=board.fen())
        except MoveError as e:
            raise MoveError(f"cannot read {quote(text)} as SAN ({san_error}) or as Game Courier text ({e})") from None
    if len(replay.move_stack) != 1:
        raise MoveError(f"{quote(text)} holds {len(replay.move_stack)} moves; enter one")
    return board.move(replay.move_stack[0].raw)


def score_text(board: Board, result: SearchResult) -> str:
    """A search's score from White's side, as the web page shows it: ``+0.35 (White's view)`` or
    ``mate in 3 for Black``."""
    sign = 1 if board.turn == WHITE else -1
    if result.mate is not None:
        mate = sign * result.mate
        return f"mate in {abs(mate)} for {'White' if mate > 0 else 'Black'}"
    return f"{sign * result.score / 100:+.2f} (White's view)"

class Terminal:
    """One game against the engine, driven by lines of text (so it can be scripted and tested)."""

    def __init__(self, board: Board, level: int, human: int, out=sys.stdout, colour: bool = False,
                 unicode: bool = False) -> None:
        self.board = board
        self.limits = level_limits(level)
        self.human = human
        self.out = out
        self.colour = colour
        self.unicode = unicode

    def say(self, text: str = "") -> None:
        print(text, file=self.out, flush=True)

    def show(self) -> None:
        self.say()
        self.say(render(self.board, self.colour, self.unicode, flip=self.human == BLACK))
        outcome = self.board.outcome()
        if outcome is not None:
            self.say(f"Game over: {outcome}.  (undo, save FILE or quit)")
        else:
            side = "White" if self.board.turn == WHITE else "Black"
            check = " (check)" if self.board.is_check() else ""
            self.say(f"{side} to move{check}.")

    def best(self) -> tuple[Move, SearchResult]:
        """The engine's move and its search (only asked while the game goes on)."""
        result = search(self.board.position, **self.limits)
        assert result.move is not None
        return self.board.move(result.move), result

    def engine_move(self) -> None:
        board = self.board
        self.say("Thinking...")
        move, result = self.best()
        self.say(f"Engine plays {describe(board, move)}   [{score_text(board, result)}, depth {result.depth}]")
        board.push(move)

    def command(self, line: str) -> bool:
        """Handle one line of input; False when the player quits."""
        words = line.split()
        if not words:
            return True
        cmd = words[0].lower()
        if cmd in ("quit", "exit", "q"):
            return False
        action = {"help": self.help, "?": self.help, "moves": self.moves, "hint": self.hint,
                  "undo": self.undo, "save": self.save}.get(cmd)
        if action is not None:
            action(words[1:])
        elif self.board.outcome() is not None:
            self.say("The game is over: undo, save FILE or quit.")
        elif self.board.turn != self.human:
            self.engine_move()
            self.show()
        else:
            self.play(line)
        return True

    def help(self, _args: list[str]) -> None:
        self.say(HELP)

    def moves(self, _args: list[str]) -> None:
        board = self.board
        self.say(" ".join(sorted(board.san(m) for m in board.legal_moves)) or "no legal moves")

    def hint(self, _args: list[str]) -> None:
        if self.board.outcome() is not None:
            self.say("The game is over.")
        else:
            self.say(f"Hint: {describe(self.board, self.best()[0])}")

    def undo(self, _args: list[str]) -> None:
        """Take back the player's last move (and the engine's answer)."""
        board = self.board
        if len(board.move_stack) < (1 if board.turn != self.human else 2):
            self.say("Nothing to take back.")
            return
        board.pop()
        if board.turn != self.human:
            board.pop()
        self.show()

    def save(self, args: list[str]) -> None:
        """Write the game so far as PGN to the file named in ``args``."""
        if len(args) != 1:
            self.say("Usage: save FILE")
            return
        names = {"White": "you" if self.human == WHITE else "morphchess",
                 "Black": "you" if self.human == BLACK else "morphchess"}
        try:
            with open(args[0], "w", encoding="utf-8") as f:
                f.write(write_pgn(self.board, names))
            self.say(f"Saved to {args[0]}.")
        except OSError as e:
            self.say(f"Cannot save to {args[0]}: {e.strerror}.")

    def play(self, line: str) -> None:
        """The player's move in any notation, then the engine's answer."""
        board = self.board
        try:
            move = parse_move(board, line)
        except MoveError as e:
            self.say(f"{e}.  Type 'moves' for the legal moves, 'help' for help.")
            return
        self.say(f"You play {describe(board, move)}")
        board.push(move)
        if board.outcome() is None:
            self.engine_move()
        self.show()


def main_loop(board: Board, level: int, human: int, inp=sys.stdin, out=sys.stdout, colour: bool | None = None,
              unicode: bool | None = None) -> None:
    """Play a game, reading commands from ``inp`` until it ends or the player quits."""
    tty = out.isatty() if hasattr(out, "isatty") else False
    if colour is None:
        colour = tty and not os.environ.get("NO_COLOR") and os.environ.get("TERM") != "dumb"
    if unicode is None:
        unicode = tty and (getattr(out, "encoding", "") or "").lower().startswith("utf")
    term = Terminal(board, level, human, out, colour, unicode)
    term.say(f"{board.variant.name}: you play {'White' if human == WHITE else 'Black'}. Type 'help' for help.")
    if board.turn != human and board.outcome() is None:
        term.engine_move()
    term.show()
    while True:
        if tty:
            print("> ", end="", file=out, flush=True)
        line = inp.readline()
        if not line:
            break
        if not term.command(line.strip()):
            break
