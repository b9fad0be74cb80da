"""Budgets by memory as well as time (issue 53): a variant's cost estimated when it is compiled and its
games, analyses and engine searches capped or refused from it; boards and definitions kept within
bytes; engine work that ends within its time.  Memory is measured with tracemalloc and the process's
resident size; each bound failed on the server before."""

from __future__ import annotations

import gc
import threading
import time
import tracemalloc
from dataclasses import replace

import pytest

pytest.importorskip("fastapi")
from fastapi.testclient import TestClient  # noqa: E402

from morphchess.board import Board  # noqa: E402
from morphchess.engine.evaluate import eval_tables  # noqa: E402
from morphchess.loader import load  # noqa: E402
from morphchess.variants import builtin  # noqa: E402
from morphchess.web import cost, create_app, limits, newgame  # noqa: E402
from morphchess.web.caches import NOTE_BYTES, Boards  # noqa: E402
from morphchess.web.db import now  # noqa: E402
from morphchess.web.errors import BadInput  # noqa: E402
from morphchess.web.limits import Limits, within  # noqa: E402
from morphchess.web.store import move_notes  # noqa: E402

from online_support import code  # noqa: E402

OPEN = Limits.every_rate(100000)
MB = 1 << 20
# 16x16, six queens and a knight a side: about 200 legal moves a position; the knights shuffle forever
WIDE = ("files=16 ranks=16 fiftyMoves=0 repetitions=0 promoZone=0\nknight:N:N:knight:g1\n"
        "queen:Q:Q:queen:c2,e2,h2,i2,k2,m2\nking:K:K:king:a1")
SHUFFLE = ["g1f3", "g16f14", "f3g1", "f14g16"]
# 16x16, fifteen kinds of long riders and compounds on two full ranks a side: the engine's tables of
# it take seconds to build (issue 19's heavy definition, bench/web_budgets.py)
RIDERS = ["QNN", "BNN", "RNN", "QN", "BN", "RN", "Q", "NN", "B", "R", "N", "FAD", "WDH", "KAD", "BW"]
HEAVY = "files=16 ranks=16 promoZone=0\n" + "\n".join(
    f"p{i}:{'BCDEFGHIJLMOPQR'[i]}:{betza}:p{i}:{chr(97 + i)}1,{chr(97 + i)}2" for i, betza in enumerate(RIDERS)) \
    + "\nking:K:K:king:p1"

# 16x16, fifteen amazons (queen and nightrider) a side spread over five ranks: about 700 legal moves a
# position, so that fewer than 2000 of its moves are read at once
AMAZONS = "files=16 ranks=16 fiftyMoves=0 repetitions=0 promoZone=0\namazon:Q:QNN:queen:" + ",".join(
    f"{f}{3 + i * 3 % 5}" for i, f in enumerate("abcdefghijklmno")) + "\nking:K:K:king:p1"
AMAZON_CYCLE = ["a3a2", "a14a15", "a2a3", "a15a14"]


def _pgn(definition: str, plies: int) -> str:
    """A PGN of ``plies`` moves of the amazons' shuffle on ``definition`` (its tags name it)."""
    b = Board(load(definition, "amazons"))
    sans = []
    for uci in AMAZON_CYCLE:
        sans.append(b.san(b.parse_uci(uci)))
        b.push_uci(uci)
    tags = "".join(f'[VariantDefinition "{line}"]\n' for line in definition.splitlines())
    moves = " ".join((f"{i // 2 + 1}. " if i % 2 == 0 else "") + sans[i % 4] for i in range(plies))
    return f'[Variant "amazons"]\n{tags}\n{moves} *\n'


def _real_table_moves(v) -> int:
    t = v.tables
    return sum(len(t.becomes(c, to)) for c in range(t.ncodes) if t.valid[c]
               for sq in range(v.size) for to, *_rest in t.reach(c, sq))


