"""Attacks on the web server (issue 19), each refused cleanly: budgets checked before the work, rate
limits that hold, finished games that stay finished, invites taken once, the same refusals on SQLite
and PostgreSQL, no 500 for any input, an access log without tokens.

The real ``morphchess serve`` process (signals, X-Forwarded-For, health) is in test_web_serve.py.
"""

from __future__ import annotations

import logging
import resource
import time
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("sqlalchemy")
from fastapi.testclient import TestClient  # noqa: E402
from sqlalchemy import func, select  # noqa: E402

from morphchess.web import create_app  # noqa: E402
from morphchess.web.db import definitions, games, moves  # noqa: E402
from morphchess.web.errors import BadInput  # noqa: E402
from morphchess.web.limits import LimitError, Limits, client_address, within  # noqa: E402

from online_support import Seat, age_clock, code, invite, taken  # noqa: E402

# A lion-like piece that captures up to four times in one move: its coordinate text is 31 characters.
MULTI_LEG = ("files=16 ranks=16 promoZone=0\nking:K:K:king:a1\nlion:L:cacacacaK:lion:h8\n"
             "pawn:P:fmW:pawn:g8,i8,h7,g7,i7,f8,j8")


def read_definition(name: str) -> str:
    return Path(__file__).with_name("definitions").joinpath(name).read_text()


def local(client, **spec) -> Seat:
    """A local game of two people (the token holds both seats)."""
    r = client.post("/api/games", json={"black": "human", **spec})
    assert r.status_code == 200, r.text
    return Seat(client, r.json()["id"], r.json()["seat"]["token"])


def rows(client, table) -> int:
    with client.app.state.store.db.read() as conn:
        return conn.execute(select(func.count()).select_from(table)).scalar_one()


# -- budgets, checked before the work ---------------------------------------------------------------

def test_an_import_over_the_move_cap_is_refused_before_it_is_read(client):
    record = " ".join(f"{i // 4 + 1}. Nf3 Nf6 Ng1 Ng8" for i in range(0, 4400, 4))  # 4400 plies
    start = time.monotonic()
    r = client.post("/api/import", json={"text": record})
    assert code(r) == (422, "bad_input") and "at most 2000 moves" in r.json()["error"]["message"]
    assert time.monotonic() - start < 2  # 40000 plies took 115 s before the cap
    r = client.post("/api/games", json={"moves": ["Nf3", "Nf6", "Ng1", "Ng8"] * 501})
    assert code(r) == (422, "validation")


def test_a_record_of_exactly_the_cap_is_read_and_one_more_move_ends_it(client):
    endless = "files=8 ranks=8 fiftyMoves=0 repetitions=0\nking:K:K:king:e1\nknight:N:N:knight:g1"
    record = " ".join(["g1f3 g8f6 f3g1 f6g8"] * 499 + ["g1f3 g8f6 f3g1"])  # 1999 plies, no rule ends it
    r = client.post("/api/import", json={"text": record, "format": "coord", "definition": endless})
    assert r.status_code == 200, r.text
    g = r.json()
    assert g["ply"] == 1999 and g["status"] == "playing"
    seat = Seat(client, g["id"], g["seat"]["token"])
    done = seat.move("f6g8").json()  # the 2000th ply: the game ends drawn at the cap
    assert done["status"] == "over" and done["outcome"]["termination"] == "move limit"
    assert done["outcome"]["result"] == "1/2-1/2" and "2000" in done["outcome"]["text"]


def test_lab_has_the_size_limits_of_pasted_definitions(client):
    wide = "files=17 ranks=8\nking:K:K:king:a1"
    r = client.post("/api/lab", json={"definition": wide, "games": 1})
    assert code(r) == (422, "bad_input") and "16x16" in r.json()["error"]["message"]
    r = client.post("/api/lab", json={"definition": "#" * 70_000, "games": 1})
    assert code(r) == (422, "validation")


def test_the_engine_is_capped_by_time_at_every_level(client):
    levels = client.get("/api/levels").json()
    assert all(0 < lv["limits"]["movetime_ms"] <= 10_000 for lv in levels)  # depth levels too
    assert levels[2]["limits"] == {"depth": 3, "movetime_ms": 10_000}


