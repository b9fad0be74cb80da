"""The talk part of the HTTP API: read, write and follow a game's talk; open or close it to spectators."""

from __future__ import annotations

from fastapi import APIRouter, Header, Query, Request
from fastapi.responses import StreamingResponse
from pydantic import BaseModel, Field

from ..db import MAX_INT
from ..errors import until_unavailable
from ..events import resume_from
from ..limits import check, client_key
from ..seats import token_of
from ..talk import Talk, clean, stream

__all__ = ["router"]

router = APIRouter(prefix="/api")


class MessageIn(BaseModel):
    text: str = Field(..., max_length=2000, description="the message (plain text; at most 300 characters "
                                                        "once whitespace is folded)")
    name: str | None = Field(None, max_length=40, description="a spectator's name (players write under theirs)")


class SpectatorsIn(BaseModel):
    open: bool = Field(..., description="may spectators write?")


def _talk(request: Request) -> Talk:
    return Talk(request.app.state.store)


@router.get("/games/{gid}/talk", summary="the game's talk: messages after id `since`, oldest first")
def read(request: Request, gid: str, since: int = Query(0, ge=0, le=MAX_INT)):
    game = request.app.state.store.get(gid)
    return {"messages": _talk(request).messages(gid, since), "spectators": not game.row["talk_closed"]}


@router.post("/games/{gid}/talk", summary="write in the game's talk (players; spectators unless closed)")
def write(request: Request, gid: str, body: MessageIn):
    text = clean(body.text)  # a refused text is not counted
    request.app.state.store.get(gid)  # nor a message to no game
    check(request, "talk", gid)
    return _talk(request).post(gid, token_of(request), text, body.name, client_key(request))


@router.post("/games/{gid}/talk/spectators", summary="open or close the talk to spectators (a seat holder)")
def spectators(request: Request, gid: str, body: SpectatorsIn):
    check(request, "offer", gid)
    return {"spectators": _talk(request).set_spectators(gid, token_of(request), body.open)}


@router.get("/games/{gid}/talk/events", summary="the talk's live event stream (Server-Sent Events)")
def events(request: Request, gid: str, since: int = Query(0, ge=0, le=MAX_INT),
           last_event_id: str | None = Header(None),
           player: bool = Query(False, description="the listener holds a seat (not counted as a spectator)")):
    request.app.state.store.get(gid)  # 404 before the stream starts
    start = resume_from(last_event_id, since) or 0
    body = until_unavailable(stream(request.app.state.talk_hub, gid, start, spectator=not player))
    return StreamingResponse(body, media_type="text/event-stream",
                             headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})
