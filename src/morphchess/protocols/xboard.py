"""``morphchess xboard``: the engine behind XBoard/WinBoard's protocol (CECP v2, see ``docs/protocols.md``).

Variants other than chess are engine-defined variants: on ``variant NAME`` the engine sends
``setup (PIECETOCHAR) WxH+0_fairy FEN`` and one ``piece`` command per type (XBetza), so that
XBoard draws the board and knows the moves.  A morph is written as the promotion it is
(``f2f3z``: the pawn arrives as an amazon); with ``highlight=1`` the engine marks the squares
a lifted piece may go to, morph squares in blue with the new type as the forced choice.
"""

from __future__ import annotations

import queue
import re
import sys
from typing import TextIO

from ..board import Board, Move
from ..errors import InputError
from ..notation import FenError, MoveError, castling_rights
from ..pieces import colour_of, type_of
from ..protocol_text import (
    holdings_types,
    move_text,
    offered_name,
    parse_move,
    promoted_partners,
    rank_shift,
    shift_ranks,
    xboard_king,
    xboard_slots,
)
from ..variant import BLACK, WHITE, PieceType, Variant
from .common import (
    ENGINE_NAME,
    MAX_MS,
    Clock,
    CommandEngine,
    Output,
    ProtocolError,
    Thinker,
    builtin_names,
    move_budget_ms,
    number,
    pv_moves,
    seconds,
    serve,
    variant_of,
    warm_up,
)

__all__ = ["XboardEngine", "main", "piece_to_char", "xboard_betza", "xboard_castling", "setup_commands"]



def xboard_name(variant: Variant) -> str:
    """XBoard's name for the variant: ``normal`` for chess, else the name it is offered under."""
    return "normal" if variant.name == "chess" else offered_name(variant)






def xboard_letter(variant: Variant, t: PieceType) -> str:
    """A type's letter as XBoard knows it: ``+`` and the base type's letter for a promoted type."""
    base = promoted_partners(variant).get(t.index)
    return f"+{base.letter}" if base else t.letter








def piece_to_char(variant: Variant) -> str:
    """XBoard's piece-to-char table for a variant (:func:`xboard_slots`): one letter (or '.') per
    XBoard type, King last; a shogi-style promoted type is ``^`` and its base type's letter
    (:func:`promoted_partners`)."""
    king = xboard_king(variant)
    partners = promoted_partners(variant)
    slots = {slot: f"^{partners[t.index].letter}" if t.index in partners else t.letter
             for slot, t in xboard_slots(variant).items()}
    white = "".join(slots.get(i, ".") for i in range(max(slots, default=0) + 1)) + (king.letter if king else ".")
    return white + white.lower()


def xboard_betza(betza: str) -> str:
    """An XBetza string as XBoard 4.9 reads it: the X and Y extensions become skips (``j``) of
    orthogonal and diagonal leaps; oblique extended leaps, which XBoard cannot express, are left out."""
    def convert(m: re.Match) -> str:
        mods, atom, ext = m.groups()
        a, b = {"W": (1, 0), "F": (1, 1), "D": (2, 0), "A": (2, 2), "N": (2, 1)}.get(atom, (0, 1))
        a, b = (a + 3, b) if ext == "X" else (a + 2, b + 2)
        if b == 0:
            return mods + "j" * (a - 1) + "W"
        if a == b:
            return mods + "j" * (a - 1) + "F"
        return ""
    return re.sub(r"([a-z]*)([A-Z])([XY])", convert, betza)


def setup_commands(variant: Variant, fen: str) -> list[str]:
    """The ``setup`` and ``piece`` commands that define an engine-defined variant to XBoard; the
    board size carries the number of holdings slots (``9x9+7_fairy``) in a drop variant.  Hands
    that only feed promotions (``holdingsType`` > 0) are left out of the position text, and where
    captured pieces go to no hand the parent variant is bughouse, in which XBoard adds none there."""
    holdings = len(holdings_types(variant))
    if not holdings:
        fen = re.sub(r"\[[^\]]*\]", "", fen, count=1)
    parent = "bughouse" if holdings and not variant.captures_to_hand else "fairy"
    lines = [f"setup ({piece_to_char(variant)}) {variant.files}x{variant.ranks}+{holdings}_{parent} "
             f"{xboard_fen(variant, xboard_castling(variant, fen))}"]
    for t in variant.types:
        betza = xboard_betza(t.betza)
        if not variant.en_passant:  # the definition switched 'e' captures off
            betza = re.sub(r"e(?=[a-z]*[A-Z])", "", betza)
        lines.append(f"piece {xboard_letter(variant, t)}& {betza}")
    return lines


