"""The engine pool: a few threads that run engine searches, taking turns between clients.

Engine seats and analyses of one server process share :class:`FairPool`.  Its
next job is the oldest of the client with the fewest jobs running (ties: the
client whose last turn is longest ago, or who never had one), so a client that
queues many searches holds at most its turn: every other client's search starts
as soon as a thread is free, not behind the first client's queue.
"""

from __future__ import annotations

import logging
import threading
from collections import Counter, deque
from collections.abc import Callable

__all__ = ["FairPool"]

_log = logging.getLogger("morphchess.web")


class FairPool:
    """``workers`` threads running the jobs of several clients in turn."""

    def __init__(self, workers: int, name: str = "morphchess-engine") -> None:
        self.workers, self.name = workers, name
        self._waiting: dict[str, deque[Callable[[], None]]] = {}
        self._running: Counter[str] = Counter()
        self._turns = 0
        self._last_turn: dict[str, int] = {}  # of the clients with jobs waiting or running
        self._threads: list[threading.Thread] = []
        self._cond = threading.Condition()
        self._closed = False

    def submit(self, client: str, job: Callable[[], None]) -> None:
        """Queue ``job`` for ``client``; RuntimeError once the pool has shut down."""
        with self._cond:
            if self._closed:
                raise RuntimeError("the engine pool has shut down")
            self._waiting.setdefault(client, deque()).append(job)
            if len(self._threads) < self.workers:
                thread = threading.Thread(target=self._work, daemon=True, name=f"{self.name}-{len(self._threads)}")
                self._threads.append(thread)
                thread.start()
            self._cond.notify()

    def running(self, client: str) -> int:
        """How many jobs of ``client`` run now."""
        with self._cond:
            return self._running[client]

    def _take(self) -> tuple[str, Callable[[], None]] | None:
        """The next job and its client (the lock held), or None once the pool has shut down."""
        while not self._closed and not self._waiting:
            self._cond.wait()
        if self._closed:
            return None
        client = min(self._waiting, key=lambda c: (self._running[c], self._last_turn.get(c, -1)))
        queue = self._waiting[client]
        job = queue.popleft()
        if not queue:
            del self._waiting[client]
        self._running[client] += 1
        self._turns += 1
        self._last_turn[client] = self._turns
        return client, job

    def _work(self) -> None:
        while True:
            with self._cond:
                taken = self._take()
            if taken is None:
                return
            client, job = taken
            try:
                job()
            except Exception:  # noqa: BLE001 - a job reports its own failures; this keeps the thread alive
                _log.exception("engine job failed")
            finally:
                with self._cond:
                    self._running[client] -= 1
                    if not self._running[client]:
                        del self._running[client]
                        if client not in self._waiting:
                            del self._last_turn[client]

    def shutdown(self) -> None:
        """Drop the waiting jobs and wait for the running ones to end (their searches told to stop)."""
        with self._cond:
            self._closed = True
            self._waiting.clear()
            self._cond.notify_all()
            threads = list(self._threads)
        for thread in threads:
            thread.join()
