"""Correspondence mail through the API, to a real SMTP server (aiosmtpd) started here: an account that asked
is mailed when it is its move, each happy path beside its attack (CRLF in an address or a name, a forged
CSRF token, a game that is not theirs, a flood of moves, an SMTP server that is down).  SQLite and
PostgreSQL."""

from __future__ import annotations

import dataclasses
import os
import socket
import subprocess
import sys
import time
from datetime import timedelta
from email import message_from_bytes
from email.message import Message
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("argon2")
aiosmtpd = pytest.importorskip("aiosmtpd.controller")
import httpx2  # noqa: E402
from alembic import command  # noqa: E402
from alembic.config import Config  # noqa: E402
from fastapi.testclient import TestClient  # noqa: E402
from sqlalchemy import inspect, select  # noqa: E402

from morphchess.web import create_app  # noqa: E402
from morphchess.web import db as db_module  # noqa: E402
from morphchess.web.db import Database, now  # noqa: E402
from morphchess.web.errors import BadInput  # noqa: E402
from morphchess.web.limits import Limits  # noqa: E402
from morphchess.web.mail import Mailer, Smtp, smtp_from_env  # noqa: E402
from morphchess.web.notices import reminders  # noqa: E402
from test_web_serve import Serve  # noqa: E402

from programs import free_port  # noqa: E402

PASSWORD = "correct horse battery"
SITE = "https://chess.example"


class Inbox:
    """An aiosmtpd handler keeping every message it is given, with its envelope's recipients."""

    def __init__(self) -> None:
        self.mails: list[tuple[list[str], Message]] = []

    async def handle_DATA(self, server, session, envelope) -> str:  # noqa: N802 - aiosmtpd's name
        self.mails.append((list(envelope.rcpt_tos), message_from_bytes(envelope.content)))
        return "250 OK"

    def to(self, address: str, count: int = 1, wait: float = 10.0) -> list[Message]:
        """The messages sent to ``address``, once there are ``count`` (or after ``wait`` seconds)."""
        end = time.monotonic() + wait
        while time.monotonic() < end:
            mine = [m for rcpt, m in self.mails if address in rcpt]
            if len(mine) >= count:
                return mine
            time.sleep(0.05)
        return [m for rcpt, m in self.mails if address in rcpt]


@pytest.fixture(scope="module")
def inbox(db_url):  # one for each database: the mails of one run never count in another's
    box = Inbox()
    server = aiosmtpd.Controller(box, hostname="127.0.0.1", port=free_port())
    server.start()
    yield box, server.port
    server.stop()


def smtp_at(port: int) -> Smtp:
    return Smtp(host="127.0.0.1", port=port, sender="morphchess@chess.example", site=SITE, starttls=False)


@pytest.fixture(scope="module")
def app(db_url, inbox):
    limits = dataclasses.replace(Limits.every_rate(100000), mails_per_hour=3)
    app = create_app(db_url, limits, smtp_at(inbox[1]))
    with TestClient(app):
        yield app


class Player:
    """A browser logged in to a new account (on an app, or on a served URL)."""

    def __init__(self, app, name: str) -> None:
        self.http = httpx2.Client(base_url=app) if isinstance(app, str) else TestClient(app)
        r = self.http.post("/api/account/signup", json={"name": name, "password": PASSWORD})
        assert r.status_code == 200, r.text
        self.csrf = r.json()["csrf"]
        self.tokens: dict[str, str] = {}

    def post(self, path: str, token: str | None = None, **body):
        headers = {"X-CSRF-Token": self.csrf, **({"Authorization": f"Bearer {token}"} if token else {})}
        return self.http.post(path, json=body, headers=headers)

    def mail(self, address: str | None, moves: bool = True):
        return self.post("/api/account/mail", address=address, moves=moves)

    def move(self, gid: str, text: str):
        ply = self.http.get(f"/api/games/{gid}").json()["ply"]
        return self.post(f"/api/games/{gid}/moves", self.tokens[gid], move=text, ply=ply)


