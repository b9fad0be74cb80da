"""A fresh attack on the web server (issue 19's "Done when"), each break found a test: rematches that
bypass the new-game rate limit, a finished game's PGN changed through its talk, a move tree exported
without a budget, bounded work that kept its slot after it was abandoned, spectator names with hidden
characters.  What was tried and held is in docs/security.md ("A fresh attack").
"""

from __future__ import annotations

import threading
import time

import pytest

pytest.importorskip("fastapi")
from fastapi.testclient import TestClient  # noqa: E402

from morphchess.web import create_app  # noqa: E402
from morphchess.web.errors import BadInput  # noqa: E402
from morphchess.web.limits import Limits, within  # noqa: E402
from morphchess.web.routes import analysis  # noqa: E402

from online_support import Seat, code, invite  # noqa: E402


def local(client, **spec) -> Seat:
    r = client.post("/api/games", json={"black": "human", **spec})
    assert r.status_code == 200, r.text
    return Seat(client, r.json()["id"], r.json()["seat"]["token"])


def test_a_rematch_counts_as_a_new_game_for_the_rate_limit(tmp_path):
    with TestClient(create_app(f"sqlite:///{tmp_path}/g.db", Limits(games_per_minute=3))) as c:
        seat = local(c)
        started = 1
        for _ in range(6):  # resign, rematch, resign, ...: each rematch is a new game
            assert seat.call("POST", "resign", {}).status_code == 200
            r = seat.call("POST", "rematch", {"action": "offer"})
            if r.status_code != 200:
                break
            seat.gid = r.json()["rematch"]
            started += 1
        assert code(r) == (429, "rate_limited") and started == 3  # 7 games were started before


def _finished_with_talk(client) -> tuple[Seat, Seat, str]:
    host, guest, spectator = invite(client)
    assert host.call("POST", "talk", {"text": "good luck"}).status_code == 200
    assert host.call("POST", "resign", {}).status_code == 200
    return host, spectator, client.get(f"/api/games/{host.gid}/record").text


def test_a_finished_games_talk_is_closed_and_its_pgn_never_changes(client):
    host, spectator, pgn = _finished_with_talk(client)
    assert "{" in pgn and "good luck" in pgn
    for seat in (spectator, host):
        r = seat.call("POST", "talk", {"text": "} 2. Qh5 { rewritten", "name": "Eve"})
        assert code(r) == (409, "conflict") and "over" in r.json()["error"]["message"]
    r = host.call("POST", "talk/spectators", {"open": False})
    assert code(r) == (409, "conflict")
    assert client.get(f"/api/games/{host.gid}/record").text == pgn
    assert [m["text"] for m in client.get(f"/api/games/{host.gid}/talk").json()["messages"]] == ["good luck"]


def test_a_spectators_name_loses_hidden_and_bidi_characters(client):
    _host, _guest, spectator = invite(client)
    r = spectator.call("POST", "talk", {"text": "hi", "name": "Ann\u202e)rotatceps(\u2066\x07"})
    assert r.status_code == 200 and r.json()["name"] == "Ann )rotatceps("


def test_a_move_tree_is_read_and_written_within_the_generation_budget(client, monkeypatch):
    cycle = ["Nf3", "Nf6", "Ng1", "Ng8"]
    nodes = [{"move": cycle[i % 4], "parent": i - 1} for i in range(analysis.MAX_NODES)]
    monkeypatch.setattr(analysis, "GENERATION_SECONDS", 0.02)  # 5000 moves read and written: far longer
    start = time.monotonic()
    r = client.post("/api/analysis/pgn", json={"nodes": nodes})
    assert code(r) == (422, "bad_input") and "took over 0.02 s" in r.json()["error"]["message"]
    assert time.monotonic() - start < 5
    _bounded_threads_end()
    monkeypatch.undo()
    r = client.post("/api/analysis/pgn", json={"nodes": nodes[:8]})
    assert r.status_code == 200 and "2. Ng1 Ng8 3. Nf3" in r.text


def _spin(seconds: float) -> None:
    end = time.thread_time() + seconds
    while time.thread_time() < end:
        pass


def test_an_abandoned_bounded_work_is_stopped_and_frees_its_slot():
    """Before, the thread of a work answered 'abandoned' ran on to its end holding its slot: two
    2000-move games on a heavy pasted definition kept every other new game at 503 for minutes."""
    for _ in range(2):  # both slots
        with pytest.raises(BadInput, match="over 0.2 s"):
            within(0.2, _spin, 60)
    start = time.monotonic()
    assert within(5, sum, [1, 2]) == 3  # not Busy: the spinning threads were stopped
    assert time.monotonic() - start < 3
    _bounded_threads_end()


def _bounded_threads_end() -> None:
    """The threads of abandoned bounded work end within a few seconds."""
    end = time.monotonic() + 5
    while any(t.name.startswith("morphchess-bounded") for t in threading.enumerate()) and time.monotonic() < end:
        time.sleep(0.05)
    assert not [t for t in threading.enumerate() if t.name.startswith("morphchess-bounded")]


@pytest.mark.parametrize("what, words", [("record?format=pgn", "5. e4 e5"), ("record?format=gc", "5. P e2-e4"),
                                         ("positions/2", '"ply": 2'), ("positions/9", '"ply": 9')])
def test_records_and_earlier_positions_do_not_play_the_moves_again(client, monkeypatch, what, words):
    """Before, each GET of a record or an earlier position played the moves again: on a heavy 16x16
    definition a game of 120 plies took 24 s a record and 18 s a position (2000 plies: minutes), for
    anyone, as often as asked."""
    from morphchess.board import Board
    seat = local(client, moves=["Nf3", "Nf6", "Nc3", "Nc6", "Rb1", "Rb8", "Ra1", "Ra8"] + ["e4", "e5"])
    path = f"/api/games/{seat.gid}/{what}"
    expected = client.get(path).text
    generated = []
    real = Board._legal  # every move a board plays or reads is looked up in it (the compiled Position is sealed)

    def counted(self, *a, **k):  # not the abandoned work of an earlier test, which may still be ending
        if not threading.current_thread().name.startswith("morphchess-bounded"):
            generated.append(1)
        return real(self, *a, **k)

    monkeypatch.setattr(Board, "_legal", counted)
    seat.state()
    generated.clear()
    text = client.get(path).text
    assert text == expected and len(generated) <= 1
    assert words in text.replace('"ply":', '"ply": ')
