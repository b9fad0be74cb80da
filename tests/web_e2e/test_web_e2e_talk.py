"""Talk through the page: a player and a spectator (on a phone) write, markup stays text, the
players close the talk to spectators, and the PGN keeps the talk as comments; the number of spectators."""

from __future__ import annotations

import pytest

from web_e2e_support import SHOTS, click_move, invite, serious_findings, show_tab, wait_plies

pytestmark = pytest.mark.slow  # a browser: left out of the fast loop (-m "not slow")

PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
MARKUP = '<img src=x onerror="window.pwned=1"><b>bold?</b>'


def say(page, text: str) -> None:
    page.fill("#talk-input", text)
    page.press("#talk-input", "Enter")


def hide(page, hidden: bool) -> None:
    page.evaluate("""hidden => {
        const state = hidden ? 'hidden' : 'visible';
        Object.defineProperty(document, 'visibilityState', {get: () => state, configurable: true});
        document.dispatchEvent(new Event('visibilitychange'));
    }""", hidden)


def wait_talk(page, n: int) -> None:
    page.wait_for_function("n => document.querySelectorAll('#talk-messages li').length >= n", arg=n)


def test_a_player_and_a_spectator_talk_markup_stays_text_and_the_talk_closes(pages):
    ann, bob, watcher = invite(pages, **PHONE)
    ann.wait_for_function("() => document.getElementById('audience').textContent === '1 spectator watching'")
    second = pages.open(watcher.url)
    bob.wait_for_function("() => document.getElementById('audience').textContent === '2 spectators watching'")
    second.close()
    bob.wait_for_function("() => document.getElementById('audience').textContent === '1 spectator watching'")
    hide(watcher, True)  # a page out of view closes its talk stream, and opens it again in view
    bob.wait_for_function("() => document.getElementById('audience').textContent === ''")
    say(bob, "while you were away")
    wait_talk(ann, 1)
    hide(watcher, False)
    wait_talk(watcher, 1)
    assert watcher.inner_text("#talk-messages li") == "Bob: while you were away"
    bob.wait_for_function("() => document.getElementById('audience').textContent === '1 spectator watching'")
    click_move(ann, "e2", "e4", 1)
    wait_plies(watcher, 1)
    say(ann, MARKUP)
    for page in (ann, bob, watcher):  # live, through the talk's event stream
        wait_talk(page, 2)
    item = watcher.locator("#talk-messages li").nth(1)
    assert item.inner_text() == f"Ann: {MARKUP}"
    assert watcher.locator("#talk-messages img, #talk-messages b").count() == 0
    assert not watcher.evaluate("window.pwned")

    show_tab(watcher, "talk")  # a phone: the talk is a tab below the board
    watcher.locator("#talk-input").tap()
    say(watcher, "nice opening")
    wait_talk(ann, 3)
    assert ann.locator("#talk-messages li").nth(2).inner_text() == "spectator: nice opening"
    assert watcher.evaluate("document.documentElement.scrollWidth") <= 390
    assert watcher.locator("#talk-spectators-label").is_hidden()  # only the players may close it
    assert not serious_findings(watcher)

    assert bob.is_checked("#talk-spectators")
    bob.uncheck("#talk-spectators")
    watcher.wait_for_function("() => document.getElementById('talk-input').disabled")
    assert "closed" in watcher.get_attribute("#talk-input", "placeholder")
    status = watcher.evaluate("""async id => (await fetch(`/api/games/${id}/talk`, {method: 'POST',
        headers: {'Content-Type': 'application/json'}, body: JSON.stringify({text: 'sneak'})})).status""",
                              watcher.evaluate("location.pathname.split('/').pop()"))
    assert status == 403
    say(bob, "thanks")
    wait_talk(ann, 4)
    assert not serious_findings(ann)
    SHOTS.mkdir(parents=True, exist_ok=True)
    ann.locator("#talk").screenshot(path=str(SHOTS / "talk.png"))

    ann.click("#export-pgn")
    ann.wait_for_function("() => document.getElementById('record-text').value.includes('thanks')")
    record = " ".join(ann.input_value("#record-text").split())
    assert "{Bob: while you were away} 1. e4 {Ann: <img" in record
    assert "spectator: nice opening | Bob: thanks}" in record