def correspondence(white: Player, black: Player, tc: str | None = "3d", name: str | None = None) -> str:
    """A game between two accounts (``white`` invites, ``black`` joins); its id."""
    r = white.post("/api/games", mode="invite", side="white", time_control=tc)
    assert r.status_code == 200, r.text
    game = r.json()
    white.tokens[game["id"]] = game["seat"]["token"]
    r = black.post(f"/api/games/{game['id']}/join", game["invite"]["token"], **({"name": name} if name else {}))
    assert r.status_code == 200, r.text
    black.tokens[game["id"]] = r.json()["seat"]["token"]
    return game["id"]


def test_a_correspondence_move_mails_the_player_to_move(app, inbox):
    box, _port = inbox
    alice, bob = Player(app, "alice"), Player(app, "bob")
    r = bob.mail("bob@example.org")
    assert r.status_code == 200, r.text
    assert r.json() == {"address": "bob@example.org", "moves": True, "sending": True}
    assert bob.http.get("/api/account/mail").json()["address"] == "bob@example.org"
    gid = correspondence(alice, bob)
    assert alice.move(gid, "e4").status_code == 200
    [mail] = box.to("bob@example.org")
    assert mail["Subject"] == "Your move in Orthodox chess against alice"
    assert mail["From"] == "morphchess@chess.example" and mail["To"] == "bob@example.org"
    text = mail.get_payload(decode=True).decode()
    assert f"{SITE}/game/{gid}" in text and "1. e4" in text and "You play black" in text
    assert "untimed" in text  # black's first move has no clock yet
    assert bob.move(gid, "e5").status_code == 200  # alice asked for nothing: no mail
    assert alice.move(gid, "Nf3").status_code == 200
    second = box.to("bob@example.org", 2)[1]
    assert "2. Nf3" in second.get_payload(decode=True).decode()
    assert "3 days 0 hours" in second.get_payload(decode=True).decode() or \
        "2 days 23 hours" in second.get_payload(decode=True).decode()
    assert not box.to("alice@example.org", wait=0.2)


def test_addresses_with_line_breaks_or_no_domain_are_refused_with_a_reason(app):
    carol = Player(app, "carol")
    for bad, why in [("carol@example.org\r\nBcc: all@example.org", "line breaks"),
                     ("carol@example.org\nBcc: all@example.org", "line breaks"),
                     ("carol", "name@example.org"), ("carol@localhost", "domain"),
                     ("ca rol@example.org", "no spaces"), ("<carol@example.org>", "mailbox"),
                     ("c" * 250 + "@example.org", "at most 254")]:
        r = carol.mail(bad)
        assert r.status_code == 422, (bad, r.text)
        assert why in r.json()["error"]["message"], (bad, r.text)
    assert carol.http.get("/api/account/mail").json() == {"address": None, "moves": False, "sending": True}
    r = carol.mail(None, moves=True)
    assert r.status_code == 422 and "address" in r.json()["error"]["message"]


def test_mail_settings_need_the_account_and_its_csrf_token(app):
    dave = Player(app, "dave")
    assert dave.mail("dave@example.org").status_code == 200
    forged = dave.http.post("/api/account/mail", json={"address": "evil@example.org", "moves": True},
                            headers={"X-CSRF-Token": "0" * 64})
    assert forged.status_code == 403 and forged.json()["error"]["code"] == "csrf"
    bare = dave.http.post("/api/account/mail", json={"address": "evil@example.org", "moves": True})
    assert bare.status_code == 403
    assert dave.http.get("/api/account/mail").json()["address"] == "dave@example.org"
    stranger = TestClient(app)
    assert stranger.get("/api/account/mail").status_code == 401
    assert stranger.post("/api/account/mail", json={"address": "x@example.org"}).status_code == 401


