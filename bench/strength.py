"""Strength table from ``morphchess match`` runs (slow: minutes to hours).

    python bench/strength.py                     # every target of issue 5
    python bench/strength.py --only random greedy --games 20
    python bench/strength.py --variants chess --only sunfish --games 40

Each line of the table is one match of the engine (first player) against an
opponent, colours alternating, openings from the seed.  Results are appended
to the file given with --out as they finish, so an interrupted run keeps them.
"""

from __future__ import annotations

import argparse
import time

from morphchess.engine.match import elo_interval, progress_bar, run_match

DEGENS = ["morphomania", "snappy-chess", "morphing-chess", "crossroads"]
TARGETS = {  # name: (engine spec, opponent spec, movetime for uci opponents, variants, target score)
    "random": ("time:200", "random", 200, DEGENS + ["polymorph"], 1.0),
    "greedy": ("time:200", "greedy", 200, DEGENS + ["polymorph"], 0.9),
    "depth2": ("time:1000", "depth:2", 1000, DEGENS + ["polymorph"], 0.75),
    "sunfish": ("time:1000", "uci:sunfish-uci", 1000, ["chess"], 0.4),
}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--only", nargs="+", choices=sorted(TARGETS), help="targets to run (default all)")
    ap.add_argument("--variants", nargs="+", help="restrict to these variants")
    ap.add_argument("--games", type=int, help="games per match (default 20, sunfish 40)")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", default="strength.md", help="markdown file the table lines are appended to")
    ap.add_argument("--pgn", help="append the games to this PGN file")
    args = ap.parse_args()
    with open(args.out, "a", encoding="utf-8") as f:
        f.write("\n| variant | engine | opponent | games | +W =D -L | score | target | Elo (95%) | minutes |\n"
                "|---|---|---|---|---|---|---|---|---|\n")
    for name in args.only or TARGETS:
        engine, opponent, movetime, variants, target = TARGETS[name]
        for variant in variants:
            if args.variants and variant not in args.variants:
                continue
            games = args.games or (40 if name == "sunfish" else 20)
            start = time.perf_counter()
            r = run_match(variant, engine, opponent, games, movetime_ms=movetime, jobs=args.jobs, seed=args.seed,
                          progress=progress_bar(games))
            diff, low, high = elo_interval(r)
            line = (f"| {variant} | {engine} | {opponent} | {r.n} | +{r.wins} ={r.draws} -{r.losses} | "
                    f"{r.score:.1%} | {target:.0%} | {diff:+.0f} ({low:+.0f}..{high:+.0f}) | "
                    f"{(time.perf_counter() - start) / 60:.1f} |")
            print(line, flush=True)
            with open(args.out, "a", encoding="utf-8") as f:
                f.write(line + "\n")
            if args.pgn:
                with open(args.pgn, "a", encoding="utf-8") as f:
                    f.write("".join(game[3] + "\n" for game in r.games))


if __name__ == "__main__":
    main()
