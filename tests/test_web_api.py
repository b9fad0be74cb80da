"""The web board's JSON API through FastAPI's test client: variants, playing, records, errors.

Seats, offers, clocks and the lobby are in test_online_api.py; these tests run on SQLite, and the
ones that change games also on a PostgreSQL server (skipped without its binaries)."""

from __future__ import annotations

import subprocess
import sys
import time
import xml.etree.ElementTree as ET

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("sqlalchemy")
from fastapi.testclient import TestClient  # noqa: E402

from morphchess.board import Board  # noqa: E402
from morphchess.variants import names  # noqa: E402
from morphchess.web import create_app  # noqa: E402

from common import CHESS960, VARIANTS  # noqa: E402


@pytest.fixture(scope="module")
def sqlite_client(tmp_path_factory):
    with TestClient(create_app(f"sqlite:///{tmp_path_factory.mktemp('db')}/games.db", 100000)) as client:
        yield client


def new(client, **spec) -> dict:
    """A new local game (two people unless said otherwise); its token is kept in the state."""
    spec.setdefault("black", "human")
    r = client.post("/api/games", json=spec)
    assert r.status_code == 200, r.text
    return r.json()


def auth(game: dict) -> dict:
    return {"Authorization": f"Bearer {game['seat']['token']}"}


def play(client, game: dict, move: str) -> dict:
    r = client.post(f"/api/games/{game['id']}/moves", json={"move": move, "ply": game["ply"]}, headers=auth(game))
    assert r.status_code == 200, r.text
    return {**r.json(), "seat": game["seat"]}


def error(r, status: int, code: str) -> str:
    """The message of an error answer, after checking its status and the one error shape."""
    assert r.status_code == status, r.text
    body = r.json()
    assert set(body) == {"error"} and body["error"]["code"] == code, body
    return body["error"]["message"]


def squares(state: dict, files: int) -> dict:
    return {f"{chr(97 + i % files)}{i // files + 1}": p for i, p in enumerate(state["squares"]) if p}


def test_core_import_does_not_load_the_web_stack():
    code = ("import sys, morphchess, morphchess.board, morphchess.cli; "
            "sys.exit('fastapi' in sys.modules or 'uvicorn' in sys.modules or 'sqlalchemy' in sys.modules)")
    assert subprocess.run([sys.executable, "-c", code]).returncode == 0


def test_variant_list_names_titles_and_openapi(sqlite_client):
    client = sqlite_client
    listed = client.get("/api/variants").json()
    assert [v["key"] for v in listed if v["builtin"]] == names()
    by_key = {v["key"]: v for v in listed}
    assert by_key["crossroads"]["title"] == "Crossroads" and by_key["crossroads"]["author"] == "Gerd Degens"
    assert by_key["polymorph"]["title"] == "Polymorph Chess"
    assert by_key["polymorph"]["description"].startswith("Orthodox chess whose knights and bishops")
    assert by_key["polymorph"]["setups"] == ["standard", "knights", "bishops", "hybrids"]
    paths = client.get("/openapi.json").json()["paths"]
    assert {"/api/games", "/api/games/{gid}/moves", "/api/games/{gid}/events", "/api/lobby"} <= set(paths)
    assert client.get("/").text.startswith("<!doctype html>")
    assert client.get("/static/js/main.js").status_code == 200


def test_docs_page_works_offline(sqlite_client):
    page = sqlite_client.get("/docs").text
    assert "cdn" not in page.lower() and "/docs-assets/swagger-ui-bundle.js" in page
    script = sqlite_client.get("/docs-assets/swagger-ui-bundle.js")
    assert script.status_code == 200 and len(script.content) > 100_000


def test_piece_legend_diagrams_and_morph_tables(sqlite_client):
    client = sqlite_client
    chess = client.get("/api/variants/chess").json()
    types = {t["letter"]: t for t in chess["types"]}
    assert list(types) == ["P", "N", "B", "R", "Q", "K"]
    assert types["N"]["diagram"]["both"] == sorted(["c4", "c6", "d3", "d7", "f3", "f7", "g4", "g6"])
    pawn = types["P"]["diagram"]
    assert (pawn["square"], pawn["move"], pawn["capture"], pawn["initial"]) == ("e5", ["e6"], ["d6", "f6"], ["e7"])
    mania = {t["letter"]: t for t in client.get("/api/variants/morphomania").json()["types"]}
    assert mania["N"]["morph"][:2] == ["A", "N"]  # a1 dark -> archbishop, b1 light -> knight
    assert client.get("/api/variants/polymorph").json()["transforms"] == [["N", "B", "A", "G"]]
    error(client.get("/api/variants/nope"), 404, "not_found")


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_type_has_its_own_svg_symbol(sqlite_client, variant):
    types = sqlite_client.get(f"/api/variants/{variant}").json()["types"]
    symbols = [t["symbol"] for t in types]
    assert len(set(symbols)) == len(symbols), symbols
    for t in types:
        for drawing in t["svg"]:
            assert ET.fromstring(drawing).tag == "{http://www.w3.org/2000/svg}svg"


