"""Shared variant lists and helpers of the test suite."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator

import pytest

from morphchess import Position, builtin, variant_names
from morphchess.notation import to_fen

DEGENS = ["morphomania", "snappy-chess", "morphing-chess", "crossroads"]
VARIANTS = variant_names()
# every built-in start array: (variant, setup)
SETUPS = [(name, setup) for name in VARIANTS for setup in builtin(name).setups]


def random_positions(name: str, setup: str, games: int, seed: object, max_plies: int = 120) -> Iterator[Position]:
    """The positions of ``games`` random games of a built-in variant, one Position changed in place
    (use each before asking for the next); games stop when they end or after ``max_plies``."""
    rng = random.Random(seed)
    v = builtin(name)
    for _ in range(games):
        pos = Position(v, setup)
        for _ply in range(rng.randrange(max_plies // 4, max_plies)):
            legal = pos.legal_moves()
            yield pos
            if not legal or pos.outcome(legal) is not None:
                break
            pos.make(rng.choice(legal))


@pytest.fixture(scope="session")
def pg_server():
    """A PostgreSQL server in a temporary directory for the whole run (skipped without its binaries)."""
    from online_support import start_postgres

    url, stop = start_postgres()
    yield url
    stop()


@pytest.fixture(scope="module")
def pg_url(pg_server, request):
    """A fresh database of the run's PostgreSQL server for one test module."""
    import psycopg

    name = "m_" + "".join(c if c.isalnum() else "_" for c in request.module.__name__)
    with psycopg.connect(pg_server, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    return pg_server.rsplit("/", 1)[0] + "/" + name


@pytest.fixture(scope="module", params=["sqlite", pytest.param("postgresql", marks=pytest.mark.slow)])
def db_url(request, tmp_path_factory):
    """The web server's database: SQLite in a temporary directory, and PostgreSQL (slow)."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path_factory.mktemp('db')}/games.db"
    return request.getfixturevalue("pg_url")


@pytest.fixture(scope="module")
def client(db_url):
    """FastAPI's test client on the web app over ``db_url``."""
    testclient = pytest.importorskip("fastapi.testclient")
    from morphchess.web import create_app

    with testclient.TestClient(create_app(db_url, 100000)) as c:
        yield c


def assert_make_unmake_exact(pos: Position) -> None:
    """Every legal move leaves a hash equal to a fresh computation, and unmake restores the position."""
    before, h = to_fen(pos), pos.hash
    for m in pos.legal_moves():
        pos.make(m)
        made = pos.hash
        pos.refresh()
        assert pos.hash == made, m
        pos.unmake()
        assert to_fen(pos) == before and pos.hash == h, m


@pytest.fixture(autouse=True)
def _default_event_loop_policy():
    """python-chess's engine client (the protocol tests) installs its own asyncio event loop policy
    for the whole process, whose child watcher stays tied to a closed loop, and the next library that
    starts a process from asyncio (Playwright) fails: put the default policy back after every test."""
    yield
    if type(asyncio.get_event_loop_policy()) is not asyncio.DefaultEventLoopPolicy:
        asyncio.set_event_loop_policy(None)
