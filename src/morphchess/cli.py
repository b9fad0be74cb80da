"""The ``morphchess`` command line."""

from __future__ import annotations

import argparse
import sys
import time
import warnings

from .betza import BetzaError
from .idiagram import VariantWarning
from .notation import FenError, MoveError, from_fen, move_to_coord, parse_coord, to_fen
from .position import Position
from .variant import BLACK, WHITE, Variant, VariantError
from .variants import builtin, load_variant, names


class UsageError(Exception):
    """Bad input on the command line: printed as one line, exit status 2."""


def _variant(spec: str) -> Variant:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", VariantWarning)
        v = load_variant(spec)
    for w in caught:
        print(f"warning: {w.message}", file=sys.stderr)
    return v


def start_position(v: Variant, setup: str | None, fen: str | None, moves: str | None) -> Position:
    """The position named by --setup/--fen/--moves options."""
    if fen and setup:
        raise UsageError("give --fen or --setup, not both")
    if setup and setup not in v.setups:
        raise UsageError(f"{v.name} has no setup {setup!r}; it has: {', '.join(v.setups)}")
    pos = from_fen(v, fen) if fen else Position(v, setup or "standard")
    for i, text in enumerate((moves or "").split(), start=1):
        try:
            pos.make(parse_coord(pos, text))
        except MoveError as e:
            raise UsageError(f"--moves, move {i}: {e}") from None
    return pos


def board_picture(v: Variant, cell) -> str:
    """A text board: ``cell(square)`` gives each square's character."""
    lines = []
    for r in range(v.ranks - 1, -1, -1):
        row = " ".join(cell(r * v.files + f) for f in range(v.files))
        lines.append(f"{r + 1:>2} {row}")
    lines.append("   " + " ".join(chr(97 + f) for f in range(v.files)))
    return "\n".join(lines)


def cmd_variants(args) -> None:
    for name in names():
        v = builtin(name)
        setups = f", setups: {', '.join(v.setups)}" if len(v.setups) > 1 else ""
        print(f"{name:16} {v.files}x{v.ranks}, {len(v.types)} piece types{setups}")


def cmd_show(args) -> None:
    v = _variant(args.variant)
    pos = Position(v, args.setup or "standard")
    print(f"{v.name}: {v.files}x{v.ranks}")
    print(board_picture(v, lambda sq: pos.t.letter[pos.board[sq]] or "."))
    print(to_fen(pos))
    print()
    print("Pieces:")
    for t in v.types:
        tags = [x for x, on in (("royal", t.royal), ("promotes", v.promotes(t)), ("morphs", t.morph is not None)) if on]
        print(f"  {t.letter}  {t.name:18} {t.betza:16} {' '.join(tags)}")
    if v.promo_zone and v.promo_choice:
        print(f"Promotion: last {v.promo_zone} rank(s), to {''.join(v.type(i).letter for i in v.promo_choice)}")
    else:
        print("Promotion: none")
    rules = [f"stalemate {'loses' if v.stalemate_loses else 'draws'}"]
    if v.baring is not None:
        rules.append("bare king loses" + (" at once" if v.bare_king_immediate else ""))
    print("Rules: " + ", ".join(rules))
    for group in v.transforms:
        forms = ", ".join(f"{v.type(i).letter} ({v.type(i).name})" for i in group)
        print(f"Transformation group: {forms}; a turn may turn one of them into another in place")
    if len(v.setups) > 1:
        print("Setups (Black's array; White always plays 'standard'): " + ", ".join(v.setups))
    shown = {}
    for t in v.types:
        if t.morph is None:
            continue
        picture = board_picture(v, lambda sq: v.type(t.morph[sq]).letter if t.morph[sq] else ".")
        shown.setdefault(picture, []).append(t.letter)
    for picture, letters in shown.items():
        print(f"\nMorph table of {', '.join(letters)} (what the piece becomes on arrival; White's view):")
        print(picture)


