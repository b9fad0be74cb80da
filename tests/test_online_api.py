"""Online play through the API: seats and tokens, invites and seeks, offers, abort, clocks, lobby,
rate limit, and games that outlive the server object (SQLite, and PostgreSQL when installed)."""

from __future__ import annotations

import time
from datetime import timedelta

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("sqlalchemy")
from fastapi.testclient import TestClient  # noqa: E402
from sqlalchemy import select  # noqa: E402

from morphchess.web import create_app  # noqa: E402
from morphchess.web.db import games, hits, now  # noqa: E402

from online_support import Seat, age_clock, code, invite, taken  # noqa: E402


def test_tokens_are_long_and_only_their_holder_moves(client):
    ann, bob, watcher = invite(client, join=False, side="white", name="Ann")
    assert len(ann.token) >= 22 and ann.token != bob.token  # 16 random bytes, URL-safe
    state = watcher.state()
    assert state["you"] == [] and ann.token not in str(state) and bob.token not in str(state)
    assert state["seats"] == {"white": "taken", "black": "free"} and state["names"]["white"] == "Ann"
    assert ann.state()["you"] == ["white"] and bob.state()["you"] == ["black"]
    assert code(bob.move("e2e4")) == (403, "forbidden")  # not Bob's side
    assert code(watcher.move("e2e4")) == (403, "forbidden")
    assert code(Seat(client, ann.gid, "x" * 22).move("e2e4")) == (403, "forbidden")
    assert ann.move("e2e4").status_code == 200
    assert code(ann.move("e7e5")) == (403, "forbidden")
    assert code(watcher.call("POST", "resign", {})) == (403, "forbidden")
    assert code(watcher.call("POST", "draw", {"action": "offer"})) == (403, "forbidden")
    assert code(watcher.call("POST", "undo", {"plies": 1})) == (403, "forbidden")
    assert code(ann.call("POST", "undo", {"plies": 1})) == (403, "forbidden")  # needs both seats
    bob.token = taken(bob.call("POST", "join", {"name": "Bob"}))
    assert bob.move("e7e5").status_code == 200
    assert watcher.state()["names"] == {"white": "Ann", "black": "Bob"}
    assert watcher.state()["seats"] == {"white": "taken", "black": "taken"}


def test_a_stale_or_repeated_move_is_refused_and_changes_nothing(client):
    ann, bob, _ = invite(client)
    assert ann.move("e2e4", ply=0).status_code == 200
    before = ann.state()
    assert code(ann.move("e2e4", ply=0)) == (409, "stale_ply")  # a repeated submit
    assert code(bob.move("e7e5", ply=0)) == (409, "stale_ply")
    assert code(bob.move("e7e5", ply=2)) == (409, "stale_ply")
    assert ann.state()["version"] == before["version"] and ann.state()["ply"] == 1


def test_open_seek_is_accepted_once(client):
    r = client.post("/api/games", json={"mode": "open", "side": "black", "variant": "crossroads",
                                        "time_control": "3d", "name": "Cy"})
    g = r.json()
    assert g["status"] == "open" and g["invite"] is None and g["seat"]["sides"] == ["black"]
    lobby = client.get("/api/lobby").json()
    seek = next(s for s in lobby["open"] if s["id"] == g["id"])
    assert seek["title"] == "Crossroads" and seek["time_control"] == "3d" and seek["names"]["black"] == "Cy"
    assert "token" not in str(lobby)
    cy = Seat(client, g["id"], g["seat"]["token"])
    assert code(cy.move("d8d7")) == (409, "conflict")  # no opponent yet
    r = client.post(f"/api/games/{g['id']}/accept", json={"name": "Di"})
    assert r.status_code == 200 and r.json()["you"] == ["white"] and r.json()["status"] == "playing"
    di = Seat(client, g["id"], r.json()["seat"]["token"])
    assert code(client.post(f"/api/games/{g['id']}/accept", json={})) == (409, "conflict")
    assert di.move("f2f3").status_code == 200 and cy.move("d8d7").status_code == 200
    assert any(s["id"] == g["id"] for s in client.get("/api/lobby").json()["playing"])
    assert "Open seeks" in client.get("/lobby").text


