"""A finished game's review by the engine (web/review.py): started by anyone, read by anyone."""

from __future__ import annotations

from fastapi import APIRouter, Request

from ..review import Reviews

__all__ = ["router"]

router = APIRouter(prefix="/api/games")


def _reviews(request: Request) -> Reviews:
    return request.app.state.reviews


@router.post("/{gid}/review", summary="start the engine's review of a finished game (one a game; "
             "the answer is the review so far)")
def start_review(request: Request, gid: str):
    return _reviews(request).start(gid)


@router.get("/{gid}/review", summary="a game's review: its progress, then each move's evaluation, "
            "the engine's best move, the move's loss and mark")
def get_review(request: Request, gid: str):
    return _reviews(request).view(gid)
