"""``morphchess lab VARIANT`` and ``morphchess lab compare A B``."""

from __future__ import annotations

import os
import sys

from ..cli_common import MAX_GAME_PLIES, MAX_GAMES, MAX_MOVETIME, MAX_SEED, whole
from ..engine.match import MAX_JOBS, MAX_PLIES
from ..errors import OptionError
from .progress import ProgressBar
from .report import text_report, write_report
from .run import default_out, run_lab
from .selfplay import settings_for

__all__ = ["add", "run"]


def add(sub) -> None:
    """Add the ``lab`` subcommand."""
    p = sub.add_parser("lab", help="self-play statistics of a variant (or 'lab compare A B'): balance, endings, "
                       "lengths, piece values, plots and an HTML report")
    p.add_argument("targets", nargs="+", metavar="VARIANT",
                   help="a built-in name or definition file; or: compare A B")
    p.add_argument("--games", type=whole(1, MAX_GAMES), default=100, help="number of games (default 100)")
    p.add_argument("--level", type=whole(1, 8), help="engine level of both sides (default 2)")
    p.add_argument("--movetime", type=whole(1, MAX_MOVETIME), help="milliseconds per move instead of a level")
    p.add_argument("--jobs", type=whole(1, MAX_JOBS), default=1,
                   help="games played at once (worker processes; Ray CPUs)")
    p.add_argument("--out", help="store and report directory (default lab-results/NAME-PLAYER-DIGEST; "
                   "compare: DIR/a and DIR/b)")
    p.add_argument("--seed", type=whole(0, MAX_SEED), default=1,
                   help="seed of the setups and random openings (default 1)")
    p.add_argument("--opening-plies", type=whole(0, MAX_PLIES - 1), default=4,
                   help="random plies before the engine plays (default 4)")
    p.add_argument("--setup", help="start array (e.g. Polymorph's knights) or 'random' (one per game)")
    p.add_argument("--max-plies", type=whole(1, MAX_GAME_PLIES), default=MAX_PLIES,
                   help=f"a longer game is a draw by move cap (default {MAX_PLIES})")
    p.add_argument("--ray", metavar="ADDRESS", help="play the games as Ray tasks on this cluster, or 'local'")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=run)


def _settings(spec: str, args):
    """The lab settings of one variant (its definition and the options checked)."""
    return settings_for(spec, args.level, args.movetime, args.opening_plies, args.seed, args.setup,
                        args.max_plies)


def _lab(settings, args, out: str | None) -> tuple[list[dict], dict, str]:
    """Play (or reuse) one lab and write its report; returns records, summary and directory."""
    from .stats import summarize  # numpy and scipy: the lab extra
    out = out or default_out(settings)
    records = run_lab(settings, args.games, out, args.jobs, args.ray,
                      progress=None if args.quiet else lambda total, done: ProgressBar(total, done))
    summary = summarize(records, settings)
    write_report(summary, records, out)
    return records, summary, out


def run(args) -> None:
    """Run a lab, or compare two."""
    if args.targets[0] != "compare":
        if len(args.targets) != 1:
            raise OptionError("give one variant, or: lab compare A B")
        _records, summary, out = _lab(_settings(args.targets[0], args), args, args.out)
        print(text_report(summary), end="")
        print(f"report: {os.path.join(out, 'report.html')}")
        return
    if len(args.targets) != 3:
        raise OptionError("lab compare needs two variants: lab compare A B")
    from .compare import compare, compare_text, values_text  # scipy: the lab extra
    sides, chosen = [], [_settings(spec, args) for spec in args.targets[1:]]  # both checked before any game
    for spec, settings, sub in zip(args.targets[1:], chosen, ("a", "b")):
        sides.append(_lab(settings, args, args.out and os.path.join(args.out, sub)))
        print(f"{spec}: report in {os.path.join(sides[-1][2], 'report.html')}", file=sys.stderr)
    (a, summary_a, _), (b, summary_b, _) = sides
    text = compare_text(args.targets[1], args.targets[2], a, b, compare(a, b)) + values_text(summary_a, summary_b)
    if args.out:
        with open(os.path.join(args.out, "compare.txt"), "w", encoding="utf-8") as f:
            f.write(text)
    print(text, end="")
