"""Boards as their players know them (issue 51): the variant's board style (boardStyle=) drawn as points
on lines with river and palaces, with Chinese piece faces, on the web, in the published pictures and in
the terminal; chequered boards unchanged."""

from __future__ import annotations

import pytest

from morphchess import Board, VariantError, builtin, load
from morphchess.boardstyle import lines_of
from morphchess.pieceset import svg, symbol_of
from morphchess.play import render
from morphchess.publish.pictures import start_picture
from morphchess.variant import BLACK, WHITE


def test_board_style_is_data_of_the_variant():
    xiangqi = builtin("xiangqi")
    assert xiangqi.board_style == "xiangqi" and builtin("chess").board_style == "chequered"
    lines = lines_of(xiangqi)
    assert lines is not None and lines.river == 5  # between ranks 5 and 6
    assert set(lines.palaces) == {(3, 0, 5, 2), (3, 7, 5, 9)}  # d1-f3 and d8-f10, from the general's zone
    assert lines_of(builtin("chess")) is None
    plain = load("files=5 ranks=5 boardStyle=xiangqi\nking:K:K::c1\n", "p")  # no palace, odd ranks: no river
    assert lines_of(plain) == type(lines)(5, 5, None, ())
    with pytest.raises(VariantError, match="boardStyle=go: use chequered or xiangqi"):
        load("boardStyle=go\nking:K:K::e1\n", "g")


def test_xiangqi_faces_by_moves_and_only_on_a_xiangqi_board():
    v = builtin("xiangqi")
    faces = {t.name: symbol_of(t, v.board_style).face for t in v.types}
    assert faces == {"soldier": "兵卒", "passed soldier": "兵卒", "advisor": "仕士", "elephant": "相象",
                     "horse": "傌馬", "cannon": "炮砲", "chariot": "俥車", "general": "帥將"}
    general = symbol_of(v.type_by_letter("K"), "xiangqi")
    red, black = svg(general, WHITE), svg(general, BLACK)
    assert "#b3261e" in red and "#1b1b1b" in black and "<path" in red and "<text" not in red  # no font needed
    shako_elephant = builtin("shako").type_by_letter("E")
    assert symbol_of(shako_elephant).base != "face"  # a chequered board keeps its own pieces


def test_published_board_of_points():
    picture = start_picture(builtin("xiangqi")).svg()
    # 10 rank lines, 2 x 9 edge segments, 7 x 8 inner ones (none across the river), 4 palace diagonals
    assert picture.count("<line") == 88
    assert "#c09a6b" not in picture and "#ecc98a" in picture  # wood, no dark squares
    assert picture.count('fill="#5a3a12" d=') == 4  # the river's words
    assert "<line" not in start_picture(builtin("chess")).svg()


def test_terminal_board_of_points():
    text = render(Board("xiangqi"), unicode=True).splitlines()
    assert text[0] == "10 車──馬──象──士──將──士──象──馬──車"
    assert text[-2] == " 1 俥──傌──相──仕──帥──仕──相──傌──俥"
    assert text[1] == "   │   │   │   │ \\ │ / │   │   │   │" and text[3] == "   │   │   │   │ / │ \\ │   │   │   │"
    assert "楚 河" in text[9] and "漢 界" in text[9] and text[9].count("│") == 2  # only the edges cross
    plain = render(Board("xiangqi")).splitlines()
    assert plain[0] == "10 r--n--b--a--k--a--b--n--r" and plain[8] == " 6 +--+--+--+--+--+--+--+--+"
    assert render(Board("chess")).splitlines()[0].startswith(" 8 r  n  b  q  k  b  n  r")


def test_web_variant_view_carries_the_board(client):
    board = client.get("/api/variants/xiangqi").json()["board"]
    assert board["style"] == "xiangqi" and board["river"] == 5
    assert board["palaces"] == [["d1", "f3"], ["d8", "f10"]] and len(board["words"]) == 4
    assert client.get("/api/variants/chess").json()["board"] == {"style": "chequered"}
