"""Tournaments in Chromium: an arena of four (one player makes it, its name with markup shown as text;
four join, each page opens its player's game by itself, the board links the tournament, Black resigns,
the summary offers no rematch but the way back to the tournament, where the players are paired again;
at its end the standings are final and the tournament links its games), and a Swiss tournament of
three (a bye, the next round opened by itself)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import create_engine, update

from morphchess.web.db import now
from morphchess.web.tournaments import tournaments

from web_e2e_support import SHOTS, serious_findings

pytestmark = pytest.mark.slow  # browsers: left out of the fast loop (-m "not slow")

NAMES = ("Ann-t", "Bob-t", "Cid-t", "Dee-t")
TITLE = "<b>Four</b> & <img src=x>"


def moved(live_server, where, **times) -> None:
    """Set a tournament's times in the server's database (as if the clock had moved on)."""
    engine = create_engine(f"sqlite:///{live_server.tmp / 'games.db'}")
    with engine.begin() as conn:
        conn.execute(update(tournaments).where(where).values(**times))
    engine.dispose()


def signed_up(pages, name: str):
    page = pages.open("/tournaments", wait_ready=False)
    r = page.request.post("/api/account/signup", data={"name": name, "password": "a long password"})
    assert r.ok, r.text()
    return page


def in_game(page) -> str:
    """The id of the game the tournament page opened (with this browser's seat)."""
    page.wait_for_url("**/game/*")
    page.wait_for_selector("body[data-ready='1']")
    page.wait_for_selector("#players:has-text('you play')")
    return page.url.rsplit("/", 1)[-1].split("#")[0]


def resign_as_black(people: dict[str, object]) -> set[str]:
    """Black resigns in every game; the names of the winners."""
    winners = set()
    for name, page in people.items():
        if "you play black" in page.inner_text("#players"):
            page.once("dialog", lambda d: d.accept())
            page.click("#resign")
            page.wait_for_function("() => document.getElementById('status').textContent.includes('resigned')")
        else:
            winners.add(name)
    return winners


def points(page) -> dict[str, int]:
    rows = page.locator("#tournament-standings tbody tr")
    return {rows.nth(i).locator("td").nth(1).locator("a").inner_text(): int(rows.nth(i).locator("td").nth(4)
            .inner_text()) for i in range(rows.count())}


def test_an_arena_of_four_runs_to_its_standings(pages, live_server):
    people = {name: signed_up(pages, name) for name in NAMES}
    ann = people["Ann-t"]
    ann.reload()
    ann.wait_for_selector("#tournaments-new:not([hidden])")
    ann.fill("#tournament-name", TITLE)
    ann.fill("#tournament-minutes", "30")
    ann.click("#tournaments-new button[type=submit]")
    ann.wait_for_url("**/tournaments/*")
    link = ann.url
    ann.wait_for_function("t => document.getElementById('tournament-name').textContent === t", arg=TITLE)
    assert ann.locator("#tournament-name b, #tournament-name img").count() == 0  # text, not markup
    for page in people.values():
        page.goto(link)
        page.click("#tournament-join")
    first = {name: in_game(page) for name, page in people.items()}
    assert len(set(first.values())) == 2
    # the board links its tournament, named as text
    ann.wait_for_function("t => (document.getElementById('game-tournament-link') || {}).textContent === t", arg=TITLE)
    assert link.endswith(ann.get_attribute("#game-tournament-link", "href"))
    assert ann.locator("#game-tournament b, #game-tournament img").count() == 0
    winners = resign_as_black(people)
    for page in people.values():  # no rematch, but back to the tournament, whose page opens the next game
        page.wait_for_selector("#summary-tournament")
        assert page.locator("#rematch-offer").count() == 0
        page.click("#summary-tournament")
    second = {name: in_game(page) for name, page in people.items()}
    assert len(set(second.values())) == 2 and not set(second.values()) & set(first.values())
    pairs = {frozenset(n for n in NAMES if second[n] == gid) for gid in set(second.values())}
    assert frozenset(winners) in pairs  # the winners meet, and so do the losers: nobody meets the same one
    moved(live_server, tournaments.c.kind == "arena", starts=now() - timedelta(minutes=30), ends=now())
    ann.goto(link)
    ann.wait_for_selector("#tournament-clock:has-text('final')")
    assert points(ann) == {n: 2 if n in winners else 0 for n in NAMES}
    played = ann.locator("#tournament-played li a")  # the first round's games; the second's did not end
    assert sorted(played.nth(i).get_attribute("href") for i in range(played.count())) == \
        sorted(f"/game/{gid}" for gid in set(first.values()))
    assert ann.locator("#tournament-join").is_hidden() and ann.locator("#tournament-withdraw").is_hidden()
    assert not serious_findings(ann)
    SHOTS.mkdir(parents=True, exist_ok=True)
    ann.screenshot(path=str(SHOTS / "arena-standings.png"), full_page=True)


def test_a_swiss_tournament_of_three_gives_a_bye_and_pairs_its_next_round(pages, live_server):
    people = {name: signed_up(pages, name) for name in ("Ann-s", "Bob-s", "Cid-s")}
    ann = people["Ann-s"]
    ann.reload()
    ann.wait_for_selector("#tournaments-new:not([hidden])")
    ann.fill("#tournament-name", "Three rounds")
    ann.select_option("#tournament-kind", "swiss")
    ann.fill("#tournament-rounds", "2")
    ann.fill("#tournament-starts", "1")  # everyone joins before the first round
    SHOTS.mkdir(parents=True, exist_ok=True)
    ann.screenshot(path=str(SHOTS / "tournament-form.png"), full_page=True)
    assert not serious_findings(ann)
    ann.click("#tournaments-new button[type=submit]")
    ann.wait_for_url("**/tournaments/*")
    link = ann.url
    for page in people.values():
        page.goto(link)
        page.click("#tournament-join")
    ann.wait_for_selector("#tournament-facts:has-text('Swiss, round 0 of 2')")
    moved(live_server, tournaments.c.name == "Three rounds", starts=now())
    # the last to join ranks lowest: Cid waits with the bye while Ann and Bob play
    playing = {name: in_game(page) for name, page in people.items() if name != "Cid-s"}
    cid = people["Cid-s"]
    cid.wait_for_selector("#tournament-you:has-text('Waiting for the next round')")
    cid.wait_for_selector("#tournament-standings td:has-text('bye')")
    assert not cid.locator("#tournament-tiebreak").is_hidden()
    resign_as_black({name: people[name] for name in playing})
    cid_game = in_game(cid)  # round two opens by itself on Cid's page
    assert cid_game not in playing.values()
    assert not serious_findings(cid)
    watcher = pages.open(link, wait_ready=False)  # anyone may watch
    watcher.wait_for_selector("#tournament-facts:has-text('Swiss, round 2 of 2')")
    watcher.wait_for_selector("#tournament-games li a")
    assert watcher.locator("#tournament-join").is_hidden()  # no account: nothing to join with
    watcher.screenshot(path=str(SHOTS / "swiss-standings.png"), full_page=True)
