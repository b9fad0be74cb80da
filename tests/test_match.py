"""The match runner, its players (also an external UCI engine) and terminal play."""

import io
import math
import random
import sys
import textwrap

import pytest

from morphchess.board import Board
from morphchess.cli import main
from morphchess.engine.match import (
    GreedyPlayer,
    MatchResult,
    elo,
    elo_interval,
    material_difference,
    parse_spec,
    random_opening,
    run_match,
)
from morphchess.pgn import read_all
from morphchess.play import main_loop, parse_move, render


def test_elo():
    assert elo(0.5) == 0
    assert elo(0.76) == pytest.approx(400 * math.log10(0.76 / 0.24))
    assert elo(1.0) == math.inf and elo(0.0) == -math.inf
    r = MatchResult(wins=20)
    diff, low, high = elo_interval(r)
    assert diff == math.inf and 200 < low < 400 and high == math.inf  # 20/20: still a finite lower bound
    r = MatchResult(wins=10, draws=0, losses=10)
    diff, low, high = elo_interval(r)
    assert diff == 0 and low < -100 and high > 100


def test_specs():
    assert parse_spec("depth:3") == ("depth", 3)
    assert parse_spec("uci:sunfish-uci --x") == ("uci", "sunfish-uci --x")
    for bad, why in (("depth:x", "whole number"), ("level:9", "level"), ("foo", "unknown player"),
                     ("time:0", "at least 1"), ("uci:", "unknown player")):
        with pytest.raises(ValueError, match=why):
            parse_spec(bad)


def test_greedy_takes_the_most_material():
    board = Board("chess", fen="4k3/8/8/3q4/8/1n6/3R4/4K3 w - - 0 1")
    move = GreedyPlayer(random.Random(1), board.variant).choose(board)
    assert move.uci() == "d2d5"


def test_match_engine_beats_random():
    r = run_match("crossroads", "depth:1", "random", 2, seed=2)
    assert (r.wins, r.draws, r.losses) == (2, 0, 0)
    assert [g[1] for g in r.games] == [0, 1]  # colours alternate
    # both games of a pair start from the same random opening
    first, second = (read_all(g[3])[0].board.move_stack[:2] for g in r.games)
    assert [m.uci() for m in first] == [m.uci() for m in second]


def test_balanced_openings():
    """A random opening of Morphing Chess often lands a knight on rank 5 (a chancellor); with a balance
    the opening is drawn again until the two sides' material is even, the same for the same seed."""
    gaps, kept = [], []
    for seed in range(12):
        plain = Board("morphing-chess")
        random_opening(plain, 4, random.Random(seed))
        gaps.append(abs(material_difference(plain.position)))
        even = Board("morphing-chess")
        random_opening(even, 4, random.Random(seed), balance=100)
        assert abs(material_difference(even.position)) <= 100 and len(even.move_stack) == 4
        again = Board("morphing-chess")
        random_opening(again, 4, random.Random(seed), balance=100)
        assert again.move_stack == even.move_stack
        kept.append(even.move_stack)
    assert max(gaps) > 100  # the plain draw is often uneven
    assert len({tuple(m.uci() for m in ms) for ms in kept}) > 6  # and the even ones still differ
    start = Board("morphing-chess")
    assert material_difference(start.position) == 0
    start.push_uci("b1d5")  # a knight to d5 becomes a chancellor
    assert material_difference(start.position) > 300


def test_match_cli_parallel_and_pgn(tmp_path, capsys):
    pgn = tmp_path / "games.pgn"
    assert main(["match", "polymorph", "--white", "depth:1", "--black", "greedy", "--games", "2", "--jobs", "2",
                 "--setup", "random", "--pgn", str(pgn), "--quiet"]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    assert out[-1].startswith("score: +") and "Elo difference" in "\n".join(out)
    w, d, l = (int(x[1:]) for x in out[-1].split()[1:])
    assert w + d + l == 2
    games = read_all(pgn.read_text())
    assert len(games) == 2 and {g.headers["White"] for g in games} == {"depth:1", "greedy"}
    for g in games:
        outcome = g.board.outcome()
        assert g.result == (outcome.result() if outcome else "1/2-1/2")
    assert main(["match", "chess", "--white", "depth:x", "--black", "random"]) == 2
    assert "depth:x" in capsys.readouterr().err


FAKE_UCI = textwrap.dedent("""
    import sys
    from morphchess import builtin
    from morphchess.board import Board
    board = None
    for line in sys.stdin:
        words = line.split()
        if words[:1] == ["uci"]:
            print("id name fake", flush=True)
            print("uciok", flush=True)
        elif words[:1] == ["isready"]:
            print("readyok", flush=True)
        elif words[:1] == ["setoption"]:
            print("info string " + " ".join(words[1:]), flush=True)
        elif words[:2] == ["position", "fen"]:
            fen = " ".join(words[2:words.index("moves")] if "moves" in words else words[2:])
            board = Board(VARIANT, fen=fen)
            if "moves" in words:
                for m in words[words.index("moves") + 1:]:
                    board.push_uci(m)
        elif words[:1] == ["go"]:
            print("bestmove " + sorted(m.uci() for m in board.legal_moves)[0], flush=True)
        elif words[:1] == ["quit"]:
            break
""")


def test_uci_player(tmp_path):
    script = tmp_path / "fake_uci.py"
    script.write_text(FAKE_UCI.replace("VARIANT", repr("crossroads")))
    r = run_match("crossroads", "depth:1", f"uci:{sys.executable} {script}", 2, movetime_ms=10)
    assert r.n == 2 and r.wins == 2


def test_uci_player_go_limits(tmp_path):
    # this engine answers only "go nodes 7": the option go replaces the match's move time
    script = tmp_path / "fake_uci.py"
    script.write_text(FAKE_UCI.replace("VARIANT", repr("crossroads")).replace(
        'words[:1] == ["go"]', 'words == ["go", "nodes", "7"]'))
    r = run_match("crossroads", "depth:1", f"uci:{sys.executable} {script}?go=nodes 7", 2, movetime_ms=10)
    assert r.n == 2 and r.wins == 2


def test_render_and_parse_moves():
    board = Board("crossroads")
    assert parse_move(board, "f3(Z)").uci() == "f2f3"       # SAN
    assert parse_move(board, "e2e4").uci() == "e2e4"        # coordinates
    assert parse_move(board, "P e2-e3").uci() == "e2e3"     # Game Courier
    with pytest.raises(ValueError, match="e2e5"):
        parse_move(board, "e2e5")
    board.push_uci("f2f3")
    text = render(board)
    assert text.splitlines()[0].startswith(" 9 r") and "Z<" in text and text.splitlines()[-1].split()[-1] == "i"
    poly = Board("polymorph")
    assert parse_move(poly, "B-b1").uci() == "b1b1b"  # a transformation in Game Courier text


def test_terminal_session(tmp_path):
    saved = tmp_path / "g.pgn"
    script = f"e4\nnonsense\nmoves\nhint\nundo\nundo\nd4\nsave {saved}\nquit\nnever read\n"
    out = io.StringIO()
    main_loop(Board("chess"), 1, 0, inp=io.StringIO(script), out=out)
    text = out.getvalue()
    assert "You play e4" in text and "Engine plays" in text
    assert "cannot read 'nonsense'" in text and "Nf3" in text and "Hint:" in text
    assert "Nothing to take back" in text
    games = read_all(saved.read_text())
    assert [m.uci() for m in games[0].board.move_stack][0] == "d2d4" and len(games[0].board.move_stack) == 2