def test_legal_moves_carry_the_morph_result(client):
    g = new(client, variant="crossroads")
    by_uci = {m["uci"]: m for m in g["legal"]}
    assert len(g["legal"]) == 22
    assert (by_uci["f2f3"]["new"], by_uci["f2f3"]["morph"]) == ("Z", True)
    assert by_uci["e2e4"]["new"] == "N" and by_uci["h1g3"]["new"] == "D"
    g = new(client, variant="polymorph")
    assert len(g["legal"]) == 32 and sum(m["transform"] for m in g["legal"]) == 12


def test_play_by_coordinates_and_san_with_morphs(client):
    g = new(client, variant="morphomania")
    before = g["version"]
    g = play(client, g, "b1c3")
    assert g["version"] > before and g["ply"] == 1
    g = play(client, g, "Nc7(A)")  # SAN works too
    assert [h["san"] for h in g["history"]] == ["Nc3(A)", "Nc7(A)"]
    assert [h["gc"] for h in g["history"]] == ["N b1-c3", "n b9-c7"]
    assert [h["ply"] for h in g["history"]] == [1, 2] and g["history"][0]["at"].endswith("Z")
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
    assert squares(play(client, g, "a7a8r"), 8)["a8"] == "R"


def test_check_and_outcome(client):
    g = new(client, variant="chess", moves=["f2f3", "e7e5", "g2g4"])
    assert g["check"] == [] and g["outcome"] is None and g["status"] == "playing"
    g = play(client, g, "d8h4")
    assert g["check"] == ["e1"] and g["status"] == "over"
    assert g["outcome"] == {"result": "0-1", "winner": "black", "termination": "checkmate",
                            "text": "Black wins by checkmate (0-1)"}
    assert g["legal"] == []
    r = client.post(f"/api/games/{g['id']}/moves", json={"move": "e1f2", "ply": 4}, headers=auth(g))
    assert "over" in error(r, 409, "conflict")
    error(client.post(f"/api/games/{g['id']}/engine", json={}, headers=auth(g)), 409, "conflict")


def test_bad_input_gives_one_error_shape(client):
    g = new(client)
    moves = f"/api/games/{g['id']}/moves"
    assert error(client.post(moves, json={"move": "e2e5", "ply": 0}, headers=auth(g)), 422, "illegal_move") \
        == "illegal move 'e2e5'"
    assert "hello" in error(client.post(moves, json={"move": "hello", "ply": 0}, headers=auth(g)), 422, "illegal_move")
    r = client.post(moves, json={"move": "e" * 200_000, "ply": 0}, headers=auth(g))
    assert len(error(r, 422, "validation")) < 300  # a long input is not echoed
    assert client.post(moves, json={"ply": 0}, headers=auth(g)).json()["error"]["fields"][0]["loc"] == ["body", "move"]
    error(client.get("/api/games/0000"), 404, "not_found")
    error(client.get("/api/nothing-here"), 404, "not_found")
    assert "janggi" in error(client.post("/api/games", json={"variant": "janggi"}), 422, "bad_input")
    r = client.post("/api/games", json={"variant": "polymorph", "setup": "rooks"})
    assert "rooks" in error(r, 422, "bad_input")
    assert error(client.post("/api/games", json={"moves": ["e2e4", "e2e4"]}), 422, "illegal_move").startswith(
        "move 2 ('e2e4')")
    error(client.post("/api/games", json={"level": 9}), 422, "validation")
    error(client.post("/api/games", json={"time_control": "fast"}), 422, "bad_input")
    error(client.post(f"/api/games/{g['id']}/undo", json={"plies": 1}, headers=auth(g)), 409, "conflict")
    error(client.get(f"/api/games/{g['id']}/positions/3"), 404, "not_found")
    error(client.post("/api/games", content=b"{" + b" " * 300_000 + b"}",
                      headers={"Content-Type": "application/json"}), 413, "too_large")


