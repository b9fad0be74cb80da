"""The designer's lab: self-play records, the store, statistics, reports, the command and Ray."""

import json
import signal
import threading
import time

import pytest

from morphchess import Board
from morphchess.cli import main
from morphchess.lab.compare import compare, two_proportions
from morphchess.lab.report import text_report, write_report
from morphchess.lab.run import run_lab
from morphchess.lab.selfplay import play_one, settings_for
from morphchess.lab.stats import summarize, wilson
from morphchess.lab.store import GameStore, StoreError
from morphchess.lab.values import empirical_values

pytestmark = pytest.mark.slow  # left out of the fast loop (-m "not slow")

FAST = {"level": 1, "max_plies": 16}


@pytest.fixture(scope="module")
def crossroads():
    return settings_for("crossroads", **FAST)


def test_a_game_record_replays_and_is_reproducible(crossroads):
    record = play_one(crossroads, 3)
    assert record == play_one(crossroads, 3)
    assert record != play_one(crossroads, 4)
    board = Board("crossroads")
    for uci, san in zip(record["moves"], record["san"]):
        assert board.san(board.parse_uci(uci)) == san
        board.push_uci(uci)
    outcome = board.outcome()
    assert record["length"] == len(record["moves"]) <= 16
    assert record["termination"] == (outcome.termination if outcome else "move cap")
    assert record["result"] == (outcome.result() if outcome else "1/2-1/2")
    assert sum(record["morphs"].values()) > 0  # Crossroads pawns morph on most squares


def test_material_samples_count_white_minus_black():
    record = play_one(settings_for("chess", level=1, max_plies=6, opening_plies=6), 0)
    # six random plies, no capture from the start position: every sample is level, none royal
    if not any("x" in s for s in record["san"]):
        assert record["material"] == [[{}, sum(n for _, n in record["material"])]]
    assert all("K" not in diff for diff, _ in record["material"])


def test_polymorph_random_setups_and_transformations():
    s = settings_for("polymorph", level=1, max_plies=40, setup="random")
    records = [play_one(s, i) for i in range(4)]
    assert {r["setup"] for r in records} <= {"standard", "knights", "bishops", "hybrids"}
    assert any(r["transformations"] for r in records)


class Watch:
    """A progress factory that remembers its calls and the records it was shown."""

    def __init__(self):
        self.calls, self.records = [], []

    def __call__(self, total, done):
        self.calls.append((total, done))
        return self.records.append


def test_store_resumes_and_refuses_other_settings(tmp_path, crossroads):
    watch = Watch()
    run_lab(crossroads, 2, tmp_path, progress=watch)
    games = tmp_path / "games.jsonl"
    with games.open("a") as f:
        f.write('{"index": 2, "variant": "cross')  # an interrupted write
    records = run_lab(crossroads, 4, tmp_path, progress=watch)
    assert watch.calls == [(2, 0), (4, 2)]
    assert [r["index"] for r in watch.records] == [0, 1, 2, 3]
    assert [r["index"] for r in records] == [0, 1, 2, 3]
    assert len(games.read_text().splitlines()) == 4
    assert [r["index"] for r in run_lab(crossroads, 3, tmp_path, progress=watch)] == [0, 1, 2]
    assert len(watch.calls) == 2  # nothing left to play
    with pytest.raises(StoreError, match="other settings"):
        GameStore(tmp_path, settings_for("crossroads", level=2, max_plies=16))


def test_parallel_games_match_serial_ones(tmp_path, crossroads):
    serial = run_lab(crossroads, 4, tmp_path / "one")
    parallel = run_lab(crossroads, 4, tmp_path / "two", jobs=2)
    assert serial == parallel


def test_parallel_workers_do_not_inherit_this_process_s_signal_handlers(tmp_path, crossroads):
    """Workers were forks of the calling process: with its SIGTERM handler inherited (Ray installs one),
    a worker could ignore the pool's terminate at the end and the run never returned."""
    def hang(signum, frame):
        time.sleep(3600)

    old = signal.signal(signal.SIGTERM, hang)
    try:
        done: list = []
        worker = threading.Thread(target=lambda: done.append(run_lab(crossroads, 4, tmp_path, jobs=2)), daemon=True)
        worker.start()
        worker.join(60)
        assert done and len(done[0]) == 4, "the parallel run did not end"
    finally:
        signal.signal(signal.SIGTERM, old)


def test_wilson_interval():
    assert wilson(0, 10) == pytest.approx((0.0, 0.2775), abs=1e-4)
    assert wilson(5, 10) == pytest.approx((0.2366, 0.7634), abs=1e-4)
    assert wilson(7.5, 10)[0] < 0.75 < wilson(7.5, 10)[1]