def xboard_castling(variant: Variant, fen: str) -> str:
    """The position text with the castling field as XBoard 4.9 reads it: ``K``/``Q``/``k``/``q``
    where the partner is the outermost of XBoard's rooks on its side, else a file letter; XBoard
    reads file letters only in capitals, so a black right with another partner is left out."""
    pos = Board(variant, fen=fen).position
    rook = xboard_slots(variant).get(3)
    F = variant.files

    def rook_at(sq: int, colour: int) -> bool:
        p = pos.board[sq]
        return bool(p) and rook is not None and type_of(p) == rook.index and colour_of(p) == colour

    field = ""
    for colour, side, partner in sorted(castling_rights(pos), key=lambda r: r[0] != WHITE):
        rank_end = partner - partner % F + (F - 1 if side == 1 else 0)
        outer = range(rank_end, partner, -side)
        if rook_at(partner, colour) and not any(rook_at(sq, colour) for sq in outer):
            letter = "K" if side == 1 else "Q"
        elif colour == WHITE:
            letter = chr(ord("A") + partner % F)
        else:
            continue
        letter = letter if colour == WHITE else letter.lower()
        field += "" if letter in field else letter
    fields = fen.split(" ")
    if len(fields) > 2 and fields[2] != "-":
        fields[2] = field or "-"
    return " ".join(fields)


def xboard_fen(variant: Variant, fen: str, back: bool = False) -> str:
    """Position text with shogi-style promoted types written as XBoard writes them (``+P``), or,
    with ``back``, XBoard's position text in morphchess's letters."""
    pairs = [(t.letter, xboard_letter(variant, t)) for t in variant.types]
    table = {old: new for mine, theirs in pairs if mine != theirs
             for old, new in ((theirs, mine) if back else (mine, theirs),
                              (theirs.lower(), mine.lower()) if back else (mine.lower(), theirs.lower()))}
    board, _, rest = fen.partition(" ")
    board = re.sub(r"\+?[A-Za-z]", lambda m: table.get(m[0], m[0]), board)
    return f"{board} {rest}" if rest else board


def holdings_square(variant: Variant, name: str) -> tuple[int, int] | None:
    """(colour, slot) of a square of XBoard's holdings as ``lift`` names it (White's column right of
    the board, Black's two files left of it, slot 0 nearest its owner), None for other names."""
    m = re.fullmatch(r"(.)(\d+)", name)
    if not m:
        return None
    f, r = ord(m[1]) - ord("a"), int(m[2]) - 1
    if f == variant.files + 1:
        return WHITE, r
    if f == -2:
        return BLACK, max(variant.ranks, len(holdings_types(variant))) - 1 - r
    return None












def colour_fen(variant: Variant, marks: dict[int, str]) -> str:
    """A board of colour letters (``highlight``): ranks from the top, runs of unmarked squares as numbers."""
    rows = []
    for r in range(variant.ranks - 1, -1, -1):
        row, empty = "", 0
        for f in range(variant.files):
            mark = marks.get(r * variant.files + f)
            if mark is None:
                empty += 1
                continue
            row += (str(empty) if empty else "") + mark
            empty = 0
        rows.append(row + (str(empty) if empty else ""))
    return "/".join(rows)


