"""Rated and casual games through the API, each happy path beside its attack: who may make and join a rated
game (never with the engine, never one account on both seats, never anonymously), the ratings every
ending writes once (Glickman's formulas worked by hand, then the tested Glicko-2 module as the oracle),
and the pages that show them: the game, the profile, the leaderboard.  SQLite and PostgreSQL."""

from __future__ import annotations

import contextlib
import threading

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("argon2")
from sqlalchemy import select  # noqa: E402

from morphchess.ratings import Rating, rate  # noqa: E402
from morphchess.web import actions, create_app  # noqa: E402
from morphchess.web import rated as rated_module  # noqa: E402
from morphchess.web.accounts import accounts  # noqa: E402
from morphchess.web.errors import Conflict  # noqa: E402
from morphchess.web.rated import ratings  # noqa: E402
from morphchess.web.routes import ratings as ratings_routes  # noqa: E402
from test_web_accounts import Browser, error, played  # noqa: E402

FOOLS_MATE = ("f3", "e5", "g4", "Qh4#")


@pytest.fixture(scope="module")
def app(db_url):
    from fastapi.testclient import TestClient
    app = create_app(db_url, 100000)
    with TestClient(app):
        yield app


def signed_up(app, name: str) -> Browser:
    browser = Browser(app)
    assert browser.enter("signup", name).status_code == 200
    return browser


def rated_pair(app, white: Browser, black: Browser, variant: str = "chess") -> tuple[dict, dict]:
    """A rated invite made by ``white``, its seat taken by ``black``: (white's game, black's game)."""
    mine = white.new_game(mode="invite", side="white", rated=True, variant=variant)
    r = black.post(f"/api/games/{mine['id']}/join", mine["invite"]["token"])
    assert r.status_code == 200, r.text
    return mine, {**r.json(), "seat": r.json()["seat"]}


def stored(app, name: str, variant: str = "chess"):
    with app.state.rater.db.read() as conn:
        return conn.execute(select(ratings).join(accounts, accounts.c.id == ratings.c.account_id)
                            .where(accounts.c.name == name, ratings.c.variant == variant)).first()


def play_both(white: Browser, wgame: dict, black: Browser, bgame: dict, moves: tuple[str, ...]) -> None:
    for i, move in enumerate(moves):
        played(*((white, wgame) if i % 2 == 0 else (black, bgame)), move)


def test_a_rated_game_shows_ratings_and_rates_both_players_once_at_the_end(app):
    white, black = signed_up(app, "rw-1"), signed_up(app, "rb-1")
    wgame, bgame = rated_pair(app, white, black)
    state = white.http.get(f"/api/games/{wgame['id']}").json()
    assert state["rated"] is True
    assert state["ratings"]["white"] == state["ratings"]["black"] == {"rating": 1500, "provisional": True,
                                                                        "change": None}
    play_both(white, wgame, black, bgame, FOOLS_MATE)
    over = white.http.get(f"/api/games/{wgame['id']}").json()
    assert over["outcome"]["winner"] == "black"
    # two new players (1500, 350, 0.06), one game: Glickman's steps 3-7 by hand give g = 0.66907, v = 8.9354,
    # phi' = 1.67121, mu' = +-0.93434: 1662.31 and 1337.69, deviation 290.32 each
    assert over["ratings"]["black"] == {"rating": 1500, "provisional": True, "change": 162}
    assert over["ratings"]["white"] == {"rating": 1500, "provisional": True, "change": -162}
    winner, loser = stored(app, "rb-1"), stored(app, "rw-1")
    assert winner.rating == pytest.approx(1662.31, abs=0.01) and loser.rating == pytest.approx(1337.69, abs=0.01)
    assert winner.deviation == pytest.approx(290.32, abs=0.01) == loser.deviation
    assert 0.0599 < winner.volatility <= 0.06 and winner.games == loser.games == 1
    profile = white.http.get("/api/players/rb-1").json()
    assert profile["ratings"] == [{"variant": "chess", "title": "Orthodox chess", "games": 1, "rating": 1662,
                                   "deviation": 290, "provisional": True, "leaderboard": "/leaderboard/chess"}]


