"""The web board's JSON API, through FastAPI's test client."""

from __future__ import annotations

import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

pytest.importorskip("fastapi")
from fastapi.testclient import TestClient  # noqa: E402

from morphchess.variants import builtin, names  # noqa: E402
from morphchess.web import create_app  # noqa: E402


@pytest.fixture(scope="module")
def client():
    return TestClient(create_app())


def new(client, **spec) -> dict:
    spec.setdefault("black", "human")
    r = client.post("/api/games", json=spec)
    assert r.status_code == 200, r.text
    return r.json()


def play(client, game: dict, move: str) -> dict:
    r = client.post(f"/api/games/{game['id']}/moves", json={"move": move})
    assert r.status_code == 200, r.text
    return r.json()


def squares(state: dict, files: int) -> dict:
    return {f"{chr(97 + i % files)}{i // files + 1}": p for i, p in enumerate(state["squares"]) if p}


def test_core_import_does_not_load_the_web_stack():
    code = "import sys, morphchess, morphchess.board; sys.exit('fastapi' in sys.modules or 'uvicorn' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code]).returncode == 0


def test_variant_list_and_openapi(client):
    listed = client.get("/api/variants").json()
    assert [v["key"] for v in listed] == names()
    poly = next(v for v in listed if v["key"] == "polymorph")
    assert poly["setups"] == ["standard", "knights", "bishops", "hybrids"]
    paths = client.get("/openapi.json").json()["paths"]
    assert {"/api/games", "/api/games/{gid}/moves", "/api/games/{gid}/engine", "/api/import"} <= set(paths)
    assert client.get("/").text.startswith("<!doctype html>")
    assert client.get("/static/js/main.js").status_code == 200


def test_piece_legend_diagrams_and_morph_tables(client):
    chess = client.get("/api/variants/chess").json()
    types = {t["letter"]: t for t in chess["types"]}
    assert list(types) == ["P", "N", "B", "R", "Q", "K"]
    assert types["N"]["diagram"]["both"] == sorted(["c4", "c6", "d3", "d7", "f3", "f7", "g4", "g6"])
    pawn = types["P"]["diagram"]
    assert (pawn["square"], pawn["move"], pawn["capture"], pawn["initial"]) == ("e5", ["e6"], ["d6", "f6"], ["e7"])
    assert types["K"]["royal"] and types["P"]["morph"] is None
    mania = {t["letter"]: t for t in client.get("/api/variants/morphomania").json()["types"]}
    knight_table = mania["N"]["morph"]
    assert knight_table[0] == "A" and knight_table[1] == "N"  # a1 dark -> archbishop, b1 light -> knight
    assert mania["S"]["diagram"]["capture"] == ["e8"]  # fcnH from e5: capture three squares ahead only
    poly = client.get("/api/variants/polymorph").json()
    assert poly["transforms"] == [["N", "B", "A", "G"]]
    assert client.get("/api/variants/nope").status_code == 404


@pytest.mark.parametrize("variant", names())
def test_every_type_has_its_own_svg_symbol(client, variant):
    types = client.get(f"/api/variants/{variant}").json()["types"]
    symbols = [t["symbol"] for t in types]
    assert len(set(symbols)) == len(symbols), symbols
    for t in types:
        for drawing in t["svg"]:
            assert ET.fromstring(drawing).tag == "{http://www.w3.org/2000/svg}svg"


def test_fairy_symbols_are_the_named_ones(client):
    by_name = {t["name"]: t["symbol"] for v in names()
               for t in client.get(f"/api/variants/{v}").json()["types"]}
    assert by_name["archbishop"] == "knight | bishop"
    assert by_name["chancellor"] == "knight | rook"
    assert by_name["amazon"] == "knight | queen"
    assert by_name["dragon horse"] == "bishop + plus"
    assert by_name["nightrider"] == "nightrider"
    assert by_name["cardinalrider"] == "knight | bishop + rider"
    assert by_name["speedpawn"] == "pawn + speed"
    assert by_name["knishop"] == "knight + mitre"
    assert by_name["bishight"] == "bishop + horse"
    assert by_name["royal pawn"] == "pawn + crown"


