"""Elo of the engine: orthodox chess against Stockfish levels and Fairy-Max, variant ladders, speed.

    pip install -e '.[bench]'                             # sunfish and python-chess
    python bench/elo.py                                   # everything, default sizes (an hour or more)
    python bench/elo.py --parts speed stockfish --games 10 --movetime 200 --levels 1350 1700 2000
    python bench/elo.py --parts ladder --variants crossroads --ladder-games 6

Parts (each prints a markdown table):

* ``speed``: nodes per second of morphchess and of sunfish (PyPI) on the same chess positions,
  in this run, each searching for ``--speed-seconds``.
* ``stockfish``: the engine (``time:MOVETIME``) against Stockfish with ``UCI_LimitStrength`` at
  each ``--levels`` Elo, same time per move; then one Elo estimate on Stockfish's scale from all
  those games (maximum likelihood, 95% likelihood interval).
* ``fairymax``: the engine against Fairy-Max (CECP, through ``xboard:``), same time per move.
* ``ladder``: in every variant, the engine against fixed-depth settings of itself (``--depths``).
* ``previous``: in every variant, the engine against the engine of an earlier commit
  (``--previous REF``, any commit that has ``morphchess uci``), run from a ``git archive`` copy;
  with ``--engine nodes:N`` (or ``depth:N``) both get that limit, which makes the match independent
  of the machine's load.

Colours alternate and both games of a pair start from the same random two-ply opening.
The engines run on the wall clock: a loaded machine weakens the Python engine more than the
C engines.  ``--engine nodes:N`` gives morphchess a node limit instead (the ladder then does not
depend on the machine's load at all).
"""

from __future__ import annotations

import argparse
import math
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

from morphchess import Position, builtin
from morphchess.engine import search
from morphchess.engine.match import MatchResult, elo_interval, progress_bar, run_match
from morphchess.variants import names

POSITIONS = {  # name: FEN (orthodox chess)
    "start": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "middlegame": "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 9",
}


def find_program(name: str) -> str | None:
    return shutil.which(name, path=os.environ.get("PATH", "") + os.pathsep + "/usr/games")


# -- Elo from games against rated opponents ---------------------------------------------
def log_likelihood(rating: float, games: list[tuple[float, float]]) -> float:
    """Log-likelihood of a rating given (opponent rating, points) pairs (draws as half points)."""
    total = 0.0
    for opponent, points in games:
        expected = 1 / (1 + 10 ** ((opponent - rating) / 400))
        total += points * math.log(expected) + (1 - points) * math.log(1 - expected)
    return total


def rating_estimate(games: list[tuple[float, float]]) -> tuple[float, float, float]:
    """Maximum-likelihood rating and its 95% likelihood interval (log-likelihood within 1.92 of the top)."""
    grid = [r / 2 for r in range(0, 2 * 4000)]
    values = [log_likelihood(r, games) for r in grid]
    top = max(values)
    best = grid[values.index(top)]
    inside = [r for r, v in zip(grid, values) if v >= top - 1.92]
    return best, inside[0], inside[-1]


# -- parts ----------------------------------------------------------------------------------
def morphchess_nps(fen: str, seconds: float) -> float:
    from morphchess.notation import from_fen
    pos = from_fen(builtin("chess"), fen)
    search(Position(builtin("chess")), depth=1)  # tables built before the clock starts
    r = search(pos, movetime_ms=int(seconds * 1000))
    return r.nodes / r.seconds


def sunfish_nps(fen: str, seconds: float) -> float | None:
    """sunfish's nodes per second on a position with White to move (None if sunfish is not installed)."""
    try:
        import sunfish
    except ImportError:
        return None
    searcher = sunfish.Searcher()
    start = time.perf_counter()
    for _ in searcher.search([sunfish_position(sunfish, fen)]):
        if time.perf_counter() - start > seconds:
            break
    return searcher.nodes / (time.perf_counter() - start)


def sunfish_position(sunfish, fen: str):
    """sunfish's Position (120-character board, score, castling rights) of a FEN with White to move."""
    placement, _turn, castling = fen.split()[:3]
    rows = ["".join("." * int(c) if c.isdigit() else c for c in row) for row in placement.split("/")]
    board = " " * 9 + "\n" + " " * 9 + "\n" + "".join(f" {row}\n" for row in rows) + (" " * 9 + "\n") * 2
    score = 0
    for i, c in enumerate(board):
        if c.isupper():
            score += sunfish.pst[c][i]
        elif c.islower():
            score -= sunfish.pst[c.upper()][119 - i]
    return sunfish.Position(board, score, ("Q" in castling, "K" in castling), ("k" in castling, "q" in castling),
                            0, 0)


