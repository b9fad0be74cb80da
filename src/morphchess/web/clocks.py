"""Time controls and the server's clocks.

A time control is written ``"M+S"`` (M minutes each, S seconds added after each
move) or ``"Nd"`` (N days for each move, correspondence), in ASCII digits.  The clocks run from
ply 2 on: each side's first move is untimed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime

from ..errors import InputError

__all__ = ["TimeControl", "parse", "CLOCK_FROM_PLY", "time_left"]

CLOCK_FROM_PLY = 2
_LIVE = re.compile(r"(\d{1,3}(?:\.\d{1,2})?)\+(\d{1,3})", re.ASCII)  # ASCII digits only (not ٥ or ５)
_DAYS = re.compile(r"(\d{1,2})\s*(?:d|days?)(?:\s+per\s+move)?", re.ASCII)
DAY_MS = 86_400_000


class TimeControlError(InputError):
    """A time control that cannot be read."""


@dataclass(frozen=True)
class TimeControl:
    text: str
    base_ms: int | None = None  # live: each side's time at the start
    increment_ms: int = 0
    per_move_ms: int | None = None  # correspondence: the time for each move

    def view(self) -> dict:
        return {"text": self.text, "base_ms": self.base_ms, "increment_ms": self.increment_ms,
                "per_move_ms": self.per_move_ms}

    @property
    def start_ms(self) -> int:
        """Each side's time before the first move."""
        return self.per_move_ms if self.per_move_ms is not None else self.base_ms or 0

    def after_move(self, left_ms: int) -> int:
        """The mover's time after a move that left it ``left_ms``."""
        return self.per_move_ms if self.per_move_ms is not None else left_ms + self.increment_ms


def parse(text: str | None) -> TimeControl | None:
    """``"5+3"``, ``"3d"`` (or ``"3 days per move"``), or None/empty for an untimed game."""
    if not text or not text.strip():
        return None
    spec = text.strip().lower()
    if m := _LIVE.fullmatch(spec):
        minutes, seconds = float(m[1]), int(m[2])
        if not 0 < minutes <= 600 or seconds > 600:
            raise TimeControlError(f"time control {spec!r}: 0 < minutes <= 600 and seconds <= 600")
        return TimeControl(m[0], base_ms=round(minutes * 60_000), increment_ms=seconds * 1000)
    if m := _DAYS.fullmatch(spec):
        days = int(m[1])
        if not 1 <= days <= 30:
            raise TimeControlError(f"time control {spec!r}: 1 to 30 days per move")
        return TimeControl(f"{days}d", per_move_ms=days * DAY_MS)
    raise TimeControlError(f"time control {text[:20]!r}: write minutes+seconds (\"5+3\") or days per move (\"3d\")")


def time_left(stored_ms: int, since: datetime, at: datetime) -> int:
    """A running clock's time left at ``at``: ``stored_ms`` when it was started at ``since``."""
    return stored_ms - int((at - since).total_seconds() * 1000)
