"""Accounts through the API, each happy path beside its attack: sign-up and log-in (names checked, no
enumeration, flooding refused), sessions (fresh at each log-in, ended by a password change or log-out
everywhere), CSRF (the cookie alone changes nothing), seats (claimed only with their tokens) and the
profile seen from another browser.  SQLite and PostgreSQL."""

from __future__ import annotations

import re

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("argon2")
from fastapi.testclient import TestClient  # noqa: E402
from sqlalchemy import select  # noqa: E402

from morphchess.web import create_app  # noqa: E402
from morphchess.web.accounts import COOKIE, account_seats, accounts, sessions  # noqa: E402
from morphchess.web.limits import Limits  # noqa: E402

PASSWORD = "correct horse battery"


@pytest.fixture(scope="module")
def app(db_url):
    app = create_app(db_url, 100000)
    with TestClient(app):  # runs the lifespan once
        yield app


class Browser:
    """One browser: its own cookie jar, the CSRF token its page was told, the seat tokens it keeps."""

    def __init__(self, app, **options) -> None:
        self.http = TestClient(app, **options)
        self.csrf: str | None = None
        self.seats: list[dict] = []

    def post(self, path: str, token: str | None = None, **body):
        headers = {"X-CSRF-Token": self.csrf} if self.csrf else {}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        return self.http.post(path, json=body, headers=headers)

    def enter(self, action: str, name: str, password: str = PASSWORD):
        r = self.post(f"/api/account/{action}", name=name, password=password, seats=self.seats)
        if r.status_code == 200:
            self.csrf = r.json()["csrf"]
        return r

    def new_game(self, **spec) -> dict:
        r = self.post("/api/games", **spec)
        assert r.status_code == 200, r.text
        game = r.json()
        self.seats.append({"id": game["id"], "token": game["seat"]["token"]})
        return game

    def cookie(self) -> str | None:
        return self.http.cookies.get(COOKIE)


def played(browser: Browser, game: dict, *texts: str) -> None:
    for text in texts:
        ply = browser.http.get(f"/api/games/{game['id']}").json()["ply"]
        r = browser.post(f"/api/games/{game['id']}/moves", game["seat"]["token"], move=text, ply=ply)
        assert r.status_code == 200, r.text


def error(r) -> str:
    return r.json()["error"]["code"]


def test_sign_up_claims_this_browsers_seats_and_the_profile_shows_them_elsewhere(app):
    home = Browser(app)
    game = home.new_game(white="human", black="human")
    played(home, game, "e4", "e5")
    invite = home.new_game(mode="invite", side="black")
    home.post(f"/api/games/{invite['id']}/resign", invite["seat"]["token"])
    r = home.enter("signup", "Alice-1")
    assert r.status_code == 200, r.text
    assert r.json()["account"]["name"] == "Alice-1" and r.json()["claimed"] == 3  # both local seats, one invited
    assert home.http.get("/api/account").json()["account"]["name"] == "Alice-1"
    phone = Browser(app)
    assert phone.http.get("/api/account").json() == {"account": None}
    assert phone.enter("login", "alice-1").status_code == 200  # names are found in any case
    profile = phone.http.get("/api/players/ALICE-1").json()
    assert profile["name"] == "Alice-1" and profile["results"] == {"won": 0, "lost": 1, "drawn": 0}
    by_id = {g["id"]: g for g in profile["games"]}
    assert by_id[game["id"]]["sides"] == ["white", "black"] and by_id[game["id"]]["outcome"] is None
    assert by_id[invite["id"]]["sides"] == ["black"] and by_id[invite["id"]]["outcome"] == "lost"
    assert game["seat"]["token"] not in str(profile) and invite["invite"]["token"] not in str(profile)
    assert error(phone.http.get("/api/players/nobody-here")) == "not_found"


def test_seats_are_claimed_only_with_their_own_tokens(app):
    victim = Browser(app)
    theirs = victim.new_game(mode="invite", side="white")
    owned = victim.new_game(mode="invite", side="white")
    assert victim.enter("signup", "victim").status_code == 200
    thief = Browser(app)
    mine = thief.new_game(mode="invite", side="white")
    thief.seats += [{"id": theirs["id"], "token": mine["seat"]["token"]},  # a real token of another game
                    {"id": theirs["id"], "token": "x" * 22}, {"id": "nosuchgame", "token": "y" * 22}]
    r = thief.enter("signup", "thief")
    assert r.json()["claimed"] == 1  # only its own game
    # a seat an account owns stays its own, even for someone who has its token
    r = thief.post("/api/account/seats", seats=[{"id": owned["id"], "token": owned["seat"]["token"]}])
    assert r.json() == {"claimed": 0}
    ids = [g["id"] for g in thief.http.get("/api/players/thief").json()["games"]]
    assert ids == [mine["id"]]
    assert {g["id"] for g in thief.http.get("/api/players/victim").json()["games"]} == {theirs["id"], owned["id"]}
    assert error(Browser(app).post("/api/account/seats", seats=[])) == "not_logged_in"


