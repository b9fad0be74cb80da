"""Search speed: nodes per second and time to each depth, on fixed positions of every variant.

    python bench/search.py            # depth 5, every built-in variant
    python bench/search.py --depth 6 --variants chess crossroads
    python bench/search.py --against OTHER/src [--nodes 20000] [--rounds 3] [--variants ...]

The positions are each variant's start and the position after 8 plies chosen
by a seeded random generator (so every run searches the same positions).

``--against`` compares this checkout with another tree (a ``git worktree`` of an older commit,
built in place if its core is compiled) at equal nodes: each tree searches every position with
``--nodes`` nodes and a fresh transposition table in a fresh process, the two trees taking turns
``--rounds`` times so that the machine's load falls on both alike; the fastest run (processor
time) of each counts.  The best moves and node counts must agree, or the trees search differently.
"""

from __future__ import annotations

import argparse
import json
import pathlib
import random
import subprocess
import sys
import time

from morphchess import Position, builtin, variant_names
from morphchess.engine import search
from morphchess.engine.tt import TranspositionTable
from morphchess.notation import move_to_coord
from morphchess.position import compiled

HERE = pathlib.Path(__file__).resolve()
GAMES = ["chess", "crossroads", "morphing-chess", "morphomania", "polymorph", "snappy-chess", "xiangqi"]


def positions(name: str, seed: int = 7) -> list[tuple[str, Position]]:
    v = builtin(name)
    start = Position(v)
    mid = Position(v)
    rng = random.Random(f"{seed}/{name}")
    for _ in range(8):
        moves = mid.legal_moves()
        if not moves:
            break
        mid.make(rng.choice(moves))
    return [("start", start), ("8 plies", mid)]


def timed(names: list[str], nodes: int) -> None:
    """Print, per variant and position, the best move, the nodes and the processor seconds of a search
    of ``nodes`` nodes with a fresh table (one JSON line each; the evaluation tables are built first)."""
    for name in names:
        for label, pos in positions(name):
            search(pos, nodes=1, tt=TranspositionTable())  # builds the variant's tables
            tt = TranspositionTable()
            start = time.process_time()
            r = search(pos, nodes=nodes, tt=tt)
            seconds = time.process_time() - start
            print(json.dumps([name, label, move_to_coord(pos, r.move), r.nodes, seconds]), flush=True)


def against(other: pathlib.Path, names: list[str], nodes: int, rounds: int) -> None:
    """This checkout's nodes per second over ``other``'s (its src directory), position by position."""
    runs: dict[tuple, list] = {}
    for _ in range(rounds):
        for tree, src in (("this", HERE.parent.parent / "src"), ("other", other)):
            out = subprocess.run([sys.executable, str(HERE), "--timed", str(nodes), "--variants", *names],
                                 env={"PYTHONPATH": str(src)}, capture_output=True, text=True, check=True).stdout
            for line in out.splitlines():
                name, label, move, count, seconds = json.loads(line)
                runs.setdefault((name, label), []).append((tree, move, count, seconds))
    print(f"nodes/s at {nodes} nodes, fastest of {rounds} runs each (processor time)\n")
    print("| variant | position | this | other | ratio |")
    print("|---|---|---|---|---|")
    for (name, label), results in runs.items():
        best = {tree: max(count / seconds for t, _m, count, seconds in results if t == tree)
                for tree in ("this", "other")}
        same = len({(move, count) for _t, move, count, _s in results}) == 1
        print(f"| {name} | {label} | {best['this']:,.0f} | {best['other']:,.0f} | {best['this'] / best['other']:.2f}x |"
              + ("" if same else " SEARCHES DIFFER"), flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--depth", type=int, default=5)
    ap.add_argument("--variants", nargs="+")
    ap.add_argument("--against", type=pathlib.Path, help="another tree's src directory")
    ap.add_argument("--nodes", type=int, default=20000, help="nodes a search (with --against)")
    ap.add_argument("--rounds", type=int, default=3, help="turns each tree takes (with --against)")
    ap.add_argument("--timed", type=int, help=argparse.SUPPRESS)  # one tree's part of --against
    args = ap.parse_args()
    if args.timed:
        return timed(args.variants, args.timed)
    if args.against:
        return against(args.against, args.variants or GAMES, args.nodes, args.rounds)
    args.variants = args.variants or variant_names()
    print(f"morphchess's {'compiled' if compiled() else 'pure-Python'} core (MORPHCHESS_PURE=1: the source)\n")
    print("| variant | position | depth | seconds to depth 1..N | nodes | nodes/s | best |")
    print("|---|---|---|---|---|---|---|")
    for name in args.variants:
        for label, pos in positions(name):
            times = []
            r = search(pos, depth=args.depth, on_info=lambda info, times=times: times.append(f"{info.seconds:.2f}"))
            print(f"| {name} | {label} | {r.depth} | {' '.join(times)} | {r.nodes} | "
                  f"{r.nodes / r.seconds:.0f} | {move_to_coord(pos, r.move)} |", flush=True)


if __name__ == "__main__":
    main()
