"""A database that goes away, turns read-only or stops: a quick 503 that says so, ``/healthz`` failing,
never a 200 for a change that was not stored, and the server answering again by itself once the
database is back (SQLite files, and a PostgreSQL server of the test's own)."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
from fastapi.testclient import TestClient  # noqa: E402

from morphchess.web import create_app  # noqa: E402

from online_support import Postgres, code, invite  # noqa: E402

QUICK_S = 3.0  # a refusal is answered within this (the loaded test machine; 0.01 s when idle)


def refused(call, words: str) -> None:
    """``call()`` answers 503 ``unavailable`` quickly, its message holding ``words``."""
    start = time.monotonic()
    r = call()
    assert time.monotonic() - start < QUICK_S
    assert code(r) == (503, "unavailable") and words in r.json()["error"]["message"], r.text


def backup(path: str, to: str) -> None:
    """A consistent copy of an SQLite database in use (its write-ahead log included)."""
    with sqlite3.connect(path) as source, sqlite3.connect(to) as copy:
        source.backup(copy)
    copy.close()
    source.close()


def test_a_removed_sqlite_file_is_503_until_it_is_back(tmp_path):
    db = str(tmp_path / "games.db")
    with TestClient(create_app(f"sqlite:///{db}", 100000)) as client:
        ann, bob, watcher = invite(client)
        assert ann.move("e2e4").status_code == 200
        backup(db, str(tmp_path / "copy.db"))
        os.remove(db)
        refused(lambda: bob.move("e7e5", ply=1), "missing")
        refused(lambda: client.get("/healthz"), "missing")
        refused(lambda: client.post("/api/games", json={}), "missing")
        refused(lambda: watcher.call("GET"), "missing")
        assert not os.path.exists(db)  # no new empty file was made in its place
        Path(db).write_bytes(b"not a database" * 100)  # a wrong file first
        refused(lambda: client.get("/healthz"), "cannot be used")
        os.remove(db)
        shutil.copy(tmp_path / "copy.db", db)  # the administrator puts the copy back
        assert client.get("/healthz").status_code == 200
        assert bob.move("e7e5", ply=1).status_code == 200
    with TestClient(create_app(f"sqlite:///{db}", 100000)) as client:  # what was answered 200 is there
        assert [m["uci"] for m in client.get(f"/api/games/{ann.gid}").json()["history"]] == ["e2e4", "e7e5"]


def test_a_change_whose_file_is_removed_while_it_is_written_is_not_answered_200(tmp_path):
    db = str(tmp_path / "games.db")
    with TestClient(create_app(f"sqlite:///{db}", 100000)) as client:
        ann, _, _ = invite(client)
        backup(db, str(tmp_path / "copy.db"))

        def remove(conn, game) -> None:  # the file goes between the change and its commit
            os.remove(db)

        client.app.state.store.endings.append(remove)
        refused(lambda: ann.call("POST", "resign", {}), "not stored")
        client.app.state.store.endings.remove(remove)
        shutil.copy(tmp_path / "copy.db", db)
        assert ann.state()["status"] == "playing"  # as the answer said: the resignation was not stored


def test_event_streams_end_cleanly_when_the_database_goes(tmp_path, caplog):
    db = str(tmp_path / "games.db")
    with TestClient(create_app(f"sqlite:///{db}", 100000)) as client:
        ann, _, _ = invite(client)
        ended = []

        def follow(path: str) -> None:
            with client.stream("GET", path) as r:
                ended.append(b"".join(r.iter_bytes()))

        readers = [threading.Thread(target=follow, args=(f"/api/games/{ann.gid}/{what}",), daemon=True)
                   for what in ("events", "talk/events")]
        for reader in readers:
            reader.start()
        time.sleep(1)
        os.remove(db)
        for reader in readers:
            reader.join(10)
        assert len(ended) == 2 and all(b"retry:" in text for text in ended)
        assert not [r for r in caplog.records if r.levelname == "ERROR"]


def _chattr(flag: str, path: str) -> bool:
    return subprocess.run(["chattr", flag, path], capture_output=True).returncode == 0


def test_a_read_only_sqlite_file_is_503_until_it_can_be_written(tmp_path):
    db = str(tmp_path / "games.db")
    with TestClient(create_app(f"sqlite:///{db}", 100000)) as client:
        ann, bob, _ = invite(client)
        if shutil.which("chattr") is None or not _chattr("+i", db):  # root on a file system with the flag
            pytest.skip("cannot make the file immutable here (chattr +i needs root)")
        try:
            refused(lambda: ann.move("e2e4", ply=0), "read-only")
            refused(lambda: client.get("/healthz"), "read-only")
        finally:
            _chattr("-i", db)
        assert client.get("/healthz").status_code == 200
        assert ann.move("e2e4").status_code == 200 and bob.state()["ply"] == 1


@pytest.fixture(scope="module")
def postgres():
    server = Postgres()
    yield server
    server.remove()


def _until_answered(call, seconds: float = 20):
    end = time.monotonic() + seconds
    while True:
        r = call()
        if r.status_code != 503 or time.monotonic() > end:
            return r
        time.sleep(0.2)


@pytest.mark.slow
def test_a_stopped_postgresql_is_503_until_it_is_back(postgres):
    with TestClient(create_app(postgres.url, 100000)) as client:
        ann, bob, watcher = invite(client)
        assert ann.move("e2e4").status_code == 200
        postgres.halt()
        try:
            refused(lambda: bob.move("e7e5", ply=1), "the database is unavailable")
            refused(lambda: client.get("/healthz"), "unavailable")
            refused(lambda: watcher.call("GET"), "unavailable")
        finally:
            postgres.start()
        assert _until_answered(lambda: client.get("/healthz")).status_code == 200
        assert bob.move("e7e5", ply=1).status_code == 200 and watcher.state()["ply"] == 2


@pytest.mark.slow
def test_a_read_only_postgresql_is_503_until_it_can_be_written(postgres):
    import psycopg

    def read_only(on: bool) -> None:
        with psycopg.connect(postgres.url, autocommit=True) as conn:
            conn.execute("ALTER SYSTEM SET default_transaction_read_only = " + ("on" if on else "off"))
            conn.execute("SELECT pg_reload_conf()")
        time.sleep(0.5)  # every session reads the new setting

    with TestClient(create_app(postgres.url, 100000)) as client:
        ann, bob, _ = invite(client)
        read_only(True)
        try:
            refused(lambda: ann.move("e2e4", ply=0), "read-only")
            refused(lambda: client.get("/healthz"), "read-only")
        finally:
            read_only(False)
        assert client.get("/healthz").status_code == 200
        assert ann.move("e2e4").status_code == 200 and bob.state()["ply"] == 1


@pytest.mark.slow
def test_a_request_that_finds_every_connection_taken_is_503_after_its_wait(postgres, monkeypatch):
    from morphchess.web import db as database
    monkeypatch.setattr(database, "POOL_WAIT_S", 0.5)
    db = database.Database(postgres.url)
    held = [db.engine.connect() for _ in range(database.POOL_SIZE)]  # all of a worker's connections busy
    try:
        start = time.monotonic()
        with pytest.raises(database.Unavailable, match="connections are all in use"), db.read():
            pass
        assert time.monotonic() - start < QUICK_S
    finally:
        for conn in held:
            conn.close()
    with db.read():  # a connection free again
        pass
    db.dispose()


@pytest.mark.slow
def test_a_connection_broken_while_idle_is_replaced_and_one_in_use_is_503_once(postgres, monkeypatch):
    """A pooled connection idle for PING_IDLE_S is checked before use: one whose server process ended
    meanwhile (a restart) is replaced and the request served; unchecked, the request that finds it broken
    is answered 503 and the next is served on a new connection."""
    import psycopg
    from sqlalchemy import text

    from morphchess.web import db as database

    def ended(db) -> None:
        """End the server process of the one connection the pool holds."""
        with db.read() as conn:
            pid = conn.execute(text("SELECT pg_backend_pid()")).scalar()
        with psycopg.connect(postgres.url, autocommit=True) as admin:
            admin.execute("SELECT pg_terminate_backend(%s)", [pid])

    db = database.Database(postgres.url)
    try:
        monkeypatch.setattr(database, "PING_IDLE_S", 0.0)
        ended(db)
        with db.read() as conn:
            assert conn.execute(text("SELECT 1")).scalar() == 1
        monkeypatch.setattr(database, "PING_IDLE_S", 3600.0)
        ended(db)
        with pytest.raises(database.Unavailable, match="the database is unavailable"), db.read() as conn:
            conn.execute(text("SELECT 1"))
        with db.read() as conn:
            assert conn.execute(text("SELECT 1")).scalar() == 1
    finally:
        db.dispose()
