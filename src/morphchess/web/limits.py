"""Every budget and rate limit of the web server, in one place.

A :class:`Limits` holds the limits one can set (each an option of ``morphchess
serve`` and an environment variable of :func:`~morphchess.web.app.app_from_env`);
the module constants are the budgets that hold whatever the options.  Rate
limits count each client's writes in the database (table ``hits``), atomically (a
PostgreSQL advisory lock per count), so they hold across the workers of one
server; a client is its address, taken from ``X-Forwarded-For`` only when the
connection comes from a trusted proxy.  Writes to a game are counted twice: for
the client, and for their author in that game (the seat token, or the address).
"""

from __future__ import annotations

import ctypes
import hashlib
import ipaddress
import math
import os
import re
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields, replace
from datetime import timedelta
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:  # the command line reads the Limits without loading the web stack
    from fastapi import Request

    from .db import Database

__all__ = ["Limits", "LimitError", "RateLimiter", "check", "client_key", "author_key", "client_address", "within",
           "record_words", "MAX_PLIES", "MAX_DEFINITION", "MAX_SIDE", "MAX_RECORD", "COMPILE_SECONDS",
           "IMPORT_SECONDS", "GENERATION_SECONDS"]

T = TypeVar("T")

MAX_PLIES = 2000  # moves of a new game or an import; a game reaching it ends drawn
MAX_DEFINITION = 64 * 1024  # characters of definition text (pastes, games, imports, labs)
MAX_SIDE = 16  # files and ranks of a pasted definition
COMPILE_SECONDS = 5.0  # a definition not compiled by then is refused (and remembered as refused)
IMPORT_SECONDS = 10.0  # a record not read by then is refused
GENERATION_SECONDS = 10.0  # a new game's start position and moves not set up by then are refused (2000 moves: 6 s)
MAX_RECORD = 200_000  # characters of an imported record
_NOT_MOVES = re.compile(r"\{[^}]*\}|;[^\n]*|\[[^\]]*\]|^//.*$|\d+\.+|\$\d+|1-0|0-1|1/2-1/2|\*|[!?]+", re.M)


class LimitError(ValueError):
    """A limit's value that cannot be used."""


def _option(default, text: str, minimum: float = 1):
    return field(default=default, metadata={"help": text, "min": minimum})


@dataclass(frozen=True)
class Limits:
    """The limits one server applies (see docs/security.md)."""

    games_per_minute: int = _option(60, "new games one client may start a minute")
    pastes_per_minute: int = _option(20, "definitions one client may paste a minute")
    imports_per_minute: int = _option(20, "records one client may import a minute")
    labs_per_hour: int = _option(6, "labs one client may start an hour")
    talk_per_minute: int = _option(30, "chat messages one client (and one author in a game) may send a minute")
    offers_per_minute: int = _option(20, "draw and takeback offers and answers, names and talk settings one "
                                         "client (and one seat of a game) may send a minute")
    seeks_per_minute: int = _option(10, "open seeks one client may post in the lobby a minute")
    checks_per_minute: int = _option(60, "definitions the live editor may check for one client a minute")
    logins_per_minute: int = _option(10, "log-ins (and password changes) a minute, from one client and for one name")
    signups_per_minute: int = _option(3, "accounts made a minute, from one client and with one name")
    tournaments_per_hour: int = _option(6, "tournaments one client may make an hour")
    joins_per_minute: int = _option(20, "tournament joins and withdrawals one client may send a minute")
    mails_per_hour: int = _option(10, "e-mails the server may send one account an hour (more are dropped)")
    auto_reviews: int = _option(20, "finished games waiting for their automatic review in a server process "
                                    "(a game ending beyond them is reviewed only when asked; 0: none)", 0)
    engine_games: int = _option(2, "engine searches running at once in a server process (the rest wait)")
    engine_seconds: float = _option(10.0, "longest engine search, whatever the level and board", 0.1)
    definitions_cached: int = _option(16, "compiled pasted definitions kept in memory (least recently used)")
    definitions_mb: int = _option(256, "megabytes of compiled pasted definitions kept in memory (their "
                                       "estimated move tables; least recently used)")
    boards_mb: int = _option(256, "megabytes of game boards kept in memory (least recently used)")
    trusted_proxies: tuple[str, ...] = field(default=(), metadata={
        "help": "address or network of a reverse proxy whose X-Forwarded-For is believed"})

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if "min" in f.metadata and not f.metadata["min"] <= value < math.inf:
                why = f"at least {f.metadata['min']:g}" if value < f.metadata["min"] else "a finite number"
                raise LimitError(f"{f.name.replace('_', '-')} {value}: {why}")
        object.__setattr__(self, "_networks", tuple(_network(p) for p in self.trusted_proxies))

    @classmethod
    def every_rate(cls, per_minute: int) -> Limits:
        """Limits whose every rate is ``per_minute`` (tests; a large number switches them off), without
        automatic reviews (their engine work would run behind every test that ends a game)."""
        return cls(games_per_minute=per_minute, pastes_per_minute=per_minute, imports_per_minute=per_minute,
                   labs_per_hour=per_minute * 60, talk_per_minute=per_minute,
                   checks_per_minute=per_minute, offers_per_minute=per_minute, seeks_per_minute=per_minute,
                   logins_per_minute=per_minute, signups_per_minute=per_minute,
                   tournaments_per_hour=per_minute * 60, joins_per_minute=per_minute, auto_reviews=0)

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Limits:
        """Limits from ``MORPHCHESS_GAMES_PER_MINUTE`` and the like (``MORPHCHESS_TRUSTED_PROXIES``:
        comma-separated); unset ones keep their defaults."""
        source = os.environ if env is None else env
        values: dict[str, Any] = {}
        for f in fields(cls):
            text = source.get("MORPHCHESS_" + f.name.upper())
            if text is None:
                continue
            if f.name == "trusted_proxies":
                values[f.name] = tuple(p.strip() for p in text.split(",") if p.strip())
            else:
                values[f.name] = _number(f.name, text, float if f.name == "engine_seconds" else int)
        return replace(cls(), **values) if values else cls()

    def rate(self, action: str) -> tuple[int, timedelta]:
        """How many ``action`` writes a client may make, and in what window."""
        if action in ("lab", "tournament", "mail"):
            return getattr(self, f"{action}s_per_hour"), timedelta(hours=1)
        return getattr(self, "talk_per_minute" if action == "talk" else f"{action}s_per_minute"), \
            timedelta(minutes=1)

    def trusts(self, host: str) -> bool:
        try:
            address = ipaddress.ip_address(host)
        except ValueError:
            return False
        return any(address in net for net in self._networks)  # type: ignore[attr-defined]


