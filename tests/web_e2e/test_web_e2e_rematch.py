"""The game-over summary and the rematch through the page: two players in two browsers, a spectator on
a phone; the PGN downloaded from the summary."""

from __future__ import annotations

from pathlib import Path

import pytest

from web_e2e_support import click_move, game_id, invite, serious_findings, show_tab, wait_plies

pytestmark = pytest.mark.slow  # a browser: left out of the fast loop (-m "not slow")

PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}


def test_summary_rematch_with_colours_swapped_and_the_pgn_download(pages):
    ann, bob, watcher = invite(pages, **PHONE)
    first = game_id(ann)
    click_move(ann, "e2", "e4", 1)
    wait_plies(bob, 1)
    show_tab(watcher, "more")  # a phone: the Records box is in the More tab
    with watcher.expect_download() as download:  # the record while the game goes on, from the Records box
        watcher.locator("#download-gc").tap()
    assert "P e2-e4" in Path(download.value.path()).read_text(encoding="utf-8")
    bob.once("dialog", lambda d: d.accept())  # "Resign this game?"
    bob.click("#resign")
    for page in (ann, bob, watcher):
        page.wait_for_selector("#summary:not([hidden])")
        assert page.inner_text("#summary-result") == "White wins: Black resigned (1-0)"
    assert watcher.locator("#rematch-offer").count() == 0  # a spectator has no rematch to offer
    assert watcher.evaluate("document.documentElement.scrollWidth") <= 390
    assert not serious_findings(ann)

    with ann.expect_download() as download:
        ann.click("#summary a:text('Download PGN')")
    pgn = Path(download.value.path()).read_text(encoding="utf-8")
    assert '[White "Ann"]' in pgn and '[Result "1-0"]' in pgn and "1. e4" in pgn

    ann.click("#rematch-offer")
    ann.wait_for_function("() => document.getElementById('rematch').textContent.includes('waiting')")
    bob.wait_for_selector("#rematch-accept")
    bob.click("#rematch-accept")
    for page in (ann, bob):  # both pages open the rematch, with their seats swapped
        page.wait_for_function("old => JSON.parse(localStorage.getItem('morphchess.game')).id !== old", arg=first)
        page.wait_for_function("() => document.getElementById('summary').hidden")
    assert game_id(ann) == game_id(bob)
    assert "you play black" in ann.inner_text("#players") and "White: Bob" in ann.inner_text("#players")
    assert "you play white" in bob.inner_text("#players")
    assert ann.locator("#board .sq").first.get_attribute("data-square") == "h1"  # Ann sees Black's side now
    click_move(bob, "d2", "d4", 1)
    wait_plies(ann, 1)
    watcher.wait_for_selector("#rematch a")
    assert watcher.get_attribute("#rematch a", "href") == f"/game/{game_id(ann)}"
