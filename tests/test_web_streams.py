"""Streams that scale (issue 53): the streams of one game share one reading and one serialisation of
each change; a ``changes`` stream sends the fields that changed, not the whole state; many streams of
one game hold bounded memory.  Before, every stream read the game and wrote its whole state itself:
100 spectators of a 500-ply 16x16 game took 240 s to connect and grew the server to 2.5 GB."""

from __future__ import annotations

import asyncio
import gc
import json
import tracemalloc

import pytest

pytest.importorskip("fastapi")

from morphchess.web import actions, create_app, events  # noqa: E402
from morphchess.web.events import stream  # noqa: E402
from morphchess.web.newgame import NewGame, create  # noqa: E402

STREAMS = 200


def _events(chunk: str) -> list[tuple[str, dict]]:
    out = []
    for block in chunk.split("\n\n"):
        fields = dict(line.split(": ", 1) for line in block.splitlines() if ": " in line and not line.startswith(":"))
        if "event" in fields:
            out.append((fields["event"], json.loads(fields["data"])))
    return out


@pytest.fixture
def app(tmp_path):
    return create_app(f"sqlite:///{tmp_path}/g.db", 100000)


def _game(app) -> tuple[str, str]:
    game, tokens = create(app.state.store, NewGame(mode="local", white="human", black="human"), "test")
    return game.id, next(iter(tokens))


async def _follow(app, gid: str, count: int, changes: bool = False):
    """``count`` streams of the game, each past its first chunk (the state)."""
    streams = [stream(app.state.hub, gid, None, changes) for _ in range(count)]
    for s in streams:
        assert await anext(s) == "retry: 1000\n\n"
        assert _events(await anext(s))[-1][0] == "state"
    return streams


def test_the_streams_of_a_game_share_one_serialisation_a_change(app, monkeypatch):
    calls = []
    real = events.state_view
    monkeypatch.setattr(events, "state_view", lambda *a: calls.append(1) or real(*a))
    gid, token = _game(app)

    async def main() -> None:
        streams = await _follow(app, gid, STREAMS)
        assert len(calls) == 1 and app.state.hub.streams() == STREAMS
        await asyncio.to_thread(actions.play, app.state.store, gid, token, "e4", 0)
        chunks = [await anext(s) for s in streams]
        assert len(calls) == 2 and len(set(chunks)) == 1  # one state written, the same text for all
        assert [name for name, _ in _events(chunks[0])] == ["move", "state"]
        for s in streams:
            await s.aclose()
        assert app.state.hub.streams() == 0

    asyncio.run(main())


def test_a_changes_stream_sends_only_what_changed(app):
    gid, token = _game(app)

    async def main() -> None:
        [changes] = await _follow(app, gid, 1, changes=True)
        [whole] = await _follow(app, gid, 1)
        await asyncio.to_thread(actions.play, app.state.store, gid, token, "e4", 0)
        (_, move), (name, change) = _events(await anext(changes))
        (_, _), (_, state) = _events(await anext(whole))
        assert move["san"] == "e4" and name == "change"
        assert {"version", "ply", "legal", "last", "fen", "squares", "turn"} <= set(change)
        assert not {"history", "id", "variant", "players", "names", "title"} & set(change)
        assert all(change[k] == state[k] for k in change)
        await asyncio.to_thread(actions.undo, app.state.store, gid, token, 1)
        (name, change), = _events(await anext(changes))
        assert name == "change" and change["ply"] == 0 and change["last"] is None
        await changes.aclose()
        await whole.aclose()

    asyncio.run(main())


def test_many_streams_of_a_long_game_hold_little_memory(app):
    """Each stream holds its place in the game's shared feed, not a state of its own (3 KB a stream
    beside a 10 KB state)."""
    line = "e4 e5 Nf3 Nc6 Bc4 Bc5 c3 Nf6 d4 exd4 cxd4 Bb4+ Bd2 Bxd2+ Nbxd2 d5 exd5 Nxd5 Qb3 Na5".split()
    game, _tokens = create(app.state.store, NewGame(mode="local", white="human", black="human", moves=line), "test")
    watch = {}

    async def main() -> int:
        gc.collect()
        tracemalloc.start()
        try:
            before = tracemalloc.get_traced_memory()[0]
            streams = await _follow(app, game.id, STREAMS)
            gc.collect()
            watch["state"] = len(app.state.hub._watches[game.id].feed.state)
            grown = tracemalloc.get_traced_memory()[0] - before
        finally:
            tracemalloc.stop()
        for s in streams:
            await s.aclose()
        return grown

    per_stream = asyncio.run(main()) / STREAMS
    assert per_stream < watch["state"] / 2  # not a state of its own
