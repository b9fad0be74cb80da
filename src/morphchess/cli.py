"""The ``morphchess`` command line."""

from __future__ import annotations

import argparse
import os
import sys
import time

from . import __version__, gamecourier, pgn
from .board import Board
from .cli_common import (
    MAX_GAMES,
    MAX_MOVETIME,
    MAX_SEED,
    UsageError,
    output_file,
    read_text,
    read_variant,
    record,
    start_position,
    warnings_in_one_line,
    whole,
)
from .convert import to_fairy, to_id
from .engine import level_limits, piece_values, search
from .engine.evaluate import mobility
from .engine.match import MAX_JOBS, MAX_PLIES, check_match, elo_interval, progress_bar, run_match
from .engine.search import MAX_PLY
from .errors import InputError, cut, quote
from .lab.cli import add as lab_command
from .library import missing as missing_games
from .library import search as search_library
from .loader import language_of
from .notation import move_to_coord, to_fen
from .play import main_loop
from .position import Position, compiled
from .protocols import uci, xboard
from .publish.cli import add as publish_commands
from .variant import BLACK, WHITE, Variant
from .variants import builtin, definition_text, load_variant, names
from .web.serve import add as serve_command

MAX_PERFT_DEPTH = 20  # deeper counts take years on any board, and recursion would give out first
MAX_DEPTH = MAX_PLY - 10  # the deepest search the engine runs
MAX_NODES = 10**12


def board_picture(v: Variant, cell) -> str:
    """A text board: ``cell(square)`` gives each square's character."""
    lines = []
    for r in range(v.ranks - 1, -1, -1):
        row = " ".join(cell(r * v.files + f) for f in range(v.files))
        lines.append(f"{r + 1:>2} {row}")
    lines.append("   " + " ".join(chr(97 + f) for f in range(v.files)))
    return "\n".join(lines)


def cmd_variants(args) -> None:
    found = search_library(args.search or "")
    if args.search and not found:
        raise UsageError(f"no built-in variant fits {quote(args.search)} ({'; '.join(missing_games(args.search))})")
    for e in found:
        v = builtin(e.name)
        setups = f", setups: {', '.join(v.setups)}" if len(v.setups) > 1 else ""
        by = f" by {e.author}" if e.author else ""
        print(f"{e.name:16} {e.size:6} {e.title}{by}; {', '.join(e.features) or 'no special rules'}{setups}")


def cmd_convert_definition(args) -> None:
    spec, name = args.variant, "custom"
    if spec in names():
        text, name = definition_text(spec), spec
    else:
        if not os.path.isfile(spec) and ":" in spec:
            spec, _, name = spec.rpartition(":")
        text = read_text(spec)
    source = language_of(text)
    target = args.to or ("id" if source == "fairy" else "fairy")
    if target == source:
        raise UsageError(f"the definition is already {target} text")
    if target == "id":
        out, lost = to_id(text, name)
    else:
        with warnings_in_one_line():
            out, lost = to_fairy(load_variant(args.variant))
    for line in lost:
        print(f"lost: {line}", file=sys.stderr)
    print(out, end="")


def cmd_show(args) -> None:
    v = read_variant(args.variant)
    pos = Position(v, "standard" if args.setup is None else args.setup)
    print(f"{v.name}: {v.files}x{v.ranks}" + (f", {len(v.holes)} holes (#)" if v.holes else ""))
    print(board_picture(v, lambda sq: "#" if sq in v.holes else pos.t.letter[pos.board[sq]] or "."))
    print(to_fen(pos))
    print()
    print("Pieces:")
    for t in v.types:
        tags = [x for x, on in (("royal", t.royal), ("promotes", v.promotes(t)), ("morphs", t.morph is not None)) if on]
        print(f"  {t.letter}  {t.name:18} {t.betza:16} {' '.join(tags)}")
    for line in _rule_lines(v):
        print(line)
    _show_morph_tables(v)


