"""Talk in a game: short messages of the players and the spectators (Game Courier's kibitzing).

Messages are stored with the game (table ``talk``), numbered by their own ids
(the event stream of the talk uses them, as the game's stream uses the ply),
and exported as PGN comments after the move they were written at.  A message is
plain text (whitespace folded, control characters dropped, at most
:data:`MAX_TEXT` characters); each client may write ``talk_per_minute`` messages
a minute, and so may each author in a game (a seat, or a spectator's address:
:mod:`morphchess.web.limits`, counted in the database, so across processes).  A game keeps at
most :data:`MAX_PER_GAME` messages of its players and as many of its spectators, counted apart, so
spectators never fill the talk for the players.  The players may close the talk to spectators:
then only seat holders write (everyone still reads, as with the game).
"""

from __future__ import annotations

import asyncio
import json
import re
import threading
from bisect import bisect_right
from collections import Counter
from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager, suppress
from datetime import datetime

from anyio import to_thread
from sqlalchemy import Column, DateTime, ForeignKey, Integer, String, Table, func, select

from .db import games, metadata
from .errors import BadInput, Conflict, Forbidden
from .events import PING_S, POLL_S, Notifier, Poller, Watch
from .game import Game
from .gameview import iso
from .store import Store

__all__ = ["talk", "Talk", "TalkHub", "Audience", "audience", "clean", "stream", "MAX_TEXT", "MAX_PER_GAME"]

MAX_TEXT = 300
MAX_PER_GAME = 1000  # messages of a game's players, and as many of its spectators
_WAIT_S = 4 * POLL_S  # a stream counts the audience this often when nothing wakes it
_HIDDEN = re.compile("[\x00-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")  # controls, bidi overrides

talk = Table(
    "talk", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("game_id", String(16), ForeignKey("games.id", ondelete="CASCADE"), nullable=False, index=True),
    Column("ply", Integer, nullable=False),  # the game's ply when it was written
    Column("side", String(5)),  # the writer's seat (white, black), NULL for a spectator or both seats
    Column("role", String(10), nullable=False),  # player, spectator
    Column("name", String(60)),
    Column("text", String(500), nullable=False),
    Column("client", String(16), nullable=False),  # hash of the writer's address (rate limit)
    Column("at", DateTime(timezone=True), nullable=False, index=True),
)


def clean(text: str) -> str:
    """A message as stored: whitespace folded to single spaces, control and bidi characters dropped;
    BadInput if nothing is left or it is too long."""
    text = " ".join(_HIDDEN.sub(" ", text).split())
    if not text:
        raise BadInput("an empty message: write some text")
    if len(text) > MAX_TEXT:
        raise BadInput(f"a message of {len(text)} characters: at most {MAX_TEXT}")
    return text


def message_view(row) -> dict:
    return {"id": row["id"], "ply": row["ply"], "side": row["side"], "role": row["role"], "name": row["name"],
            "text": row["text"], "at": iso(row["at"])}


class Talk:
    """The talk of the games of one store."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.db = store.db

    def post(self, gid: str, token: str | None, text: str, name: str | None, client: str) -> dict:
        """Write a message (a seat holder's, or a spectator's while the talk is open to them); ``text``
        as :func:`clean` gives it."""
        out: dict = {}

        def act(conn, game: Game, at: datetime) -> None:
            _not_over(game)
            sides = game.sides_of(token)
            if not sides and game.row["talk_closed"]:
                raise Forbidden("the players have closed the talk to spectators")
            role = "player" if sides else "spectator"
            self._check_budget(conn, gid, role)
            side = sides[0] if len(sides) == 1 else None
            shown = " ".join(_HIDDEN.sub(" ", name or "").split())[:40] or None  # a spectator's name
            out.update(game_id=gid, ply=game.ply, side=side, role=role,
                       name=game.row[f"{side}_name"] if side else shown,
                       text=text, client=client, at=at)
            key = conn.execute(talk.insert().values(**out)).inserted_primary_key
            out["id"] = key[0] if key else None
            self.db.notify(conn, gid)
        self.store.change(gid, act)
        return message_view(out)

    def _check_budget(self, conn, gid: str, role: str) -> None:
        """Refuse a message over its role's budget (the players' and the spectators' are apart)."""
        count = conn.execute(select(func.count()).select_from(talk)
                             .where(talk.c.game_id == gid, talk.c.role == role)).scalar_one()
        if count >= MAX_PER_GAME:
            raise Conflict(f"this game's talk is full ({MAX_PER_GAME} messages of its {role}s)")

    def messages(self, gid: str, since: int = 0) -> list[dict]:
        """The messages after id ``since``, oldest first."""
        with self.db.read() as conn:
            rows = conn.execute(talk.select().where(talk.c.game_id == gid, talk.c.id > since)
                                .order_by(talk.c.id)).mappings().all()
        return [message_view(r) for r in rows]

    def marks(self, gids: list[str]) -> dict[str, tuple]:
        """What changes with each game's talk: (newest message id, closed to spectators), by game id
        (a game that does not exist has none)."""
        out: dict[str, tuple] = {}
        with self.db.read() as conn:
            for i in range(0, len(gids), Poller.CHUNK):
                chunk = gids[i:i + Poller.CHUNK]
                newest = dict(conn.execute(select(talk.c.game_id, func.max(talk.c.id))
                                           .where(talk.c.game_id.in_(chunk)).group_by(talk.c.game_id)).all())
                for gid, closed in conn.execute(select(games.c.id, games.c.talk_closed).where(games.c.id.in_(chunk))):
                    out[gid] = (newest.get(gid) or 0, bool(closed))
        return out

    def set_spectators(self, gid: str, token: str | None, open_: bool) -> bool:
        """Open or close the talk to spectators (a seat holder); returns whether it is open."""
        def act(conn, game: Game, at: datetime) -> None:
            if not game.sides_of(token):
                raise Forbidden("only the players may open or close the talk to spectators")
            _not_over(game)
            self.store.update(conn, game, at, talk_closed=not open_)
        self.store.change(gid, act)
        return open_

    def comments(self, gid: str) -> dict[int, str]:
        """The talk as PGN comments: by the ply it was written at, ``name: text`` joined by `` | ``."""
        out: dict[int, list[str]] = {}
        for m in self.messages(gid):
            out.setdefault(m["ply"], []).append(f"{writer(m)}: {m['text']}")
        return {ply: " | ".join(lines) for ply, lines in out.items()}


