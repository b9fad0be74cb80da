"""Rated games: who may play one, each account's Glicko-2 rating per variant, and rating a game as it ends.

A game is *rated* or *casual* when it is made.  A rated game is between two accounts: made by a logged-in
player, in ``invite`` or ``open`` mode, both seats people's; its other seat is taken only by another
account (:func:`taker`).  When it ends with a result (:meth:`Rater.ended`, a hook of
:meth:`~morphchess.web.store.Store.end`, so in the ending's own transaction and once), both players'
ratings of its variant (a built-in name, or a pasted definition's key) are updated together.

Rating periods: every rated game is a rating period of its own, as on lichess.  Before it, each player's
deviation grows for the time since their last rated game of the variant, one empty period per
:data:`PERIOD_DAYS` (Glicko-2's step 6; a part of a period counts in part), never above a new player's.
The game's row keeps the ratings its page shows (``games.ratings``, JSON): each side's rating and
deviation before the game, and once it is rated, the rating after it.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import datetime

from sqlalchemy import Column, DateTime, Float, ForeignKey, Index, Integer, String, Table, func, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection

from ..ratings import Rating, idle, rate
from . import seats
from .accounts import account_seats, accounts
from .db import Database, aware, games, metadata
from .errors import ApiError, BadInput
from .game import Game
from .store import Store

__all__ = ["ratings", "Rater", "RatedRefused", "check_new", "needs_account", "taker", "current",
           "PERIOD_DAYS", "PAGE_SIZE", "MAX_PAGE", "PROFILE_RATINGS"]

PERIOD_DAYS = 7.0  # days without rated games of a variant that count as one empty rating period
PAGE_SIZE = 50  # players on a page of a leaderboard
MAX_PAGE = 20  # pages of a leaderboard (its top 1000)
PROFILE_RATINGS = 100  # ratings a profile lists (the variants played most)
_SCORES = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}  # White's score

ratings = Table(
    "ratings", metadata,
    Column("account_id", Integer, ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True),
    Column("variant", String(40), primary_key=True),  # as games.variant
    Column("rating", Float, nullable=False),
    Column("deviation", Float, nullable=False),
    Column("volatility", Float, nullable=False),
    Column("games", Integer, nullable=False),  # rated games played
    Column("updated", DateTime(timezone=True), nullable=False),  # the end of the last one
    Index("ratings_board", "variant", "rating"),
)


class RatedRefused(ApiError):
    """A rated game, or a seat of one, that cannot be: the message says why."""

    status, code = 403, "rated"


def check_new(rated: bool, mode: str, kinds: dict[str, str]) -> None:
    """Refuse (BadInput) a rated game that could never be rated: a local game or an engine seat."""
    if not rated:
        return
    if mode == "local":
        raise BadInput("a rated game is between two accounts: make it an invite or an open seek, or casual")
    if any(kind != "human" for kind in kinds.values()):
        raise BadInput("a rated game is between two people: no engine seat; play the engine casual")


def needs_account(account: dict | None) -> None:
    """Refuse a rated game made without logging in."""
    if account is None:
        raise RatedRefused("a rated game needs an account: log in, or make the game casual")


def taker(account: dict | None) -> Callable[[Connection, Game, list[str]], None]:
    """A check for taking ``sides`` of a game (in its locked transaction): a rated game's seat only for an
    account, and not for the one that holds its other seat."""
    def check(conn: Connection, game: Game, sides: list[str]) -> None:
        if not game.row["rated"] or not sides:
            return
        if account is None:
            raise RatedRefused("this game is rated: log in to take its seat (rated games are between accounts)")
        if account["id"] in _holders(conn, game.id).values():
            raise RatedRefused("this account holds the other seat of this rated game: a rated game is between "
                               "two accounts")
    return check


def _holders(conn: Connection, gid: str) -> dict[str, int]:
    """The accounts holding a game's seats, by side."""
    rows = conn.execute(select(account_seats.c.side, account_seats.c.account_id)
                        .where(account_seats.c.game_id == gid))
    return dict(rows.all())


def current(row, at: datetime) -> Rating:
    """A stored rating as of ``at``: its deviation grown for the time since its last game."""
    days = (at - aware(row.updated)).total_seconds() / 86400
    return idle(Rating(row.rating, row.deviation, row.volatility), days / PERIOD_DAYS)