def _number(name: str, text: str, kind: type) -> float:
    try:
        if not text.isascii():  # ٥ or ５: Python's int and float would read them
            raise ValueError(text)
        return kind(text)
    except ValueError:
        raise LimitError(f"{name.replace('_', '-')} {text[:20]!r}: not a number") from None


def _network(text: str) -> ipaddress.IPv4Network | ipaddress.IPv6Network:
    try:
        return ipaddress.ip_network(text.strip(), strict=False)
    except ValueError:
        raise LimitError(f"trusted-proxy {text[:40]!r}: not an address or network (10.0.0.1, 10.0.0.0/8)") \
            from None


def client_address(request: Request, limits: Limits) -> str:
    """The client's address: the peer's, or, when the peer is a trusted proxy, the nearest address in
    ``X-Forwarded-For`` that is not itself a trusted proxy.  Several ``X-Forwarded-For`` lines are one
    list in their order (a proxy may add a line of its own after the client's), so the address a
    trusted proxy appended is the one taken, whatever the client wrote before it."""
    host = request.client.host if request.client else "?"
    if not limits.trusts(host):
        return host
    lines = request.headers.getlist("x-forwarded-for")
    chain = [h.strip() for line in lines for h in line.split(",") if h.strip()]
    for hop in reversed(chain):
        if not limits.trusts(hop):
            return hop
        host = hop
    return host


def record_words(text: str) -> int:
    """An upper bound of the moves in a record, counted before reading it: its words that are not
    tags, comments, move numbers, annotations or results."""
    return len(_NOT_MOVES.sub(" ", text).split())


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def client_key(request: Request) -> str:
    """A short hash of the client's address: writes are counted per client (rate limits)."""
    return _digest(client_address(request, request.app.state.limits))


def author_key(request: Request, gid: str) -> str:
    """A short hash of who writes in game ``gid``: the seat token the request carries, else its
    client (so a seat is counted as one author from any address, and no author's count is another's)."""
    from .seats import token_of
    return _digest(f"{gid}\n{token_of(request) or client_address(request, request.app.state.limits)}")


def check(request: Request, action: str, gid: str | None = None) -> None:
    """Count one ``action`` (game, paste, import, lab, talk, offer, seek, check, tournament, join) of the
    request's client, and with ``gid`` of its author in that game, or refuse it (429) if either is one too
    many."""
    keys = [client_key(request)] + ([author_key(request, gid)] if gid is not None else [])
    request.app.state.limiter.check(keys, action)


