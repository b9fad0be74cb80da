"""My games: the games whose seats a browser holds, read from the tokens it keeps (no sign-up).

The page sends the ids and tokens it keeps; the answer lists the games the tokens
really hold a seat of: those where it is the holder's move first (games between
people), then the other games going on, then the finished ones, newest first
within each.  A local game nobody has moved in yet is left out (the page starts
one on every first visit).
"""

from __future__ import annotations

from fastapi import APIRouter, Request
from pydantic import BaseModel, Field

from .. import seats
from ..db import games
from ..gameview import black_first, summary_view

__all__ = ["router", "MAX_GAMES"]

MAX_GAMES = 200
router = APIRouter(prefix="/api")


class Held(BaseModel):
    id: str = Field(..., max_length=16)
    token: str = Field(..., max_length=64)


class MyGamesIn(BaseModel):
    games: list[Held] = Field(..., max_length=MAX_GAMES, description="the games and seat tokens a browser keeps")


def _turn(row) -> str:
    """The side to move, from the start position's side and the moves played."""
    return "black" if (row["ply"] + black_first(row)) % 2 else "white"


def _group(view: dict) -> int:
    """0: the holder's move in a game between people, 1: other games going on, 2: finished."""
    if view["status"] in ("over", "aborted"):
        return 2
    return 0 if view["your_turn"] else 1


@router.post("/mygames", summary="the games whose seats the given tokens hold: your move first, then others, "
                                 "then finished")
def my_games(request: Request, body: MyGamesIn):
    store = request.app.state.store
    tokens = {held.id: held.token for held in body.games}
    with store.db.read() as conn:
        rows = conn.execute(games.select().where(games.c.id.in_(tokens))).mappings().all()
    titles = store.catalog.titles({r["variant"] for r in rows})
    out = []
    for row in rows:
        you = seats.held(row, tokens[row["id"]])
        if not you or (row["mode"] == "local" and row["ply"] == 0):
            continue
        turn = _turn(row)
        mine = row["mode"] != "local" and row["status"] == "playing" and turn in you and row[turn] == "human"
        free = [s for s in seats.SIDES if row[s] == "human" and not (row[f"{s}_token"] and row[f"{s}_joined"])]
        out.append({**summary_view(dict(row), titles.get(row["variant"], row["variant"])), "you": you,
                    "turn": turn, "your_turn": mine, "free": free})
    out.sort(key=lambda v: v["updated"] or "", reverse=True)
    out.sort(key=_group)
    return {"games": out}
