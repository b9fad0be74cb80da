"""The web board with pieces in hand and multi-leg moves: the hands are shown beside the board, a
piece is dropped by clicking it in the hand and then a square, and a picked-up Lion shows the squares
it captures on its way."""

from __future__ import annotations

import pytest

from web_e2e_support import piece_on, serious_findings, sq, wait_plies

pytestmark = pytest.mark.slow  # a browser: left out of the fast loop (-m "not slow")


# a knight in each hand from the start; the Lion on c2 faces a black pawn on c3 (mirrored arrays)
DEFINITION = ("files=6 ranks=6 promoZone=0\nking:K:K:king:a1\nlion:L:KNADcaKcabKmabK:lion:c2\n"
              "pawn:P:fW:pawn:c4\nknight:N:N:knight::1")


def test_a_piece_in_hand_is_shown_and_dropped_and_a_lion_shows_its_path(page):
    page.fill("#definition", DEFINITION)
    page.click("#load-definition")
    page.wait_for_function("() => document.querySelectorAll('#board .sq').length === 36")
    assert serious_findings(page) == []  # the hands beside the board too
    white = page.locator(".hands .hand[data-side='white'] .hand-piece[data-from='@N']")
    assert white.inner_text().strip() == "1" and white.get_attribute("aria-label") == "white knight in hand, 1"
    assert page.locator(".hands .hand[data-side='black'] .hand-piece[data-from='@n']").is_disabled()
    white.click()
    targets = page.eval_on_selector_all("#board .sq.target", "els => els.map(e => e.dataset.square)")
    assert "d3" in targets and "c3" not in targets and "c2" not in targets  # only empty squares
    sq(page, "c2").click()  # the Lion: it may take the pawn on c3 and go on, or step back (igui)
    assert page.locator("#board .sq.path").evaluate_all("els => els.map(e => e.dataset.square)") == ["c3"]
    assert sq(page, "b3").get_attribute("aria-label").endswith("move here, by several ways")
    assert sq(page, "b3").locator(".preview.choice").count() == 0  # no promotion: no '?'
    sq(page, "b3").click()  # there directly or through c3: the chooser asks
    page.click("#chooser button[data-uci='c2c3,c3b3']")
    wait_plies(page, 2)  # and the engine's reply
    assert page.inner_text("#moves .mv[data-ply='1']").strip().startswith("Lc2xc3-b3")
    page.locator(".hands .hand[data-side='white'] .hand-piece[data-from='@N']").click()
    target = page.locator("#board .sq.target").first.get_attribute("data-square")
    sq(page, target).click()
    wait_plies(page, 3)
    assert piece_on(page, target) == "N"
    assert page.inner_text("#moves .mv[data-ply='3']").strip().startswith(f"N@{target}")
    assert page.locator(".hands .hand[data-side='white'] .hand-piece").count() == 0
