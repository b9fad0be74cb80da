"""Tournaments through the API, each happy path beside its attack: making one (accounts only, bounded
length, size, rounds and clock, names kept as text, flooding refused), joining and withdrawing (once,
never after the end, CSRF needed), an arena's pairing as games end (scores, the streak, no immediate
rematch, never oneself), games nobody began, the start and the end at their times, and Swiss rounds
(paired when the last game of a round ends, byes, no repeats, the end after the last round).  SQLite
and PostgreSQL."""

from __future__ import annotations

from datetime import timedelta

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("argon2")
from fastapi.testclient import TestClient  # noqa: E402
from sqlalchemy import delete, select, update  # noqa: E402

from morphchess.web import create_app  # noqa: E402
from morphchess.web.db import games, hits, moves, now  # noqa: E402
from morphchess.web.limits import Limits  # noqa: E402
from morphchess.web.tournaments import FIRST_MOVE_S, OPEN_PER_ACCOUNT, entrants, tournaments  # noqa: E402
from test_web_accounts import Browser, error  # noqa: E402


@pytest.fixture(scope="module")
def app(db_url):
    app = create_app(db_url, 100000)
    with TestClient(app):
        yield app


_made = iter(range(10**6))


def player(app, prefix: str = "p") -> Browser:
    """A browser logged in to a new account."""
    browser = Browser(app)
    r = browser.enter("signup", f"{prefix}-{next(_made):03d}")
    assert r.status_code == 200, r.text
    return browser


def arena(browser: Browser, **spec) -> dict:
    r = browser.post("/api/tournaments", **{"name": "Evening arena", **spec})
    assert r.status_code == 200, r.text
    return r.json()


def look(browser: Browser, t: dict) -> dict:
    browser.http.app.state.tournaments._ticked.clear()  # as if the last check were long ago
    r = browser.http.get(f"/api/tournaments/{t['id']}")
    assert r.status_code == 200, r.text
    return r.json()


def join(browser: Browser, t: dict) -> dict:
    r = browser.post(f"/api/tournaments/{t['id']}/join")
    assert r.status_code == 200, r.text
    return r.json()


def two_playing(app) -> tuple[Browser, Browser, dict, str]:
    """Two players who joined a new arena, and the id of the game they were paired in."""
    ann, bob = player(app), player(app)
    t = arena(ann)
    join(ann, t)
    join(bob, t)
    return ann, bob, t, look(ann, t)["you"]["game"]


def seat(browser: Browser, gid: str) -> str:
    """The player's seat token of a tournament game, taken to this browser as the page does."""
    r = browser.post(f"/api/account/games/{gid}/seat")
    assert r.status_code == 200, r.text
    return r.json()["seat"]["token"]


def resign(browser: Browser, gid: str) -> None:
    r = browser.post(f"/api/games/{gid}/resign", seat(browser, gid))
    assert r.status_code == 200, r.text


def lines(view: dict) -> dict[str, dict]:
    return {line["name"]: line for line in view["standings"]}


def name_of(browser: Browser) -> str:
    return browser.http.get("/api/account").json()["account"]["name"]


def change(app, table, where, **values) -> None:
    with app.state.store.db.write() as conn:
        conn.execute(update(table).where(where).values(**values))


def test_four_players_are_paired_again_as_their_games_end(app):
    ann, bob, cid, dee = (player(app) for _ in range(4))
    t = arena(ann, minutes=30, max_players=8)
    assert t["state"] == "running" and t["players"] == 0 and t["by"] == name_of(ann)
    for p in (ann, bob, cid, dee):
        join(p, t)
    view = look(ann, t)
    assert len(view["games"]) == 2 and view["players"] == 4
    first = {frozenset((g["white"], g["black"])): g["id"] for g in view["games"]}
    assert all(len(pair) == 2 for pair in first)  # nobody plays themself
    # each resigns against the one they met, in turn: the losers get 0, the winners 2
    by_name = {name_of(p): p for p in (ann, bob, cid, dee)}
    winners = set()
    for pair, gid in first.items():
        loser, winner = sorted(pair)
        resign(by_name[loser], gid)
        winners.add(winner)
        assert look(ann, t)["you"]["game"] is None or name_of(ann) not in pair
    view = look(ann, t)
    assert {n for n, line in lines(view).items() if line["score"] == 2} == winners
    assert all(line["sheet"] == ([2] if n in winners else [0]) for n, line in lines(view).items())
    second = {frozenset((g["white"], g["black"])) for g in view["games"]}
    assert len(second) == 2 and not second & set(first)  # no rematch while others are free
    assert [line["name"] for line in view["standings"]][:2] == sorted(winners, key=lambda n: view["standings"]
                                                                       .index(lines(view)[n]))