def test_resign_and_finished_games_in_the_lobby(client):
    ann, bob, _ = invite(client, side="black", name="Ann")
    r = ann.call("POST", "resign", {})
    assert r.json()["outcome"] == {"result": "1-0", "winner": "white", "termination": "resignation",
                                   "text": "White wins: Black resigned (1-0)"}
    assert code(bob.move("e2e4")) == (409, "conflict")
    done = next(s for s in client.get("/api/lobby").json()["finished"] if s["id"] == ann.gid)
    assert done["result"] == "1-0"
    pgn_text = client.get(done["pgn"]).text
    assert '[Result "1-0"]' in pgn_text and '[Black "Ann"]' in pgn_text and pgn_text.rstrip().endswith("1-0")
    assert client.get(done["gc"]).text.rstrip().endswith("// White wins: Black resigned (1-0)")


def test_draw_offer_decline_and_accept(client):
    ann, bob, _ = invite(client)
    ann.move("e2e4")
    assert ann.call("POST", "draw", {"action": "offer"}).json()["offers"]["draw"] == "white"
    assert code(ann.call("POST", "draw", {"action": "accept"})) == (409, "conflict")  # one's own offer
    assert bob.call("POST", "draw", {"action": "decline"}).json()["offers"]["draw"] is None
    assert code(bob.call("POST", "draw", {"action": "accept"})) == (409, "conflict")  # nothing to accept
    bob.call("POST", "draw", {"action": "offer"})
    bob.move("e7e5")  # a move clears the offers
    assert ann.state()["offers"]["draw"] is None
    bob.call("POST", "draw", {"action": "offer"})
    r = ann.call("POST", "draw", {"action": "accept"})
    assert r.json()["outcome"]["result"] == "1/2-1/2" and r.json()["outcome"]["termination"] == "agreement"
    assert code(ann.call("POST", "draw", {"action": "dance"})) == (422, "validation")


def test_takeback_request(client):
    ann, bob, _ = invite(client)
    ann.move("e2e4")
    bob.move("e7e5")
    ann.move("g1f3")
    assert code(bob.call("POST", "takeback", {"action": "accept"})) == (409, "conflict")
    assert ann.call("POST", "takeback", {"action": "offer"}).json()["offers"]["takeback"] == "white"
    r = bob.call("POST", "takeback", {"action": "accept"})
    assert [h["uci"] for h in r.json()["history"]] == ["e2e4", "e7e5"] and r.json()["turn"] == "white"
    # asked after the opponent replied: both moves go back
    ann.move("d2d4")
    bob.move("d7d5")
    ann.call("POST", "takeback", {"action": "offer"})
    assert bob.call("POST", "takeback", {"action": "decline"}).json()["ply"] == 4
    ann.call("POST", "takeback", {"action": "offer"})
    assert bob.call("POST", "takeback", {"action": "accept"}).json()["ply"] == 2


def test_abort_only_before_the_second_move(client):
    ann, bob, _ = invite(client)
    ann.move("e2e4")
    assert bob.call("POST", "abort").json()["status"] == "aborted"
    assert code(bob.move("e7e5")) == (409, "conflict")
    ann, bob, _ = invite(client)
    ann.move("e2e4")
    bob.move("e7e5")
    assert code(ann.call("POST", "abort")) == (409, "conflict")


def test_clocks_run_from_ply_two_with_increment(client):
    ann, bob, _ = invite(client, time_control="1+2")
    g = ann.move("e2e4").json()
    assert g["clock"]["running"] is None and g["clock"]["white_ms"] == 60000  # first moves are untimed
    bob.move("e7e5")
    age_clock(client, ann.gid, 10)
    g = ann.move("g1f3").json()
    assert g["clock"]["running"] == "black" and 51000 <= g["clock"]["white_ms"] <= 52500  # 60 - 10 + 2
    assert g["history"][-1]["clock_ms"] == g["clock"]["white_ms"]


