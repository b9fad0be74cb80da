"""Accounts (optional): names, argon2 password hashes, log-in sessions, CSRF tokens, owned seats.

Anyone plays without an account; an account only gathers seats.  A session is a
random token in an HTTP-only, SameSite=Lax cookie (``Secure`` over https); the
database keeps its SHA-256 only.  Every state-changing request that carries the
cookie must also carry the session's CSRF token in the ``X-CSRF-Token`` header
(:class:`CsrfGuard`); the token is derived from the session's token, so only a
page that was told it (``GET /api/account``) can send it.  Seats belong to an
account in the table ``account_seats``; a seat is claimed only by presenting the
seat's own token (:meth:`Accounts.claim`).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import secrets
import threading
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import Column, DateTime, ForeignKey, Integer, String, Table, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError
from starlette.requests import cookie_parser
from starlette.types import ASGIApp, Receive, Scope, Send

from . import seats
from .db import Database, aware, games, metadata, now
from .errors import ApiError, BadInput, Busy, Conflict, Forbidden, NotFound, body
from .game import Game
from .store import Store
from .talk import talk

__all__ = ["accounts", "sessions", "account_seats", "Accounts", "CsrfGuard", "WrongCredentials", "check_name",
           "check_password", "csrf_of", "cookie_of", "COOKIE", "CSRF_HEADER", "SESSION_DAYS", "NAME_LENGTH",
           "PASSWORD_LENGTH", "PROFILE_GAMES"]

COOKIE = "morphchess_session"
CSRF_HEADER = "x-csrf-token"
SESSION_DAYS = 30
NAME_LENGTH = (3, 20)
PASSWORD_LENGTH = (8, 200)
PROFILE_GAMES = 200  # games a profile lists (the newest)
_NAME = re.compile(r"[A-Za-z0-9]+(?:[_-][A-Za-z0-9]+)*")  # ASCII only: no look-alike letters of other scripts
_RESERVED = {"admin", "administrator", "anonymous", "engine", "guest", "moderator", "morphchess", "root",
             "spectator", "system", "white", "black", "player"}
_SAFE_METHODS = {"GET", "HEAD", "OPTIONS"}
_HASHER = PasswordHasher()  # argon2id, RFC 9106's second recommended parameters (64 MiB, 3 passes)
_HASHING = threading.BoundedSemaphore(2)  # password hashes computed at once in a process (64 MiB each)
_NOBODY = _HASHER.hash(secrets.token_urlsafe(16))  # verified for unknown names, so they take as long

accounts = Table(
    "accounts", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("name", String(20), nullable=False),  # as its owner wrote it
    Column("name_key", String(20), nullable=False, unique=True),  # folded to lower case: unique
    Column("password", String(200), nullable=False),  # the argon2 hash (PHC string)
    Column("created", DateTime(timezone=True), nullable=False),
)

sessions = Table(
    "sessions", metadata,
    Column("token", String(64), primary_key=True),  # SHA-256 of the cookie's token
    Column("account_id", Integer, ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False, index=True),
    Column("created", DateTime(timezone=True), nullable=False),
    Column("expires", DateTime(timezone=True), nullable=False, index=True),
)

account_seats = Table(
    "account_seats", metadata,
    Column("game_id", String(16), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("side", String(5), primary_key=True),
    Column("account_id", Integer, ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False, index=True),
    Column("at", DateTime(timezone=True), nullable=False),
)


class WrongCredentials(ApiError):
    """The same answer for an unknown name and a wrong password (no enumeration of names)."""

    status, code = 401, "wrong_credentials"


def check_name(name: str) -> str:
    """The name as stored (BadInput naming what is wrong): 3 to 20 ASCII letters and digits, single ``-``
    or ``_`` between them, not a reserved word; its lower case is unique among accounts."""
    low, high = NAME_LENGTH
    if not low <= len(name) <= high:
        raise BadInput(f"name: {len(name)} characters; use {low} to {high}")
    if not _NAME.fullmatch(name):
        raise BadInput("name: use letters a-z, digits, and single - or _ between them")
    if name.lower() in _RESERVED:
        raise BadInput(f"name {name!r} is reserved; choose another")
    return name


def check_password(password: str) -> str:
    low, high = PASSWORD_LENGTH
    if not low <= len(password) <= high:
        raise BadInput(f"password: {len(password)} characters; use {low} to {high}")
    return password


def _hash(password: str) -> str:
    with _bounded():
        return _HASHER.hash(password)


def _verify(stored: str | None, password: str) -> bool:
    """Does the password fit the stored hash?  An unknown account (None) is checked against a hash of a
    random password, so that the answer takes as long as for a known one."""
    with _bounded():
        try:
            return _HASHER.verify(stored or _NOBODY, password) and stored is not None
        except (VerificationError, InvalidHashError):
            return False


@contextmanager
def _bounded() -> Iterator[None]:
    """At most two password hashes at once in a process; a third request waits up to 10 s, else Busy."""
    if not _HASHING.acquire(timeout=10):
        raise Busy("the server is busy checking passwords; try again shortly", headers={"Retry-After": "5"})
    try:
        yield
    finally:
        _HASHING.release()


def csrf_of(session_token: str) -> str:
    """The CSRF token of a session: known to the page that was told it, never to another site."""
    return hmac.new(session_token.encode(), b"morphchess csrf", hashlib.sha256).hexdigest()


def cookie_of(headers: Iterable[tuple[bytes, bytes]]) -> str | None:
    """The session token in a request's ``Cookie`` headers (read as Starlette reads them), or None."""
    for name, value in headers:
        if name.lower() == b"cookie":
            token = cookie_parser(value.decode("latin-1")).get(COOKIE)
            if token:
                return token
    return None