def test_the_streak_doubles_the_third_win_and_two_players_meet_again(app):
    ann, bob = player(app), player(app)
    t = arena(ann)
    join(ann, t)
    assert look(ann, t)["games"] == []  # alone: never paired with oneself
    join(bob, t)
    for _ in range(3):
        gid = look(bob, t)["you"]["game"]
        assert gid and look(ann, t)["you"]["game"] == gid
        resign(bob, gid)
    view = look(ann, t)
    mine = lines(view)[name_of(ann)]
    assert mine["sheet"] == [2, 2, 4] and mine["score"] == 8 and mine["fire"] and mine["wins"] == 3
    assert lines(view)[name_of(bob)]["losses"] == 3
    fourth = app.state.store.get(view["you"]["game"])
    assert {fourth.row["white_name"], fourth.row["black_name"]} == {name_of(ann), name_of(bob)}


def test_an_aborted_game_scores_nothing(app):
    ann, bob, t, gid = two_playing(app)
    r = ann.post(f"/api/games/{gid}/abort", seat(ann, gid))
    assert r.status_code == 200, r.text
    view = look(ann, t)
    assert all(line["games"] == 0 and line["score"] == 0 for line in view["standings"])
    assert view["you"]["game"] not in (None, gid)  # the only two: paired again


def test_a_player_who_never_moves_has_the_game_aborted_and_is_withdrawn(app):
    ann, _bob, t, gid = two_playing(app)
    cid = player(app)
    game = app.state.store.get(gid)
    idle = game.row["white_name"]
    change(app, games, games.c.id == gid, created=now() - timedelta(seconds=FIRST_MOVE_S - 5))
    assert app.state.store.get(look(ann, t)["you"]["game"]).status == "playing"  # not yet
    change(app, games, games.c.id == gid, created=now() - timedelta(seconds=FIRST_MOVE_S + 1))
    join(cid, t)
    view = look(ann, t)
    game = app.state.store.get(gid)
    assert game.status == "aborted" and game.row["termination"] == "aborted"
    assert not lines(view)[idle]["active"]
    playing = {g["white"] for g in view["games"]} | {g["black"] for g in view["games"]}
    assert idle not in playing and len(view["games"]) == 1  # the other one meets the newcomer


def test_withdrawing_stops_pairing_and_joining_again_keeps_the_score(app):
    ann, bob, t, gid = two_playing(app)
    cid = player(app)
    assert ann.post(f"/api/tournaments/{t['id']}/withdraw").status_code == 200
    resign(bob, gid)  # a game going on still counts
    join(cid, t)
    view = look(ann, t)
    assert lines(view)[name_of(ann)]["score"] == 2 and not view["you"]["active"] and view["you"]["game"] is None
    assert [{g["white"], g["black"]} for g in view["games"]] == [{name_of(bob), name_of(cid)}]
    again = join(ann, t)
    assert again["you"]["active"] and lines(again)[name_of(ann)]["score"] == 2
    r = ann.post(f"/api/tournaments/{t['id']}/join")
    assert r.status_code == 409 and "already" in r.json()["error"]["message"]  # joining twice
    assert ann.post(f"/api/tournaments/{t['id']}/withdraw").status_code == 200
    r = ann.post(f"/api/tournaments/{t['id']}/withdraw")
    assert r.status_code == 409 and error(r) == "conflict"


