"""``morphchess uci``: the engine behind the Universal Chess Interface (see ``docs/protocols.md``).

Options: ``UCI_Variant`` (every built-in variant, under Fairy-Stockfish's name where it has
one, e.g. ``fischerandom``; morphchess's own names are taken too), ``UCI_Chess960`` (with
``chess``: the library's Chess960, castling written as the king taking its rook), ``VariantFile``
(a definition file that replaces it while set) and ``Ponder``.  Errors in the GUI's commands are reported as
``info string error: ...`` lines; the engine keeps running.
"""

from __future__ import annotations

import sys
import threading
from typing import TextIO

from ..board import Board
from ..errors import InputError
from ..notation import FenError, MoveError
from ..protocol_text import protocol_names
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
    variant_of,
    warm_up,
)

__all__ = ["UciEngine", "main"]

# the numbers of ``go`` and their ranges (a clock may have run below zero)
GO_NUMBERS = {"wtime": (-MAX_MS, MAX_MS), "btime": (-MAX_MS, MAX_MS), "winc": (0, MAX_MS), "binc": (0, MAX_MS),
              "movestogo": (0, 10 ** 6), "movetime": (0, MAX_MS), "depth": (0, 10 ** 4), "nodes": (0, 10 ** 15),
              "mate": (0, 10 ** 4)}


def parse_go(words: list[str]) -> dict:
    """The arguments of ``go`` as a dict (numbers as int, ``infinite``/``ponder`` as True); a number
    that is not one, or out of its range, is a ProtocolError naming it."""
    args: dict = {}
    i = 0
    while i < len(words):
        word = words[i]
        if word in ("infinite", "ponder"):
            args[word] = True
        elif word in GO_NUMBERS:
            args[word] = number(words, i + 1, f"go {word}", *GO_NUMBERS[word])
            i += 1
        elif word == "searchmoves":
            args["searchmoves"] = []
            while i + 1 < len(words) and words[i + 1] not in (*GO_NUMBERS, "infinite", "ponder"):
                i += 1
                args["searchmoves"].append(words[i])
        else:
            raise ProtocolError(f"go: unknown argument {word!r}")
        i += 1
    return args


def search_limits(args: dict, white_to_move: bool) -> dict:
    """Keyword arguments of :func:`morphchess.engine.search` for the arguments of ``go``."""
    limits: dict = {}
    if "depth" in args:
        limits["depth"] = max(1, args["depth"])
    if "nodes" in args:
        limits["nodes"] = max(1, args["nodes"])
    if "movetime" in args:
        limits["movetime_ms"] = max(1, args["movetime"])
    side = "w" if white_to_move else "b"
    if f"{side}time" in args:
        clock = Clock(max(0, args[f"{side}time"]), args.get(f"{side}inc", 0), args.get("movestogo"))
        limits["movetime_ms"] = min(limits.get("movetime_ms", 10 ** 9), move_budget_ms(clock))
    if args.get("infinite") or args.get("ponder"):
        return {k: v for k, v in limits.items() if k != "movetime_ms"}
    return limits


def root_moves(board: Board, texts: list[str]) -> list:
    """The core moves named by ``go searchmoves``."""
    try:
        return [board.parse_uci(text).raw for text in texts]
    except ValueError as e:
        raise ProtocolError(f"go searchmoves: {e}") from None


def info_line(result, board: Board) -> str:
    """``info depth ... score ... nodes ... nps ... time ... pv ...`` for a finished depth."""
    score = f"mate {result.mate}" if result.mate is not None else f"cp {result.score}"
    ms = int(result.seconds * 1000)
    nps = int(result.nodes / result.seconds) if result.seconds > 0 else 0
    pv = " ".join(m.uci() for m in pv_moves(board, result.pv))
    return f"info depth {result.depth} score {score} nodes {result.nodes} nps {nps} time {ms} pv {pv}"


