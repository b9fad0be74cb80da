"""The board players expect (issue 11): marks, keyboard, sounds, the engine's line and its live reply,
variant titles, records with names, and an accessibility check with axe-core."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest

from common import CHESS960
from web_e2e_support import click_move, game_id, new_game_via_api, piece_on, serious_findings, sq, start, wait_plies

pytestmark = pytest.mark.slow  # a browser: left out of the fast loop (-m "not slow")


def test_accessibility_check_finds_nothing_serious(pages):
    page = pages.open(viewport={"width": 390, "height": 844})  # the phone layout
    assert serious_findings(page) == []
    page = pages.open()
    start(page, "polymorph")
    click_move(page, "e2", "e4", 1)
    sq(page, "b8").click()  # a picked-up piece with its targets
    assert serious_findings(page) == []
    page.click("#transform")  # the open chooser
    page.wait_for_selector("#chooser:not([hidden])")
    assert serious_findings(page) == []


def test_right_button_draws_arrows_and_circles_and_a_click_clears_them(page):
    start(page, "chess")
    a, b = sq(page, "g1").bounding_box(), sq(page, "f3").bounding_box()
    page.mouse.move(a["x"] + 10, a["y"] + 10)
    page.mouse.down(button="right")
    page.mouse.move(b["x"] + 10, b["y"] + 10, steps=3)
    page.mouse.up(button="right")
    sq(page, "d4").click(button="right")
    assert page.locator("#board .mark-arrow[data-from='g1'][data-to='f3']").count() == 1
    assert page.locator("#board .mark-circle[data-square='d4']").count() == 1
    sq(page, "d4").click(button="right")  # again: gone
    assert page.locator("#board .mark-circle").count() == 0
    sq(page, "a5").click()
    assert page.locator("#board .mark-arrow").count() == 0
    assert ply_free(page)


def ply_free(page) -> bool:
    return page.locator("#moves .mv").count() == 0


def test_the_board_is_played_with_the_keyboard(page):
    start(page, "chess")
    sq(page, "e2").focus()
    page.keyboard.press("Enter")  # pick up
    assert "selected" in sq(page, "e2").get_attribute("class")
    assert sq(page, "e4").get_attribute("aria-label") == "e4 empty, move here"
    page.keyboard.press("ArrowUp")
    page.keyboard.press("ArrowUp")
    assert page.evaluate("document.activeElement.dataset.square") == "e4"
    page.keyboard.press("Enter")  # put down
    wait_plies(page, 1)
    assert piece_on(page, "e4") == "P"
    assert page.inner_text("#announce") == "White played e4"  # for screen readers
    page.locator("#status").click()  # outside the board the arrow keys step through the game
    page.keyboard.press("ArrowLeft")
    page.wait_for_selector("#viewing:not([hidden])")
    assert piece_on(page, "e2") == "P"
    page.keyboard.press("End")
    page.wait_for_selector("#viewing", state="hidden")


def test_move_sounds_can_be_switched_off(page):
    start(page, "chess")
    click_move(page, "e2", "e4", 1)
    assert page.evaluate("document.body.dataset.lastSound") == "move"
    page.click("#sound")
    assert page.get_attribute("#sound", "aria-pressed") == "false"
    page.evaluate("delete document.body.dataset.lastSound")
    click_move(page, "e7", "e5", 2)
    assert page.evaluate("document.body.dataset.lastSound") is None
    page.reload()  # the choice is kept
    page.wait_for_selector("body[data-ready='1']")
    assert page.get_attribute("#sound", "aria-pressed") == "false"
    page.click("#sound")
    click_move(page, "d2", "d4", 3)
    assert page.evaluate("document.body.dataset.lastSound") == "move"


def test_the_engine_reply_is_pushed_and_its_line_is_san_from_whites_view(page):
    start(page, "chess", black="engine", level=2)
    gid = game_id(page)
    polls = []
    page.on("request", lambda r: polls.append(r.url) if r.method == "GET" and r.url.endswith(gid) else None)
    page.evaluate("""() => {
        window.seen = null;
        new MutationObserver(() => {
            if (!window.seen && document.querySelector("#moves .mv[data-ply='2']")) window.seen = Date.now();
        }).observe(document.getElementById('moves'), {childList: true, subtree: true});
    }""")
    click_move(page, "e2", "e4", 1)
    wait_plies(page, 2)
    assert not polls, polls  # no polling: the event stream brought the reply
    state = page.evaluate("async id => (await fetch(`/api/games/${id}`)).json()", gid)
    played = datetime.fromisoformat(state["history"][1]["at"].replace("Z", "+00:00"))
    shown = datetime.fromtimestamp(page.evaluate("window.seen") / 1000, UTC)
    assert (shown - played).total_seconds() < 0.45, shown - played
    line = page.inner_text("#engine-line")
    info = state["engine"]
    assert line.startswith(f"Engine (Black) played 1… {info['san']} · depth {info['depth']} · eval "), line
    assert f"{info['score_white'] / 100:+.2f} (White's view)" in line
    assert "line: 1… " + info["san"] in line
    assert not re.search(r"\b[a-h][1-8][a-h][1-8]\b", line)  # SAN, not coordinates


def test_variant_list_shows_titles_and_pasted_definitions_once_each(page):
    options = page.eval_on_selector_all("#variant option", "os => os.map(o => [o.value, o.textContent])")
    assert ["chess", "Orthodox chess"] in options
    assert all(value != text for value, text in options)
    first = "files=6 ranks=6 promoZone=0\nwazir:W:W:wazir:a1\nking:K:K:king:c1"
    second = "files=6 ranks=6 promoZone=0\nferz:F:F:ferz:a1\nking:K:K:king:c1"
    for text in (first, second, first):
        page.fill("#definition", text)
        page.click("#load-definition")
        page.wait_for_function("t => document.getElementById('variant-name').textContent.includes(t)",
                               arg="wazir" if text == first else "ferz")
    pasted = [t for _, t in page.eval_on_selector_all("#variant option", "os => os.map(o => [o.value, o.textContent])")
              if t.endswith("(pasted)")]
    assert len(pasted) == len(set(pasted)) >= 2
    assert not any(t.startswith("custom") for t in pasted)


def test_exported_pgn_has_the_date_and_players(page):
    page.fill("#name", "Ann")
    page.dispatch_event("#name", "change")
    start(page, "chess", black="engine", level=1)
    click_move(page, "e2", "e4", 1)
    wait_plies(page, 2)
    page.click("#export-pgn")
    page.wait_for_function("() => document.getElementById('record-text').value.includes('[Date')")
    pgn = page.input_value("#record-text")
    today = datetime.now(UTC).strftime("%Y.%m.%d")
    assert f'[Date "{today}"]' in pgn
    assert '[Black "morphchess engine, level 1"]' in pgn
    assert '[White "?"]' not in pgn


def test_the_board_follows_the_window_size(pages):
    page = pages.open(viewport={"width": 1920, "height": 1080})
    big = page.locator("#board").bounding_box()["width"]
    page.set_viewport_size({"width": 1100, "height": 700})
    page.wait_for_timeout(100)
    small = page.locator("#board").bounding_box()["width"]
    assert big > 800 and small < big * 0.75, (big, small)
    assert page.evaluate("document.documentElement.scrollWidth") <= 1100


def test_without_the_event_stream_the_page_polls(page):
    page.route("**/events*", lambda route: route.fulfill(status=404, content_type="application/json",
                                                          body='{"error": {"code": "not_found", "message": "no"}}'))
    start(page, "chess", black="engine", level=1)
    click_move(page, "e2", "e4", 1)
    wait_plies(page, 2)  # the engine's reply came by polling the game
    assert page.inner_text("#connection") == ""


def test_the_engine_takes_over_a_side_and_shows_its_line_while_it_thinks(page):
    start(page, "chess", black="human", level=7)  # 3 s a move
    click_move(page, "e2", "e4", 1)
    page.select_option("#black", "engine")  # takes effect at once: the engine is to move
    page.wait_for_function("() => /line: 1… \\S+/.test(document.getElementById('engine-line').textContent)")
    line = page.inner_text("#engine-line")
    assert line.startswith("Engine (Black) thinking · depth ") and "(White's view)" in line, line
    assert page.inner_text("#status") == "Black to move: the engine is thinking"
    page.click("#flip")  # the page still answers
    page.click("#stop")
    wait_plies(page, 2)
    assert "(stopped)" in page.inner_text("#engine-line")


def test_a_finger_drags_a_piece(pages):
    page = pages.open(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    start(page, "chess")
    a, b = sq(page, "g1").bounding_box(), sq(page, "f3").bounding_box()
    cdp = page.context.new_cdp_session(page)
    x0, y0 = a["x"] + a["width"] / 2, a["y"] + a["height"] / 2
    points = [(x0 + (b["x"] - a["x"]) * i / 6, y0 + (b["y"] - a["y"]) * i / 6) for i in range(7)]
    for kind, (x, y) in zip(["touchStart"] + ["touchMove"] * 6, points):
        cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": [{"x": x, "y": y}]})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    wait_plies(page, 1)
    assert piece_on(page, "f3") == "N"


def test_castling_by_clicks_orthodox_and_fischer(page):
    """Orthodox castling: the king onto its target; Fischer castling (a shuffled array, here BQNRNBKR
    where the king stays on g1): the king onto its partner, as its move text says (g1h1)."""
    new_game_via_api(page, variant="chess", fen="4k3/8/8/8/8/8/8/4K2R w K - 0 1", black="human")
    click_move(page, "e1", "g1", 1)
    assert piece_on(page, "g1") == "K" and piece_on(page, "f1") == "R" and piece_on(page, "h1") is None
    new_game_via_api(page, definition=CHESS960, setup="shuffle-5", moves=["g2g3", "a7a6", "f1g2", "a6a5"],
                     black="human")
    click_move(page, "g1", "h1", 5)
    assert piece_on(page, "g1") == "K" and piece_on(page, "f1") == "R" and piece_on(page, "h1") is None
    assert page.inner_text("#moves .mv[data-ply='5']").strip() == "O-O"


def test_a_swap_and_a_capture_to_one_square_are_offered_by_name(page):
    """XBetza RucR: a1 to a5 takes the rook there, or swaps places with it; the chooser names both."""
    new_game_via_api(page, definition="files=5 ranks=5\nswapper:S:RucR::a1\nking:K:K::e2", black="human")
    sq(page, "a1").click()
    sq(page, "a5").click()
    page.wait_for_selector("#chooser:not([hidden])")
    assert page.inner_text("#chooser-title") == "Which move"
    labels = page.locator("#chooser-options button").all_inner_texts()
    assert any("swapping places" in text for text in labels) and len(labels) == 2
    page.click("#chooser-options button[data-uci='a1a1,a1a5']")
    wait_plies(page, 1)
    assert piece_on(page, "a5") == "S" and piece_on(page, "a1") == "s"
