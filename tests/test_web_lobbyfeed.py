"""The lobby's live side (web/lobbyfeed.py): abandoned local games leave "being played", the event
stream says when the lists change, and the number of streams is bounded before one starts."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from datetime import UTC, datetime, timedelta

import pytest

pytest.importorskip("fastapi")
from fastapi.testclient import TestClient  # noqa: E402

from morphchess.web import create_app  # noqa: E402
from morphchess.web.lobbyfeed import ABANDONED_AFTER, LobbyFeed  # noqa: E402


@pytest.fixture
def client_and_db(tmp_path):
    db = tmp_path / "games.db"
    with TestClient(create_app(f"sqlite:///{db}", 100000)) as client:
        yield client, db


def _played_local_game(client) -> str:
    game = client.post("/api/games", json={"black": "human"}).json()
    headers = {"Authorization": f"Bearer {game['seat']['token']}"}
    for ply, move in enumerate(["e2e4", "e7e5"]):
        assert client.post(f"/api/games/{game['id']}/moves", json={"move": move, "ply": ply},
                           headers=headers).status_code == 200
    return game["id"]


def _age(db, gid: str, by: timedelta) -> None:
    with sqlite3.connect(db) as conn:
        past = datetime.now(UTC) - by
        conn.execute("UPDATE games SET updated = ? WHERE id = ?", (past.strftime("%Y-%m-%d %H:%M:%S.%f"), gid))


def _playing(client) -> list[str]:
    return [g["id"] for g in client.get("/api/lobby").json()["playing"]]


def test_an_abandoned_local_game_leaves_the_games_being_played(client_and_db):
    client, db = client_and_db
    gid = _played_local_game(client)
    assert gid in _playing(client)
    _age(db, gid, ABANDONED_AFTER - timedelta(minutes=1))
    assert gid in _playing(client)
    _age(db, gid, ABANDONED_AFTER + timedelta(minutes=1))
    assert gid not in _playing(client) and gid not in client.get("/lobby").text
    invite = client.post("/api/games", json={"mode": "invite", "side": "white"}).json()
    _age(db, invite["id"], 10 * ABANDONED_AFTER)  # a game between two seats stays: its clock decides
    assert invite["id"] in _playing(client)


def test_the_stream_sends_a_new_version_when_the_lists_change():
    lists = {"open": [], "playing": [], "finished": []}
    feed = LobbyFeed(lambda: lists)
    closed = threading.Event()

    async def follow() -> list[str]:
        feed.open()
        events = []
        async for chunk in feed.stream(closed):
            if chunk.startswith("event: lobby"):
                events.append(chunk)
                if len(events) == 1:
                    lists["open"].append({"id": "new"})  # a seek is posted
                else:
                    closed.set()
        return events

    first, second = asyncio.run(asyncio.wait_for(follow(), 10))
    assert first != second and second.startswith("event: lobby\ndata: {\"version\": ")
    assert feed.streams == 0  # the ended stream is no longer counted


def test_streams_beyond_the_budget_are_refused_before_they_start(client_and_db):
    client, _ = client_and_db
    client.app.state.lobby_feed = LobbyFeed(lambda: {}, max_streams=0)
    r = client.get("/api/lobby/events")
    assert r.status_code == 503 and r.json()["error"]["code"] == "busy"
    assert "live pages" in r.json()["error"]["message"]
