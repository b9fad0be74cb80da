"""Tournaments of accounts: arenas and Swiss tournaments (their rules, pure: :mod:`.pairing`).

An arena runs for a fixed time, and a player is paired again as soon as their game ends: a win scores
2, a draw 1, a loss 0, doubled after two wins in a row.  A Swiss tournament plays a fixed number of
rounds, each paired once every game of the one before has ended: a win scores 1, a draw ½, a bye 1
(stored in half-points).  Either ends at its time at the latest (a Swiss one also after its last
round): the standings are then final, and a game still being played does not count.

A tournament learns that its game ended through a hook of :attr:`Store.endings`, in the ending's own
transaction, which scores the game and pairs at once (the free players of an arena, a Swiss
tournament's next round).  Pairing also runs when a player joins, and when the tournament's page
asks after its start (:meth:`Tournaments.tick`, which also ends the games whose time ran out, and
aborts a game whose side to move has not made its first move in :data:`FIRST_MOVE_S`, withdrawing
that player).  Every pairing is bounded by the tournament's size.  Locks are taken in one order: a
game's row, then its tournament's row; every change to a tournament's players holds the
tournament's row.
"""

from __future__ import annotations

import secrets
import threading
import time
import unicodedata
from collections import OrderedDict
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import Boolean, Column, DateTime, ForeignKey, Integer, String, Table, func, select
from sqlalchemy.engine import Connection

from . import clocks, seats
from .accounts import account_seats, accounts
from .db import aware, games, metadata, moves, now
from .errors import BadInput, Conflict, NotFound
from .game import Game, Status, Termination
from .gameview import TOURNAMENT_CREATOR, iso
from .pairing import FIRE, Waiting, arena_pairs, points, swiss_round
from .rated import seat_ratings
from .store import Store

__all__ = ["tournaments", "entrants", "pairings", "Tournaments", "NewTournament", "KINDS", "FIRST_MOVE_S",
           "MINUTES", "STARTS_IN", "PLAYERS", "ROUNDS", "NAME_LENGTH", "TC_MINUTES", "TC_INCREMENT",
           "OPEN_PER_ACCOUNT", "SHEET", "BYE"]

KINDS = ("arena", "swiss")
FIRST_MOVE_S = 30  # a tournament game whose side to move has not made its first move by then is aborted
MINUTES = (5, 720)  # an arena's length, a Swiss tournament's longest
STARTS_IN = (0, 1440)  # minutes from its creation to its start
PLAYERS = (2, 200)  # bounds of a tournament's largest number of players
ROUNDS = (2, 15)  # a Swiss tournament's rounds
NAME_LENGTH = (3, 60)
TC_MINUTES = 60  # a tournament game's clock: at most this many minutes ...
TC_INCREMENT = 60  # ... and seconds added a move
OPEN_PER_ACCOUNT = 3  # tournaments not yet over that one account may have made
SHEET = 60  # points of the newest games kept on a player's line
BYE = "+"  # a Swiss bye on a player's line (it scores a win's points)
LISTED = 50  # tournaments of each list (coming and running, finished)
PLAYED = 100  # finished games a tournament's page links (the newest)
TICK_S = 2.0  # a process checks a tournament's idle games and free players at most this often
_WHEN = DateTime(timezone=True)

tournaments = Table(
    "tournaments", metadata,
    Column("id", String(12), primary_key=True),
    Column("kind", String(8), nullable=False),  # arena, swiss
    Column("name", String(NAME_LENGTH[1]), nullable=False),
    Column("variant", String(200), nullable=False),
    Column("tc", String(16), nullable=False),
    Column("max_players", Integer, nullable=False),
    Column("rounds", Integer),  # swiss: how many; arena: NULL
    Column("round", Integer, nullable=False),  # swiss: the round paired last (0 before the first)
    Column("starts", _WHEN, nullable=False),
    Column("ends", _WHEN, nullable=False, index=True),  # at the latest (a Swiss one: set when its last round ends)
    Column("creator_id", Integer, ForeignKey("accounts.id", ondelete="SET NULL"), index=True),
    Column("created", _WHEN, nullable=False),
)

