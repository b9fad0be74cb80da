"""The live editor of the web page (issue 24), played through in Debian's headless Chromium."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest

from morphchess.variants import builtin

from web_e2e_support import click_move, game_id, piece_on, wait_new_game

pytestmark = pytest.mark.slow  # a browser

CHESS = builtin("chess").text
TYPO = CHESS.replace("knight:N:N:knight", "knight:N:Nx:knight")  # line 4: 'x' is not read
# Fixed, with an amazon on e4 (and, mirrored, a black one on e5) instead of nothing
FIXED = CHESS.replace("queen:Q:Q:queen:d1\n", "queen:Q:Q:queen:d1\namazon:A:QN:amazon:e4\n")
MARKUP = FIXED.replace("amazon:A:QN:amazon", "<img src/onerror>:A:QN:amazon")


def edit(page, text: str) -> None:
    page.fill("#editor-text", text)  # one input event; the check follows after the pause


def test_typo_shows_its_line_a_fix_redraws_and_a_game_starts(page):
    edit(page, TYPO)
    error = page.wait_for_selector("#editor-notes .editor-error")
    assert error.get_attribute("data-line") == "4"
    assert error.inner_text().startswith("Error: line 4, column 11:") and "XBetza 'Nx'" in error.inner_text()
    assert page.is_disabled("#editor-play")
    error.click()  # the cursor goes to the place
    assert page.evaluate("document.getElementById('editor-text').selectionStart") == TYPO.index("x:knight")

    edit(page, FIXED)
    page.wait_for_selector("#editor-legend .legend-card[data-letter='A']")
    assert page.locator("#editor-notes li").count() == 0
    squares = page.get_attribute("#editor-board", "data-squares").split(",")
    assert squares[28] == "A" and squares[36] == "a"  # e4 and e5 on the 8x8 board
    assert page.locator("#editor-board img.editor-picture").count() == 1
    assert page.locator("#editor-legend .legend-card").count() == 7

    old = game_id(page)
    page.click("#editor-play")
    wait_new_game(page, old)
    page.wait_for_function("() => document.querySelector(\"#board .sq[data-square='e4'] .piece-img\")")
    assert piece_on(page, "e4") == "A" and piece_on(page, "e5") == "a"

    click_move(page, "d2", "d4", 1)
    page.click("#picture-button")  # the position shown, as a picture to share, the last move an arrow
    href = page.wait_for_selector("#picture-link").get_attribute("href")
    query = parse_qs(urlsplit(href).query)
    assert href.startswith("/api/pictures/def-") and re.fullmatch(r"[a-h][1-8][a-h][1-8]", query["arrows"][0])
    picture = page.request.get(href)
    assert picture.ok and picture.headers["content-type"].startswith("image/svg+xml")
    assert picture.text().count("<polygon") == 1 and query["fen"][0].startswith("rnb")
    page.reload()  # the edited text is still there, and checked again
    page.wait_for_selector("body[data-ready='1']")
    assert page.input_value("#editor-text") == FIXED
    page.wait_for_selector("#editor-legend .legend-card[data-letter='A']")


def test_markup_in_names_stays_text_and_the_lab_runs_on_the_edit(page):
    edit(page, MARKUP)
    card = page.wait_for_selector("#editor-legend .legend-card[data-letter='A']")
    assert "<img src/onerror> (A)" in card.inner_text()
    assert page.locator("#editor-box img:not(.editor-picture):not([src^='data:'])").count() == 0
    page.click("#editor-lab")
    assert page.input_value("#lab-source") == "pasted" and page.input_value("#lab-definition") == MARKUP
    page.wait_for_function("() => /games/.test(document.getElementById('lab-status').textContent)",
                           timeout=60_000)
    assert not page.inner_text("#lab-status").startswith("Lab failed")


def test_legend_marks_hops(page):
    """Chak's quetzal (pQ) moves and captures only over a piece: 24 squares from e5, none next to it."""
    edit(page, (Path(__file__).parents[1] / "definitions" / "chak.txt").read_text())
    page.wait_for_selector("#editor-legend .legend-card[data-letter='Q']")
    hops = page.eval_on_selector_all("#editor-legend .legend-card[data-letter='Q'] .mini .mark.hop",
                                     "els => els.map((e) => e.parentElement.title)")
    assert len(hops) == 24 and "e3: hop" in hops and "e4: hop" not in hops
