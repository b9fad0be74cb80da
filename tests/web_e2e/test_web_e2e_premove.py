"""Premove through the page: a move queued while the opponent thinks is played on the opponent's move
(desktop and a phone), a cancelled one is not, and one that became illegal is refused with a word."""

from __future__ import annotations

import pytest

from web_e2e_support import click_move, new_game_via_api, piece_on, serious_findings, sq, wait_plies

pytestmark = pytest.mark.slow  # a browser: left out of the fast loop (-m "not slow")

PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}


def queue(page, frm: str, to: str, tap: bool = False) -> None:
    for name in (frm, to):
        sq(page, name).tap() if tap else sq(page, name).click()
    page.wait_for_selector("#premove:not([hidden])")
    assert page.locator("#board .sq.premove").count() == 2


def test_premoves_played_cancelled_and_refused(pages):
    ann = pages.open()
    game = new_game_via_api(ann, mode="invite", side="white")
    bob = pages.open(game["invite"]["link"], storage={"morphchess.name": "Bob"}, **PHONE)
    click_move(ann, "e2", "e4", 1)
    wait_plies(bob, 1)
    queue(ann, "d2", "d4")  # while Bob thinks
    assert "d2-d4" in ann.inner_text("#premove")
    assert not serious_findings(ann)
    sq(bob, "e7").tap()
    sq(bob, "e5").tap()
    wait_plies(ann, 3)  # Ann's premove went at once
    assert piece_on(ann, "d4") == "P" and ann.locator("#premove").is_hidden()

    wait_plies(bob, 3)
    click_move(bob, "b8", "c6", 4)
    queue(bob, "g8", "f6", tap=True)  # on the phone, while Ann thinks
    wait_plies(ann, 4)
    click_move(ann, "g1", "f3", 5)
    wait_plies(ann, 6)
    assert piece_on(ann, "f6") == "n"

    click_move(ann, "d4", "d5", 7)
    queue(ann, "c2", "c4")
    ann.click("#premove-cancel")  # cancelled: nothing is played for Ann
    assert ann.locator("#premove").is_hidden() and ann.locator("#board .sq.premove").count() == 0
    wait_plies(bob, 7)
    click_move(bob, "f8", "c5", 8)
    wait_plies(ann, 8)
    ann.wait_for_timeout(500)
    assert ann.locator("#moves .mv").count() == 8 and piece_on(ann, "c2") == "P"

    click_move(ann, "a2", "a3", 9)
    queue(ann, "h2", "h3")
    wait_plies(bob, 9)
    click_move(bob, "c5", "f2", 10)  # check: Ann's premove is no longer legal
    ann.wait_for_function("() => document.getElementById('notice').textContent.includes('refused')")
    assert "h2h3" in ann.inner_text("#notice") and piece_on(ann, "h2") == "P"
    assert ann.locator("#moves .mv").count() == 10 and "check" in ann.inner_text("#status")
