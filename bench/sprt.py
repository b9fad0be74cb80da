"""Sequential probability ratio test of an engine change at a fixed number of nodes per move.

    python bench/sprt.py --new "rfp=60" --base "" --elo 0 10 --nodes 2000 --variants chess crossroads
    python bench/sprt.py --new "nodes:3000?lmp=3" --base "nodes:3000" --jobs 2 --max-games 400

Both players are morphchess's engine in the same process (each with its own transposition
table); they differ only in their search parameters (``?name=value``, see
:class:`morphchess.engine.search.Params`), or in whole SPECs.  A plain parameter text for
``--new``/``--base`` means ``nodes:NODES?TEXT``.  Games come in pairs from the same random
opening with colours swapped (``--opening-plies``, from ``--seed`` and the pair number), the
variants of ``--variants`` taking turns pair by pair.  After every pair the log-likelihood
ratio of "the change is ``ELO1`` better" against "``ELO0`` better" is computed on the
pentanomial counts of the pairs (:func:`morphchess.engine.match.sprt_llr`); the test stops when
it leaves ``[log(beta / (1 - alpha)), log((1 - beta) / alpha)]`` (alpha = beta = 0.05:
-2.94, 2.94), but not before ``--min-games`` (the approximation is poor on a few pairs, and in
the Degens games most pairs are won by White in both games), or after ``--max-games``.  A
fixed node count makes the result independent of the machine's load.  One progress line per
game on stderr; the verdict on stdout.
"""

from __future__ import annotations

import argparse
import sys
import time

from morphchess.engine.match import MatchResult, elo_interval, run_match, sprt_bounds, sprt_llr


def spec(text: str, nodes: int) -> str:
    """A player SPEC from ``--new``/``--base``: a SPEC as given, or search parameters at ``nodes``."""
    return text if ":" in text else f"nodes:{nodes}?{text}"


def verdict(r: MatchResult, llr: float, low: float, high: float) -> str:
    diff, lo, hi = elo_interval(r)
    status = "H1 accepted (the change gains)" if llr >= high else (
        "H0 accepted (the change does not gain)" if llr <= low else "no decision (stopped at --max-games)")
    return (f"{status}: {r.n} games +{r.wins} ={r.draws} -{r.losses}, pairs {r.pairs()}, LLR {llr:.2f} "
            f"[{low:.2f}, {high:.2f}], Elo {diff:+.0f} ({lo:+.0f}..{hi:+.0f})")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--new", required=True, help="the change: search parameters or a player SPEC")
    ap.add_argument("--base", default="", help="the baseline (default: the engine's defaults)")
    ap.add_argument("--elo", nargs=2, type=float, default=(0.0, 10.0), metavar=("ELO0", "ELO1"))
    ap.add_argument("--alpha", type=float, default=0.05)
    ap.add_argument("--beta", type=float, default=0.05)
    ap.add_argument("--nodes", type=int, default=2000)
    ap.add_argument("--variants", nargs="+", default=["chess"])
    ap.add_argument("--max-games", type=int, default=1000)
    ap.add_argument("--min-games", type=int, default=80,
                    help="games before the test may stop (the normal approximation needs them)")
    ap.add_argument("--block", type=int, default=2, help="games (an even number) per variant before the next")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--opening-plies", type=int, default=4)
    ap.add_argument("--pgn", help="append every game to this PGN file")
    ap.add_argument("--balance", type=int, default=None, metavar="CP",
                    help="openings whose material (piece values from the moves) differs by at most CP")
    args = ap.parse_args(argv)
    new, base = spec(args.new, args.nodes), spec(args.base, args.nodes)
    low, high = sprt_bounds(args.alpha, args.beta)
    total = MatchResult()
    start = time.perf_counter()
    print(f"SPRT {new} against {base}, H0 Elo {args.elo[0]:g}, H1 Elo {args.elo[1]:g}, "
          f"variants {' '.join(args.variants)}", file=sys.stderr, flush=True)
    llr = 0.0
    block = 0
    while total.n < args.max_games and (total.n < args.min_games or low < llr < high):
        variant = args.variants[block % len(args.variants)]

        def show(r: MatchResult, game: tuple, variant: str = variant) -> None:
            index, colour, res, pgn = game
            total.games.append((total.n, colour, res, ""))
            if args.pgn:
                with open(args.pgn, "a", encoding="utf-8") as out:
                    out.write(pgn + "\n\n")
            points = {"1-0": 1.0, "0-1": 0.0}.get(res, 0.5)
            total.add(points if colour == 0 else 1 - points)
            print(f"{total.n:4d} {variant:15s} {res:7s} +{total.wins} ={total.draws} -{total.losses} "
                  f"pairs {total.pairs()} LLR {sprt_llr(total, *args.elo):+.2f}  "
                  f"{time.perf_counter() - start:.0f}s", file=sys.stderr, flush=True)

        def stop(_r: MatchResult) -> bool:
            return total.n >= args.min_games and not low < sprt_llr(total, *args.elo) < high

        run_match(variant, new, base, args.block, jobs=args.jobs, seed=args.seed * 100_003 + block,
                  opening_plies=args.opening_plies, progress=show, stop=stop, balance=args.balance)
        llr = sprt_llr(total, *args.elo)
        block += 1
    print(verdict(total, llr, low, high))
    return 0


if __name__ == "__main__":
    sys.exit(main())