def test_legal_moves_carry_the_morph_result(client):
    # spec section 7, hand-checked examples
    g = new(client, variant="crossroads")
    by_uci = {m["uci"]: m for m in g["legal"]}
    assert len(g["legal"]) == 22
    assert (by_uci["f2f3"]["new"], by_uci["f2f3"]["morph"]) == ("Z", True)
    assert by_uci["e2e4"]["new"] == "N" and by_uci["h1g3"]["new"] == "D"
    g = new(client, variant="polymorph")
    assert len(g["legal"]) == 32
    assert sum(m["transform"] for m in g["legal"]) == 12
    assert len(new(client, variant="snappy-chess")["legal"]) == 18


def test_play_by_coordinates_and_san_with_morphs(client):
    g = new(client, variant="morphomania")
    before = g["version"]
    g = play(client, g, "b1c3")
    assert g["version"] > before  # the page drops answers older than what it shows
    g = play(client, g, "Nc7(A)")  # SAN works too
    assert [h["san"] for h in g["history"]] == ["Nc3(A)", "Nc7(A)"]
    assert [h["gc"] for h in g["history"]] == ["N b1-c3", "n b9-c7"]
    assert squares(g, 9)["c3"] == "A" and squares(g, 9)["c7"] == "a"
    assert g["last"] == {"from": "b9", "to": "c7"} and g["turn"] == "white"


def test_transformation_and_promotion(client):
    g = new(client, variant="polymorph", setup="knights")
    assert squares(g, 8)["c8"] == "n"
    g = play(client, g, "c1c1a")
    assert squares(g, 8)["c1"] == "A" and g["history"][-1]["gc"] == "A-c1"
    g = new(client, variant="chess", fen="4k3/P7/8/8/8/8/8/4K3 w - - 0 1")
    promos = [m for m in g["legal"] if m["from"] == "a7"]
    assert sorted(m["new"] for m in promos) == ["B", "N", "Q", "R"] and all(m["choice"] for m in promos)
    g = play(client, g, "a7a8r")
    assert squares(g, 8)["a8"] == "R"


def test_check_and_outcome(client):
    g = new(client, variant="chess", moves=["f2f3", "e7e5", "g2g4"])
    assert g["check"] == [] and g["outcome"] is None
    g = play(client, g, "d8h4")
    assert g["check"] == ["e1"]
    assert g["outcome"] == {"result": "0-1", "winner": "black", "termination": "checkmate",
                            "text": "Black wins by checkmate (0-1)"}
    assert g["legal"] == []
    r = client.post(f"/api/games/{g['id']}/moves", json={"move": "e1f2"})
    assert r.status_code == 409 and "over" in r.json()["detail"]
    assert client.post(f"/api/games/{g['id']}/engine", json={}).status_code == 409


def test_bad_input_gives_clear_4xx(client):
    g = new(client)
    r = client.post(f"/api/games/{g['id']}/moves", json={"move": "e2e5"})
    assert r.status_code == 422 and r.json()["detail"] == "illegal move 'e2e5'"
    r = client.post(f"/api/games/{g['id']}/moves", json={"move": "hello"})
    assert r.status_code == 422 and "hello" in r.json()["detail"]
    assert client.post(f"/api/games/{g['id']}/moves", json={}).status_code == 422
    assert client.get("/api/games/0000").status_code == 404
    r = client.post("/api/games", json={"variant": "shogi"})
    assert r.status_code == 422 and "shogi" in r.json()["detail"]
    r = client.post("/api/games", json={"variant": "polymorph", "setup": "rooks"})
    assert r.status_code == 422 and "rooks" in r.json()["detail"]
    r = client.post("/api/games", json={"moves": ["e2e4", "e2e4"]})
    assert r.status_code == 422 and r.json()["detail"].startswith("move 2 ('e2e4')")
    assert client.post("/api/games", json={"level": 9}).status_code == 422
    assert client.post(f"/api/games/{g['id']}/undo", json={"plies": 1}).status_code == 409
    assert client.get(f"/api/games/{g['id']}/positions/3").status_code == 404


