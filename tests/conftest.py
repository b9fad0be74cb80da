"""The test suite's shared fixtures (shared functions and data are in common.py)."""

from __future__ import annotations

import asyncio

import pytest


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


@pytest.fixture(autouse=True)
def _default_event_loop_policy():
    """python-chess's engine client (the protocol tests) installs its own asyncio event loop policy
    for the whole process, whose child watcher stays tied to a closed loop, and the next library that
    starts a process from asyncio (Playwright) fails: put the default policy back after every test."""
    yield
    if type(asyncio.get_event_loop_policy()) is not asyncio.DefaultEventLoopPolicy:
        asyncio.set_event_loop_policy(None)