@pytest.mark.parametrize("variant", ["chess", "polymorph", "wide"])
def test_the_cost_estimate_is_near_a_real_build(variant):
    v = load(WIDE, "wide") if variant == "wide" else builtin(variant)
    estimate = cost.estimate(v)
    assert 0.5 <= estimate.table_moves / _real_table_moves(v) <= 2
    board = Board(v)
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        legal = len(board.legal_moves)
        held = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert legal == estimate.legal and 0.5 <= held / legal / cost.MOVE_BYTES <= 1.5


def test_a_kept_board_holds_one_positions_legal_moves():
    """Before, each kept board held every position's legal moves: four 500-ply games on a 16x16
    definition grew the server by 975 MB."""
    v = load(WIDE, "wide")
    boards = Boards(256 * MB)
    notes = _notes(v, SHUFFLE * 50)
    kept = cost.cost_of(v).board_bytes(200) + 200 * NOTE_BYTES
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for gid in "abcd":
            assert len(boards.board(gid, v, "standard", None, [dict(n) for n in notes], 1).move_stack) == 200
        gc.collect()
        held, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert (held - before) < 6 * MB and (peak - before) < 12 * MB  # every position's moves: 45 MB
    assert boards.bytes <= 4 * kept
    small = Boards(2 * kept + 1)
    for gid in "abc":
        small.board(gid, v, "standard", None, notes, 1)
    assert small.bytes <= small._boards.max_bytes and small._boards.keys() == ["b", "c"]


def _notes(v, ucis: list[str]) -> list[dict]:
    """The move rows of a game of ``v`` with these moves, as the moves table keeps them."""
    board = Board(v)
    for text in ucis:
        board.push_uci(text)
    return [{"game_id": "g", **n, "at": now(), "clock_ms": 1000 * n["ply"]} for n in move_notes(board)]


def test_a_kept_move_row_costs_about_its_estimate():
    board = Board(load(builtin("chess").text, "chess"))
    for text in ["e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5a4", "g8f6", "e1g1", "f8e7"]:
        board.push_uci(text)
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        notes = [{"game_id": "g", **n, "at": now(), "clock_ms": 1000 * n["ply"]} for n in move_notes(board)]
        gc.collect()
        held = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert 0.5 <= held / len(notes) / NOTE_BYTES <= 1.5


def test_a_kept_board_is_used_only_at_its_version():
    v = load(builtin("chess").text, "chess")
    boards = Boards(256 * MB)
    notes = _notes(v, ["e2e4", "e7e5"])
    boards.board("g", v, "standard", None, notes, 3)
    kept = boards.at("g", 3, v)
    assert kept is not None and kept[0] == notes and [m.uci() for m in kept[1].move_stack] == ["e2e4", "e7e5"]
    kept[0].pop()
    kept[1].pop()  # the caller's copies: what is kept stays
    assert len(boards.at("g", 3, v)[1].move_stack) == 2 and len(boards.at("g", 3, v)[0]) == 2
    assert boards.at("g", 4, v) is None and boards.at("h", 3, v) is None
    boards.board("g", v, "standard", None, notes[:1], 2)  # read before version 3 was kept: not kept
    assert boards.version("g") == 3
    assert boards.at("g", 3, load(builtin("chess").text, "chess")) is None  # the variant compiled again


def test_pasted_definitions_are_kept_within_their_bytes(tmp_path):
    chess = builtin("chess").text
    budget = 2 * cost.cost_of(load(chess, "c")).table_bytes // MB + 1
    with TestClient(create_app(f"sqlite:///{tmp_path}/g.db", replace(OPEN, definitions_mb=budget))) as c:
        keys = [c.post("/api/variants", json={"definition": f"{chess}\n# copy {i}"}).json()["key"] for i in range(5)]
        catalog = c.app.state.catalog
        assert catalog.kept() == keys[-2:]
        assert c.post("/api/games", json={"variant": keys[0]}).status_code == 200  # compiled again
        assert catalog.kept() == [keys[-1], keys[0]]


