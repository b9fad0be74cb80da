"""How the board answers a player: take-backs, choosers, refused moves, lost connections, dragging, typed
moves, accessible names, the board's size and Polymorph's controls, each driven through the page in Chromium."""

from __future__ import annotations

import json
import urllib.request

import pytest

from web_e2e_support import click_move, drag, game_id, new_game_via_api, piece_on, ply_count, sq, start, wait_plies

pytestmark = pytest.mark.slow  # a browser: left out of the fast loop (-m "not slow")



def post(url: str, body: dict, token: str) -> dict:
    request = urllib.request.Request(url, json.dumps(body).encode(), method="POST", headers={
        "Content-Type": "application/json", "Authorization": f"Bearer {token}"})
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.loads(answer.read())


# -- take back and the engine -------------------------------------------------------------------------
def test_after_take_back_the_engine_answers_again(page):
    start(page, "chess", black="engine")
    click_move(page, "e2", "e4", 1)
    wait_plies(page, 2)
    click_move(page, "g1", "f3", 3)
    wait_plies(page, 4)
    page.click("#undo")  # takes back the engine's answer and my move
    page.wait_for_function("() => document.querySelectorAll('#moves .mv').length === 2")
    click_move(page, "d2", "d4", 3)
    wait_plies(page, 4)  # the engine answers the new move


def test_engine_as_white_moves_again_after_take_back_before_my_first_move(page):
    start(page, "chess", white="engine", black="human")
    wait_plies(page, 1)
    with page.expect_response("**/undo") as answer:
        page.click("#undo")
    undone = answer.value.json()
    assert undone["ply"] == 0
    page.wait_for_function("v => +document.body.dataset.version > v"  # the engine opened again
                           " && document.querySelector(\"#moves .mv[data-ply='1']\")", arg=undone["version"])


def test_take_back_while_the_engine_thinks(page):
    start(page, "chess", black="engine", level=8)  # 10 s a move: still thinking when taken back
    click_move(page, "e2", "e4", 1)
    page.wait_for_selector("#stop:not([disabled])")
    page.click("#undo")
    page.wait_for_function("() => document.querySelectorAll('#moves .mv').length === 0")
    assert piece_on(page, "e2") == "P"
    click_move(page, "d2", "d4", 1)
    page.wait_for_selector("#stop:not([disabled])")  # the engine thinks about the new move
    page.click("#stop")
    wait_plies(page, 2)


# -- touch: the tap that opens a chooser does not choose -------------------------------------------
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}


def test_tap_opening_the_transformation_chooser_does_not_choose(pages):
    page = pages.open(**PHONE)
    start(page, "polymorph")
    sq(page, "b1").tap()
    sq(page, "b1").tap()  # the second tap on a polymorph offers its other forms
    page.wait_for_selector("#chooser:not([hidden])")
    page.wait_for_timeout(400)
    assert page.locator("#chooser").is_visible()
    assert ply_count(page) == 0 and piece_on(page, "b1") == "N"


def test_tap_on_a_promotion_square_opens_the_chooser_without_choosing(pages):
    page = pages.open(**PHONE)
    new_game_via_api(page, variant="chess", fen="4k3/P7/8/8/8/8/8/4K3 w - - 0 1", black="human")
    sq(page, "a7").tap()
    sq(page, "a8").tap()
    page.wait_for_selector("#chooser:not([hidden])")
    page.wait_for_timeout(400)
    assert page.locator("#chooser").is_visible()
    assert ply_count(page) == 0 and piece_on(page, "a7") == "P"


# -- refused moves and lost connections are shown ------------------------------------------------------
def alert_text(page) -> str:
    page.wait_for_selector("#notice:not(:empty)")
    return page.inner_text("#notice")


def test_a_refused_move_shows_the_servers_reason_and_the_real_position(page, server):
    start(page, "chess")
    gid = game_id(page)
    token = page.evaluate("id => JSON.parse(localStorage.getItem('morphchess.seats'))[id]", gid)

    def meanwhile(route):  # the same seat plays e2e4 from elsewhere just before the page's move arrives
        post(f"{server}/api/games/{gid}/moves", {"move": "e2e4", "ply": 0}, token)
        route.continue_()

    page.route("**/moves", meanwhile)
    sq(page, "d2").click()
    sq(page, "d4").click()
    text = alert_text(page)
    assert text.startswith("Move d2d4 refused:") and "ply" in text, text
    page.wait_for_function("() => document.querySelectorAll('#moves .mv').length === 1")
    assert piece_on(page, "e4") == "P" and piece_on(page, "d2") == "P" and piece_on(page, "d4") is None