def test_seats_taken_while_logged_in_belong_to_the_account(app):
    seeker = Browser(app)
    seek = seeker.new_game(mode="open", side="white")
    player = Browser(app)
    player.enter("signup", "taker")
    made = player.new_game(mode="invite", side="white")
    r = player.post(f"/api/games/{seek['id']}/accept", name="someone else")  # the account's name wins
    assert r.status_code == 200, r.text
    friend = Browser(app)
    invite = friend.new_game(mode="invite", side="white")
    r = player.post(f"/api/games/{invite['id']}/join", invite["invite"]["token"])
    assert r.status_code == 200, r.text
    games = {g["id"]: g["sides"] for g in player.http.get("/api/players/taker").json()["games"]}
    assert games == {made["id"]: ["white"], seek["id"]: ["black"], invite["id"]: ["black"]}
    names = [player.http.get(f"/api/games/{g['id']}").json()["names"] for g in (made, seek, invite)]
    assert [names[0]["white"], names[1]["black"], names[2]["black"]] == ["taker"] * 3


@pytest.mark.parametrize("name, why", [
    ("ab", "3 to 20"), ("a" * 21, "3 to 20"), ("bad name", "letters"), ("Аlice", "letters"),  # Cyrillic А
    ("trailing-", "letters"), ("a--b", "letters"), ("Admin", "reserved"), ("ａｌｉｃｅ", "letters")])
def test_names_are_checked(app, name, why):
    r = Browser(app).enter("signup", name)
    assert r.status_code == 422 and why in r.json()["error"]["message"], r.text


def test_names_are_unique_in_any_case_and_passwords_have_a_length(app):
    assert Browser(app).enter("signup", "Bob_B").status_code == 200
    r = Browser(app).enter("signup", "bob_b")
    assert r.status_code == 409 and "taken" in r.json()["error"]["message"]
    r = Browser(app).enter("signup", "carol", "short")
    assert r.status_code == 422 and "password" in r.json()["error"]["message"]


def test_passwords_and_sessions_are_stored_hashed(app):
    browser = Browser(app)
    browser.enter("signup", "dora", PASSWORD)
    db = app.state.accounts.db
    with db.read() as conn:
        stored = conn.execute(select(accounts.c.password).where(accounts.c.name_key == "dora")).scalar_one()
        tokens = conn.execute(select(sessions.c.token)).scalars().all()
    assert stored.startswith("$argon2id$") and PASSWORD not in stored
    assert browser.cookie() and browser.cookie() not in tokens


def test_a_hash_of_weaker_parameters_is_made_again_at_log_in(app):
    from argon2 import PasswordHasher
    Browser(app).enter("signup", "ruth")
    weak = PasswordHasher(time_cost=1, memory_cost=8192).hash(PASSWORD)
    db = app.state.accounts.db
    with db.write() as conn:
        conn.execute(accounts.update().where(accounts.c.name_key == "ruth").values(password=weak))
    assert Browser(app).enter("login", "ruth").status_code == 200
    with db.read() as conn:
        stored = conn.execute(select(accounts.c.password).where(accounts.c.name_key == "ruth")).scalar_one()
    assert stored != weak and "m=65536" in stored


def test_an_unknown_name_costs_the_same_hash_as_a_known_one(app):
    """Timing: an unknown name is verified against a hash of the same parameters as every stored one."""
    from argon2 import extract_parameters

    from morphchess.web import accounts as model
    Browser(app).enter("signup", "tess")
    with app.state.accounts.db.read() as conn:
        stored = conn.execute(select(accounts.c.password).where(accounts.c.name_key == "tess")).scalar_one()
    assert extract_parameters(model._NOBODY) == extract_parameters(stored)
    assert not model._verify(None, PASSWORD) and model._verify(stored, PASSWORD)