class RateLimiter:
    """Counts each client's writes of each kind in the database and refuses those over the limit."""

    SWEEP_EVERY = 200  # checks between two deletions of every count older than the longest window

    def __init__(self, db: Database, limits: Limits) -> None:
        self.db, self.limits = db, limits
        self._checks = 0

    def check(self, keys: list[str], action: str) -> None:
        """Count one ``action`` of each of ``keys`` (clients, authors) now, or raise RateLimited (429) if
        it is one too many for any of them (and count nothing).  The count and the insert are one
        transaction holding a lock per key (PostgreSQL: an advisory lock; SQLite: the file's write
        lock), so racing requests of any worker never pass the limit together."""
        from sqlalchemy import delete, func, select, text

        from .db import hits, now
        from .errors import RateLimited
        allowed, window = self.limits.rate(action)
        at = now()
        with self.db.write() as conn:
            for key in sorted(keys):  # one order: two requests never wait for each other's locks
                if not self.db.sqlite:
                    conn.execute(text("SELECT pg_advisory_xact_lock(hashtextextended(:k, 0))"),
                                 {"k": f"hits\n{key}\n{action}"})
            self._checks += 1
            if self._checks % self.SWEEP_EVERY == 0:  # clients that never came back
                conn.execute(delete(hits).where(hits.c.at <= at - timedelta(hours=1)))
            for key in keys:
                mine = (hits.c.client == key) & (hits.c.action == action)
                conn.execute(delete(hits).where(mine, hits.c.at <= at - window))
                recent = conn.execute(select(func.count()).select_from(hits).where(mine)).scalar_one()
                if recent >= allowed:
                    seconds = int(window.total_seconds())
                    raise RateLimited(f"at most {allowed} {action}s a{'n hour' if seconds == 3600 else ' minute'} "
                                      "from one client or seat; try again shortly",
                                      headers={"Retry-After": str(seconds)})
            conn.execute(hits.insert(), [{"client": key, "action": action, "at": at} for key in keys])


WALL_FACTOR = 4  # a bounded work is abandoned after this many times its budget of wall time, busy or not
WORK_BYTES = 512 << 20  # a bounded work is abandoned when the process grows by this much while it runs
_SLOTS = threading.BoundedSemaphore(2)  # bounded work (compilations) running at once in a process


class Abandoned(BaseException):
    """Raised inside a bounded work that ran out of its budget, so that it stops there and frees its
    slot (a BaseException: no ``except Exception`` of the work catches it)."""


def within(seconds: float, work: Callable[..., T], *args, slots: threading.BoundedSemaphore = _SLOTS) -> T:
    """``work(*args)`` in a thread of its own, answered within ``seconds`` of its CPU time or refused
    (BadInput).

    The budget counts the thread's own CPU time, so a busy machine does not refuse honest work; the
    wait ends in any case after :data:`WALL_FACTOR` times ``seconds``, or as soon as the process has
    grown by :data:`WORK_BYTES` of resident memory while the work runs (Linux).  At most two such calls
    run at once (of ``slots``, another kind of work's own); a third waits up to ``seconds`` for a slot
    (Busy, 503, if none frees).  Work that overruns
    is stopped: :class:`Abandoned` is raised in its thread at its next Python instruction, and its
    slot is freed once the thread has ended (work inside one long C call, such as a huge integer
    power, ends that call first: the loader's own bounds keep those short).
    """
    from .errors import BadInput, Busy
    if not slots.acquire(timeout=seconds):
        raise Busy("the server is busy compiling other definitions; try again shortly",
                   headers={"Retry-After": "5"})
    done = threading.Event()
    out: dict[str, Any] = {"working": True}

    def run() -> None:
        try:
            try:
                out["value"] = work(*args)
            except BaseException as e:  # noqa: BLE001 - raised again in the request's thread
                out["error"] = e
            finally:
                out["working"] = False
            done.set()
        except Abandoned:  # the stop came as the work ended
            out["working"] = False

    worker = threading.Thread(target=run, daemon=True, name="morphchess-bounded")
    worker.start()
    overrun = _wait(worker, done, seconds)
    if overrun is not None:
        threading.Thread(target=_stop, args=(worker, out, slots), daemon=True, name="morphchess-bounded-stop").start()
        raise BadInput(f"the work {overrun} and was abandoned; simplify the definition")
    worker.join()
    slots.release()
    if "error" in out:
        raise out["error"]
    return out["value"]


def _stop(worker: threading.Thread, out: dict, slots: threading.BoundedSemaphore) -> None:
    """Raise Abandoned in the worker's thread while it works (again if a destructor or callback
    swallowed it), then free its slot once it has ended."""
    while worker.is_alive():
        if out["working"] and worker.ident is not None:
            ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(worker.ident), ctypes.py_object(Abandoned))
        worker.join(0.1)
    slots.release()


def _wait(worker: threading.Thread, done: threading.Event, seconds: float) -> str | None:
    """Wait for ``done`` while the worker has used at most ``seconds`` of CPU (and the wall clock at
    most WALL_FACTOR times that) and the process has grown by at most WORK_BYTES; None when it is
    done, else what it overran."""
    start, base = time.monotonic(), _resident()
    try:
        clock: int | None = time.pthread_getcpuclockid(worker.ident or 0)
    except (AttributeError, OSError):  # no per-thread clock here, or the thread is over: wall time
        clock = None
    while not done.wait(0.05):
        wall = time.monotonic() - start
        try:
            used = wall if clock is None else time.clock_gettime(clock)
        except OSError:  # the thread ended between two looks
            return None
        now = _resident()
        if used > seconds or wall > WALL_FACTOR * seconds:
            return None if done.is_set() else f"took over {seconds:g} s"
        if base is not None and now is not None and now - base > WORK_BYTES:
            return None if done.is_set() else f"took over {WORK_BYTES >> 20} MB of memory"
    return None


def _resident() -> int | None:
    """The process's resident memory in bytes (Linux's /proc), else None."""
    try:
        with open("/proc/self/statm", "rb") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return None