def test_two_proportion_test():
    assert two_proportions(50, 100, 50, 100) == pytest.approx(1.0)
    assert two_proportions(30, 100, 50, 100) == pytest.approx(0.00389, abs=1e-4)


def _fake(result, diff, plies=10, length=40, termination="checkmate"):
    return {"result": result, "material": [[diff, plies]], "length": length, "termination": termination,
            "san": ["e3"], "morphs": {}, "transformations": {}, "promotions": {}}


def test_empirical_values_rank_the_stronger_piece_higher():
    records = ([_fake("1-0", {"P": 1})] * 6 + [_fake("0-1", {"P": 1})] * 4
               + [_fake("1-0", {"N": 1})] * 9 + [_fake("0-1", {"N": 1})] * 1
               + [_fake("0-1", {"N": -1})] * 9 + [_fake("1-0", {"N": -1})] * 1
               + [_fake("1/2-1/2", {})] * 10)
    found = empirical_values(records, {"P": 100, "N": 300, "B": 320}, resamples=50)
    assert set(found["values"]) == {"P", "N"}  # B was never unbalanced
    pawn, knight = found["values"]["P"], found["values"]["N"]
    assert pawn[0] + knight[0] == pytest.approx(400, abs=1)  # the computed values' sum
    assert knight[0] > 2 * pawn[0] > 0 and knight[1] <= knight[0] <= knight[2]
    assert found["logits"]["N"] == pytest.approx(2.2, abs=0.3)  # log(9 : 1), shrunk a little


def test_empirical_values_of_games_that_ended_before_a_move_are_empty():
    """Games over at ply 0 (a start that is already mate) sample no material: no values, no error."""
    records = [{**_fake("1-0", {}), "material": [], "length": 0}] * 3
    found = empirical_values(records, {"P": 100, "N": 300}, resamples=10)
    assert found["values"] == {} and found["samples"] == 0


def test_compare_finds_a_real_difference():
    a = [_fake("1-0", {}, length=30)] * 40 + [_fake("0-1", {}, length=30)] * 40
    b = [_fake("1-0", {}, length=60)] * 70 + [_fake("0-1", {}, length=61)] * 10
    rows = {r["figure"]: r for r in compare(a, b)}
    assert rows["White's score"]["difference"] == pytest.approx(0.375)
    assert rows["White's score"]["p"] < 0.001
    assert rows["draw rate"]["p"] == 1.0
    assert rows["mean length (plies)"]["p"] < 0.001


def test_summary_and_report_files(tmp_path, crossroads):
    records = run_lab(crossroads, 3, tmp_path)
    summary = summarize(records, crossroads, resamples=20)
    assert summary["white"]["count"] + summary["draw"]["count"] + summary["black"]["count"] == 3
    assert sum(summary["terminations"].values()) == 3
    assert summary["computed_values"]["Z"] > summary["computed_values"]["P"]
    page = write_report(summary, records, tmp_path)
    text = page.read_text()
    assert text.count("data:image/svg+xml;base64,") == 4 and "White wins" in text
    for name in ("results", "lengths", "values", "changes"):
        assert (tmp_path / "plots" / f"{name}.png").stat().st_size > 1000
        assert (tmp_path / "plots" / f"{name}.svg").read_text().lstrip().startswith("<?xml")
    assert json.loads((tmp_path / "summary.json").read_text())["games"] == 3
    assert "White wins" in text_report(summary)


def test_command_line(tmp_path, capsys):
    out = tmp_path / "lab"
    assert main(["lab", "crossroads", "--games", "2", "--level", "1", "--max-plies", "12", "--out", str(out),
                 "--quiet"]) == 0
    assert "White's score" in capsys.readouterr().out
    assert (out / "report.html").exists()
    assert main(["lab", "compare", "crossroads", "crossroads", "--games", "2", "--level", "1", "--max-plies", "12",
                 "--out", str(tmp_path / "cmp"), "--quiet"]) == 0
    text = capsys.readouterr().out
    assert "Mann-Whitney" in text and "A computed" in text and (tmp_path / "cmp" / "compare.txt").exists()


@pytest.mark.parametrize("argv, message", [
    (["lab", "compare", "chess"], "needs two variants"),
    (["lab", "chess", "--level", "1", "--movetime", "50"], "not both"),
    (["lab", "chess", "--games", "0"], "--games"),
    (["lab", "nosuchgame"], "neither a built-in"),
    (["lab", "polymorph", "--setup", "rooks"], "no setup"),
])
def test_command_line_errors(argv, message, capsys):
    assert main(argv) == 2
    assert message in capsys.readouterr().err