def test_an_arena_starts_and_ends_at_its_times(app):
    ann, bob, cid = player(app), player(app), player(app)
    t = arena(ann, starts_in=10, minutes=30)
    assert t["state"] == "coming" and 590 <= t["seconds_left"] <= 600
    join(ann, t)
    join(bob, t)
    assert look(ann, t)["games"] == []  # not before the start
    at = now()
    change(app, tournaments, tournaments.c.id == t["id"], starts=at - timedelta(seconds=1),
           ends=at + timedelta(minutes=30))
    view = look(cid, t)  # anyone's look starts the pairing
    assert view["state"] == "running" and len(view["games"]) == 1
    gid = view["games"][0]["id"]
    change(app, tournaments, tournaments.c.id == t["id"], ends=now() - timedelta(seconds=1))
    resign(ann, gid)  # after the end: played out, not counted, nobody paired again
    view = look(ann, t)
    assert view["state"] == "over" and view["seconds_left"] == 0
    assert all(line["games"] == 0 for line in view["standings"]) and view["games"] == []
    r = cid.post(f"/api/tournaments/{t['id']}/join")
    assert r.status_code == 409 and "over" in r.json()["error"]["message"]
    assert ann.post(f"/api/tournaments/{t['id']}/withdraw").status_code == 409
    listed = ann.http.get("/api/tournaments").json()
    assert t["id"] in {x["id"] for x in listed["finished"]} and t["id"] not in {x["id"] for x in listed["tournaments"]}


def test_a_full_arena_takes_nobody_more(app):
    ann = player(app)
    t = arena(ann, max_players=2)
    join(ann, t)
    join(player(app), t)
    r = player(app).post(f"/api/tournaments/{t['id']}/join")
    assert r.status_code == 409 and "full" in r.json()["error"]["message"]


def test_only_accounts_make_and_join_tournaments(app):
    anonymous = Browser(app)
    r = anonymous.post("/api/tournaments", name="Mine")
    assert r.status_code == 401 and error(r) == "not_logged_in"
    t = arena(player(app))
    assert error(anonymous.post(f"/api/tournaments/{t['id']}/join")) == "not_logged_in"
    assert error(anonymous.post(f"/api/tournaments/{t['id']}/withdraw")) == "not_logged_in"
    view = anonymous.http.get(f"/api/tournaments/{t['id']}").json()  # anyone may watch
    assert view["you"] is None and view["name"] == "Evening arena"


def test_the_session_cookie_alone_changes_nothing(app):
    ann = player(app)
    t = arena(ann)
    ann.csrf = None  # a page of another site: the cookie goes along, the token does not
    for path in ("/api/tournaments", f"/api/tournaments/{t['id']}/join", f"/api/tournaments/{t['id']}/withdraw"):
        r = ann.post(path, name="Forged")
        assert r.status_code == 403 and error(r) == "csrf", path
    ann.csrf = "0" * 64
    assert error(ann.post(f"/api/tournaments/{t['id']}/join")) == "csrf"
    assert look(ann, t)["players"] == 0


@pytest.mark.parametrize("spec, words", [
    ({"minutes": 0}, "minutes 0: use 5 to 720"), ({"minutes": 10**30}, "minutes"), ({"minutes": -5}, "minutes"),
    ({"max_players": 1}, "max_players 1"), ({"max_players": 10**6}, "max_players"),
    ({"starts_in": -1}, "starts_in -1"), ({"starts_in": 99999}, "starts_in"),
    ({"time_control": "3d"}, "needs a clock"), ({"time_control": ""}, "needs a clock"),
    ({"time_control": "600+0"}, "at most 60 minutes"), ({"time_control": "5+120"}, "at most 60 minutes"),
    ({"time_control": "fast"}, "time control"), ({"variant": "no-such-game"}, "unknown variant"),
    ({"name": "ab"}, "name: length 2"), ({"name": "x" * 61}, "name: length 61"), ({"name": "x" * 200}, "name"),
    ({"name": "evil\u202eoot"}, "U+202E"), ({"name": "two\nlines"}, "U+000A"), ({"minutes": "many"}, "minutes"),
    ({"kind": "knockout"}, "kind 'knockout'"), ({"kind": "swiss"}, "rounds: give them"),
    ({"rounds": 5}, "rounds: give"),
    ({"kind": "swiss", "rounds": 1}, "rounds 1: use 2 to 15"), ({"kind": "swiss", "rounds": 10**9}, "rounds")])
def test_absurd_tournaments_are_refused_naming_what_is_wrong(app, spec, words):
    r = player(app).post("/api/tournaments", **{"name": "Absurd", **spec})
    assert r.status_code == 422 and words in r.json()["error"]["message"], r.text