def test_only_the_account_holding_the_side_to_move_is_mailed(app, inbox):
    box, _port = inbox
    erin, frank, gina = Player(app, "erin"), Player(app, "frank"), Player(app, "gina")
    gina.mail("gina@example.org")  # a stranger to the game
    erin.mail("erin@example.org")  # she moves: her own move never mails her
    gid = correspondence(erin, frank)
    assert erin.move(gid, "d4").status_code == 200
    live = correspondence(erin, frank, tc="5+3")
    frank.mail("frank@example.org")
    assert erin.move(live, "d4").status_code == 200  # not correspondence: no mail
    assert frank.move(gid, "d5").status_code == 200
    assert len(box.to("erin@example.org")) == 1
    time.sleep(0.3)
    assert not box.to("gina@example.org", wait=0) and not box.to("frank@example.org", wait=0)


def test_a_name_with_line_breaks_is_refused_and_none_reaches_a_header(app, inbox):
    box, _port = inbox
    hana = Player(app, "hana")
    hana.mail("hana@example.org")
    r = hana.post("/api/games", mode="invite", side="white", time_control="2d")
    gid, invite = r.json()["id"], r.json()["invite"]["token"]
    hana.tokens[gid] = r.json()["seat"]["token"]
    guest = TestClient(app)  # no account: the name is the one typed
    auth = {"Authorization": f"Bearer {invite}"}
    refused = guest.post(f"/api/games/{gid}/join", json={"name": "Ivan\r\nBcc: all@example.org"}, headers=auth)
    assert refused.status_code == 422 and "no line breaks" in refused.json()["error"]["message"]
    assert guest.post(f"/api/games/{gid}/join", json={"name": "I" * 41}, headers=auth).status_code == 422
    assert guest.post("/api/games", json={"mode": "invite", "name": None}).status_code == 200
    joined = guest.post(f"/api/games/{gid}/join", json={"name": "Ivan\u202e\u2066 Bcc: all@example.org"}, headers=auth)
    assert joined.status_code == 200, joined.text
    assert hana.move(gid, "c4").status_code == 200
    r = guest.post(f"/api/games/{gid}/moves", json={"move": "e5", "ply": 1},
                   headers={"Authorization": f"Bearer {joined.json()['seat']['token']}"})
    assert r.status_code == 200, r.text
    [mail] = box.to("hana@example.org")
    assert mail["Bcc"] is None and "\n" not in mail["Subject"] and "\r" not in mail["Subject"]
    assert mail["Subject"].startswith("Your move in Orthodox chess against Ivan")
    assert all("all@example.org" not in rcpt for rcpt, _m in box.mails)


def test_a_flood_of_moves_mails_at_most_the_budget(app, inbox):
    box, _port = inbox
    jo, kim = Player(app, "joe"), Player(app, "kim")
    kim.mail("kim@example.org")
    gid = correspondence(jo, kim)
    for white, black in [("Nf3", "Nf6"), ("Ng1", "Ng8"), ("Nf3", "Nf6"), ("Ng1", "Ng8")]:
        assert jo.move(gid, white).status_code == 200
        assert kim.move(gid, black).status_code == 200
    assert len(box.to("kim@example.org", 3)) == 3  # mails_per_hour
    time.sleep(0.5)
    assert len(box.to("kim@example.org", wait=0)) == 3


def test_an_smtp_server_that_is_down_costs_no_move(db_url, caplog):
    with TestClient(create_app(db_url, 100000, smtp_at(free_port()))) as client:
        app = client.app
        lea, max_ = Player(app, "lea"), Player(app, "max")
        max_.mail("max@example.org")
        gid = correspondence(lea, max_)
        started = time.monotonic()
        assert lea.move(gid, "e4").status_code == 200
        assert max_.move(gid, "e5").status_code == 200
        assert time.monotonic() - started < 5
        end = time.monotonic() + 10
        while "mail to max@example.org not sent" not in caplog.text and time.monotonic() < end:
            time.sleep(0.05)
        assert "mail to max@example.org not sent" in caplog.text