def test_moves_after_the_end_are_refused(client):
    mate = ["f2f3", "e7e5", "g2g4", "d8h4"]
    assert "over" in error(client.post("/api/games", json={"moves": [*mate, "a2a3"]}), 422, "bad_input")


def test_undo_and_positions(client):
    g = new(client, moves=["e2e4", "e7e5", "g1f3"])
    start = client.get(f"/api/games/{g['id']}/positions/0").json()
    assert start["fen"] == Board("chess").fen() and start["last"] is None
    one = client.get(f"/api/games/{g['id']}/positions/1").json()
    assert one["last"] == {"from": "e2", "to": "e4"} and one["turn"] == "black"
    r = client.post(f"/api/games/{g['id']}/undo", json={"plies": 2}, headers=auth(g))
    assert [h["uci"] for h in r.json()["history"]] == ["e2e4"] and r.json()["fen"] == one["fen"]


def test_a_refused_undo_changes_nothing(client):
    g = new(client, moves=["e2e4"])
    r = client.post(f"/api/games/{g['id']}/undo", json={"plies": 2}, headers=auth(g))
    error(r, 409, "conflict")
    assert client.get(f"/api/games/{g['id']}").json()["version"] == g["version"]


def wait_engine(client, g: dict) -> dict:
    """The game once the engine seat's search (started by the server) has ended."""
    for _ in range(600):
        state = client.get(f"/api/games/{g['id']}", headers=auth(g)).json()
        if not state["thinking"] and (state["ply"] > g["ply"] or state["engine"].get("error")):
            return {**state, "seat": g["seat"]}
        time.sleep(0.05)
    raise AssertionError("the engine did not move")


def test_engine_seat_answers_by_itself_and_after_take_back(client):
    g = new(client, variant="snappy-chess", black="engine", level=1)
    g = play(client, g, "e2e3")
    assert g["thinking"]  # the server started the engine seat's search
    g = wait_engine(client, g)
    assert len(g["history"]) == 2 and not g["thinking"] and g["engine"]["move"] == g["history"][1]["uci"]
    assert "pv_san" in g["engine"] and "score_white" in g["engine"]
    # take back both moves, play another: the engine answers the new position (issue 11)
    r = client.post(f"/api/games/{g['id']}/undo", json={"plies": 2}, headers=auth(g))
    g = {**r.json(), "seat": g["seat"]}
    g = wait_engine(client, play(client, g, "d2d3"))
    assert [h["uci"] for h in g["history"]][0] == "d2d3" and len(g["history"]) == 2


def test_engine_stop_take_back_and_races_never_fail(client):
    g = new(client, variant="snappy-chess", white="human", black="human", level=8, moves=["e2e3"])
    g = {**client.post(f"/api/games/{g['id']}/engine", json={}, headers=auth(g)).json(), "seat": g["seat"]}
    assert g["thinking"]
    error(client.post(f"/api/games/{g['id']}/moves", json={"move": "e7e6", "ply": 1}, headers=auth(g)),
          409, "conflict")
    r = client.post(f"/api/games/{g['id']}/stop", headers=auth(g))
    assert r.status_code == 200 and not r.json()["thinking"] and len(r.json()["history"]) == 2
    assert r.json()["engine"]["stopped"]
    # a search cancelled by a take back plays nothing
    client.post(f"/api/games/{g['id']}/engine", json={"level": 8}, headers=auth(g))
    r = client.post(f"/api/games/{g['id']}/undo", json={"plies": 1}, headers=auth(g))
    assert r.status_code == 200 and not r.json()["thinking"] and len(r.json()["history"]) == 1
    from concurrent.futures import ThreadPoolExecutor
    calls = [("engine", {"level": 8}), ("stop", None), ("undo", {"plies": 1}), ("engine", {}), ("stop", None)] * 3
    with ThreadPoolExecutor(5) as pool:
        answers = list(pool.map(lambda c: client.post(f"/api/games/{g['id']}/{c[0]}", json=c[1], headers=auth(g)),
                                calls))
    assert all(a.status_code in (200, 409) for a in answers), [a.text for a in answers if a.status_code >= 500]
    client.post(f"/api/games/{g['id']}/stop", headers=auth(g))


def test_an_engine_failure_is_reported_not_lost(client, monkeypatch):
    from morphchess.web import bots

    def broken(*args, **kwargs):
        raise RuntimeError("out of cheese")
    monkeypatch.setattr(bots.engine, "search", broken)
    g = new(client)
    r = client.post(f"/api/games/{g['id']}/engine", json={"wait": True}, headers=auth(g))
    g = r.json()
    assert g["engine"] == {"error": "the engine failed: out of cheese"}
    assert not g["thinking"] and g["history"] == []