def test_an_ending_reported_twice_rates_once(app):
    white, black = signed_up(app, "rw-2"), signed_up(app, "rb-2")
    wgame, bgame = rated_pair(app, white, black)
    assert white.post(f"/api/games/{wgame['id']}/resign", wgame["seat"]["token"]).status_code == 200
    again = [white.post(f"/api/games/{wgame['id']}/resign", wgame["seat"]["token"]),
             black.post(f"/api/games/{bgame['id']}/resign", bgame["seat"]["token"])]
    assert [r.status_code for r in again] == [409, 409]
    store = app.state.store

    def end_again(conn, game, at):
        store.end(conn, game, at, "0-1", "resignation")
    with pytest.raises(Conflict):
        store.change(wgame["id"], end_again)
    store.flag(wgame["id"])  # a late time-out check finds the game over
    assert stored(app, "rw-2").games == stored(app, "rb-2").games == 1
    assert stored(app, "rb-2").rating == pytest.approx(1662.31, abs=0.01)


def test_both_players_resigning_at_once_rate_the_game_once(app):
    white, black = signed_up(app, "rw-3"), signed_up(app, "rb-3")
    wgame, bgame = rated_pair(app, white, black)
    results: list[str] = []

    def resign(token: str) -> None:
        try:
            actions.resign(app.state.store, wgame["id"], token, None)
            results.append("ended")
        except Conflict:
            results.append("refused")
    threads = [threading.Thread(target=resign, args=(g["seat"]["token"],)) for g in (wgame, bgame)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results) == ["ended", "refused"]
    assert stored(app, "rw-3").games == stored(app, "rb-3").games == 1


def test_two_games_of_the_same_players_ending_at_once_are_rated_one_after_the_other(app):
    white, black = signed_up(app, "rw-5"), signed_up(app, "rb-5")
    pairs = [rated_pair(app, white, black) for _ in range(3)]
    actions.resign(app.state.store, pairs[0][1]["id"], pairs[0][1]["seat"]["token"], None)  # their rows exist
    meet = threading.Barrier(2)

    def together(conn, game) -> None:  # both endings reach the ratings at once (PostgreSQL; SQLite: in turn)
        with contextlib.suppress(threading.BrokenBarrierError):
            meet.wait(timeout=2)
    app.state.store.endings.insert(0, together)
    try:
        threads = [threading.Thread(target=actions.resign, args=(app.state.store, bgame["id"],
                                                                 bgame["seat"]["token"], None))
                   for _, bgame in pairs[1:]]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        app.state.store.endings.remove(together)
    expected = {"rw-5": Rating(), "rb-5": Rating()}
    for _ in range(3):
        expected = {"rw-5": rate(expected["rw-5"], [(expected["rb-5"], 1)]),
                    "rb-5": rate(expected["rb-5"], [(expected["rw-5"], 0)])}
    for name, rating in expected.items():  # a lost update would leave the second game's rating
        assert stored(app, name).games == 3
        assert stored(app, name).rating == pytest.approx(rating.rating, abs=0.01)


def test_a_second_game_rates_from_the_stored_ratings_as_the_glicko2_module_does(app):
    white, black = signed_up(app, "rw-4"), signed_up(app, "rb-4")
    wgame, bgame = rated_pair(app, white, black)
    play_both(white, wgame, black, bgame, FOOLS_MATE)
    before = {n: stored(app, n) for n in ("rw-4", "rb-4")}
    bgame2, wgame2 = rated_pair(app, black, white)  # black's account now plays White
    assert black.post(f"/api/games/{bgame2['id']}/draw", bgame2["seat"]["token"], action="offer").status_code == 200
    assert white.post(f"/api/games/{wgame2['id']}/draw", wgame2["seat"]["token"], action="accept").status_code == 200
    as_rating = {n: Rating(r.rating, r.deviation, r.volatility) for n, r in before.items()}
    for name, other in (("rw-4", "rb-4"), ("rb-4", "rw-4")):
        expected = rate(as_rating[name], [(as_rating[other], 0.5)])  # seconds apart: no deviation growth to see
        after = stored(app, name)
        assert after.rating == pytest.approx(expected.rating, abs=0.01)
        assert after.deviation == pytest.approx(expected.deviation, abs=0.01) and after.games == 2
    state = white.http.get(f"/api/games/{wgame2['id']}").json()["ratings"]
    assert state["black"]["rating"] == 1338 and state["black"]["change"] == round(stored(app, "rw-4").rating) - 1338