def test_without_smtp_nothing_is_sent_and_the_settings_say_so(db_url):
    with TestClient(create_app(db_url, 100000)) as client:
        nora = Player(client.app, "nora")
        r = nora.mail("nora@example.org")
        assert r.status_code == 200 and r.json()["sending"] is False


def test_serve_sends_mail_with_its_smtp_options(tmp_path, inbox):
    box, port = inbox
    server = Serve(tmp_path, "--smtp-host", "127.0.0.1", "--smtp-port", str(port), "--smtp-from",
                   "games@chess.example", "--smtp-starttls", "off", "--site-url", "https://games.example")
    try:
        url = f"http://127.0.0.1:{server.port}"
        olga, pete = Player(url, "olga"), Player(url, "pete")
        assert olga.mail("olga@example.org").json()["sending"] is True
        gid = correspondence(pete, olga)
        assert pete.move(gid, "g3").status_code == 200
        [mail] = box.to("olga@example.org")
    finally:
        server.stop()
    assert mail["From"] == "games@chess.example"
    assert f"https://games.example/game/{gid}" in mail.get_payload(decode=True).decode()


@pytest.mark.parametrize("options, words", [
    (["--smtp-host", "127.0.0.1"], "--smtp-from: the address mails are sent from is needed"),
    (["--smtp-host", "127.0.0.1", "--smtp-from", "games@chess.example\r\nBcc: x@y.org"], "--smtp-from address"),
    (["--smtp-host", "127.0.0.1", "--smtp-from", "a@chess.example", "--smtp-user", "me"],
     "set the password in the environment variable MORPHCHESS_SMTP_PASSWORD"),
    (["--smtp-host", "127.0.0.1", "--smtp-from", "a@chess.example", "--site-url", "javascript:alert(1)"],
     "--site-url 'javascript:alert(1)'"),
    (["--smtp-host", "127.0.0.1", "--smtp-starttls", "maybe"], "invalid choice: 'maybe'"),
])
def test_smtp_options_are_checked_in_one_line(options, words):
    env = {k: v for k, v in os.environ.items() if k != "MORPHCHESS_SMTP_PASSWORD"}
    r = subprocess.run([sys.executable, "-m", "morphchess", "serve", *options], capture_output=True, text=True,
                       timeout=60, env=env)
    assert r.returncode == 2 and words in r.stderr and len(r.stderr.strip().splitlines()) == 1, r.stderr


def test_mail_settings_from_the_environment_are_checked_as_the_options_are():
    assert smtp_from_env({}) is None
    smtp = smtp_from_env({"MORPHCHESS_SMTP_HOST": "mail.example", "MORPHCHESS_SMTP_FROM": "games@chess.example",
                          "MORPHCHESS_SITE_URL": SITE, "MORPHCHESS_SMTP_PORT": "25", "MORPHCHESS_SMTP_STARTTLS": "off"})
    assert smtp == Smtp(host="mail.example", sender="games@chess.example", site=SITE, port=25, starttls=False)
    with pytest.raises(BadInput, match="MORPHCHESS_SMTP_PORT '２５'"):
        smtp_from_env({"MORPHCHESS_SMTP_HOST": "mail.example", "MORPHCHESS_SMTP_PORT": "２５"})
    with pytest.raises(BadInput, match="--site-url ''"):
        smtp_from_env({"MORPHCHESS_SMTP_HOST": "mail.example", "MORPHCHESS_SMTP_FROM": "games@chess.example"})