def test_markup_in_a_name_stays_text(app):
    ann = player(app)
    t = arena(ann, name='<img src=x onerror="alert(1)"> & <b>Cup</b>')
    assert look(ann, t)["name"] == '<img src=x onerror="alert(1)"> & <b>Cup</b>'
    page = ann.http.get(f"/tournaments/{t['id']}")
    assert page.status_code == 200 and "<b>Cup" not in page.text  # the page is static; its script writes text


def test_unknown_tournaments_are_not_found(app):
    ann = player(app)
    for path in ("/api/tournaments/nosuchthing", "/api/tournaments/" + "x" * 5000):
        r = ann.http.get(path)
        assert r.status_code == 404 and error(r) == "not_found" and len(r.text) < 400
    for action in ("join", "withdraw"):
        assert error(ann.post(f"/api/tournaments/nosuchthing/{action}")) == "not_found"


def test_one_account_may_have_only_a_few_tournaments_not_over(app):
    ann = player(app)
    for i in range(OPEN_PER_ACCOUNT):
        arena(ann, name=f"Arena {i}")
    r = ann.post("/api/tournaments", name="One too many")
    assert r.status_code == 409 and f"at most {OPEN_PER_ACCOUNT}" in r.json()["error"]["message"]


def test_making_and_joining_are_rate_limited(db_url):
    app = create_app(db_url, Limits(tournaments_per_hour=1, joins_per_minute=2, signups_per_minute=100))
    with TestClient(app):
        with app.state.store.db.write() as conn:  # the module's other tests came from the same client
            conn.execute(delete(hits))
        ann = player(app, "rl")
        t = arena(ann)
        r = ann.post("/api/tournaments", name="Second")
        assert r.status_code == 429 and r.headers["Retry-After"] == "3600"
        join(ann, t)
        ann.post(f"/api/tournaments/{t['id']}/withdraw")
        r = ann.post(f"/api/tournaments/{t['id']}/join")
        assert r.status_code == 429 and error(r) == "rate_limited"


def test_a_deleted_account_leaves_the_standings_and_its_game_still_ends(app):
    ann, bob, t, gid = two_playing(app)
    r = bob.post("/api/account/delete", password="correct horse battery")
    assert r.status_code == 200, r.text
    resign(ann, gid)
    view = look(ann, t)
    assert [line["name"] for line in view["standings"]] == [name_of(ann)] and view["games"] == []
    with app.state.store.db.read() as conn:
        assert conn.execute(select(entrants.c.score).where(entrants.c.tournament_id == t["id"])).scalars().all() == [0]


def black_resigns(app, people: dict[str, Browser], gid: str) -> None:
    resign(people[app.state.store.get(gid).row["black_name"]], gid)


def test_a_swiss_tournament_plays_its_rounds_without_a_repeat_and_ends_after_the_last(app):
    four = [player(app) for _ in range(4)]
    people = {name_of(p): p for p in four}
    t = arena(four[0], kind="swiss", rounds=3, starts_in=10)
    assert t["kind"] == "swiss" and t["rounds"] == 3 and t["round"] == 0
    for p in four:
        join(p, t)
    change(app, tournaments, tournaments.c.id == t["id"], starts=now() - timedelta(seconds=1))
    met: set[frozenset[str]] = set()
    for round_ in (1, 2, 3):
        view = look(four[0], t)
        assert view["round"] == round_ and view["state"] == "running" and len(view["games"]) == 2
        pairs = {frozenset((g["white"], g["black"])) for g in view["games"]}
        assert not pairs & met  # nobody meets anyone twice
        met |= pairs
        first, second = view["games"]
        black_resigns(app, people, first["id"])
        assert look(four[0], t)["round"] == round_  # the round waits for its last game
        black_resigns(app, people, second["id"])
    view = look(four[0], t)
    assert len(met) == 6 and view["state"] == "over" and view["games"] == []  # a round robin, over at once
    scores = sorted(line["score"] for line in view["standings"])
    assert sum(scores) == 6 and all(len(line["sheet"]) == 3 for line in view["standings"])
    assert [line["rank"] for line in view["standings"]] == [1, 2, 3, 4]
    ranked = [(line["score"], line["buchholz"]) for line in view["standings"]]
    assert ranked == sorted(ranked, reverse=True)
    r = player(app).post(f"/api/tournaments/{t['id']}/join")
    assert r.status_code == 409