def test_levels_name_their_search_limits(sqlite_client):
    levels = sqlite_client.get("/api/levels").json()
    assert [lv["level"] for lv in levels] == list(range(1, 9))
    assert levels[0]["text"] == "1 ply" and levels[-1]["text"].endswith("s a move")


def test_players_can_be_changed_in_local_games(client):
    g = new(client)
    r = client.patch(f"/api/games/{g['id']}", json={"white": "engine", "level": 2}, headers=auth(g))
    assert r.json()["players"] == {"white": "engine", "black": "human"} and r.json()["level"] == 2
    error(client.patch(f"/api/games/{g['id']}", json={"white": "robot"}, headers=auth(g)), 422, "validation")
    error(client.patch(f"/api/games/{g['id']}", json={"white": "human"}), 403, "forbidden")


def test_records_round_trip_with_date_and_players(client):
    g = new(client, variant="crossroads", moves=["f2f3", "d8d7", "e2e4"], white="human", black="engine",
            level=1, name="Ann")
    gc = client.get(f"/api/games/{g['id']}/record?format=gc").text
    assert gc.splitlines()[:3] == ["1. P f2-f3", "1... p d8-d7", "2. P e2-e4"]
    r = client.get(f"/api/games/{g['id']}/record?format=pgn&download=1")
    pgn_text = r.text
    assert "attachment" in r.headers["content-disposition"]
    assert '[Variant "crossroads"]' in pgn_text and '[Date "????' not in pgn_text
    assert '[Black "morphchess engine, level 1"]' in pgn_text and '[White "Ann"]' in pgn_text
    for text, spec in ((pgn_text, {}), (gc, {"variant": "crossroads"})):
        r = client.post("/api/import", json={"text": text, **spec})
        assert r.status_code == 200, r.text
        assert r.json()["history"][:3] == [{**h, "at": r.json()["history"][i]["at"]}
                                           for i, h in enumerate(g["history"][:3])]
    r = client.post("/api/import", json={"text": "1. P e2-e4 1... p e8-e5", "variant": "crossroads"})
    assert "e8-e5" in error(r, 422, "bad_input")


def test_import_reads_every_record_form_the_command_line_reads(client):
    """One reader guesses the form for the web and the command line: a Polymorph transformation log
    (``1. B-b1``, what morphchess exports), coordinate moves, and a log that goes on after its end."""
    r = client.post("/api/import", json={"text": "1. B-b1 1... p e7-e5", "variant": "polymorph"})
    assert r.status_code == 200, r.text
    assert [h["uci"] for h in r.json()["history"]] == ["b1b1b", "e7e5"]
    polymorph = new(client, variant="polymorph", setup="knights", moves=["b1b1b"])
    pgn_text = client.get(f"/api/games/{polymorph['id']}/record?format=pgn").text
    r = client.post("/api/import", json={"text": pgn_text, "variant": "polymorph", "setup": "bishops"})
    assert r.status_code == 200 and r.json()["setup"] == "knights", r.text  # the PGN's own setup wins
    r = client.post("/api/import", json={"text": "e2e4 e7e5 d1h5", "variant": "chess"})
    assert r.status_code == 200 and len(r.json()["history"]) == 3
    mated = "f2f3 e7e5 g2g4 d8h4 a2a3"
    assert "already over" in error(client.post("/api/import", json={"text": mated}), 422, "bad_input")


PASTED = ("files=5 ranks=5 promoZone=0\nwazir:W:W:wazir:a1 morph=//FFFFF//\n"
          "ferz:F:F:ferz:b1 morph=//WWWWW//\nking:K:K:king:c1")


def test_fischer_castling_is_the_king_onto_its_partner(client):
    """Array BQNRNBKR (seed 5): after g3 and Bg2 the king castles short without moving itself."""
    g = new(client, definition=CHESS960, setup="shuffle-5", moves=["g2g3", "a7a6", "f1g2", "a6a5"])
    assert squares(g, 8)["g1"] == "K" and squares(g, 8)["h1"] == "R"
    castle = [m for m in g["legal"] if m["castle"]]
    assert [(m["from"], m["to"], m["uci"]) for m in castle] == [("g1", "h1", "g1h1")]
    assert castle[0]["castle"] == {"king": "g1", "from": "h1", "to": "f1", "partner": "R"}
    after = squares(play(client, g, "g1h1"), 8)
    assert after["g1"] == "K" and after["f1"] == "R" and "h1" not in after


