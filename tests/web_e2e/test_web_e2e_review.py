"""The engine's review on the game page: the Review button after the game, the evaluation graph, the
marked moves in the move list, and a marked move's better move drawn on the board."""

from __future__ import annotations

import pytest

from web_e2e_support import SHOTS, click_move, new_game_via_api, serious_findings

pytestmark = pytest.mark.slow  # a browser: left out of the fast loop (-m "not slow")

QUEEN_GIVEN = ["e4", "e5", "Nf3", "Nc6", "Bc4", "Qh4", "Nxh4"]  # 3...Qh4?? gives the queen away


def test_a_game_mated_on_the_board_shows_its_review_without_a_click(page, live_server):
    reviews = live_server.srv.config.app.state.reviews
    reviews.waiting = 3  # this server's games are reviewed as they end (as by default; tests switch it off)
    try:
        new_game_via_api(page, variant="chess", black="human", moves=["f3", "e5", "g4"])
        assert page.locator("#review").is_hidden()
        click_move(page, "d8", "h4", 4)  # mate
        page.wait_for_function("() => document.getElementById('review-status').textContent.startsWith('Reviewed')",
                               timeout=120_000)
    finally:
        reviews.waiting = 0
    assert page.locator("#review-start").is_hidden()  # never needed
    assert len(page.get_attribute("#review-graph polyline", "points").split()) == 5  # the start and every move
    assert page.locator("#moves .mv[data-ply='3']").inner_text() == "g4??"


def test_review_graph_and_the_better_move_of_a_marked_move(page):
    game = new_game_via_api(page, variant="chess", black="human", moves=QUEEN_GIVEN)
    assert page.locator("#review").is_hidden()  # not while the game goes on
    page.evaluate("""([id, token]) => fetch(`/api/games/${id}/resign`, {method: 'POST', body: '{"side": "black"}',
        headers: {'Content-Type': 'application/json', Authorization: `Bearer ${token}`}})""",
                  [game["id"], game["seat"]["token"]])  # a local game has no Resign button
    page.wait_for_selector("#review-start:visible").click()
    page.wait_for_function("() => document.getElementById('review-status').textContent.startsWith('Reviewed')",
                           timeout=120_000)
    assert page.locator("#review-start").is_hidden()
    points = page.get_attribute("#review-graph polyline", "points").split()
    assert len(points) == len(QUEEN_GIVEN) + 1  # the start and every move
    worst = page.locator("#moves .mv[data-ply='6']")
    assert worst.inner_text() == "Qh4??" and "mark-blunder" in worst.get_attribute("class")
    assert page.locator("#review-graph circle.mark-blunder[data-ply='6']").count() == 1
    review = page.evaluate("id => fetch(`/api/games/${id}/review`).then(r => r.json())", game["id"])
    best = review["plies"][5]["best_uci"]
    worst.click()
    arrow = page.wait_for_selector("#board .marks .mark-arrow")
    assert arrow.get_attribute("data-from") + arrow.get_attribute("data-to") == best[:4]
    assert f"prefers {review['plies'][5]['best']}" in page.inner_text("#review-better")
    assert not page.locator("#viewing").is_hidden()  # the position before the move
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "review-better-move.png"))
    assert not serious_findings(page)
