"""Board overhead: the python-chess-like Board against the core Position it wraps.

    python bench/board.py [--depth D] [VARIANT ...]

For each variant, a perft of depth D (default 4) from the start position is run twice in the same
process: once with ``Position.legal_moves``/``make``/``unmake`` and once with ``Board.legal_moves``/
``push``/``pop`` (a legal-move list wrapped for the user, a legality check per push).  Printed: both
times (CPU seconds) and their ratio; the aim is a ratio within 2x.
"""

from __future__ import annotations

import argparse
import time

from morphchess import Board, Position, builtin, variant_names
from perft import chess_perft as board_perft  # push/pop at every leaf: python-chess and Board alike


def best_of(run, repeat: int = 1) -> tuple[int, float]:
    best, leaves = float("inf"), 0
    for _ in range(repeat):
        start = time.process_time()
        leaves = run()
        best = min(best, time.process_time() - start)
    return leaves, best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("variants", nargs="*", default=variant_names())
    parser.add_argument("--depth", type=int, default=4)
    args = parser.parse_args()
    print(f"{'variant':16} {'leaves':>10} {'Position s':>11} {'Board s':>9} {'Board/Position':>15}")
    for name in args.variants:
        v = builtin(name)
        Position(v).perft(2)  # compile the tables before timing
        leaves, core = best_of(lambda v=v: Position(v).perft(args.depth))
        board_leaves, wrapped = best_of(lambda v=v: board_perft(Board(v), args.depth))
        assert board_leaves == leaves, (name, leaves, board_leaves)
        print(f"{name:16} {leaves:>10,} {core:>11.2f} {wrapped:>9.2f} {wrapped / core:>14.2f}x", flush=True)


if __name__ == "__main__":
    main()
