"""Players and the match runner behind ``morphchess match``.

A player SPEC is one of

* ``random``: a uniformly random legal move;
* ``greedy``: the move that wins the most material at once (captures, promotions
  and morphs valued with :func:`~morphchess.engine.piece_values`), ties at random;
* ``depth:N``, ``time:MS``, ``nodes:N``, ``level:N``: the engine with that limit, search
  parameters after a ``?`` (``nodes:5000?rfp=60&lmp=3``, see :class:`~.search.Params`);
* ``uci:COMMAND`` / ``xboard:COMMAND``: an external engine speaking UCI or CECP, given
  the match's ``movetime`` per move, options after a ``?`` (see :mod:`.external`).

:func:`run_match` plays the games (in parallel with ``jobs`` > 1), alternating
colours and starting each pair of games from the same random opening; a ``stop`` predicate
ends it early (the sequential probability ratio test of :func:`sprt_llr`).
"""

from __future__ import annotations

import math
import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from multiprocessing import get_context
from multiprocessing.util import Finalize

from ..board import Board, Move
from ..errors import OptionError
from ..pgn import write as pgn_write
from ..pieces import colour_of
from ..position import Position
from ..variant import BLACK, WHITE, Variant
from ..variants import load_variant
from .evaluate import piece_values
from .external import UciPlayer, XboardPlayer, split_engine_spec
from .search import Params, level_limits, search
from .tt import TranspositionTable

__all__ = ["parse_spec", "make_player", "play_game", "check_match", "run_match", "MatchResult", "elo", "elo_interval",
           "sprt_llr", "sprt_bounds"]

MAX_PLIES = 400  # a game still running after this many plies is adjudicated a draw
OPENING_DRAWS = 200  # random openings drawn at most for one within the balance


