"""The page's details, each driven through the page in Chromium: the docs page, the panel beside a long
engine line, holes, multi-leg move diagrams, typed moves, resigning, notes,
scrolling, morph badges, loading, the favicon and the online choices."""

from __future__ import annotations

import json
import tomllib
import urllib.request
from pathlib import Path

import pytest

from web_e2e_support import game_id, new_game_via_api, sq, start, wait_plies

pytestmark = pytest.mark.slow  # a browser: left out of the fast loop (-m "not slow")

ROOT = Path(__file__).resolve().parents[2]
DEFINITIONS = ROOT / "tests" / "definitions"


def load_definition(page, name: str, squares: int) -> None:
    page.fill("#definition", (DEFINITIONS / name).read_text(encoding="utf-8"))
    page.click("#load-definition")
    page.wait_for_function(f"() => document.querySelectorAll('#board .sq').length === {squares}")


def typed(page, text: str) -> None:
    page.fill("#move-input", text)
    page.press("#move-input", "Enter")


# 1. the README's first command installs what the Lab panel runs
def test_the_web_extra_installs_the_labs_libraries():
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["optional-dependencies"]
    web = {spec.split(">")[0].split("=")[0].split("[")[0] for spec in extras["web"]}
    assert {"numpy", "scipy", "matplotlib"} <= web  # lab/values.py, lab/plots.py
    assert "ray" not in web and any(spec.startswith("ray") for spec in extras["lab"])  # only for --ray


# 2. /docs renders the OpenAPI 3.1 document and lists every operation, from local files
def test_docs_page_lists_every_operation(pages, server):
    with urllib.request.urlopen(server + "/openapi.json", timeout=10) as answer:
        document = json.loads(answer.read())
    assert document["openapi"].startswith("3.1")
    expected = sorted((method.upper(), path) for path, ops in document["paths"].items() for method in ops)
    outside = []
    page = pages.open("/docs", wait_ready=False)
    page.on("request", lambda r: outside.append(r.url) if not r.url.startswith(server) else None)
    page.reload()
    page.wait_for_selector(".opblock")
    shown = page.eval_on_selector_all(".opblock", """els => els.map(e => [
        e.querySelector('.opblock-summary-method').textContent.trim(),
        e.querySelector('.opblock-summary-path').getAttribute('data-path')])""")
    assert sorted(map(tuple, shown)) == expected
    assert "Unable to render" not in page.inner_text("body")
    assert outside == []


# 3. a long engine line does not push the panel aside or under the board
def test_a_long_engine_line_leaves_the_panel_and_stop_in_place(page):
    start(page, "chess", black="engine", level=8)  # 10 s a move: thinking while we look
    panel = {k: v for k, v in page.locator("#panel").bounding_box().items() if k != "height"}
    typed(page, "e4")
    page.wait_for_selector("#stop:not([disabled])")
    line = "Engine (Black) thinking · depth 9 · eval +0.31 (White's view) · 6.2 s · line: " + "1… e5 2. Nf3 Nc6 " * 30
    page.eval_on_selector("#engine-line", "(e, text) => { e.textContent = text; }", line)
    assert {k: v for k, v in page.locator("#panel").bounding_box().items() if k != "height"} == panel
    stop = page.locator("#stop").bounding_box()
    assert stop["x"] >= 0 and stop["x"] + stop["width"] <= 1280 and stop["y"] >= 0 and stop["y"] + stop["height"] <= 900
    assert page.evaluate("scrollX") == 0 and page.evaluate("document.documentElement.scrollWidth") <= 1280
    page.click("#stop")
    wait_plies(page, 2)


# 4. Omega Chess's holes are drawn as holes, on the board and in the legend
def test_holes_are_drawn_as_holes(page):
    load_definition(page, "omega-chess.txt", 104)  # 12x12 less 40 holes
    assert page.locator("#board .hole").count() == 40
    assert page.locator("#board .hole[data-hole='a2']").count() == 1 and sq(page, "a2").count() == 0
    hole, square = (page.locator(sel).first.evaluate("e => getComputedStyle(e).backgroundImage + getComputedStyle(e)"
                                                    ".backgroundColor") for sel in ("#board .hole", "#board .sq"))
    assert hole != square
    cards = page.locator(".legend-card").count()
    assert page.locator(".legend-card .mini .hole").count() == 40 * cards


# 5. move diagrams of multi-leg pieces show where they go
def test_legend_shows_multi_leg_moves(page):
    load_definition(page, "xiangqi.txt", 90)
    elephant = page.eval_on_selector_all(".legend-card[data-letter='E'] .mini .mark", "els => els.length")
    horse = page.eval_on_selector_all(".legend-card[data-letter='H'] .mini .mark", "els => els.length")
    assert (elephant, horse) == (4, 8)  # afF: two diagonal steps; afsW: a step then one outward diagonal


# 6. and 7. a typed move: an illegal SAN move is called illegal; the focus stays for the next move
def test_illegal_san_is_called_illegal(page):
    start(page, "chess")
    typed(page, "Ke5")
    page.wait_for_selector("#notice:not(:empty)")
    notice = page.inner_text("#notice")
    assert "illegal move 'Ke5'" in notice and "coordinate" not in notice
    assert page.input_value("#move-input") == "Ke5"  # kept, to correct it


