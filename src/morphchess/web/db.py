"""The web server's database: tables, connections and locked write transactions (SQLAlchemy Core).

One code path for SQLite and PostgreSQL.  A write transaction locks the game it
changes: ``BEGIN IMMEDIATE`` on SQLite (the whole file), ``SELECT ... FOR
UPDATE`` on PostgreSQL (the game's row), so concurrent requests on one game
run one after the other, whichever process serves them.  On PostgreSQL every
change also sends a notification (``NOTIFY``) that wakes the event streams of
all processes at once; elsewhere they poll.

A database that cannot be used (a stopped PostgreSQL, an SQLite file removed,
replaced or made read-only) raises :class:`~morphchess.web.errors.Unavailable`
(503) at once, and is used again as soon as it is back: a new SQLite file at
the path is opened afresh (and migrated), PostgreSQL's connections are checked
before use once idle for a second.  A write is answered only once it is committed to the file
at the path (an SQLite file removed while it was written fails it too).
"""

from __future__ import annotations

import logging
import math
import os
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from importlib import resources
from pathlib import Path
from typing import overload

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    bindparam,
    create_engine,
    event,
    func,
    text,
)
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import DBAPIError, DisconnectionError, InterfaceError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout

from .errors import Unavailable

__all__ = ["metadata", "definitions", "games", "moves", "hits", "labs", "Database", "default_url", "now", "MAX_INT"]

metadata = MetaData()
MAX_INT = 2**31 - 1  # the largest number an Integer column holds on both databases: every id or count read
CHANNEL = "morphchess_games"  # PostgreSQL notifications: the payload is a game id
READ_ONLY_STATE = "25006"  # PostgreSQL: a write in a read-only transaction (default_transaction_read_only)
CONNECT_S = 3  # seconds to connect to PostgreSQL before the request is answered 503
POOL_SIZE = 20  # connections to PostgreSQL a worker keeps at most
PING_IDLE_S = 1.0  # a connection idle this long is checked before it is used again
POOL_WAIT_S = 10.0  # seconds a request waits for one of its worker's connections before it is answered 503
_log = logging.getLogger("morphchess.web")

definitions = Table(
    "definitions", metadata,
    Column("key", String(24), primary_key=True),  # "def-" + the first 16 hex digits of the text's SHA-256
    Column("sha256", String(64), nullable=False, unique=True),
    Column("text", Text, nullable=False),
    Column("title", String(200), nullable=False),
    Column("author", String(200)),
    Column("description", String(300), nullable=False),
    Column("files", Integer, nullable=False),
    Column("ranks", Integer, nullable=False),
    Column("created", DateTime(timezone=True), nullable=False),
)

