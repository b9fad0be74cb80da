"""Tournaments over HTTP: the list, making an arena or a Swiss tournament, joining and withdrawing, and a
tournament's state
(``/api/tournaments``, the pages ``/tournaments`` and ``/tournaments/{id}``).

Making one is counted per client (``tournaments_per_hour``), joining and withdrawing too
(``joins_per_minute``); both need an account.  Reading a tournament also runs what its clock brings
(:meth:`Tournaments.tick`: pairing after the start, ending games out of time, aborting games nobody
began), at most every two seconds per tournament.
"""

from __future__ import annotations

from importlib import resources

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse
from pydantic import BaseModel, Field

from ..limits import check
from ..tournaments import MINUTES, NAME_LENGTH, PLAYERS, ROUNDS, STARTS_IN, NewTournament, Tournaments
from .accounts import NotLoggedIn, account_of

__all__ = ["router"]

router = APIRouter()


class NewTournamentIn(BaseModel):
    name: str = Field(..., max_length=NAME_LENGTH[1] + 20, description="shown to everyone, as text")
    kind: str = Field("arena", max_length=20, description="arena or swiss")
    variant: str = Field("chess", max_length=40, description="a built-in name or a pasted definition's key")
    time_control: str = Field("3+2", max_length=20, description='minutes+seconds, "3+2" (no correspondence)')
    minutes: int = Field(60, description=f"length (a Swiss tournament's longest), {MINUTES[0]} to {MINUTES[1]} minutes")
    starts_in: int = Field(0, description=f"minutes until the start, {STARTS_IN[0]} to {STARTS_IN[1]}")
    max_players: int = Field(50, description=f"{PLAYERS[0]} to {PLAYERS[1]}")
    rounds: int | None = Field(None, description=f"a Swiss tournament's rounds, {ROUNDS[0]} to {ROUNDS[1]}")


def _tournaments(request: Request) -> Tournaments:
    return request.app.state.tournaments


def _account_id(request: Request) -> int:
    account = account_of(request)
    if account is None:
        raise NotLoggedIn("log in first: tournaments are for accounts")
    return account["id"]


@router.get("/api/tournaments", summary="the tournaments coming and running, and the newest finished ones")
def listing(request: Request):
    return _tournaments(request).listing()


@router.post("/api/tournaments", summary="make an arena or a Swiss tournament (an account; bounded length, size, "
                                         "rounds and clock)")
def create(request: Request, body: NewTournamentIn):
    account_id = _account_id(request)
    check(request, "tournament")
    tournaments = _tournaments(request)
    tid = tournaments.create(account_id, NewTournament(**body.model_dump()))
    return tournaments.view(tid, account_id)


@router.get("/api/tournaments/{tid}", summary="a tournament: standings, games being played, and `you`")
def view(request: Request, tid: str):
    tournaments = _tournaments(request)
    account = account_of(request)
    tournaments.tick(tid)
    return tournaments.view(tid, account["id"] if account else None)


@router.post("/api/tournaments/{tid}/join", summary="join (or join again after withdrawing); an arena pairs at "
                                                    "once, a Swiss tournament at its next round")
def join(request: Request, tid: str):
    account_id = _account_id(request)
    check(request, "join")
    tournaments = _tournaments(request)
    for gid in tournaments.join(tid, account_id):
        request.app.state.store.changed(gid)
    return tournaments.view(tid, account_id)


@router.post("/api/tournaments/{tid}/withdraw", summary="leave pairing (a game going on still counts)")
def withdraw(request: Request, tid: str):
    account_id = _account_id(request)
    check(request, "join")
    tournaments = _tournaments(request)
    tournaments.withdraw(tid, account_id)
    return tournaments.view(tid, account_id)


def _page(name: str) -> FileResponse:
    return FileResponse(str(resources.files("morphchess.web").joinpath("static", name)))


@router.get("/tournaments", include_in_schema=False)
def listing_page():
    return _page("tournaments.html")


@router.get("/tournaments/{tid}", include_in_schema=False)
def tournament_page(tid: str):
    return _page("tournament.html")