def test_focus_stays_in_the_move_box_between_typed_moves(page):
    start(page, "chess", black="engine", level=1)
    page.click("#move-input")
    typed(page, "e4")
    wait_plies(page, 2)  # the engine answered
    assert page.evaluate("document.activeElement.id") == "move-input"
    page.keyboard.type("Nf3")
    page.keyboard.press("Enter")
    wait_plies(page, 3)


# 10. resigning asks first, and is not offered in a local game
def test_resign_asks_for_confirmation_and_is_off_in_local_games(page):
    start(page, "chess")
    assert page.locator("#resign").is_disabled()
    new_game_via_api(page, variant="chess", mode="invite", side="white")
    page.wait_for_selector("#resign:not([disabled])")
    asked = []
    page.once("dialog", lambda d: (asked.append(d.message), d.dismiss()))
    page.click("#resign")
    page.wait_for_timeout(300)
    assert asked and "Resign" in asked[0] and "Game over" not in page.inner_text("#status")
    page.once("dialog", lambda d: d.accept())
    page.click("#resign")
    page.wait_for_function("() => document.getElementById('status').textContent.startsWith('Game over')")


# 11. a rule the page does not play is a note, not an error, and says what differs
def test_rules_not_played_are_a_note_saying_what_differs(page):
    load_definition(page, "xiangqi.txt", 90)
    page.wait_for_selector("#definition-note:not(:empty)")
    assert page.inner_text("#definition-error") == ""
    note = page.inner_text("#definition-note")
    assert note.startswith("Note:") and "every piece may leave the palace and cross the river" in note
    colour = page.eval_on_selector("#definition-note", "e => getComputedStyle(e).color")
    assert colour != page.eval_on_selector("#definition-error", "e => getComputedStyle(e).color")


# 12. scrolling, the move list, morph badges, loading, favicon, the online choices after a reload
def test_the_page_does_not_scroll_itself_and_the_first_row_shows(pages):
    page = pages.open(viewport={"width": 1280, "height": 400})  # the move list starts below the fold
    start(page, "chess", black="engine", level=1)
    page.evaluate("window.scrollTo(0, 0)")
    page.evaluate("document.getElementById('move-input').focus({preventScroll: true})")
    for n, move in enumerate(["e4", "Nf3", "Bc4"], start=1):
        page.keyboard.type(move)
        page.keyboard.press("Enter")
        wait_plies(page, 2 * n)
        assert page.evaluate("scrollY") == 0
    page.locator("#moves").scroll_into_view_if_needed()
    first, box = (page.locator(sel).bounding_box() for sel in ("#moves li >> nth=0", "#moves"))
    assert first["y"] >= box["y"] and first["y"] + first["height"] <= box["y"] + box["height"]


PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}


@pytest.mark.parametrize("device", [{}, PHONE], ids=["desktop", "phone"])
def test_morph_badge_on_an_empty_square_is_clear_and_not_under_the_dot(pages, device):
    page = pages.open(**device)
    start(page, "crossroads")
    sq(page, "f2").click()  # a Crossroads pawn on f3 becomes an amazon
    ghost = sq(page, "f3").locator(".preview.ghost")
    assert ghost.get_attribute("data-new") == "Z"
    assert float(ghost.evaluate("e => getComputedStyle(e).opacity")) >= 0.9
    dot = sq(page, "f3").evaluate("e => getComputedStyle(e, '::after').display")
    assert dot == "none"


def test_a_sign_shows_while_a_variant_loads(page):
    held = []  # the variant's request waits here until the sign has been seen
    page.route("**/api/variants/crossroads", lambda route: held.append(route))
    page.select_option("#variant", "crossroads")
    page.wait_for_selector("body[data-loading]")
    assert page.inner_text("#status").startswith("Loading")
    assert page.get_attribute("#board", "aria-busy") == "true"
    for _ in range(100):
        if held:
            break
        page.wait_for_timeout(50)
    assert held, "the variant's request never reached the route"
    held[0].continue_()
    page.wait_for_function("() => !document.body.dataset.loading"
                           " && document.querySelectorAll('#board .sq').length === 81")
    page.unroute("**/api/variants/crossroads")


def test_favicon_is_served(page, server):
    href = page.eval_on_selector("link[rel='icon']", "e => e.href")
    assert href.startswith(server)
    with urllib.request.urlopen(href, timeout=10) as answer:
        assert answer.headers["Content-Type"].startswith("image/svg+xml") and b"<svg" in answer.read()


def test_online_choices_match_the_game_after_a_reload(page):
    page.select_option("#online-side", "black")
    page.select_option("#time-control", "10+5")
    old = game_id(page)
    page.click("#invite")
    page.wait_for_function("old => JSON.parse(localStorage.getItem('morphchess.game')).id !== old", arg=old)
    page.wait_for_selector("#invite-link")
    page.reload()
    page.wait_for_selector("body[data-ready='1']")
    assert page.input_value("#online-side") == "black" and page.input_value("#time-control") == "10+5"
