"""Correspondence notices by e-mail: an account's address and its wish to be told of its move.

An account may keep one address (table ``mail_settings``) and ask to be mailed
when it is its move in a correspondence game (a time control of days per move).
After each committed move of such a game (:attr:`Store.moved`), the account that
holds the side to move, if it asked and is not also the mover, gets one plain-text
mail: the game, the move, the time left and the link.  When that side has less than
a day, or less than a quarter of its time, left, it is reminded once (table
``reminders`` keeps the ply it was reminded at; :meth:`Notices.remind` looks every
:data:`REMIND_EVERY_S` seconds, in each worker).  Each account is sent at most
``mails_per_hour`` mails an hour (counted in the database, across workers); more
are dropped with a log line.  Every string from players reaches a mail with its
control characters replaced by spaces.
"""

from __future__ import annotations

import logging
import threading
from datetime import datetime, timedelta

from sqlalchemy import Boolean, Column, ForeignKey, Integer, String, Table, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import SQLAlchemyError

from . import clocks, seats
from .accounts import account_seats
from .db import aware, games, metadata, now
from .errors import ApiError, BadInput
from .game import Game
from .limits import RateLimiter
from .mail import ADDRESS_LENGTH, Mailer, check_address
from .store import Store

__all__ = ["mail_settings", "reminders", "Notices", "REMIND_EVERY_S"]

REMIND_EVERY_S = 60.0  # seconds between two looks for correspondence games whose time runs short

log = logging.getLogger("morphchess.mail")

mail_settings = Table(
    "mail_settings", metadata,
    Column("account_id", Integer, ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True),
    Column("address", String(ADDRESS_LENGTH)),
    Column("moves", Boolean, nullable=False),  # mail me when it is my move in a correspondence game
)

