"""Load time of large boards: build a definition and its move tables, print seconds and memory.

    python bench/load.py [SIZE ...]      (default: 8x8 16x16 26x26 26x99)

Each board holds a rook, bishop, queen, knight, FIDE pawns, a cannon (mRcpR) and a king per
side, so leaps, slides, modal riders, hoppers and the reversed attack tables are all used.
Printed: the seconds to load the definition and set up the start position, then to list
White's legal moves and to count perft 2 (the tables fill in as squares are first used),
and the process's peak resident size; each board is measured in a fresh process.
"""

from __future__ import annotations

import resource
import subprocess
import sys
import time

from morphchess import Position, load


def definition(files: int, ranks: int) -> str:
    """A small army on a ``files`` x ``ranks`` board."""
    last = chr(96 + files)
    return (f"files={files} ranks={ranks} promoChoice=Q royal=K\n"
            f"pawn:P:ifmnDfmWfceF:pawn:a2-{last}2\n"
            "knight:N:N:knight:b1\nbishop:B:B:bishop:c1\nrook:R:R:rook:a1\n"
            "queen:Q:Q:queen:d1\ncannon:X:mRcpR:cannon:f1\nking:K:KisO2:king:e1\n")


def measure(size: str) -> None:
    """Print the seconds to load the definition and build its tables, and the peak memory."""
    files, ranks = (int(x) for x in size.split("x"))
    start = time.perf_counter()
    pos = Position(load(definition(files, ranks), f"load{size}"))
    loaded = time.perf_counter()
    pos.legal_moves()
    first = time.perf_counter()
    pos.perft(2)
    done = time.perf_counter()
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"{size:>7}: load {loaded - start:6.2f} s  legal moves {first - loaded:6.2f} s  "
          f"perft 2 {done - first:6.2f} s  peak {peak:7.1f} MB", flush=True)


def main(argv: list[str]) -> None:
    if argv[:1] == ["--one"]:
        measure(argv[1])
        return
    for size in argv or ["8x8", "16x16", "26x26", "26x99"]:
        subprocess.run([sys.executable, __file__, "--one", size], check=True)


if __name__ == "__main__":
    main(sys.argv[1:])
