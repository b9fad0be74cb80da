"""Every way a game ends goes through one function (``Store.end``) exactly once, and a finished game
refuses every action with 409 (SQLite, and PostgreSQL when installed)."""

from __future__ import annotations

import time

import pytest

pytest.importorskip("fastapi")
from morphchess.web.errors import Conflict  # noqa: E402

from online_support import Seat, age_clock, code, invite  # noqa: E402


@pytest.fixture
def ended(client):
    """The games that ended, in order, as (id, status, result, termination), told by the ending hook."""
    seen: list[tuple] = []

    def hook(conn, game) -> None:
        seen.append((game.id, game.row["status"], game.row["result"], game.row["termination"]))

    endings = client.app.state.store.endings
    endings.append(hook)
    yield seen
    endings.remove(hook)


def local(client, **spec) -> Seat:
    r = client.post("/api/games", json={"mode": "local", "white": "human", "black": "human", **spec})
    assert r.status_code == 200, r.text
    return Seat(client, r.json()["id"], r.json()["seat"]["token"])


def play(seat: Seat, *moves: str) -> dict:
    for move in moves:
        r = seat.move(move)
        assert r.status_code == 200, r.text
    return r.json()


def test_each_ending_passes_through_the_one_ending_once(client, ended):
    mate = local(client)
    play(mate, "f2f3", "e7e5", "g2g4", "d8h4")
    stale = local(client, fen="k7/8/8/2Q5/8/8/8/7K w - - 0 1")
    play(stale, "c5b6")
    repeated = local(client)
    play(repeated, *["g1f3", "g8f6", "f3g1", "f6g8"] * 2)
    resigned, _, _ = invite(client)
    assert resigned.call("POST", "resign", {}).status_code == 200
    agreed, guest, _ = invite(client)
    agreed.call("POST", "draw", {"action": "offer"})
    assert guest.call("POST", "draw", {"action": "accept"}).status_code == 200
    timed, bob, watcher = invite(client, time_control="1+0")
    play(timed, "e2e4")
    play(bob, "e7e5")
    age_clock(client, timed.gid, 61)  # the clocks run from ply 2 on: White lost on time
    for _ in range(3):  # seen by the state, the lobby and a move at once: ended once
        watcher.state()
        client.get("/api/lobby")
    assert code(timed.move("g1f3")) == (409, "conflict")
    aborted, _, _ = invite(client)
    assert aborted.call("POST", "abort").status_code == 200
    made = local(client, moves=["f2f3", "e7e5", "g2g4", "d8h4"])  # a new game whose moves end it
    assert made.state()["status"] == "over"
    assert ended == [
        (mate.gid, "over", "0-1", "checkmate"), (stale.gid, "over", "1/2-1/2", "stalemate"),
        (repeated.gid, "over", "1/2-1/2", "repetition"), (resigned.gid, "over", "0-1", "resignation"),
        (agreed.gid, "over", "1/2-1/2", "agreement"), (timed.gid, "over", "0-1", "time"),
        (aborted.gid, "aborted", "*", "aborted"), (made.gid, "over", "0-1", "checkmate")]
    assert watcher.state()["clock"]["white_ms"] == 0


def test_an_engine_move_that_ends_the_game_ends_it_the_same_way(client, ended):
    r = client.post("/api/games", json={"mode": "local", "white": "human", "black": "engine", "level": 1,
                                        "fen": "k7/8/8/8/8/2r5/1r6/7K b - - 0 1"})  # Rc1 mates
    seat = Seat(client, r.json()["id"], r.json()["seat"]["token"])
    for _ in range(400):
        if seat.state()["status"] != "playing":
            break
        time.sleep(0.05)
    assert ended == [(seat.gid, "over", "0-1", "checkmate")]


def test_an_ending_hook_that_fails_rolls_the_ending_back(client):
    def refuse(conn, game) -> None:
        raise Conflict("the tournament is closed")

    client.app.state.store.endings.append(refuse)
    try:
        ann, _, _ = invite(client)
        assert code(ann.call("POST", "resign", {})) == (409, "conflict")
        assert ann.state()["status"] == "playing"
    finally:
        client.app.state.store.endings.remove(refuse)


def test_every_action_on_a_finished_game_is_refused(client):
    ann, bob, watcher = invite(client, time_control="5+3")
    play(ann, "e2e4")
    assert ann.call("POST", "resign", {}).status_code == 200
    before = watcher.state()
    refused = [
        ann.move("e7e5", ply=1), bob.move("e7e5", ply=1),
        ann.call("POST", "resign", {}), bob.call("POST", "resign", {}),
        ann.call("POST", "draw", {"action": "offer"}), bob.call("POST", "takeback", {"action": "offer"}),
        ann.call("POST", "abort"), ann.call("POST", "join", {"name": "Ann"}),
        ann.call("POST", "stop"),
        ann.call("POST", "accept", {"name": "Cy"}),
        ann.call("POST", "talk", {"text": "gg"}), ann.call("POST", "talk/spectators", {"open": False})]
    assert [code(r) for r in refused] == [(409, "conflict")] * len(refused)
    assert all("over" in r.json()["error"]["message"] or "not waiting" in r.json()["error"]["message"]
               for r in refused)
    mine = local(client)
    play(mine, "f2f3", "e7e5", "g2g4", "d8h4")
    for r in (mine.call("POST", "undo", {"plies": 1}), mine.call("PATCH", body={"black": "engine"}),
              mine.call("POST", "stop"), mine.call("POST", "engine", {"wait": True})):
        assert code(r) == (409, "conflict"), r.text
    after = watcher.state()
    assert (after["version"], after["ply"], after["outcome"]) == (before["version"], before["ply"], before["outcome"])