def test_loss_on_time_and_draw_against_a_bare_king(client):
    ann, bob, watcher = invite(client, time_control="1+0")
    for seat, move in ((ann, "e2e4"), (bob, "e7e5"), (ann, "g1f3")):
        seat.move(move)
    age_clock(client, ann.gid, 61)
    finished = client.get("/api/lobby").json()["finished"]  # the lobby ends it too
    assert any(s["id"] == ann.gid and s["termination"] == "time" for s in finished)
    g = watcher.state()
    assert g["status"] == "over" and g["outcome"]["termination"] == "time" and g["outcome"]["result"] == "1-0"
    assert g["clock"]["black_ms"] == 0 and code(bob.move("b8c6")) == (409, "conflict")
    ann, bob, watcher = invite(client, time_control="1+0", fen="4k3/8/8/8/8/8/8/R3K3 w - - 0 1")
    for seat, move in ((ann, "a1a2"), (bob, "e8d8"), (ann, "a2a3"), (bob, "d8c8")):
        seat.move(move)
    age_clock(client, ann.gid, 61)  # White runs out; Black has a bare king and cannot win
    out = watcher.state()["outcome"]
    assert out["result"] == "1/2-1/2" and out["termination"] == "insufficient material on time"


def test_correspondence_clock_is_reset_by_each_move(client):
    ann, bob, _ = invite(client, time_control="3 days per move")
    for seat, move in ((ann, "e2e4"), (bob, "e7e5")):
        seat.move(move)
    age_clock(client, ann.gid, 86400)
    g = ann.move("g1f3").json()
    assert g["time_control"]["per_move_ms"] == 3 * 86_400_000
    assert g["clock"]["white_ms"] == 3 * 86_400_000 and g["clock"]["running"] == "black"
    assert 3 * 86_400_000 - 5000 < g["clock"]["black_ms"] <= 3 * 86_400_000


def test_engine_seat_in_an_invite_game_is_stored_the_same_way(client):
    r = client.post("/api/games", json={"mode": "invite", "side": "white", "black": "engine", "level": 1})
    g = r.json()
    assert g["invite"] is None and g["seats"]["black"] == "engine"
    ann = Seat(client, g["id"], g["seat"]["token"])
    ann.move("e2e4")
    for _ in range(200):
        if ann.state()["ply"] == 2:
            break
        time.sleep(0.05)
    assert ann.state()["history"][1]["ply"] == 2


def test_rate_limit_on_new_games(db_url):
    with TestClient(create_app(db_url, 2)) as c:
        # earlier tests of this module made games from the same client address: count from here
        with c.app.state.store.db.write() as conn:
            conn.execute(hits.update().where(hits.c.client == _client_key()).values(at=now() - timedelta(minutes=5)))
        assert c.post("/api/games", json={}).status_code == 200
        assert c.post("/api/games", json={}).status_code == 200
        r = c.post("/api/games", json={})
        assert code(r) == (429, "rate_limited") and r.headers["retry-after"] == "60"


def _client_key() -> str:
    import hashlib
    return hashlib.sha256(b"testclient").hexdigest()[:16]


def test_games_outlive_the_server_object(db_url):
    with TestClient(create_app(db_url, 100000)) as c:
        g = c.post("/api/games", json={"mode": "invite", "variant": "polymorph", "setup": "knights"}).json()
        seat = Seat(c, g["id"], g["seat"]["token"])
        seat.move("c1c1a")
    with TestClient(create_app(db_url, 100000)) as c:  # a new server on the same database
        state = Seat(c, g["id"], g["seat"]["token"]).state()
        assert state["you"] == ["white"] and [h["uci"] for h in state["history"]] == ["c1c1a"]
        assert state["setup"] == "knights"


def test_two_servers_on_one_database_see_each_others_moves(db_url):
    with TestClient(create_app(db_url, 100000)) as one, TestClient(create_app(db_url, 100000)) as two:
        g = one.post("/api/games", json={"mode": "invite"}).json()
        ann, bob = Seat(one, g["id"], g["seat"]["token"]), Seat(two, g["id"], g["invite"]["token"])
        bob.token = taken(bob.call("POST", "join", {}))
        assert ann.move("e2e4").status_code == 200
        assert bob.move("e7e5", ply=1).status_code == 200
        assert code(ann.move("e7e5", ply=1)) in ((403, "forbidden"), (409, "stale_ply"))
        assert [h["uci"] for h in ann.state()["history"]] == ["e2e4", "e7e5"]


