"""The server as people run it (uvicorn in a subprocess): the live event stream, a SIGKILL during a
stream of moves, concurrent submits of one move, and two workers on one PostgreSQL database."""

from __future__ import annotations

import http.client
import random
import socket
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

pytest.importorskip("uvicorn")
pytest.importorskip("sqlalchemy")
from online_support import Server, read_events  # noqa: E402

pytestmark = pytest.mark.slow  # left out of the fast loop (-m "not slow")



@pytest.fixture(scope="module")
def server(db_url):
    s = Server(db_url).start()
    yield s
    s.stop()


def invite(server: Server, **spec) -> dict:
    """An invite game whose invited seat is taken: ``g["invite"]["token"]`` is the seat's own token."""
    status, g = server.call("POST", "/api/games", {"mode": "invite", **spec})
    assert status == 200, g
    status, joined = server.call("POST", f"/api/games/{g['id']}/join", {}, g["invite"]["token"])
    assert status == 200, joined
    g["invite"]["token"] = joined["seat"]["token"]
    return g


def test_moves_appear_live_and_a_reconnect_catches_up(server):
    g = invite(server)
    white, black = g["seat"]["token"], g["invite"]["token"]
    seen: list = []

    def watch():
        seen.extend(read_events(server.port, f"/api/games/{g['id']}/events",
                                lambda ev: sum(e[1] == "move" for e in ev) == 2))
    watcher = threading.Thread(target=watch)
    watcher.start()
    time.sleep(0.5)  # the stream has sent its first state
    assert server.call("POST", f"/api/games/{g['id']}/moves", {"move": "e2e4", "ply": 0}, white)[0] == 200
    assert server.call("POST", f"/api/games/{g['id']}/moves", {"move": "e7e5", "ply": 1}, black)[0] == 200
    watcher.join(20)
    moves = [e for e in seen if e[1] == "move"]
    assert [(e[0], e[2]["uci"], e[2]["san"]) for e in moves] == [("1", "e2e4", "e4"), ("2", "e7e5", "e5")]
    assert seen[0][1] == "state" and seen[0][2]["ply"] == 0 and seen[0][2]["you"] == []
    # a page that has ply 1 reconnects (Last-Event-ID) or opens the stream with ?since=1
    for path, headers in ((f"/api/games/{g['id']}/events", {"Last-Event-ID": "1"}),
                          (f"/api/games/{g['id']}/events?since=0", {})):
        events = read_events(server.port, path, lambda ev: ev[-1][1] == "state", headers)
        assert [e[2]["uci"] for e in events if e[1] == "move"] == (["e7e5"] if headers else ["e2e4", "e7e5"])
        assert events[-1][2]["ply"] == 2


def test_engine_move_is_pushed_through_the_stream(server):
    status, g = server.call("POST", "/api/games", {"black": "engine", "level": 1})
    assert status == 200, g
    events: list = []
    watcher = threading.Thread(target=lambda: events.extend(read_events(
        server.port, f"/api/games/{g['id']}/events?since=0",
        lambda ev: any(e[1] == "move" and e[0] == "2" for e in ev))))
    watcher.start()
    server.call("POST", f"/api/games/{g['id']}/moves", {"move": "d2d4", "ply": 0}, g["seat"]["token"])
    watcher.join(20)
    assert [e[2]["ply"] for e in events if e[1] == "move"] == [1, 2]


def test_twenty_concurrent_submits_of_one_move_give_one_success(server):
    g = invite(server)
    token = g["seat"]["token"]
    with ThreadPoolExecutor(20) as pool:
        answers = list(pool.map(lambda _: server.call("POST", f"/api/games/{g['id']}/moves",
                                                      {"move": "e2e4", "ply": 0}, token), range(20)))
    statuses = sorted(a[0] for a in answers)
    assert statuses == [200] + [409] * 19, statuses
    assert {a[1]["error"]["code"] for a in answers if a[0] == 409} == {"stale_ply"}
    assert server.call("GET", f"/api/games/{g['id']}")[1]["ply"] == 1


