"""A game's live event stream (Server-Sent Events).

One poller a process (:class:`Hub`) reads the rows of every game its streams
follow in one query (their version and engine progress) each :data:`POLL_S`,
and a game's at once when this process changes it, or, on PostgreSQL, when any
process does (a notification).  On a change it reads the game once and
serialises its events once (:class:`Feed`), and every stream of the game sends those same strings: a
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
from typing import Generic, TypeVar

from anyio import to_thread
from sqlalchemy import bindparam, select

from .bots import Bots
from .db import games, now
from .errors import Unavailable
from .game import Game
from .gameview import move_view, state_view
from .store import Store

__all__ = ["Notifier", "Poller", "Watch", "Hub", "Feed", "stream", "next_feed", "changed_fields", "resume_from",
           "ended_on_signals", "POLL_S", "PING_S"]

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


def _fields(state: dict) -> dict[str, str]:
    """A state's fields, each written as JSON once."""
    return {k: json.dumps(v, separators=(",", ":")) for k, v in state.items()}


def _data(name: str, ply: int, fields: dict[str, str]) -> str:
    """An event whose data is an object of fields already written."""
    body = ",".join(f"{json.dumps(k)}:{v}" for k, v in fields.items())
    return f"id: {ply}\nevent: {name}\ndata: {{{body}}}\n\n"


def changed_fields(before: dict[str, str], after: dict[str, str]) -> dict[str, str]:
    """The fields (as JSON) of a game state that differ from ``before``: always ``version`` and ``ply``,
    never ``history`` (the moves travel as ``move`` events)."""
    return {k: v for k, v in after.items() if k in ("version", "ply") or (k != "history" and before.get(k) != v)}


def next_feed(feed: Feed | None, shown: dict[str, str] | None, game: Game, at: datetime) -> tuple[Feed, dict]:
    """The feed after a change of ``game`` (a spectator's view) and the state's fields as JSON (what the
    next change is taken from); the moves the feed before already had are shared, not written again."""
    fields = _fields(state_view(game, [], at))
    ucis = tuple(m["uci"] for m in game.moves)
    kept = 0
    if feed is not None:
        while kept < min(len(ucis), len(feed.ucis)) and ucis[kept] == feed.ucis[kept]:
            kept += 1
    moves = (feed.moves[:kept] if feed is not None else ()) + tuple(
        _event("move", m["ply"], move_view(m)) for m in game.moves[kept:])
    change = None if shown is None else _data("change", game.ply, changed_fields(shown, fields))
    return Feed(int(fields["version"]), game.ply, ucis, moves, _data("state", game.ply, fields), change,
                None if shown is None else int(shown["version"])), fields


class Watch:
    """One game followed in this process: the streams waiting for news of it."""

    def __init__(self) -> None:
        self.gone = False
        self.streams: set[asyncio.Event] = set()
        self.listener: asyncio.Task | None = None

    def wake(self) -> None:
        for woken in self.streams:
            woken.set()


class _GameWatch(Watch):
    def __init__(self) -> None:
        super().__init__()
        self.feed: Feed | None = None
        self.shown: dict[str, str] | None = None  # the feed's state, its fields as JSON
        self.mark: tuple | None = None  # the row's (version, engine progress count, progress) last seen
        self.deadline: datetime | None = None  # when the side to move runs out of time


W = TypeVar("W", bound=Watch)