def cmd_perft(args) -> None:
    v = _variant(args.variant)
    pos = start_position(v, args.setup, args.fen, args.moves)
    if args.depth < 0:
        raise UsageError("depth must be >= 0")
    start = time.perf_counter()
    show_progress = sys.stderr.isatty()
    if args.depth > 0:
        total = 0
        roots = pos.legal_moves()
        for i, m in enumerate(roots, start=1):
            text = move_to_coord(pos, m)
            pos.make(m)
            n = pos.perft(args.depth - 1)
            pos.unmake()
            total += n
            if args.divide:
                print(f"{text}: {n}", flush=True)
            if show_progress:
                print(f"\r{i}/{len(roots)} root moves, {total} nodes", end="", file=sys.stderr, flush=True)
        if show_progress:
            print(file=sys.stderr)
    else:
        total = 1
    secs = time.perf_counter() - start
    print(f"# {secs:.2f} s, {total / secs if secs else 0:.0f} nodes/s", file=sys.stderr)
    print(total)


def cmd_values(args) -> None:
    from .engine import piece_values
    from .engine.evaluate import mobility
    v = _variant(args.variant)
    values = piece_values(v)
    print(f"{v.name}: piece values in centipawns, computed from the moves (royal pieces: 0)")
    for t in v.types:
        print(f"  {t.letter}  {t.name:18} {t.betza:16} mobility {mobility(v, t):5.2f}  value {values[t.letter]:5d}")


def _search_limits(args) -> dict:
    from .engine import level_limits
    limits = level_limits(args.level) if args.level is not None else {}
    if args.depth is not None:
        limits["depth"] = args.depth
    if args.movetime is not None:
        limits["movetime_ms"] = args.movetime
    if args.nodes is not None:
        limits["nodes"] = args.nodes
    return limits or {"movetime_ms": 1000}


def cmd_bestmove(args) -> None:
    from .engine import search
    v = _variant(args.variant)
    pos = start_position(v, args.setup, args.fen, args.moves)

    def show(info) -> None:
        score = f"mate {info.mate}" if info.mate is not None else f"cp {info.score}"
        pv = []
        for m in info.pv:
            pv.append(move_to_coord(pos, m))
            pos.make(m)
        for _ in info.pv:
            pos.unmake()
        print(f"depth {info.depth} score {score} nodes {info.nodes} time {info.seconds:.2f}s pv {' '.join(pv)}",
              flush=True)

    result = search(pos, on_info=show, **_search_limits(args))
    if result.move is None:
        outcome = pos.outcome()
        raise UsageError(f"no legal move: {outcome}" if outcome else "no legal move")
    print(move_to_coord(pos, result.move))


def _add_limits(p) -> None:
    p.add_argument("--level", type=int, help="strength level 1 (very weak) to 8 (strongest)")
    p.add_argument("--depth", type=int, help="search depth in plies")
    p.add_argument("--movetime", type=int, help="time per move in milliseconds")
    p.add_argument("--nodes", type=int, help="node limit")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="morphchess", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("variants", help="list the built-in variants").set_defaults(func=cmd_variants)
    p = sub.add_parser("show", help="show a variant: start position, pieces, morph tables")
    p.add_argument("variant", help="built-in name or file with a definition text")
    p.add_argument("--setup", help="named start array (e.g. Polymorph's knights)")
    p.set_defaults(func=cmd_show)
    p = sub.add_parser("perft", help="count the leaves of the legal move tree")
    p.add_argument("variant", help="built-in name or file with a definition text")
    p.add_argument("depth", type=int)
    p.add_argument("--moves", help="coordinate moves played first, e.g. \"e2e4 e7e5\"")
    p.add_argument("--fen", help="start from this position text")
    p.add_argument("--setup", help="named start array (e.g. Polymorph's knights)")
    p.add_argument("--divide", action="store_true", help="print each root move's count first")
    p.set_defaults(func=cmd_perft)
    p = sub.add_parser("values", help="print the piece values computed from the moves")
    p.add_argument("variant", help="built-in name or file with a definition text")
    p.set_defaults(func=cmd_values)
    p = sub.add_parser("bestmove", help="search a position; the last line is the best move")
    p.add_argument("variant", help="built-in name or file with a definition text")
    p.add_argument("--moves", help="coordinate moves played first, e.g. \"e2e4 e7e5\"")
    p.add_argument("--fen", help="start from this position text")
    p.add_argument("--setup", help="named start array (e.g. Polymorph's knights)")
    _add_limits(p)
    p.set_defaults(func=cmd_bestmove)
    args = parser.parse_args(argv)
    try:
        args.func(args)
    except (UsageError, VariantError, BetzaError, FenError, MoveError, ValueError) as e:
        print(f"morphchess: error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("morphchess: interrupted", file=sys.stderr)
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
