"""Perft speed: morphchess on every built-in variant against python-chess on orthodox chess.

    python bench/perft.py [--seconds S] [--repeat N] [--no-fsf] [VARIANT ...]

For each variant, perft from the start position is run at depth 1, 2, ... until one run
takes at least S seconds (default 3), or the next depth would take more than 4 S; the last
run's leaves per second is the variant's speed.  Every leaf is made and unmade
(``Position.perft``).  python-chess is measured the same way on orthodox chess in the same
process (push and pop at every leaf); morphchess's orthodox chess runs at python-chess's
depth so that their ratio compares the same tree.  Each speed is printed as a ratio to
python-chess's.  Needs python-chess (``pip install chess``).

Then bulk-counted perft (the last ply counts the legal moves without making them) against
Debian's ``fairy-stockfish`` (``go perft N``, which counts the same way) in chess, Capablanca
and Xiangqi, each printed as morphchess's speed over Fairy-Stockfish's, with the two counts
compared at morphchess's depth.  ``MORPHCHESS_PURE=1`` measures the pure-Python path
(docs/install.md); the first line says which core runs.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time

from morphchess import Position, builtin, variant_names
from morphchess.position import compiled

FAIRY_STOCKFISH = "/usr/games/fairy-stockfish"
FSF_VARIANTS = ("chess", "capablanca", "xiangqi")  # the same names in morphchess and Fairy-Stockfish


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


def bulk_perft(pos: Position, depth: int) -> int:
    """Perft that counts the legal moves of the last ply instead of making them (as ``go perft``)."""
    moves = pos.legal_moves()
    if depth <= 1:
        return len(moves) if depth == 1 else 1
    n = 0
    for m in moves:
        pos.make(m)
        n += bulk_perft(pos, depth - 1)
        pos.unmake()
    return n


class FairyStockfish:
    """Debian's fairy-stockfish over UCI, for ``go perft``."""

    def __init__(self, path: str = FAIRY_STOCKFISH) -> None:
        self.proc = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.send("uci")
        self.wait("uciok")

    def send(self, line: str) -> None:
        assert self.proc.stdin
        self.proc.stdin.write(line + "\n")

    def wait(self, prefix: str) -> str:
        assert self.proc.stdout
        for line in self.proc.stdout:
            if line.startswith(prefix):
                return line
        raise RuntimeError(f"fairy-stockfish ended before '{prefix}'")

    def perft(self, variant: str, depth: int) -> int:
        self.send(f"setoption name UCI_Variant value {variant}")
        self.send("position startpos")
        self.send("isready")
        self.wait("readyok")
        self.send(f"go perft {depth}")
        return int(self.wait("Nodes searched").split(":")[1])

    def close(self) -> None:
        self.send("quit")
        self.proc.wait(5)


def against_fairy_stockfish(seconds: float, repeat: int) -> None:
    """Bulk-counted perft of :data:`FSF_VARIANTS` against fairy-stockfish's ``go perft``, as ratios."""
    if not os.path.exists(FAIRY_STOCKFISH):
        print(f"\n{FAIRY_STOCKFISH} not found (apt-get install fairy-stockfish): no bulk perft comparison")
        return
    fsf = FairyStockfish()
    rows = []
    for name in FSF_VARIANTS:
        v = builtin(name)
        bulk_perft(Position(v), 2)  # compile the move tables outside the timing
        print(f"bulk perft, {name}:", flush=True)
        depth, leaves, ours = measure("morphchess", lambda d, v=v: bulk_perft(Position(v), d), seconds, repeat)
        _, _, theirs = measure("fairy-stockfish", lambda d, name=name: fsf.perft(name, d), seconds, repeat)
        same = fsf.perft(name, depth) == leaves
        rows.append((name, depth, ours, theirs, same))
    fsf.close()
    print("\nSummary (bulk perft, leaves per second, start position):")
    for name, depth, ours, theirs, same in rows:
        agree = "counts agree" if same else "COUNTS DIFFER"
        print(f"  {name:12} morphchess {ours:>12,.0f}  fairy-stockfish {theirs:>14,.0f}   {ours / theirs:.3f}x"
              f"   ({agree} at depth {depth})")


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
    parser.add_argument("--no-fsf", action="store_true", help="skip the bulk perft against fairy-stockfish")
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

    print(f"morphchess's {'compiled' if compiled() else 'pure-Python'} core", flush=True)
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
    if not args.no_fsf:
        against_fairy_stockfish(args.seconds, args.repeat)
    return 0


if __name__ == "__main__":
    sys.exit(main())