entrants = Table(
    "tournament_players", metadata,
    Column("tournament_id", String(12), ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True),
    Column("account_id", Integer, ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True, index=True),
    Column("active", Boolean, nullable=False),  # False: withdrawn (not paired; may join again)
    Column("score", Integer, nullable=False),
    Column("games", Integer, nullable=False),  # counted games
    Column("wins", Integer, nullable=False),
    Column("draws", Integer, nullable=False),
    Column("streak", Integer, nullable=False),  # arena: wins in a row, up to the last counted game
    Column("balance", Integer, nullable=False),  # games as White minus games as Black
    Column("last_opponent", Integer),  # account id of the last pairing
    Column("sheet", String(SHEET), nullable=False),  # the points of each counted game (or BYE), newest last
    Column("free_since", _WHEN, nullable=False),  # joined, or their last game ended
    Column("joined", _WHEN, nullable=False),
)

pairings = Table(
    "tournament_games", metadata,
    Column("game_id", String(16), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("tournament_id", String(12), ForeignKey("tournaments.id", ondelete="CASCADE"), nullable=False,
           index=True),
    Column("white_id", Integer, ForeignKey("accounts.id", ondelete="SET NULL")),
    Column("black_id", Integer, ForeignKey("accounts.id", ondelete="SET NULL")),
    Column("ended", Boolean, nullable=False),
    Column("white_points", Integer),  # NULL: not counted (aborted, ended after the tournament) or not over
    Column("black_points", Integer),
    Column("created", _WHEN, nullable=False),
)


def _outcome(result: str, side: str) -> str:
    if result == "1/2-1/2":
        return "draw"
    return "win" if (result == "1-0") == (side == "white") else "loss"


# -- making one ----------------------------------------------------------------------------------

@dataclass
class NewTournament:
    """What a new tournament is made of (the API's request)."""

    name: str
    kind: str = "arena"
    variant: str = "chess"
    time_control: str = "3+2"
    minutes: int = 60  # an arena's length; a Swiss tournament's longest
    starts_in: int = 0  # minutes
    max_players: int = 50
    rounds: int | None = None  # swiss only


def _bounded(what: str, value: int, bounds: tuple[int, int]) -> int:
    low, high = bounds
    if not low <= value <= high:
        raise BadInput(f"{what} {value}: use {low} to {high}")
    return value


def check_name(name: str) -> str:
    """A tournament's name as stored: stripped, 3 to 60 characters, no control or format characters
    (which could hide or reorder text); shown as text wherever it appears."""
    name = name.strip()
    _bounded("name: length", len(name), NAME_LENGTH)
    bad = next((c for c in name if unicodedata.category(c) in ("Cc", "Cf", "Co", "Cs", "Zl", "Zp")), None)
    if bad is not None:
        raise BadInput(f"name: character U+{ord(bad):04X} is not allowed; use letters, digits, spaces and "
                       "punctuation")
    return name


def check_clock(text: str) -> clocks.TimeControl:
    """A tournament game's time control: minutes+seconds, at most :data:`TC_MINUTES` minutes and
    :data:`TC_INCREMENT` seconds a move (no correspondence, no untimed games)."""
    try:
        tc = clocks.parse(text)
    except clocks.TimeControlError as e:
        raise BadInput(str(e)) from None
    if tc is None or tc.base_ms is None:
        raise BadInput(f"time control {text[:20]!r}: a tournament needs a clock, written minutes+seconds (\"3+2\")")
    if tc.base_ms > TC_MINUTES * 60_000 or tc.increment_ms > TC_INCREMENT * 1000:
        raise BadInput(f"time control {tc.text!r}: at most {TC_MINUTES} minutes and {TC_INCREMENT} seconds a move")
    return tc


class Tournaments:
    """The tournaments of a server; scores and pairs through the store's ending hook."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.db = store.db
        store.endings.append(self._ended)
        self._ticked: OrderedDict[str, float] = OrderedDict()  # tournament -> when this process last checked
        self._lock = threading.Lock()

    def create(self, account_id: int, spec: NewTournament) -> str:
        """A new tournament's id, made by the account; BadInput naming a parameter out of its bounds,
        Conflict when the account already has :data:`OPEN_PER_ACCOUNT` tournaments not yet over."""
        name = check_name(spec.name)
        if spec.kind not in KINDS:
            raise BadInput(f"kind {spec.kind[:20]!r}: use {' or '.join(KINDS)}")
        if (spec.kind == "swiss") != (spec.rounds is not None):
            raise BadInput("rounds: give them for a swiss tournament, and only for one")
        rounds = _bounded("rounds", spec.rounds, ROUNDS) if spec.rounds is not None else None
        tc = check_clock(spec.time_control)
        minutes = _bounded("minutes", spec.minutes, MINUTES)
        starts_in = _bounded("starts_in", spec.starts_in, STARTS_IN)
        players = _bounded("max_players", spec.max_players, PLAYERS)
        try:
            self.store.catalog.get(spec.variant)
        except NotFound as e:
            raise BadInput(str(e)) from None
        at = now()
        tid = secrets.token_urlsafe(9)
        with self.db.write() as conn:
            mine = conn.execute(select(func.count()).select_from(tournaments)
                                .where(tournaments.c.creator_id == account_id, tournaments.c.ends > at)).scalar_one()
            if mine >= OPEN_PER_ACCOUNT:
                raise Conflict(f"you already have {mine} tournaments that are not over; at most {OPEN_PER_ACCOUNT}")
            starts = at + timedelta(minutes=starts_in)
            conn.execute(tournaments.insert().values(
                id=tid, kind=spec.kind, name=name, variant=spec.variant, tc=tc.text, max_players=players,
                rounds=rounds, round=0, starts=starts, ends=starts + timedelta(minutes=minutes),
                creator_id=account_id, created=at))
        return tid

    # -- players ----------------------------------------------------------------------------------
    def join(self, tid: str, account_id: int) -> list[str]:
        """Enter the account (again, after a withdrawal: its score stays) and pair if the tournament runs;
        the ids of the games started.  A Swiss tournament takes nobody once its last round is paired."""
        at = now()
        with self.db.write() as conn:
            t = self._locked(conn, tid, at)
            if t["kind"] == "swiss" and t["round"] >= t["rounds"]:
                raise Conflict("the last round has started: no more players")
            mine = (entrants.c.tournament_id == tid) & (entrants.c.account_id == account_id)
            entry = conn.execute(select(entrants.c.active).where(mine)).first()
            if entry is not None and entry.active:
                raise Conflict("you are in this tournament already")
            if entry is not None:
                conn.execute(entrants.update().where(mine).values(active=True, free_since=at))
            else:
                count = conn.execute(select(func.count()).select_from(entrants)
                                     .where(entrants.c.tournament_id == tid)).scalar_one()
                if count >= t["max_players"]:
                    raise Conflict(f"the tournament is full: {count} players")
                conn.execute(entrants.insert().values(
                    tournament_id=tid, account_id=account_id, active=True, score=0, games=0, wins=0, draws=0,
                    streak=0, balance=0, sheet="", free_since=at, joined=at))
            return self._advance(conn, t, at)

    def withdraw(self, tid: str, account_id: int) -> None:
        """Take the account out of pairing (a game it is playing goes on and counts)."""
        at = now()
        with self.db.write() as conn:
            self._locked(conn, tid, at)
            mine = (entrants.c.tournament_id == tid) & (entrants.c.account_id == account_id)
            if not conn.execute(entrants.update().where(mine, entrants.c.active.is_(True))
                                .values(active=False)).rowcount:
                raise Conflict("you are not playing in this tournament")

    def _locked(self, conn: Connection, tid: str, at: datetime) -> dict:
        """The tournament's row, locked; NotFound, or Conflict once it is over."""
        row = conn.execute(tournaments.select().where(tournaments.c.id == tid).with_for_update()).mappings().first()
        if row is None:
            raise NotFound(f"no tournament {tid[:20]!r}")
        if aware(row["ends"]) <= at:
            raise Conflict("the tournament is over")
        return dict(row)

    # -- pairing -------------------------------------------------------------------------------------
    def _plan(self, conn: Connection, t: dict, at: datetime) -> _Plan:
        """What pairing would do now (nothing before the start or after the end): an arena's pairs of free
        players; a Swiss tournament's next round once no game of it is being played, or its finish."""
        if not aware(t["starts"]) <= at < aware(t["ends"]):
            return _Plan([])
        tid, arena = t["id"], t["kind"] == "arena"
        playing = {pid for row in conn.execute(select(pairings.c.white_id, pairings.c.black_id)
                                               .where(pairings.c.tournament_id == tid, pairings.c.ended.is_(False)))
                   for pid in row}
        rows = conn.execute(select(entrants).where(entrants.c.tournament_id == tid, entrants.c.active.is_(True))
                            .order_by(entrants.c.score.desc(), entrants.c.free_since if arena else entrants.c.joined,
                                      entrants.c.account_id)).mappings().all()
        if arena:
            free = [Waiting(r["account_id"], r["score"], r["balance"], r["last_opponent"])
                    for r in rows if r["account_id"] not in playing]
            return _Plan(arena_pairs(free, again=len(rows) == 2))
        if playing:
            return _Plan([])
        if t["round"] >= t["rounds"]:
            return _Plan([], finish=True)
        if len(rows) < 2:
            return _Plan([])
        met = _opponents(conn, tid)
        found = swiss_round([Waiting(r["account_id"], r["score"], r["balance"], had_bye=BYE in r["sheet"],
                                     met=frozenset(met.get(r["account_id"], ()))) for r in rows])
        return _Plan([], finish=True) if found is None else _Plan(*found)

    def _advance(self, conn: Connection, t: dict, at: datetime) -> list[str]:
        """Carry out the plan (the tournament's row is locked): start its games, give the bye, count the
        round, or end a Swiss tournament whose rounds are over; the ids of the games started."""
        plan = self._plan(conn, t, at)
        this = tournaments.c.id == t["id"]
        if plan.finish:
            conn.execute(tournaments.update().where(this).values(ends=at))
            return []
        if plan.bye is not None:
            mine = (entrants.c.tournament_id == t["id"]) & (entrants.c.account_id == plan.bye)
            sheet = conn.execute(select(entrants.c.sheet).where(mine)).scalar_one()
            conn.execute(entrants.update().where(mine).values(score=entrants.c.score + points("win", 0)[0],
                                                              sheet=(sheet + BYE)[-SHEET:]))
        if t["kind"] == "swiss" and not plan.empty:
            conn.execute(tournaments.update().where(this).values(round=tournaments.c.round + 1))
        if not plan.pairs:
            return []
        ids = [pid for pair in plan.pairs for pid in pair]
        names = dict(conn.execute(select(accounts.c.id, accounts.c.name).where(accounts.c.id.in_(ids))).all())
        started = []
        for white, black in plan.pairs:
            started.append(self._start(conn, t, white, black, names, at))
            for pid, other, step in ((white, black, 1), (black, white, -1)):
                conn.execute(entrants.update().where(entrants.c.tournament_id == t["id"], entrants.c.account_id == pid)
                             .values(balance=entrants.c.balance + step, last_opponent=other))
        return started

    def _start(self, conn: Connection, t: dict, white: int, black: int, names: dict[int, str], at: datetime) -> str:
        """A game between two accounts, each holding their seat (taken to a device with the account's
        *Play here*, ``POST /api/account/games/{id}/seat``: no token is handed out here)."""
        gid = secrets.token_urlsafe(9)
        tc = clocks.parse(t["tc"])
        assert tc is not None
        row = {"id": gid, "variant": t["variant"], "setup": "standard", "start_fen": None, "mode": "invite",
               "status": str(Status.PLAYING), "level": 3, "tc": tc.text, "clock_at": at, "ply": 0, "version": 0,
               "engine_stop": False, "engine_seq": 0, "creator": TOURNAMENT_CREATOR + t["id"], "created": at,
               "updated": at}
        for side, pid in (("white", white), ("black", black)):
            row.update({side: "human", f"{side}_token": seats.digest(seats.new_token()), f"{side}_joined": True,
                        f"{side}_name": names.get(pid), f"{side}_ms": tc.start_ms})
        row.update(rated=True, ratings=seat_ratings(conn, t["variant"], {"white": white, "black": black}, at))
        conn.execute(games.insert().values(**row))
        conn.execute(account_seats.insert(), [{"game_id": gid, "side": "white", "account_id": white, "at": at},
                                              {"game_id": gid, "side": "black", "account_id": black, "at": at}])
        conn.execute(pairings.insert().values(game_id=gid, tournament_id=t["id"], white_id=white, black_id=black,
                                              ended=False, created=at))
        return gid

    # -- games ending ----------------------------------------------------------------------------------
    def _ended(self, conn: Connection, game: Game) -> None:
        """The store's ending hook: score a tournament game (a finished one before the tournament's end),
        free its players and pair again (an arena's free players, a Swiss tournament's next round)."""
        pairing = conn.execute(select(pairings).where(pairings.c.game_id == game.id)).mappings().first()
        if pairing is None:
            return
        at = aware(game.row["updated"])
        t = dict(conn.execute(tournaments.select().where(tournaments.c.id == pairing["tournament_id"])
                              .with_for_update()).mappings().one())
        counted = game.status == Status.OVER and at < aware(t["ends"])
        scored: dict[str, int | None] = {"white": None, "black": None}
        for side in seats.SIDES:
            pid = pairing[f"{side}_id"]
            if pid is not None:
                outcome = _outcome(game.row["result"], side) if counted else None
                scored[side] = self._score(conn, t, pid, outcome, game.ply, at)
        conn.execute(pairings.update().where(pairings.c.game_id == game.id)
                     .values(ended=True, white_points=scored["white"], black_points=scored["black"]))
        self._advance(conn, t, at)

    def _score(self, conn: Connection, t: dict, pid: int, outcome: str | None, plies: int,
               at: datetime) -> int | None:
        """Free a player whose game ended and, for a counted game's ``outcome``, add its points (an arena's
        with the streak, a Swiss tournament's half-points); the points (None: not counted, or the player
        left the tournament)."""
        mine = (entrants.c.tournament_id == t["id"]) & (entrants.c.account_id == pid)
        row = conn.execute(select(entrants).where(mine)).mappings().first()
        if row is None:  # the account was deleted
            return None
        if outcome is None:
            conn.execute(entrants.update().where(mine).values(free_since=at))
            return None
        arena = t["kind"] == "arena"
        got, streak = points(outcome, row["streak"] if arena else 0, plies if arena else None)
        conn.execute(entrants.update().where(mine).values(
            score=row["score"] + got, games=row["games"] + 1, wins=row["wins"] + (outcome == "win"),
            draws=row["draws"] + (outcome == "draw"), streak=streak, sheet=(row["sheet"] + str(got))[-SHEET:],
            free_since=at))
        return got

    # -- what the page asks ----------------------------------------------------------------------------
    def tick(self, tid: str) -> None:
        """Run what time brings (at most every :data:`TICK_S` per tournament and process): end the games
        whose time ran out, abort those whose side to move has not made its first move in
        :data:`FIRST_MOVE_S` (withdrawing that player), and pair once the tournament has started.  The
        games are at most half its players."""
        with self._lock:
            if time.monotonic() - self._ticked.get(tid, float("-inf")) < TICK_S:
                return
            self._ticked[tid] = time.monotonic()
            self._ticked.move_to_end(tid)
            while len(self._ticked) > 1000:
                self._ticked.popitem(last=False)
        at = now()
        with self.db.read() as conn:
            t = conn.execute(tournaments.select().where(tournaments.c.id == tid)).mappings().first()
            if t is None or not aware(t["starts"]) <= at < aware(t["ends"]):
                return
            going = conn.execute(select(games.c.id, games.c.ply, games.c.created, moves.c.at, games.c.clock_at,
                                        games.c.white_ms, games.c.black_ms)
                                 .join(pairings, pairings.c.game_id == games.c.id)
                                 .outerjoin(moves, (moves.c.game_id == games.c.id) & (moves.c.ply == 1))
                                 .where(pairings.c.tournament_id == tid, pairings.c.ended.is_(False),
                                        games.c.status == str(Status.PLAYING))).all()
            due = not self._plan(conn, dict(t), at).empty
        for g in going:
            if g.ply < clocks.CLOCK_FROM_PLY and _idle(g.created, g.at, at):
                self._abort_idle(g.id, tid)
            elif g.ply >= clocks.CLOCK_FROM_PLY and aware(g.clock_at) + timedelta(milliseconds=min(g.white_ms,
                                                                                                   g.black_ms)) <= at:
                self.store.flag(g.id)  # it ends if the side to move is the one out of time
        if due:
            with self.db.write() as conn:
                self._advance(conn, dict(conn.execute(tournaments.select().where(tournaments.c.id == tid)
                                                      .with_for_update()).mappings().one()), at)

    def _abort_idle(self, gid: str, tid: str) -> None:
        def act(conn: Connection, game: Game, at: datetime) -> None:
            if game.status != Status.PLAYING or game.ply >= clocks.CLOCK_FROM_PLY \
                    or not _idle(game.row["created"], game.moves[0]["at"] if game.moves else None, at):
                return
            conn.execute(tournaments.select().where(tournaments.c.id == tid).with_for_update())
            idle = conn.execute(select(pairings.c[f"{game.turn}_id"]).where(pairings.c.game_id == gid)).scalar()
            conn.execute(entrants.update().where(entrants.c.tournament_id == tid, entrants.c.account_id == idle)
                         .values(active=False))
            self.store.end(conn, game, at, "*", Termination.ABORTED)
        self.store.change(gid, act)

    def listing(self) -> dict:
        """The tournaments coming and running (soonest first) and the newest finished ones, :data:`LISTED`
        each."""
        at = now()
        count = (select(entrants.c.tournament_id, func.count().label("players")).group_by(entrants.c.tournament_id)
                 .subquery())
        query = select(tournaments, func.coalesce(count.c.players, 0).label("players"), accounts.c.name.label("by")) \
            .outerjoin(count, count.c.tournament_id == tournaments.c.id) \
            .outerjoin(accounts, accounts.c.id == tournaments.c.creator_id)
        with self.db.read() as conn:
            going = conn.execute(query.where(tournaments.c.ends > at).order_by(tournaments.c.starts, tournaments.c.id)
                                 .limit(LISTED)).mappings().all()
            over = conn.execute(query.where(tournaments.c.ends <= at).order_by(tournaments.c.ends.desc())
                                .limit(LISTED)).mappings().all()
        titles = self.store.catalog.titles({r["variant"] for r in [*going, *over]})
        return {"tournaments": [_summary(dict(r), titles, at) for r in going],
                "finished": [_summary(dict(r), titles, at) for r in over]}

    def view(self, tid: str, account_id: int | None) -> dict:
        """A tournament as its page shows it: its facts, the standings, the games being played, the newest
        :data:`PLAYED` finished (``played``, with their results; an aborted one's is ``*``), and ``you``
        (the account's line and its game going on).  An arena ranks by score, then fewer games, then the
        earlier entry; a Swiss tournament by score, then Buchholz (the sum of the scores of everyone a
        player was paired with), then the earlier entry.  Swiss scores are in points (½ for a draw)."""
        at = now()
        with self.db.read() as conn:
            t = conn.execute(select(tournaments, accounts.c.name.label("by"))
                             .outerjoin(accounts, accounts.c.id == tournaments.c.creator_id)
                             .where(tournaments.c.id == tid)).mappings().first()
            if t is None:
                raise NotFound(f"no tournament {tid[:20]!r}")
            rows = conn.execute(select(entrants, accounts.c.name).join(accounts, accounts.c.id == entrants.c.account_id)
                                .where(entrants.c.tournament_id == tid)
                                .order_by(entrants.c.joined, entrants.c.account_id)).mappings().all()
            going = conn.execute(select(pairings.c.game_id, pairings.c.white_id, pairings.c.black_id)
                                 .where(pairings.c.tournament_id == tid, pairings.c.ended.is_(False))
                                 .order_by(pairings.c.created, pairings.c.game_id)).all()
            met = _opponents(conn, tid) if t["kind"] == "swiss" else None
            played = conn.execute(select(pairings.c.game_id, pairings.c.white_id, pairings.c.black_id, games.c.result)
                                  .join(games, games.c.id == pairings.c.game_id)
                                  .where(pairings.c.tournament_id == tid, pairings.c.ended.is_(True))
                                  .order_by(games.c.updated.desc(), games.c.id).limit(PLAYED)).all()
        lines = _standings(list(rows), met, {pid: gid for gid, *pids in going for pid in pids if pid is not None})
        names = {r["account_id"]: r["name"] for r in rows}
        mine = lines.get(account_id) if account_id is not None else None
        titles = self.store.catalog.titles({t["variant"]})
        return {**_summary({**t, "players": len(rows)}, titles, at), "first_move_seconds": FIRST_MOVE_S,
                "standings": list(lines.values()),
                "games": [{"id": gid, "white": names.get(w), "black": names.get(b), "watch": f"/game/{gid}"}
                          for gid, w, b in going],
                "played": [{"id": gid, "white": names.get(w), "black": names.get(b), "result": result,
                            "watch": f"/game/{gid}"} for gid, w, b, result in played],
                "you": None if account_id is None else {"joined": mine is not None,
                                                        "active": bool(mine and mine["active"]),
                                                        "game": mine and mine["game"]}}


def _standings(rows: list, met: dict[int, list[int]] | None, playing: dict[int, str]) -> dict[int, dict]:
    """The lines of the standings by account id, in rank order, from the players' rows in entry order
    (``met``: a Swiss tournament's pairings; None for an arena)."""
    swiss = met is not None
    score = {r["account_id"]: r["score"] / 2 if swiss else r["score"] for r in rows}  # Swiss: half-points stored
    buchholz = {pid: sum(score.get(o, 0) for o in (met or {}).get(pid, ())) for pid in score}
    if swiss:
        rows = sorted(rows, key=lambda r: (-score[r["account_id"]], -buchholz[r["account_id"]]))
    else:
        rows = sorted(rows, key=lambda r: (-r["score"], r["games"]))  # stable: the earlier entry first
    out = {}
    for rank, r in enumerate(rows, start=1):
        pid = r["account_id"]
        sheet = [("bye" if c == BYE else int(c) / 2) if swiss else int(c) for c in r["sheet"]]
        out[pid] = {"rank": rank, "name": r["name"], "profile": f"/players/{r['name']}", "score": score[pid],
                    "games": r["games"], "wins": r["wins"], "draws": r["draws"],
                    "losses": r["games"] - r["wins"] - r["draws"], "fire": not swiss and r["streak"] >= FIRE,
                    "sheet": sheet, "active": r["active"], "game": playing.get(pid)}
        if swiss:
            out[pid]["buchholz"] = buchholz[pid]
    return out


def _idle(created: datetime, first_move: datetime | None, at: datetime) -> bool:
    """Has the side to move of a game before its second move let :data:`FIRST_MOVE_S` pass since the game
    began (or since White's first move)?  Counted from the moves, so that nothing else (an offer, a
    name) keeps a game nobody plays alive."""
    return at - aware(first_move or created) >= timedelta(seconds=FIRST_MOVE_S)


@dataclass
class _Plan:
    """What pairing does now: games to start, a Swiss bye, or the end of a Swiss tournament."""

    pairs: list[tuple[int, int]]
    bye: int | None = None
    finish: bool = False

    @property
    def empty(self) -> bool:
        return not self.pairs and self.bye is None and not self.finish


def _opponents(conn: Connection, tid: str) -> dict[int, list[int]]:
    """Everyone each player of a tournament was paired with (a player met twice: listed twice)."""
    out: dict[int, list[int]] = {}
    for white, black in conn.execute(select(pairings.c.white_id, pairings.c.black_id)
                                     .where(pairings.c.tournament_id == tid)):
        if white is not None and black is not None:
            out.setdefault(white, []).append(black)
            out.setdefault(black, []).append(white)
    return out


def _summary(t: dict, titles: dict[str, str], at: datetime) -> dict:
    starts, ends = aware(t["starts"]), aware(t["ends"])
    state = "coming" if at < starts else "running" if at < ends else "over"
    return {"id": t["id"], "kind": t["kind"], "name": t["name"], "variant": t["variant"],
            "title": titles.get(t["variant"], t["variant"]), "time_control": t["tc"],
            "minutes": round((ends - starts).total_seconds() / 60), "max_players": t["max_players"],
            "players": t["players"], "by": t["by"], "rounds": t["rounds"], "round": t["round"],
            "starts": iso(starts), "ends": iso(ends), "state": state,
            "seconds_left": max(0, round(((starts if state == "coming" else ends) - at).total_seconds())),
            "link": f"/tournaments/{t['id']}"}
