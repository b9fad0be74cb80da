"""Text is never markup (issue 19): a pasted definition, a player's name and a record full of markup
reach the page as text, for a player and for a spectator who only watches; the server's
Content-Security-Policy forbids inline script, and the page raises no violation of it in normal use."""

from __future__ import annotations

import urllib.request

import pytest

from web_e2e_support import TIMEOUT, sq

pytestmark = pytest.mark.slow  # a browser: left out of the fast loop (-m "not slow")

# Markup in every field the page shows; whitespace splits a definition's items, so the tags use '/'.
TITLE = "<img/src/onerror=__pwned='title'><b>T</b>"
AUTHOR = "<h1>Mallory</h1><img/src/onerror=__pwned='author'>"
SETUP = "<img/src/onerror=__pwned='setup'>"
KNIGHT = 'a"><h1>BIG</h1><b>'
NAME = "<img/src/onerror=__pwned='name'><b>x"
EVIL = f"""# Evil (8x8) by {AUTHOR}. <i>about</i><img/src/onerror=__pwned='about'> more
title={TITLE}
files=8 ranks=8 promoZone=1 promoChoice=QN royal=2
pawn:P:fmWfcF:pawn:a2-h2
king<h1>K</h1>:K:K:<img/src/onerror=__pwned='image'>:e1
{KNIGHT}:N:N:<svg/onload=__pwned='image2'>:b1,g1
<i>rook</i>:R:R:rook:a1,h1
<script>alert(1)</script>queen:Q:Q:queen:d1
setup={SETUP}:rn1qk1nr/pppppppp/8/8/8/8/PPPPPPPP/RN1QK1NR
"""

# Set before the page's own scripts: what a page must never see.
WATCH = """
window.__csp = [];
document.addEventListener("securitypolicyviolation",
  (e) => window.__csp.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`));
"""
# Anything the markup could have made: elements, event-handler attributes, foreign images.
INJECTED = """() => {
  const bad = [];
  for (const e of document.querySelectorAll("*")) {
    for (const a of e.attributes) if (a.name.startsWith("on")) bad.push(`${e.tagName} ${a.name}`);
  }
  const own = ":not(.marks):not(.points):not(#review-graph)";  // the page's own drawings
  for (const e of document.querySelectorAll(`b, i, svg${own}, script:not([src])`)) bad.push(e.tagName);
  for (const e of document.querySelectorAll("h1")) if (!e.closest("header")) bad.push("H1");
  for (const img of document.querySelectorAll("img")) {
    if (!img.src.startsWith("data:image/svg+xml")) bad.push(`IMG ${img.src}`);
  }
  return {bad, pwned: window.__pwned === undefined ? null : String(window.__pwned), csp: window.__csp};
}"""


def watched(pages, path: str):
    """A page in a new context (one person) that records dialogs and CSP violations from its start."""
    context = pages.browser.new_context(base_url=pages.server, viewport={"width": 1280, "height": 900})
    context.set_default_timeout(TIMEOUT)
    context.add_init_script(WATCH)
    pages.contexts.append(context)
    page = context.new_page()
    page.dialogs = []
    page.on("dialog", lambda d: (page.dialogs.append(d.message), d.dismiss()))
    page.on("pageerror", lambda e: pages.errors.append(str(e)))
    page.goto(path)
    return page


def assert_inert(page) -> None:
    page.wait_for_timeout(300)  # an image's error event fires soon after it is added
    found = page.evaluate(INJECTED)
    assert found == {"bad": [], "pwned": None, "csp": []}
    assert page.dialogs == []


def create(page, **spec) -> dict:
    return page.evaluate("""async spec => {
        const r = await fetch('/api/games', {method: 'POST', headers: {'Content-Type': 'application/json'},
            body: JSON.stringify(spec)});
        return r.json();
    }""", spec)


def assert_text_shown(page) -> None:
    assert page.inner_text("#variant-name") == TITLE
    assert AUTHOR in page.inner_text("#variant-about")
    assert "<i>about</i>" in page.inner_text("#variant-about")
    assert SETUP in page.eval_on_selector_all("#setup option", "os => os.map(o => o.textContent)")
    assert TITLE in page.eval_on_selector_all("#variant option", "os => os.map(o => o.textContent)")[-1]
    names = page.eval_on_selector_all(".legend-card .name", "els => els.map(e => e.textContent)")
    assert f"{KNIGHT} (N)" in names and "<script>alert(1)</script>queen (Q)" in names
    assert page.inner_text("#rules").startswith(f"{TITLE}: 8×8")
    assert NAME in page.inner_text("#players")


