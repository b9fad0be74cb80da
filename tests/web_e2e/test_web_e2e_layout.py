"""The page's layout (issue 50, defect 6): on a phone the board and the game's controls on one screen,
with tabs for moves, talk, analysis and the rest; on a 1366x768 laptop the whole board beside the
analysis.  The screenshots in docs/web/ are taken here."""

from __future__ import annotations

from pathlib import Path

import pytest

from web_e2e_support import click_move, new_online_game, serious_findings, show_tab, start, wait_plies

pytestmark = pytest.mark.slow  # a browser: left out of the fast loop (-m "not slow")

DOCS = Path(__file__).resolve().parents[2] / "docs" / "web"
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
CONTROLS = ("#board", "#clocks", "#resign", "#offer-draw", "#mv-start", "#mv-back", "#mv-forward", "#mv-end")


def on_screen(page, selector: str) -> bool:
    """Is the element wholly inside the window, with the page scrolled to its top?"""
    box = page.locator(selector).bounding_box()
    size = page.viewport_size
    return (box is not None and box["x"] >= 0 and box["y"] >= 0
            and box["x"] + box["width"] <= size["width"] + 0.5 and box["y"] + box["height"] <= size["height"] + 0.5)


def test_a_phone_shows_the_board_and_the_games_controls_on_one_screen(pages):
    ann = pages.open(storage={"morphchess.name": "Ann"})
    ann.select_option("#time-control", "5+3")
    new_online_game(ann)
    bob = pages.open(ann.input_value("#invite-link"), storage={"morphchess.name": "Bob"}, **PHONE)
    for ply, (page, a, b) in enumerate(((ann, "e2", "e4"), (bob, "e7", "e5"), (ann, "g1", "f3")), start=1):
        click_move(page, a, b, ply)
    wait_plies(bob, 3)
    bob.wait_for_selector("#clocks .clock.running")
    bob.evaluate("window.scrollTo(0, 0)")
    for selector in CONTROLS:
        assert on_screen(bob, selector), (selector, bob.locator(selector).bounding_box())
    assert bob.locator("#resign").is_enabled() and bob.locator("#offer-draw").is_enabled()
    assert bob.evaluate("document.documentElement.scrollWidth") <= 390
    assert bob.locator("#moves-box").is_visible() and bob.locator("#talk").is_hidden()  # the Moves tab
    DOCS.mkdir(parents=True, exist_ok=True)
    bob.screenshot(path=str(DOCS / "phone.png"))
    for sent, text in enumerate(("good luck", "you too?"), 1):  # the Talk tab counts what came while hidden
        ann.fill("#talk-input", text)
        ann.press("#talk-input", "Enter")
        ann.wait_for_function(f"() => document.querySelectorAll('#talk-messages li').length === {sent}")
    bob.wait_for_function("() => document.querySelectorAll('#talk-messages li').length === 2")
    assert bob.inner_text("#tab-talk") == "Talk (2)", bob.inner_text("#talk-messages")
    assert bob.get_attribute("#tab-talk", "aria-label") == "Talk, 2 new messages"
    show_tab(bob, "talk")
    assert bob.inner_text("#tab-talk") == "Talk"
    assert bob.locator("#talk").is_visible() and bob.locator("#moves-box").is_hidden()
    assert bob.get_attribute("#tab-talk", "aria-selected") == "true"
    bob.click("#analyse")  # the analysis opens its own tab
    bob.wait_for_selector("#analysis:not([hidden])")
    assert bob.locator("#tab-analysis").is_visible() and bob.get_attribute("#tab-analysis", "aria-selected") == "true"
    assert not serious_findings(bob)
    bob.click("#an-close")
    bob.wait_for_selector("#tab-analysis", state="hidden")
    assert bob.locator("#moves-box").is_visible()


def test_a_phone_keeps_a_nine_by_nine_board_and_its_controls_together(pages):
    page = pages.open(**PHONE)
    start(page, "crossroads")
    page.evaluate("window.scrollTo(0, 0)")
    for selector in ("#board", "#mv-back", "#mv-forward", "#resign"):
        assert on_screen(page, selector), selector


@pytest.mark.parametrize("size", [(1366, 768), (1000, 700)], ids=["laptop", "narrow-laptop"])
def test_a_laptop_shows_the_whole_board_beside_the_analysis(pages, size):
    width, height = size
    page = pages.open(viewport={"width": width, "height": height})
    start(page, "chess")
    for ply, (a, b) in enumerate((("e2", "e4"), ("e7", "e5"), ("g1", "f3"), ("b8", "c6")), start=1):
        click_move(page, a, b, ply)
    page.click("#analyse")
    page.wait_for_selector("#analysis:not([hidden])")
    page.click("#an-evaluate")
    page.wait_for_function("() => /depth \\d+/.test(document.getElementById('eval-line').textContent)")
    page.evaluate("window.scrollTo(0, 0)")
    board, analysis, bar = (page.locator(s).bounding_box() for s in ("#board", "#analysis", "#eval-bar"))
    assert on_screen(page, "#board"), board
    assert analysis["x"] >= board["x"] + board["width"] and analysis["y"] < height / 2  # beside it, not below
    assert on_screen(page, "#eval-line") and on_screen(page, "#an-back")
    assert bar["x"] + bar["width"] <= board["x"] and bar["height"] >= board["height"] * 0.8  # beside the board
    assert page.get_attribute("#tab-moves", "aria-selected") is not None and page.locator("#panel-tabs").is_hidden()
    if size == (1366, 768):
        page.screenshot(path=str(DOCS / "laptop.png"))