class Accounts:
    """The accounts of a server, their sessions and their seats."""

    def __init__(self, db: Database) -> None:
        self.db = db

    # -- accounts -------------------------------------------------------------------------
    def sign_up(self, name: str, password: str) -> int:
        """A new account's id (Conflict if the name, in any case, is taken)."""
        name, password = check_name(name), check_password(password)
        hashed = _hash(password)
        taken = Conflict(f"the name {name!r} is taken; choose another")
        try:
            with self.db.write() as conn:
                if conn.execute(select(accounts.c.id).where(accounts.c.name_key == name.lower())).first():
                    raise taken
                made = conn.execute(accounts.insert().values(name=name, name_key=name.lower(), password=hashed,
                                                             created=now()))
        except IntegrityError:  # another request took it in the meantime (PostgreSQL)
            raise taken from None
        return int(made.inserted_primary_key[0])  # type: ignore[index]

    def log_in(self, name: str, password: str) -> int:
        """The id of the account whose name and password these are; WrongCredentials otherwise (the same
        answer, after the same work, whether the name exists or not)."""
        with self.db.read() as conn:
            row = conn.execute(select(accounts.c.id, accounts.c.password)
                               .where(accounts.c.name_key == name[:NAME_LENGTH[1] + 1].lower())).first()
        if not _verify(row.password if row else None, password[:PASSWORD_LENGTH[1] + 1]) or row is None:
            raise WrongCredentials("wrong name or password")
        if _HASHER.check_needs_rehash(row.password):  # made with weaker parameters than today's
            hashed = _hash(password)
            with self.db.write() as conn:
                conn.execute(accounts.update().where(accounts.c.id == row.id).values(password=hashed))
        return row.id

    def change_password(self, account_id: int, old: str, new: str) -> None:
        """Set a new password (the old one must fit) and end every session of the account."""
        self._check_password(account_id, old)
        hashed = _hash(check_password(new))
        with self.db.write() as conn:
            conn.execute(accounts.update().where(accounts.c.id == account_id).values(password=hashed))
            conn.execute(sessions.delete().where(sessions.c.account_id == account_id))

    def delete(self, account_id: int, password: str) -> set[str]:
        """Delete the account (the password must fit): its sessions and seats go, its games stay with
        the names of its seats (and of its players' talk in them) emptied; the ids of those games."""
        self._check_password(account_id, password)
        with self.db.write() as conn:
            mine = conn.execute(select(account_seats.c.game_id, account_seats.c.side)
                                .where(account_seats.c.account_id == account_id)).all()
            for gid, side in mine:  # a new version: the pages that show the game read it again
                conn.execute(games.update().where(games.c.id == gid)
                             .values({f"{side}_name": None, "version": games.c.version + 1}))
                conn.execute(talk.update().where(talk.c.game_id == gid, talk.c.side == side,
                                                 talk.c.role == "player").values(name=None))
                self.db.notify(conn, gid)
            conn.execute(accounts.delete().where(accounts.c.id == account_id))
        return {gid for gid, _side in mine}

    def _check_password(self, account_id: int, password: str) -> None:
        with self.db.read() as conn:
            stored = conn.execute(select(accounts.c.password).where(accounts.c.id == account_id)).scalar()
        if not _verify(stored, password[:PASSWORD_LENGTH[1] + 1]):
            raise WrongCredentials("wrong password")

    # -- sessions -------------------------------------------------------------------------
    def open_session(self, account_id: int, replaces: str | None = None) -> str:
        """A new session's token (always a fresh one: no fixation); the session ``replaces`` ends."""
        token = secrets.token_urlsafe(32)
        at = now()
        with self.db.write() as conn:
            if replaces:
                conn.execute(sessions.delete().where(sessions.c.token == seats.digest(replaces)))
            conn.execute(sessions.delete().where(sessions.c.expires <= at))
            conn.execute(sessions.insert().values(token=seats.digest(token), account_id=account_id, created=at,
                                                  expires=at + timedelta(days=SESSION_DAYS)))
        return token

    def close_session(self, token: str) -> None:
        with self.db.write() as conn:
            conn.execute(sessions.delete().where(sessions.c.token == seats.digest(token)))

    def close_all(self, account_id: int) -> None:
        with self.db.write() as conn:
            conn.execute(sessions.delete().where(sessions.c.account_id == account_id))

    def who(self, token: str | None) -> dict | None:
        """The account of a live session token: ``{"id", "name", "created"}``, or None."""
        if not token:
            return None
        with self.db.read() as conn:
            row = conn.execute(select(accounts.c.id, accounts.c.name, accounts.c.created, sessions.c.expires)
                               .join(sessions, sessions.c.account_id == accounts.c.id)
                               .where(sessions.c.token == seats.digest(token))).mappings().first()
        if row is None or aware(row["expires"]) <= now():
            return None
        return {"id": row["id"], "name": row["name"], "created": aware(row["created"])}

    # -- seats ----------------------------------------------------------------------------
    def claim(self, account_id: int, held: Iterable[tuple[str, str]]) -> int:
        """Give the account every taken seat that a (game id, seat token) pair really holds and that no
        account has yet; the number of seats it gained.  A game id without its seat's token gains
        nothing, nor does an invite link's token (its seat is someone else's once they open it)."""
        tokens = dict(held)
        if not tokens:
            return 0
        with self.db.write() as conn:
            rows = conn.execute(games.select().where(games.c.id.in_(tokens))).mappings().all()
            found = [(row["id"], side) for row in rows for side in seats.held(row, tokens[row["id"]])
                     if row[f"{side}_joined"]]
            if not found:
                return 0
            insert = (sqlite.insert if self.db.sqlite else postgresql.insert)(account_seats)
            at = now()
            new: list[dict] = [{"game_id": g, "side": s, "account_id": account_id, "at": at} for g, s in found]
            return len(conn.execute(insert.values(new).on_conflict_do_nothing()
                                    .returning(account_seats.c.game_id)).all())

    @staticmethod
    def pass_seats(conn: Connection, game: str, rematch: str, at: datetime) -> int:
        """Give the accounts holding seats of ``game`` the other colour's seats of its ``rematch`` (in the
        transaction that starts it); how many accounts."""
        held = conn.execute(select(account_seats.c.side, account_seats.c.account_id)
                            .where(account_seats.c.game_id == game)).all()
        if held:
            conn.execute(account_seats.insert(), [{"game_id": rematch, "side": seats.other(side),
                                                   "account_id": account, "at": at} for side, account in held])
        return len({account for _side, account in held})

    def sign(self, store: Store, name: str, gid: str, token: str) -> Game:
        """Write the account's name on the one seat a token holds in a game (a seat taken logged in); the
        game then."""
        def act(conn: Connection, game: Game, at: datetime) -> None:
            sides = game.sides_of(token)
            if len(sides) == 1 and game.row[f"{sides[0]}_name"] != name:
                store.update(conn, game, at, **{f"{sides[0]}_name": name})
        return store.change(gid, act)

    def seat_here(self, store: Store, account_id: int, gid: str) -> tuple[str, list[str]]:
        """Move the account's seats of a game being played to a new token (this device): the token and the
        sides it holds.  The token that held them before holds them no more."""
        token = seats.new_token()
        sides: list[str] = []

        def act(conn: Connection, game: Game, at: datetime) -> None:
            if game.status.finished:
                raise Conflict("the game is over: its seats cannot move")
            mine = conn.execute(select(account_seats.c.side).where(account_seats.c.game_id == gid,
                                                                   account_seats.c.account_id == account_id))
            sides[:] = sorted(mine.scalars(), key=seats.SIDES.index)
            if not sides:
                raise Forbidden("this account holds no seat of the game")
            store.update(conn, game, at, **{f"{side}_token": seats.digest(token) for side in sides})
        store.change(gid, act)
        return token, sides

    def profile(self, name: str) -> tuple[dict, list[tuple[dict, list[str]]]]:
        """An account's facts (its id for the server, its name and creation for everyone) and its newest
        :data:`PROFILE_GAMES` games, each with the sides it held."""
        with self.db.read() as conn:
            account = conn.execute(select(accounts.c.id, accounts.c.name, accounts.c.created)
                                   .where(accounts.c.name_key == name[:NAME_LENGTH[1] + 1].lower())).first()
            if account is None:
                raise NotFound(f"no player {name[:NAME_LENGTH[1]]!r}")
            rows = conn.execute(select(games, account_seats.c.side)
                                .join(account_seats, account_seats.c.game_id == games.c.id)
                                .where(account_seats.c.account_id == account.id)
                                .order_by(games.c.updated.desc(), games.c.id)
                                .limit(2 * PROFILE_GAMES)).mappings().all()  # a game: one seat or two
        played: dict[str, tuple[dict, list[str]]] = {}
        for row in rows:
            if row["id"] not in played and len(played) == PROFILE_GAMES:
                break
            game = played.setdefault(row["id"], ({k: v for k, v in row.items() if k != "side"}, []))
            game[1].append(row["side"])
        games_played = [(row, sorted(sides, key=seats.SIDES.index)) for row, sides in played.values()]
        return {"id": account.id, "name": account.name, "created": aware(account.created)}, games_played


class CsrfGuard:
    """ASGI middleware: a state-changing request (not GET, HEAD, OPTIONS) that carries the session cookie
    is refused (403) unless its ``X-CSRF-Token`` header is the session's CSRF token.  Requests without
    the cookie pass untouched (seat tokens travel in a header no other site can set)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] not in _SAFE_METHODS:
            token = cookie_of(scope["headers"])
            sent = next((v.decode("latin-1") for n, v in scope["headers"] if n.lower() == CSRF_HEADER.encode()), "")
            if token is not None and not hmac.compare_digest(sent.encode(), csrf_of(token).encode()):
                await _refuse(send)
                return
        await self.app(scope, receive, send)


async def _refuse(send: Send) -> None:
    text = json.dumps(body("csrf", "this request carries the session cookie but not its CSRF token "
                                   "(X-CSRF-Token, from GET /api/account); reload the page")).encode()
    await send({"type": "http.response.start", "status": 403,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(text)).encode())]})
    await send({"type": "http.response.body", "body": text})