def _rule_lines(v: Variant) -> list[str]:
    """The game's rules beside the pieces, one line each, then the warnings (rules not played)."""
    lines = []
    if v.promo_zone and v.promo_choice and any(v.promotes(t) for t in v.types):
        lines.append(f"Promotion: last {v.promo_zone} rank(s), to {''.join(v.type(i).letter for i in v.promo_choice)}")
    elif not v.promo_offset:
        lines.append("Promotion: none")
    if v.promo_offset:
        lines.append(f"Promotion: shogi style, type n to type n + {v.promo_offset} in the last {v.promo_zone} rank(s)")
    rules = [f"stalemate {'loses' if v.stalemate_loses else 'draws'}"]
    if v.baring is not None:
        rules.append("bare king loses" + (" at once" if v.bare_king_immediate else ""))
    if v.captures_to_hand:
        owner = "their owner's" if v.holdings_type > 0 else "the capturer's"
        rules.append(f"captured pieces go to {owner} hand")
    if v.drops:
        rules.append("pieces in hand may be dropped")
    lines.append("Rules: " + ", ".join(rules))
    for group in v.transforms:
        forms = ", ".join(f"{v.type(i).letter} ({v.type(i).name})" for i in group)
        lines.append(f"Transformation group: {forms}; a turn may turn one of them into another in place")
    if len(v.setups) > 1:
        lines.append("Setups (Black's array; White always plays 'standard'): " + ", ".join(v.setups))
    if v.shuffle:
        lines.append(f"Shuffled arrays: setup shuffle-SEED (groups {' '.join(v.shuffle)})")
    lines += [f"Warning: {w}" for w in v.warnings]
    return lines


def _show_morph_tables(v: Variant) -> None:
    """Each distinct morph table once, with the letters of the types that use it."""
    shown: dict[str, list[str]] = {}
    for t in v.types:
        if t.morph is None:
            continue
        picture = board_picture(v, lambda sq, morph=t.morph: v.type(morph[sq]).letter if morph[sq] else ".")
        shown.setdefault(picture, []).append(t.letter)
    for picture, letters in shown.items():
        print(f"\nMorph table of {', '.join(letters)} (what the piece becomes on arrival; White's view):")
        print(picture)


def cmd_perft(args) -> None:
    v = read_variant(args.variant)
    pos = start_position(v, args.setup, args.fen, args.moves)
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
    v = read_variant(args.variant)
    values = piece_values(v)
    print(f"{v.name}: piece values in centipawns, computed from the moves (royal pieces: 0)")
    for t in v.types:
        print(f"  {t.letter}  {t.name:18} {t.betza:16} mobility {mobility(v, t):5.2f}  value {values[t.letter]:5d}")


def _search_limits(args) -> dict:
    limits = level_limits(args.level) if args.level is not None else {}
    if args.depth is not None:
        limits["depth"] = args.depth
    if args.movetime is not None:
        limits["movetime_ms"] = args.movetime
    if args.nodes is not None:
        limits["nodes"] = args.nodes
    return limits or {"movetime_ms": 1000}


def cmd_bestmove(args) -> None:
    v = read_variant(args.variant)
    pos = start_position(v, args.setup, args.fen, args.moves)
    outcome = pos.outcome()
    if outcome is not None:
        raise UsageError(f"the game is over, there is no move to find: {outcome}")

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
    assert result.move is not None  # the game is not over
    print(move_to_coord(pos, result.move))


def _game_saver(out, progress):
    """A match progress callback that first appends the finished game to ``out`` (PGN, games apart by a blank
    line) and flushes it, so that the games played survive anything that ends the match early."""
    def saved(result, game) -> None:
        out.write(("\n" if result.n > 1 else "") + game[3])
        out.flush()
        if progress:
            progress(result, game)
    return saved


