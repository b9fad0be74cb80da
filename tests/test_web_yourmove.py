"""The correspondence games awaiting an account's move (``GET /api/account/your-move``): the games of the
account where its side is to move, and its attacks (no account, another account's games, a game the
account plays against itself, a flood of asks within the budget).  SQLite and PostgreSQL."""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("argon2")
from fastapi.testclient import TestClient  # noqa: E402

from morphchess.web import create_app  # noqa: E402
from test_web_mail import Player, correspondence  # noqa: E402

MARKUP = "<img src=x onerror=alert(1)>"


@pytest.fixture(scope="module")
def app(db_url):
    app = create_app(db_url, 100000)
    app.state.awaiting.fresh_s = 0  # every ask read afresh (the budget has its own test)
    with TestClient(app):
        yield app


def awaiting(player: Player) -> list[dict]:
    r = player.http.get("/api/account/your-move")
    assert r.status_code == 200, r.text
    assert r.json()["poll_seconds"] > 0
    return r.json()["games"]


def test_a_correspondence_game_awaits_the_side_to_move_only(app):
    alice, bob = Player(app, "yalice"), Player(app, "ybob")
    gid = correspondence(alice, bob)
    [mine] = awaiting(alice)
    assert mine == {"id": gid, "title": "Orthodox chess", "side": "white", "opponent": "ybob", "deadline": None,
                    "link": f"/game/{gid}"}
    assert awaiting(bob) == []
    assert alice.move(gid, "e4").status_code == 200
    assert awaiting(alice) == [] and [g["opponent"] for g in awaiting(bob)] == ["yalice"]
    assert bob.move(gid, "e5").status_code == 200 and alice.move(gid, "Nf3").status_code == 200
    [theirs] = awaiting(bob)
    assert theirs["side"] == "black" and theirs["deadline"] is not None  # the clock runs from the second move
    live = correspondence(alice, bob, tc="5+3")
    assert live not in [g["id"] for g in awaiting(alice) + awaiting(bob)]  # not a correspondence game
    assert bob.post(f"/api/games/{gid}/resign", bob.tokens[gid], side="black").status_code == 200
    assert awaiting(bob) == [] and awaiting(alice) == []  # a finished game awaits nobody


def test_nobody_else_sees_an_accounts_games(app):
    alice, bob, carol = Player(app, "zalice"), Player(app, "zbob"), Player(app, "zcarol")
    correspondence(alice, bob)
    assert awaiting(carol) == []
    anonymous = TestClient(app)
    r = anonymous.get("/api/account/your-move")
    assert r.status_code == 401 and r.json()["error"]["code"] == "not_logged_in"
    anonymous.cookies.set("morphchess_session", "forged" * 8)
    assert anonymous.get("/api/account/your-move").status_code == 401
    # a game whose both seats one account holds awaits nobody (the account moves both sides anyway)
    r = carol.post("/api/games", mode="local", white="human", black="human", time_control="3d")
    assert r.status_code == 200 and awaiting(carol) == []


def test_an_opponents_name_is_given_as_it_is(app):
    alice = Player(app, "nalice")
    r = alice.post("/api/games", mode="invite", side="black", time_control="3d")
    game = r.json()
    guest = TestClient(app)
    r = guest.post(f"/api/games/{game['id']}/join", json={"name": MARKUP},
                   headers={"Authorization": f"Bearer {game['invite']['token']}"})
    assert r.status_code == 200, r.text
    r = guest.post(f"/api/games/{game['id']}/moves", json={"move": "e4", "ply": 0},
                   headers={"Authorization": f"Bearer {r.json()['seat']['token']}"})
    assert r.status_code == 200, r.text
    assert [g["opponent"] for g in awaiting(alice)] == [MARKUP]  # data: the page shows it as text


def test_asks_within_the_freshness_are_read_once(app):
    alice, bob = Player(app, "falice"), Player(app, "fbob")
    correspondence(alice, bob)
    seen = app.state.awaiting
    reads, read = [], seen._read
    seen.fresh_s, seen._read = 3600, lambda account: reads.append(account) or read(account)
    try:
        answers = [awaiting(alice) for _ in range(20)]
    finally:
        seen.fresh_s, seen._read = 0, read
    assert len(reads) == 1 and all(a == answers[0] and len(a) == 1 for a in answers)
