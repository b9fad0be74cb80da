"""Helpers of the protocol tests: an engine session in a thread, and the engine as a subprocess command."""

from __future__ import annotations

import queue
import shlex
import sys
import threading

ENGINE = [sys.executable, "-m", "morphchess.cli"]


def engine_command(protocol: str) -> str:
    """The shell words that start ``morphchess PROTOCOL`` with this Python."""
    return shlex.join([*ENGINE, protocol])


class _Lines:
    """A text stream whose lines can be awaited."""

    def __init__(self) -> None:
        self.lines: queue.Queue = queue.Queue()

    def write(self, text: str) -> None:
        for line in text.splitlines():
            self.lines.put(line)

    def flush(self) -> None:
        pass


class Session:
    """A front end's ``main(inp, out)`` running in a thread, fed line by line."""

    def __init__(self, main) -> None:
        self.inp: queue.Queue = queue.Queue()
        self.out = _Lines()
        self.seen: list[str] = []
        self.thread = threading.Thread(target=main, args=(iter(self.inp.get, None), self.out), daemon=True)
        self.thread.start()

    def send(self, *lines: str) -> None:
        for line in lines:
            self.inp.put(line + "\n")

    def expect(self, prefix: str, timeout: float = 20) -> str:
        """The next output line starting with ``prefix`` (lines before it are kept in ``seen``)."""
        while True:
            line = self.out.lines.get(timeout=timeout)
            self.seen.append(line)
            if line.startswith(prefix):
                return line

    def quiet(self, wait: float = 0.3) -> list[str]:
        """The lines written within ``wait`` seconds."""
        got = []
        try:
            while True:
                got.append(self.out.lines.get(timeout=wait))
        except queue.Empty:
            return got

    def close(self) -> None:
        self.send("quit")
        self.thread.join(timeout=20)
        assert not self.thread.is_alive()


# The games played whole through each protocol: the ID-text built-ins and some of the library
# (a wide board, a bare-king rule, drops, a deep promotion zone, a shuffled array).
PROTOCOL_GAMES = ["crossroads", "morphing-chess", "morphomania", "snappy-chess", "polymorph", "capablanca", "shatranj",
                  "chessgi", "makruk", "chess960"]