class Rater:
    """The ratings of a server's accounts: updated as rated games end, read for pages."""

    def __init__(self, db: Database) -> None:
        self.db = db

    # -- a rated game ----------------------------------------------------------------------
    def seated(self, store: Store, game: Game) -> Game:
        """Write into a rated game's row the ratings of the accounts now holding its seats (a seat taken);
        the game then (a casual one as it was)."""
        def act(conn: Connection, game: Game, at: datetime) -> None:
            if not game.status.finished:
                shown = seat_ratings(conn, game.row["variant"], _holders(conn, game.id), at)
                store.update(conn, game, at, ratings=shown)
        return store.change(game.id, act) if game.row["rated"] else game

    def ended(self, conn: Connection, game: Game) -> None:
        """The hook of :meth:`Store.end`: rate a rated game that ended with a result, both players at once
        in the ending's transaction (Store.end runs once a game, under its row's lock)."""
        row = game.row
        if not row["rated"] or row["result"] not in _SCORES:
            return
        holders = _holders(conn, game.id)
        why = _unratable(row, holders)
        if why is not None:  # the ratings shown stay, and say why they did not change
            self._write(conn, game, {**json.loads(row["ratings"] or "{}"), "note": f"not rated: {why}"})
            return
        at = aware(row["updated"])
        before = self._locked(conn, row["variant"], holders, at)
        after = {side: rate(before[side], [(before[seats.other(side)], _score(row["result"], side))])
                 for side in seats.SIDES}
        for side, account in holders.items():
            self._store(conn, account, row["variant"], after[side], at)
        self._write(conn, game, {side: _shown(before[side], after[side]) for side in seats.SIDES})

    def _locked(self, conn: Connection, variant: str, holders: dict[str, int], at: datetime) -> dict[str, Rating]:
        """Both players' ratings as of ``at``, their rows made if new, and locked."""
        insert = (sqlite.insert if conn.dialect.name == "sqlite" else postgresql.insert)(ratings)
        fresh = Rating()
        for account in sorted(holders.values()):
            conn.execute(insert.values(account_id=account, variant=variant, rating=fresh.rating,
                                       deviation=fresh.deviation, volatility=fresh.volatility, games=0,
                                       updated=at).on_conflict_do_nothing())
        return _ratings_of(conn, variant, holders, at, lock=True)

    def _store(self, conn: Connection, account: int, variant: str, new: Rating, at: datetime) -> None:
        conn.execute(ratings.update().where(ratings.c.account_id == account, ratings.c.variant == variant)
                     .values(rating=new.rating, deviation=new.deviation, volatility=new.volatility,
                             games=ratings.c.games + 1, updated=at))

    def _write(self, conn: Connection, game: Game, shown: dict) -> None:
        """The ratings the game's page shows, in its row (Store.end has counted the new version)."""
        text = json.dumps(shown)
        conn.execute(games.update().where(games.c.id == game.id).values(ratings=text))
        game.row["ratings"] = text

    # -- reading ---------------------------------------------------------------------------
    def of_account(self, account_id: int, at: datetime) -> list[dict]:
        """An account's ratings, the variants it played most first (at most :data:`PROFILE_RATINGS`)."""
        with self.db.read() as conn:
            rows = conn.execute(ratings.select().where(ratings.c.account_id == account_id)
                                .order_by(ratings.c.games.desc(), ratings.c.variant).limit(PROFILE_RATINGS)).all()
        return [{"variant": r.variant, "games": r.games, **_rating_view(current(r, at))} for r in rows]

    def board(self, variant: str, page: int, at: datetime) -> tuple[int, list[dict]]:
        """A variant's players on a page (from 1) of its leaderboard, best first, and how many it rates."""
        first = (page - 1) * PAGE_SIZE
        with self.db.read() as conn:
            total = conn.execute(select(func.count()).select_from(ratings)
                                 .where(ratings.c.variant == variant)).scalar_one()
            rows = conn.execute(select(accounts.c.name, ratings).join(accounts, accounts.c.id == ratings.c.account_id)
                                .where(ratings.c.variant == variant)
                                .order_by(ratings.c.rating.desc(), accounts.c.name_key)
                                .offset(first).limit(PAGE_SIZE)).all()
        return total, [{"rank": first + i, "name": r.name, "games": r.games, **_rating_view(current(r, at))}
                       for i, r in enumerate(rows, start=1)]

    def variants(self, limit: int = 100) -> list[dict]:
        """The variants with rated players, the most rated first: ``variant`` and ``players``."""
        players = func.count().label("players")
        with self.db.read() as conn:
            rows = conn.execute(select(ratings.c.variant, players).group_by(ratings.c.variant)
                                .order_by(players.desc(), ratings.c.variant).limit(limit)).all()
        return [{"variant": v, "players": n} for v, n in rows]


def seat_ratings(conn: Connection, variant: str, holders: dict[str, int], at: datetime) -> str:
    """The ``ratings`` column of a rated game whose seats ``holders`` (side: account id) hold: each
    side's rating of ``variant`` before the game, as the page shows it."""
    return json.dumps({side: _shown(r, None) for side, r in _ratings_of(conn, variant, holders, at).items()})


def _ratings_of(conn: Connection, variant: str, holders: dict[str, int], at: datetime,
                lock: bool = False) -> dict[str, Rating]:
    """The seated accounts' ratings of a variant as of ``at``, by side (a new player's where none is
    stored); ``lock``: their rows locked until the transaction ends, in one order (no deadlock)."""
    query = (ratings.select().where(ratings.c.account_id.in_(holders.values()), ratings.c.variant == variant)
             .order_by(ratings.c.account_id))
    found = {r.account_id: current(r, at) for r in conn.execute(query.with_for_update() if lock else query)}
    return {side: found.get(account, Rating()) for side, account in holders.items()}


def _unratable(row, holders: dict[str, int]) -> str | None:
    """Why a rated game's ending cannot be rated (None: it can)."""
    for side in seats.SIDES:
        if row[side] != "human":
            return f"{side} is the engine"
        if side not in holders:
            return f"{side}'s seat belongs to no account"
    if holders["white"] == holders["black"]:
        return "one account held both seats"
    return None


def _score(result: str, side: str) -> float:
    white = _SCORES[result]
    return white if side == "white" else 1 - white


def _shown(before: Rating, after: Rating | None) -> dict:
    return {"rating": before.rating, "deviation": before.deviation, "after": None if after is None else after.rating}


def _rating_view(r: Rating) -> dict:
    return {"rating": round(r.rating), "deviation": round(r.deviation), "provisional": r.provisional}