def test_two_servers_taking_turns_and_taking_back_answer_the_stored_history(db_url):
    """Each server keeps the games it has seen with their version; what the other server changed since
    must be read again, never answered from what it kept (moves, a takeback, moves again)."""
    with TestClient(create_app(db_url, 100000)) as one, TestClient(create_app(db_url, 100000)) as two:
        g = one.post("/api/games", json={"mode": "invite"}).json()
        ann, bob = Seat(one, g["id"], g["seat"]["token"]), Seat(two, g["id"], g["invite"]["token"])
        bob.token = taken(bob.call("POST", "join", {}))
        played: list[str] = []
        for seat, move in [(ann, "e2e4"), (bob, "e7e5"), (ann, "g1f3"), (bob, "b8c6")]:
            r = seat.move(move, ply=len(played))
            played.append(move)
            assert r.status_code == 200 and [h["uci"] for h in r.json()["history"]] == played, r.text
        assert ann.call("POST", "takeback", {"action": "offer"}).status_code == 200  # on one
        r = bob.call("POST", "takeback", {"action": "accept"})  # on two: g1f3 and b8c6 go
        assert r.status_code == 200 and [h["uci"] for h in r.json()["history"]] == ["e2e4", "e7e5"]
        for seat, move, ply in [(ann, "f1c4", 2), (bob, "g8f6", 3)]:
            r = seat.move(move, ply=ply)
            assert r.status_code == 200, r.text
        for seat in (ann, bob):
            state = seat.state()
            assert [h["uci"] for h in state["history"]] == ["e2e4", "e7e5", "f1c4", "g8f6"]
            assert [h["ply"] for h in state["history"]] == [1, 2, 3, 4] and state["ply"] == 4


def test_a_move_is_three_statements_on_sqlite_and_two_on_postgresql(db_url):
    """A move in a process that keeps its game reads no moves: the game's row locked, then (PostgreSQL)
    one statement writing the move, the row and the notification together, or (SQLite) the move, then
    the row.  Reading the game there is one statement (PostgreSQL: outside a transaction)."""
    from sqlalchemy import event

    with TestClient(create_app(db_url, 100000)) as c:
        ann, bob, _ = invite(c)
        assert ann.move("e2e4", ply=0).status_code == 200
        seen: list[tuple[str, str | None]] = []

        def statement(conn, cursor, text, parameters, context, executemany) -> None:
            if not text.startswith("BEGIN"):
                seen.append((" ".join(text.split()), conn.get_execution_options().get("isolation_level")))
        engine = c.app.state.store.db.engine
        event.listen(engine, "before_cursor_execute", statement)
        try:
            assert bob.move("e7e5", ply=1).status_code == 200
            moved = seen[:]
            seen.clear()
            assert [h["uci"] for h in ann.state()["history"]] == ["e2e4", "e7e5"]
        finally:
            event.remove(engine, "before_cursor_execute", statement)
    texts = [text for text, _level in moved]
    assert not any(s.startswith("SELECT") and " FROM moves" in s for s in texts), texts
    assert texts[0].startswith("SELECT games.id") and len(seen) == 1 and seen[0][0].startswith("SELECT games.id")
    if c.app.state.store.db.sqlite:
        assert [s.split()[0] for s in texts] == ["SELECT", "INSERT", "UPDATE"], texts
    else:
        assert len(texts) == 2 and texts[1].startswith("WITH played AS (INSERT INTO moves"), texts
        assert seen[0][1] == "AUTOCOMMIT"


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["chess", "crossroads", "morphomania", "snappy-chess", "morphing-chess",
                                     "polymorph"])
def test_every_variant_through_seat_links_with_records(tmp_path_factory, variant):
    import random
    with TestClient(create_app(f"sqlite:///{tmp_path_factory.mktemp('db')}/games.db", 100000)) as client:
        _play_through_links(client, variant, random.Random(variant))


