"""Reviews of finished games: a real game reviewed to the end on SQLite and PostgreSQL, its scores
checked for sense (a queen given away is the worst move, a mate is scored as one), and the attacks:
games still played or unknown, games over the budget, repeated and concurrent requests."""

from __future__ import annotations

import json
import time

import pytest

pytest.importorskip("fastapi")

# 3...Qh4?? gives the queen away to the knight on f3; White takes it, Black resigns
QUEEN_GIVEN = ["e4", "e5", "Nf3", "Nc6", "Bc4", "Qh4", "Nxh4"]
FOOLS_MATE = ["f3", "e5", "g4", "Qh4#"]
# a longer game without a capture: its review runs long enough to be watched
LONG = ["Nf3", "Nf6", "g3", "g6", "Bg2", "Bg7", "O-O", "O-O", "d3", "d6", "c3", "c6", "Nbd2", "Nbd7", "e4", "e5",
        "Re1", "Re8", "a4", "a5", "b3", "b6", "h3", "h6"]


def finished(client, moves: list[str], resign: bool = True) -> str:
    g = client.post("/api/games", json={"black": "human", "moves": moves}).json()
    if resign:
        r = client.post(f"/api/games/{g['id']}/resign", json={"side": g["turn"]},
                        headers={"Authorization": f"Bearer {g['seat']['token']}"})
        assert r.status_code == 200, r.text
    return g["id"]


def reviewed(client, gid: str, seconds: float = 120) -> dict:
    """The review of a game, started and read until it is done."""
    r = client.post(f"/api/games/{gid}/review")
    assert r.status_code == 200, r.text
    end = time.monotonic() + seconds
    while (review := client.get(f"/api/games/{gid}/review").json())["state"] == "running":
        assert time.monotonic() < end, review
        time.sleep(0.1)
    return review


def test_a_queen_given_away_is_the_worst_move(client):
    gid = finished(client, QUEEN_GIVEN)
    review = reviewed(client, gid)
    assert review["state"] == "done" and review["done"] == review["total"] == len(QUEEN_GIVEN)
    plies = review["plies"]
    assert [p["san"] for p in plies] == QUEEN_GIVEN
    worst = max(plies, key=lambda p: p["loss"])
    assert worst["san"] == "Qh4" and worst["mark"] == "??" and worst["best"] != "Qh4" and worst["loss"] >= 500
    assert plies[-1]["san"] == "Nxh4" and plies[-1]["loss"] == 0 and plies[-1]["mark"] is None
    assert plies[-1]["score"] > 500  # White is a queen up
    assert abs(review["start"]["score"]) < 100 and review["start"]["mate"] is None
    # one review a game: asked again, it is the same, not run again
    again = client.post(f"/api/games/{gid}/review").json()
    assert again == review


def test_a_mate_is_scored_as_one_and_the_move_allowing_it_marked(client):
    gid = finished(client, FOOLS_MATE, resign=False)
    plies = reviewed(client, gid)["plies"]
    assert plies[-1]["mate"] == 0 and plies[-1]["score"] < -1000 and plies[-1]["best"] == "Qh4#"
    assert plies[-2]["mate"] is not None and plies[-2]["mate"] < 0  # after g4 Black mates
    assert plies[2]["san"] == "g4" and plies[2]["mark"] == "??" and plies[2]["best"] != "g4"


def test_refused_for_games_unknown_or_still_played(client):
    assert client.post("/api/games/nosuchgame/review").status_code == 404
    assert client.get("/api/games/nosuchgame/review").status_code == 404
    assert client.post("/api/games/" + "x" * 5000 + "/review").status_code in (404, 414, 422)
    playing = finished(client, ["e4", "e5"], resign=False)
    r = client.post(f"/api/games/{playing}/review")
    assert r.status_code == 409 and "finished" in r.json()["error"]["message"]
    assert client.get(f"/api/games/{playing}/review").status_code == 404  # nothing was started
    empty = finished(client, [])
    assert client.post(f"/api/games/{empty}/review").status_code == 409


def test_a_game_over_the_budget_is_refused_before_any_work(client):
    reviews = client.app.state.reviews
    gid = finished(client, QUEEN_GIVEN)
    most, reviews.max_plies = reviews.max_plies, 6
    try:
        r = client.post(f"/api/games/{gid}/review")
    finally:
        reviews.max_plies = most
    assert r.status_code == 422
    assert r.json()["error"]["message"].startswith("the game has 7 plies; a review covers at most 6")
    assert client.get(f"/api/games/{gid}/review").status_code == 404


