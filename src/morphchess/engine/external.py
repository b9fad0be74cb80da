"""External engines as players of ``morphchess match``: ``uci:COMMAND`` and ``xboard:COMMAND``.

Options follow the command after a ``?``: ``uci:stockfish?UCI_LimitStrength=true&UCI_Elo=1500``
(UCI ``setoption``; CECP ``option NAME=VALUE``).  Every answer is awaited with a timeout, so an
engine that does not speak the protocol fails with a one-line error instead of a hang.
"""

from __future__ import annotations

import math
import queue
import re
import shlex
import subprocess
import threading
import time

from ..board import Board, Move
from ..errors import OptionError
from ..protocol_text import offered_name, parse_move, rank_shift, shift_ranks

__all__ = ["split_engine_spec", "UciPlayer", "XboardPlayer", "STARTUP_TIMEOUT"]

STARTUP_TIMEOUT = 10.0   # seconds an engine may take to answer uci/protover and isready/ping
MOVE_GRACE = 10.0        # seconds beyond its move time before an engine that does not move is given up


def split_engine_spec(spec: str) -> tuple[str, dict[str, str]]:
    """``COMMAND?Name=Value&Name2=Value2`` -> (command, options); OptionError for a malformed option."""
    command, sep, query = spec.partition("?")
    options: dict[str, str] = {}
    if sep:
        for item in query.split("&"):
            name, eq, value = item.partition("=")
            if not eq or not name.strip():
                raise OptionError(f"engine option {item!r} in {spec!r}: write Name=Value (options joined by '&')")
            options[name.strip()] = value.strip()
    if not command.strip():
        raise OptionError(f"engine {spec!r}: the command is missing")
    return command.strip(), options


class _Process:
    """An engine process whose output lines are read by a thread, so that waits can time out."""

    def __init__(self, label: str, command: str) -> None:
        self.label = label
        self.lines: queue.Queue = queue.Queue()
        try:
            self.proc = subprocess.Popen(shlex.split(command), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=subprocess.DEVNULL, text=True, bufsize=1)
        except OSError as e:
            raise OptionError(f"{label}: cannot start the engine: {e}") from None
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def send(self, line: str) -> None:
        try:
            assert self.proc.stdin is not None
            self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            raise RuntimeError(f"{self.label}: the engine has stopped") from None

    def wait(self, accept, what: str, timeout: float) -> str:
        """The first line for which ``accept(words)`` is true; RuntimeError after ``timeout`` seconds."""
        end = time.monotonic() + timeout
        while True:
            try:
                line = self.lines.get(timeout=max(0.0, end - time.monotonic()))
            except queue.Empty:
                raise RuntimeError(f"{self.label}: no {what} within {timeout:g} s "
                                   "(is it an engine for this protocol?)") from None
            if line is None:
                raise RuntimeError(f"{self.label}: the engine stopped before sending {what}")
            if accept(line.split()):
                return line

    def close(self, quit_line: str = "quit") -> None:
        try:
            self.send(quit_line)
            self.proc.wait(timeout=5)
        except (RuntimeError, subprocess.TimeoutExpired):
            self.proc.kill()
            self.proc.wait()


class UciPlayer:
    """An external UCI engine, started once and reused for every game; ``movetime`` per move, or the
    limits of the option ``go`` (``uci:COMMAND?go=nodes 5000`` sends ``go nodes 5000``; the move time
    then only bounds the wait)."""

    def __init__(self, spec: str, variant, movetime_ms: int, timeout: float | None = None) -> None:
        command, options = split_engine_spec(spec)
        timeout = timeout or STARTUP_TIMEOUT
        self.engine = _Process(f"uci:{command}", command)
        self.movetime_ms = movetime_ms
        self.go = "go " + options.pop("go", f"movetime {movetime_ms}")
        self._board: Board | None = None
        self.engine.send("uci")
        self.engine.wait(lambda w: w[:1] == ["uciok"], "'uciok'", timeout)
        if variant.name != "chess":
            self.engine.send(f"setoption name UCI_Variant value {offered_name(variant)}")  # Fairy-Stockfish's name
        for name, value in options.items():
            self.engine.send(f"setoption name {name} value {value}")
        self.engine.send("isready")
        self.engine.wait(lambda w: w[:1] == ["readyok"], "'readyok'", timeout)

    def choose(self, board: Board) -> Move:
        if board is not self._board:
            self._board = board
            self.engine.send("ucinewgame")
        moves = " ".join(m.uci() for m in board.move_stack)
        self.engine.send(f"position fen {board.root_fen}" + (f" moves {moves}" if moves else ""))
        self.engine.send(self.go)
        words = self.engine.wait(lambda w: w[:1] == ["bestmove"], "'bestmove'",
                                 self.movetime_ms / 1000 + MOVE_GRACE).split()
        if len(words) < 2:
            raise RuntimeError(f"{self.engine.label}: 'bestmove' without a move")
        try:
            return board.parse_uci(words[1])
        except ValueError as e:
            raise RuntimeError(f"{self.engine.label} played an illegal move: {e}") from None

    def close(self) -> None:
        self.engine.close()


