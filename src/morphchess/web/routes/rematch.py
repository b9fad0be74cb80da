"""Rematches: after a game, one player offers a rematch with the colours swapped; when the other
accepts, a new game starts whose seats are held by the same two tokens, swapped (the row keeps the
tokens' hashes, so both browsers' tokens hold their new seats at once).  Where one token holds every
human seat (a local game, a game against the engine) the offer starts the rematch at once.  The accounts
that held seats hold the rematch's (swapped) too, and the rematch of a rated game between two accounts is
rated.  A tournament's game has no rematch (409): its tournament pairs the players' next games.
"""

from __future__ import annotations

import secrets
from datetime import datetime
from typing import Literal

from fastapi import APIRouter, Request
from pydantic import BaseModel
from sqlalchemy.engine import Connection

from .. import clocks, seats
from ..accounts import Accounts
from ..actions import holder
from ..db import games
from ..errors import Conflict
from ..game import Game, Status
from ..gameview import tournament_view
from ..limits import check
from ..seats import token_of
from ..store import Store
from .games import answer

__all__ = ["router", "rematch"]

router = APIRouter(prefix="/api")
_COPIED = ("variant", "setup", "start_fen", "mode", "level", "tc", "creator")


class RematchIn(BaseModel):
    action: Literal["offer", "accept", "decline"]


def _swapped(row: dict, gid: str, at: datetime) -> dict:
    """The row of the rematch of the game ``row``: its start, its players with colours swapped."""
    tc = clocks.parse(row["tc"])
    new = {k: row[k] for k in _COPIED}
    for side in seats.SIDES:
        them = seats.other(side)
        new.update({side: row[them], f"{side}_token": row[f"{them}_token"], f"{side}_name": row[f"{them}_name"],
                    f"{side}_joined": row[f"{them}_joined"], f"{side}_ms": tc.start_ms if tc else None})
    return {**new, "id": gid, "status": "playing", "clock_at": at, "ply": 0, "version": 0, "engine_stop": False,
            "engine_seq": 0, "talk_closed": False, "created": at, "updated": at}


def rematch(store: Store, gid: str, token: str | None, action: str) -> Game:
    """Offer, accept or decline a rematch of a finished game; the answer's row names the new game."""
    def act(conn: Connection, game: Game, at: datetime) -> None:
        sides = holder(game, token)
        row = game.row
        if game.status != Status.OVER:
            raise Conflict("a rematch follows a finished game")
        tournament = tournament_view(row)
        if tournament is not None:
            raise Conflict(f"a tournament game has no rematch: the tournament pairs your next game "
                           f"({tournament['link']})")
        if row["rematch"]:
            raise Conflict(f"the rematch has started already: game {row['rematch']}")
        offered = row["rematch_offer"]
        people = [s for s in seats.SIDES if row[s] == "human"]
        if action == "offer":
            if all(s in sides for s in people):  # nobody else to ask
                _start(store, conn, game, at)
            else:
                store.update(conn, game, at, rematch_offer=sides[0])
            return
        if offered is None or offered in sides:
            raise Conflict("no rematch offer of the opponent to answer")
        if action == "accept":
            _start(store, conn, game, at)
        else:
            store.update(conn, game, at, rematch_offer=None)
    return store.change(gid, act)


def _start(store: Store, conn: Connection, game: Game, at: datetime) -> None:
    """The rematch: its row, the accounts' seats (swapped), rated if the game was, between two accounts."""
    new = secrets.token_urlsafe(9)
    conn.execute(games.insert().values(**_swapped(game.row, new, at)))
    if Accounts.pass_seats(conn, game.id, new, at) == 2 and game.row["rated"]:
        conn.execute(games.update().where(games.c.id == new).values(rated=True))
    store.update(conn, game, at, rematch=new, rematch_offer=None)


@router.post("/games/{gid}/rematch", summary="offer, accept or decline a rematch (colours swapped)")
def post_rematch(request: Request, gid: str, body: RematchIn):
    if body.action != "decline":  # it may start a game: counted as one (a loop of rematches is no way round)
        check(request, "game")
    store = request.app.state.store
    game = rematch(store, gid, token_of(request), body.action)
    if game.row["rematch"]:
        started = request.app.state.rater.seated(store, store.get(game.row["rematch"]))  # its ratings shown
        request.app.state.bots.kick(started)  # an engine opening
    return answer(request, game)