def test_a_lost_connection_is_shown_and_the_move_is_put_back(page):
    start(page, "chess")
    page.route("**/api/**", lambda route: route.abort())
    drag(page, "e2", "e4")
    assert alert_text(page).startswith("Connection lost: Move e2e4 got no answer from the server")
    assert piece_on(page, "e2") == "P" and piece_on(page, "e4") is None
    page.unroute("**/api/**")
    click_move(page, "e2", "e4", 1)
    page.wait_for_function("() => document.getElementById('notice').textContent === ''")  # gone once it answers


def test_a_stopped_server_is_reported_and_the_game_goes_on_after_a_restart(page, live_server):
    start(page, "chess")
    click_move(page, "e2", "e4", 1)
    live_server.stop()
    try:
        page.wait_for_function("() => document.getElementById('connection').textContent.includes('Connection lost')")
        sq(page, "e7").click()
        sq(page, "e5").click()
        assert "connection lost" in alert_text(page).lower()
        assert piece_on(page, "e7") == "p" and piece_on(page, "e5") is None
    finally:
        live_server.start()
    page.wait_for_function("() => document.getElementById('connection').textContent === ''")  # reconnected
    click_move(page, "e7", "e5", 2)  # the same game, kept in the database


# -- picking up, choosers, keyboard -------------------------------------------------------------------
def test_a_clicked_piece_can_then_be_dragged(page):
    start(page, "chess")
    sq(page, "g1").click()
    drag(page, "g1", "f3")
    wait_plies(page, 1)
    assert piece_on(page, "f3") == "N"


def test_the_chooser_closes_with_escape_and_keeps_the_focus(page):
    new_game_via_api(page, variant="chess", fen="4k3/P7/8/8/8/8/8/4K3 w - - 0 1", black="human")
    sq(page, "a7").click()
    sq(page, "a8").click()
    page.wait_for_selector("#chooser:not([hidden])")
    assert page.evaluate("() => document.getElementById('chooser').contains(document.activeElement)")
    for _ in range(6):  # Tab stays inside the chooser
        page.keyboard.press("Tab")
        assert page.evaluate("() => document.getElementById('chooser').contains(document.activeElement)")
    page.keyboard.press("Escape")
    page.wait_for_selector("#chooser", state="hidden")
    assert ply_count(page) == 0 and piece_on(page, "a7") == "P"


def test_moves_typed_in_san_or_coordinates(page):
    start(page, "chess")
    page.fill("#move-input", "e4")
    page.press("#move-input", "Enter")
    wait_plies(page, 1)
    page.fill("#move-input", "e7e5")
    page.press("#move-input", "Enter")
    wait_plies(page, 2)
    assert piece_on(page, "e4") == "P" and piece_on(page, "e5") == "p"
    page.fill("#move-input", "Ke3")
    page.press("#move-input", "Enter")
    assert alert_text(page).startswith("Move Ke3 refused:")
    assert ply_count(page) == 2


def test_squares_and_pieces_have_accessible_names(page):
    start(page, "chess")
    assert sq(page, "e2").get_attribute("aria-label") == "e2 white pawn"
    assert sq(page, "e4").get_attribute("aria-label") == "e4 empty"
    assert page.get_by_role("button", name="g8 black knight").count() == 1


# -- the board's size -----------------------------------------------------------------------------------
def test_the_board_grows_with_a_large_window(pages):
    page = pages.open(viewport={"width": 1920, "height": 1080})
    width = page.locator("#board").bounding_box()["width"]
    assert width > 800, width


def test_no_sideways_scrolling_on_a_phone(pages):
    page = pages.open(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    start(page, "crossroads")
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390


# -- the game controls -----------------------------------------------------------------------------------
def test_changing_blacks_polymorph_array_starts_that_game(page):
    start(page, "polymorph")
    page.select_option("#setup", "hybrids")
    page.wait_for_function("() => document.querySelector(\"#board .sq[data-square='b8'] .piece-img\")"
                           "?.dataset.piece === 'a'")
    assert "".join(piece_on(page, f"{f}8") for f in "abcdefgh") == "ragqkgar"


def test_a_visible_transform_control(page):
    start(page, "polymorph")
    assert page.locator("#transform").is_disabled()
    sq(page, "b1").click()
    page.click("#transform")
    page.wait_for_selector("#chooser:not([hidden])")
    page.click("#chooser-options button[data-uci='b1b1b']")
    wait_plies(page, 1)
    assert piece_on(page, "b1") == "B"
