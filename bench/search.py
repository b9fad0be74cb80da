"""Search speed: nodes per second and time to each depth, on fixed positions of every variant.

    python bench/search.py            # depth 5, every built-in variant
    python bench/search.py --depth 6 --variants chess crossroads

The positions are each variant's start and the position after 8 plies chosen
by a seeded random generator (so every run searches the same positions).
"""

from __future__ import annotations

import argparse
import random

from morphchess import Position, builtin, variant_names
from morphchess.engine import search
from morphchess.notation import move_to_coord
from morphchess.position import compiled


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


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--depth", type=int, default=5)
    ap.add_argument("--variants", nargs="+", default=variant_names())
    args = ap.parse_args()
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
