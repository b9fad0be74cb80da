"""The correspondence games awaiting an account's move, as the header of every page shows them.

A logged-in page asks ``GET /api/account/your-move`` when it opens and every :data:`POLL_S` seconds
while it is shown (the answer says how often).  Only the account's own games are read: those of its
seats, being played, with a time control of days per move, where the side to move is its seat and the
other side is not (a game against itself awaits nobody).  The work is bounded before it starts: an
account's answer is read at most once every :data:`FRESH_S` seconds in a process (the answers of
:data:`KEPT` accounts kept), from its :data:`LOOKED_AT` most recently changed such games.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from datetime import timedelta

from sqlalchemy import select

from . import clocks, seats
from .accounts import account_seats
from .db import aware, games
from .game import Status
from .gameview import black_first, iso
from .store import Store

__all__ = ["Awaiting", "POLL_S", "FRESH_S", "KEPT", "LOOKED_AT"]

POLL_S = 30  # a page asks again this often while it is shown
FRESH_S = 5.0  # an account's answer is read again at most this often in a process
KEPT = 1000  # accounts whose answers a process keeps (least recently asked first out)
LOOKED_AT = 200  # an account's correspondence games being played that are looked at (most recently changed)


class Awaiting:
    """The correspondence games awaiting each account's move, read at most every ``fresh_s`` seconds."""

    def __init__(self, store: Store, fresh_s: float = FRESH_S, poll_s: float = POLL_S) -> None:
        self.store, self.fresh_s, self.poll_s = store, fresh_s, poll_s
        self._kept: OrderedDict[int, tuple[float, list[dict]]] = OrderedDict()
        self._lock = threading.Lock()

    def of(self, account_id: int) -> list[dict]:
        """The account's games awaiting its move, the nearest deadline first (a game whose clock has not
        started last): ``id``, ``title``, ``side``, ``opponent`` (a name, or None), ``deadline`` and
        ``link``."""
        with self._lock:
            kept = self._kept.get(account_id)
            if kept is not None and time.monotonic() - kept[0] < self.fresh_s:
                self._kept.move_to_end(account_id)
                return kept[1]
        found = self._read(account_id)
        with self._lock:
            self._kept[account_id] = (time.monotonic(), found)
            self._kept.move_to_end(account_id)
            while len(self._kept) > KEPT:
                self._kept.popitem(last=False)
        return found

    def _read(self, account_id: int) -> list[dict]:
        query = (select(games.c.id, games.c.variant, games.c.start_fen, games.c.ply, games.c.tc, games.c.clock_at,
                        games.c.white_name, games.c.black_name, account_seats.c.side)
                 .join(account_seats, account_seats.c.game_id == games.c.id)
                 .where(account_seats.c.account_id == account_id, games.c.status == str(Status.PLAYING),
                        games.c.tc.like("%d"))
                 .order_by(games.c.updated.desc()).limit(LOOKED_AT))
        with self.store.db.read() as conn:
            rows = conn.execute(query).mappings().all()
        held: dict[str, list] = {}
        for row in rows:
            held.setdefault(row["id"], []).append(row)
        titles = self.store.catalog.titles({row["variant"] for row in rows})
        out = []
        for mine in held.values():
            row = mine[0]
            turn = "black" if (row["ply"] + black_first(row)) % 2 else "white"
            if len(mine) > 1 or row["side"] != turn:
                continue
            out.append({"id": row["id"], "title": titles.get(row["variant"], row["variant"]), "side": turn,
                        "opponent": row[f"{seats.other(turn)}_name"], "deadline": _deadline(row),
                        "link": f"/game/{row['id']}"})
        out.sort(key=lambda g: (g["deadline"] is None, g["deadline"] or ""))
        return out


def _deadline(row) -> str | None:
    """When the side to move runs out of time (None before the clock starts)."""
    tc = clocks.parse(row["tc"])
    if tc is None or tc.per_move_ms is None or row["ply"] < clocks.CLOCK_FROM_PLY:
        return None
    return iso(aware(row["clock_at"]) + timedelta(milliseconds=tc.per_move_ms))
