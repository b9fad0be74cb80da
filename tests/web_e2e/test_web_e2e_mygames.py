"""My games through the page, and issue 20's defects 8 (an invite link lost on reload) and 9 (the lobby
full of untouched local games; its moves column counted plies)."""

from __future__ import annotations

import pytest

from web_e2e_support import SHOTS, click_move, game_id, invite, new_game_via_api, serious_findings, show_tab, wait_plies

pytestmark = pytest.mark.slow  # a browser: left out of the fast loop (-m "not slow")

PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}


def test_defect_8_the_invite_link_comes_back_after_a_reload_until_the_opponent_joins(pages):
    ann = pages.open(storage={"morphchess.name": "Ann"})
    old = game_id(ann)
    ann.click("#invite")
    ann.wait_for_function("old => JSON.parse(localStorage.getItem('morphchess.game')).id !== old", arg=old)
    ann.wait_for_selector("#invite-link")
    link = ann.input_value("#invite-link")
    ann.reload()
    ann.wait_for_selector("body[data-ready='1']")
    ann.wait_for_selector("#invite-link")
    assert ann.input_value("#invite-link") == link
    assert ann.input_value("#seat-link").endswith("#seat=" + ann.evaluate(
        "id => JSON.parse(localStorage.getItem('morphchess.seats'))[id]", game_id(ann)))
    pages.open(link, storage={"morphchess.name": "Bob"})
    ann.wait_for_function("() => document.getElementById('players').textContent.includes('Black: Bob')")
    ann.reload()
    ann.wait_for_selector("body[data-ready='1']")
    assert ann.locator("#invite-link").count() == 0  # taken: nothing to send any more


def groups(page) -> dict[str, list[str]]:
    return page.evaluate("""() => Object.fromEntries([...document.querySelectorAll('#my-games-list ul')]
        .map(ul => [ul.dataset.group, [...ul.querySelectorAll('li')].map(li => li.dataset.game)]))""")


def test_my_games_lists_the_seats_this_browser_holds_your_move_first(pages):
    ann, bob, _ = invite(pages)
    first = game_id(ann)
    click_move(ann, "e2", "e4", 1)  # now Bob's move
    second = new_game_via_api(ann, mode="invite", side="white", name="Ann")["id"]  # Ann's move
    third = new_game_via_api(ann, mode="invite", side="white", name="Ann")["id"]
    ann.once("dialog", lambda d: d.accept())  # "Resign this game?"
    ann.click("#resign")
    ann.wait_for_function("() => document.getElementById('status').textContent.includes('resigned')")
    ann.wait_for_function("id => document.querySelector(`#my-games-list ul[data-group='finished'] "
                          "li[data-game='${id}']`)", arg=third)
    assert groups(ann) == {"mine": [second], "others": [first], "finished": [third]}
    assert "your move" in ann.inner_text(f"#my-games-list li[data-game='{second}']")
    assert "vs Bob" in ann.inner_text(f"#my-games-list li[data-game='{first}']")
    assert not serious_findings(ann)
    SHOTS.mkdir(parents=True, exist_ok=True)
    ann.locator("#my-games").screenshot(path=str(SHOTS / "my-games.png"))
    ann.click(f"#my-games-list li[data-game='{first}'] a")  # back to the game, with the seat
    ann.wait_for_function("id => JSON.parse(localStorage.getItem('morphchess.game')).id === id", arg=first)
    ann.wait_for_selector("body[data-ready='1']")
    assert "you play white" in ann.inner_text("#players")
    click_move(bob, "e7", "e5", 2)
    wait_plies(ann, 2)
    ann.wait_for_function("id => document.querySelector(`#my-games-list ul[data-group='mine'] "
                          "li[data-game='${id}']`)", arg=first)  # Ann's move again: at the top

    phone = pages.open("/", storage={"morphchess.seats": ann.evaluate("localStorage.getItem('morphchess.seats')")},
                       **PHONE)
    show_tab(phone, "game")  # a phone: my games are in the Game tab
    phone.wait_for_selector("#my-games-list ul[data-group='mine']")
    assert phone.locator("#my-games-list li").count() == 3
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390


def test_defect_9_the_lobby_lists_no_untouched_local_games_and_counts_moves(pages):
    visits = [pages.open() for _ in range(3)]  # each first visit starts a local game against the engine
    untouched = [game_id(p) for p in visits]
    played = visits[0]
    played.select_option("#black", "human")
    click_move(played, "e2", "e4", 1)
    click_move(played, "e7", "e5", 2)
    click_move(played, "g1", "f3", 3)
    lobby = pages.open("/lobby", wait_ready=False)
    rows = lobby.locator("#playing tbody tr")
    text = lobby.inner_text("#playing")
    for gid in untouched[1:]:
        assert lobby.locator(f"#playing a[href='/game/{gid}']").count() == 0, text
    row = rows.filter(has=lobby.locator(f"a[href='/game/{untouched[0]}']"))
    assert row.locator("td").nth(3).inner_text() == "2", text  # 1. e4 e5 2. Nf3: two moves, three plies
