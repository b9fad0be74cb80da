"""End-to-end tests of the web board in Debian's headless Chromium, driven by Playwright.

The server runs in a thread on a free local port.  Screenshots of every built-in
variant's board go to build/web-screenshots/ (git-ignored).
"""

from __future__ import annotations

import json

import pytest

from morphchess.variants import builtin

from common import VARIANTS
from web_e2e_support import SHOTS, click_move, game_id, new_game_via_api, piece_on, sq, wait_new_game, wait_plies
from web_e2e_support import start as start_game

pytestmark = pytest.mark.slow  # a browser: left out of the fast loop (-m "not slow")



def start(page, variant: str, black: str = "human", level: int = 1, setup: str | None = None) -> None:
    """A new game of ``variant`` (and ``setup``) through the page's controls."""
    start_game(page, variant, black=black, level=level)
    if setup:
        old = game_id(page)
        page.select_option("#setup", setup)  # starts that game at once
        wait_new_game(page, old)
    v = builtin(variant)
    assert page.locator("#board .sq").count() == v.files * v.ranks


def test_pick_up_shows_targets_and_morph_preview_then_the_engine_replies(page):
    start(page, "crossroads", black="engine")
    sq(page, "f2").click()
    assert "selected" in sq(page, "f2").get_attribute("class")
    targets = sorted(page.eval_on_selector_all("#board .sq.target", "els => els.map(e => e.dataset.square)"))
    assert targets == ["f3", "f4"]
    # spec section 7: a Crossroads pawn on f3 becomes an amazon, on f4 a queen
    assert sq(page, "f3").locator(".preview").get_attribute("data-new") == "Z"
    assert sq(page, "f4").locator(".preview").get_attribute("data-new") == "Q"
    page.screenshot(path=str(SHOTS / "crossroads-picked-up.png"))
    sq(page, "f3").click()
    wait_plies(page, 2)  # the engine answered
    assert piece_on(page, "f3") == "Z"
    assert page.locator("#moves .mv[data-ply='1']").inner_text() == "f3(Z)"
    assert page.locator("#status").inner_text().startswith("White to move")
    assert page.locator("#engine-line").inner_text().startswith("Engine (Black) played 1… ")


def test_captures_are_marked(page):
    start(page, "chess")
    for ply, (frm, to) in enumerate((("e2", "e4"), ("d7", "d5")), start=1):
        click_move(page, frm, to, ply)  # the next click needs the new position
    sq(page, "e4").click()
    capture = page.eval_on_selector_all("#board .sq.target.capture", "els => els.map(e => e.dataset.square)")
    assert capture == ["d5"]


def test_drag_and_drop_plays_a_move(page):
    start(page, "chess")
    box_from, box_to = sq(page, "g1").bounding_box(), sq(page, "f3").bounding_box()
    page.mouse.move(box_from["x"] + 30, box_from["y"] + 30)
    page.mouse.down()
    page.mouse.move(box_to["x"] + 20, box_to["y"] + 20, steps=5)
    page.mouse.move(box_to["x"] + 30, box_to["y"] + 30, steps=2)
    page.mouse.up()
    wait_plies(page, 1)
    assert piece_on(page, "f3") == "N" and piece_on(page, "g1") is None
    assert "last" in sq(page, "f3").get_attribute("class")


def test_polymorph_transformation_and_black_array(page):
    start(page, "polymorph", setup="hybrids")
    assert "".join(piece_on(page, f"{f}8") for f in "abcdefgh") == "ragqkgar"
    sq(page, "b1").click()
    assert "transform" in sq(page, "b1").get_attribute("class")
    sq(page, "b1").click()  # a second click on a polymorph offers its other forms
    page.wait_for_selector("#chooser:not([hidden])")
    offered = sorted(page.eval_on_selector_all("#chooser-options button", "els => els.map(e => e.dataset.uci)"))
    assert offered == ["b1b1a", "b1b1b", "b1b1g"]
    page.click("#chooser-options button[data-uci='b1b1g']")
    wait_plies(page, 1)
    assert piece_on(page, "b1") == "G"
    assert page.locator("#moves .mv[data-ply='1']").inner_text() == "Nb1=G"
    page.check("input[name='notation'][value='gc']")
    assert page.locator("#moves .mv[data-ply='1']").inner_text() == "G-b1"


def test_promotion_chooser_and_reload_keeps_the_game(page):
    game = new_game_via_api(page, variant="chess", fen="4k3/P7/8/8/8/8/8/4K3 w - - 0 1", black="human")
    assert piece_on(page, "a7") == "P"
    sq(page, "a7").click()
    assert sq(page, "a8").locator(".preview.choice").get_attribute("data-new") == "QRBN"
    sq(page, "a8").click()
    page.wait_for_selector("#chooser:not([hidden])")
    page.click("#chooser-options button[data-uci='a7a8n']")
    wait_plies(page, 1)
    assert piece_on(page, "a8") == "N"
    assert page.locator("#moves li").count() == 1
    assert page.evaluate("location.pathname") == f"/game/{game['id']}"  # the public link, not the seat's
    page.reload()  # the game and the seat survive a reload
    page.wait_for_selector("body[data-ready='1']")
    wait_plies(page, 1)
    assert piece_on(page, "a8") == "N"
    assert json.loads(page.evaluate("localStorage.getItem('morphchess.game')"))["id"] == game["id"]
    sq(page, "e8").click()  # Black to move: the seat holds both sides of this local game
    assert "target" in sq(page, "e7").get_attribute("class").split()