def test_analyses_of_pasted_copies_keep_no_transposition_table(tmp_path):
    """Before, each pasted copy of chess analysed once kept its own transposition table (a level-8
    search: 29 MB a variant), growing past the definitions cache."""
    chess = builtin("chess").text
    with TestClient(create_app(f"sqlite:///{tmp_path}/g.db", OPEN)) as c:
        keys = [c.post("/api/variants", json={"definition": f"{chess}\n# copy {i}"}).json()["key"] for i in range(4)]
        for key in keys:  # each variant's own tables, built before measuring (a kept variant holds them)
            eval_tables(c.app.state.catalog.get(key), 1.0)
        gc.collect()
        tracemalloc.start()
        try:
            before = tracemalloc.get_traced_memory()[0]
            for key in keys:
                with c.stream("POST", "/api/analysis/evaluate", json={"variant": key, "seconds": 0.5}) as r:
                    assert "event: done" in r.read().decode()
            gc.collect()
            grown = tracemalloc.get_traced_memory()[0] - before
        finally:
            tracemalloc.stop()
    assert grown < 4 * MB  # a table kept with each variant: 4 MB of slots, and their entries


def test_moves_read_at_once_are_capped_by_the_variants_cost(tmp_path, monkeypatch):
    per_ply = cost.cost_of(builtin("chess")).position_bytes + cost.PLY_BYTES
    monkeypatch.setattr(cost, "REPLAY_BYTES", 6 * per_ply + 1)
    line = ["e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5", "c3"]
    with TestClient(create_app(f"sqlite:///{tmp_path}/g.db", OPEN)) as c:
        for path in ("/api/games", "/api/analysis/position"):
            r = c.post(path, json={"moves": line})
            assert code(r) == (422, "bad_input") and "at most 6 are read at once" in r.json()["error"]["message"]
            assert c.post(path, json={"moves": line[:6]}).status_code == 200
        coords = "e2e4 e7e5 g1f3 b8c6 f1c4 f8c5 c2c3".split()
        for path in ("/api/import", "/api/analysis/record"):
            r = c.post(path, json={"text": " ".join(coords), "format": "coord"})
            assert code(r) == (422, "bad_input") and "at most 6 are read at once" in r.json()["error"]["message"]
            assert c.post(path, json={"text": " ".join(coords[:6]), "format": "coord"}).status_code == 200


def test_a_pgns_moves_are_capped_by_the_variant_its_tags_name_before_one_is_read(tmp_path):
    """Before, a PGN's moves were read whatever its variant cost (a 1000-ply import on a 16x16 board of
    4,282 legal moves a position took 16.8 s and 615 MB); now the variant its tags name is estimated
    before a move is read."""
    most = cost.REPLAY_BYTES // (cost.cost_of(load(AMAZONS, "amazons")).position_bytes + cost.PLY_BYTES)
    assert most < limits.MAX_PLIES
    with TestClient(create_app(f"sqlite:///{tmp_path}/g.db", OPEN)) as c:
        for path in ("/api/import", "/api/analysis/record"):
            start = time.monotonic()
            r = c.post(path, json={"text": _pgn(AMAZONS, limits.MAX_PLIES), "format": "pgn", "variant": "chess"})
            assert code(r) == (422, "bad_input")
            assert f"so at most {most} are read at once" in r.json()["error"]["message"]
            assert time.monotonic() - start < 3  # reading them took over 10 s
        r = c.post("/api/import", json={"text": _pgn(AMAZONS, 8), "format": "pgn"})
        assert r.status_code == 200 and [m["uci"] for m in r.json()["history"]] == AMAZON_CYCLE * 2
        deep = "1. e4 " + "(" * 90_000 + ")" * 90_000 + " *"  # nested variations: no recursion to exhaust
        r = c.post("/api/import", json={"text": deep, "format": "pgn"})
        assert r.status_code in (200, 422) and r.json()