reminders = Table(
    "reminders", metadata,
    Column("game_id", String(16), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("ply", Integer, nullable=False),  # the side to move at this ply was reminded
)


def _plain(text: object, length: int = 80) -> str:
    """A player's string as a mail shows it: one line, control characters as spaces, at most ``length``."""
    return "".join(c if c.isprintable() else " " for c in str(text))[:length]


def _left(deadline: datetime | None, at: datetime) -> str:
    if deadline is None:
        return "no clock yet: each side's first move is untimed"
    hours = max(0, int((deadline - at).total_seconds() // 3600))
    return f"{hours // 24} days {hours % 24} hours (until {deadline:%Y-%m-%d %H:%M} UTC)"


class Notices:
    """The mail settings of accounts, and the mails sent after correspondence moves."""

    def __init__(self, store: Store, mailer: Mailer, limiter: RateLimiter) -> None:
        self.store, self.mailer, self.limiter = store, mailer, limiter
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        """Look for correspondence games to remind every :data:`REMIND_EVERY_S` seconds (if mail is sent)."""
        if self.mailer.sending and self._thread is None:
            self._thread = threading.Thread(target=self._reminding, name="morphchess-reminders", daemon=True)
            self._thread.start()

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(5)

    def _reminding(self) -> None:
        while not self._stop.wait(REMIND_EVERY_S):
            try:
                self.remind(now())
            except (ApiError, SQLAlchemyError) as e:
                log.warning("reminders: %s", str(e)[:200])

    def settings(self, account_id: int) -> dict:
        """``{"address", "moves", "sending"}``: the account's choice, and whether this server sends mail."""
        with self.store.db.read() as conn:
            row = conn.execute(select(mail_settings.c.address, mail_settings.c.moves)
                               .where(mail_settings.c.account_id == account_id)).first()
        return {"address": row.address if row else None, "moves": bool(row and row.moves),
                "sending": self.mailer.sending}

    def choose(self, account_id: int, address: str | None, moves: bool) -> dict:
        """Keep an account's address (None or empty: none) and its wish; the settings then."""
        address = check_address(address) if address and address.strip() else None
        if moves and address is None:
            raise BadInput("address: give one to be mailed of your moves")
        with self.store.db.write() as conn:
            conn.execute(mail_settings.delete().where(mail_settings.c.account_id == account_id))
            conn.execute(mail_settings.insert().values(account_id=account_id, address=address, moves=moves))
        return self.settings(account_id)

    def moved(self, game: Game) -> None:
        """After a committed move: mail the account to move in a correspondence game, if it asked, within
        its budget.  Never raises: the move stands whatever happens to its mail."""
        tc = game.tc
        if tc is not None and tc.per_move_ms is not None and self.mailer.sending:
            self._mail(game, "")

    def remind(self, at: datetime) -> int:
        """Remind, once per move, each correspondence side to move that has less than a day, or less than
        a quarter of its time, left at ``at`` (and asked for mail); how many games were reminded."""
        if not self.mailer.sending:
            return 0
        with self.store.db.read() as conn:
            rows = conn.execute(select(games.c.id, games.c.tc, games.c.ply, games.c.clock_at)
                                .where(games.c.status == "playing", games.c.tc.like("%d"),
                                       games.c.ply >= clocks.CLOCK_FROM_PLY)).all()
        reminded = 0
        for gid, text, ply, clock_at in rows:
            tc = clocks.parse(text)
            if tc is None or tc.per_move_ms is None:
                continue
            deadline = aware(clock_at) + timedelta(milliseconds=tc.per_move_ms)
            if deadline - timedelta(milliseconds=min(clocks.DAY_MS, tc.per_move_ms // 4)) <= at < deadline \
                    and self._first_reminder(gid, ply):
                try:
                    game = self.store.get(gid)
                except ApiError as e:  # gone, or its variant cannot be loaded: the next game
                    log.warning("no reminder for game %s: %s", gid, str(e)[:200])
                    continue
                reminded += self._mail(game, "Reminder: ", at)
        return reminded

    def _first_reminder(self, gid: str, ply: int) -> bool:
        """Mark the game reminded at ``ply``: False if it already was (by this worker or another)."""
        insert = (sqlite.insert if self.store.db.sqlite else postgresql.insert)(reminders)
        with self.store.db.write() as conn:
            marked = conn.execute(insert.values(game_id=gid, ply=ply).on_conflict_do_update(
                index_elements=[reminders.c.game_id], set_={"ply": ply}, where=reminders.c.ply < ply)
                .returning(reminders.c.game_id)).first()
        return marked is not None

    def _mail(self, game: Game, prefix: str, at: datetime | None = None) -> bool:
        """Mail the account to move in ``game`` of the last move (subject begun with ``prefix``), if it
        asked for mail and its budget allows; whether the mail was queued."""
        if game.status.finished:
            return False
        try:
            to = self._recipient(game)
            if to is None:
                return False
            account_id, address = to
            self.limiter.check([f"mail{account_id}"], "mail")
            subject, text = self._message(game, at or now())
        except (ApiError, SQLAlchemyError) as e:
            log.warning("no mail for game %s: %s", game.id, str(e)[:200])
            return False
        return self.mailer.send(address, prefix + subject, text)

    def _recipient(self, game: Game) -> tuple[int, str] | None:
        """The account holding the side to move and its address, if it asked for mail and did not
        also play the move just made."""
        with self.store.db.read() as conn:
            held = dict(conn.execute(select(account_seats.c.side, account_seats.c.account_id)
                                     .where(account_seats.c.game_id == game.id)).all())
            account = held.get(game.turn)
            if account is None or held.get(seats.other(game.turn)) == account:
                return None
            row = conn.execute(select(mail_settings.c.address).where(
                mail_settings.c.account_id == account, mail_settings.c.moves.is_(True))).first()
        return (account, row.address) if row and row.address else None

    def _message(self, game: Game, at: datetime) -> tuple[str, str]:
        """The subject and text of the mail telling the side to move of the last move."""
        key = game.row["variant"]
        title = _plain(self.store.catalog.titles({key}).get(key, key))
        mover = seats.other(game.turn)
        opponent = _plain(game.row[f"{mover}_name"] or mover, 20)
        move = _plain(game.moves[-1]["san"], 40)
        site = self.mailer.smtp.site.rstrip("/") if self.mailer.smtp else ""
        link = f"{site}/game/{game.id}"
        number = (game.ply + 1) // 2
        text = (f"{opponent} ({mover}) played {number}.{'..' if mover == 'black' else ''} {move} in your "
                f"{title} game.\n\nYou play {game.turn}. Time left for your move: {_left(game.deadline(), at)}.\n\n"
                f"The game: {link}\n"
                "(To play it from another device, log in and choose \"Play here\" on your profile page.)\n\n"
                "You get this mail because you asked for it in your account's settings; switch it off there.\n")
        return f"Your move in {title} against {opponent}", text
