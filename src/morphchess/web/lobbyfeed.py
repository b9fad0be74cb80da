"""The lobby's live side: which games it lists as being played, and its event stream.

Every page showing the lobby follows ``GET /api/lobby/events``: a ``lobby`` event
(``{"version": ...}``, a digest of the lists) at the start and whenever the lists
change, then the page fetches the lobby again.  The lists are read at most once
every :data:`POLL_S` per process, however many pages follow them, and at most
:data:`MAX_STREAMS` streams are open per process (503 beyond).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import threading
import time
from collections.abc import AsyncIterator, Callable
from datetime import datetime, timedelta

from anyio import to_thread

from .db import aware
from .errors import Busy

__all__ = ["LobbyFeed", "abandoned", "ABANDONED_AFTER", "POLL_S", "MAX_STREAMS"]

ABANDONED_AFTER = timedelta(minutes=30)  # a local game nobody touched for this long is no longer "being played"
POLL_S = 1.0
PING_S = 15.0
MAX_STREAMS = 200


def abandoned(row: dict, at: datetime) -> bool:
    """Is this game one a player left: a local game (against the engine, or two at one screen) that
    nobody has touched for :data:`ABANDONED_AFTER`?  Games between two seats stay listed: their
    clocks, or correspondence, decide when they end."""
    return row["mode"] == "local" and at - aware(row["updated"]) > ABANDONED_AFTER


class LobbyFeed:
    """The lobby's version, read at most once every :data:`POLL_S` for all streams of a process."""

    def __init__(self, lists: Callable[[], dict], max_streams: int = MAX_STREAMS) -> None:
        self._lists = lists
        self.max_streams = max_streams
        self.streams = 0
        self._lock = threading.Lock()
        self._version = ""
        self._read_at = float("-inf")

    def version(self) -> str:
        """A digest of the lobby's lists as they are now (at most :data:`POLL_S` old)."""
        with self._lock:
            if time.monotonic() - self._read_at >= POLL_S:
                text = json.dumps(self._lists(), sort_keys=True, default=str)
                self._version = hashlib.sha256(text.encode()).hexdigest()[:16]
                self._read_at = time.monotonic()
            return self._version

    def open(self) -> None:
        """Count a new stream; Busy (503) when this process already serves its limit."""
        with self._lock:
            if self.streams >= self.max_streams:
                raise Busy(f"the lobby already has {self.max_streams} live pages on this server; reload later")
            self.streams += 1

    async def stream(self, closed: threading.Event) -> AsyncIterator[str]:
        """``lobby`` events for as long as the page listens (or until the server stops); the stream was
        counted by :meth:`open`."""
        try:
            yield "retry: 2000\n\n"
            shown, written = None, time.monotonic()
            while not closed.is_set():
                version = await to_thread.run_sync(self.version)
                if version != shown:
                    yield f"event: lobby\ndata: {json.dumps({'version': version})}\n\n"
                    shown, written = version, time.monotonic()
                elif time.monotonic() - written > PING_S:
                    yield ": ping\n\n"
                    written = time.monotonic()
                await asyncio.sleep(POLL_S)
        finally:
            with self._lock:
                self.streams -= 1