def test_wrong_password_and_unknown_name_answer_alike(app):
    Browser(app).enter("signup", "erin")
    wrong = Browser(app).enter("login", "erin", "not the password")
    unknown = Browser(app).enter("login", "nobody-at-all", "not the password")
    assert wrong.status_code == unknown.status_code == 401
    assert wrong.json() == unknown.json() == {"error": {"code": "wrong_credentials",
                                                         "message": "wrong name or password"}}
    assert COOKIE not in wrong.headers.get("set-cookie", "")


def test_each_log_in_opens_a_fresh_session(app):
    Browser(app).enter("signup", "fay")
    fixed = Browser(app, cookies={COOKIE: "planted-by-an-attacker-0123456789"})
    assert fixed.http.get("/api/account").json() == {"account": None}  # a planted token is nobody
    r = fixed.http.post("/api/account/login", json={"name": "fay", "password": PASSWORD})
    assert error(r) == "csrf"  # the planted cookie has no CSRF token: nothing changes
    fixed.http.cookies.clear()
    fixed.enter("login", "fay")
    first = fixed.cookie()
    old = Browser(app, cookies={COOKIE: first})
    fixed.enter("login", "fay")
    assert fixed.cookie() != first and len(fixed.cookie() or "") >= 40
    assert old.http.get("/api/account").json() == {"account": None}  # the session before the log-in ended


def test_a_cross_site_form_post_with_the_cookie_is_refused(app):
    browser = Browser(app)
    browser.enter("signup", "gina")
    form = browser.http.post("/api/account/logout-everywhere", data={"x": "1"},
                             headers={"Origin": "https://evil.example"})
    assert form.status_code == 403 and error(form) == "csrf"
    wrong = browser.http.post("/api/games", json={}, headers={"X-CSRF-Token": "0" * 64})
    assert error(wrong) == "csrf"
    assert browser.http.get("/api/account").json()["account"]["name"] == "gina"  # still logged in
    assert browser.post("/api/games").status_code == 200  # the page's own request
    assert Browser(app).post("/api/games").status_code == 200  # no cookie: seat tokens as before


def test_cookie_flags(app):
    plain = Browser(app)
    cookie = plain.enter("signup", "hana").headers["set-cookie"]
    assert re.search(r"(?i)httponly", cookie) and re.search(r"(?i)samesite=lax", cookie)
    assert not re.search(r"(?i)secure", cookie)
    https = Browser(app, base_url="https://testserver")
    assert re.search(r"(?i); secure", https.enter("login", "hana").headers["set-cookie"])


def test_behind_a_trusted_proxy_the_cookie_is_secure(db_url):
    app = create_app(db_url, Limits(trusted_proxies=("10.0.0.1",)))
    proxy = Browser(app, client=("10.0.0.1", 4000), headers={"X-Forwarded-Proto": "https"})
    assert re.search(r"(?i); secure", proxy.enter("signup", "iris").headers["set-cookie"])
    stranger = Browser(app, client=("10.9.9.9", 4000), headers={"X-Forwarded-Proto": "https"})
    assert not re.search(r"(?i)secure", stranger.enter("login", "iris").headers["set-cookie"])


def test_changing_the_password_needs_the_old_one_and_ends_other_sessions(app):
    laptop, phone = Browser(app), Browser(app)
    laptop.enter("signup", "jack")
    phone.enter("login", "jack")
    r = laptop.post("/api/account/password", old="guessed wrongly", new="a new password")
    assert r.status_code == 401
    r = laptop.post("/api/account/password", old=PASSWORD, new="a new password")
    assert r.status_code == 200, r.text
    laptop.csrf = r.json()["csrf"]
    assert laptop.http.get("/api/account").json()["account"]["name"] == "jack"
    assert phone.http.get("/api/account").json() == {"account": None}
    assert Browser(app).enter("login", "jack").status_code == 401
    assert Browser(app).enter("login", "jack", "a new password").status_code == 200


def test_log_out_and_log_out_everywhere(app):
    laptop, phone = Browser(app), Browser(app)
    laptop.enter("signup", "kim")
    phone.enter("login", "kim")
    r = phone.post("/api/account/logout")
    assert r.status_code == 200 and phone.cookie() is None
    assert laptop.http.get("/api/account").json()["account"]["name"] == "kim"
    phone.enter("login", "kim")
    assert laptop.post("/api/account/logout-everywhere").status_code == 200
    assert phone.http.get("/api/account").json() == {"account": None}
    assert phone.cookie() is None  # a dead session's cookie is dropped, so the page can start afresh