def test_unload_moves_are_told_apart_from_captures(client):
    """A swapper (XBetza RucR) reaches a5 by taking the rook there or by swapping places with it."""
    g = new(client, definition="files=5 ranks=5\nswapper:S:RucR::a1\nking:K:K::e2")
    to_a5 = {m["uci"]: m for m in g["legal"] if m["from"] == "a1" and m["to"] == "a5"}
    assert {u: (m["unload"], m["capture"]) for u, m in to_a5.items()} == {"a1a5": (None, True),
                                                                        "a1a1,a1a5": ("a1", False)}
    after = play(client, g, "a1a1,a1a5")
    assert squares(after, 5)["a5"] == "S" and squares(after, 5)["a1"] == "s"
    assert after["history"][-1]["san"] == "Sa1xa5>a1"


def test_pasted_definition_stored_once_and_named(client):
    r = client.post("/api/variants", json={"definition": PASTED})
    assert r.status_code == 200, r.text
    view = r.json()
    assert view["key"].startswith("def-") and [t["letter"] for t in view["types"]] == ["W", "F", "K"]
    assert view["title"] == "5x5: wazir, ferz, king" and not view["builtin"]
    assert client.post("/api/variants", json={"definition": PASTED}).json()["key"] == view["key"]
    listed = [v for v in client.get("/api/variants").json() if v["key"] == view["key"]]
    assert len(listed) == 1 and listed[0]["title"] == view["title"]
    titled = "title=Wazir War\n" + PASTED
    assert client.post("/api/variants", json={"definition": titled}).json()["title"] == "Wazir War"
    g = new(client, definition=PASTED, moves=["a1a2", "a5a4", "a2a3"])
    assert g["variant"] == view["key"] and squares(g, 5)["a3"] == "F"  # the pasted morph table applies
    r = client.post("/api/games", json={"definition": "files=5 ranks=5"})  # no pieces
    assert error(r, 422, "bad_input").startswith("definition:")


def test_definition_and_board_size_caps(sqlite_client):
    client = sqlite_client
    big = PASTED + "\n" + "#" * 70_000
    assert "at most" in error(client.post("/api/variants", json={"definition": big}), 422, "validation")
    wide = "files=17 ranks=8\nking:K:K:king:a1"
    assert "16x16" in error(client.post("/api/variants", json={"definition": wide}), 422, "bad_input")


def test_pgn_of_a_pasted_variant_carries_its_definition(client):
    text = "files=6 ranks=6 promoZone=0\nknight:N:N:knight:b1\nking:K:K:king:d1"
    g = new(client, definition=text, moves=["b1c3"])
    pgn_text = client.get(f"/api/games/{g['id']}/record?format=pgn").text
    r = client.post("/api/import", json={"text": pgn_text})
    assert r.status_code == 200, r.text
    assert r.json()["fen"] == g["fen"] and r.json()["variant"] == g["variant"]


def test_compiled_definitions_are_a_bounded_cache(sqlite_client):
    cat = sqlite_client.app.state.catalog
    assert cat.cached == 16  # the default of --definitions-cached
    for i in range(cat.cached + 4):
        key = cat.add(f"files={5 + i % 4} ranks=5 promoZone=0\nking:K:K:king:c1\n# {i}")
        cat.get(key)
    assert len(cat.kept()) == cat.cached


@pytest.mark.slow
@pytest.mark.parametrize("variant", VARIANTS)
def test_a_complete_game_against_the_engine_and_its_records(sqlite_client, variant):
    import random
    client = sqlite_client
    rng = random.Random(variant)
    g = new(client, variant=variant, black="engine", level=1, setup="hybrids" if variant == "polymorph" else None)
    while not g["outcome"] and len(g["history"]) < 300:
        g = play(client, g, rng.choice(g["legal"])["uci"])
        if not g["outcome"]:
            g = wait_engine(client, g)
    assert g["outcome"] is not None and g["legal"] == []
    pgn_text = client.get(f"/api/games/{g['id']}/record?format=pgn").text
    gc = client.get(f"/api/games/{g['id']}/record?format=gc").text
    assert gc.rstrip().endswith(f"// {g['outcome']['text']}")
    for text in (pgn_text, gc):
        r = client.post("/api/import", json={"text": text, "variant": variant, "setup": g["setup"]})
        assert r.status_code == 200, r.text
        assert r.json()["fen"] == g["fen"] and r.json()["outcome"] == g["outcome"]