class XboardEngine(CommandEngine):
    """The state of one CECP session."""

    def __init__(self, out: Output, variant_file: str | None = None) -> None:
        self.out = out
        self.calls: queue.Queue = queue.Queue()  # the search's results, carried out by the main loop
        self.thinker = Thinker()
        # the command line's or option VariantFile's definition file
        self.file_variant: Variant | None = variant_of(variant_file) if variant_file else None
        self.variant = variant_of("chess")
        self.board = Board(self.variant)
        self.engine_side: int | None = None   # None: force mode
        self.clock = Clock()
        self.other_clock = Clock()
        self.moves_per_session = 0
        self.base_ms: int | None = None
        self.seconds_per_move: float | None = None
        self.depth: int | None = None
        self.post = False
        self.lifted: dict[int, Move] = {}
        self.token: object | None = None      # the search whose move is still wanted
        self.analyzing = False

    # -- commands --------------------------------------------------------------------
    def dispatch(self, command: str, rest: list[str], line: str) -> None:
        method = getattr(self, "cmd_" + command.replace("?", "now"), None)
        try:
            if method is not None:
                method(rest)
            elif re.fullmatch(r"[a-z]\d+[a-z]\d+[a-z]?", command):
                self.cmd_usermove([command])
            elif command not in IGNORED:
                self.out(f"Error (unknown command): {command}")
        except MoveError as e:
            self.out(f"Illegal move ({e}): {rest[0] if rest else command}")
        except InputError as e:  # a bad number or argument (an InputError is a ValueError: caught first)
            self.out(f"Error ({e}): {line.strip()}")
        except ValueError as e:  # move text that names no square
            self.out(f"Illegal move ({e}): {rest[0] if rest else command}")

    def cmd_protover(self, _rest) -> None:
        self.out("feature done=0")
        self.out(f'feature myname="{ENGINE_NAME}" {self._variants_feature()} setboard=1 usermove=1 ping=1 '
                 "playother=1 time=1 draw=0 sigint=0 sigterm=0 reuse=1 analyze=1 colors=0 san=0 highlight=1 debug=1")
        self.out('feature option="VariantFile -file "')
        self.out("feature done=1")

    def _variants_feature(self) -> str:
        """The ``variants`` feature: the built-in variants and, once loaded, the definition file's
        variant under its own name (XBoard's ``-variant NAME`` then selects it)."""
        names = [xboard_name(variant_of(n)) for n in builtin_names()]
        if self.file_variant:
            names.append(xboard_name(self.file_variant))
        return f'variants="{",".join(names)}"'

    def cmd_new(self, _rest) -> None:
        self.cancel()
        self.variant = self.file_variant or variant_of("chess")
        self.board = Board(self.variant)
        self.engine_side = 1
        self.depth = None
        self.analyzing = False
        if self.file_variant:
            self._define_variant()

    def cmd_variant(self, rest: list[str]) -> None:
        name = rest[0] if rest else "normal"
        self.cancel()
        own = self.file_variant if self.file_variant and name == xboard_name(self.file_variant) else None
        self.variant = own or variant_of("chess" if name == "normal" else name)
        self.board = Board(self.variant)
        if name != "normal":
            self._define_variant()
        warm_up(self.variant)

    def _define_variant(self) -> None:
        for line in setup_commands(self.variant, self.board.fen()):
            self.out(line)

    def cmd_option(self, rest: list[str]) -> None:
        name, _, value = " ".join(rest).partition("=")
        if name.strip() != "VariantFile":
            raise ProtocolError(f"unknown option {name.strip()!r}")
        self.file_variant = variant_of(value.strip()) if value.strip() else None
        if self.file_variant:
            self.cancel()
            self.variant = self.file_variant
            self.board = Board(self.variant)
            self.out(f"feature {self._variants_feature()}")
            self._define_variant()

    def cmd_force(self, _rest) -> None:
        self.cancel()
        self.engine_side = None

    def cmd_go(self, _rest) -> None:
        self.engine_side = self.board.turn
        self._think()

    def cmd_playother(self, _rest) -> None:
        self.cancel()
        self.engine_side = self.board.turn ^ 1

    def cmd_usermove(self, rest: list[str]) -> None:
        if not rest:
            raise ProtocolError("usermove needs a move")
        self.cancel()
        self.board.push(parse_move(self.board, self._from_xboard(rest[0])))
        if self.analyzing:
            self._analyze()
        elif not self._report_end() and self.engine_side == self.board.turn:
            self._think()

    def cmd_analyze(self, _rest) -> None:
        """Think about the position without end, posting every depth, until ``exit``."""
        self.engine_side = None
        self.analyzing = True
        self._analyze()

    def cmd_exit(self, _rest) -> None:
        self.cancel()
        self.analyzing = False

    def _analyze(self) -> None:
        self.cancel()
        if self.board.outcome() is None:
            self.thinker.start(self.board, {}, lambda result, board: self._info(result, board, True),
                               lambda result, board: None)

    def cmd_time(self, rest: list[str]) -> None:
        self.clock.remaining = 10 * number(rest, 0, "time (centiseconds)", -MAX_MS // 10, MAX_MS // 10)

    def cmd_otim(self, rest: list[str]) -> None:
        self.other_clock.remaining = 10 * number(rest, 0, "otim (centiseconds)", -MAX_MS // 10, MAX_MS // 10)

    def cmd_level(self, rest: list[str]) -> None:
        if len(rest) != 3:
            raise ProtocolError("level needs MPS BASE INC")
        minutes, colon, secs = rest[1].partition(":")
        moves = number(rest, 0, "level's moves per session", 0, 10 ** 6)
        base = 60 * number([minutes], 0, "level's base minutes", 0, MAX_MS // 60_000) \
            + (number([secs], 0, "level's base seconds", 0, 59) if colon else 0)
        self.moves_per_session = moves
        self.base_ms = base * 1000
        self.clock.increment = int(seconds(rest, 2, "level's increment", MAX_MS / 1000) * 1000)
        self.seconds_per_move = None

    def cmd_st(self, rest: list[str]) -> None:
        value = seconds(rest, 0, "st", 10 ** 6)  # the protocol says whole seconds; python-chess sends "st 0.2"
        if value <= 0:
            raise ProtocolError(f"st needs a positive number of seconds, not {rest[0]}")
        self.seconds_per_move = value

    def cmd_sd(self, rest: list[str]) -> None:
        self.depth = max(1, number(rest, 0, "sd", 0, 10 ** 4))

    def cmd_ping(self, rest: list[str]) -> None:
        self.out(f"pong {rest[0] if rest else ''}".strip())

    def cmd_result(self, _rest) -> None:
        self.cancel()
        self.engine_side = None

    def cmd_undo(self, _rest) -> None:
        self.cancel()
        if not self.board.move_stack:
            raise ProtocolError("no move to undo")
        self.board.pop()
        if self.analyzing:
            self._analyze()

    def cmd_remove(self, _rest) -> None:
        self.cmd_undo([])
        self.cmd_undo([])

    def cmd_setboard(self, rest: list[str]) -> None:
        self.cancel()
        try:
            self.board = Board(self.variant, fen=xboard_fen(self.variant, " ".join(rest), back=True))
        except FenError as e:
            raise ProtocolError(f"setboard: {e}") from None
        if self.analyzing:
            self._analyze()

    def cmd_now(self, _rest) -> None:
        """``?``: move now."""
        self.thinker.halt()

    def cmd_post(self, _rest) -> None:
        self.post = True

    def cmd_nopost(self, _rest) -> None:
        self.post = False

    def cmd_lift(self, rest: list[str]) -> None:
        """Mark where the piece on a square (or in a holdings slot) may go: yellow, red for captures,
        magenta for a promotion choice, blue for a morph (its new type is the forced choice, sent on ``put``)."""
        name = self._from_xboard(rest[0]) if rest else ""
        held = holdings_square(self.variant, name)
        hand = holdings_types(self.variant)
        if held is not None:
            letter = hand[held[1]].letter if held[1] < len(hand) and held[0] == self.board.turn else None
            picked = [m for m in self.board.legal_moves if m.is_drop and m.new_piece.upper() == letter]
        else:
            sq = self.variant.square(name)
            picked = [m for m in self.board.legal_moves
                      if m.from_square == sq and not m.is_transformation and not m.is_drop]
        marks, self.lifted = {}, {}
        for m in picked:
            colour = "m" if m.is_choice else "b" if m.is_morph else "r" if m.is_capture else "y"
            marks[m.to_square] = colour
            self.lifted[m.to_square] = m
        self.out(f"highlight {colour_fen(self.variant, marks)}")

    def cmd_put(self, rest: list[str]) -> None:
        move = self.lifted.get(self.variant.square(self._from_xboard(rest[0])))
        if move is not None and move.is_morph and not move.is_choice:
            self.out(f"choice {move.new_piece.upper()}")

    def cmd_hover(self, _rest) -> None:
        pass

    def _to_xboard(self, text: str) -> str:
        return shift_ranks(text, rank_shift(self.variant))

    def _from_xboard(self, text: str) -> str:
        return shift_ranks(text, -rank_shift(self.variant))

    # -- thinking --------------------------------------------------------------------
    def _limits(self) -> dict:
        limits: dict = {}
        if self.depth:
            limits["depth"] = self.depth
        if self.seconds_per_move:
            ms = round(self.seconds_per_move * 1000)
            limits["movetime_ms"] = max(10, ms - min(100, ms // 4))  # a margin for answering
        elif self.clock.remaining is not None:
            mps = self.moves_per_session
            played = len(self.board.move_stack) // 2
            self.clock.moves_to_go = mps - played % mps if mps else None
            limits["movetime_ms"] = move_budget_ms(self.clock)
        elif not self.depth:
            limits["movetime_ms"] = 1000
        if self.variant.transforms:  # XBoard refuses a move that stays on its square: never play one
            limits["moves"] = [m.raw for m in self.board.legal_moves if not m.is_transformation]
        return limits

    def _think(self) -> None:
        if self.board.outcome() is not None:
            return
        token = self.token = object()

        def play(result, board: Board) -> None:  # main loop: the move, unless the game has moved on
            if self.token is token:
                self._play(result, board)

        def done(result, board: Board) -> None:  # search thread: hand the move to the main loop
            self.calls.put(lambda: play(result, board))
        self.thinker.start(self.board, self._limits(), self._info, done)

    def cancel(self) -> None:
        self.token = None
        self.thinker.cancel()

    def _info(self, result, board: Board, force: bool = False) -> None:
        if self.post or force:
            score = result.score if result.mate is None else (100000 + result.mate if result.mate > 0
                                                              else -100000 + result.mate)
            pv = " ".join(self._to_xboard(move_text(m, self.variant)) for m in pv_moves(board, result.pv))
            self.out(f"{result.depth} {score} {int(result.seconds * 100)} {result.nodes} {pv}")


    def _play(self, result, board: Board) -> None:
        """Play the search's move and say so."""
        self.token = None
        if result.move is None or self.engine_side != self.board.turn:
            return
        move = self.board.parse_uci(board.move(result.move).uci())
        self.board.push(move)
        self.out(f"move {self._to_xboard(move_text(move, self.variant))}")
        self._report_end()

    def _report_end(self) -> bool:
        outcome = self.board.outcome()
        if outcome is None:
            return False
        self.out(f"{outcome.result()} {{{outcome}}}")
        return True


IGNORED = {"xboard", "accepted", "rejected", "random", "hard", "easy", "computer", "name", "white", "black",
           "draw", "ics", "nps", "cores", "memory", "egtpath", "hint", "bk", ".", "pause", "resume"}


def main(inp: TextIO | None = None, out: TextIO | None = None, variant_file: str | None = None) -> None:
    """Read CECP commands until ``quit`` or the end of the input."""
    engine = XboardEngine(Output(out), variant_file)
    serve(engine.handle, inp or sys.stdin, engine.calls, engine.thinker)


def add_command(sub) -> None:
    """The ``morphchess xboard`` subcommand."""
    p = sub.add_parser("xboard", help="run as an XBoard/WinBoard engine (CECP v2)")
    p.add_argument("variant_file", nargs="?", metavar="FILE",
                   help="a definition file, offered to XBoard under its own name (-variant NAME)")
    p.set_defaults(func=lambda args: main(variant_file=args.variant_file))