def test_a_new_games_moves_are_played_and_written_within_its_budget(tmp_path, monkeypatch):
    """Before, a new game's moves (and an import's) were played again and their SAN written in the
    database's transaction, outside the budget: 1000 moves on a 16x16 board answered after 21 s, 13.4 s
    of CPU against a 10 s budget.  Now every move is played and written in the bounded work."""
    threads: set[str] = set()
    for name in ("push", "san"):
        method = getattr(Board, name)

        def spied(self, move, method=method):
            threads.add(threading.current_thread().name)
            return method(self, move)
        monkeypatch.setattr(Board, name, spied)
    moves = SHUFFLE * 10
    with TestClient(create_app(f"sqlite:///{tmp_path}/g.db", OPEN)) as c:
        g = c.post("/api/games", json={"definition": WIDE, "moves": moves, "time_control": "5+3"}).json()
        imported = c.post("/api/import", json={"definition": WIDE, "text": " ".join(moves), "format": "coord"}).json()
        assert threads == {"morphchess-bounded"}
        for game in (g, imported):
            again = c.get(f"/api/games/{game['id']}").json()
            assert [m["uci"] for m in again["history"]] == moves and again["ply"] == 40
            assert again["history"] == game["history"] and again["squares"] == game["squares"]
        assert {m["clock_ms"] for m in g["history"]} == {300_000}  # the moves given take no time
        assert g["clock"]["black_ms"] == 300_000 and 290_000 < g["clock"]["white_ms"] <= 300_000  # White's runs
        monkeypatch.setattr(newgame, "GENERATION_SECONDS", 0.02)  # 2000 moves played and written: far longer
        start = time.monotonic()
        r = c.post("/api/games", json={"definition": WIDE, "moves": SHUFFLE * 500})
        assert code(r) == (422, "bad_input") and "took over 0.02 s" in r.json()["error"]["message"]
        assert time.monotonic() - start < 5


def test_the_engine_refuses_a_variant_over_its_table_budget(tmp_path, monkeypatch):
    monkeypatch.setattr(cost, "ENGINE_BYTES", MB)
    with TestClient(create_app(f"sqlite:///{tmp_path}/g.db", OPEN)) as c:
        r = c.post("/api/analysis/evaluate", json={"seconds": 0.2})
        assert code(r) == (422, "bad_input") and "move tables would take" in r.json()["error"]["message"]
        g = c.post("/api/games", json={"white": "engine", "black": "human"}).json()
        assert g["engine"] == {"error": r.json()["error"]["message"]} and not g["thinking"]
        token = {"Authorization": f"Bearer {g['seat']['token']}"}
        r = c.post(f"/api/games/{g['id']}/engine", json={}, headers=token)
        assert code(r) == (422, "bad_input")


def test_an_evaluation_ends_within_its_time_on_a_heavy_definition(tmp_path):
    """Before, the engine's tables of a variant were built outside the search's time: a 1-second
    evaluation on a definition with many promoting pieces answered after 48.6 s."""
    with TestClient(create_app(f"sqlite:///{tmp_path}/g.db", OPEN)) as c:
        key = c.post("/api/variants", json={"definition": HEAVY}).json()["key"]
        start = time.monotonic()
        with c.stream("POST", "/api/analysis/evaluate", json={"variant": key, "seconds": 1}) as r:
            text = r.read().decode()
        assert time.monotonic() - start < 3  # the tables alone take several seconds
        assert "event: done" in text or "building its tables" in text


def test_a_bounded_work_that_grows_the_process_is_stopped(monkeypatch):
    monkeypatch.setattr(limits, "WORK_BYTES", 64 * MB)
    held = []

    def hoard() -> None:
        for _ in range(256):  # 2 GB if nothing stops it
            held.append(bytearray(8 * MB))
            time.sleep(0.01)

    start = time.monotonic()
    with pytest.raises(BadInput, match="MB of memory"):
        within(60, hoard)
    assert time.monotonic() - start < 5
    end = time.monotonic() + 5
    while len(held) < 256 and time.monotonic() < end and any(
            t.name.startswith("morphchess-bounded") for t in __import__("threading").enumerate()):
        time.sleep(0.05)
    assert len(held) < 64  # stopped, not run to its end
    held.clear()