def _not_over(game: Game) -> None:
    """A finished game's talk is closed: its PGN, which holds the talk, never changes again."""
    if game.status.finished:
        raise Conflict("the game is over: its talk is closed (the record keeps it as it was)")


def writer(message: dict) -> str:
    """How a message's writer is named: the player's name or side, or ``spectator`` and a name."""
    if message["role"] == "spectator":
        return f"spectator {message['name']}" if message["name"] else "spectator"
    return message["name"] or message["side"] or "player"


class Audience:
    """How many spectators follow each game's talk in this process (every page showing a game does)."""

    def __init__(self) -> None:
        self._counts: Counter[str] = Counter()
        self._lock = threading.Lock()

    @contextmanager
    def watching(self, gid: str, spectator: bool) -> Iterator[None]:
        with self._lock:
            self._counts[gid] += spectator
        try:
            yield
        finally:
            with self._lock:
                self._counts[gid] -= spectator
                if self._counts[gid] <= 0:
                    del self._counts[gid]

    def spectators(self, gid: str) -> int:
        with self._lock:
            return self._counts.get(gid, 0)


audience = Audience()


def _event(name: str, data: dict, ident: int | None = None) -> str:
    head = f"id: {ident}\n" if ident is not None else ""
    return f"{head}event: {name}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n"


class _TalkWatch(Watch):
    def __init__(self) -> None:
        super().__init__()
        self.mark: tuple | None = None  # (newest message id, closed to spectators) last seen
        self.ids: tuple[int, ...] = ()  # the game's messages, oldest first, and their talk events
        self.events: tuple[str, ...] = ()


class TalkHub(Poller[_TalkWatch]):
    """The talk streams of one server process: the talks of the games followed are looked at together,
    and a game's new messages are read and serialised once for all its streams."""

    def __init__(self, chat: Talk, notifier: Notifier) -> None:
        super().__init__(notifier, _TalkWatch)
        self.chat = chat

    async def check(self, watched: list[tuple[str, _TalkWatch]]) -> None:
        marks = await to_thread.run_sync(self.chat.marks, [gid for gid, _w in watched])
        for gid, watch in watched:
            mark = marks.get(gid)
            if mark == watch.mark:
                continue
            if mark is None:
                watch.gone = True
            elif watch.mark is None or mark[0] != watch.mark[0]:
                new = await to_thread.run_sync(self.chat.messages, gid, watch.ids[-1] if watch.ids else 0)
                watch.ids += tuple(m["id"] for m in new)
                watch.events += tuple(_event("talk", m, m["id"]) for m in new)
            watch.mark = mark
            watch.wake()


async def stream(hub: TalkHub, gid: str, since: int, spectator: bool = True) -> AsyncIterator[str]:
    """The talk's events: each message after id ``since`` (``talk``, with its id), whether spectators
    may write (``settings``), and how many watch (``audience``), at the start and when they change.
    ``spectator``: the listener holds no seat (it is counted)."""
    yield "retry: 1000\n\n"
    closed: bool | None = None
    watchers = -1
    idle = 0  # looks without an event: a ping comment after PING_S of them
    with audience.watching(gid, spectator):
        async with hub.following(gid) as (watch, woken):
            while not hub.notifier.closed.is_set() and not watch.gone:
                woken.clear()
                out: list[str] = []
                if watch.mark is not None:
                    first = bisect_right(watch.ids, since)
                    out.extend(watch.events[first:])
                    since = watch.ids[-1] if len(watch.ids) > first else since
                    if watch.mark[1] != closed:
                        closed = watch.mark[1]
                        out.append(_event("settings", {"spectators": not closed}))
                    count = audience.spectators(gid)
                    if count != watchers:
                        out.append(_event("audience", {"spectators": count}))
                        watchers = count
                idle = 0 if out else idle + 1
                if idle * _WAIT_S >= PING_S:
                    out, idle = [": ping\n\n"], 0
                if out:
                    yield "".join(out)
                with suppress(TimeoutError):  # the audience is counted again at least this often
                    await asyncio.wait_for(woken.wait(), _WAIT_S)