games = Table(
    "games", metadata,
    Column("id", String(16), primary_key=True),
    Column("variant", String(40), nullable=False),  # a built-in name or a definitions.key
    Column("setup", Text, nullable=False),
    Column("start_fen", Text),
    Column("mode", String(8), nullable=False),  # local, invite, open
    Column("status", String(8), nullable=False, index=True),  # open, playing, over, aborted
    Column("white", String(8), nullable=False),  # human, engine
    Column("black", String(8), nullable=False),
    Column("white_name", String(60)),
    Column("black_name", String(60)),
    Column("white_token", String(64)),  # SHA-256 of the seat's token; NULL: nobody holds the seat yet
    Column("black_token", String(64)),
    Column("white_joined", Boolean, nullable=False, default=False),
    Column("black_joined", Boolean, nullable=False, default=False),
    Column("level", Integer, nullable=False),
    Column("tc", String(16)),  # time control as written ("5+3", "3d"); NULL: untimed
    Column("white_ms", BigInteger),  # time left when clock_at was set (30 days overflow 32 bits)
    Column("black_ms", BigInteger),
    Column("clock_at", DateTime(timezone=True)),
    Column("ply", Integer, nullable=False, default=0),
    Column("version", Integer, nullable=False, default=0),
    Column("result", String(8)),  # 1-0, 0-1, 1/2-1/2
    Column("termination", String(40)),
    Column("draw_offer", String(5)),  # white, black
    Column("takeback_offer", String(5)),
    Column("engine_job", String(32)),  # id of the search running for the side to move
    Column("engine_fen", Text),  # the position it was asked about
    Column("engine_lease", DateTime(timezone=True)),  # the job is alive until then
    Column("engine_stop", Boolean, nullable=False, default=False),
    Column("engine_info", Text),  # JSON: the search's progress, or its last move
    Column("engine_seq", Integer, nullable=False, default=0),
    Column("talk_closed", Boolean, nullable=False, default=False),  # spectators may not write in the talk
    Column("rematch_offer", String(5)),  # white, black: offered a rematch (after the game)
    Column("rematch", String(16)),  # the id of the rematch game, once accepted
    Column("rated", Boolean, nullable=False, default=False),  # rated (web/rated.py) or casual
    Column("ratings", Text),  # rated: JSON, the players' ratings and, once over, their changes (web/rated.py)
    Column("creator", String(16), nullable=False),  # hash of the creating client's address (rate limit)
    Column("created", DateTime(timezone=True), nullable=False, index=True),
    Column("updated", DateTime(timezone=True), nullable=False),
)

moves = Table(
    "moves", metadata,
    Column("game_id", String(16), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("ply", Integer, primary_key=True),  # 1 for the first move
    Column("uci", Text, nullable=False),  # multi-leg moves have long texts: no length on either database
    Column("san", Text, nullable=False),
    Column("gc", Text, nullable=False),
    Column("at", DateTime(timezone=True), nullable=False),
    Column("clock_ms", BigInteger),  # the mover's time left after the move
)

hits = Table(
    "hits", metadata,  # the writes of each client in the last window (rate limits)
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("client", String(16), nullable=False),
    Column("action", String(16), nullable=False),
    Column("at", DateTime(timezone=True), nullable=False),
    Index("hits_client_action", "client", "action", "at"),
)

labs = Table(
    "labs", metadata,  # the Lab's runs (web/labs.py)
    Column("id", String(12), primary_key=True),
    Column("variant", String(200), nullable=False),
    Column("player", String(20), nullable=False),  # level:1 and the like
    Column("games", Integer, nullable=False),
    Column("done", Integer, nullable=False),  # games finished so far
    Column("state", String(8), nullable=False, index=True),  # running, done, failed, ended
    Column("error", Text),  # failed, ended: why; done: why it has fewer games than asked for
    Column("summary", Text),  # done: JSON
    Column("report", Text),  # done: the report page (HTML)
    Column("lease", DateTime(timezone=True), nullable=False),  # running: its server renews it; past: ended
    Column("created", DateTime(timezone=True), nullable=False, index=True),
    Column("updated", DateTime(timezone=True), nullable=False),
)


# The statements of every change, built once (building one costs more than running it): the columns an
# update sets are the keys of the values it is given.
_LOCK_GAME = games.select().where(games.c.id == bindparam("gid")).with_for_update()
_UPDATE_GAME = games.update().where(games.c.id == bindparam("gid"))
_UPDATE_GAME_NOTIFY = _UPDATE_GAME.returning(func.pg_notify(bindparam("channel"), bindparam("gid")))
_UPDATE_GAME_MOVE = _UPDATE_GAME_NOTIFY.add_cte(
    moves.insert().values({c.name: bindparam(f"move_{c.name}") for c in moves.c}).cte("played"))


def now() -> datetime:
    return datetime.now(UTC)


@overload
def aware(t: datetime) -> datetime: ...
@overload
def aware(t: None) -> None: ...
def aware(t):
    """A time read back from SQLite (which drops the zone) as UTC."""
    return t if t is None or t.tzinfo else t.replace(tzinfo=UTC)


def _first_line(e: Exception) -> str:
    text = str(getattr(e, "orig", None) or e).strip()
    return text.splitlines()[0][:200] if text else type(e).__name__


def default_url() -> str:
    """The SQLite file in the user's data directory ($XDG_DATA_HOME/morphchess/games.sqlite3)."""
    base = os.environ.get("XDG_DATA_HOME")
    if base:
        folder = Path(base) / "morphchess"
    else:
        import platformdirs
        folder = Path(platformdirs.user_data_dir("morphchess", appauthor=False))
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'games.sqlite3'}"