def test_a_swiss_bye_goes_to_the_lowest_ranked_who_can_have_one_and_scores_a_point(app):
    ann, bob, cid = player(app), player(app), player(app)
    people = {name_of(p): p for p in (ann, bob, cid)}
    t = arena(ann, kind="swiss", rounds=2)
    join(ann, t)
    view = join(bob, t)  # two players: the first round starts
    assert view["round"] == 1 and len(view["games"]) == 1
    r = join(cid, t)  # too late for the first round: waits for the second
    assert lines(r)[name_of(cid)]["game"] is None
    loser = app.state.store.get(view["games"][0]["id"]).row["black_name"]
    black_resigns(app, people, view["games"][0]["id"])
    view = look(ann, t)
    assert view["round"] == 2 and len(view["games"]) == 1
    # cid ranks lowest (0 points, the last entry), but a bye to cid would make the first round's two
    # meet again: the bye goes to the next lowest, the first round's loser
    bye = [line for line in view["standings"] if "bye" in line["sheet"]]
    assert [line["name"] for line in bye] == [loser] and bye[0]["sheet"] == [0, "bye"] and bye[0]["score"] == 1
    winner = (set(people) - {loser, name_of(cid)}).pop()
    assert {view["games"][0]["white"], view["games"][0]["black"]} == {name_of(cid), winner}
    r = player(app).post(f"/api/tournaments/{t['id']}/join")
    assert r.status_code == 409 and "last round" in r.json()["error"]["message"]


def test_a_game_whose_clock_ran_out_ends_when_the_tournament_is_read(app):
    ann, bob, t, gid = two_playing(app)
    people = {name_of(ann): ann, name_of(bob): bob}
    row = app.state.store.get(gid).row
    for name, text in ((row["white_name"], "e4"), (row["black_name"], "e5")):
        r = people[name].post(f"/api/games/{gid}/moves", seat(people[name], gid), move=text,
                              ply=app.state.store.get(gid).ply)
        assert r.status_code == 200, r.text
    change(app, games, games.c.id == gid, clock_at=now() - timedelta(minutes=4))  # 3+2: White's 3 minutes are gone
    view = look(ann, t)
    game = app.state.store.get(gid)
    assert game.status == "over" and game.row["termination"] == "time" and game.row["result"] == "0-1"
    assert lines(view)[row["black_name"]]["score"] == 2 and view["you"]["game"] not in (None, gid)


def test_racing_joins_fill_an_arena_to_its_size_and_no_further(app):
    from concurrent.futures import ThreadPoolExecutor

    crowd = [player(app) for _ in range(6)]
    t = arena(crowd[0], max_players=2)
    twice = crowd[0]
    with ThreadPoolExecutor(8) as pool:
        answers = list(pool.map(lambda p: p.post(f"/api/tournaments/{t['id']}/join"), [twice, *crowd]))
    assert sorted(r.status_code for r in answers) == [200, 200] + [409] * 5
    view = look(crowd[0], t)
    assert view["players"] == 2 and len(view["games"]) == 1
    game = view["games"][0]
    assert game["white"] != game["black"]


def test_black_who_never_answers_white_is_withdrawn_whatever_else_they_send(app):
    ann, bob, t, gid = two_playing(app)
    people = {name_of(ann): ann, name_of(bob): bob}
    row = app.state.store.get(gid).row
    white, black = people[row["white_name"]], people[row["black_name"]]
    assert white.post(f"/api/games/{gid}/moves", seat(white, gid), move="e4", ply=0).status_code == 200
    change(app, moves, moves.c.game_id == gid, at=now() - timedelta(seconds=FIRST_MOVE_S + 1))
    change(app, games, games.c.id == gid, version=games.c.version + 1)  # as every change of its moves counts
    assert black.post(f"/api/games/{gid}/draw", seat(black, gid), action="offer").status_code == 200  # not a move
    view = look(ann, t)
    assert app.state.store.get(gid).status == "aborted" and not lines(view)[row["black_name"]]["active"]
    assert lines(view)[row["white_name"]]["active"]