def cmd_match(args) -> None:
    settings = (args.variant, args.white, args.black, args.games)
    check_match(*settings, args.movetime, args.jobs, args.opening_plies, args.setup)
    progress = None if args.quiet else progress_bar(args.games)
    out = output_file("--pgn", args.pgn) if args.pgn is not None else None
    try:
        result = run_match(*settings, movetime_ms=args.movetime, jobs=args.jobs, seed=args.seed,
                           alternate=not args.no_alternate, opening_plies=args.opening_plies, setup=args.setup,
                           progress=_game_saver(out, progress) if out else progress)
    except RuntimeError as e:  # an external engine failed
        raise UsageError(f"{e}" + (f" (the games finished so far are in {args.pgn})" if out else "")) from None
    finally:
        if out:
            out.close()
    diff, low, high = elo_interval(result)
    print(f"{args.white} vs {args.black}, {args.variant}, {result.n} games")
    print(f"{'player':24} {'W':>4} {'D':>4} {'L':>4} {'score':>7}")
    for name, w, d, l in ((args.white, result.wins, result.draws, result.losses),
                          (args.black, result.losses, result.draws, result.wins)):
        print(f"{name[:24]:24} {w:4} {d:4} {l:4} {(w + d / 2) / result.n:7.1%}")
    print(f"Elo difference: {diff:+.0f} (95% interval {low:+.0f} to {high:+.0f})")
    if args.pgn:
        print(f"games saved to {args.pgn}")
    print(f"score: +{result.wins} ={result.draws} -{result.losses}")


def cmd_play(args) -> None:
    v = read_variant(args.variant)
    board = Board(v, fen=args.fen, setup=args.setup)
    main_loop(board, args.level, WHITE if args.color == "white" else BLACK,
              unicode=False if args.letters else None)


def _add_limits(p) -> None:
    p.add_argument("--level", type=whole(1, 8), help="strength level 1 (very weak) to 8 (strongest)")
    p.add_argument("--depth", type=whole(1, MAX_DEPTH), help=f"search depth in plies (at most {MAX_DEPTH})")
    p.add_argument("--movetime", type=whole(1, MAX_MOVETIME), help="time per move in milliseconds (at most an hour)")
    p.add_argument("--nodes", type=whole(1, MAX_NODES), help="node limit")


def cmd_convert(args) -> None:
    game = record(args)
    board = game.board
    decided = game.result if board.outcome() is None and game.result != "*" else None  # e.g. resigned
    if args.to == "pgn":
        sys.stdout.write(pgn.write(board, game.headers, game.comments))
    elif args.to == "gc":
        sys.stdout.write(gamecourier.write(board) + (f"{decided}\n" if decided else ""))
    else:
        print(" ".join(m.uci() for m in board.move_stack))
    dropped = [what for what, lost in (("tags", args.to != "pgn" and _has_tags(game.headers)),
                                       ("comments", args.to != "pgn" and game.comments),
                                       (f"the result {decided}", args.to == "coord" and decided)) if lost]
    if dropped:
        print(f"warning: the {args.to} form cannot hold {' and '.join(dropped)} of the record", file=sys.stderr)


def _has_tags(headers: dict[str, str] | None) -> bool:
    """Does a record have tags with content beyond its result and the rules?"""
    unknown = {"?", "????.??.??", ""}
    return any(k in pgn.SEVEN_TAGS and k != "Result" and v not in unknown for k, v in (headers or {}).items())


def cmd_replay(args) -> None:
    board = record(args).board
    pos = board.position
    print(board_picture(board.variant, lambda sq: pos.t.letter[pos.board[sq]] or "."))
    print(board.fen())
    outcome = board.outcome()
    print(f"{len(board.move_stack)} plies; " + (str(outcome) if outcome else "the game is not over"))