class Poller(Generic[W]):
    """The games the streams of one server process follow, looked at together: every :data:`POLL_S`
    all of them (in one query, :meth:`check`), and at once a game this process changed (or, on
    PostgreSQL, any process did: a notification).  :meth:`check` brings their watches up to date
    and wakes their streams."""

    CHUNK = 500  # game ids in one query

    def __init__(self, notifier: Notifier, watch: Callable[[], W]) -> None:
        self.notifier, self._new_watch = notifier, watch
        self._watches: dict[str, W] = {}
        self._due: set[str] = set()  # games to look at now
        self._wake: asyncio.Event | None = None
        self._poller: asyncio.Task | None = None

    def streams(self) -> int:
        """How many streams follow games in this process."""
        return sum(len(w.streams) for w in self._watches.values())

    @asynccontextmanager
    async def following(self, gid: str) -> AsyncIterator[tuple[W, asyncio.Event]]:
        """A game's watch, and an event set whenever it has news, while the stream lasts."""
        loop = asyncio.get_running_loop()
        watch = self._watches.get(gid)
        if watch is None:
            watch = self._watches[gid] = self._new_watch()
            watch.listener = loop.create_task(self._listen(gid))
            if self._poller is None:
                self._wake = asyncio.Event()
                self._poller = loop.create_task(self._poll())
            self._look(gid)
        woken = asyncio.Event()
        watch.streams.add(woken)
        try:
            yield watch, woken
        finally:
            watch.streams.discard(woken)
            if not watch.streams and self._watches.get(gid) is watch:
                del self._watches[gid]
                if watch.listener is not None:
                    watch.listener.cancel()

    def _look(self, gid: str) -> None:
        self._due.add(gid)
        if self._wake is not None:
            self._wake.set()

    async def _listen(self, gid: str) -> None:
        """Have the game looked at as soon as a change of it is notified."""
        with self.notifier.subscribe(gid) as woken:
            while True:
                await woken.wait()
                woken.clear()
                self._look(gid)

    async def _poll(self) -> None:
        """While games are watched: every POLL_S all of them, in between those due at once."""
        loop = asyncio.get_running_loop()
        assert self._wake is not None
        last = -POLL_S
        while self._watches and not self.notifier.closed.is_set():
            self._wake.clear()
            if loop.time() - last >= POLL_S:
                last, ids = loop.time(), list(self._watches)
            else:
                ids = [g for g in self._due if g in self._watches]
            self._due.difference_update(ids)
            try:
                await self.check([(g, self._watches[g]) for g in ids if g in self._watches])
            except Unavailable:  # the database went: every stream ends (the page reconnects, polls while 503)
                for watch in self._watches.values():
                    watch.gone = True
                    watch.wake()
                break
            with suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), max(0.0, last + POLL_S - loop.time()))
        self._poller = None
        for watch in list(self._watches.values()):  # the server stops: the streams end
            watch.wake()

    async def check(self, watched: list[tuple[str, W]]) -> None:
        """Bring the watches of these games up to date and wake the streams of those with news."""
        raise NotImplementedError


class Hub(Poller[_GameWatch]):
    """The game streams of one server process: a game that changed is read once and its events are
    serialised once (:class:`Feed`) for all its streams."""

    def __init__(self, store: Store, bots: Bots, notifier: Notifier) -> None:
        super().__init__(notifier, _GameWatch)
        self.store, self.bots = store, bots

    async def check(self, watched: list[tuple[str, _GameWatch]]) -> None:
        """Read the rows of the games watched and bring the feeds of those that changed up to date."""
        at = now()
        for gid, watch in watched:
            if watch.deadline is not None and at >= watch.deadline:
                watch.deadline = None  # the side to move ran out of time
                await to_thread.run_sync(self.store.flag, gid)
        marks = await to_thread.run_sync(self._marks, [gid for gid, _w in watched])
        for gid, watch in watched:
            new = marks.get(gid)
            if new is None:
                watch.gone = True
            elif watch.mark is None or new[0] != watch.mark[0]:
                game = await to_thread.run_sync(self.store.get, gid)
                await to_thread.run_sync(self.bots.kick, game)
                watch.feed, watch.shown = await to_thread.run_sync(next_feed, watch.feed, watch.shown, game, now())
                watch.deadline = game.deadline()
            elif new[1] != watch.mark[1] and new[2] and watch.feed is not None:
                engine = _event("engine", watch.feed.ply, json.loads(new[2]))
                watch.feed = replace(watch.feed, engine=engine, engine_seq=new[1])
            else:
                continue
            watch.mark = new
            watch.wake()

    def _marks(self, ids: list[str]) -> dict[str, tuple]:
        """What changes with every change of each game: (version, engine progress count, progress)."""
        out: dict[str, tuple] = {}
        with self.store.db.glance() as conn:
            for i in range(0, len(ids), self.CHUNK):
                rows = conn.execute(_MARKS, {"ids": ids[i:i + self.CHUNK]})
                out.update((row.id, (row.version, row.engine_seq, row.engine_info)) for row in rows)
        return out


_MARKS = select(games.c.id, games.c.version, games.c.engine_seq, games.c.engine_info).where(
    games.c.id.in_(bindparam("ids", expanding=True)))  # built once


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