def _engine(url: str) -> Engine:
    if url.startswith("postgresql://"):
        url = "postgresql+psycopg://" + url.removeprefix("postgresql://")
    if not url.startswith("sqlite"):  # POOL_SIZE connections a worker at most, kept open; a stopped server is
        # told at once.  (Connections beyond a smaller pool were closed as they came back: under load a
        # worker opened a new one every eighth request, a new server process each time.)
        return _checked_when_idle(create_engine(url, pool_size=POOL_SIZE, max_overflow=0, pool_timeout=POOL_WAIT_S,
                                                connect_args={"connect_timeout": CONNECT_S}))
    eng = create_engine(url, connect_args={"timeout": 60, "check_same_thread": False})

    @event.listens_for(eng, "connect")
    def _connect(dbapi, record):  # transactions are begun below, not by the driver
        dbapi.isolation_level = None
        dbapi.execute("PRAGMA journal_mode=WAL")
        dbapi.execute("PRAGMA synchronous=NORMAL")  # a commit survives the process being killed
        dbapi.execute("PRAGMA foreign_keys=ON")

    @event.listens_for(eng, "begin")
    def _begin(conn):
        conn.exec_driver_sql("BEGIN IMMEDIATE" if conn.get_execution_options().get("write") else "BEGIN")
    return eng


def _checked_when_idle(eng: Engine) -> Engine:
    """Check a pooled connection before use (a round trip) only when it has been idle for
    :data:`PING_IDLE_S`: one broken meanwhile (PostgreSQL restarted) is replaced by a new one.  A connection
    in steady use goes unchecked; should it be broken, its request is answered 503 and the worker drops
    all its connections (:meth:`Database._available`)."""
    @event.listens_for(eng, "checkin")
    def _checkin(dbapi, record) -> None:
        record.info["idle_from"] = time.monotonic()

    @event.listens_for(eng, "checkout")
    def _checkout(dbapi, record, proxy) -> None:
        if time.monotonic() - record.info.get("idle_from", math.inf) >= PING_IDLE_S:
            try:
                eng.dialect.do_ping(dbapi)
            except Exception as e:  # noqa: BLE001 - whatever broke it, the pool connects afresh
                raise DisconnectionError(_first_line(e)) from e
    return eng