def test_a_heavy_engine_seat_moves_within_its_time_cap_and_searches_wait_their_turn(tmp_path):
    limits = Limits(engine_seconds=0.5, engine_games=1)
    with TestClient(create_app(f"sqlite:///{tmp_path}/g.db", limits)) as c:
        ids = [c.post("/api/games", json={"variant": "crossroads", "white": "engine", "black": "engine",
                                           "level": 8}).json()["id"] for _ in range(3)]
        start = time.monotonic()
        while time.monotonic() - start < 4:
            assert len(c.app.state.bots.pool._threads) <= 1  # one search thread for the three games
            time.sleep(0.05)
        plies = [c.get(f"/api/games/{gid}").json()["ply"] for gid in ids]
        # level 8 is 10 s a move; capped at 0.5 s, the three games sharing one search move in turn
        assert sum(plies) >= 4 and all(p >= 1 for p in plies), plies


def test_engine_wait_answers_within_one_search_time(tmp_path):
    with TestClient(create_app(f"sqlite:///{tmp_path}/g.db", Limits(engine_seconds=0.3))) as c:
        seat = local(c, variant="crossroads", level=8)
        start = time.monotonic()
        r = seat.call("POST", "engine", {"wait": True})
        assert r.status_code == 200 and r.json()["ply"] == 1
        assert time.monotonic() - start < 3  # level 8 is 10 s a move uncapped


def _spin(seconds: float) -> None:
    end = time.thread_time() + seconds
    while time.thread_time() < end:
        pass


def test_bounded_work_is_abandoned_after_its_cpu_time_or_four_times_that_waiting():
    start = time.monotonic()
    with pytest.raises(BadInput, match="over 0.3 s"):
        within(0.3, _spin, 1)  # its own CPU time runs out (or, on a loaded machine, the wait)
    assert time.monotonic() - start < 2
    start = time.monotonic()
    with pytest.raises(BadInput, match="over 0.3 s"):
        within(0.3, time.sleep, 1.5)  # no CPU used, but 4 x 0.3 s of waiting
    assert 1.1 < time.monotonic() - start < 2.5
    assert within(5, sum, [1, 2]) == 3  # once an abandoned work has ended and freed its slot


def test_answers_have_a_size_cap(tmp_path):
    app = create_app(f"sqlite:///{tmp_path}/g.db")

    @app.get("/big")
    def big():
        return {"data": "x" * (5 * 1024 * 1024)}

    with TestClient(app) as c:
        assert code(c.get("/big")) == (413, "too_large")


# -- rate limits -----------------------------------------------------------------------------------

def test_every_write_has_a_rate_limit_that_a_forged_address_does_not_bypass(tmp_path):
    limits = Limits(games_per_minute=2, pastes_per_minute=2, imports_per_minute=2, labs_per_hour=1)
    with TestClient(create_app(f"sqlite:///{tmp_path}/g.db", limits)) as c:
        for i in range(2):
            forged = {"X-Forwarded-For": f"203.0.113.{i}"}
            assert c.post("/api/games", json={}, headers=forged).status_code == 200
            assert c.post("/api/variants", json={"definition": f"files=5 ranks=5\nking:K:K:king:c1\n# {i}"},
                          headers=forged).status_code == 200
            assert c.post("/api/import", json={"text": "1. e4 e5"}, headers=forged).status_code == 200
        forged = {"X-Forwarded-For": "198.51.100.7"}
        for path, body in (("/api/games", {}), ("/api/variants", {"definition": "files=5 ranks=5\n# x"}),
                           ("/api/import", {"text": "1. d4"})):
            r = c.post(path, json=body, headers=forged)
            assert code(r) == (429, "rate_limited") and r.headers["retry-after"] == "60", path
        assert c.post("/api/lab", json={"variant": "chess", "games": 1}).status_code == 200
        r = c.post("/api/lab", json={"variant": "chess", "games": 1})
        assert code(r) == (429, "rate_limited") and r.headers["retry-after"] == "3600"


