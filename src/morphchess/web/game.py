"""A game as read in one transaction: its row, its move rows and the board they give.

Also the typed words stored in a game's row: :class:`Status` and the endings the
server decides (:class:`Termination`; endings by the rules are the board's own).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum

from ..board import Board
from ..variant import WHITE, Variant
from . import clocks, seats
from .db import aware

__all__ = ["Game", "Status", "Termination", "MODES", "KINDS"]

MODES = ("local", "invite", "open")
KINDS = ("human", "engine")


class Status(StrEnum):
    """Where a game is: waiting for an opponent, being played, over, or aborted."""

    OPEN = "open"
    PLAYING = "playing"
    OVER = "over"
    ABORTED = "aborted"

    @property
    def finished(self) -> bool:
        return self in (Status.OVER, Status.ABORTED)


class Termination(StrEnum):
    """The endings the server decides (an ending by the rules is written as the board says it)."""

    RESIGNATION = "resignation"
    TIME = "time"
    TIME_BARE_KING = "insufficient material on time"
    AGREEMENT = "agreement"
    ABORTED = "aborted"
    MOVE_LIMIT = "move limit"


@dataclass
class Game:
    """A game as read in one transaction."""

    row: dict
    moves: list[dict]
    board: Board
    variant: Variant

    @property
    def id(self) -> str:
        return self.row["id"]

    @property
    def ply(self) -> int:
        return self.row["ply"]

    @property
    def status(self) -> Status:
        return Status(self.row["status"])

    @property
    def turn(self) -> str:
        return "white" if self.board.turn == WHITE else "black"

    @property
    def tc(self) -> clocks.TimeControl | None:
        return clocks.parse(self.row["tc"])

    def sides_of(self, token: str | None) -> list[str]:
        """The seats a token holds."""
        return seats.held(self.row, token)

    def clock_running(self) -> str | None:
        """The side losing time now, or None."""
        row = self.row
        if row["tc"] and self.status == Status.PLAYING and row["ply"] >= clocks.CLOCK_FROM_PLY:
            return self.turn
        return None

    def time_left(self, side: str, at: datetime) -> int:
        stored = self.row[f"{side}_ms"]
        if self.clock_running() == side:
            return clocks.time_left(stored, aware(self.row["clock_at"]), at)
        return stored

    def deadline(self) -> datetime | None:
        """When the side to move runs out of time, if its clock runs."""
        side = self.clock_running()
        if side is None:
            return None
        return aware(self.row["clock_at"]) + timedelta(milliseconds=self.row[f"{side}_ms"])

    def thinking(self, at: datetime) -> bool:
        lease = aware(self.row["engine_lease"])
        return bool(self.row["engine_job"]) and self.row["engine_job"] != "error" and lease is not None \
            and lease > at

    def engine_due(self) -> bool:
        """Is an engine seat to move?"""
        return self.status == Status.PLAYING and self.row[self.turn] == "engine"
