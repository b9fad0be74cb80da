"""Perft speed: morphchess on every built-in variant against python-chess on orthodox chess.

    python bench/perft.py [--seconds S] [--repeat N] [VARIANT ...]

For each variant, perft from the start position is run at depth 1, 2, ... until one run
takes at least S seconds (default 3), or the next depth would take more than 4 S; the last
run's leaves per second is the variant's speed.  Every leaf is made and unmade
(``Position.perft``).  python-chess is measured the same way on orthodox chess in the same
process (push and pop at every leaf); morphchess's orthodox chess runs at python-chess's
depth so that their ratio compares the same tree.  Each speed is printed as a ratio to
python-chess's.  Needs python-chess (``pip install chess``).
"""

from __future__ import annotations

import argparse
import sys
import time

from morphchess import Position, builtin, variant_names


def chess_perft(board, depth: int) -> int:
    """python-chess perft with push/pop at every leaf, like morphchess's."""
    if depth == 1:
        n = 0
        for m in board.legal_moves:
            board.push(m)
            n += 1
            board.pop()
        return n
    n = 0
    for m in board.legal_moves:
        board.push(m)
        n += chess_perft(board, depth - 1)
        board.pop()
    return n


def timed(run, depth: int, repeat: int) -> tuple[int, float]:
    """(leaves, best seconds) of ``repeat`` runs of ``run(depth)``."""
    best, leaves = float("inf"), 0
    for _ in range(repeat):
        start = time.perf_counter()
        leaves = run(depth)
        best = min(best, time.perf_counter() - start)
    return leaves, best


def measure(label: str, run, seconds: float, repeat: int, depth: int | None = None) -> tuple[int, int, float]:
    """Leaves per second of ``run`` at ``depth``, or at the first depth whose run lasts ``seconds``
    (stopping earlier when the next depth would take more than four times that; the shorter
    run is then repeated to fill ``seconds`` and the fastest counts).
    Returns (depth, leaves, leaves per second)."""
    d, prev = (depth, None) if depth else (1, None)
    while True:
        leaves, secs = timed(run, d, repeat)
        print(f"  {label:16} depth {d}: {leaves:>12,} leaves {secs:8.2f} s {leaves / secs:>12,.0f} nodes/s",
              flush=True)
        growth = leaves / prev if prev else leaves
        if depth or secs >= seconds or secs * growth > 4 * seconds or d >= 12:
            break
        d, prev = d + 1, leaves
    if secs < seconds:
        extra = min(10, int(seconds / secs))
        _, again = timed(run, d, extra)
        if again < secs:
            secs = again
            print(f"  {label:16} depth {d}: best of {extra} more runs {secs:8.2f} s "
                  f"{leaves / secs:>12,.0f} nodes/s", flush=True)
    return d, leaves, leaves / secs


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("variants", nargs="*", help="built-in variants (default: all)")
    parser.add_argument("--seconds", type=float, default=3.0, help="minimum length of the measured run")
    parser.add_argument("--repeat", type=int, default=1, help="runs per depth; the fastest counts")
    args = parser.parse_args(argv)
    try:
        import chess
    except ImportError:
        print("bench/perft.py needs python-chess: pip install chess", file=sys.stderr)
        return 2
    names = args.variants or ["chess"] + [n for n in variant_names() if n != "chess"]
    unknown = [n for n in names if n not in variant_names()]
    if unknown:
        print(f"unknown variant(s): {', '.join(unknown)}; built-in: {', '.join(variant_names())}", file=sys.stderr)
        return 2

    print(f"python-chess {chess.__version__}, orthodox chess from the start position:", flush=True)
    ref_depth, _, reference = measure("python-chess", lambda d: chess_perft(chess.Board(), d),
                                      args.seconds, args.repeat)
    rows = []
    for name in names:
        v = builtin(name)
        Position(v).perft(2)  # compile the move tables outside the timing
        print(f"morphchess {name} ({v.files}x{v.ranks}):", flush=True)
        # orthodox chess at python-chess's depth, so that the ratio compares the same tree
        depth, leaves, speed = measure(name, lambda d, v=v: Position(v).perft(d), args.seconds, args.repeat,
                                       ref_depth if name == "chess" else None)
        rows.append((name, depth, leaves, speed))
        print(f"  -> {speed / reference:.2f}x python-chess", flush=True)

    # the machine's load may change during the run: measure python-chess again, keep the faster
    _, _, again = measure("python-chess", lambda d: chess_perft(chess.Board(), d), args.seconds, args.repeat,
                          ref_depth)
    print(f"python-chess again: {again:,.0f} nodes/s (first {reference:,.0f}); the faster one is used")
    reference = max(reference, again)
    chess_speed = next((s for n, _, _, s in rows if n == "chess"), None)
    print("\nSummary (leaves per second, start position):")
    print(f"  {'python-chess':16} d={ref_depth:<3} {'':>12} {reference:>12,.0f}   1.00x")
    for name, depth, leaves, speed in rows:
        vs_chess = f"   {speed / chess_speed:.2f}x morphchess chess" if chess_speed and name != "chess" else ""
        print(f"  {name:16} d={depth:<3} {leaves:>12,} {speed:>12,.0f}   {speed / reference:.2f}x{vs_chess}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
