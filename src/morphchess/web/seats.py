"""Seat tokens: who may play a side.  Only a token's SHA-256 is stored; tokens are never logged."""

from __future__ import annotations

import hashlib
import secrets

from fastapi import Request

__all__ = ["new_token", "digest", "held", "token_of", "SIDES", "other"]

SIDES = ("white", "black")


def new_token() -> str:
    """A fresh seat token: 128 random bits, URL-safe."""
    return secrets.token_urlsafe(16)


def digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def held(row, token: str | None) -> list[str]:
    """The seats of a game's row that a token holds."""
    if not token:
        return []
    mine = digest(token)
    return [s for s in SIDES if row[f"{s}_token"] == mine]


def token_of(request: Request) -> str | None:
    """The seat token of a request (``Authorization: Bearer TOKEN``), or None."""
    scheme, _, value = request.headers.get("authorization", "").partition(" ")
    return value.strip() or None if scheme.lower() == "bearer" else None


def other(side: str) -> str:
    return "black" if side == "white" else "white"