class _Parser(argparse.ArgumentParser):
    """argparse whose errors are UsageErrors: one line and exit status 2, like the rest of the command line."""

    def error(self, message: str):
        message = cut(message.replace("\n", "\\n"), 200)  # argparse quotes the arguments whole
        raise UsageError(f"{message} (see 'morphchess --help')")


def _add_variant_arg(p, nargs=None) -> None:
    kw = {"nargs": "?", "default": "chess"} if nargs else {}
    p.add_argument("variant", help="built-in name, file with a definition text, or FILE.ini:SECTION", **kw)


def _add_position_args(p) -> None:
    p.add_argument("--moves", help="coordinate moves played first, e.g. \"e2e4 e7e5\"")
    p.add_argument("--fen", help="start from this position text")
    p.add_argument("--setup", help="named start array (e.g. Polymorph's knights)")


def _add_variants(sub) -> None:
    p = sub.add_parser("variants", help="list (or search) the built-in variants")
    p.add_argument("--search", help="words that must all fit: a name or part of a title or inventor, a board "
                                    "size (10x8), a feature (drops, morphs, hoppers, castling, shuffle, ...)")
    p.set_defaults(func=cmd_variants)


def _add_convert_definition(sub) -> None:
    p = sub.add_parser("convert-definition", help="write a definition in the other language (ID text <-> "
                                                  "Fairy-Stockfish variants.ini); what is lost goes to stderr")
    _add_variant_arg(p)
    p.add_argument("--to", choices=["id", "fairy"], help="the language to write (default: the other one)")
    p.set_defaults(func=cmd_convert_definition)


def _add_show(sub) -> None:
    p = sub.add_parser("show", help="show a variant: start position, pieces, morph tables")
    _add_variant_arg(p)
    p.add_argument("--setup", help="named start array (e.g. Polymorph's knights)")
    p.set_defaults(func=cmd_show)


def _add_perft(sub) -> None:
    p = sub.add_parser("perft", help="count the leaves of the legal move tree")
    _add_variant_arg(p)
    p.add_argument("depth", type=whole(0, MAX_PERFT_DEPTH), help=f"plies, 0 to {MAX_PERFT_DEPTH}")
    _add_position_args(p)
    p.add_argument("--divide", action="store_true", help="print each root move's count first")
    p.set_defaults(func=cmd_perft)


def _add_values(sub) -> None:
    p = sub.add_parser("values", help="print the piece values computed from the moves")
    _add_variant_arg(p)
    p.set_defaults(func=cmd_values)


def _add_bestmove(sub) -> None:
    p = sub.add_parser("bestmove", help="search a position; the last line is the best move")
    _add_variant_arg(p)
    _add_position_args(p)
    _add_limits(p)
    p.set_defaults(func=cmd_bestmove)


def _add_records(sub) -> None:
    for name, text in (("convert", "convert a game record (PGN, Game Courier log, coordinate moves)"),
                       ("replay", "replay a game record and print the final position and the outcome")):
        p = sub.add_parser(name, help=text)
        p.add_argument("file", help="the record ('-' reads standard input)")
        if name == "convert":
            p.add_argument("--to", required=True, choices=("pgn", "gc", "coord"), help="the form to write")
        p.add_argument("--from", dest="source", choices=("pgn", "gc", "coord"),
                       help="the record's form (default: guessed)")
        p.add_argument("--variant",
                       help="built-in name or definition file (default chess; for PGN it replaces [Variant])")
        p.add_argument("--setup", help="named start array for gc and coord records (e.g. Polymorph's knights)")
        p.set_defaults(func=cmd_convert if name == "convert" else cmd_replay)


