"""What the UCI and XBoard front ends share: variants, clocks, the search thread, output.

Both front ends keep a :class:`~morphchess.board.Board` for the game and hand a copy of it to a
:class:`Thinker`, which runs :func:`morphchess.engine.search` in a thread so that the GUI's
``stop`` / ``?`` / ``force`` commands are read while the engine thinks.
"""

from __future__ import annotations

import queue
import re
import sys
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TextIO

from ..board import Board, Move
from ..cli_common import whole_number
from ..engine import search
from ..errors import InputError, quote
from ..protocol_text import protocol_names
from ..variant import Variant
from ..variants import load_variant

__all__ = ["ProtocolError", "Output", "CommandEngine", "Thinker", "Clock", "move_budget_ms", "pv_moves", "variant_of",
           "warm_up", "builtin_names", "serve", "number", "seconds", "ENGINE_NAME", "MAX_MS"]

ENGINE_NAME = "morphchess"
SAFETY_MS = 50          # kept back from every clock budget for the GUI's and the pipe's delays
DEFAULT_MOVES_LEFT = 30  # moves the remaining time is shared over when the GUI does not say
MAX_MS = 10 ** 11  # milliseconds of a clock or a move's time at most (three years)
_DECIMAL = re.compile(r"[0-9]{1,12}(?:\.[0-9]{0,9})?|\.[0-9]{1,9}")  # ASCII digits only: float() reads '١' and 'nan'


def number(words: list[str], i: int, what: str, low: int, high: int) -> int:
    """The whole number the GUI sent as ``words[i]`` for ``what``, from ``low`` to ``high``, or a
    ProtocolError naming ``what``, the text and the range."""
    if i >= len(words):
        raise ProtocolError(f"{what} needs a number")
    try:
        return whole_number(words[i], low, high)
    except ValueError as e:
        raise ProtocolError(f"{what}: {e}") from None


def seconds(words: list[str], i: int, what: str, high: float) -> float:
    """The seconds (digits, a decimal point allowed) the GUI sent as ``words[i]`` for ``what``, at most
    ``high``, or a ProtocolError naming ``what`` and the text."""
    if i >= len(words) or not _DECIMAL.fullmatch(words[i]):
        raise ProtocolError(f"{what} needs a number of seconds in digits 0-9, not "
                            f"{quote(words[i]) if i < len(words) else 'nothing'}")
    value = float(words[i])
    if value > high:
        raise ProtocolError(f"{what}: {words[i]} seconds; at most {high:g}")
    return value


class ProtocolError(InputError):
    """A command from the GUI that cannot be carried out; answered with one error line."""


class Output:
    """Line output shared by the main loop and the search thread (one lock, flushed lines)."""

    def __init__(self, stream: TextIO | None = None) -> None:
        self.stream = stream or sys.stdout
        self.lock = threading.Lock()

    def __call__(self, line: str) -> None:
        with self.lock:
            self.stream.write(line + "\n")
            self.stream.flush()


def variant_of(spec: str) -> Variant:
    """A built-in variant (by the name the protocols offer it under, or its own) or a definition
    file, or ProtocolError naming the choices."""
    try:
        return load_variant(protocol_names().get(spec, spec))
    except InputError as e:
        raise ProtocolError(str(e)) from None


class CommandEngine:
    """The command loop both front ends share: one command a line, ``quit`` ends the session.
    A front end names how to stop its search (:meth:`cancel`) and how to carry out the rest
    (:meth:`dispatch`)."""

    def handle(self, line: str) -> bool:
        """Carry out one command; False after ``quit``."""
        words = line.split()
        if not words:
            return True
        if words[0] == "quit":
            self.cancel()
            return False
        self.dispatch(words[0], words[1:], line)
        return True

    def cancel(self) -> None:
        raise NotImplementedError

    def dispatch(self, command: str, rest: list[str], line: str) -> None:
        raise NotImplementedError


@dataclass
class Clock:
    """A side's clock as the GUI reports it, in milliseconds."""

    remaining: int | None = None
    increment: int = 0
    moves_to_go: int | None = None


def move_budget_ms(clock: Clock) -> int:
    """Thinking time for one move: a share of the remaining time plus most of the increment."""
    if clock.remaining is None:
        return 1000
    moves = clock.moves_to_go if clock.moves_to_go else DEFAULT_MOVES_LEFT
    share = clock.remaining / max(moves, 1) + 0.8 * clock.increment
    cap = clock.remaining * (0.8 if moves == 1 else 0.5)
    return max(5, int(min(share, cap)) - SAFETY_MS)


def pv_moves(board: Board, pv: list) -> list[Move]:
    """The board moves of a search's principal variation (core moves), played on a copy."""
    copy = board.copy()
    out = []
    for raw in pv:
        move = copy.move(raw)
        copy.push(move)
        out.append(move)
    return out


class Thinker:
    """One search at a time in a background thread.

    ``start`` searches a copy of the board; ``on_info(result, board)`` gets every finished
    depth, ``on_done(result, board)`` the final result (board: the copy searched) unless the
    search was cancelled with ``cancel``.  ``halt`` stops it early and keeps the result.
    """

    def __init__(self) -> None:
        self.thread: threading.Thread | None = None
        self.stop = threading.Event()
        self.cancelled = False
        self.started = 0.0

    @property
    def busy(self) -> bool:
        return self.thread is not None and self.thread.is_alive()

    def start(self, board: Board, limits: dict, on_info: Callable, on_done: Callable) -> None:
        self.cancel()
        self.stop = threading.Event()
        self.cancelled = False
        copy = board.copy()
        stop = self.stop
        self.started = time.perf_counter()

        def run() -> None:
            result = search(copy.position, stop=stop, on_info=lambda info: on_info(info, copy), **limits)
            if not self.cancelled:
                on_done(result, copy)

        self.thread = threading.Thread(target=run, name="morphchess-search", daemon=True)
        self.thread.start()

    def halt(self) -> None:
        """Stop the search now; its result is still reported."""
        self.stop.set()
        if self.thread is not None and self.thread is not threading.current_thread():
            self.thread.join()

    def cancel(self) -> None:
        """Stop the search and drop its result."""
        self.cancelled = True
        self.halt()

    def wait(self) -> None:
        if self.thread is not None and self.thread is not threading.current_thread():
            self.thread.join()


def builtin_names() -> list[str]:
    """The names the built-in variants are offered under, orthodox chess first."""
    return list(protocol_names())


def warm_up(variant: Variant) -> None:
    """Build the variant's move and evaluation tables now, before the GUI's clock runs."""
    search(Board(variant).position, depth=1)


def serve(handle: Callable[[str], bool], inp: Iterable[str], calls: queue.Queue, thinker: Thinker) -> None:
    """The main loop: GUI lines (read by a thread) and ``calls`` (functions queued by the search thread)
    are carried out one at a time in this thread, until ``handle`` returns False or the input ends
    (then the running search is finished first)."""
    def read() -> None:
        for line in inp:
            calls.put(line)
        calls.put(None)

    threading.Thread(target=read, name="morphchess-input", daemon=True).start()
    while True:
        item = calls.get()
        if item is None:
            break
        if callable(item):
            item()
        elif not handle(item):
            return
    thinker.wait()
    while not calls.empty():
        item = calls.get()
        if callable(item):
            item()