class XboardPlayer:
    """An external CECP (XBoard) engine, started once and reused for every game.

    Each game: ``new``, ``variant`` (not for chess), ``force``, ``setboard`` when the game does
    not start from the standard array, the moves so far, then ``go``.  A move time of whole
    seconds is sent as ``st``; a shorter one as a clock of 40 such moves (``level``/``time``).
    """

    def __init__(self, spec: str, variant, movetime_ms: int, timeout: float | None = None) -> None:
        command, options = split_engine_spec(spec)
        timeout = timeout or STARTUP_TIMEOUT
        self.engine = _Process(f"xboard:{command}", command)
        self.variant = variant
        self.movetime_ms = movetime_ms
        self.timeout = timeout
        self.features: dict[str, str] = {}
        self._board: Board | None = None
        self._sent = 0
        self._ping = 0
        self.engine.send("xboard")
        self.engine.send("protover 2")
        self.engine.wait(self._feature, "'feature ... done=1'", timeout)
        for name, value in options.items():
            self.engine.send(f"option {name}={value}")
        self._sync()

    def _feature(self, words: list[str]) -> bool:
        """Record a ``feature`` line's settings; True once ``done=1`` has come."""
        if words[:1] != ["feature"]:
            return False
        for name, value in _feature_pairs(" ".join(words[1:])):
            self.features[name] = value
            self.engine.send(f"accepted {name}")
        return self.features.get("done") == "1"

    def _sync(self) -> None:
        """Wait until the engine has read everything sent so far (``ping``/``pong``)."""
        if self.features.get("ping") != "1":
            return
        self._ping += 1
        self.engine.send(f"ping {self._ping}")
        self.engine.wait(lambda w: w[:2] == ["pong", str(self._ping)], f"'pong {self._ping}'", self.timeout)

    def _new_game(self, board: Board) -> None:
        name = "chess" if self.variant.name == "chess" else offered_name(self.variant)
        if name != "chess":
            offered = self.features.get("variants", "").split(",")
            if name not in offered:
                raise RuntimeError(f"{self.engine.label}: the engine does not play {name} "
                                   f"(its variants: {','.join(offered) or 'normal'})")
        self.engine.send("new")
        if name != "chess":
            self.engine.send(f"variant {name}")
        self.engine.send("force")
        if board.root_fen != Board(self.variant, setup=board.setup).fen() or board.setup != "standard":
            if self.features.get("setboard") != "1":
                raise RuntimeError(f"{self.engine.label}: the game starts from a set position, "
                                   "but the engine has no 'setboard'")
            self.engine.send(f"setboard {board.root_fen}")
        self._time_control()
        self._board, self._sent = board, 0
        self._sync()

    def _time_control(self) -> None:
        seconds = self.movetime_ms / 1000
        if seconds >= 1 and seconds == int(seconds):
            self.engine.send(f"st {int(seconds)}")
        else:
            total = math.ceil(40 * seconds)
            self.engine.send(f"level 40 {total // 60}:{total % 60:02d} 0")

    def choose(self, board: Board) -> Move:
        if board is not self._board or len(board.move_stack) < self._sent:
            self._new_game(board)
        prefix = "usermove " if self.features.get("usermove") == "1" else ""
        shift = rank_shift(self.variant)  # XBoard counts the ranks of 10-rank boards from 0
        for move in board.move_stack[self._sent:]:
            self.engine.send(prefix + shift_ranks(move.uci(), shift))
        self._sent = len(board.move_stack)
        if self.movetime_ms % 1000:
            centis = 4 * self.movetime_ms  # 40 moves of movetime, in centiseconds
            self.engine.send(f"time {centis}")
            self.engine.send(f"otim {centis}")
        self.engine.send("go")
        line = self.engine.wait(_move_or_failure, "a move", self.movetime_ms / 1000 + MOVE_GRACE)
        words = line.split()
        if words[0] != "move":
            raise RuntimeError(f"{self.engine.label}: {line.strip()}")
        try:
            move = parse_move(board, shift_ranks(words[1], -shift))
        except ValueError as e:
            raise RuntimeError(f"{self.engine.label} played an illegal move: {e}") from None
        self.engine.send("force")
        self._sent += 1
        return move

    def close(self) -> None:
        self.engine.close()


def _move_or_failure(words: list[str]) -> bool:
    """A CECP line that answers ``go``: a move, a resignation or an error."""
    return bool(words) and (words[0] in ("move", "resign") or words[0].startswith(("Illegal", "Error")))


def _feature_pairs(text: str) -> list[tuple[str, str]]:
    """``a=1 b="x y"`` -> [("a", "1"), ("b", "x y")]."""
    pairs = []
    for name, quoted, plain in re.findall(r'(\w+)=(?:"([^"]*)"|(\S+))', text):
        pairs.append((name, quoted or plain))
    return pairs