class RandomPlayer:
    """Any legal move."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, board: Board) -> Move:
        return self.rng.choice(board.legal_moves)

    def close(self) -> None:
        pass


class GreedyPlayer:
    """The move with the best one-ply material balance."""

    def __init__(self, rng: random.Random, variant) -> None:
        self.rng = rng
        values = piece_values(variant)
        t = variant.tables
        self.value = [values[t.letter[c].upper()] if t.valid[c] else 0 for c in range(t.ncodes)]

    def choose(self, board: Board) -> Move:
        pos, value = board.position, self.value
        best, best_gain = [], None
        for move in board.legal_moves:
            raw = move.raw
            gain = value[pos.captured(raw)] + value[raw.piece] - value[pos.board[raw.origin]]
            if best_gain is None or gain > best_gain:
                best, best_gain = [move], gain
            elif gain == best_gain:
                best.append(move)
        return self.rng.choice(best)

    def close(self) -> None:
        pass


class EnginePlayer:
    """morphchess's own search with fixed limits and :class:`~.search.Params`, and its own
    transposition table (two engines in one process share nothing)."""

    def __init__(self, limits: dict, params: Params | None = None) -> None:
        self.limits = limits
        self.params = params or Params()
        self.tt = TranspositionTable()

    def choose(self, board: Board) -> Move:
        result = search(board.position, tt=self.tt, params=self.params, **self.limits)
        assert result.move is not None  # asked only while the game goes on
        return board.move(result.move)

    def close(self) -> None:
        pass


def parse_spec(spec: str) -> tuple[str, object]:
    """Check a player SPEC and split it into kind and argument; OptionError names what is wrong."""
    kind, _, arg = spec.partition(":")
    if kind in ("random", "greedy") and not arg:
        return kind, None
    if kind in ("depth", "time", "nodes", "level"):
        arg, _, params = arg.partition("?")
        try:
            Params.parse(params)
        except OptionError as e:
            raise OptionError(f"player {spec!r}: {e}") from None
        try:
            n = int(arg)
        except ValueError:
            raise OptionError(f"player {spec!r}: {kind}: needs a whole number, e.g. {kind}:3") from None
        if kind == "level":
            level_limits(n)
        elif n < 1:
            raise OptionError(f"player {spec!r}: the number must be at least 1")
        return kind, n
    if kind in ("uci", "xboard") and arg.strip():
        split_engine_spec(arg)
        return kind, arg
    raise OptionError(f"unknown player {spec!r}: use random, greedy, depth:N, time:MS, nodes:N, level:N, "
                     f"uci:COMMAND or xboard:COMMAND")


def make_player(spec: str, variant, movetime_ms: int, rng: random.Random):
    """A player object (with ``choose(board) -> Move`` and ``close()``) for a SPEC."""
    kind, arg = parse_spec(spec)
    if kind == "random":
        return RandomPlayer(rng)
    if kind == "greedy":
        return GreedyPlayer(rng, variant)
    if kind in ("uci", "xboard"):
        return (UciPlayer if kind == "uci" else XboardPlayer)(str(arg), variant, movetime_ms)
    assert isinstance(arg, int)  # the number of depth:N, time:MS, nodes:N or level:N
    limits = {"depth": {"depth": arg}, "time": {"movetime_ms": arg}, "nodes": {"nodes": arg}}.get(kind)
    return EnginePlayer(limits if limits is not None else level_limits(arg), Params.parse(spec.partition("?")[2]))


def random_opening(board: Board, plies: int, rng: random.Random, balance: int | None = None) -> None:
    """Play ``plies`` random legal moves that do not end the game.  With ``balance`` (centipawns), draw
    openings until the two sides' material (:func:`material_difference`) differs by at most that much,
    at most :data:`OPENING_DRAWS` times, and keep the most even one drawn (in games where a random move
    often makes a strong piece, such as a Morphing Chess knight that lands on rank 5 and becomes a
    chancellor, a random opening can hand one side a piece's worth)."""
    best: tuple[int, list] | None = None
    for _ in range(OPENING_DRAWS if balance is not None else 1):
        played = _random_plies(board, plies, rng)
        if balance is None:
            return
        gap = abs(material_difference(board.position))
        if best is None or gap < best[0]:
            best = gap, played
        if gap <= balance:
            return
        for _m in played:
            board.pop()
    assert best is not None
    for m in best[1]:
        board.push(m)


def _random_plies(board: Board, plies: int, rng: random.Random) -> list[Move]:
    """Push up to ``plies`` random legal moves that do not end the game; return them."""
    played = []
    for _ in range(plies):
        moves = list(board.legal_moves)
        rng.shuffle(moves)
        for m in moves:
            board.push(m)
            if board.outcome() is None:
                played.append(m)
                break
            board.pop()
        else:
            break
    return played


def material_difference(pos: Position) -> int:
    """White's material less Black's, in the centipawns of :func:`~.evaluate.piece_values` (from the
    pieces' moves alone, whatever weights an engine plays)."""
    t = pos.t
    values = pos.variant.derived(("piece values",), lambda: piece_values(pos.variant))
    return sum(values[t.letter[p].upper()] * (-1 if colour_of(p) else 1) for p in pos.board if p)


def play_game(board: Board, white, black, max_plies: int = MAX_PLIES) -> str:
    """Play from ``board`` to the end; return the result text (``1-0``, ``0-1``, ``1/2-1/2``)."""
    players = (white, black)
    while True:
        outcome = board.outcome()
        if outcome is not None:
            return outcome.result()
        if len(board.move_stack) >= max_plies:
            return "1/2-1/2"
        board.push(players[board.turn].choose(board))


@dataclass
class MatchResult:
    """Results from the first player's side."""

    wins: int = 0
    draws: int = 0
    losses: int = 0
    games: list = field(default_factory=list)  # (index, first player's colour, result, pgn)

    @property
    def n(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def score(self) -> float:
        return (self.wins + 0.5 * self.draws) / self.n if self.n else 0.0

    def pairs(self) -> list[int]:
        """The pentanomial counts: how many finished pairs of games (``index // 2``) the first player
        scored 0, 0.5, 1, 1.5 and 2 points in."""
        points: dict[int, list[float]] = {}
        for index, colour, res, _pgn in self.games:
            p = {"1-0": 1.0, "0-1": 0.0}.get(res, 0.5)
            points.setdefault(index // 2, []).append(p if colour == WHITE else 1 - p)
        counts = [0] * 5
        for pair in points.values():
            if len(pair) == 2:
                counts[round(2 * sum(pair))] += 1
        return counts

    def add(self, points: float) -> None:
        if points == 1:
            self.wins += 1
        elif points == 0:
            self.losses += 1
        else:
            self.draws += 1


def elo(score: float) -> float:
    """Elo difference of an expected score (±inf at 1 and 0)."""
    if score >= 1 - 1e-9:
        return math.inf
    if score <= 1e-9:
        return -math.inf
    return -400 * math.log10(1 / score - 1)


def elo_interval(r: MatchResult) -> tuple[float, float, float]:
    """Elo difference and its 95% interval (Wilson score interval, draws counted as half points)."""
    n, s, z = r.n, r.score, 1.96
    if not n:
        return 0.0, -math.inf, math.inf
    centre = s + z * z / (2 * n)
    half = z * math.sqrt(s * (1 - s) / n + z * z / (4 * n * n))
    return elo(s), elo((centre - half) / (1 + z * z / n)), elo((centre + half) / (1 + z * z / n))


PRIOR_SAMPLES = 2


def _expected(elo_diff: float) -> float:
    return 1 / (1 + 10 ** (-elo_diff / 400))


def sprt_llr(r: MatchResult, elo0: float, elo1: float, paired: bool = True) -> float:
    """Log-likelihood ratio of "the first player is ``elo1`` better" against "``elo0`` better"
    (logistic Elo), the generalised SPRT's normal approximation: ``N (s1 - s0) (2 m - s0 - s1) / 2 v``
    over the N finished pairs of games (pentanomial, with ``paired``) or the N games (trinomial),
    with their mean score m and variance v.  The variance is blended with a typical one (0.08 for a
    pair's score, 0.2 for a game's) as if :data:`PRIOR_SAMPLES` more had been seen, so that a few
    equal results cannot look like certainty."""
    if paired:
        counts, scores, typical = r.pairs(), [0.0, 0.25, 0.5, 0.75, 1.0], 0.08
    else:
        counts, scores, typical = [r.losses, r.draws, r.wins], [0.0, 0.5, 1.0], 0.2
    n = sum(counts)
    if not n:
        return 0.0
    mean = sum(c * x for c, x in zip(counts, scores)) / n
    var = sum(c * (x - mean) ** 2 for c, x in zip(counts, scores)) / n
    var = (n * var + PRIOR_SAMPLES * typical) / (n + PRIOR_SAMPLES)
    s0, s1 = _expected(elo0), _expected(elo1)
    return n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * var)


def sprt_bounds(alpha: float = 0.05, beta: float = 0.05) -> tuple[float, float]:
    """The LLR at which the test accepts H0 (lower) or H1 (upper) with error rates ``alpha``, ``beta``."""
    return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)


# -- running games, in this process or in workers -------------------------------------
_worker: dict = {}
_finalizer: list = []


def _setup_worker(init: tuple) -> None:
    """Load the variant and start the players of a match in this process (once per match)."""
    if _worker.get("init") == init:
        return
    _close_worker()
    if not _finalizer:  # a pool worker closes its external engines when the pool is closed
        _finalizer.append(Finalize(None, _close_worker, exitpriority=10))
    variant_spec, specs, movetime_ms, seed = init
    variant = load_variant(variant_spec)
    rng = random.Random(seed)
    _worker.update(init=init, variant=variant, players=[])
    for spec in specs:
        _worker["players"].append(make_player(spec, variant, movetime_ms, rng))


def _close_worker() -> None:
    for p in _worker.get("players", ()):
        p.close()
    _worker.clear()


def _game(job: tuple) -> tuple:
    """Play game ``index``: the first player has ``colour``; returns (index, colour, result, pgn)."""
    index, colour, setup, opening_seed, plies, balance, names, init = job
    _setup_worker(init)
    variant = _worker["variant"]
    first, second = _worker["players"]
    board = Board(variant, setup=setup)
    random_opening(board, plies, random.Random(opening_seed), balance)
    white, black = (first, second) if colour == WHITE else (second, first)
    result = play_game(board, white, black)
    wname, bname = (names[0], names[1]) if colour == WHITE else (names[1], names[0])
    pgn = pgn_write(board, {"Event": "morphchess match", "Round": str(index + 1), "White": wname,
                            "Black": bname, "Result": result})
    return index, colour, result, pgn


MAX_JOBS = 256


def check_match(variant_spec: str, first: str, second: str, games: int, movetime_ms: int, jobs: int,
                opening_plies: int, setup: str | None) -> Variant:
    """The variant of a match whose settings are all usable; OptionError (or VariantError) names the first that
    is not."""
    parse_spec(first)
    parse_spec(second)
    variant = load_variant(variant_spec)
    for name, value, low, high in (("--games", games, 1, None), ("--jobs", jobs, 1, MAX_JOBS),
                                   ("--movetime", movetime_ms, 1, None),
                                   ("--opening-plies", opening_plies, 0, MAX_PLIES - 1)):
        if value < low or (high is not None and value > high):
            raise OptionError(f"{name} must be at least {low}" + (f" and at most {high}" if high else "")
                              + f", not {value}")
    if setup not in (None, "random"):
        variant.placement(setup)
    return variant


def run_match(variant_spec: str, first: str, second: str, games: int, movetime_ms: int = 1000,
              jobs: int = 1, seed: int = 1, alternate: bool = True, opening_plies: int = 2,
              setup: str | None = None, progress=None,
              stop: Callable[[MatchResult], bool] | None = None, balance: int | None = None) -> MatchResult:
    """Play ``games`` games of ``first`` against ``second``.

    Game ``i`` starts from a random opening of ``opening_plies`` plies drawn from
    ``seed`` and the pair number, so both games of a pair (colours swapped when
    ``alternate``) start alike.  ``setup`` names Black's array or ``random`` (one
    per pair).  ``balance``: openings whose material differs by at most that many centipawns
    (see :func:`random_opening`).  ``progress(result_so_far, finished_game)`` is called after every game, then
    ``stop(result_so_far)``: when true, the match ends there (games under way in workers are
    abandoned).
    """
    variant = check_match(variant_spec, first, second, games, movetime_ms, jobs, opening_plies, setup)
    jobs = min(jobs, games)
    setups = sorted(variant.setups)
    init = (variant_spec, (first, second), movetime_ms, seed)
    jobs_list = []
    for i in range(games):
        pair_rng = random.Random(f"{seed}/{i // 2 if alternate else i}")
        pair_setup = pair_rng.choice(setups) if setup == "random" else (setup or "standard")
        colour = WHITE if not alternate or i % 2 == 0 else BLACK
        jobs_list.append((i, colour, pair_setup, pair_rng.getrandbits(32), opening_plies, balance, (first, second),
                          init))
    result = MatchResult()

    def record(game: tuple) -> bool:
        _i, colour, res, _pgn = game
        points = {"1-0": 1.0, "0-1": 0.0}.get(res, 0.5)
        result.add(points if colour == WHITE else 1 - points)
        result.games.append(game)
        if progress:
            progress(result, game)
        return stop is not None and stop(result)

    if jobs == 1:
        try:
            for job in jobs_list:
                if record(_game(job)):
                    break
        finally:
            _close_worker()
    else:  # workers start their players on their first game; external engines end with the pool
        ctx = get_context("spawn" if sys.platform == "win32" else "forkserver")  # no fork: lab/run.py says why
        with ctx.Pool(jobs) as pool:
            for game in pool.imap(_game, jobs_list):  # in order: pairs finish together
                if record(game):
                    pool.terminate()
                    break
            else:
                pool.close()
            pool.join()
    result.games.sort(key=lambda g: g[0])
    return result


def progress_bar(total: int, stream=sys.stderr):
    """A progress callback drawing ``[#####.....] 7/20 +5 =1 -1`` (one line per game when not a terminal)."""
    start = time.perf_counter()

    def show(r: MatchResult, game: tuple) -> None:
        done = r.n
        width = 30
        filled = width * done // total
        text = (f"[{'#' * filled}{'.' * (width - filled)}] {done}/{total} "
                f"+{r.wins} ={r.draws} -{r.losses}  {time.perf_counter() - start:.0f}s")
        if stream.isatty():
            stream.write("\r" + text + ("\n" if done == total else ""))
        else:
            stream.write(f"{text}  (game {game[0] + 1}: {game[2]})\n")
        stream.flush()
    return show
