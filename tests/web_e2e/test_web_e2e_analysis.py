"""The analysis board through the page: a variation kept beside the game (which does not change), the
engine's streamed evaluation, the PGN with the variation, keys and buttons to step, a pasted position
and its shared link, no engine help for a player of a game being played, and a phone."""

from __future__ import annotations

import pytest

from web_e2e_support import (
    SHOTS,
    click_move,
    game_id,
    invite,
    piece_on,
    serious_findings,
    show_tab,
    sq,
    start,
    wait_plies,
)

pytestmark = pytest.mark.slow  # a browser: left out of the fast loop (-m "not slow")

PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
MATE_IN_ONE = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1"


def tree(page) -> str:
    return " ".join(page.inner_text("#analysis-moves").split())


def current(page) -> str:
    return page.inner_text("#analysis-moves .amv.current")


def test_a_variation_beside_the_game_an_evaluation_and_the_pgn(pages):
    page = pages.open()
    start(page, "chess")
    for ply, (a, b) in enumerate((("e2", "e4"), ("e7", "e5"), ("g1", "f3")), start=1):
        click_move(page, a, b, ply)
    gid = game_id(page)
    page.click("#analyse")
    page.wait_for_selector("#analysis:not([hidden])")
    assert tree(page) == "1. e4 e5 2. Nf3" and current(page) == "2. Nf3"
    page.click("#an-back")
    page.wait_for_function("() => document.querySelector('#analysis-moves .current')?.textContent === 'e5'")
    page.click("#an-back")
    page.wait_for_function("() => document.querySelector('#analysis-moves .current')?.textContent === '1. e4'")
    sq(page, "d7").click()  # a variation: 1... d5 instead of 1... e5
    sq(page, "d5").click()
    page.wait_for_function("() => document.querySelector('#analysis-moves .current')?.textContent === '1… d5'")
    assert tree(page) == "1. e4 e5 (1… d5) 2. Nf3"
    assert piece_on(page, "d5") == "p" and piece_on(page, "e5") is None
    page.click("#an-evaluate")
    page.wait_for_function("() => /depth \\d+/.test(document.getElementById('eval-line').textContent)")
    assert "best line: 2. " in page.inner_text("#eval-line")
    assert page.locator("#eval-bar").is_visible() and page.get_attribute("#eval-bar", "aria-valuenow")
    assert not serious_findings(page)
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "analysis.png"))  # the window: the board, its bar, the analysis beside
    page.click("#an-pgn")
    page.wait_for_function("() => document.getElementById('record-text').value.includes('d5')")
    assert "1. e4 e5 (1... d5) 2. Nf3" in " ".join(page.input_value("#record-text").split())
    page.locator("#analysis-title").focus()
    page.keyboard.press("Home")
    page.wait_for_function("() => !document.querySelector('#analysis-moves .current')")
    page.keyboard.press("ArrowRight")
    page.wait_for_function("() => document.querySelector('#analysis-moves .current')?.textContent === '1. e4'")
    page.click("#an-end")
    page.wait_for_function("() => document.querySelector('#analysis-moves .current')?.textContent === '2. Nf3'")
    state = page.evaluate("async id => (await fetch(`/api/games/${id}`)).json()", gid)
    assert state["ply"] == 3  # the game did not change
    page.click("#an-close")
    page.wait_for_selector("#analysis", state="hidden")
    assert piece_on(page, "f3") == "N" and piece_on(page, "e5") == "p"
    click_move(page, "b8", "c6", 4)  # and goes on


def test_a_pasted_position_its_mate_and_its_link_on_a_phone(pages):
    page = pages.open(**PHONE)
    show_tab(page, "more")  # a phone: the Records box is in the More tab
    page.fill("#record-text", MATE_IN_ONE)
    page.locator("#analyse-text").tap()
    page.wait_for_selector("#analysis:not([hidden])")
    assert page.input_value("#analysis-fen") == MATE_IN_ONE
    page.locator("#an-evaluate").tap()
    page.wait_for_function("() => document.getElementById('eval-line').textContent.startsWith('Evaluation:')")
    assert "mate in 1 for White" in page.inner_text("#eval-line") and "1. Ra8#" in page.inner_text("#eval-line")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert not serious_findings(page)
    link = page.input_value("#analysis-link")
    other = pages.open(link)
    assert other.is_visible("#analysis"), other.inner_text("#notice")
    assert other.input_value("#analysis-fen") == MATE_IN_ONE and piece_on(other, "a1") == "R"


def test_no_engine_help_for_a_player_of_a_game_being_played(pages):
    ann, bob, _ = invite(pages)
    click_move(ann, "e2", "e4", 1)
    wait_plies(bob, 1)
    bob.click("#analyse")
    bob.wait_for_selector("#analysis:not([hidden])")
    bob.click("#an-evaluate")
    bob.wait_for_function("() => document.getElementById('eval-line').textContent.startsWith('No evaluation')")
    assert "being played" in bob.inner_text("#eval-line")
    sq(bob, "c7").click()  # the board itself is Bob's to explore
    sq(bob, "c5").click()
    bob.wait_for_function("() => document.querySelector('#analysis-moves .current')?.textContent === 'c5'")
    bob.click("#an-close")
    click_move(bob, "e7", "e5", 2)  # the game goes on with Bob's real move
    wait_plies(ann, 2)


def test_the_move_list_buttons_step_through_the_game(pages):
    page = pages.open(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    start(page, "chess")
    click_move(page, "e2", "e4", 1)
    click_move(page, "e7", "e5", 2)
    page.locator("#mv-back").tap()
    page.wait_for_selector("#viewing:not([hidden])")
    assert piece_on(page, "e5") is None and piece_on(page, "e4") == "P"
    page.locator("#mv-start").tap()
    page.wait_for_function("() => !document.querySelector('#moves .mv.current')")
    assert piece_on(page, "e2") == "P"
    page.locator("#mv-forward").tap()
    page.wait_for_selector("#moves .mv.current[data-ply='1']")
    page.locator("#mv-end").tap()
    page.wait_for_selector("#viewing", state="hidden")
    assert piece_on(page, "e5") == "p"