def test_acknowledged_moves_survive_sigkill(db_url):
    server = Server(db_url).start()
    g = invite(server, variant="crossroads")
    gid, tokens = g["id"], [g["seat"]["token"], g["invite"]["token"]]
    acknowledged: list[str] = []
    stop = threading.Event()

    def play():
        rng = random.Random(5)
        state = server.call("GET", f"/api/games/{gid}")[1]
        while not stop.is_set() and state["legal"]:
            move = rng.choice(state["legal"])["uci"]
            try:
                status, state = server.call("POST", f"/api/games/{gid}/moves", {"move": move, "ply": state["ply"]},
                                            tokens[state["ply"] % 2], timeout=5)
            except (OSError, http.client.HTTPException, ValueError):
                return  # the server is gone (mid-answer, perhaps)
            if status != 200:
                return
            acknowledged.append(move)
    player = threading.Thread(target=play)
    player.start()
    time.sleep(1.5)
    server.kill()
    stop.set()
    player.join(10)
    assert len(acknowledged) > 5
    server = Server(db_url).start()
    try:
        state = server.call("GET", f"/api/games/{gid}", token=tokens[0])[1]
        stored = [h["uci"] for h in state["history"]]
        assert stored[:len(acknowledged)] == acknowledged and len(stored) <= len(acknowledged) + 1
        assert state["you"] == ["white"]
        if state["legal"]:  # the game goes on
            body = {"move": state["legal"][0]["uci"], "ply": state["ply"]}
            assert server.call("POST", f"/api/games/{gid}/moves", body, tokens[state["ply"] % 2])[0] == 200
        assert server.call("POST", f"/api/games/{gid}/resign", {}, tokens[0][::-1])[0] == 403
    finally:
        server.stop()
    log = server.proc.stderr.read().decode()
    assert not any(token in log for token in tokens)  # tokens are never logged


def test_two_workers_on_postgresql_serve_one_game_live(pg_url):
    server = Server(pg_url, workers=2).start()
    try:
        g = invite(server)
        white, black = g["seat"]["token"], g["invite"]["token"]
        events: list = []
        watcher = threading.Thread(target=lambda: events.extend(read_events(
            server.port, f"/api/games/{g['id']}/events?since=0", lambda ev: sum(e[1] == "move" for e in ev) == 6)))
        watcher.start()
        state = server.call("GET", f"/api/games/{g['id']}")[1]
        for i in range(6):  # each request may reach either worker
            move = state["legal"][i % len(state["legal"])]["uci"]
            status, state = server.call("POST", f"/api/games/{g['id']}/moves", {"move": move, "ply": i},
                                        (white, black)[i % 2])
            assert status == 200, state
        watcher.join(20)
        assert [e[2]["ply"] for e in events if e[1] == "move"] == [1, 2, 3, 4, 5, 6]
        with ThreadPoolExecutor(20) as pool:
            answers = list(pool.map(lambda _: server.call("POST", f"/api/games/{g['id']}/moves",
                                                          {"move": state["legal"][0]["uci"], "ply": 6}, white),
                                    range(20)))
        assert sorted(a[0] for a in answers) == [200] + [409] * 19
    finally:
        server.stop()


def _serve(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "morphchess.cli", "serve", *args], capture_output=True,
                          text=True, timeout=60)


def test_serve_refuses_a_bad_or_busy_port_in_one_line(tmp_path):
    out = _serve("--port", "99999")
    assert out.returncode == 2 and out.stderr.count("\n") == 1 and "99999" in out.stderr
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        out = _serve("--port", str(busy.getsockname()[1]), "--db", f"sqlite:///{tmp_path}/g.db")
    assert out.returncode == 2 and out.stderr.count("\n") == 1 and "cannot listen" in out.stderr
    assert "web board on" not in out.stderr


def test_an_engine_seat_whose_server_died_moves_after_the_restart(tmp_path):
    url = f"sqlite:///{tmp_path}/games.db"
    server = Server(url).start()
    status, g = server.call("POST", "/api/games", {"black": "engine", "level": 6})
    assert status == 200, g
    state = server.call("POST", f"/api/games/{g['id']}/moves", {"move": "e2e4", "ply": 0}, g["seat"]["token"])[1]
    assert state["thinking"]
    server.kill()  # while the engine thinks
    server = Server(url).start()
    try:
        end = time.monotonic() + 30
        while time.monotonic() < end and server.call("GET", f"/api/games/{g['id']}")[1]["ply"] < 2:
            time.sleep(0.2)  # its lease runs out, then the new process searches again
        assert server.call("GET", f"/api/games/{g['id']}")[1]["ply"] == 2
    finally:
        server.stop()