def test_a_rated_games_rematch_is_rated_and_a_casual_ones_casual_their_seats_the_accounts(app):
    white, black = signed_up(app, "rr-1"), signed_up(app, "rr-2")
    rematches = {}
    for rated in (True, False):
        first = white.new_game(mode="invite", side="white", rated=rated)
        joined = black.post(f"/api/games/{first['id']}/join", first["invite"]["token"]).json()
        assert white.post(f"/api/games/{first['id']}/resign", first["seat"]["token"]).status_code == 200
        white.post(f"/api/games/{first['id']}/rematch", first["seat"]["token"], action="offer")
        new = black.post(f"/api/games/{first['id']}/rematch", joined["seat"]["token"], action="accept").json()
        rematches[rated] = white.http.get(f"/api/games/{new['rematch']}").json()
    profile = {g["id"]: g["sides"] for g in white.http.get("/api/players/rr-1").json()["games"]}
    for rated, game in rematches.items():
        assert game["rated"] is rated and game["names"] == {"white": "rr-2", "black": "rr-1"}
        assert profile[game["id"]] == ["black"]  # the account's seat, colours swapped
    assert rematches[False]["ratings"] is None
    assert rematches[True]["ratings"]["white"] == {"rating": 1662, "provisional": True, "change": None}
    assert rematches[True]["ratings"]["black"]["rating"] == 1338


def test_a_rated_game_with_the_engine_local_or_anonymous_is_refused(app):
    player = signed_up(app, "rf-1")
    bot = player.post("/api/games", mode="invite", side="white", black="engine", rated=True)
    assert bot.status_code == 422 and "engine" in bot.json()["error"]["message"]
    local = player.post("/api/games", mode="local", rated=True)
    assert local.status_code == 422 and "casual" in local.json()["error"]["message"]
    anonymous = Browser(app).post("/api/games", mode="invite", side="white", rated=True)
    assert anonymous.status_code == 403 and error(anonymous) == "rated"
    assert "log in" in anonymous.json()["error"]["message"]
    assert player.post("/api/games", mode="invite", side="white", black="engine").status_code == 200  # casual


def test_a_rated_seat_is_taken_only_by_another_account(app):
    owner = signed_up(app, "rf-2")
    game = owner.new_game(mode="invite", side="white", rated=True)
    invite = game["invite"]["token"]
    anonymous = Browser(app).post(f"/api/games/{game['id']}/join", invite)
    assert anonymous.status_code == 403 and error(anonymous) == "rated" and "log in" in anonymous.text
    same = owner.post(f"/api/games/{game['id']}/join", invite)  # the same account on both seats
    assert same.status_code == 403 and "two accounts" in same.text
    assert owner.http.get(f"/api/games/{game['id']}").json()["seats"]["black"] == "free"
    other = signed_up(app, "rf-3")
    assert other.post(f"/api/games/{game['id']}/join", invite).status_code == 200


def test_a_rated_open_seek_is_accepted_only_by_another_account(app):
    seeker = signed_up(app, "rf-4")
    seek = seeker.new_game(mode="open", side="white", rated=True)
    assert Browser(app).post(f"/api/games/{seek['id']}/accept").status_code == 403
    assert seeker.post(f"/api/games/{seek['id']}/accept").status_code == 403
    lobby = seeker.http.get("/api/lobby").json()["open"]
    assert next(g for g in lobby if g["id"] == seek["id"])["rated"] is True
    assert "<td>rf-4 (1500?) vs ?</td><td>untimed, rated</td>" in seeker.http.get("/lobby").text
    r = signed_up(app, "rf-5").post(f"/api/games/{seek['id']}/accept")
    assert r.status_code == 200 and r.json()["names"]["black"] == "rf-5"
    assert r.json()["ratings"]["black"] == {"rating": 1500, "provisional": True, "change": None}


