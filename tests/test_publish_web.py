"""The web side of the publishing kit: the live editor's check and position pictures, with their attacks."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

pytest.importorskip("fastapi")
from fastapi.testclient import TestClient  # noqa: E402

from morphchess.publish.check import check_definition, locate  # noqa: E402
from morphchess.variants import builtin  # noqa: E402
from morphchess.web import create_app  # noqa: E402
from morphchess.web.limits import MAX_DEFINITION, Limits  # noqa: E402

SVG = "{http://www.w3.org/2000/svg}"
CHESS = builtin("chess").text
MARKUP = CHESS.replace("knight:N:N:knight", "<svg><script>alert(1)</script></svg>:N:N:knight") \
    .replace("files=8", "files=8 <script>=1")


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    with TestClient(create_app(f"sqlite:///{tmp_path_factory.mktemp('db')}/games.db", 100000)) as c:
        yield c


def error(r, status: int, code: str) -> str:
    assert r.status_code == status, r.text
    assert r.json()["error"]["code"] == code
    return r.json()["error"]["message"]


# -- where the notes point ---------------------------------------------------------------------------------------
def test_errors_point_at_their_line_and_column():
    typo = CHESS.replace("knight:N:N:", "knight:N:Nx:")
    (note,) = check_definition(typo).errors
    line = typo.splitlines()[note.line - 1]
    assert line.startswith("knight:") and line[note.column - 1:].startswith("x:knight")
    (note,) = check_definition(CHESS.replace("promoChoice=QRBN", "promoChoice=QRBX")).errors
    assert (note.line, note.column) == (2, CHESS.splitlines()[1].index("promoChoice") + 1)
    one_line = " ".join(CHESS.splitlines()[1:]).replace("c1,f1", "c1,z1")
    (note,) = check_definition(one_line).errors
    assert note.line == 1 and one_line[note.column - 1:].startswith("z1")
    text = CHESS + "\nfooKey=3\n"
    warned = check_definition(text)
    line = text.splitlines().index("fooKey=3") + 1
    assert warned.variant is not None and [(n.line, n.column) for n in warned.warnings] == [(line, 1)]
    assert locate("files=8", "something else entirely") == (None, None)


def test_check_answers_notes_variant_and_start(client):
    r = client.post("/api/editor/check", json={"definition": CHESS.replace("rook:R:R:", "rook:R:R!:")})
    body = r.json()
    assert r.status_code == 200 and body["ok"] is False and body["variant"] is None
    assert body["errors"][0]["line"] == 6 and "XBetza" in body["errors"][0]["message"]
    body = client.post("/api/editor/check", json={"definition": CHESS.replace("queen:Q:Q:", "queen:Q:QN:")}).json()
    assert body["ok"] and body["errors"] == [] and body["start"]["squares"][3] == "Q"
    queen = next(t for t in body["variant"]["types"] if t["letter"] == "Q")
    assert len(queen["diagram"]["both"]) == 27 + 8  # queen and knight moves from e5 on the empty board
    big = client.post("/api/editor/check", json={"definition": CHESS.replace("files=8 ranks=8", "files=20 ranks=8")})
    assert big.json()["ok"] is False and "at most 16x16" in big.json()["errors"][0]["message"]


def test_check_attacks(client, tmp_path):
    body = client.post("/api/editor/check", json={"definition": MARKUP}).json()
    assert body["ok"]  # the names are data: the page shows them as text (the e2e test types markup too)
    assert any("<script>=1" in w["message"] for w in body["warnings"])
    assert error(client.post("/api/editor/check", json={"definition": "x" * (MAX_DEFINITION + 1)}), 422,
                 "validation")
    assert error(client.post("/api/editor/check", json={}), 422, "validation")
    with TestClient(create_app(f"sqlite:///{tmp_path}/g.db", Limits(checks_per_minute=2))) as limited:
        for _ in range(2):
            assert limited.post("/api/editor/check", json={"definition": CHESS}).status_code == 200
        assert error(limited.post("/api/editor/check", json={"definition": CHESS}), 429, "rate_limited")


# -- pictures -------------------------------------------------------------------------------------------------
def test_picture_of_a_position(client):
    r = client.get("/api/pictures/crossroads.svg", params={"arrows": "e2e4", "highlight": "e4 f3"})
    assert r.status_code == 200 and r.headers["content-type"].startswith("image/svg+xml")
    root = ET.fromstring(r.text)
    marked = [rect for rect in root.iter(f"{SVG}rect") if rect.get("fill") == "#f4d03f"]
    assert len(marked) == 2 and len(root.findall(f"{SVG}polygon")) == 1
    fen = "4k3/8/8/8/8/8/8/4K2R w K - 0 1"
    assert client.get("/api/pictures/chess.svg", params={"fen": fen}).text.count("<g transform") == 3


def test_picture_attacks(client):
    assert "at most 64" in error(client.get("/api/pictures/chess.svg", params={"highlight": "e4 " * 65}), 422,
                                 "bad_input")
    assert error(client.get("/api/pictures/chess.svg", params={"arrows": "x" * 401}), 422, "validation")
    assert error(client.get("/api/pictures/chess.svg", params={"fen": "not a position"}), 422, "bad_input")
    assert error(client.get("/api/pictures/chess.svg", params={"arrows": "e2<script>"}), 422, "bad_input")
    assert error(client.get("/api/pictures/nope.svg"), 404, "not_found")
    key = client.post("/api/variants", json={"definition": MARKUP}).json()["key"]
    r = client.get(f"/api/pictures/{key}.svg")
    assert r.status_code == 200 and "<script" not in r.text
    ET.fromstring(r.text)  # well formed: the names went in escaped
