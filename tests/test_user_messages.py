"""What a user is told away from the page: the rules page command's checks and title, the terminal's
score, the lab's piece values and the catalogue's answer for a game it lacks."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from morphchess import library
from morphchess.board import Board
from morphchess.engine import SearchResult
from morphchess.lab.report import MIN_GAMES, shown_values, supported, text_report
from morphchess.play import main_loop, score_text

SRC = str(Path(__file__).resolve().parents[1] / "src")


def _morphchess(args: list[str], cwd: Path, without: str | None = None) -> subprocess.CompletedProcess:
    """``morphchess ARGS`` in a fresh interpreter; ``without`` names a module it cannot import."""
    hide = f"import sys; sys.modules[{without!r}] = None; " if without else ""
    code = f"{hide}from morphchess.cli import main; raise SystemExit(main({args!r}))"
    env = {**os.environ, "PYTHONPATH": SRC}
    return subprocess.run([sys.executable, "-c", code], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=120)


def test_page_without_the_publish_extra_names_it_and_writes_nothing(tmp_path):
    done = _morphchess(["page", "crossroads", "--out", "page"], tmp_path, without="cairosvg")
    assert done.returncode != 0
    assert "morphchess[publish]" in done.stderr and "Traceback" not in done.stderr
    assert not (tmp_path / "page").exists()  # no half-written folder


def test_the_page_is_titled_by_the_game_not_its_key(tmp_path):
    done = _morphchess(["page", "crossroads", "--out", "page", "--no-png"], tmp_path)
    assert done.returncode == 0, done.stderr
    html = (tmp_path / "page" / "rules.html").read_text(encoding="utf-8")
    assert "<title>Crossroads</title>" in html and "<h1>Crossroads</h1>" in html
    done = _morphchess(["page", "crossroads", "--out", "titled", "--no-png", "--title", "My game"], tmp_path)
    assert "<title>My game</title>" in (tmp_path / "titled" / "rules.html").read_text(encoding="utf-8")


@pytest.mark.parametrize("fen, mover, expected", [
    ("4k3/8/8/8/8/8/3Q4/4K3 b - - 0 1", "Black", "+"),  # the engine plays Black, down a queen
    ("4k3/3q4/8/8/8/8/8/4K3 w - - 0 1", "White", "-"),  # the engine plays White, down a queen
])
def test_the_terminal_gives_the_score_from_whites_side(fen, mover, expected):
    out = io.StringIO()
    human = 0 if mover == "Black" else 1  # the engine moves first: the human plays the other side
    main_loop(Board("chess", fen), 1, human, inp=io.StringIO("quit\n"), out=out)
    line = next(x for x in out.getvalue().splitlines() if x.startswith("Engine plays"))
    assert "(White's view)" in line, line
    score = line.split("[")[1]
    assert score.startswith(expected), line  # White is the queen up, whoever the engine is


def test_mates_name_the_side_that_mates():
    black_to_move = Board("chess", "4k3/8/8/8/8/8/8/4K3 b - - 0 1")
    assert score_text(black_to_move, SearchResult(None, mate=2)) == "mate in 2 for Black"
    assert score_text(black_to_move, SearchResult(None, mate=-1)) == "mate in 1 for White"
    assert score_text(black_to_move, SearchResult(None, score=35)) == "-0.35 (White's view)"


def _summary(games: int, values: dict[str, list[int]]) -> dict:
    rate = {"count": 0, "rate": 0.5, "low": 0.1, "high": 0.9}
    return {"variant": "crossroads", "games": games, "player": "level 1", "opening_plies": 2, "seed": 1,
            "max_plies": 200, "setup": "standard", "white": rate, "draw": rate, "black": rate, "white_score": rate,
            "terminations": {"checkmate": games}, "length": {"mean": 40, "median": 40, "q1": 30, "q3": 50,
                                                              "min": 20, "max": 60},
            "first_moves": [], "morphs": {}, "transformations": {}, "promotions": {},
            "computed_values": {"P": 100, "N": 300, "Q": 900},
            "empirical_values": {"values": values, "samples": 300, "logits": {}, "white_edge": 0.0}}


def test_six_games_support_no_piece_value():
    text = text_report(_summary(6, {"P": [8932, -4000, 20000], "N": [310, 290, 330]}))
    assert "8932" not in text and "withheld: 95% interval -4000 to 20000" in text
    assert "6 games are too few" in text
    assert "withheld: 95% interval 290 to 330" in text  # narrow, but six games are too few for any value


def test_many_games_show_narrow_values_and_withhold_wide_ones():
    s = _summary(MIN_GAMES * 4, {"P": [95, 80, 110], "N": [320, -50, 900], "Q": [900, 500, 1500]})
    assert shown_values(s) == {"P": [95, 80, 110]}
    text = text_report(s)
    assert "95 (80 to 110)" in text and "withheld: 95% interval -50 to 900" in text
    assert "withheld: 95% interval 500 to 1500" in text  # wider than the value itself
    assert supported([100, 60, 150], MIN_GAMES) and not supported([100, 60, 150], MIN_GAMES - 1)


def test_the_catalogue_says_what_it_lacks():
    assert library.search("janggi") == [] and library.search("crazyhouse") == []
    notes = library.missing("janggi crazyhouse drops quux")
    assert notes == ["janggi: not in the library yet; Fairy-Stockfish plays it",
                     "crazyhouse: not in the library yet; Fairy-Stockfish plays it",
                     "quux: no game of the library is called or described so"]
    assert library.missing("xiangqi 10x8 morphs drops") == []


def test_the_missing_endpoint_and_its_budget(tmp_path):
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from morphchess.web import create_app
    with TestClient(create_app(f"sqlite:///{tmp_path}/games.db", 1000)) as client:
        assert client.get("/api/library/missing", params={"search": "Janggi"}).json() == {
            "notes": ["janggi: not in the library yet; Fairy-Stockfish plays it"]}
        markup = client.get("/api/library/missing", params={"search": "<b>x</b>"})
        assert markup.headers["content-type"].startswith("application/json")
        assert markup.json()["notes"] == ["<b>x</b>: no game of the library is called or described so"]
        too_long = client.get("/api/library/missing", params={"search": "x" * (library.MAX_QUERY + 1)})
        assert too_long.status_code == 422
