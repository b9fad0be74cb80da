"""Seats, names and the lobby on the page, each played in Debian's headless Chromium and failing on the
page before its fix: a spectator's status, a name given after opening an invite, the catalogue's suggestions, the
letters piece set, the live lobby without abandoned engine games."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime, timedelta

import pytest

from web_e2e_support import click_move, game_id, invite, new_online_game, show_tab, sq, start, wait_plies

pytestmark = pytest.mark.slow  # a browser: left out of the fast loop (-m "not slow")


def test_a_spectator_has_no_opponent(pages):
    ann, bob, watcher = invite(pages)
    watcher.wait_for_function("() => document.getElementById('status').textContent.startsWith('White to move')")
    assert watcher.inner_text("#status") == "White to move"
    assert bob.inner_text("#status") == "White to move (your opponent)"
    click_move(ann, "e2", "e4", 1)
    wait_plies(watcher, 1)
    watcher.wait_for_function("() => document.getElementById('status').textContent === 'Black to move'")


def _invited(pages):
    """Ann invites; the invite link is opened in a browser that keeps no name: both pages."""
    ann = pages.open(storage={"morphchess.name": "Ann"})
    new_online_game(ann)
    return ann, pages.open(ann.input_value("#invite-link"), wait_ready=False)


def test_an_invited_player_names_themselves_and_renames_later(pages):
    ann, bob = _invited(pages)
    bob.wait_for_selector("#join:not([hidden])")
    assert "Anonymous" not in ann.inner_text("#players") and "waiting" in ann.inner_text("#players")
    bob.fill("#join-name", "Cleo")
    bob.click("#join-go")
    bob.wait_for_selector("body[data-ready='1']")
    ann.wait_for_function("() => document.getElementById('players').textContent.includes('Black: Cleo')")
    assert bob.input_value("#name") == "Cleo" and bob.locator("#join").is_hidden()

    bob.fill("#name", "Cleo B")  # a name typed afterwards reaches the game, and the talk
    bob.dispatch_event("#name", "change")
    ann.wait_for_function("() => document.getElementById('players').textContent.includes('Black: Cleo B')")
    bob.fill("#talk-input", "hello")
    bob.press("#talk-input", "Enter")
    ann.wait_for_function("() => document.getElementById('talk-messages').textContent.includes('Cleo B: hello')")


def test_joining_without_a_name_is_a_choice(pages):
    ann, bob = _invited(pages)
    bob.click("#join-go")  # no name: joins all the same
    bob.wait_for_selector("body[data-ready='1']")
    ann.wait_for_function("() => document.getElementById('players').textContent.includes('Black: anonymous')")


def test_the_suggested_words_find_games_and_a_missing_game_is_named(page):
    words = [w.strip(" …") for w in page.get_attribute("#catalog-search", "placeholder").split(",")]
    assert "janggi" not in words and len(words) >= 3
    for word in words:
        page.fill("#catalog-search", word)
        found = "document.getElementById('catalog-status').textContent.match(/^[1-9]\\d* games? found$/)"
        page.wait_for_function(f"w => document.getElementById('catalog-search').value === w && {found}", arg=word)
    for game in ("janggi", "crazyhouse"):
        page.fill("#catalog-search", game)
        page.wait_for_function("g => document.getElementById('catalog-status').textContent.includes(g + ':')", arg=game)
        assert page.inner_text("#catalog-status") == (f"0 games found: {game}: not in the library yet; "
                                                      "Fairy-Stockfish plays it")
    page.fill("#catalog-search", "quux")
    page.wait_for_function("() => document.getElementById('catalog-status').textContent.includes('quux')")
    assert "Fairy-Stockfish" not in page.inner_text("#catalog-status")


def test_letters_only_inside_the_square_and_blacks_in_lower_case(pages):
    page = pages.open(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    show_tab(page, "game")  # a phone: the looks are in the Game tab
    page.select_option("#piece-set", "letters")
    for name, letter in (("e1", "K"), ("g8", "n"), ("a7", "p"), ("h1", "R")):
        piece = sq(page, name).locator(".piece-img")
        assert piece.locator("img").is_hidden()  # the letter instead of the picture, not beside it
        shown = piece.evaluate("e => { const s = getComputedStyle(e, '::after');"
                               " return [s.content, s.textTransform]; }")
        assert shown[0] == f'"{letter}"' and shown[1] == "none", (name, shown)
        box, square = piece.bounding_box(), sq(page, name).bounding_box()
        assert box["x"] >= square["x"] and box["x"] + box["width"] <= square["x"] + square["width"] + 0.5
        assert box["y"] >= square["y"] and box["y"] + box["height"] <= square["y"] + square["height"] + 0.5
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def _age(live_server, gid: str, minutes: int) -> None:
    """Make a game look untouched for ``minutes`` (as after its player left)."""
    with sqlite3.connect(live_server.tmp / "games.db") as db:
        past = datetime.now(UTC) - timedelta(minutes=minutes)
        db.execute("UPDATE games SET updated = ? WHERE id = ?", (past.strftime("%Y-%m-%d %H:%M:%S.%f"), gid))


def test_the_lobby_is_live_and_leaves_out_abandoned_engine_games(pages, live_server):
    lobby = pages.open("/lobby", wait_ready=False)
    lobby.wait_for_selector("body[data-live='1']")
    player = pages.open()
    start(player, "chess", black="engine")
    click_move(player, "e2", "e4", 1)
    wait_plies(player, 2)
    click_move(player, "d2", "d4", 3)
    wait_plies(player, 4)
    gid = game_id(player)
    lobby.wait_for_selector(f"#playing a[href='/game/{gid}']")  # without a reload
    seek = new_online_game(pages.open(), "#seek")
    lobby.wait_for_selector(f"#open button.accept[data-game='{seek}']")
    _age(live_server, gid, 60)  # the player left an hour ago
    lobby.reload()
    lobby.wait_for_selector("body[data-live='1']")
    assert lobby.locator(f"#playing a[href='/game/{gid}']").count() == 0, lobby.inner_text("#playing")
