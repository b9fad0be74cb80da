"""Accounts over HTTP: sign up, log in and out, change the password, delete the account, claim seats,
the games awaiting the account's move, and the players' profiles (``/api/account``,
``/api/players/{name}``, the page ``/players/{name}``).

Log-in and sign-up are counted per client and per name (``logins_per_minute``,
``signups_per_minute``); a wrong name and a wrong password get the same answer.
"""

from __future__ import annotations

import hashlib
from importlib import resources

from fastapi import APIRouter, Request, Response
from fastapi.responses import FileResponse
from pydantic import BaseModel, Field

from ..accounts import COOKIE, NAME_LENGTH, PASSWORD_LENGTH, SESSION_DAYS, Accounts, cookie_of, csrf_of
from ..db import now
from ..errors import ApiError
from ..game import Game
from ..gameview import summary_view
from ..limits import check, client_key
from .mygames import MAX_GAMES, Held

__all__ = ["router", "adopt", "account_of", "NotLoggedIn"]

router = APIRouter()


class NotLoggedIn(ApiError):
    status, code = 401, "not_logged_in"


class Credentials(BaseModel):
    name: str = Field(..., max_length=NAME_LENGTH[1] + 20)
    password: str = Field(..., max_length=PASSWORD_LENGTH[1] + 20)
    seats: list[Held] = Field([], max_length=MAX_GAMES,
                              description="the games and seat tokens this browser holds: claimed for the account")


class PasswordChange(BaseModel):
    old: str = Field(..., max_length=PASSWORD_LENGTH[1] + 20)
    new: str = Field(..., max_length=PASSWORD_LENGTH[1] + 20)


class Password(BaseModel):
    password: str = Field(..., max_length=PASSWORD_LENGTH[1] + 20)


class Seats(BaseModel):
    seats: list[Held] = Field(..., max_length=MAX_GAMES)


def _accounts(request: Request) -> Accounts:
    return request.app.state.accounts


def _token(request: Request) -> str | None:
    return cookie_of(request.scope["headers"])


def account_of(request: Request) -> dict | None:
    """The account logged in with the request's session cookie, or None."""
    return _accounts(request).who(_token(request))


def _needed(request: Request) -> dict:
    account = account_of(request)
    if account is None:
        raise NotLoggedIn("log in first")
    return account


def _https(request: Request) -> bool:
    """Was the page asked for over https (directly, or as a trusted proxy says)?"""
    if request.url.scheme == "https":
        return True
    limits = request.app.state.limits
    peer = request.client.host if request.client else ""
    forwarded = request.headers.get("x-forwarded-proto", "").split(",")[0].strip().lower()
    return limits.trusts(peer) and forwarded == "https"


def _limited(request: Request, action: str, name: str) -> None:
    """Count one ``action`` for the client and for the name, whoever sends it (a flood spread over many
    addresses), or refuse it (429) if either is one too many."""
    key = "n" + hashlib.sha256(name.lower().encode()).hexdigest()[:15]
    request.app.state.limiter.check([client_key(request), key], action)


def _logged_in(request: Request, response: Response, account_id: int, seats: list[Held]) -> dict:
    """Open a fresh session (ending the one the request carried), set its cookie, claim the seats."""
    accounts = _accounts(request)
    token = accounts.open_session(account_id, replaces=_token(request))
    response.set_cookie(COOKIE, token, max_age=SESSION_DAYS * 86400, path="/", secure=_https(request),
                        httponly=True, samesite="lax")
    claimed = accounts.claim(account_id, ((s.id, s.token) for s in seats))
    return {**_me(accounts.who(token)), "csrf": csrf_of(token), "claimed": claimed}


def _me(account: dict | None) -> dict:
    if account is None:
        return {"account": None}
    return {"account": {"name": account["name"], "created": account["created"].isoformat(),
                        "profile": f"/players/{account['name']}"}}


def _logged_out(response: Response) -> dict:
    response.delete_cookie(COOKIE, path="/")
    return {"account": None}


@router.get("/api/account", summary="the account logged in (and the CSRF token its page sends), or null")
def me(request: Request, response: Response):
    token = _token(request)
    account = _accounts(request).who(token)
    if account is None:
        return _logged_out(response) if token else {"account": None}
    return {**_me(account), "csrf": csrf_of(token or "")}


@router.post("/api/account/signup", summary="make an account and log in; the seats given are claimed")
def sign_up(request: Request, response: Response, body: Credentials):
    _limited(request, "signup", body.name)
    return _logged_in(request, response, _accounts(request).sign_up(body.name, body.password), body.seats)