def test_undo_and_positions(client):
    g = new(client, moves=["e2e4", "e7e5", "g1f3"])
    start = client.get(f"/api/games/{g['id']}/positions/0").json()
    assert start["fen"] == builtin_fen("chess") and start["last"] is None
    one = client.get(f"/api/games/{g['id']}/positions/1").json()
    assert one["last"] == {"from": "e2", "to": "e4"} and one["turn"] == "black"
    g = client.post(f"/api/games/{g['id']}/undo", json={"plies": 2}).json()
    assert [h["uci"] for h in g["history"]] == ["e2e4"] and g["fen"] == one["fen"]


def builtin_fen(name: str) -> str:
    from morphchess.board import Board
    return Board(builtin(name)).fen()


def test_engine_move_and_stop(client):
    g = new(client, variant="snappy-chess", white="human", black="engine", level=1)
    g = play(client, g, "e2e3")
    r = client.post(f"/api/games/{g['id']}/engine", json={"wait": True})
    g = r.json()
    assert r.status_code == 200 and len(g["history"]) == 2 and not g["thinking"]
    assert g["engine"]["move"] == g["history"][1]["uci"]
    # a long search is stopped on request and plays its best move so far
    g = client.post(f"/api/games/{g['id']}/engine", json={"level": 8}).json()
    assert g["thinking"]
    assert client.post(f"/api/games/{g['id']}/moves", json={"move": "e1e2"}).status_code == 409
    assert client.post(f"/api/games/{g['id']}/engine", json={}).status_code == 409
    g = client.post(f"/api/games/{g['id']}/stop").json()
    assert not g["thinking"] and len(g["history"]) == 3 and g["engine"]["stopped"]
    # taking back while it thinks cancels the search
    g = client.post(f"/api/games/{g['id']}/engine", json={"level": 8}).json()
    g = client.post(f"/api/games/{g['id']}/undo", json={"plies": 1}).json()
    assert not g["thinking"] and len(g["history"]) == 2


def test_the_store_forgets_the_oldest_games(monkeypatch):
    from morphchess.web import games
    monkeypatch.setattr(games, "MAX_GAMES", 2)
    store = games.Store()
    first, second, third = (store.create("chess") for _ in range(3))
    assert list(store.games) == [second.id, third.id]
    with pytest.raises(KeyError):
        store.get(first.id)


def test_an_engine_failure_is_reported_not_lost(client, monkeypatch):
    from morphchess.web import games

    def broken(*args, **kwargs):
        raise RuntimeError("out of cheese")
    monkeypatch.setattr(games.engine, "search", broken)
    g = new(client)
    g = client.post(f"/api/games/{g['id']}/engine", json={"wait": True}).json()
    assert g["engine"] == {"error": "the engine failed: out of cheese"}
    assert not g["thinking"] and g["history"] == []


def test_levels_name_their_search_limits(client):
    levels = client.get("/api/levels").json()
    assert [l["level"] for l in levels] == list(range(1, 9))
    assert levels[0]["text"] == "1 ply" and levels[-1]["text"].endswith("s a move")


def test_players_can_be_changed(client):
    g = new(client)
    g = client.patch(f"/api/games/{g['id']}", json={"white": "engine", "level": 2}).json()
    assert g["players"] == {"white": "engine", "black": "human"} and g["level"] == 2
    assert client.patch(f"/api/games/{g['id']}", json={"white": "robot"}).status_code == 422


