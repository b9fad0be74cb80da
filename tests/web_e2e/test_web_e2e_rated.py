"""A rated game through the page: two players sign up in two browsers, play a rated game (one ticks
*Rated* and invites, the other opens the link logged in), see the ratings and their changes on the board,
the new ratings on their profiles and on the variant's leaderboard; an anonymous player is refused the
seat, with the reason shown."""

from __future__ import annotations

import re

import pytest
from test_web_e2e_accounts import enter

from web_e2e_support import click_move, game_id, serious_findings, wait_plies

pytestmark = pytest.mark.slow  # a browser: left out of the fast loop (-m "not slow")


def players_line_has(page, text: str) -> None:
    page.wait_for_function("t => document.getElementById('players').textContent.includes(t)", arg=text)


def test_a_rated_game_between_two_accounts_shows_the_new_ratings_everywhere(pages):
    ann = pages.open()
    enter(ann, "signup", "Rated-Ann", "a long password", shown="Rated-Ann")
    ann.check("#rated")
    old = game_id(ann)
    ann.click("#invite")
    ann.wait_for_function("old => JSON.parse(localStorage.getItem('morphchess.game')).id !== old", arg=old)
    invite_link = ann.input_value("#invite-link")
    stranger = pages.open(invite_link, storage={"morphchess.name": "Guest"})  # not logged in: told why
    assert "log in to take its seat" in stranger.inner_text("#notice")
    assert "you are watching" in stranger.inner_text("#players")
    bob = pages.open(storage={"morphchess.name": "Bob"})
    enter(bob, "signup", "Rated-Bob", "a long password", shown="Rated-Bob")
    bob.goto(invite_link)
    bob.wait_for_selector("body[data-ready='1']")
    players_line_has(ann, "Black: Rated-Bob (1500?)")
    assert "White: Rated-Ann (1500?)" in bob.inner_text("#players") and "rated" in bob.inner_text("#players")
    click_move(ann, "f2", "f3", 1)
    click_move(bob, "e7", "e5", 2)
    click_move(ann, "g2", "g4", 3)
    click_move(bob, "d8", "h4", 4)  # mate
    wait_plies(ann, 4)
    for page in (ann, bob):  # Glicko-2 for two new players: 1662.31 and 1337.69
        players_line_has(page, "White: Rated-Ann (1500? −162) · Black: Rated-Bob (1500? +162)")
    bob.click("#account-name")
    bob.wait_for_selector("#profile-ratings li[data-variant='chess']")
    assert re.search(r"1662\? · 1 rated game$", bob.inner_text("#profile-ratings li[data-variant='chess']"))
    assert bob.inner_text(f"#profile-games li[data-game='{game_id(ann)}']").endswith("won · rated +162")
    bob.click("#profile-ratings li[data-variant='chess'] a")
    bob.wait_for_selector("#ranking")
    ranking = bob.inner_text("#ranking tbody")
    assert ranking.index("Rated-Bob\t1662?") < ranking.index("Rated-Ann\t1338?")
    assert not serious_findings(bob)