def test_deleting_the_account_keeps_its_games_without_its_name(app):
    browser = Browser(app)
    browser.enter("signup", "leo")
    game = browser.new_game(mode="invite", side="white", name="leo")
    browser.post(f"/api/games/{game['id']}/talk", game["seat"]["token"], text="hello")
    assert browser.post("/api/account/delete", password="wrong password").status_code == 401
    version = browser.http.get(f"/api/games/{game['id']}").json()["version"]
    assert browser.post("/api/account/delete", password=PASSWORD).status_code == 200
    kept = browser.http.get(f"/api/games/{game['id']}").json()
    assert kept["version"] == version + 1  # the pages showing it read it again
    assert kept["status"] == "playing" and "leo" not in str(kept.get("names", kept))
    talk = browser.http.get(f"/api/games/{game['id']}/talk").json()
    assert "leo" not in str(talk)
    assert error(browser.http.get("/api/players/leo")) == "not_found"
    assert Browser(app).enter("login", "leo").status_code == 401
    with app.state.accounts.db.read() as conn:
        assert conn.execute(select(account_seats).where(account_seats.c.game_id == game["id"])).first() is None


def test_log_in_flooding_is_refused_per_client_and_per_name(db_url):
    app = create_app(db_url, Limits(logins_per_minute=3, signups_per_minute=2))
    Browser(app, client=("10.1.0.1", 1)).enter("signup", "mia")
    Browser(app, client=("10.1.0.1", 1)).enter("signup", "nia")
    flooder = Browser(app, client=("10.1.0.2", 1))
    assert [flooder.enter("login", "mia", f"guess {i}").status_code for i in range(4)] == [401, 401, 401, 429]
    # the name's own count: guesses spread over many addresses stop too
    spread = [Browser(app, client=(f"10.2.0.{i}", 1)).enter("login", "NIA", f"guess {i}").status_code
              for i in range(4)]
    assert spread == [401, 401, 401, 429]
    signups = [Browser(app, client=("10.3.0.1", 1)).enter("signup", f"new-{i}").status_code for i in range(3)]
    assert signups == [200, 200, 429]


def test_an_accounts_seat_moves_to_another_device(app):
    laptop = Browser(app)
    laptop.enter("signup", "olga")
    game = laptop.new_game(mode="invite", side="white")
    friend = Browser(app)
    assert friend.post(f"/api/games/{game['id']}/join", game["invite"]["token"]).status_code == 200
    phone = Browser(app)
    phone.enter("login", "olga")
    r = phone.post(f"/api/account/games/{game['id']}/seat")
    assert r.status_code == 200, r.text
    seat = r.json()["seat"]
    assert seat["sides"] == ["white"] and seat["link"] == f"/game/{game['id']}#seat={seat['token']}"
    played(phone, {"id": game["id"], "seat": seat}, "e4")
    r = laptop.post(f"/api/games/{game['id']}/moves", game["seat"]["token"], move="e5", ply=1)
    assert r.status_code == 403  # the laptop's token holds the seat no more


def test_a_seat_moves_only_for_its_own_account(app):
    owner = Browser(app)
    owner.enter("signup", "pia")
    game = owner.new_game(mode="invite", side="white")
    # the invite link's token, before the friend opens it: claiming it gains nothing
    assert owner.post("/api/account/seats", seats=[{"id": game["id"], "token": game["invite"]["token"]}]).json() \
        == {"claimed": 0}
    other = Browser(app)
    other.enter("signup", "quinn")
    assert error(other.post(f"/api/account/games/{game['id']}/seat")) == "forbidden"
    assert error(Browser(app).post(f"/api/account/games/{game['id']}/seat")) == "not_logged_in"
    assert error(owner.post("/api/account/games/nosuchgame/seat")) == "not_found"
    owner.post(f"/api/games/{game['id']}/resign", game["seat"]["token"])
    assert error(owner.post(f"/api/account/games/{game['id']}/seat")) == "conflict"


def test_a_profile_lists_its_newest_games_only(app, monkeypatch):
    monkeypatch.setattr("morphchess.web.accounts.PROFILE_GAMES", 3)
    browser = Browser(app)
    browser.enter("signup", "sam")
    made = [browser.new_game(mode="invite", side="white")["id"] for _ in range(4)]
    listed = [g["id"] for g in browser.http.get("/api/players/sam").json()["games"]]
    assert listed == made[:0:-1]  # the newest three, newest first