def test_the_address_is_read_from_x_forwarded_for_only_from_a_trusted_proxy(tmp_path, caplog):
    limits = Limits(games_per_minute=1, trusted_proxies=("10.0.0.0/8",))
    with TestClient(create_app(f"sqlite:///{tmp_path}/g.db", limits), client=("10.1.2.3", 5000)) as proxy, \
            caplog.at_level(logging.INFO, logger="morphchess.access"):
        for client in ("203.0.113.1", "203.0.113.2"):  # two clients behind the proxy: one game each
            assert proxy.post("/api/games", json={}, headers={"X-Forwarded-For": client}).status_code == 200
        assert caplog.records[-1].getMessage().startswith("203.0.113.2 POST /api/games 200")  # logged as such
        # a client forging a first hop: the proxy appended the address it saw, which is counted
        forged = {"X-Forwarded-For": "198.51.100.9, 203.0.113.1"}
        assert code(proxy.post("/api/games", json={}, headers=forged)) == (429, "rate_limited")
    scope = {"type": "http", "client": ("192.0.2.5", 1), "headers": [(b"x-forwarded-for", b"203.0.113.1")]}
    from starlette.requests import Request
    assert client_address(Request(scope), limits) == "192.0.2.5"  # not a trusted proxy: its own address
    with pytest.raises(LimitError, match="trusted-proxy"):
        Limits(trusted_proxies=("nonsense",))
    with pytest.raises(LimitError, match="games-per-minute -1"):
        Limits(games_per_minute=-1)


def test_pasted_definitions_kept_in_memory_are_bounded(tmp_path):
    with TestClient(create_app(f"sqlite:///{tmp_path}/g.db", Limits(definitions_cached=3))) as c:
        keys = [c.post("/api/variants", json={"definition": f"files=6 ranks=6\nking:K:K:king:c1\n# {i}"})
                .json()["key"] for i in range(6)]
        catalog = c.app.state.catalog
        assert catalog.kept() == keys[-3:]
        r = c.post("/api/games", json={"variant": keys[0], "black": "human"})  # compiled again from the database
        assert r.status_code == 200, r.text
        assert catalog.kept() == [*keys[-2:], keys[0]]


# -- finished games stay finished ------------------------------------------------------------------

def _finished_games(client) -> list[tuple[str, Seat]]:
    """Games ended each way a game ends: resignation, agreement, time, mate, abort."""
    out = []
    resigned = local(client)
    resigned.move("e2e4")
    resigned.call("POST", "resign", {"side": "black"})
    out.append(("resignation", resigned))
    ann, bob, _ = invite(client)
    ann.move("e2e4")
    bob.move("e7e5")
    ann.call("POST", "draw", {"action": "offer"})
    bob.call("POST", "draw", {"action": "accept"})
    out.append(("agreement", ann))
    flagged, flagged_bob, _ = invite(client, time_control="1+0")
    for seat, move in ((flagged, "e2e4"), (flagged_bob, "e7e5"), (flagged, "g1f3")):
        seat.move(move)
    age_clock(client, flagged.gid, 61)
    flagged.state()
    out.append(("time", flagged))
    mated = local(client)
    for move in ("f2f3", "e7e5", "g2g4", "d8h4"):
        mated.move(move)
    out.append(("checkmate", mated))
    aborted = local(client)
    aborted.call("POST", "abort")
    out.append(("aborted", aborted))
    return out


def test_a_finished_game_refuses_every_action(client):
    for how, seat in _finished_games(client):
        before = seat.state()
        assert before["status"] in ("over", "aborted") and how in (before["outcome"]["termination"], "checkmate")
        attempts = [("POST", "undo", {"plies": 1}), ("POST", "join", {"name": "Mallory"}),
                    ("PATCH", "", {"white": "engine"}), ("PATCH", "", {"level": 5}),
                    ("POST", "moves", {"move": "a2a3", "ply": before["ply"]}), ("POST", "resign", {}),
                    ("POST", "draw", {"action": "offer"}), ("POST", "takeback", {"action": "offer"}),
                    ("POST", "abort", None), ("POST", "engine", {})]
        for method, what, body in attempts:
            r = seat.call(method, what, body)
            assert r.status_code in (403, 409), (how, what, r.text)
        after = seat.state()
        assert (after["version"], after["status"], after["outcome"], after["history"], after["names"]) == \
            (before["version"], before["status"], before["outcome"], before["history"], before["names"]), how


