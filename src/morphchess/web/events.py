"""A game's live event stream (Server-Sent Events).

One watcher a game and process (:class:`Hub`) polls the game's row (a cheap
query of its version and engine progress) and is woken at once when this
process changes the game, or, on PostgreSQL, when any process does (a
notification); otherwise changes made by other processes are seen within
:data:`POLL_S`.  On a change it reads the game once and serialises its events
once (:class:`Feed`), and every stream of the game sends those same strings: a
thousand spectators cost one reading and one serialisation a change, not a
thousand.  Each event's id is the game's ply, so a reconnecting ``EventSource``
(``Last-Event-ID``) gets exactly the moves it missed.  Streams end as soon as the
server is asked to stop (SIGTERM, SIGINT: :func:`ended_on_signals`,
:meth:`Notifier.close`); the page's ``EventSource`` reconnects to whichever
server answers next.
"""

from __future__ import annotations

import asyncio
import json
import signal
import threading
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager, suppress
from dataclasses import dataclass, replace
from datetime import datetime

from anyio import to_thread

from .bots import Bots
from .db import now
from .game import Game
from .gameview import move_view, state_view
from .store import Store

__all__ = ["Notifier", "Hub", "Feed", "stream", "next_feed", "changed_fields", "resume_from", "ended_on_signals",
           "POLL_S", "PING_S"]

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


@dataclass(frozen=True)
class Feed:
    """A game's newest events as every stream of it in this process sends them, serialised once:
    the ``move`` event of each ply (``moves[i]`` is ply i + 1, ``ucis[i]`` its move), the whole
    ``state``, the ``change`` from version ``base`` (the fields that differ, for ``changes`` streams),
    the engine's progress."""

    version: int
    ply: int
    ucis: tuple[str, ...]
    moves: tuple[str, ...]
    state: str
    change: str | None
    base: int | None
    engine: str | None = None
    engine_seq: int = 0


def changed_fields(before: dict | None, after: dict) -> dict | None:
    """The fields of a game state that differ from ``before`` (always ``version`` and ``ply``; never
    ``history``: the moves travel as ``move`` events), or None without a state before."""
    if before is None:
        return None
    out = {k: v for k, v in after.items() if k != "history" and before.get(k) != v}
    return {**out, "version": after["version"], "ply": after["ply"]}


def next_feed(feed: Feed | None, shown: dict | None, game: Game, at: datetime) -> tuple[Feed, dict]:
    """The feed after a change of ``game`` (a spectator's view) and the state it shows; the moves the
    feed before already had are shared, not written again."""
    state = state_view(game, [], at)
    ucis = tuple(m["uci"] for m in game.moves)
    kept = 0
    if feed is not None:
        while kept < min(len(ucis), len(feed.ucis)) and ucis[kept] == feed.ucis[kept]:
            kept += 1
    moves = (feed.moves[:kept] if feed is not None else ()) + tuple(
        _event("move", m["ply"], move_view(m)) for m in game.moves[kept:])
    change = changed_fields(shown, state)
    return Feed(state["version"], game.ply, ucis, moves, _event("state", game.ply, state),
                None if change is None else _event("change", game.ply, change),
                None if shown is None else shown["version"]), state


class _Watch:
    """One game followed in this process: its newest feed and the streams waiting for it."""

    def __init__(self) -> None:
        self.feed: Feed | None = None
        self.shown: dict | None = None  # the state of the feed (what the next change is taken from)
        self.gone = False
        self.streams: set[asyncio.Event] = set()
        self.task: asyncio.Task | None = None

    def wake(self) -> None:
        for woken in self.streams:
            woken.set()


class Hub:
    """The game streams of one server process: one watcher a game polls its row, reads the game once a
    change and serialises its events once, for every stream of that game."""

    def __init__(self, store: Store, bots: Bots, notifier: Notifier) -> None:
        self.store, self.bots, self.notifier = store, bots, notifier
        self._watches: dict[str, _Watch] = {}

    def streams(self) -> int:
        """How many streams follow games in this process."""
        return sum(len(w.streams) for w in self._watches.values())

    @asynccontextmanager
    async def following(self, gid: str) -> AsyncIterator[tuple[_Watch, asyncio.Event]]:
        """A game's watch, and an event set whenever its feed changes, while the stream lasts."""
        watch = self._watches.get(gid)
        if watch is None:
            watch = self._watches[gid] = _Watch()
            watch.task = asyncio.get_running_loop().create_task(self._run(gid, watch))
        woken = asyncio.Event()
        watch.streams.add(woken)
        if watch.feed is not None:
            woken.set()
        try:
            yield watch, woken
        finally:
            watch.streams.discard(woken)
            if not watch.streams and self._watches.get(gid) is watch:
                del self._watches[gid]
                if watch.task is not None:
                    watch.task.cancel()

    async def _run(self, gid: str, watch: _Watch) -> None:
        """Follow the game while streams watch it: its changes (woken by the notifier, else polled
        every POLL_S), its engine's progress and its clock."""
        mark: tuple | None = None
        deadline = None
        with self.notifier.subscribe(gid) as woken:
            while not self.notifier.closed.is_set():
                woken.clear()
                if deadline is not None and now() >= deadline:  # the side to move ran out of time
                    deadline = None
                    await to_thread.run_sync(self.store.flag, gid)
                new = await to_thread.run_sync(self.store.mark, gid)
                if new is None:
                    watch.gone = True
                    watch.wake()
                    return
                if mark is None or new[0] != mark[0]:
                    game = await to_thread.run_sync(self.store.get, gid)
                    await to_thread.run_sync(self.bots.kick, game)
                    watch.feed, watch.shown = await to_thread.run_sync(next_feed, watch.feed, watch.shown, game, now())
                    deadline = game.deadline()
                    watch.wake()
                elif new[1] != mark[1] and new[2] and watch.feed is not None:
                    engine = _event("engine", watch.feed.ply, json.loads(new[2]))
                    watch.feed = replace(watch.feed, engine=engine, engine_seq=new[1])
                    watch.wake()
                mark = new
                wait = POLL_S if deadline is None else min(POLL_S, max((deadline - now()).total_seconds(), 0.01))
                with suppress(TimeoutError):
                    await asyncio.wait_for(woken.wait(), wait)
        watch.wake()  # the server stops: the streams end


async def stream(hub: Hub, gid: str, since: int | None, changes: bool = False) -> AsyncIterator[str]:
    """The events of one game, from the moves after ply ``since`` on, for as long as the client listens;
    ``changes``: after the first, each state as the fields that changed (a ``change`` event)."""
    yield "retry: 1000\n\n"
    version = engine_seq = None
    loop = asyncio.get_running_loop()
    last_write = loop.time()
    async with hub.following(gid) as (watch, woken):
        while not hub.notifier.closed.is_set() and not watch.gone:
            woken.clear()
            feed, out = watch.feed, list[str]()
            if feed is not None and feed.version != version:
                since = feed.ply if since is None else min(since, feed.ply)
                out.extend(feed.moves[since:])
                out.append(feed.change if changes and feed.change and feed.base == version else feed.state)
                since, version, engine_seq = feed.ply, feed.version, feed.engine_seq
            elif feed is not None and feed.engine_seq != engine_seq and feed.engine:
                out.append(feed.engine)
                engine_seq = feed.engine_seq
            if out:
                yield "".join(out)
                last_write = loop.time()
            elif loop.time() - last_write > PING_S:
                yield ": ping\n\n"
                last_write = loop.time()
            with suppress(TimeoutError):
                await asyncio.wait_for(woken.wait(), PING_S)