def test_concurrent_reviews_are_bounded(client):
    reviews, pool = client.app.state.reviews, client.app.state.bots.pool
    first, second = finished(client, LONG), finished(client, LONG)
    most, reviews.running = reviews.running, 1
    try:
        assert client.post(f"/api/games/{first}/review").status_code == 200
        r = client.post(f"/api/games/{second}/review")
        assert r.status_code == 429 and r.headers["Retry-After"]
        assert client.post(f"/api/games/{first}/review").json()["state"] == "running"  # asked again: the same
        while client.get(f"/api/games/{first}/review").json()["state"] == "running":
            assert pool.running("review") <= 1  # one position at a time
            time.sleep(0.02)
    finally:
        reviews.running = most
    assert reviewed(client, second)["done"] == len(LONG)


def test_a_review_never_keeps_an_engine_seat_waiting(client):
    gid = finished(client, LONG)
    assert client.post(f"/api/games/{gid}/review").json()["state"] == "running"
    g = client.post("/api/games", json={"white": "human", "black": "engine", "level": 1}).json()
    auth = {"Authorization": f"Bearer {g['seat']['token']}"}
    assert client.post(f"/api/games/{g['id']}/moves", json={"move": "e4", "ply": 0}, headers=auth).status_code == 200
    while client.get(f"/api/games/{g['id']}").json()["ply"] < 2:
        time.sleep(0.02)
    assert client.get(f"/api/games/{gid}/review").json()["state"] == "running"  # the engine answered meanwhile
    assert reviewed(client, gid)["done"] == len(LONG)


def test_a_review_whose_server_stopped_is_taken_up_where_it_stopped(client):
    from sqlalchemy import update

    from morphchess.web.db import now
    from morphchess.web.review import reviews

    gid = finished(client, QUEEN_GIVEN)
    done = reviewed(client, gid)
    db = client.app.state.store.db
    with db.read() as conn:
        evals = conn.execute(reviews.select().where(reviews.c.game_id == gid)).mappings().one()["evals"]
    # as a stopped server leaves it: running, three positions done, its lease run out
    cut = json.dumps(json.loads(evals)[:3])
    with db.write() as conn:
        conn.execute(update(reviews).where(reviews.c.game_id == gid).values(state="running", evals=cut, lease=now()))
    stopped = client.get(f"/api/games/{gid}/review").json()
    assert stopped["state"] == "running" and stopped["done"] == 2
    again = reviewed(client, gid)
    assert again["done"] == len(QUEEN_GIVEN) and [p["san"] for p in again["plies"]] == QUEEN_GIVEN
    assert again["plies"][5]["mark"] == "??" and again["plies"][:2] == done["plies"][:2]


@pytest.mark.parametrize("variant", ["crossroads", "polymorph"])
def test_a_morphing_game_is_reviewed_to_the_end(client, variant):
    g = client.post("/api/games", json={"variant": variant, "black": "human"}).json()
    auth = {"Authorization": f"Bearer {g['seat']['token']}"}
    for ply in range(6):  # each side's first legal move, as the server lists them
        g = client.post(f"/api/games/{g['id']}/moves", json={"move": g["legal"][0]["uci"], "ply": ply},
                        headers=auth).json()
    client.post(f"/api/games/{g['id']}/resign", json={"side": "white"}, headers=auth)
    review = reviewed(client, g["id"])
    assert review["state"] == "done" and [p["uci"] for p in review["plies"]] == [h["uci"] for h in g["history"]]
    assert all(p["best"] and p["loss"] >= 0 for p in review["plies"])


# -- automatic reviews ----------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def auto(db_url):
    """A server whose games are reviewed as they end (at most 3 waiting), on its own database."""
    from dataclasses import replace

    from fastapi.testclient import TestClient

    from morphchess.web import create_app
    from morphchess.web.limits import Limits

    url = db_url.replace("games.db", "auto.db") if db_url.startswith("sqlite") else db_url
    with TestClient(create_app(url, replace(Limits.every_rate(100000), auto_reviews=3))) as c:
        yield c


def followed(client, gid: str, seconds: float = 120) -> dict:
    """A game's review read, without asking for one, until it is done."""
    end = time.monotonic() + seconds
    while (r := client.get(f"/api/games/{gid}/review")).status_code != 200 or r.json()["state"] in ("queued",
                                                                                                   "running"):
        assert r.status_code == 200, r.text  # the review exists as soon as the game is over
        assert time.monotonic() < end, r.json()
        time.sleep(0.1)
    return r.json()


