"""Perft speed of this checkout against another one, in the same run.

    git worktree add --detach /tmp/base b248dbf
    python bench/perft_against.py /tmp/base/src [VARIANT ...] [--depth 4] [--rounds 3]

Each variant's perft from the start position runs in a fresh process for each tree, the two
trees taking turns ``--rounds`` times, so that a change in the machine's load falls on both
alike; each run is timed in processor time.  The fastest run of each tree counts; the ratio is
this checkout's speed over the other's (above 1: this checkout is faster).  The leaf counts
must agree, or the trees play different rules.
"""

from __future__ import annotations

import argparse
import pathlib
import subprocess
import sys

HERE = pathlib.Path(__file__).resolve().parent.parent / "src"
RUN = """
import sys, time
from morphchess import Position, builtin
v = builtin(sys.argv[1]); Position(v).perft(2)
start = time.process_time(); n = Position(v).perft(int(sys.argv[2]))
print(n, time.process_time() - start)
"""


def speed(src: pathlib.Path, name: str, depth: int) -> tuple[int, float]:
    """(leaves, leaves per second) of one perft run of ``name`` with morphchess from ``src``."""
    out = subprocess.run([sys.executable, "-c", RUN, name, str(depth)], env={"PYTHONPATH": str(src)},
                         capture_output=True, text=True, check=True).stdout.split()
    return int(out[0]), int(out[0]) / float(out[1])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("base", type=pathlib.Path, help="the other tree's src directory")
    parser.add_argument("variants", nargs="*", default=["chess", "crossroads", "morphing-chess", "morphomania",
                                                        "polymorph", "snappy-chess"])
    parser.add_argument("--depth", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=3, help="turns each tree takes; the fastest counts")
    args = parser.parse_args(argv)
    if not (args.base / "morphchess").is_dir():
        print(f"{args.base}: no morphchess package here (give the other tree's src directory)", file=sys.stderr)
        return 2
    for name in args.variants:
        runs = [[speed(src, name, args.depth) for src in (HERE, args.base)] for _ in range(args.rounds)]
        counts = {leaves for turn in runs for leaves, _ in turn}
        this, other = (max(turn[k][1] for turn in runs) for k in (0, 1))
        mark = "" if len(counts) == 1 else f"   LEAF COUNTS DIFFER: {sorted(counts)}"
        print(f"{name:16} d={args.depth} {max(counts):>10,}  this {this:>9,.0f}/s  "
              f"other {other:>9,.0f}/s  {this / other:.2f}x{mark}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