def test_an_invite_is_taken_once_and_named_by_its_holder_only(client):
    ann, link, watcher = invite(client, join=False, name="Ann")
    assert code(link.move("e7e5", ply=0)) == (403, "forbidden")  # the link does nothing before it is opened
    r = link.call("POST", "join", {"name": "Bob"})
    bob = Seat(client, link.gid, taken(r))
    assert bob.token != link.token and r.json()["you"] == ["black"]
    eve = Seat(client, link.gid, link.token)  # someone else opens the same link later
    assert code(eve.call("POST", "join", {"name": "Eve"})) == (403, "forbidden")
    assert code(eve.call("POST", "resign", {})) == (403, "forbidden")
    assert eve.state()["you"] == [] and watcher.state()["names"] == {"white": "Ann", "black": "Bob"}
    assert code(ann.call("POST", "join", {"name": "Bob is a cheat"})) == (200, "")  # Ann names her own seat
    assert watcher.state()["names"] == {"white": "Bob is a cheat", "black": "Bob"}
    assert ann.move("e2e4").status_code == 200 and bob.move("e7e5").status_code == 200


# -- the same columns and refusals on SQLite and PostgreSQL; no 500 --------------------------------

def test_long_texts_are_stored_the_same_on_both_databases(client):
    author = "# Long (8x8) by " + "A" * 250 + ". A variant."
    r = client.post("/api/variants", json={"definition": f"{author}\nfiles=8 ranks=8\nking:K:K:king:e1"})
    assert r.status_code == 200, r.text
    assert len(r.json()["author"]) == 200 and r.json()["author"].endswith("…")
    named = "Long" * 15  # a setup name over 40 characters
    text = f"files=8 ranks=8\nking:K:K:king:e1\nrook:R:R:rook:a1\nsetup={named}:4k3/8/8/8/8/8/8/R3K3"
    r = client.post("/api/games", json={"definition": text, "setup": named, "black": "human"})
    assert r.status_code == 200, r.text
    assert Seat(client, r.json()["id"], None).state()["setup"] == named
    r = client.post("/api/games", json={"definition": MULTI_LEG, "black": "human"})
    assert r.status_code == 200, r.text
    seat = Seat(client, r.json()["id"], r.json()["seat"]["token"])
    longest = max(r.json()["legal"], key=lambda m: len(m["uci"]))["uci"]
    assert len(longest) > 24
    moved = seat.move(longest)
    assert moved.status_code == 200, moved.text
    assert seat.state()["history"][-1]["uci"] == longest


@pytest.mark.parametrize("definition, bad", [
    ("files=8 ranks=8\nking:K:K:king:e1\npawn:P:fmW:pawn:a2:100000000000000000000", True),
    ("files=8 ranks=8\nking:K:K:king:e1\nodd:O:" + "mafs" * 1000 + ":rook:a1", True),
    ("files=8 ranks=8\nking:K:K:king:e1\nnul\x00:N:N:knight:b1", True),  # PostgreSQL cannot store a NUL
    ("files=26 ranks=1000000000\nking:K:K:king:e1", True),  # several GB before the loader's bounds
    ("files=26 ranks=1" + "0" * 200 + "\nking:K:K:king:e1", True),
    ("files=8 ranks=8\nking:K:K:king:e1\nodd:O:" + "mafs" * 30 + ":rook:a1", True),  # ran forever
    ("files=8 ranks=8\nking:K:K:king:e1\npawn:P:fmW:pawn:a2:10000000", True),  # 20 MB answers
])
def test_hostile_definitions_are_never_a_500(client, definition, bad):
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    games_before = rows(client, games)
    requests = [("/api/variants", {"definition": definition}), ("/api/games", {"definition": definition}),
                ("/api/import", {"text": "1. e4", "definition": definition})]
    for path, body in requests + ([("/api/lab", {"definition": definition, "games": 1})] if bad else []):
        start = time.monotonic()
        r = client.post(path, json=body)
        assert r.status_code < 500 and (r.status_code >= 400 or not bad or path != "/api/games"), (path, r.text)
        assert time.monotonic() - start < 8, path
    if bad:
        assert rows(client, games) == games_before
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - peak < 200 * 1024  # KB: under 200 MB more