def _play_through_links(client, variant: str, rng) -> None:
    ann, bob, watcher = invite(client, variant=variant, setup="bishops" if variant == "polymorph" else None)
    seats = {"white": ann, "black": bob}
    state = watcher.state()
    while state["status"] == "playing" and state["ply"] < 24:
        r = seats[state["turn"]].move(rng.choice(state["legal"])["uci"], state["ply"])
        assert r.status_code == 200, r.text
        state = r.json()
    if state["status"] == "playing":
        state = seats[state["turn"]].call("POST", "resign", {}).json()
    assert state["outcome"] is not None
    for fmt in ("pgn", "gc"):
        text = client.get(f"/api/games/{ann.gid}/record?format={fmt}").text
        r = client.post("/api/import", json={"text": text, "variant": variant, "setup": state["setup"]})
        assert r.status_code == 200, r.text
        assert [h["uci"] for h in r.json()["history"]] == [h["uci"] for h in state["history"]]


def test_a_pasted_variant_in_the_lobby_by_its_title(client):
    text = "title=Lobby Test Game files=6 ranks=6 promoZone=0\nknight:N:N:knight:b1\nking:K:K:king:d1"
    g = client.post("/api/games", json={"mode": "open", "definition": text}).json()
    seek = next(s for s in client.get("/api/lobby").json()["open"] if s["id"] == g["id"])
    assert seek["title"] == "Lobby Test Game" and seek["variant"].startswith("def-")
    assert "Lobby Test Game" in client.get("/lobby").text


@pytest.mark.slow
def test_postgresql_notifies_every_process_of_a_change(pg_url):
    from morphchess.web.db import Database
    heard: list[str] = []
    one, two = Database(pg_url), Database(pg_url)
    try:
        one.listen(heard.append)
        end = time.monotonic() + 10
        while not heard and time.monotonic() < end:  # sent again until the listener has connected
            with two.write() as conn:
                two.notify(conn, "some-game")
            time.sleep(0.2)
        assert heard and set(heard) == {"some-game"}
        with TestClient(create_app(pg_url, 100000)) as c:  # a change tells them in its own statement
            ann, _bob, _ = invite(c)
            heard.clear()
            assert ann.move("e2e4", ply=0).status_code == 200
            end = time.monotonic() + 10
            while ann.gid not in heard and time.monotonic() < end:
                time.sleep(0.05)
            assert ann.gid in heard
    finally:
        one.dispose()
        two.dispose()


@pytest.mark.slow
def test_a_connection_read_outside_a_transaction_locks_again_in_the_next_write(pg_url):
    """A read of one statement runs outside a transaction (autocommit); the pool's connection it used
    must begin one again for the next change, or a game's row would be locked by nothing."""
    from sqlalchemy import text

    from morphchess.web.db import Database

    db = Database(pg_url)
    try:
        with db.glance() as conn:
            used = conn.connection.dbapi_connection
            assert used.autocommit and conn.execute(text("SELECT 1")).scalar() == 1
        with db.write() as conn:
            assert conn.connection.dbapi_connection is used
            conn.execute(text("SELECT 1"))
            assert not used.autocommit and used.info.transaction_status == used.info.transaction_status.INTRANS
    finally:
        db.dispose()


def test_a_read_sees_one_snapshot_while_moves_are_committed(db_url):
    """A game's row and its moves are read in one transaction; a move committed meanwhile by another
    connection (another worker) must not show in its moves while the row says the ply before it."""
    from morphchess.web.db import Database, moves

    db = Database(db_url)
    try:
        with TestClient(create_app(db_url, 100000)) as c:
            white, _black, _watcher = invite(c)
            with db.read() as conn:
                row = conn.execute(select(games.c.ply).where(games.c.id == white.gid)).first()
                assert white.move("e2e4").status_code == 200
                played = conn.execute(select(moves.c.ply).where(moves.c.game_id == white.gid)).all()
            assert row.ply == 0 and played == []
            with db.read() as conn:
                assert len(conn.execute(select(moves.c.ply).where(moves.c.game_id == white.gid)).all()) == 1
    finally:
        db.dispose()


def test_the_default_database_is_a_file_in_the_user_data_directory(tmp_path, monkeypatch):
    from morphchess.web.db import default_url
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert default_url() == f"sqlite:///{tmp_path}/morphchess/games.sqlite3"
    assert (tmp_path / "morphchess").is_dir()