def test_records_round_trip(client):
    g = new(client, variant="crossroads", moves=["f2f3", "d8d7", "e2e4"])
    gc = client.get(f"/api/games/{g['id']}/record?format=gc").text
    assert gc.splitlines() == ["1. P f2-f3", "1... p d8-d7", "2. P e2-e4"]
    pgn_text = client.get(f"/api/games/{g['id']}/record?format=pgn").text
    assert '[Variant "crossroads"]' in pgn_text
    for text, spec in ((pgn_text, {}), (gc, {"variant": "crossroads"})):
        r = client.post("/api/import", json={"text": text, **spec})
        assert r.status_code == 200, r.text
        assert r.json()["fen"] == g["fen"] and r.json()["variant"] == "crossroads"
    r = client.post("/api/import", json={"text": "1. f3(Z) d7(Z) 2. e4", "variant": "crossroads"})
    assert r.status_code == 200 and r.json()["fen"] == g["fen"]  # untagged SAN: the chosen variant
    r = client.post("/api/import", json={"text": "1. P e2-e4 1... p e8-e5", "variant": "crossroads"})
    assert r.status_code == 422 and "e8-e5" in r.json()["detail"]


def test_pasted_definition(client):
    text = ("files=5 ranks=5 promoZone=0\nwazir:W:W:wazir:a1 morph=//FFFFF//\n"
            "ferz:F:F:ferz:b1 morph=//WWWWW//\nking:K:K:king:c1")
    r = client.post("/api/variants", json={"definition": text})
    assert r.status_code == 200, r.text
    view = r.json()
    assert view["key"].startswith("custom-") and [t["letter"] for t in view["types"]] == ["W", "F", "K"]
    g = new(client, definition=text)
    assert g["variant"] == view["key"] and len(g["squares"]) == 25
    g = new(client, definition=text, moves=["a1a2", "a5a4", "a2a3"])
    assert squares(g, 5)["a3"] == "F"  # the pasted morph table applies
    assert client.get(f"/api/variants/{view['key']}").json()["files"] == 5
    r = client.post("/api/games", json={"definition": "files=5 ranks=5\nking:K:KpQ:king:c1"})
    assert r.status_code == 422 and r.json()["detail"].startswith("definition:")


def test_pgn_of_a_pasted_variant_carries_its_definition(client):
    text = "files=6 ranks=6 promoZone=0\nknight:N:N:knight:b1\nking:K:K:king:d1"
    g = new(client, definition=text, moves=["b1c3"])
    pgn_text = client.get(f"/api/games/{g['id']}/record?format=pgn").text
    r = client.post("/api/import", json={"text": pgn_text})
    assert r.status_code == 200, r.text
    assert r.json()["fen"] == g["fen"] and len(r.json()["squares"]) == 36


@pytest.mark.parametrize("variant", names())
def test_a_complete_game_against_the_engine_and_its_records(client, variant):
    import random
    rng = random.Random(variant)
    g = new(client, variant=variant, black="engine", level=1, setup="hybrids" if variant == "polymorph" else None)
    while not g["outcome"] and len(g["history"]) < 300:
        if g["turn"] == "white":
            g = play(client, g, rng.choice(g["legal"])["uci"])
        else:
            r = client.post(f"/api/games/{g['id']}/engine", json={"wait": True})
            assert r.status_code == 200, r.text
            g = r.json()
    assert g["outcome"] is not None and g["legal"] == []
    pgn_text = client.get(f"/api/games/{g['id']}/record?format=pgn").text
    gc = client.get(f"/api/games/{g['id']}/record?format=gc").text
    assert gc.rstrip().endswith(f"// {g['outcome']['text']}")
    for text in (pgn_text, gc):
        r = client.post("/api/import", json={"text": text, "variant": variant, "setup": g["setup"]})
        assert r.status_code == 200, r.text
        assert r.json()["fen"] == g["fen"] and r.json()["outcome"] == g["outcome"]