def test_a_rated_game_whose_player_deleted_the_account_ends_unrated(app):
    white, black = signed_up(app, "rd-1"), signed_up(app, "rd-2")
    wgame, _ = rated_pair(app, white, black)
    assert black.post("/api/account/delete", password="correct horse battery").status_code == 200
    assert white.post(f"/api/games/{wgame['id']}/resign", wgame["seat"]["token"]).status_code == 200
    state = white.http.get(f"/api/games/{wgame['id']}").json()
    assert "not rated: black's seat belongs to no account" in state["ratings"]["note"]
    assert state["ratings"]["white"] == {"rating": 1500, "provisional": True, "change": None}
    assert stored(app, "rd-1") is None


def test_a_casual_game_between_accounts_changes_no_rating(app):
    white, black = signed_up(app, "rc-1"), signed_up(app, "rc-2")
    game = white.new_game(mode="invite", side="white")
    joined = black.post(f"/api/games/{game['id']}/join", game["invite"]["token"]).json()
    play_both(white, game, black, joined, FOOLS_MATE)
    state = white.http.get(f"/api/games/{game['id']}").json()
    assert state["rated"] is False and state["ratings"] is None
    assert stored(app, "rc-1") is None and white.http.get("/api/players/rc-1").json()["ratings"] == []


def test_the_leaderboard_ranks_players_best_first_in_bounded_pages(app, monkeypatch):
    white, black = signed_up(app, "lb-1"), signed_up(app, "lb-2")
    wgame, bgame = rated_pair(app, white, black, variant="shatranj")
    play_both(white, wgame, black, bgame, ("f3", "e6"))
    assert white.post(f"/api/games/{wgame['id']}/resign", wgame["seat"]["token"]).status_code == 200
    board = white.http.get("/api/leaderboard/shatranj").json()
    assert [(p["rank"], p["name"], p["rating"], p["provisional"]) for p in board["ranking"]] == [
        (1, "lb-2", 1662, True), (2, "lb-1", 1338, True)]
    assert board["players"] == 2 and board["pages"] == 1 and board["title"] == "Shatranj"
    page = white.http.get("/leaderboard/shatranj").text
    assert "lb-2</a></td><td>1662?</td>" in page and 'href="/players/lb-1"' in page
    assert any(v["variant"] == "shatranj" for v in white.http.get("/api/leaderboard").json()["variants"])
    assert 'href="/leaderboard/shatranj"' in white.http.get("/leaderboard").text
    monkeypatch.setattr(rated_module, "PAGE_SIZE", 1)
    monkeypatch.setattr(ratings_routes, "PAGE_SIZE", 1)
    second = white.http.get("/api/leaderboard/shatranj?page=2").json()
    assert second["pages"] == 2 and [p["name"] for p in second["ranking"]] == ["lb-1"]
    assert 'rel="prev" href="/leaderboard/shatranj"' in white.http.get("/leaderboard/shatranj?page=2").text


@pytest.mark.parametrize("query", ["page=0", "page=-1", "page=21", f"page={10 ** 30}", "page=abc"])
def test_the_leaderboard_refuses_pages_out_of_bounds(app, query):
    r = Browser(app).http.get(f"/api/leaderboard/chess?{query}")
    assert r.status_code == 422 and error(r) == "validation"


def test_the_leaderboard_refuses_unknown_variants_and_pages_past_its_end(app):
    http = Browser(app).http
    for path in ("/api/leaderboard/no-such-game", "/leaderboard/%3Cscript%3Ealert(1)%3C%2Fscript%3E",
                 "/api/leaderboard/chess?page=20"):
        r = http.get(path)
        assert r.status_code == 404 and error(r) == "not_found" and "<script>" not in r.text
    assert http.get(f"/api/leaderboard/{'x' * 41}").status_code == 422


def test_titles_with_markup_reach_the_leaderboard_as_text(app):
    definition = "# <script>alert(1)</script> chess (8x8)\n" + app.state.catalog.get("chess").text
    key = Browser(app).post("/api/variants", definition=definition).json()["key"]
    white, black = signed_up(app, "lx-1"), signed_up(app, "lx-2")
    wgame, _ = rated_pair(app, white, black, variant=key)
    assert white.post(f"/api/games/{wgame['id']}/resign", wgame["seat"]["token"]).status_code == 200
    for path in (f"/leaderboard/{key}", "/leaderboard"):
        page = white.http.get(path).text
        assert "<script>" not in page and "&lt;script&gt;alert" in page  # the title ends at "("
    assert white.http.get("/api/players/lx-1").json()["ratings"][0]["title"].startswith("<script>")