@router.post("/api/account/login", summary="log in (a new session); the seats given are claimed")
def log_in(request: Request, response: Response, body: Credentials):
    _limited(request, "login", body.name)
    return _logged_in(request, response, _accounts(request).log_in(body.name, body.password), body.seats)


@router.post("/api/account/logout", summary="end this session")
def log_out(request: Request, response: Response):
    token = _token(request)
    if token:
        _accounts(request).close_session(token)
    return _logged_out(response)


@router.post("/api/account/logout-everywhere", summary="end every session of the account")
def log_out_everywhere(request: Request, response: Response):
    _accounts(request).close_all(_needed(request)["id"])
    return _logged_out(response)


@router.post("/api/account/password", summary="change the password (the old one needed); other sessions end")
def change_password(request: Request, response: Response, body: PasswordChange):
    account = _needed(request)
    check(request, "login")
    _accounts(request).change_password(account["id"], body.old, body.new)
    return _logged_in(request, response, account["id"], [])


@router.post("/api/account/delete", summary="delete the account (the password needed); its games stay, "
                                            "their names emptied")
def delete(request: Request, response: Response, body: Password):
    account = _needed(request)
    check(request, "login")
    for gid in _accounts(request).delete(account["id"], body.password):
        request.app.state.store.changed(gid)
    return _logged_out(response)


@router.post("/api/account/seats", summary="claim the seats these tokens hold for the account")
def claim(request: Request, body: Seats):
    account = _needed(request)
    return {"claimed": _accounts(request).claim(account["id"], ((s.id, s.token) for s in body.seats))}


@router.get("/api/account/your-move", summary="the account's correspondence games awaiting its move (the nearest "
            "deadline first) and how often a page asks again")
def your_move(request: Request):
    account = _needed(request)
    awaiting = request.app.state.awaiting
    return {"games": awaiting.of(account["id"]), "poll_seconds": awaiting.poll_s}


@router.post("/api/account/games/{gid}/seat", summary="play the account's seats of a game on this device: a new "
             "seat token for them (the one that held them before holds them no more)")
def seat_here(request: Request, gid: str):
    account = _needed(request)
    token, sides = _accounts(request).seat_here(request.app.state.store, account["id"], gid)
    return {"seat": {"token": token, "sides": sides, "link": f"/game/{gid}#seat={token}"}}


def adopt(request: Request, game: Game, token: str) -> Game:
    """A seat taken by a logged-in request belongs to its account, and bears its name, and a rated game
    shows its rating (the game routes call this); the game as it is then."""
    account = account_of(request)
    if account is None or not _accounts(request).claim(account["id"], [(game.id, token)]):
        return game
    store = request.app.state.store
    return request.app.state.rater.seated(store, _accounts(request).sign(store, account["name"], game.id, token))


@router.get("/api/players/{name}", summary="a player's profile: ratings per variant, games (newest first) and "
            "results")
def profile(request: Request, name: str):
    store = request.app.state.store
    facts, played = _accounts(request).profile(name)
    ratings = request.app.state.rater.of_account(facts["id"], now())
    titles = store.catalog.titles({row["variant"] for row, _sides in played} | {r["variant"] for r in ratings})
    score = {"won": 0, "lost": 0, "drawn": 0}
    out = []
    for row, sides in played:
        if row["mode"] == "local" and row["ply"] == 0:
            continue
        outcome = _outcome(row["result"], sides)
        if outcome:
            score[outcome] += 1
        out.append({**summary_view(row, titles.get(row["variant"], row["variant"])), "sides": sides,
                    "outcome": outcome})
    rated = [{**r, "title": titles.get(r["variant"], r["variant"]), "leaderboard": f"/leaderboard/{r['variant']}"}
             for r in ratings]
    return {"name": facts["name"], "created": facts["created"].isoformat(), "results": score, "ratings": rated,
            "games": out}


def _outcome(result: str | None, sides: list[str]) -> str | None:
    """won, lost or drawn for the player of ``sides`` (None: not over, or both sides were theirs)."""
    if len(sides) != 1 or result not in ("1-0", "0-1", "1/2-1/2"):
        return None
    if result == "1/2-1/2":
        return "drawn"
    return "won" if (result == "1-0") == (sides[0] == "white") else "lost"



@router.get("/players/{name}", include_in_schema=False)
def profile_page(name: str):
    return FileResponse(str(resources.files("morphchess.web").joinpath("static", "profile.html")))
