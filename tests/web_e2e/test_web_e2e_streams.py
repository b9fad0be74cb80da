"""The game page follows its game by the event stream's changes (``?changes=true``): a move played in one
page reaches the others as a small ``change`` event, and after a reconnection the page is right again."""

from __future__ import annotations

import json
import urllib.request

import pytest

from web_e2e_support import click_move, game_id, invite, wait_plies

pytestmark = pytest.mark.slow  # a browser: left out of the fast loop (-m "not slow")

# Records every event of the page's game streams (not the talk's): [type, size of its data, its data].
SPY = """
window.gameEvents = [];
const Original = window.EventSource;
window.EventSource = class extends Original {
  constructor(url, options) {
    super(url, options);
    if (!/\\/events\\?/.test(url) || /\\/talk\\//.test(url)) return;
    window.gameEvents.push(["url", url.length, url]);
    for (const type of ["state", "change", "move"]) {
      this.addEventListener(type, (e) => window.gameEvents.push([type, e.data.length, e.data]));
    }
  }
};
"""

SHOWN = """() => ({
  squares: [...document.querySelectorAll('#board .sq')].map((s) => {
    const img = s.querySelector('.piece-img');
    return [s.dataset.square, img ? img.dataset.piece : null];
  }),
  moves: [...document.querySelectorAll('#moves .mv')].map((m) => m.textContent),
  version: document.body.dataset.version,
})"""


def spied(page) -> None:
    """Reload ``page`` with its game streams' events recorded."""
    page.context.add_init_script(SPY)
    page.reload()
    page.wait_for_selector("body[data-ready='1']")


def events(page) -> list[list]:
    return page.evaluate("window.gameEvents")


def server_state(url: str, gid: str) -> bytes:
    with urllib.request.urlopen(f"{url}/api/games/{gid}", timeout=10) as answer:
        return answer.read()


def server_sans(url: str, gid: str) -> list[str]:
    return [m["san"] for m in json.loads(server_state(url, gid))["history"]]


def shows_the_game(page, pages, url: str) -> None:
    """``page`` shows what a page freshly opened on its game shows, and the server's moves."""
    gid = game_id(page) or page.evaluate("location.pathname.split('/').pop()")
    fresh = pages.open(f"/game/{gid}")
    fresh.wait_for_function("n => document.querySelectorAll('#moves .mv').length === n",
                            arg=len(server_sans(url, gid)))
    page.wait_for_function("v => document.body.dataset.version === v", arg=fresh.evaluate(SHOWN)["version"])
    assert page.evaluate(SHOWN) == fresh.evaluate(SHOWN)
    assert page.evaluate(SHOWN)["moves"] == server_sans(url, gid)


def test_moves_reach_a_watcher_as_changes_also_after_a_take_back_and_a_reconnection(pages, live_server):
    ann, bob, watcher = invite(pages)
    spied(watcher)
    url = live_server.url
    for page, frm, to, ply in ((ann, "e2", "e4", 1), (bob, "e7", "e5", 2), (ann, "g1", "f3", 3)):
        click_move(page, frm, to, ply)
        wait_plies(watcher, ply)
    shows_the_game(watcher, pages, url)
    seen = events(watcher)
    assert [e[0] for e in seen[:2]] == ["url", "state"] and "changes=true" in seen[0][2]
    later = seen[2:]
    assert [e[0] for e in later if e[0] != "change"] == ["move"] * 3  # one move event a move, no whole state
    assert [json.loads(e[2])["san"] for e in later if e[0] == "move"] == ["e4", "e5", "Nf3"]
    changes = [json.loads(e[2]) for e in later if e[0] == "change"]
    assert changes and all("history" not in c for c in changes)
    assert later[-1][1] < len(server_state(url, game_id(ann))) - 600  # not the history, nor what stayed

    # a take back (of Black's last move, with White's after it): a change to a smaller ply
    bob.click("#undo")
    ann.wait_for_selector("#offers button[data-what='takeback'][data-answer='accept']")
    ann.click("#offers button[data-what='takeback'][data-answer='accept']")
    watcher.wait_for_function("() => document.querySelectorAll('#moves .mv').length === 1")
    shows_the_game(watcher, pages, url)
    assert "state" not in [e[0] for e in events(watcher)[2:]]

    # the watcher's stream is cut (the server restarts) and cannot come back while two moves are played
    watcher.route("**/events?*", lambda route: route.abort() if "/talk/" not in route.request.url
                  else route.continue_())
    live_server.stop()
    live_server.start()
    before = len(events(watcher))
    for page in (ann, bob):
        page.wait_for_function("() => document.getElementById('connection').textContent === ''")
    click_move(bob, "b8", "c6", 2)
    click_move(ann, "g1", "f3", 3)
    watcher.unroute("**/events?*")
    wait_plies(watcher, 3)
    watcher.wait_for_function("n => window.gameEvents.slice(n).some((e) => e[0] === 'state')", arg=before)
    shows_the_game(watcher, pages, url)
    after = events(watcher)[before:]
    assert [json.loads(e[2])["san"] for e in after if e[0] == "move"] == ["Nc6", "Nf3"]  # from Last-Event-ID

    # and the next move comes as a change again, on top of the state the reconnection brought
    count = len(events(watcher))
    click_move(bob, "a7", "a6", 4)
    wait_plies(watcher, 4)
    shows_the_game(watcher, pages, url)
    assert [e[0] for e in events(watcher)[count:]] == ["move", "change"]
