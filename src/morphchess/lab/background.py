"""A lab run in a background process that ends with the process that started it.

:func:`start` spawns the worker with the read end of a pipe whose write end only
the starting process holds.  The worker plays the games into a store directory,
then writes the report and summary there (``error.txt`` if it fails); a thread of
it waits on the pipe, and when the starter is gone (ended, crashed, or killed with
SIGKILL, which runs no handler) the kernel closes the write end and the worker
exits at once instead of playing on as an orphan.
"""

from __future__ import annotations

import os
import signal
import threading
import traceback
from contextlib import suppress
from multiprocessing import get_context
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from pathlib import Path

from .selfplay import LabSettings

__all__ = ["start", "ERROR_FILE", "NOTE_FILE"]

ERROR_FILE = "error.txt"  # a failed run's reason (first line) and traceback
NOTE_FILE = "note.txt"  # why a run's report has fewer games than asked for


class _TimeUp(BaseException):
    """The run's time is up (a BaseException: no ``except Exception`` of the engine swallows it)."""


def _time_up(signum: int, frame) -> None:
    raise _TimeUp


def start(settings: LabSettings, games: int, out: str, seconds: float | None = None) -> tuple[BaseProcess, Connection]:
    """Start playing ``games`` games of ``settings`` into ``out`` (for at most ``seconds`` of the worker's
    wall time): the worker process, and the pipe end that keeps it alive (closing it, or this process
    ending, ends the worker)."""
    ctx = get_context("spawn")
    reader, writer = ctx.Pipe(duplex=False)
    process = ctx.Process(target=_work, args=(settings, games, out, reader, seconds), daemon=True,
                          name="morphchess-lab")
    process.start()
    reader.close()  # the worker's end: a pipe with no reader left here
    return process, writer


def _work(settings: LabSettings, games: int, out: str, starter: Connection, seconds: float | None) -> None:
    """The worker: play (until ``seconds`` are up), then write the report (or ``error.txt``); exit when the
    starter is gone."""
    threading.Thread(target=_exit_without, args=(starter,), daemon=True, name="morphchess-lab-parent").start()
    from .report import write_report
    from .run import run_lab
    from .stats import summarize
    from .store import GameStore
    timer = seconds if hasattr(signal, "setitimer") else None  # none on Windows: the server ends the worker
    try:
        try:
            if timer is not None:
                signal.signal(signal.SIGALRM, _time_up)
                signal.setitimer(signal.ITIMER_REAL, timer)
            records = run_lab(settings, games, out)
            if timer is not None:
                signal.setitimer(signal.ITIMER_REAL, 0)
        except _TimeUp:  # the report of the games played so far
            records = GameStore(out, settings).records(games)
            if not records:
                raise TimeoutError(f"no game ended within the lab's {seconds:g} s; ask for a lower level "
                                   "or a smaller variant") from None
            if len(records) < games:
                Path(out, NOTE_FILE).write_text(f"stopped after its {seconds:g} s: {len(records)} of {games} "
                                                "games played", encoding="utf-8")
        write_report(summarize(records, settings, resamples=50), records, out)
    except Exception as e:  # the page shows the reason
        Path(out, ERROR_FILE).write_text(f"{e}\n{traceback.format_exc()}", encoding="utf-8")


def _exit_without(starter: Connection) -> None:
    """Wait until the starter's end of the pipe is closed (nothing is ever sent), then end the process."""
    with suppress(EOFError, OSError):
        starter.recv()
    os._exit(3)
