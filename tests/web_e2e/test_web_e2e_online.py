"""Online play through the page (issue 12): two people in two browser contexts, and a spectator."""

from __future__ import annotations

import re

import pytest

from web_e2e_support import click_move, game_id, invite, piece_on, sq, wait_plies

pytestmark = pytest.mark.slow  # a browser: left out of the fast loop (-m "not slow")



def test_two_people_play_live_a_spectator_watches_one_resigns(pages):
    ann, bob, watcher = invite(pages)
    assert "White: Ann" in bob.inner_text("#players") and "you play black" in bob.inner_text("#players")
    assert bob.locator("#board .sq").first.get_attribute("data-square") == "h1"  # Bob sees Black's side
    polls = []
    bob.on("request", lambda r: polls.append(r.url) if r.method == "GET" and r.url.endswith(game_id(bob)) else None)
    click_move(ann, "e2", "e4", 1)
    wait_plies(bob, 1)  # live, without a reload
    wait_plies(watcher, 1)
    assert piece_on(bob, "e4") == "P"
    ann.wait_for_selector("#board .sq.movable[data-square='d2']")  # not Ann's turn: only for a premove
    sq(ann, "d2").click()
    sq(ann, "d2").click()  # put down again: nothing queued, nothing sent
    assert ann.locator("#board .sq.selected").count() == 0 and ann.locator("#premove").is_hidden()
    click_move(bob, "e7", "e5", 2)
    wait_plies(ann, 2)
    assert not polls, polls  # the moves came by the event stream

    # the spectator cannot move: nothing to pick up, no move box, and the server refuses a move
    sq(watcher, "g1").click()
    assert watcher.locator("#board .sq.selected").count() == 0
    assert watcher.locator("#move-input").is_disabled() and watcher.locator("#resign").is_disabled()
    assert "you are watching" in watcher.inner_text("#players")
    status = watcher.evaluate("""async id => (await fetch(`/api/games/${id}/moves`, {method: 'POST',
        headers: {'Content-Type': 'application/json'}, body: JSON.stringify({move: 'g1f3', ply: 2})})).status""",
                              game_id(watcher))
    assert status == 403

    bob.once("dialog", lambda d: d.accept())  # "Resign this game?"
    bob.click("#resign")
    for page in (ann, bob, watcher):
        page.wait_for_function("() => document.getElementById('status').textContent.includes('resigned')")
    assert ann.inner_text("#status") == "Game over: White wins: Black resigned (1-0)"
    assert ann.locator("#resign").is_disabled()
    watcher.click("#export-pgn")
    watcher.wait_for_function("() => document.getElementById('record-text').value.includes('[White')")
    pgn = watcher.input_value("#record-text")
    assert '[White "Ann"]' in pgn and '[Black "Bob"]' in pgn and '[Result "1-0"]' in pgn


def test_clocks_offers_and_a_seat_link_opened_elsewhere(pages):
    ann, bob, _ = invite(pages, "5+3")
    assert ann.inner_text("#clocks").split() == ["White", "5:00", "Black", "5:00"]
    click_move(ann, "e2", "e4", 1)
    wait_plies(bob, 1)
    ann.click("#undo")  # in a game between two people: a request to the opponent
    bob.wait_for_selector("#offers button[data-what='takeback'][data-answer='accept']")
    assert ann.locator("#offers button").count() == 0  # Ann waits for the answer
    bob.click("#offers button[data-what='takeback'][data-answer='accept']")
    ann.wait_for_function("() => document.querySelectorAll('#moves .mv').length === 0")
    assert piece_on(ann, "e2") == "P"
    click_move(ann, "d2", "d4", 1)
    wait_plies(bob, 1)
    bob.click("#offer-draw")
    ann.wait_for_selector("#offers button[data-what='draw'][data-answer='decline']")
    ann.click("#offers button[data-what='draw'][data-answer='decline']")
    bob.wait_for_function("() => document.getElementById('offers').textContent === ''")
    click_move(bob, "d7", "d5", 2)
    click_move(ann, "c2", "c4", 3)  # from here Black's clock runs
    bob.wait_for_selector("#clocks .clock.running[data-side='black']")
    annd = pages.open(ann.input_value("#seat-link"))  # Ann comes back from another device
    assert "you play white" in annd.inner_text("#players")
    wait_plies(annd, 3)
    bob.click("#offer-draw")
    annd.click("#offers button[data-what='draw'][data-answer='accept']")
    for page in (ann, bob):
        page.wait_for_function("() => document.getElementById('status').textContent.includes('agreement')")


def test_a_seek_accepted_in_the_lobby_and_an_abort(pages):
    ann = pages.open(storage={"morphchess.name": "Ann"})
    ann.select_option("#online-side", "black")
    old = game_id(ann)
    ann.click("#seek")
    ann.wait_for_function("old => JSON.parse(localStorage.getItem('morphchess.game')).id !== old", arg=old)
    ann.wait_for_function("() => document.getElementById('status').textContent.includes('Waiting')")
    gid = game_id(ann)
    bob = pages.open("/lobby", wait_ready=False)
    bob.fill("#name", "Bob")
    bob.click(f"button.accept[data-game='{gid}']")
    bob.wait_for_url(re.compile(f"/game/{gid}$"))
    bob.wait_for_selector("body[data-ready='1']")
    assert "you play white" in bob.inner_text("#players")
    ann.wait_for_function("() => document.getElementById('players').textContent.includes('White: Bob')")
    click_move(bob, "e2", "e4", 1)
    wait_plies(ann, 1)
    ann.click("#abort")  # before the second move either player may abort
    for page in (ann, bob):
        page.wait_for_function("() => document.getElementById('status').textContent === 'Game aborted'")