def test_the_last_game_comes_back_on_the_home_page(page):
    start(page, "crossroads")
    click_move(page, "f2", "f3", 1)
    gid = game_id(page)
    page.goto("/")
    page.wait_for_selector("body[data-ready='1']")
    wait_plies(page, 1)
    assert game_id(page) == gid and piece_on(page, "f3") == "Z"


def test_playing_black_against_the_engine(page):
    page.select_option("#white", "engine")
    page.select_option("#black", "human")
    page.select_option("#level", "1")
    old = game_id(page)
    page.click("#new")
    page.wait_for_function("old => JSON.parse(localStorage.getItem('morphchess.game')).id !== old", arg=old)
    wait_plies(page, 1)  # the engine opened as White
    assert page.locator("#board .sq").first.get_attribute("data-square") == "h1"  # Black at the bottom


def test_a_game_set_up_with_black_to_move(page):
    new_game_via_api(page, variant="chess", fen="4k3/8/8/8/8/8/4P3/4K3 b - - 0 7", white="human", black="human")
    sq(page, "e8").click()
    sq(page, "d8").click()
    wait_plies(page, 1)
    assert page.locator("#moves").get_attribute("start") == "7"
    assert page.locator("#moves li").first.locator("span, button").all_inner_texts() == ["…", "Kd8"]


def test_take_back_flip_and_stepping_through_the_moves(page):
    start(page, "morphomania")
    for ply, (frm, to) in enumerate((("b1", "c3"), ("b9", "c7")), start=1):
        click_move(page, frm, to, ply)  # the next click needs the new position
    assert piece_on(page, "c3") == "A"  # spec: Morphomania b1c3 puts an archbishop on c3
    page.click("#moves .mv[data-ply='1']")
    page.wait_for_selector("#viewing:not([hidden])")
    assert piece_on(page, "c7") is None and piece_on(page, "b9") == "n"
    page.keyboard.press("ArrowLeft")  # the arrow keys step on from there
    page.wait_for_function("() => document.querySelector('#moves .mv.current') === null")
    assert piece_on(page, "b1") == "N"  # the start position
    page.keyboard.press("ArrowRight")
    page.wait_for_selector("#moves .mv.current[data-ply='1']")
    page.click("#back-to-game")
    page.wait_for_selector("#viewing", state="hidden")
    assert piece_on(page, "c7") == "a"
    page.click("#undo")
    page.wait_for_function("() => document.querySelectorAll('#moves .mv').length === 1")
    assert piece_on(page, "b9") == "n"
    page.click("#flip")
    assert page.locator("#board .sq").first.get_attribute("data-square") == "i1"


def test_records_export_and_import(page):
    start(page, "snappy-chess")
    sq(page, "e2").click()
    sq(page, "e3").click()
    wait_plies(page, 1)
    assert piece_on(page, "e3") == "Q"  # spec: Snappy e2e3 makes a queen
    page.click("#export-gc")
    page.wait_for_function("() => document.getElementById('record-text').value.includes('e2-e3')")
    assert page.input_value("#record-text").strip() == "1. P e2-e3"
    page.click("#export-pgn")
    page.wait_for_function("() => document.getElementById('record-text').value.includes('[Variant')")
    pgn_text = page.input_value("#record-text")
    page.fill("#record-text", pgn_text.replace("*", "").strip() + " i9i1 *")
    page.click("#import")
    page.wait_for_selector("#record-error:not(:empty)")
    assert "i9i1" in page.inner_text("#record-error")
    page.fill("#record-text", "1. P e2-e3 1... p e8-e7")
    page.click("#import")
    wait_plies(page, 2)
    assert piece_on(page, "e7") == "q"


def test_pasted_definition_plays_at_once_and_errors_are_shown(page):
    page.fill("#definition", "files=6 ranks=6 promoZone=0\nwazir:W:W:wazir:a1\nbishop:B:B:bishop:f1\n"
                             "knight:N:N:knight:d1\nking:K:K:king:c1")
    page.click("#load-definition")
    page.wait_for_function("() => document.querySelectorAll('#board .sq').length === 36")
    assert piece_on(page, "a6") == "w" and piece_on(page, "c1") == "K"
    assert page.locator(".legend-card[data-letter='W'] .meta").first.inner_text() == "XBetza W"
    sq(page, "a1").click()
    assert sorted(page.eval_on_selector_all("#board .sq.target", "els => els.map(e => e.dataset.square)")) \
        == ["a2", "b1"]
    page.fill("#definition", "files=6 ranks=6\nking:K:QxQ:king:c1")
    page.click("#load-definition")
    page.wait_for_selector("#definition-error:not(:empty)")
    assert "definition" in page.inner_text("#definition-error")
    assert page.locator("#board .sq").count() == 36  # the game goes on


@pytest.mark.parametrize("variant", VARIANTS)
def test_screenshot_of_every_variant(page, variant):
    start(page, variant)
    v = builtin(variant)
    letters = {t.letter for t in v.types}
    drawn = page.eval_on_selector_all("#board .piece-img", "els => els.map(e => e.dataset.piece)")
    assert drawn and {d.upper() for d in drawn} <= letters
    assert page.locator("#board .piece-img img.piece").count() == len(drawn)
    assert page.locator(".legend-card").count() == len(v.types)
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.locator("#board").screenshot(path=str(SHOTS / f"{variant}.png"))
    page.locator("#legend-box").screenshot(path=str(SHOTS / f"{variant}-legend.png"))


def test_an_unknown_game_link_says_so_and_starts_a_game(pages):
    page = pages.open("/game/no-such-game")
    assert page.inner_text("#notice") == "Game no-such-game was not found; a new game starts."
    assert page.locator("#board .sq").count() == 64 and game_id(page) != "no-such-game"
