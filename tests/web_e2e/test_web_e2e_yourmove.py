"""The header's badge of correspondence games awaiting the account's move: shown on every page, updated
live as the opponent moves, and the opponent's name (markup here) shown as text."""

from __future__ import annotations

import pytest
from test_web_e2e_accounts import enter

pytestmark = pytest.mark.slow  # a browser: left out of the fast loop (-m "not slow")

MARKUP = "<img src=x id=planted>"
POST = """async ([path, body, token]) => {
    const me = await (await fetch('/api/account')).json();
    const headers = {'Content-Type': 'application/json', ...(me.csrf ? {'X-CSRF-Token': me.csrf} : {}),
                     ...(token ? {Authorization: `Bearer ${token}`} : {})};
    const r = await fetch(path, {method: 'POST', headers, body: JSON.stringify(body)});
    return r.json();
}"""


@pytest.fixture
def quick(live_server):
    """The server tells pages to ask every second, and reads every ask afresh."""
    awaiting = live_server.srv.config.app.state.awaiting
    kept = awaiting.poll_s, awaiting.fresh_s
    awaiting.poll_s, awaiting.fresh_s = 1, 0
    yield
    awaiting.poll_s, awaiting.fresh_s = kept


def test_the_badge_follows_the_games_awaiting_my_move_on_every_page(pages, quick):
    mine = pages.open()
    enter(mine, "signup", "Cor-1", "a long password", shown="Cor-1")
    assert mine.locator("#your-move").is_hidden()  # no game awaits this account
    game = mine.evaluate(POST, ["/api/games", {"mode": "invite", "side": "white", "time_control": "3d"}, None])
    guest = pages.open()  # a guest without an account takes the other seat, with markup for a name
    seat = guest.evaluate(POST, [f"/api/games/{game['id']}/join", {"name": MARKUP}, game["invite"]["token"]])
    badge = mine.wait_for_selector("#your-move:not([hidden])")
    assert badge.inner_text().startswith("Your move: 1")
    mine.click("#your-move summary")
    item = mine.locator(f"#your-move li[data-game='{game['id']}']")
    mine.wait_for_function("([id, text]) => (document.querySelector(`#your-move li[data-game='${id}'] a`) || {})"
                           ".textContent === text", arg=[game["id"], f"Orthodox chess against {MARKUP}"])
    assert mine.locator("#planted").count() == 0  # the name stayed text
    assert item.locator("a").get_attribute("href") == f"/game/{game['id']}"
    assert item.locator(".play-here").count() == 1  # this browser holds no seat of it... yet
    mine.evaluate(POST, [f"/api/games/{game['id']}/moves", {"move": "e4", "ply": 0}, game["seat"]["token"]])
    mine.wait_for_selector("#your-move", state="hidden")  # moved elsewhere: gone without a reload
    guest.evaluate(POST, [f"/api/games/{game['id']}/moves", {"move": "e5", "ply": 1}, seat["seat"]["token"]])
    mine.wait_for_selector("#your-move:not([hidden])")  # the guest answered: back without a reload
    for path in ("/tournaments", "/players/Cor-1"):
        mine.goto(path)
        assert mine.wait_for_selector("#your-move:not([hidden])").inner_text().startswith("Your move: 1")