def test_a_game_that_ends_is_reviewed_without_being_asked(auto):
    resigned = finished(auto, QUEEN_GIVEN)
    g = auto.post("/api/games", json={"black": "human", "moves": FOOLS_MATE[:3]}).json()
    auth = {"Authorization": f"Bearer {g['seat']['token']}"}
    assert auto.get(f"/api/games/{g['id']}/review").status_code == 404  # nothing while the game goes on
    assert auto.post(f"/api/games/{g['id']}/moves", json={"move": "Qh4", "ply": 3}, headers=auth).status_code == 200
    review = followed(auto, resigned)
    assert review["state"] == "done" and [p["san"] for p in review["plies"]] == QUEEN_GIVEN
    assert max(review["plies"], key=lambda p: p["loss"])["san"] == "Qh4"
    assert auto.post(f"/api/games/{resigned}/review").json() == review  # asked later: the same review
    mated = followed(auto, g["id"])  # ended by the rules, after a move
    assert mated["state"] == "done" and mated["plies"][-1]["mate"] == 0 and mated["plies"][-1]["san"] == "Qh4#"
    assert not auto.app.state.reviews._queue


def test_games_not_reviewable_are_not_queued(auto):
    reviews = auto.app.state.reviews
    aborted = auto.post("/api/games", json={"black": "human"}).json()
    auth = {"Authorization": f"Bearer {aborted['seat']['token']}"}
    assert auto.post(f"/api/games/{aborted['id']}/abort", headers=auth).status_code == 200
    empty = finished(auto, [])
    most, reviews.max_plies = reviews.max_plies, 6
    try:
        long = finished(auto, QUEEN_GIVEN)  # 7 plies, over the budget of 6
    finally:
        reviews.max_plies = most
    for gid in (aborted["id"], empty, long):
        assert auto.get(f"/api/games/{gid}/review").status_code == 404
    assert not reviews._queue


def test_the_queue_is_bounded_and_drains_one_review_at_a_time(auto):
    reviews, pool = auto.app.state.reviews, auto.app.state.bots.pool
    waiting, running = reviews.waiting, reviews.running
    reviews.waiting, reviews.running = 2, 0  # every place taken: the games that end wait
    try:
        first, second, third = (finished(auto, LONG) for _ in range(3))
        assert [auto.get(f"/api/games/{g}/review").json()["state"] for g in (first, second)] == ["queued"] * 2
        assert auto.get(f"/api/games/{third}/review").status_code == 404  # the queue was full: not queued
        r = auto.post(f"/api/games/{third}/review")  # nor may it be asked for while no place is free
        assert r.status_code == 429 and r.headers["Retry-After"]
        reviews.running = 1
        reviews._next()  # a place is free (as when a review ends): the oldest queued game starts
        while (states := [auto.get(f"/api/games/{g}/review").json()["state"] for g in (first, second)]) \
                != ["done", "done"]:
            assert states.count("running") <= 1 and pool.running("review") <= 1
            assert states != ["queued", "running"]  # oldest first
            time.sleep(0.05)
    finally:
        reviews.waiting, reviews.running = waiting, running
    assert followed(auto, second)["done"] == len(LONG) and not reviews._queue


def test_an_ending_rolled_back_queues_nothing(auto):
    from morphchess.web.errors import Conflict

    def refuse(conn, game):
        raise Conflict("refused by the test")

    endings = auto.app.state.store.endings
    g = auto.post("/api/games", json={"black": "human", "moves": QUEEN_GIVEN}).json()
    endings.append(refuse)
    try:
        r = auto.post(f"/api/games/{g['id']}/resign", json={"side": g["turn"]},
                      headers={"Authorization": f"Bearer {g['seat']['token']}"})
    finally:
        endings.remove(refuse)
    assert r.status_code == 409 and auto.get(f"/api/games/{g['id']}").json()["status"] == "playing"
    assert auto.get(f"/api/games/{g['id']}/review").status_code == 404 and not auto.app.state.reviews._queue


def test_a_queued_review_not_started_in_time_reads_as_failed_and_can_be_asked_for(auto):
    from sqlalchemy import update

    from morphchess.web.db import now
    from morphchess.web.review import reviews as table

    reviews = auto.app.state.reviews
    running, reviews.running = reviews.running, 0
    try:
        gid = finished(auto, QUEEN_GIVEN)
    finally:
        reviews.running = running
    with auto.app.state.store.db.write() as conn:  # as a server that stopped with the game queued leaves it
        conn.execute(update(table).where(table.c.game_id == gid).values(lease=now()))
    reviews._queue.clear()
    late = auto.get(f"/api/games/{gid}/review").json()
    assert late["state"] == "failed" and "too busy" in late["error"]
    assert reviewed(auto, gid)["done"] == len(QUEEN_GIVEN)
