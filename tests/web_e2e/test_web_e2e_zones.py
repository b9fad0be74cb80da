"""Zones a definition names (issue 20, Looks): Xiangqi's palaces and elephants' halves, chess's
promotion zones, outlined on the board when chosen, in Debian's headless Chromium."""

from __future__ import annotations

import pytest

from web_e2e_support import start

pytestmark = pytest.mark.slow  # a browser


def outlined(page) -> set[str]:
    return set(page.eval_on_selector_all("#board .sq.zone", "els => els.map(e => e.dataset.square)"))


def test_xiangqi_palace_and_promotion_zones_are_shown_when_chosen(page):
    start(page, "xiangqi")
    names = page.eval_on_selector_all("#zones option", "els => els.map(e => e.textContent)")
    assert names[0] == "none" and "where White's advisor and general may stand" in names
    assert outlined(page) == set()
    page.select_option("#zones", label="where White's advisor and general may stand")
    palace = {f + r for f in "def" for r in "123"}
    assert outlined(page) == palace
    page.click("#board .sq[data-square='e1']")  # outlines stay while a piece is picked up and moved
    assert outlined(page) == palace
    page.select_option("#zones", label="where Black's elephant may stand")
    assert outlined(page) == {f + str(r) for f in "abcdefghi" for r in range(6, 11)}
    page.select_option("#zones", label="none")
    assert outlined(page) == set()


def test_chess_offers_its_promotion_zones_and_a_variant_without_zones_none(page):
    start(page, "chess")
    page.select_option("#zones", label="Black's promotion zone")
    assert outlined(page) == {f + "1" for f in "abcdefgh"}
    page.fill("#definition", "files=6 ranks=6 promoZone=0\nking:K:K:king:c1\nrook:R:R:rook:a1")
    page.click("#load-definition")
    page.wait_for_function("() => document.querySelectorAll('#board .sq').length === 36")
    assert page.locator("#zones-label").is_hidden() and outlined(page) == set()
