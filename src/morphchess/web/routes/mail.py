"""An account's mail settings over HTTP: ``GET`` and ``POST /api/account/mail`` (logged in only)."""

from __future__ import annotations

from fastapi import APIRouter, Request
from pydantic import BaseModel, Field

from ..limits import check
from ..mail import ADDRESS_LENGTH
from .accounts import NotLoggedIn, account_of

__all__ = ["router"]

router = APIRouter()


class MailChoice(BaseModel):
    address: str | None = Field(None, max_length=ADDRESS_LENGTH + 20, description="empty or null: no address")
    moves: bool = Field(False, description="mail me when it is my move in a correspondence game")


def _account_id(request: Request) -> int:
    account = account_of(request)
    if account is None:
        raise NotLoggedIn("log in first")
    return account["id"]


@router.get("/api/account/mail", summary="the account's e-mail address, whether it is mailed of its "
            "correspondence moves, and whether this server sends mail at all")
def mail_settings(request: Request):
    return request.app.state.notices.settings(_account_id(request))


@router.post("/api/account/mail", summary="set the account's e-mail address and whether it is mailed when it "
             "is its move in a correspondence game")
def choose_mail(request: Request, body: MailChoice):
    account_id = _account_id(request)
    check(request, "offer")
    return request.app.state.notices.choose(account_id, body.address, body.moves)