def test_ray_games_come_from_the_same_distribution(tmp_path):
    ray = pytest.importorskip("ray", reason="ray is not installed (pip install 'morphchess[lab]')")
    settings = settings_for("crossroads", level=1, max_plies=24)
    local = run_lab(settings, 4, tmp_path / "local", jobs=2)
    ray.init(num_cpus=2, include_dashboard=False)
    try:
        same = run_lab(settings, 4, tmp_path / "ray", ray="auto")
        other = run_lab(settings_for("crossroads", level=1, max_plies=24, seed=2), 4, tmp_path / "ray2", ray="auto")
    finally:
        ray.shutdown()
    assert same == local  # fixed-depth players: the same seeds give the same games anywhere
    assert all(row["p"] > 0.001 for row in compare(local, other))


def test_web_lab_runs_in_the_background_and_shows_its_report(tmp_path):
    pytest.importorskip("fastapi")
    import time

    from fastapi.testclient import TestClient

    from morphchess.web import create_app
    with TestClient(create_app(f"sqlite:///{tmp_path}/games.db")) as client:
        assert client.post("/api/lab", json={"variant": "crossroads", "games": 1000}).status_code == 422
        assert client.post("/api/lab", json={"definition": "files=8 ranks=8 nonsense"}).status_code == 422
        assert client.get("/api/lab/nosuchlab").status_code == 404
        lab = client.post("/api/lab", json={"variant": "snappy-chess", "games": 2, "level": 1}).json()
        assert lab["state"] == "running" and lab["total"] == 2
        assert client.post("/api/lab", json={"variant": "chess", "games": 1}).status_code == 429
        deadline = time.monotonic() + 120
        while lab["state"] == "running" and time.monotonic() < deadline:
            time.sleep(0.5)
            lab = client.get(f"/api/lab/{lab['id']}").json()
        assert lab["state"] == "done", lab
        assert lab["done"] == 2 and lab["summary"]["games"] == 2 and lab["summary"]["variant"] == "snappy-chess"
        page = client.get(lab["report"])
        assert page.status_code == 200 and "data:image/svg+xml;base64," in page.text
        assert '<fieldset id="lab"' in client.get("/").text
        assert "api/lab" in client.get("/static/js/lab.js").text


def _lab_ends(client, lab: dict, seconds: float = 90) -> dict:
    import time
    deadline = time.monotonic() + seconds
    while lab["state"] == "running" and time.monotonic() < deadline:
        time.sleep(0.3)
        lab = client.get(f"/api/lab/{lab['id']}").json()
    return lab


def test_a_web_lab_plays_for_its_time_then_reports_and_frees_its_slot(tmp_path, monkeypatch):
    """Before, a lab of 100 games at level 3 on a 16x16 definition held the only lab slot for hours."""
    pytest.importorskip("fastapi")
    from datetime import timedelta

    from fastapi.testclient import TestClient

    from morphchess.web import create_app, labs
    from morphchess.web.limits import Limits

    monkeypatch.setattr(labs, "RUN_SECONDS", 4.0)
    with TestClient(create_app(f"sqlite:///{tmp_path}/games.db", Limits.every_rate(1000))) as client:
        lab = _lab_ends(client, client.post("/api/lab", json={"variant": "snappy-chess", "games": 100}).json())
        assert lab["state"] == "done", lab
        assert 1 <= lab["done"] < 100 and lab["summary"]["games"] == lab["done"]
        assert lab["note"] == f"stopped after its 4 s: {lab['done']} of 100 games played"
        assert client.get(lab["report"]).status_code == 200

        heavy = "files=16 ranks=16 promoZone=0\namazon:Q:QNN:queen:" + ",".join(
            f"{f}{3 + i * 3 % 5}" for i, f in enumerate("abcdefghijklmno")) + "\nking:K:K:king:p1"  # 700 moves
        monkeypatch.setattr(labs, "RUN_SECONDS", 0.2)  # not one game of it ends so soon
        lab = _lab_ends(client, client.post("/api/lab", json={"definition": heavy, "games": 100, "level": 3}).json())
        assert lab["state"] == "failed" and lab["error"].startswith("no game ended within the lab's 0.2 s"), lab

        # a worker that does not stop by itself (no timer signal) is ended once its time and grace are past
        start = labs.background.start
        monkeypatch.setattr(labs.background, "start", lambda settings, games, out, seconds: start(settings, games, out))
        monkeypatch.setattr(labs, "GRACE", timedelta(0))
        lab = _lab_ends(client, client.post("/api/lab", json={"definition": heavy, "games": 100, "level": 3}).json())
        assert lab["state"] == "failed" and lab["error"] == "the lab ran past its 0.2 s and was ended", lab
        assert not client.app.state.labs.runs  # the slot is free
        assert client.post("/api/lab", json={"variant": "snappy-chess", "games": 1}).status_code == 200
