"""The sequential test of bench/sprt.py: its log-likelihood ratio, its bounds and the early stop of run_match."""

import math
import subprocess
import sys
from pathlib import Path

import pytest

from morphchess.engine.match import MatchResult, run_match, sprt_bounds, sprt_llr
from morphchess.engine.search import Params
from morphchess.errors import OptionError

ROOT = Path(__file__).resolve().parent.parent


def test_bounds_are_walds():
    low, high = sprt_bounds(0.05, 0.05)
    assert low == pytest.approx(-2.944, abs=1e-3) and high == pytest.approx(2.944, abs=1e-3)


def test_llr_without_draws_is_close_to_the_exact_bernoulli_ratio():
    """With wins and losses only, the exact SPRT's LLR is W ln(s1/s0) + L ln((1-s1)/(1-s0)); the normal
    approximation of the generalised test agrees with it for small Elo differences."""
    s0, s1 = 0.5, 1 / (1 + 10 ** (-20 / 400))
    for wins, losses in ((560, 440), (500, 500), (450, 550)):
        r = MatchResult(wins=wins, losses=losses)
        exact = wins * math.log(s1 / s0) + losses * math.log((1 - s1) / (1 - s0))
        assert sprt_llr(r, 0, 20, paired=False) == pytest.approx(exact, rel=0.05, abs=0.05)


def pairs_result(counts):
    """A result with the given pentanomial counts (pairs scoring 0, 0.5, 1, 1.5, 2 points)."""
    r = MatchResult()
    games = {0: ("0-1", "1-0"), 1: ("1/2-1/2", "1-0"), 2: ("1-0", "1-0"), 3: ("1/2-1/2", "0-1"),
             4: ("1-0", "0-1")}
    for points, n in enumerate(counts):
        for _ in range(n):
            for colour, res in enumerate(games[points]):
                r.games.append((len(r.games), colour, res, ""))
    return r


def test_pairs_and_the_llr_follow_the_results():
    r = pairs_result([1, 2, 3, 4, 5])
    assert r.pairs() == [1, 2, 3, 4, 5]
    assert sprt_llr(r, 0, 10) > 0 > sprt_llr(pairs_result([5, 4, 3, 2, 1]), 0, 10)
    strong = pairs_result([0, 5, 20, 40, 20])
    assert sprt_llr(strong, 0, 10) > sprt_bounds()[1]
    assert sprt_llr(MatchResult(), 0, 10) == 0


def test_run_match_stops_when_asked():
    seen = []
    r = run_match("chess", "greedy", "random", 10, seed=3, stop=lambda res: seen.append(res.n) or res.n >= 4)
    assert r.n == 4 and seen == [1, 2, 3, 4]
    r = run_match("chess", "greedy", "random", 10, seed=3, jobs=2, stop=lambda res: res.n >= 2)
    assert r.n == 2


def test_params_are_checked():
    assert Params.parse("rfp=60&lmp=3") == Params(rfp=60, lmp=3)
    with pytest.raises(OptionError, match="unknown search parameter 'foo'"):
        Params.parse("foo=1")
    with pytest.raises(OptionError, match="whole number"):
        Params.parse("rfp=x")


def test_sprt_script_runs():
    out = subprocess.run([sys.executable, str(ROOT / "bench" / "sprt.py"), "--new", "rfp=60", "--nodes", "100",
                          "--max-games", "2", "--opening-plies", "2"], capture_output=True, text=True, timeout=300,
                         env={"PYTHONPATH": str(ROOT / "src"), "PATH": "/usr/bin:/bin"})
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("no decision") and "2 games" in out.stdout
    assert "LLR" in out.stderr.splitlines()[-1]


def test_engine_players_carry_their_parameters_and_tables():
    import random

    from morphchess import builtin
    from morphchess.engine.match import make_player, parse_spec
    assert parse_spec("nodes:100?rfp=5") == ("nodes", 100)
    with pytest.raises(OptionError, match="unknown search parameter"):
        parse_spec("depth:2?bogus=1")
    v = builtin("chess")
    a = make_player("nodes:100?rfp=5&aspiration=30", v, 1000, random.Random(1))
    b = make_player("nodes:100", v, 1000, random.Random(1))
    assert a.params == Params(rfp=5, aspiration=30) and b.params == Params()
    assert a.tt is not b.tt
