"""The lobby's live event stream (the lists themselves: ``GET /api/lobby`` in routes/games.py)."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import StreamingResponse

from ..lobbyfeed import LobbyFeed
from .games import lobby_lists

__all__ = ["router"]

router = APIRouter(prefix="/api")


def _feed(request: Request) -> LobbyFeed:
    state = request.app.state
    if not hasattr(state, "lobby_feed"):
        state.lobby_feed = LobbyFeed(lambda: lobby_lists(state.store))
    return state.lobby_feed


@router.get("/lobby/events", summary="the lobby's live event stream: a `lobby` event whenever its lists change")
def events(request: Request):
    feed = _feed(request)
    feed.open()  # the budget, before the stream starts
    return StreamingResponse(feed.stream(request.app.state.notifier.closed), media_type="text/event-stream",
                             headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})