class Database:
    """A database URL's engine, migrated to the newest schema."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.engine = _engine(url)
        self.sqlite = self.engine.dialect.name == "sqlite"
        self._closed = threading.Event()
        database = self.engine.url.database if self.sqlite else None
        self.path = Path(database) if database and database != ":memory:" else None  # an SQLite file
        self._file: tuple[int, int] | None = None  # the (device, inode) of the file the pool has open
        self._reopen = threading.Lock()
        self.migrate()
        self._file = self._identity()

    def migrate(self) -> None:
        """Run the Alembic migrations shipped in the package (one process at a time)."""
        from alembic import command
        from alembic.config import Config
        cfg = Config()
        cfg.set_main_option("script_location", str(resources.files(__package__).joinpath("migrations")))
        with self.engine.connect() as conn:
            # several workers start at once: one migrates, the others wait (SQLite: BEGIN IMMEDIATE)
            conn.execution_options(write=True)
            if not self.sqlite:
                conn.execute(text("SELECT pg_advisory_lock(7219)"))
            try:
                cfg.attributes["connection"] = conn
                command.upgrade(cfg, "head")
                conn.commit()
            finally:
                if not self.sqlite:
                    conn.execute(text("SELECT pg_advisory_unlock(7219)"))
                    conn.commit()

    @contextmanager
    def read(self) -> Iterator[Connection]:
        """A read-only transaction that sees one snapshot: a game's row and its moves agree even while
        another worker commits a move (PostgreSQL's default isolation takes a snapshot per statement;
        SQLite's read transactions already see one)."""
        self._check_file()
        with self._available(), self.engine.connect() as conn:
            if not self.sqlite:
                conn.execution_options(isolation_level="REPEATABLE READ")
            with conn.begin():
                yield conn

    @contextmanager
    def glance(self) -> Iterator[Connection]:
        """A connection for reads of one statement each, outside a transaction (a statement sees one
        snapshot): on PostgreSQL without the round trips of ``BEGIN`` and ``COMMIT``; on SQLite (no round
        trips) a read transaction."""
        if self.sqlite:
            with self.read() as conn:
                yield conn
            return
        with self._available(), self.engine.connect() as conn:
            conn.execution_options(isolation_level="AUTOCOMMIT")
            yield conn

    @contextmanager
    def write(self) -> Iterator[Connection]:
        """A transaction that commits at the end (before any answer is sent), rolled back on error;
        Unavailable when it could not be stored (the SQLite file is then checked again after the commit:
        one removed meanwhile took the change with it)."""
        self._check_file()
        with self._available(), self.engine.connect() as conn:
            conn.execution_options(write=True)
            with conn.begin():
                yield conn
        if self.path is not None and self._identity() != self._file:
            if self._identity() is None:
                self._gone()
            raise Unavailable(f"the database file {self.path.name} was removed or replaced while the change "
                              "was written: it was not stored")

    @contextmanager
    def _available(self) -> Iterator[None]:
        """Turn the errors of a database that cannot be used into Unavailable (and drop the pool's
        connections, which may be broken); other errors pass."""
        try:
            yield
        except PoolTimeout:
            raise Unavailable("the database's connections are all in use; try again shortly",
                              {"Retry-After": "5"}) from None
        except DBAPIError as e:
            if not (isinstance(e, OperationalError | InterfaceError) or e.connection_invalidated
                    or getattr(e.orig, "sqlstate", None) == READ_ONLY_STATE):
                raise
            self.engine.dispose()
            raise Unavailable(f"the database is unavailable: {_first_line(e)}", {"Retry-After": "5"}) from None

    def _identity(self) -> tuple[int, int] | None:
        """The (device, inode) of the SQLite file now at the path, or None if there is none."""
        if self.path is None:
            return None
        try:
            st = os.stat(self.path)
        except OSError:
            return None
        return st.st_dev, st.st_ino

    def _check_file(self) -> None:
        """SQLite: refuse (Unavailable) while the file is missing or read-only, before SQLite touches it
        (it would make a new empty file, or fail writing its shared memory); open a new file at the
        path afresh, migrated."""
        if self.path is None:
            return
        found = self._identity()
        if found is None:
            self._gone()
            raise Unavailable(f"the database file {self.path.name} is missing (removed or moved); the server "
                              "answers again once it is back", {"Retry-After": "5"})
        if found != self._file:
            self._reopen_file()
        if not os.access(self.path, os.W_OK):
            raise Unavailable(f"the database file {self.path.name} is read-only; the server answers again "
                              "once it can write it", {"Retry-After": "5"})

    def _reopen_file(self) -> None:
        """A new file is at the path (put back, restored): drop the pool's connections to the old one and
        migrate the new one (Unavailable if it cannot be used; tried again at the next request)."""
        assert self.path is not None
        with self._reopen:
            fresh = self._identity()
            if fresh is None or fresh == self._file:
                return
            _log.warning("the database file %s is a new file: opened afresh", self.path)
            self.engine.dispose()
            try:
                self.migrate()
            except Exception as e:  # noqa: BLE001 - whatever is wrong with the file, it cannot be used yet
                self.engine.dispose()
                raise Unavailable(f"the database file {self.path.name} cannot be used: {_first_line(e)}",
                                  {"Retry-After": "5"}) from None
            self._file = fresh

    def _gone(self) -> None:
        """The file is missing: close the pool's connections to the old one, and move its write-ahead
        log aside (``games.db-wal.orphan``), or SQLite would play it into the file put back (once)."""
        with self._reopen:
            if self._file is None:
                return
            _log.warning("the database file %s is missing", self.path)
            self.engine.dispose()
            self._file = None
            for suffix in ("-wal", "-shm"):
                left = Path(f"{self.path}{suffix}")
                if self._identity() is None and left.exists():
                    left.replace(f"{left}.orphan")

    def check(self) -> None:
        """Unavailable unless a change could be stored now (the health check; SQLite's file is checked
        before any transaction, so this takes no write lock)."""
        with self.read() as conn:
            read_only = not self.sqlite and conn.execute(text("SHOW transaction_read_only")).scalar() == "on"
            if read_only:
                raise Unavailable("the database is read-only (default_transaction_read_only)")

    def lock_game(self, conn: Connection, gid: str):
        """The game's row, locked until the transaction ends (None for an unknown id)."""
        return conn.execute(_LOCK_GAME, {"gid": gid}).mappings().first()

    def update_game(self, conn: Connection, gid: str, values: dict, move: dict | None = None) -> None:
        """Write ``values`` into game ``gid``'s row, ``move`` (a row of the moves table) before them, and tell
        every process of the change when the transaction commits.  PostgreSQL: one statement, one round
        trip (the move a data-modifying ``WITH``, the notification in ``RETURNING``); SQLite: a statement
        each."""
        if self.sqlite:
            if move is not None:
                conn.execute(moves.insert(), move)
            conn.execute(_UPDATE_GAME, {"gid": gid, **values})
        elif move is None:
            conn.execute(_UPDATE_GAME_NOTIFY, {"gid": gid, "channel": CHANNEL, **values}).close()
        else:
            played = {f"move_{k}": v for k, v in move.items()}
            conn.execute(_UPDATE_GAME_MOVE, {"gid": gid, "channel": CHANNEL, **values, **played}).close()

    def notify(self, conn: Connection, gid: str) -> None:
        """Tell every process that the game changed, when the transaction commits (PostgreSQL)."""
        if not self.sqlite:
            conn.execute(text("SELECT pg_notify(:channel, :gid)"), {"channel": CHANNEL, "gid": gid})

    def listen(self, callback: Callable[[str], None]) -> None:
        """PostgreSQL: call ``callback(game id)`` for each change any process commits (in a thread)."""
        if not self.sqlite:
            threading.Thread(target=self._listen, args=(callback,), daemon=True, name="morphchess-listen").start()

    def _listen(self, callback: Callable[[str], None]) -> None:
        import psycopg
        dsn = self.engine.url.set(drivername="postgresql").render_as_string(hide_password=False)
        down = False
        while not self._closed.is_set():
            try:
                with psycopg.connect(dsn, autocommit=True) as conn:
                    conn.execute(f"LISTEN {CHANNEL}")
                    if down:
                        _log.warning("listening for game changes again")
                        down = False
                    while not self._closed.is_set():
                        for note in conn.notifies(timeout=1.0):
                            callback(note.payload)
            except psycopg.Error as e:  # the streams still poll; try again every second, saying so once
                if not down:
                    _log.warning("listening for game changes: %s", str(e).splitlines()[0] if str(e) else e)
                down = True
                self._closed.wait(1.0)

    def dispose(self) -> None:
        self._closed.set()
        self.engine.dispose()
