"""Rematches through the API: offered and accepted with the colours swapped and the same tokens,
declined, refused before the end or twice, and at once where one token holds every human seat."""

from __future__ import annotations

import time

import pytest

pytest.importorskip("fastapi")


def bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def call(client, gid: str, what: str, token: str | None, body: dict | None = None):
    return client.post(f"/api/games/{gid}/{what}", json=body or {}, headers=bearer(token) if token else {})


def finished_invite(client) -> tuple[str, str, str]:
    g = client.post("/api/games", json={"mode": "invite", "side": "white", "name": "Ann", "time_control": "5+3"}).json()
    ann = g["seat"]["token"]
    bob = call(client, g["id"], "join", g["invite"]["token"], {"name": "Bob"}).json()["seat"]["token"]
    call(client, g["id"], "moves", ann, {"move": "e4", "ply": 0})
    return g["id"], ann, bob


def test_a_rematch_swaps_colours_and_keeps_the_tokens(client):
    gid, ann, bob = finished_invite(client)
    assert call(client, gid, "rematch", ann, {"action": "offer"}).status_code == 409  # still being played
    call(client, gid, "resign", bob)
    offered = call(client, gid, "rematch", ann, {"action": "offer"}).json()
    assert offered["offers"]["rematch"] == "white" and offered["rematch"] is None
    assert call(client, gid, "rematch", ann, {"action": "accept"}).status_code == 409  # one's own offer
    assert call(client, gid, "rematch", None, {"action": "accept"}).status_code == 403  # a spectator
    accepted = call(client, gid, "rematch", bob, {"action": "accept"}).json()
    new = accepted["rematch"]
    assert new and accepted["offers"]["rematch"] is None
    for token, side in ((ann, "black"), (bob, "white")):
        state = client.get(f"/api/games/{new}", headers=bearer(token)).json()
        assert state["you"] == [side] and state["ply"] == 0 and state["status"] == "playing"
    state = client.get(f"/api/games/{new}").json()
    assert state["names"] == {"white": "Bob", "black": "Ann"} and state["seats"] == {"white": "taken", "black": "taken"}
    assert state["time_control"]["text"] == "5+3" and state["clock"]["white_ms"] == 300000
    assert call(client, new, "moves", bob, {"move": "d4", "ply": 0}).status_code == 200
    assert call(client, gid, "rematch", bob, {"action": "offer"}).status_code == 409  # once per game


def test_a_declined_rematch(client):
    gid, ann, bob = finished_invite(client)
    call(client, gid, "resign", ann)
    call(client, gid, "rematch", bob, {"action": "offer"})
    assert call(client, gid, "rematch", ann, {"action": "decline"}).json()["offers"]["rematch"] is None
    assert call(client, gid, "rematch", ann, {"action": "accept"}).status_code == 409


def test_against_the_engine_the_rematch_starts_at_once_and_the_engine_opens(client):
    g = client.post("/api/games", json={"white": "human", "black": "engine", "level": 1}).json()
    call(client, g["id"], "resign", g["seat"]["token"], {"side": "white"})
    new = call(client, g["id"], "rematch", g["seat"]["token"], {"action": "offer"}).json()["rematch"]
    state = client.get(f"/api/games/{new}", headers=bearer(g["seat"]["token"])).json()
    assert state["players"] == {"white": "engine", "black": "human"} and state["you"] == ["white", "black"]
    for _ in range(100):
        if client.get(f"/api/games/{new}").json()["ply"] == 1:
            break
        time.sleep(0.1)
    assert client.get(f"/api/games/{new}").json()["ply"] == 1  # the engine, now White, has moved
