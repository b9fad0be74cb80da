"""How the server stops: the grace given to running requests, and the deadline after which the process
ends whatever still runs (the ``serve`` command and the app's signal handler both use it)."""

from __future__ import annotations

import os
import threading
import time

__all__ = ["SHUTDOWN_S", "EXIT_S", "exit_after"]

SHUTDOWN_S = 3  # seconds given to requests still running when the server is asked to stop
EXIT_S = SHUTDOWN_S + 2  # seconds after SIGTERM or SIGINT by which the process has ended, whatever runs


def exit_after(seconds: float = EXIT_S) -> None:
    """End the process in ``seconds`` unless it has ended by then (called when it is asked to stop):
    threads that do not stop (a search in C, an evaluation table being built) would otherwise keep it
    alive, as the interpreter waits for them at exit."""
    def end() -> None:
        time.sleep(seconds)
        os.write(2, f"morphchess: still running {seconds:g} s after the signal; stopped\n".encode())
        os._exit(0)
    threading.Thread(target=end, daemon=True, name="morphchess-exit").start()