def test_markup_in_a_definition_and_a_name_stays_text_for_the_player_and_a_spectator(pages):
    player = watched(pages, "/")
    player.wait_for_selector("body[data-ready='1']")
    game = create(player, definition=EVIL, setup=SETUP, mode="invite", side="white", name=NAME)
    assert "seat" in game, game
    player.goto(game["seat"]["link"])
    player.wait_for_selector("body[data-ready='1']")
    spectator = watched(pages, game["watch"])  # another person, who holds no seat: only watches
    spectator.wait_for_selector("body[data-ready='1']")
    for page in (player, spectator):
        page.wait_for_function("() => document.querySelectorAll('.legend-card').length === 5")
        assert_text_shown(page)
        assert_inert(page)
    assert "you are watching" in spectator.inner_text("#players")


def test_markup_in_piece_names_stays_text_in_the_promotion_chooser_and_the_moves(pages):
    page = watched(pages, "/")
    page.wait_for_selector("body[data-ready='1']")
    game = create(page, definition=EVIL, fen="4k3/P7/8/8/8/8/8/4K3 w - - 0 1", white="human", black="human")
    page.goto(game["seat"]["link"])
    page.wait_for_selector("body[data-ready='1']")
    sq(page, "a7").click()
    sq(page, "a8").click()
    page.wait_for_selector("#chooser:not([hidden])")
    labels = page.locator("#chooser-options button").all_inner_texts()
    assert any(KNIGHT.lower() in label for label in labels), labels  # the chooser writes names in lower case
    assert_inert(page)
    page.click("#chooser-options button[data-uci='a7a8n']")
    page.wait_for_selector("#moves .mv[data-ply='1']")
    assert_inert(page)


def test_markup_in_a_seek_stays_text_in_the_lobby(pages):
    page = watched(pages, "/")
    page.wait_for_selector("body[data-ready='1']")
    create(page, definition=EVIL, mode="open", side="white", name=NAME)
    lobby = watched(pages, "/lobby")
    row = lobby.locator("#open tbody tr", has_text=NAME)
    assert row.count() == 1 and TITLE in row.inner_text()
    assert_inert(lobby)


def test_markup_in_an_imported_record_stays_text(pages):
    page = watched(pages, "/")
    page.wait_for_selector("body[data-ready='1']")
    page.fill("#record-text", f'[White "{NAME}"]\n[Black "<h1>B</h1>"]\n\n1. e4 e5 *')
    page.click("#import")
    page.wait_for_selector("#moves .mv[data-ply='2']")
    assert_inert(page)


def headers_of(url: str) -> dict[str, str]:
    with urllib.request.urlopen(url, timeout=10) as answer:
        return {k.lower(): v for k, v in answer.headers.items()}


@pytest.mark.parametrize("path", ["/", "/lobby", "/docs", "/api/variants", "/static/js/main.js"])
def test_every_answer_carries_a_policy_without_inline_script(server, path):
    h = headers_of(server + path)
    policy = {d.split()[0]: d.split()[1:] for d in h["content-security-policy"].split(";") if d.strip()}
    assert policy["script-src"] == ["'self'"] and policy["style-src"] == ["'self'"]
    assert policy["frame-ancestors"] == ["'none'"] and policy["object-src"] == ["'none'"]
    assert h["x-content-type-options"] == "nosniff"
    assert h["referrer-policy"] == "same-origin"


def test_no_policy_violation_in_normal_use(pages):
    page = watched(pages, "/")
    page.wait_for_selector("body[data-ready='1']")
    page.select_option("#black", "engine")
    page.select_option("#level", "1")
    sq(page, "g1").click()  # picked up: targets drawn
    sq(page, "f3").click()
    page.wait_for_selector("#moves .mv[data-ply='2']")
    box = sq(page, "e2").bounding_box()
    page.mouse.click(box["x"] + 5, box["y"] + 5, button="right")  # a circle mark
    page.click("#flip")
    page.fill("#definition", "files=6 ranks=6\nking:K:K:king:c1\nrook:R:R:rook:a1\nknight:N:N:knight:b1")
    page.click("#load-definition")
    page.wait_for_function("() => document.querySelectorAll('#board .sq').length === 36")
    page.click("#export-pgn")
    page.wait_for_function("() => document.querySelector('#record-text').value.includes('[Event')")
    assert page.evaluate("window.__csp") == []
    for path in ("/lobby", "/docs"):
        other = watched(pages, path)
        if path == "/docs":
            other.wait_for_selector(".opblock")
        other.wait_for_timeout(300)
        assert other.evaluate("window.__csp") == [], path
