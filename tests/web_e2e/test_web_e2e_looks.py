"""The board's looks through the page: a colour theme and the letters piece set, kept over a reload."""

from __future__ import annotations

import pytest

from web_e2e_support import SHOTS, serious_findings, show_tab, sq

pytestmark = pytest.mark.slow  # a browser: left out of the fast loop (-m "not slow")


def background(page, name: str) -> str:
    return sq(page, name).evaluate("e => getComputedStyle(e).backgroundColor")


def letter(page, name: str) -> str:
    return sq(page, name).locator(".piece-img").evaluate("e => getComputedStyle(e, '::after').content")


def test_a_theme_and_the_letters_kept_in_the_browser(pages):
    page = pages.open(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    assert background(page, "a1") == "rgb(181, 136, 99)" and letter(page, "e1") == "none"
    show_tab(page, "game")  # a phone: the looks are in the Game tab
    page.select_option("#theme", "green")
    page.select_option("#piece-set", "letters")
    assert background(page, "a1") == "rgb(118, 150, 86)" and background(page, "b1") == "rgb(238, 238, 210)"
    assert letter(page, "e1") == '"K"' and letter(page, "g8") == '"n"'
    white = sq(page, "e1").locator(".piece-img").evaluate("e => getComputedStyle(e).backgroundColor")
    black = sq(page, "e8").locator(".piece-img").evaluate("e => getComputedStyle(e).backgroundColor")
    assert (white, black) == ("rgb(255, 255, 255)", "rgb(34, 34, 34)")
    assert not serious_findings(page)
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.locator("#board").screenshot(path=str(SHOTS / "looks-letters.png"))
    page.reload()
    page.wait_for_selector("body[data-ready='1']")
    assert page.input_value("#theme") == "green" and page.input_value("#piece-set") == "letters"
    assert background(page, "a1") == "rgb(118, 150, 86)" and letter(page, "d1") == '"Q"'
