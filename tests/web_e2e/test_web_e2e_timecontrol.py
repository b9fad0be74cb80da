"""Custom time controls through the page (minutes and increment; days per move), whose turn it is in
the tab's title, and the notification of a correspondence move while the page is not in view."""

from __future__ import annotations

import pytest

from web_e2e_support import click_move, game_id, serious_findings, wait_plies

pytestmark = pytest.mark.slow  # a browser: left out of the fast loop (-m "not slow")

HIDDEN_AND_LISTENING = """
Object.defineProperty(document, 'visibilityState', {get: () => 'hidden'});
window.told = [];
const Real = window.Notification;
window.Notification = class extends Real {
  constructor(title, options) { super(title, options); window.told.push([title, options.body]); }
};
"""


def invite_with(pages, choose, **ann_options):
    ann = pages.open(storage={"morphchess.name": "Ann"}, **ann_options)
    choose(ann)
    old = game_id(ann)
    ann.click("#invite")
    ann.wait_for_function("old => JSON.parse(localStorage.getItem('morphchess.game')).id !== old", arg=old)
    ann.wait_for_selector("#invite-link")
    bob = pages.open(ann.input_value("#invite-link"), storage={"morphchess.name": "Bob"})
    ann.wait_for_function("() => document.getElementById('players').textContent.includes('Black: Bob')")
    return ann, bob


def test_minutes_and_increment_of_ones_own(pages):
    def choose(page):
        page.select_option("#time-control", "custom")
        page.fill("#tc-minutes", "2")
        page.fill("#tc-increment", "1")
        assert not serious_findings(page)

    ann, bob = invite_with(pages, choose)
    assert ann.inner_text("#clocks").split() == ["White", "2:00", "Black", "2:00"]
    state = ann.evaluate("async id => (await fetch(`/api/games/${id}`)).json()", game_id(ann))
    assert state["time_control"]["text"] == "2+1" and state["time_control"]["increment_ms"] == 1000
    assert ann.title() == "(your move) Orthodox chess · morphchess"
    click_move(ann, "e2", "e4", 1)
    assert ann.title() == "Orthodox chess · morphchess"
    bob.wait_for_function("() => document.title.startsWith('(your move)')")


def test_days_per_move_notify_the_player_whose_move_comes(pages):
    def choose(page):
        page.select_option("#time-control", "days")
        page.fill("#tc-days", "2")

    ann, bob = invite_with(pages, choose, permissions=["notifications"])
    assert ann.inner_text("#clocks").split() == ["White", "2", "d", "0", "h", "Black", "2", "d", "0", "h"]
    assert ann.locator("#notify").is_hidden()  # allowed already
    assert bob.locator("#notify").is_visible()  # Bob's browser has not been asked yet
    assert not serious_findings(bob)
    ann.context.add_init_script(HIDDEN_AND_LISTENING)
    ann.reload()
    ann.wait_for_selector("body[data-ready='1']")
    click_move(ann, "e2", "e4", 1)
    wait_plies(bob, 1)
    click_move(bob, "e7", "e5", 2)
    wait_plies(ann, 2)
    ann.wait_for_function("() => window.told.length === 1")
    assert ann.evaluate("window.told") == [["morphchess: your move", "Orthodox chess: your opponent played e5"]]
    assert ann.title().startswith("(your move)")