def part_speed(args) -> None:
    print(f"\nSearch speed, orthodox chess, {args.speed_seconds:g} s per position and engine:\n")
    print("| position | morphchess nodes/s | sunfish nodes/s | ratio |")
    print("|---|---|---|---|")
    for name, fen in POSITIONS.items():
        ours = morphchess_nps(fen, args.speed_seconds)
        theirs = sunfish_nps(fen, args.speed_seconds)
        ratio = f"{ours / theirs:.2f}" if theirs else "-"
        print(f"| {name} | {ours:.0f} | {theirs:.0f} | {ratio} |" if theirs else f"| {name} | {ours:.0f} | "
              "(sunfish not installed) | - |", flush=True)


def match_row(variant: str, engine: str, opponent: str, games: int, args, label: str | None = None) -> MatchResult:
    """Play one match and print its table row (``label`` names the opponent in the row)."""
    start = time.perf_counter()
    r = run_match(variant, engine, opponent, games, movetime_ms=args.movetime, jobs=args.jobs, seed=args.seed,
                  progress=progress_bar(games) if args.progress else None, balance=args.balance)
    diff, low, high = elo_interval(r)
    print(f"| {variant} | {engine} | {label or opponent} | +{r.wins} ={r.draws} -{r.losses} | {r.score:.1%} | "
          f"{diff:+.0f} ({low:+.0f}..{high:+.0f}) | {(time.perf_counter() - start) / 60:.1f} |", flush=True)
    return r


HEADER = ("| variant | engine | opponent | +W =D -L | score | Elo difference (95%) | minutes |\n"
          "|---|---|---|---|---|---|---|")


def part_stockfish(args) -> None:
    program = find_program("stockfish")
    if program is None:
        print("\nstockfish: not installed (apt-get install stockfish)")
        return
    print("\n" + HEADER)
    rated: list[tuple[float, float]] = []
    for level in args.levels:
        spec = f"uci:{program}?UCI_LimitStrength=true&UCI_Elo={level}"
        r = match_row("chess", args.engine, spec, args.games, args)
        rated += [(level, 1.0)] * r.wins + [(level, 0.5)] * r.draws + [(level, 0.0)] * r.losses
    best, low, high = rating_estimate(rated)
    print(f"\nElo on Stockfish's UCI_Elo scale at {args.movetime} ms/move: {best:.0f} "
          f"(95% interval {low:.0f} to {high:.0f}), {len(rated)} games")


def part_fairymax(args) -> None:
    program = find_program("fairymax")
    if program is None:
        print("\nfairymax: not installed (apt-get install fairymax)")
        return
    print("\n" + HEADER)
    match_row("chess", args.engine, f"xboard:{program}", args.games, args)


def part_ladder(args) -> None:
    print("\n" + HEADER)
    for variant in args.variants:
        for depth in args.depths:
            match_row(variant, args.engine, f"depth:{depth}", args.ladder_games, args)


def part_previous(args) -> None:
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    with tempfile.TemporaryDirectory() as tmp:
        archive = subprocess.run(["git", "-C", root, "archive", args.previous], capture_output=True, check=True)
        subprocess.run(["tar", "-x", "-C", tmp], input=archive.stdout, check=True)
        command = shlex.join(["env", f"PYTHONPATH={os.path.join(tmp, 'src')}", sys.executable, "-m",
                              "morphchess.cli", "uci"])
        kind, _, number = args.engine.partition(":")
        limit = f"?go={kind} {number}" if kind in ("nodes", "depth") else ""  # the same limit for both
        print(f"\nuci:previous = the engine of {args.previous}\n\n" + HEADER)
        for variant in args.variants:
            match_row(variant, args.engine, f"uci:{command}{limit}", args.ladder_games, args, "previous")


PARTS = {"speed": part_speed, "stockfish": part_stockfish, "fairymax": part_fairymax, "ladder": part_ladder,
         "previous": part_previous}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--parts", nargs="+", choices=sorted(PARTS), default=[p for p in PARTS if p != "previous"])
    ap.add_argument("--previous", default="73dfd29", help="git commit of the earlier engine (part 'previous')")
    ap.add_argument("--games", type=int, default=20, help="games per Stockfish level and against Fairy-Max")
    ap.add_argument("--ladder-games", type=int, default=10, help="games per variant and depth")
    ap.add_argument("--movetime", type=int, default=500, help="milliseconds per move, every player")
    ap.add_argument("--engine", help="morphchess's player SPEC (default time:MOVETIME), e.g. nodes:20000")
    ap.add_argument("--levels", type=int, nargs="+", default=[1350, 1500, 1700, 2000], help="UCI_Elo levels")
    ap.add_argument("--depths", type=int, nargs="+", default=[2, 3], help="ladder opponents depth:N")
    ap.add_argument("--variants", nargs="+", default=names(), help="ladder variants")
    ap.add_argument("--speed-seconds", type=float, default=3.0)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--balance", type=int, default=None, metavar="CP",
                    help="openings whose material (piece values from the moves) differs by at most CP")
    ap.add_argument("--progress", action="store_true", help="a progress bar per match on stderr")
    args = ap.parse_args()
    args.engine = args.engine or f"time:{args.movetime}"
    for part in args.parts:
        PARTS[part](args)


if __name__ == "__main__":
    main()