def test_a_draw_agreed_at_once_scores_nothing_but_counts_as_a_game(app):
    ann, bob, t, gid = two_playing(app)
    assert ann.post(f"/api/games/{gid}/draw", seat(ann, gid), action="offer").status_code == 200
    assert bob.post(f"/api/games/{gid}/draw", seat(bob, gid), action="accept").status_code == 200
    view = look(ann, t)
    assert app.state.store.get(gid).row["result"] == "1/2-1/2"
    assert [(line["score"], line["draws"], line["sheet"]) for line in view["standings"]] == [(0, 1, [0])] * 2


def test_a_pasted_definition_is_played_in_an_arena_by_its_key(app):
    ann, bob = player(app), player(app)
    r = ann.post("/api/variants", definition="# Wazir war\nfiles=5 ranks=5\nwazir:W:W:wazir:a1,b1\nking:K:K:king:c1")
    assert r.status_code == 200, r.text
    key = r.json()["key"]
    t = arena(ann, variant=key)
    assert t["variant"] == key and t["title"] == "Wazir war"
    join(ann, t)
    join(bob, t)
    game = app.state.store.get(look(ann, t)["you"]["game"])
    assert game.row["variant"] == key and game.board.piece_at(game.variant.square("a1")) == "W"


def test_tournament_games_are_rated_and_rate_both_players(app):
    ann, bob, t, gid = two_playing(app)
    game = ann.http.get(f"/api/games/{gid}").json()
    assert game["rated"] is True and [game["ratings"][side]["rating"] for side in ("white", "black")] == [1500, 1500]
    resign(bob, gid)
    rating = {name: next(r for r in ann.http.get(f"/api/players/{name}").json()["ratings"]
                         if r["variant"] == t["variant"])["rating"] for name in (name_of(ann), name_of(bob))}
    assert rating[name_of(ann)] > 1500 > rating[name_of(bob)]


def test_a_tournament_game_links_its_tournament_and_the_tournament_its_games(app):
    ann, bob, t, gid = two_playing(app)
    link = {"id": t["id"], "link": f"/tournaments/{t['id']}"}
    assert ann.http.get(f"/api/games/{gid}").json()["tournament"] == link
    view = look(ann, t)
    assert [g["id"] for g in view["games"]] == [gid] and view["played"] == []
    resign(ann, gid)
    [played] = look(ann, t)["played"]
    assert played["id"] == gid and played["watch"] == f"/game/{gid}"
    assert {played["white"], played["black"]} == {name_of(ann), name_of(bob)}
    assert played["result"] == ("0-1" if played["white"] == name_of(ann) else "1-0")  # ann resigned
    again = look(ann, t)["you"]["game"]  # paired again at once: the arena's second game
    assert again != gid and ann.http.get(f"/api/games/{again}").json()["tournament"] == link


def test_no_other_game_passes_for_a_tournaments_and_the_list_of_games_is_bounded(app, monkeypatch):
    from morphchess.web import tournaments as module

    ann, bob, t, gid = two_playing(app)
    r = ann.post("/api/games", creator=f"t-{t['id']}", tournament=t["id"])  # fields no request sets
    assert r.status_code == 200 and r.json()["tournament"] is None
    assert ann.http.get(f"/api/games/{r.json()['id']}").json()["tournament"] is None
    resign(ann, gid)
    second = look(ann, t)["you"]["game"]
    resign(bob, second)
    monkeypatch.setattr(module, "PLAYED", 1)
    assert [g["id"] for g in look(ann, t)["played"]] == [second]  # the newest only


def test_a_tournament_game_has_no_rematch(app):
    ann, bob, t, gid = two_playing(app)
    tokens = {browser: seat(browser, gid) for browser in (ann, bob)}
    assert ann.post(f"/api/games/{gid}/resign", tokens[ann]).status_code == 200
    for browser in (ann, bob):
        for action in ("offer", "accept"):
            r = browser.post(f"/api/games/{gid}/rematch", tokens[browser], action=action)
            assert r.status_code == 409 and f"/tournaments/{t['id']}" in r.json()["error"]["message"], r.text
    state = ann.http.get(f"/api/games/{gid}").json()
    assert state["rematch"] is None and state["offers"]["rematch"] is None
    assert state["tournament"]["link"] == f"/tournaments/{t['id']}"  # what the page offers instead
