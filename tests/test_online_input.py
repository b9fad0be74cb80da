"""Numbers the server reads: ASCII digits only, and bounded so that both databases hold them (SQLite,
and PostgreSQL when installed: 25 and 30 days per move, ``since`` of 2^31, were a 500 there)."""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi")
from morphchess.web import clocks  # noqa: E402
from morphchess.web.limits import LimitError, Limits  # noqa: E402

from online_support import age_clock, code, invite  # noqa: E402

FOREIGN_DIGITS = ["٥+٣", "５+３", "5+٣", "٣d", "３ days per move", "1٠+0"]


@pytest.mark.parametrize("text", FOREIGN_DIGITS)
def test_time_controls_in_other_digits_are_refused(client, text):
    with pytest.raises(clocks.TimeControlError, match="time control"):
        clocks.parse(text)
    r = client.post("/api/games", json={"mode": "invite", "time_control": text})
    assert code(r) == (422, "bad_input") and "time control" in r.json()["error"]["message"]


@pytest.mark.parametrize("days", [24, 25, 30])
def test_the_longest_correspondence_clocks_are_stored_on_both_databases(client, days):
    ann, bob, watcher = invite(client, time_control=f"{days}d")
    for seat, move in ((ann, "e2e4"), (bob, "e7e5")):
        assert seat.move(move).status_code == 200
    age_clock(client, ann.gid, 3600)
    g = ann.move("g1f3").json()
    assert g["clock"]["white_ms"] == days * 86_400_000 and g["history"][-1]["clock_ms"] == days * 86_400_000
    assert days * 86_400_000 - 5000 < watcher.state()["clock"]["black_ms"] <= days * 86_400_000
    assert code(client.post("/api/games", json={"time_control": "31d"})) == (422, "bad_input")


@pytest.mark.parametrize("big", [2**31, 2**63, 10**30])
def test_numbers_past_what_a_column_holds_are_refused_before_the_database(client, big):
    ann, _, watcher = invite(client)
    base = f"/api/games/{ann.gid}"
    for path in (f"{base}/talk?since={big}", f"{base}/talk/events?since={big}", f"{base}/events?since={big}"):
        r = client.get(path)
        assert code(r) == (422, "validation") and "since" in r.json()["error"]["message"], path
    assert code(ann.move("e2e4", ply=big)) == (422, "validation")
    assert client.get(f"{base}/talk?since={2**31 - 1}").json()["messages"] == []
    assert watcher.state()["ply"] == 0


@pytest.mark.parametrize("text", ["٥", "５", "1٠"])
def test_since_in_other_digits_is_refused(client, text):
    ann, _, _ = invite(client)
    assert code(client.get(f"/api/games/{ann.gid}/talk?since={text}")) == (422, "validation")


def test_limits_from_the_environment_in_other_digits_are_refused():
    with pytest.raises(LimitError, match="engine_games '٢': not a number|engine-games '٢': not a number"):
        Limits.from_env({"MORPHCHESS_ENGINE_GAMES": "٢"})
