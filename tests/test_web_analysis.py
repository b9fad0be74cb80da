"""The analysis board's API: positions and their legal moves (counted by python-chess), pasted records,
PGN with variations, the engine's streamed evaluation, its refusal in a game between people that is
being played, and its budgets."""

from __future__ import annotations

import io
import json
import time

import pytest

pytest.importorskip("fastapi")
chess = pytest.importorskip("chess")
chess_pgn = pytest.importorskip("chess.pgn")

MATE_IN_ONE = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1"
from morphchess.web.routes.analysis import MAX_NODES  # noqa: E402


def bearer(token: str | None) -> dict:
    return {"Authorization": f"Bearer {token}"} if token else {}


def events(response) -> list[tuple[str, dict]]:
    out, name = [], None
    for line in response.iter_lines():
        if line.startswith("event: "):
            name = line[7:]
        elif line.startswith("data: "):
            out.append((name, json.loads(line[6:])))
    return out


def test_a_position_from_moves_or_text_has_python_chess_legal_moves(client):
    r = client.post("/api/analysis/position", json={"moves": ["e4", "e7e5", "Nf3"]}).json()
    board = chess.Board()
    for san in ("e4", "e5", "Nf3"):
        board.push_san(san)
    assert {m["uci"] for m in r["legal"]} == {m.uci() for m in board.legal_moves}
    assert [m["san"] for m in r["moves"]] == ["e4", "e5", "Nf3"] and r["turn"] == "black" and r["ply"] == 3
    fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
    r = client.post("/api/analysis/position", json={"fen": fen}).json()
    assert len(r["legal"]) == chess.Board(fen).legal_moves.count() and r["start_fen"] == fen
    mate = client.post("/api/analysis/position", json={"fen": MATE_IN_ONE, "moves": ["Ra8"]}).json()
    assert mate["legal"] == [] and "checkmate" in mate["outcome"].lower()
    bad = client.post("/api/analysis/position", json={"moves": ["e4", "Ke5"]})
    assert bad.status_code == 422 and bad.json()["error"]["message"].startswith("move 2 ('Ke5')")


def test_a_pasted_record_gives_its_main_line(client):
    r = client.post("/api/analysis/record", json={"text": '[Event "x"]\n\n1. d4 d5 (1... Nf6) 2. c4 *'}).json()
    assert [m["san"] for m in r["moves"]] == ["d4", "d5", "c4"]
    gc = client.post("/api/analysis/record", json={"text": "1. P d2-d4 1... p d7-d5", "format": "gc"}).json()
    assert [m["uci"] for m in gc["moves"]] == ["d2d4", "d7d5"]
    assert client.post("/api/analysis/record", json={"text": "1. e4 Ke5"}).status_code == 422


def test_the_analysis_tree_as_pgn_with_variations(client):
    nodes = [{"move": "e4", "parent": -1}, {"move": "e5", "parent": 0}, {"move": "d4", "parent": -1},
             {"move": "d5", "parent": 2}, {"move": "c5", "parent": 0}, {"move": "Nf3", "parent": 1}]
    text = client.post("/api/analysis/pgn", json={"nodes": nodes}).text
    assert "1. e4 (1. d4 d5) 1... e5 (1... c5) 2. Nf3 *" in " ".join(text.split())
    assert chess_pgn.read_game(io.StringIO(text)).variations[1].move.uci() == "d2d4"
    assert client.post("/api/analysis/pgn", json={"nodes": [{"move": "e4", "parent": 0}]}).status_code == 422
    illegal = client.post("/api/analysis/pgn", json={"nodes": [{"move": "e4", "parent": -1},
                                                                {"move": "e4", "parent": 0}]})
    assert illegal.json()["error"]["code"] == "illegal_move" and "move 2" in illegal.json()["error"]["message"]
    deep = [{"move": "Nf3" if i % 4 == 0 else "Nf6" if i % 4 == 1 else "Ng1" if i % 4 == 2 else "Ng8",
             "parent": i - 1} for i in range(MAX_NODES + 1)]
    assert client.post("/api/analysis/pgn", json={"nodes": deep}).json()["error"]["code"] == "validation"


def test_the_evaluation_streams_as_it_deepens_and_finds_the_mate(client):
    with client.stream("POST", "/api/analysis/evaluate", json={"fen": MATE_IN_ONE, "seconds": 2}) as r:
        assert r.status_code == 200 and r.headers["content-type"].startswith("text/event-stream")
        got = events(r)
    infos = [d for name, d in got if name == "info"]
    assert infos and [d["depth"] for d in infos] == sorted(d["depth"] for d in infos)
    name, done = got[-1]
    assert name == "done" and done["mate_white"] == 1 and done["pv_san"].startswith("Ra8#")
    assert client.post("/api/analysis/evaluate", json={"seconds": 11}).json()["error"]["code"] == "validation"
    over = client.post("/api/analysis/evaluate", json={"fen": MATE_IN_ONE, "moves": ["Ra8"]})
    assert over.status_code == 409


def test_no_engine_help_in_a_game_between_people_being_played(client):
    g = client.post("/api/games", json={"mode": "invite", "side": "white"}).json()
    ann = g["seat"]["token"]
    joined = client.post(f"/api/games/{g['id']}/join", json={}, headers=bearer(g["invite"]["token"]))
    bob = joined.json()["seat"]["token"]
    client.post(f"/api/games/{g['id']}/moves", json={"move": "e4", "ply": 0}, headers=bearer(ann))
    ask = {"moves": ["e4"], "seconds": 0.2}
    for token in (ann, bob, None):  # naming the game: nobody
        r = client.post("/api/analysis/evaluate", json={**ask, "game": g["id"]}, headers=bearer(token))
        assert r.status_code == 403 and "being played" in r.json()["error"]["message"]
    r = client.post("/api/analysis/evaluate", json=ask, headers=bearer(bob))  # its position, with the seat
    assert r.status_code == 403 and "a game you are playing" in r.json()["error"]["message"]
    assert client.post("/api/analysis/position", json={**ask, "game": g["id"]}, headers=bearer(bob)).status_code == 200
    client.post(f"/api/games/{g['id']}/resign", json={}, headers=bearer(bob))
    with client.stream("POST", "/api/analysis/evaluate", json={**ask, "game": g["id"]}, headers=bearer(bob)) as r:
        assert r.status_code == 200 and events(r)[-1][0] == "done"  # over: analyse away


def test_a_clients_new_search_stops_its_older_one(client):
    """A page asks about a new position as the old search goes on: the new one runs, the old one ends
    with its best so far (one search a client at a time)."""
    with client.stream("POST", "/api/analysis/evaluate", json={"seconds": 5}) as old:
        assert old.status_code == 200
        start = time.monotonic()
        with client.stream("POST", "/api/analysis/evaluate", json={"seconds": 0.2}) as new:
            assert new.status_code == 200
            name, done = events(old)[-1]
            assert name == "done" and done["stopped"] and time.monotonic() - start < 4
            assert events(new)[-1][0] == "done"