def test_a_side_short_of_time_is_reminded_once_per_move(app, inbox):
    box, _port = inbox
    rosa, quinn = Player(app, "rosa"), Player(app, "quinn")
    rosa.mail("rosa@example.org")
    gid = correspondence(rosa, quinn, tc="2d")
    assert rosa.move(gid, "e4").status_code == 200
    assert quinn.move(gid, "e5").status_code == 200
    assert len(box.to("rosa@example.org")) == 1
    notices, moved = app.state.notices, now()

    def reminders_after(at) -> int:
        """Rosa's reminders once the notices looked at ``at``."""
        notices.remind(at)
        time.sleep(0.3)
        return sum(m["Subject"].startswith("Reminder: ") for m in box.to("rosa@example.org", wait=0))

    assert reminders_after(moved + timedelta(days=1)) == 0  # a day left of two: more than a quarter
    assert reminders_after(moved + timedelta(days=1, hours=13)) == 1  # 11 hours left: less than a quarter
    assert reminders_after(moved + timedelta(days=1, hours=14)) == 1  # once per move
    reminder = box.to("rosa@example.org", 2)[1]
    assert reminder["Subject"] == "Reminder: Your move in Orthodox chess against quinn"
    text = reminder.get_payload(decode=True).decode()
    assert "0 days 10 hours" in text and f"{SITE}/game/{gid}" in text
    assert rosa.move(gid, "Nf3").status_code == 200  # quinn to move: quinn asked for no mail
    assert quinn.move(gid, "Nc6").status_code == 200  # rosa to move again: a mail, and a reminder later
    assert reminders_after(now() + timedelta(days=1, hours=13)) == 1  # due, but the budget (3 an hour) is spent
    assert len(box.to("rosa@example.org", wait=0)) == 3
    with app.state.store.db.read() as conn:  # the reminder of this move was due: it counts as made
        assert conn.execute(select(reminders.c.ply).where(reminders.c.game_id == gid)).scalar() == 4


def test_migration_0009_goes_down_to_0008_and_up_again(db_url):
    db = Database(db_url)
    config = Config()
    config.set_main_option("script_location", str(Path(db_module.__file__).parent / "migrations"))
    with db.engine.begin() as conn:
        config.attributes["connection"] = conn
        command.downgrade(config, "0008")
        assert not {"mail_settings", "reminders"} & set(inspect(conn).get_table_names())
        command.upgrade(config, "head")
        assert {"mail_settings", "reminders"} <= set(inspect(conn).get_table_names())
    db.dispose()


def test_a_full_queue_drops_mail_at_once_with_a_log_line(caplog):
    with socket.socket() as silent:  # accepts connections and never greets: the sending thread waits
        silent.bind(("127.0.0.1", 0))
        silent.listen()
        mailer = Mailer(smtp_at(silent.getsockname()[1]), queued=1)
        started = time.monotonic()
        sent = [mailer.send(f"p{i}@example.org", "subject", "text") for i in range(5)]
        assert time.monotonic() - started < 1
        assert sent.count(False) >= 3  # one being sent, one waiting: the rest dropped
        assert "dropped: 1 mails already wait to be sent" in caplog.text
        mailer.close(0.1)


def test_the_smtp_login_is_used():
    from aiosmtpd.smtp import AuthResult, LoginPassword

    logins: list[tuple[bytes, bytes]] = []

    def authenticate(server, session, envelope, mechanism, data) -> AuthResult:
        logins.append((data.login, data.password) if isinstance(data, LoginPassword) else (b"", b""))
        return AuthResult(success=logins[-1] == (b"games", b"s3cret"))

    box = Inbox()
    server = aiosmtpd.Controller(box, hostname="127.0.0.1", port=free_port(), authenticator=authenticate,
                                 auth_require_tls=False)
    server.start()
    try:
        mailer = Mailer(dataclasses.replace(smtp_at(server.port), user="games", password="s3cret"))
        assert mailer.send("yes@example.org", "subject", "text")
        assert len(box.to("yes@example.org")) == 1 and logins == [(b"games", b"s3cret")]
        mailer.close()
    finally:
        server.stop()