def _add_match(sub) -> None:
    p = sub.add_parser("match", help="play games between two players (engine, random, greedy, uci:...)")
    _add_variant_arg(p)
    p.add_argument("--white", required=True, help="first player: random, greedy, depth:N, time:MS, nodes:N, "
                   "level:N or uci:COMMAND")
    p.add_argument("--black", required=True, help="second player (same forms)")
    p.add_argument("--games", type=whole(1, MAX_GAMES), default=2, help="number of games (default 2)")
    p.add_argument("--movetime", type=whole(1, MAX_MOVETIME), default=1000,
                   help="milliseconds per move for uci: players")
    p.add_argument("--jobs", type=whole(1, MAX_JOBS), default=1, help="games played at once (one per core)")
    p.add_argument("--seed", type=whole(0, MAX_SEED), default=1, help="seed of the random openings")
    p.add_argument("--opening-plies", type=whole(0, MAX_PLIES - 1), default=2,
                   help="random plies before the players take over")
    p.add_argument("--setup", help="Black's start array, or 'random' (one per pair of games)")
    p.add_argument("--no-alternate", action="store_true", help="the first player always has White")
    p.add_argument("--pgn", help="save the games to this PGN file")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=cmd_match)


def _add_play(sub) -> None:
    p = sub.add_parser("play", help="play against the engine in the terminal")
    _add_variant_arg(p, nargs="?")
    p.add_argument("--level", type=whole(1, 8), default=4, help="engine strength 1 (very weak) to 8 (default 4)")
    p.add_argument("--color", choices=("white", "black"), default="white", help="your side (default white)")
    p.add_argument("--setup", help="named start array (e.g. Polymorph's knights)")
    p.add_argument("--fen", help="start from this position text")
    p.add_argument("--letters", action="store_true", help="letters only, no chess symbols")
    p.set_defaults(func=cmd_play)


# Each entry adds one subcommand; front ends in their own modules (protocols, lab) add theirs here.
COMMANDS = [_add_variants, _add_convert_definition, _add_show, _add_perft, _add_values, _add_bestmove, _add_records,
            _add_match, serve_command, _add_play]
COMMANDS += [uci.add_command, xboard.add_command]
COMMANDS.append(lab_command)
COMMANDS.append(publish_commands)  # page, picture, gif


def version_line() -> str:
    """The version and which core runs (the compiled one, or the pure-Python path: docs/install.md)."""
    core = "compiled core (Cython)" if compiled() else "pure-Python core"
    return f"morphchess {__version__}, {core}"


def build_parser() -> argparse.ArgumentParser:
    """The command line's parser, one subcommand per entry of :data:`COMMANDS`."""
    parser = _Parser(prog="morphchess", description=__doc__)
    parser.add_argument("--version", action="version", version=version_line())
    sub = parser.add_subparsers(dest="command", required=True)
    for add in COMMANDS:
        add(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run one command; bad input (an InputError, or a path, special file or full device the system
    refuses) is one line on stderr and exit status 2.  Anything else is a bug and keeps its traceback."""
    try:
        args = build_parser().parse_args(argv)
        args.func(args)
        sys.stdout.flush()  # a full device or a closed pipe shows here, not at exit
    except InputError as e:
        return _refused(str(e))
    except BrokenPipeError:  # the reader has gone (``| head``): nothing to tell it
        _drop_lost_output()
        return 1
    except OSError as e:
        _drop_lost_output()
        return _refused(f"{quote(str(e.filename), 60)}: {e.strerror}" if e.filename
                        else f"cannot write ({e.strerror or e})")
    except KeyboardInterrupt:
        print("morphchess: interrupted", file=sys.stderr)
        return 130
    return 0


def _refused(message: str) -> int:
    """Print ``message`` as the one line of a refused command (a message of a library that spans
    lines is joined); the exit status 2."""
    print("morphchess: error: " + " ".join(line.strip() for line in message.splitlines()), file=sys.stderr)
    return 2


def _drop_lost_output() -> None:
    """If standard output can no longer be written (a full device, a closed pipe), send what is left of it
    to the null device, so that the interpreter's last flush does not fail again."""
    try:
        sys.stdout.flush()
    except OSError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


if __name__ == "__main__":
    sys.exit(main())
