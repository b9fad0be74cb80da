"""The lab's progress bar on stderr: games done, results so far, elapsed time and ETA."""

from __future__ import annotations

import sys
import time

__all__ = ["ProgressBar", "clock"]


def clock(seconds: float) -> str:
    """``1:05`` or ``1:02:05``."""
    s = int(seconds)
    return f"{s // 3600}:{s // 60 % 60:02}:{s % 60:02}" if s >= 3600 else f"{s // 60}:{s % 60:02}"


class ProgressBar:
    """Call with each finished record; ``done`` games were stored before the run started.

    On a terminal the bar is redrawn in place; otherwise a line is written every
    twentieth of the run.
    """

    def __init__(self, total: int, done: int = 0, stream=None, width: int = 30) -> None:
        self.total, self.start_done, self.done = total, done, done
        self.stream = stream or sys.stderr
        self.width = width
        self.score = {"1-0": 0, "1/2-1/2": 0, "0-1": 0}
        self.start = time.monotonic()

    def __call__(self, record: dict) -> None:
        self.done += 1
        self.score[record["result"]] += 1
        tty = self.stream.isatty()
        step = max(1, (self.total - self.start_done) // 20)
        if tty or self.done == self.total or (self.done - self.start_done) % step == 0:
            end = "\n" if not tty or self.done == self.total else ""
            self.stream.write(("\r" if tty else "") + self.line() + end)
            self.stream.flush()

    def line(self) -> str:
        filled = self.width * self.done // max(1, self.total)
        elapsed = time.monotonic() - self.start
        new = self.done - self.start_done
        eta = clock(elapsed / new * (self.total - self.done)) if new else "?"
        w, d, b = self.score.values()
        return (f"[{'#' * filled}{'.' * (self.width - filled)}] {self.done}/{self.total} "
                f"1-0 {w} draw {d} 0-1 {b}  {clock(elapsed)} elapsed, ETA {eta}")
