"""Xiangqi on its own board in the browser (issue 51): pieces on the points of lines, the river and the
palaces drawn from the variant's board style, Chinese piece faces; the screenshot goes to docs/web/."""

from __future__ import annotations

from pathlib import Path

import pytest

from web_e2e_support import serious_findings, sq, start

pytestmark = pytest.mark.slow  # a browser

DOCS = Path(__file__).resolve().parents[2] / "docs" / "web"


def test_xiangqi_is_drawn_on_lines_with_river_and_palaces(page):
    start(page, "xiangqi")
    assert "points" in page.get_attribute("#board", "class")
    # 10 rank lines, the edge files' 2 x 9 segments, 7 inner files' 8 (none across the river), 2 x 2 diagonals
    assert page.locator("#board svg.points line").count() == 10 + 18 + 56 + 4
    assert page.locator("#board svg.points .river-word").count() == 4
    assert sq(page, "e5").evaluate("e => getComputedStyle(e).backgroundColor") == "rgba(0, 0, 0, 0)"
    faces = [sq(page, name).locator("img").get_attribute("src") for name in ("e1", "e10")]
    assert "b3261e" in faces[0] and "1b1b1b" in faces[1]  # the red general and the black one
    page.click("#board .sq[data-square='b3']")  # the cannon still moves by its squares
    assert sq(page, "b10").get_attribute("class").count("target") == 1
    assert not serious_findings(page)
    page.click("#board .sq[data-square='b3']")
    page.locator("#board").screenshot(path=str(DOCS / "xiangqi.png"))


def test_chess_keeps_its_chequered_squares(page):
    start(page, "chess")
    assert "points" not in (page.get_attribute("#board", "class") or "")
    assert page.locator("#board svg.points").count() == 0
    assert sq(page, "a1").evaluate("e => getComputedStyle(e).backgroundColor") == "rgb(181, 136, 99)"
