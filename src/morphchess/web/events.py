"""A game's live event stream (Server-Sent Events).

The stream polls the game's row (a cheap query of its version and engine
progress) and is woken at once when this process changes the game, or, on
PostgreSQL, when any process does (a notification); otherwise changes made by
other processes are seen within :data:`POLL_S`.  Each event's id is the
game's ply, so a reconnecting ``EventSource`` (``Last-Event-ID``) gets exactly
the moves it missed.  Streams end as soon as the server is asked to stop (SIGTERM, SIGINT:
:func:`ended_on_signals`, :meth:`Notifier.close`); the page's ``EventSource`` reconnects to
whichever server answers next.
"""

from __future__ import annotations

import asyncio
import json
import signal
import threading
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import contextmanager, suppress

from anyio import to_thread

from .bots import Bots
from .db import now
from .gameview import move_view, state_view
from .store import Store

__all__ = ["Notifier", "stream", "resume_from", "ended_on_signals", "POLL_S", "PING_S"]

POLL_S = 0.25
PING_S = 15.0


class Notifier:
    """Wakes this process's streams of a game when the process changes that game."""

    def __init__(self) -> None:
        self._waiters: dict[str, set[tuple[asyncio.AbstractEventLoop, asyncio.Event]]] = {}
        self._lock = threading.Lock()
        self.closed = threading.Event()

    def changed(self, gid: str) -> None:
        with self._lock:
            waiters = list(self._waiters.get(gid, ()))
        for loop, event in waiters:
            loop.call_soon_threadsafe(event.set)

    def close(self) -> None:
        """End every stream (the server stops); safe to call from a signal handler."""
        self.closed.set()
        waiters = [w for entries in list(self._waiters.values()) for w in list(entries)]  # no lock: a signal
        for loop, event in waiters:
            with suppress(RuntimeError):  # a loop already closed
                loop.call_soon_threadsafe(event.set)

    @contextmanager
    def subscribe(self, gid: str) -> Iterator[asyncio.Event]:
        entry = (asyncio.get_running_loop(), asyncio.Event())
        with self._lock:
            self._waiters.setdefault(gid, set()).add(entry)
        try:
            yield entry[1]
        finally:
            with self._lock:
                self._waiters[gid].discard(entry)
                if not self._waiters[gid]:
                    del self._waiters[gid]


@contextmanager
def ended_on_signals(close: Callable[[], None]) -> Iterator[None]:
    """While the server runs: SIGTERM and SIGINT call ``close`` (ending the streams at once) before the
    handler the server had (uvicorn's, which then stops it).  Only the main thread may set handlers:
    elsewhere (a test client) nothing changes."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    before = {sig: signal.getsignal(sig) for sig in (signal.SIGTERM, signal.SIGINT)}

    def handle(sig: int, frame) -> None:
        close()
        previous = before[signal.Signals(sig)]
        if callable(previous):
            previous(sig, frame)
        else:  # the default action (or none): as if we had not been here
            signal.signal(sig, previous or signal.SIG_DFL)
            signal.raise_signal(sig)

    for sig in before:
        signal.signal(sig, handle)
    try:
        yield
    finally:
        for sig, previous in before.items():
            signal.signal(sig, previous)


def resume_from(last_event_id: str | None, since: int | None) -> int | None:
    """Where a stream starts: after a reconnecting ``EventSource``'s ``Last-Event-ID`` (a whole number
    of ASCII digits, at most 9 of them; anything else is ignored), else after ``since``."""
    text = (last_event_id or "").strip()
    return int(text) if text.isascii() and text.isdigit() and len(text) <= 9 else since


def _event(name: str, ply: int, data: dict) -> str:
    return f"id: {ply}\nevent: {name}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n"


async def stream(store: Store, bots: Bots, notifier: Notifier, gid: str, since: int | None) -> AsyncIterator[str]:
    """The events of one game, from the moves after ply ``since`` on, for as long as the client listens."""
    yield "retry: 1000\n\n"
    shown: tuple | None = None
    deadline = None
    loop = asyncio.get_running_loop()
    last_write = loop.time()
    with notifier.subscribe(gid) as woken:
        while not notifier.closed.is_set():
            woken.clear()
            if deadline is not None and now() >= deadline:  # the side to move ran out of time
                deadline = None
                await to_thread.run_sync(store.flag, gid)
            mark = await to_thread.run_sync(store.mark, gid)
            if mark is None:
                return  # the game is gone
            events = []
            if shown is None or mark[0] != shown[0]:
                game = await to_thread.run_sync(store.get, gid)
                await to_thread.run_sync(bots.kick, game)
                since = game.ply if since is None else min(since, game.ply)
                events = [_event("move", m["ply"], move_view(m)) for m in game.moves if m["ply"] > since]
                events.append(_event("state", game.ply, state_view(game, [], now())))
                since, deadline = game.ply, game.deadline()
            elif mark[1] != shown[1] and mark[2]:
                events = [_event("engine", since or 0, json.loads(mark[2]))]
            shown = mark
            if events:
                yield "".join(events)
                last_write = loop.time()
            elif loop.time() - last_write > PING_S:
                yield ": ping\n\n"
                last_write = loop.time()
            wait = POLL_S if deadline is None else min(POLL_S, max((deadline - now()).total_seconds(), 0.01))
            with suppress(TimeoutError):
                await asyncio.wait_for(woken.wait(), wait)