def test_a_nul_character_anywhere_is_refused_alike_on_both_databases(client):
    seat = local(client)
    assert code(client.get("/api/games/a%00b")) == (422, "bad_input")
    assert code(client.get(f"/api/games/{seat.gid}/record?format=pgn%00")) == (422, "bad_input")
    assert code(client.get("/api/variants/def-%00")) == (422, "bad_input")
    assert code(seat.call("POST", "join", {"name": "Ann\x00"})) == (422, "bad_input")
    assert code(client.post("/api/games", json={"variant": "chess\x00"})) == (422, "bad_input")
    assert seat.state()["names"] == {"white": None, "black": None}


def test_a_five_thousand_digit_shuffle_seed_is_a_4xx(client):
    seed = "1" * 5000
    for setup in (f"shuffle-{seed}", "shuffle-" + "9" * 150):  # the long one refused, the other maybe
        r = client.post("/api/games", json={"definition": read_definition("capablanca-random.txt"), "setup": setup,
                                            "black": "human"})
        assert r.status_code < 500 and (r.status_code >= 400 or len(setup) < 200), r.text
    record = f'[Variant "chess"]\n[VariantSetup "shuffle-{seed}"]\n\n1. e4 *'
    r = client.post("/api/import", json={"text": record})
    assert 400 <= r.status_code < 500, r.text


def test_no_definition_row_without_a_compiled_definition(client):
    before = rows(client, definitions), rows(client, games), rows(client, moves)
    for text in ("files=8 ranks=8\nking:K:nonsense(:king:e1", "files=99 ranks=99\nking:K:K:king:a1"):
        assert client.post("/api/games", json={"definition": text}).status_code == 422
    assert (rows(client, definitions), rows(client, games), rows(client, moves)) == before


# -- the access log never holds a token ------------------------------------------------------------

def test_the_access_log_never_holds_a_token(client, caplog):
    seat = local(client)
    with caplog.at_level(logging.INFO, logger="morphchess.access"):
        seat.move("e2e4")
        client.get(f"/api/games/{seat.gid}?token={seat.token}&seat=x")
        client.get(f"/api/games/{seat.token}")
        client.get(f"/api/games/{seat.gid}/record", params={"download": "1", "whatever": seat.token})
    lines = [r.getMessage() for r in caplog.records if r.name == "morphchess.access"]
    assert len(lines) == 5 and f"POST /api/games/{seat.gid}/moves 200" in lines[1]  # a GET, then the move
    assert all(seat.token not in line for line in lines) and sum("[redacted]" in line for line in lines) == 3


def test_odd_numbers_in_headers_and_queries_are_never_a_500(client):
    seat = local(client)
    for headers in ({"Last-Event-ID": "9" * 5000}, {"Last-Event-ID": "٨".encode()}, {"Last-Event-ID": "-1"}):
        with client.stream("GET", f"/api/games/{seat.gid}/events", headers=headers) as r:
            assert r.status_code == 200
            assert next(r.iter_text()).startswith("retry:")
    for path in (f"/api/games/{seat.gid}/events?since=" + "9" * 5000, f"/api/games/{seat.gid}/positions/" + "9" * 5000,
                 f"/api/games/{seat.gid}/talk?since=" + "9" * 5000):
        assert client.get(path).status_code in (404, 422), path
    r = client.post("/api/variants", content=b"{}", headers={"Content-Length": "9" * 5000,
                                                            "Content-Type": "application/json"})
    assert r.status_code in (400, 413, 422)


def test_old_rate_limit_counts_are_swept(tmp_path):
    from datetime import timedelta

    from morphchess.web.db import hits, now
    with TestClient(create_app(f"sqlite:///{tmp_path}/g.db", Limits())) as c:
        limiter = c.app.state.limiter
        with c.app.state.store.db.write() as conn:  # a client that never came back
            conn.execute(hits.insert().values(client="gone", action="game", at=now() - timedelta(hours=2)))
        limiter.SWEEP_EVERY = 3
        for _ in range(3):
            assert c.post("/api/variants", json={"definition": "files=5 ranks=5\nking:K:K:king:c1"}).status_code == 200
        assert rows(c, hits) == 3  # the three pastes; the old count is gone