class UciEngine(CommandEngine):
    """The state of one UCI session: options, the game position and the search."""

    def __init__(self, out: Output) -> None:
        self.out = out
        self.variant_name = "chess"
        self.variant_file = ""
        self.chess960 = False  # UCI_Chess960: orthodox chess from any array, Fischer castling
        self.variant = variant_of("chess")
        self.board = Board(self.variant)
        self.thinker = Thinker()
        self.release = threading.Event()  # set when an infinite or pondering search may report
        self.go_args: dict = {}
        self.warm = False

    def cancel(self) -> None:
        """Drop the running search (a held infinite search is let go first)."""
        self.release.set()
        self.thinker.cancel()

    # -- commands --------------------------------------------------------------
    def dispatch(self, command: str, rest: list[str], line: str) -> None:
        method = getattr(self, "cmd_" + command, None)
        if method is None:
            self.out(f"info string unknown command {command!r}")
            return
        try:
            method(rest)
        except (InputError, ValueError) as e:
            self.out(f"info string error: {e}")

    def cmd_uci(self, _rest) -> None:
        self.out(f"id name {ENGINE_NAME}")
        self.out("id author the morphchess authors")
        combo = " ".join(f"var {n}" for n in builtin_names())
        self.out(f"option name UCI_Variant type combo default chess {combo}")
        self.out("option name UCI_Chess960 type check default false")
        self.out("option name VariantFile type string default <empty>")
        self.out("option name Ponder type check default false")
        self.out("uciok")

    def cmd_debug(self, _rest) -> None:
        pass

    def cmd_isready(self, _rest) -> None:
        if not self.warm and not self.thinker.busy:
            warm_up(self.variant)
            self.warm = True
        self.out("readyok")

    def cmd_setoption(self, rest: list[str]) -> None:
        text = " ".join(rest)
        if not text.startswith("name "):
            raise ProtocolError("setoption: expected 'setoption name NAME value VALUE'")
        name, _, value = text[5:].partition(" value ")
        name, value = name.strip(), value.strip()
        if name.lower() == "uci_variant":
            if protocol_names().get(value, value) not in protocol_names().values():
                raise ProtocolError(f"UCI_Variant: unknown variant {value!r}; built-in: {', '.join(builtin_names())}")
            self.variant_name = value
        elif name.lower() == "uci_chess960":
            self.chess960 = value.lower() == "true"
        elif name.lower() == "variantfile":
            self.variant_file = "" if value in ("", "<empty>") else value
        elif name.lower() == "ponder":
            return
        else:
            raise ProtocolError(f"unknown option {name!r}")
        self._set_variant()

    def _set_variant(self) -> None:
        self.cancel()
        chosen = "chess960" if self.chess960 and self.variant_name == "chess" else self.variant_name
        self.variant = variant_of(self.variant_file or chosen)
        self.board = Board(self.variant)
        self.warm = False

    def cmd_ucinewgame(self, _rest) -> None:
        self.cancel()
        self.board = Board(self.variant)

    def cmd_position(self, rest: list[str]) -> None:
        self.cancel()
        if not rest or rest[0] not in ("startpos", "fen"):
            raise ProtocolError("position: expected 'startpos' or 'fen ...'")
        cut = rest.index("moves") if "moves" in rest else len(rest)
        try:
            board = Board(self.variant) if rest[0] == "startpos" else Board(self.variant, fen=" ".join(rest[1:cut]))
        except FenError as e:
            raise ProtocolError(f"position: {e}") from None
        for text in rest[cut + 1:]:
            try:
                board.push_uci(text)
            except (MoveError, ValueError) as e:
                raise ProtocolError(f"position: move {text!r}: {e}") from None
        self.board = board

    def cmd_go(self, rest: list[str]) -> None:
        args = parse_go(rest)
        self.cancel()
        self.go_args = args
        self.release.clear()
        if not (args.get("infinite") or args.get("ponder")):
            self.release.set()
        self._start(args)

    def _start(self, args: dict) -> None:
        limits = search_limits(args, self.board.turn == 0)
        if "searchmoves" in args:
            limits["moves"] = root_moves(self.board, args["searchmoves"])
        self.thinker.start(self.board, limits, self._info, self._done)

    def cmd_stop(self, _rest) -> None:
        self.release.set()
        self.thinker.halt()

    def cmd_ponderhit(self, _rest) -> None:
        """The expected move was played: think on the real clock from here."""
        if not self.go_args.get("ponder"):
            return
        args = {k: v for k, v in self.go_args.items() if k != "ponder"}
        self.cancel()
        self.go_args = args
        self.release.set()
        self._start(args)

    # -- search callbacks (search thread) -----------------------------------------
    def _info(self, result, board: Board) -> None:
        self.out(info_line(result, board))

    def _done(self, result, board: Board) -> None:
        self.release.wait()
        if self.thinker.cancelled:
            return
        if result.move is None:
            self.out("bestmove (none)")
            return
        pv = pv_moves(board, result.pv or [result.move])
        ponder = f" ponder {pv[1].uci()}" if len(pv) > 1 else ""
        self.out(f"bestmove {pv[0].uci()}{ponder}")


def main(inp: TextIO | None = None, out: TextIO | None = None) -> None:
    """Read UCI commands until ``quit`` or the end of the input."""
    engine = UciEngine(Output(out))
    for line in inp or sys.stdin:
        if not engine.handle(line):
            return
    if engine.go_args.get("infinite") or engine.go_args.get("ponder"):
        engine.cancel()
    engine.thinker.wait()


def add_command(sub) -> None:
    """The ``morphchess uci`` subcommand."""
    p = sub.add_parser("uci", help="run as a UCI engine (for GUIs, cutechess, python-chess)")
    p.set_defaults(func=lambda args: main())
