"""Talk in a game through the API: players and spectators, the live stream, PGN comments, and the
attacks (markup, floods, oversized and empty messages, a spectator writing in a closed talk)."""

from __future__ import annotations

import itertools
import json
from dataclasses import replace

import pytest

pytest.importorskip("fastapi")
from fastapi.testclient import TestClient  # noqa: E402

from morphchess import pgn  # noqa: E402
from morphchess.web import create_app  # noqa: E402
from morphchess.web.limits import Limits  # noqa: E402
from morphchess.web.talk import MAX_TEXT  # noqa: E402

_hosts = itertools.count(1)
TALK_PER_MINUTE = 5


@pytest.fixture
def client(db_url):
    """A client with an address of its own, so that the rate limit of one test does not reach another
    (an app of its own too: its lifespan ends with the test)."""
    app = create_app(db_url, replace(Limits.every_rate(100000), talk_per_minute=TALK_PER_MINUTE))
    with TestClient(app, client=(f"10.0.0.{next(_hosts)}", 5000)) as c:
        yield c


def bearer(token: str | None) -> dict:
    return {"Authorization": f"Bearer {token}"} if token else {}


def invite(client) -> tuple[str, str, str]:
    g = client.post("/api/games", json={"mode": "invite", "side": "white", "name": "Ann"}).json()
    joined = client.post(f"/api/games/{g['id']}/join", json={"name": "Bob"}, headers=bearer(g["invite"]["token"]))
    return g["id"], g["seat"]["token"], joined.json()["seat"]["token"]  # the invite's token is exchanged


def say(client, gid: str, text: str, token: str | None = None, name: str | None = None):
    return client.post(f"/api/games/{gid}/talk", json={"text": text, "name": name}, headers=bearer(token))


def test_players_and_a_spectator_talk_and_the_pgn_keeps_it(client):
    gid, ann, bob = invite(client)
    assert say(client, gid, "good luck", ann).json()["name"] == "Ann"
    client.post(f"/api/games/{gid}/moves", json={"move": "e4", "ply": 0}, headers=bearer(ann))
    m = say(client, gid, "  nice\n\n  opening\t ", name="Cy").json()
    assert (m["role"], m["name"], m["side"], m["text"], m["ply"]) == ("spectator", "Cy", None, "nice opening", 1)
    assert say(client, gid, "thanks {really}", bob).json()["side"] == "black"
    got = client.get(f"/api/games/{gid}/talk").json()
    assert [x["text"] for x in got["messages"]] == ["good luck", "nice opening", "thanks {really}"]
    assert got["spectators"] is True
    ids = [x["id"] for x in got["messages"]]
    assert ids == sorted(ids) and len(set(ids)) == 3
    assert [x["text"] for x in client.get(f"/api/games/{gid}/talk?since={ids[0]}").json()["messages"]] == \
        ["nice opening", "thanks {really}"]
    record = client.get(f"/api/games/{gid}/record?format=pgn").text
    assert "{Ann: good luck} 1. e4 {spectator Cy: nice opening | Bob: thanks {really)}" in record
    read = pgn.read(record)  # our reader, and the comments land on the plies they were written at
    assert read.comments[0] == "Ann: good luck" and read.comments[1].startswith("spectator Cy")


def test_markup_stays_text_and_hidden_characters_go(client):
    gid, ann, _ = invite(client)
    text = '<img src=x onerror="alert(1)"><script>alert(2)</script>'
    assert say(client, gid, text, ann).json()["text"] == text  # stored as written: the page shows it as text
    assert say(client, gid, "a\u202eb\x07c", ann).json()["text"] == "a b c"
    assert say(client, gid, "a\x00b", ann).status_code == 422  # NUL: refused by every request


def test_oversized_empty_and_unknown_game_are_refused(client):
    gid, ann, _ = invite(client)
    r = say(client, gid, "x" * (MAX_TEXT + 1), ann)
    assert r.status_code == 422 and "at most 300" in r.json()["error"]["message"]
    assert say(client, gid, "x" * 5000, ann).json()["error"]["code"] == "validation"
    assert say(client, gid, " \n\t ", ann).json()["error"]["message"].startswith("an empty message")
    assert say(client, "nosuchgame", "hi", ann).status_code == 404
    assert client.get(f"/api/games/{gid}/talk").json()["messages"] == []


def test_a_flood_is_refused_with_429(client):
    gid, ann, _ = invite(client)
    burst = TALK_PER_MINUTE
    codes = [say(client, gid, f"spam {i}", ann).status_code for i in range(burst + 3)]
    assert codes == [200] * burst + [429] * 3
    r = say(client, gid, "more", ann)
    assert r.headers["Retry-After"] == "60" and r.json()["error"]["code"] == "rate_limited"
    assert len(client.get(f"/api/games/{gid}/talk").json()["messages"]) == burst


def test_players_close_the_talk_to_spectators(client):
    gid, ann, bob = invite(client)
    closing = client.post(f"/api/games/{gid}/talk/spectators", json={"open": False})
    assert closing.status_code == 403  # a spectator cannot close it
    assert client.post(f"/api/games/{gid}/talk/spectators", json={"open": False}, headers=bearer(bob)).json() == \
        {"spectators": False}
    r = say(client, gid, "let me in", name="Cy")
    assert r.status_code == 403 and "closed" in r.json()["error"]["message"]
    assert say(client, gid, "a token of another game", "x" * 22).status_code == 403
    assert say(client, gid, "still here", ann).status_code == 200
    assert client.get(f"/api/games/{gid}/talk").json()["spectators"] is False
    client.post(f"/api/games/{gid}/talk/spectators", json={"open": True}, headers=bearer(ann))
    assert say(client, gid, "back", name="Cy").status_code == 200


def test_the_stream_sends_messages_with_their_own_ids(client):
    gid, ann, _ = invite(client)
    first = say(client, gid, "one", ann).json()["id"]
    second = say(client, gid, "two", ann).json()["id"]
    with client.stream("GET", f"/api/games/{gid}/talk/events", headers={"Last-Event-ID": str(first)}) as r:
        lines = []
        for line in r.iter_lines():
            lines.append(line)
            if line.startswith("data: {\"spectators\""):
                break
    assert f"id: {second}" in lines and f"id: {first}" not in lines
    data = [json.loads(x[6:]) for x in lines if x.startswith("data: ")]
    assert data[0]["text"] == "two" and data[-1] == {"spectators": True}


@pytest.mark.parametrize("player, counted", [(False, 1), (True, 0)])
def test_the_stream_counts_its_spectators(client, player, counted):
    gid, _, _ = invite(client)
    with client.stream("GET", f"/api/games/{gid}/talk/events?player={str(player).lower()}") as r:
        lines = r.iter_lines()
        for line in lines:
            if line.startswith("event: audience"):
                break
        assert json.loads(next(lines)[6:]) == {"spectators": counted}
