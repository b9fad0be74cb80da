"""Texel-style tuning of every weight of the evaluation on self-play games of each variant.

    python bench/texel.py games --variants chess --games 2400 --nodes 300 --plies 6 --jobs 2 --out chess.jsonl
    python bench/texel.py fit chess.jsonl --report fits.jsonl   # reports the fit (statistics and weights)
    python bench/texel.py fit --apply chess.jsonl    # and writes its weights to src/morphchess/engine/config.json
    python bench/texel.py fit chess.jsonl --hold tables    # the table multipliers kept, the rest fitted
    python bench/texel.py label chess.jsonl --depth 8 --jobs 2 --out chess-sf.jsonl   # Stockfish's labels
    python bench/texel.py games --variants chess --games 3000 --nodes 1500 --plies 8 --stockfish stockfish \
        --jobs 2 --out sf.jsonl                              # Stockfish's own games (chess), to label and fit
    python bench/texel.py fit chess-sf.jsonl --squares --endgame   # and square weights, middlegame and endgame
    python bench/texel.py fit chess-sf.jsonl --squares --mobility  # and mobility per piece type, pawn-attacked apart
    python bench/texel.py label snappy.jsonl --nodes 10000 --jobs 2 --out snappy-l.jsonl   # morphchess's own labels

``games`` plays the engine against itself (``--nodes`` per move, ``--plies`` random opening
plies from the seed, a draw after ``--max-plies``) in ``--jobs`` processes and writes one JSON
line per game: variant, moves in coordinate text, result; with ``--stockfish`` (orthodox chess)
Stockfish plays both sides instead, far faster, for positions that ``label`` then scores.
``fit`` replays them and keeps the quiet positions (side to move not in check, no capture that
wins material by static exchange evaluation, past the opening plies).  It splits each position's
evaluation into the parts the weights multiply: the table terms (material per piece type, or
with ``--coarse`` for pawns and for the other pieces; lookahead gain, centralisation, king), the
dynamic terms of :data:`~morphchess.engine.evaluate.TERMS` where the variant's search uses them,
mobility and king attack where some piece keeps its shape, and where quiet moves gain by changing
shape the side to move's best such gain that the capture search's stand-pat adds (``tempo``, in
percent); with ``--squares`` a centipawn weight
per piece letter and square, with ``--endgame`` another that the dynamic terms add as the
phase falls, and with ``--mobility`` mobility split into one column per piece letter (its squares
that no enemy pawn-like piece attacks) and one for the squares such a pawn attacks.  It fits all those weights together
(:class:`~morphchess.engine.config.EngineConfig`) so that ``sigmoid(evaluation / K)`` predicts the
game results: least squares, ``K`` fitted first on the variant's current weights, every weight
drawn towards its current value by a penalty chosen on the games held out (every other game).
The fit (command, games, positions, ``K``, the error before and after, on all positions and on
the held-out games, the weights) is printed, and appended as one JSON line to ``--report``; with
``--apply`` its weights become the variant's in the engine's configuration file (``--config``) when
they predict the held-out games better (once an SPRT has confirmed them; record where they came
from in docs/engine-configuration.md).

``label`` (orthodox chess) asks Stockfish, through python-chess, for its expected score of every
position past the opening plies (its win/draw/loss estimate at ``--depth``, from White's side) and
writes the games again with those ``labels``; ``fit`` then predicts the labels instead of the game
results, so the weights learn from a search far deeper than the games' own.  ``label --nodes N``
labels any variant by morphchess's own search of N nodes instead: White's expected points
``sigmoid(score / SEARCH_SCALE)``, a mate 0 or 1.
"""

from __future__ import annotations

import argparse
import copy
import functools
import json
import os
import random
import sys
from multiprocessing import Pool

import numpy as np
from scipy.optimize import minimize, minimize_scalar

from morphchess import Board, Position, builtin
from morphchess.engine import search
from morphchess.engine.config import CONFIG_FILE, TERMS, EngineConfig, config_for, fingerprint
from morphchess.engine.evaluate import (
    EvalTables,
    attack_units,
    eval_tables,
    game_phase,
)
from morphchess.engine.see import exchange_exact, exchange_tables, see
from morphchess.engine.tt import TranspositionTable
from morphchess.variants import names

CONFIG_PATH = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                           "src", "morphchess", "engine", CONFIG_FILE)
SEARCH_SCALE = 400  # centipawns: a search score s labels a position sigmoid(s / SEARCH_SCALE)
PENALTIES = (0.0, 1e-5, 1e-4, 1e-3, 1e-2, 1e-1)  # candidate strengths of the pull towards the current weights
POINTS = {"1-0": 1.0, "0-1": 0.0}


# -- self-play ------------------------------------------------------------------------------
def play(job: tuple) -> dict:
    """One self-play game: (variant, seed, nodes, opening plies, max plies, whether Stockfish plays) -> its
    record."""
    variant, seed, nodes, plies, max_plies, stockfish = job
    if stockfish:
        return stockfish_game(seed, nodes, plies, max_plies)
    board = Board(variant)
    rng = random.Random(f"{variant}/{seed}")
    for _ in range(plies):
        board.push(rng.choice(board.legal_moves))
        if board.outcome() is not None:
            board.pop()
            break
    while board.outcome() is None and len(board.move_stack) < max_plies:
        board.push(board.move(search(board.position, nodes=nodes).move))
    outcome = board.outcome()
    return {"variant": variant, "seed": seed, "plies": plies, "moves": [m.uci() for m in board.move_stack],
            "result": outcome.result() if outcome else "1/2-1/2"}


def stockfish_game(seed: int, nodes: int, plies: int, max_plies: int) -> dict:
    """One orthodox chess game of Stockfish (started by :func:`start_stockfish`) against itself at ``nodes`` a
    move after ``plies`` random ones, played and ended by python-chess's rules -> its record."""
    import chess
    import chess.engine

    board = chess.Board()
    rng = random.Random(f"chess/{seed}")
    for _ in range(plies):
        board.push(rng.choice(sorted(board.legal_moves, key=str)))
        if board.is_game_over():
            board.pop()
            break
    while not board.is_game_over() and board.ply() < max_plies:
        board.push(_LABELLER[0].play(board, chess.engine.Limit(nodes=nodes)).move)
    return {"variant": "chess", "seed": seed, "plies": plies, "moves": [m.uci() for m in board.move_stack],
            "result": board.result() if board.is_game_over() else "1/2-1/2"}


_LABELLER: list = []  # this process's Stockfish and chess Features, from start_stockfish


def start_stockfish(engine_path: str) -> None:
    """Start this process's Stockfish for :func:`label` and :func:`stockfish_game` (a Pool initializer)."""
    import atexit

    import chess.engine

    engine = chess.engine.SimpleEngine.popen_uci(engine_path)
    engine.configure({"UCI_ShowWDL": True, "Threads": 1, "Hash": 16})
    atexit.register(engine.quit)
    _LABELLER[:] = [engine, Features(builtin("chess"))]


def label(record: dict, depth: int = 8) -> dict:
    """``record`` with ``labels``: Stockfish's expected points for White after each move from the opening
    plies on, from its win/draw/loss estimate at ``depth``; None where the fit takes no position (in the
    opening plies, where the game is over, where the position is not quiet)."""
    import chess
    import chess.engine

    engine, features = _LABELLER
    board, ours = chess.Board(), Board(features.variant)
    labels: list[float | None] = []
    for i, uci in enumerate(record["moves"]):
        board.push_uci(uci)
        ours.push_uci(uci)
        if board.is_game_over() or not fit_takes(record, i, features, ours.position):
            labels.append(None)
            continue
        wdl = engine.analyse(board, chess.engine.Limit(depth=depth))["wdl"].white()
        labels.append(round(wdl.expectation(), 4))
    return {**record, "labels": labels}


@functools.cache
def variant_features(name: str) -> Features:
    """A built-in variant's :class:`Features` (one per process)."""
    return Features(builtin(name))


def search_label(record: dict, nodes: int) -> dict:
    """``record`` with ``labels`` from morphchess's own search of ``nodes`` (any variant): White's expected
    points ``sigmoid(score / SEARCH_SCALE)`` after each move from the opening plies on, a mate 0 or 1; None
    where the fit takes no position.  One transposition table for the game, as in play."""
    features = variant_features(record["variant"])
    board = Board(features.variant)
    tt = TranspositionTable()
    labels: list[float | None] = []
    for i, uci in enumerate(record["moves"]):
        board.push_uci(uci)
        pos = board.position
        if board.outcome() is not None or not fit_takes(record, i, features, pos):
            labels.append(None)
            continue
        score = search(pos, nodes=nodes, tt=tt).score
        white = score if pos.turn == 0 else -score
        labels.append(round(float(sigmoid(white / SEARCH_SCALE)), 4))
    return {**record, "labels": labels}


def read_records(files: list[str]) -> list[dict]:
    """The game records of the JSON-lines ``files``, in order."""
    records: list[dict] = []
    for path in files:
        with open(path, encoding="utf-8") as f:
            records.extend(json.loads(line) for line in f)
    return records


def run_label(args) -> None:
    records = read_records(args.files)
    start: tuple = (None, ())
    if args.nodes:
        work = functools.partial(search_label, nodes=args.nodes)
    else:
        wrong = sorted({r["variant"] for r in records} - {"chess"})
        if wrong:
            raise SystemExit(f"texel.py label: Stockfish labels orthodox chess only, not {' '.join(wrong)} "
                             "(--nodes N labels any variant by morphchess's own search)")
        work, start = functools.partial(label, depth=args.depth), (start_stockfish, (args.engine,))
    with Pool(args.jobs, *start) as pool, open(args.out, "w", encoding="utf-8") as f:
        for n, rec in enumerate(pool.imap(work, records), 1):
            f.write(json.dumps(rec) + "\n")
            if n % 20 == 0 or n == len(records):
                print(f"{n}/{len(records)} games labelled", file=sys.stderr, flush=True)


def run_games(args) -> None:
    if args.stockfish and args.variants != ["chess"]:
        raise SystemExit("texel.py games: --stockfish plays orthodox chess only (--variants chess)")
    jobs = [(v, seed, args.nodes, args.plies, args.max_plies, bool(args.stockfish)) for v in args.variants
            for seed in range(args.seed, args.seed + args.games)]
    start = (start_stockfish, (args.stockfish,)) if args.stockfish else (None, ())
    with Pool(args.jobs, *start) as pool, open(args.out, "a", encoding="utf-8") as f:
        for n, record in enumerate(pool.imap_unordered(play, jobs), 1):
            f.write(json.dumps(record) + "\n")
            f.flush()
            print(f"{n}/{len(jobs)} {record['variant']} {record['result']} {len(record['moves'])} plies", flush=True)


# -- features -------------------------------------------------------------------------------
TABLE_BOUNDS = (0.5, 2.0)  # a table multiplier stays within these
TABLE_SCALE = 0.5          # the penalty counts a table multiplier's change in these units


class Features:
    """A variant's evaluation split into the parts its weights multiply (White positive): one column per
    material group, then lookahead, centre and king; then each dynamic term the search uses, mobility and king
    attack, each at weight 1, and where quiet moves gain by changing shape the side to move's best such gain
    in hundreds (the search's ``tempo`` percent); with ``squares`` (or when the variant's weights have square
    weights, so that the columns add up to its evaluation), one column per piece letter and square (its own
    side's view), the count of such pieces there; with ``endgame`` (or when the variant has endgame square
    weights), where the search uses the dynamic terms, one more column per letter and square: that count times
    ``1 - phase``. ``start`` holds the variant's current weights in that order.  The lookahead column comes from
    tables at the current material values, so at ``start`` the columns add up to the search's evaluation;
    the fit is linear around them (a table's lookahead is not linear in the material multipliers).
    """

    def __init__(self, variant, coarse: bool = False, squares: bool = False, endgame: bool = False,
                 mobility: bool = False) -> None:
        self.variant = variant
        self.weights = tuned = config_for(variant)
        # the tables at the current material values (so the lookahead columns add up to the search's), and
        # the type values at multiplier 1 (what a material column counts)
        self.base = EvalTables(variant, 1.0, config=EngineConfig(material=dict(tuned.material)))
        self.plain_value = EvalTables(variant, 1.0).value
        self.phases: dict[float, EvalTables] = {1.0: self.base}
        group = {t.letter: t.letter for t in variant.types if not t.royal}
        for g in variant.transforms:  # a polymorph's forms share one value, so one multiplier
            for i in g:
                group[variant.type(i).letter] = variant.type(g[0]).letter
        if coarse:  # two material multipliers: pawns and the other pieces
            group = {t.letter: "pawns" if variant.is_pawn_like(t) else "pieces" for t in variant.types if not t.royal}
        self.group = group
        self.tables = sorted(set(group.values())) + ["lookahead", "centre", "king"]
        self.dynamic = tuned.dynamic
        self.terms = [name for name in TERMS if name != "taper"] if self.dynamic else []
        self.moving = any(self.base.mobility_weight)  # pieces whose mobility and attacks count
        self.search_tables = eval_tables(variant, 1.0)  # the search's own, at every current weight
        self.gains = any(map(any, self.search_tables.gainers))  # quiet shape changes that gain: the search's tempo
        self.safe = tuned.safe
        self.mobility_units = self._mobility_units() if self.moving and (
            mobility or tuned.mobility_types or tuned.mobility_unsafe != 1.0) else {}
        mobility_columns = list(self.mobility_units) or ["mobility"]
        self.scalars = (self.tables + self.terms + (mobility_columns + ["attack"] if self.moving else [])
                        + (["tempo"] if self.gains else []))
        self.table_index = {name: i for i, name in enumerate(self.tables)}
        self.letters = sorted(t.letter for t in variant.types) if squares or tuned.squares else []
        self.eg_letters = sorted(t.letter for t in variant.types) if (
            (endgame or tuned.squares_eg) and self.dynamic) else []
        size = variant.files * variant.ranks
        self.columns = self.scalars + [f"{letter}@{sq}" for letter in self.letters for sq in range(size)] + [
            f"{letter}@{sq}/eg" for letter in self.eg_letters for sq in range(size)]
        material = {g: tuned.material.get(letter, 1.0) for letter, g in group.items()}
        self.start = np.array([material.get(c, 1.0) for c in self.tables[:-3]]
                              + [tuned.lookahead, tuned.centre, tuned.king] + [tuned.term(t) for t in self.terms]
                              + ([tuned.mobility * self._multiplier(c) for c in mobility_columns] + [tuned.attack]
                                 if self.moving else [])
                              + ([tuned.tempo] if self.gains else [])
                              + [x for letter in self.letters for x in tuned.squares.get(letter, [0.0] * size)]
                              + [x for letter in self.eg_letters for x in tuned.squares_eg.get(letter, [0.0] * size)],
                              dtype=float)
        self.exchange = exchange_tables(variant, self.base.value)
        self.exact = exchange_exact(Position(variant))
        self.units = []  # one copy of the tables per dynamic term, that term weighing 100, the others 0
        for name in self.terms:
            unit = copy.copy(self.base)
            unit.term_values = {n: 100 if n == name else 0 for n in TERMS}
            unit.term_values["taper"] = 0  # the phase's royal tables are the table columns' part
            unit.pawn_cache = {}
            self.units.append(unit)

    def _mobility_units(self) -> dict[str, EvalTables]:
        """Per piece letter whose mobility counts (``mobility:N``), a copy of the tables that counts its
        safe squares alone, and for ``mobility:unsafe`` one that counts every piece's squares attacked
        by enemy pawn-like pieces alone, each at the plain per-type weight."""
        base = self.base
        letter = self.variant.tables.letter
        none = [0.0] * len(base.mobility_weight)
        units = {}
        for name in sorted({letter[c].upper() for c, w in enumerate(base.mobility_weight) if w}):
            unit = units[f"mobility:{name}"] = copy.copy(base)
            unit.set_mobility([w if letter[c].upper() == name else 0.0 for c, w in enumerate(base.mobility_weight)],
                              none)
        unit = units["mobility:unsafe"] = copy.copy(base)
        unit.set_mobility(none, list(base.mobility_weight))
        return units

    def _multiplier(self, column: str) -> float:
        """The variant's multiplier of the mobility weight for a mobility column."""
        kind = column.partition(":")[2]
        if kind == "unsafe":
            return self.weights.mobility_unsafe
        return self.weights.mobility_types.get(kind, 1.0) if kind else 1.0

    def quiet(self, pos: Position) -> bool:
        """Not in check and no capture that wins material (where SEE is exact)."""
        if pos.in_check():
            return False
        return not self.exact or all(see(pos, m, self.exchange) <= 0 for m in pos.captures())

    def row(self, pos: Position) -> np.ndarray:
        """The position's value of every column."""
        phase = round(game_phase(self.variant, pos.board), 1)
        et = self.phases.get(phase)
        if et is None:
            et = self.phases[phase] = self.base.rephased(phase)
        t = self.variant.tables
        out = [0.0] * len(self.tables)
        index = self.table_index
        for sq, c in enumerate(pos.board):
            if not c:
                continue
            sign = -1 if t.letter[c].islower() else 1
            material, ahead, centre, king = et.terms(c, sq, phase, et.worth[c])
            if material:
                out[index[self.group[t.letter[c].upper()]]] += sign * self.plain_value[c]
            out[-3] += sign * ahead
            out[-2] += sign * centre
            out[-1] += sign * king
        share = self.dynamic / 100
        out += [share * unit.dynamic(pos.board) / 100 for unit in self.units]
        if self.moving:
            score, units, attackers = self.base.mobility(pos)
            white, black = attack_units(units, attackers)
            mobility = [unit.mobility(pos)[0] for unit in self.mobility_units.values()] or [score]
            out += [x / 10 for x in mobility] + [(white - black) / 100]
        if self.gains:  # the capture search's stand-pat adds tempo percent of the side to move's morph gain
            gain = self.search_tables.morph_gain(pos, self.safe)
            out.append((1 if pos.turn == 0 else -1) * gain / 100)
        row = np.zeros(len(self.columns))
        row[:len(out)] = out
        size = len(pos.board)
        first = len(out)
        blocks = [(self.letters, 1.0)] if self.letters else []
        if self.eg_letters:
            blocks.append((self.eg_letters, share * (1 - self.phase(pos.board))))
        for letters, weight in blocks:
            for sq, c in enumerate(pos.board):
                if c:
                    sign = -1 if t.letter[c].islower() else 1
                    column = letters.index(t.letter[c].upper()) * size + self.base.own_square(c, sq)
                    row[first + column] += sign * weight
            first += len(letters) * size
        return row

    def phase(self, board: list[int]) -> float:
        """The node's phase as the search's dynamic terms weigh it (by the variant's fitted piece values)."""
        return eval_tables(self.variant, 1.0).phase(board)


def fit_takes(record: dict, i: int, features: Features, position) -> bool:
    """Whether the fit takes the position after move ``i`` of ``record``: past the random opening plies
    and the four after them, and quiet."""
    return i + 1 >= record["plies"] + 4 and features.quiet(position)


def positions(records: list[dict], features: Features, first: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(feature rows, White's points, game number from ``first``) of the quiet positions of the games."""
    rows, results, games = [], [], []
    for n, rec in enumerate(records, first):
        board = Board(features.variant)
        points = POINTS.get(rec["result"], 0.5)
        labels = rec.get("labels")
        for i, uci in enumerate(rec["moves"]):
            board.push_uci(uci)
            if (labels is None or labels[i] is not None) and fit_takes(rec, i, features, board.position):
                rows.append(features.row(board.position))
                results.append(points if labels is None else labels[i])
                games.append(n)
    return np.array(rows).reshape(len(rows), len(features.columns)), np.array(results), np.array(games)


def replay(job: tuple) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One process's share of :func:`positions`: (variant, :func:`feature_options`, first game's number,
    its records)."""
    name, options, first, records = job
    return positions(records, Features(builtin(name), *options), first)


def feature_options(args) -> tuple[bool, bool, bool, bool]:
    """The columns ``fit`` asks of :class:`Features`: coarse, squares, endgame, mobility."""
    return args.coarse, args.squares, args.endgame, args.mobility


def all_positions(name: str, records: list[dict], args) -> tuple:
    """:func:`positions` of every game, replayed in ``--jobs`` processes, with progress on stderr."""
    size = max(1, min(100, len(records) // args.jobs))
    parts = [(name, feature_options(args), i, records[i:i + size])
             for i in range(0, len(records), size)]
    out = []
    with Pool(args.jobs) as pool:
        for part in pool.imap(replay, parts):
            out.append(part)
            print(f"{name}: {sum(len(p[1]) for p in out)} positions from {min(len(out) * size, len(records))}/"
                  f"{len(records)} games", file=sys.stderr, flush=True)
    return tuple(np.concatenate([p[i] for p in out]) for i in range(3))


# -- fitting --------------------------------------------------------------------------------
def sigmoid(x):
    return 1 / (1 + np.exp(-x))


def error(w, X, y, k: float) -> float:
    """Mean squared error of the predicted points of weights ``w``."""
    return float(np.mean((y - sigmoid(X @ w / k)) ** 2))


class Fit:
    """Least-squares fit of a variant's weights, each drawn towards its start by ``penalty`` in units of its
    scale (TABLE_SCALE for a multiplier, its own size but at least 10 cp for the others); the columns
    named in ``hold`` (``tables``: every table multiplier) keep their start."""

    def __init__(self, feats: Features, hold: tuple[str, ...] = ()) -> None:
        n = len(feats.tables)
        self.w0 = feats.start
        self.scale = np.array([TABLE_SCALE] * n + [max(abs(x), 10.0) for x in self.w0[n:]])
        bounds = [TABLE_BOUNDS] * n + [(x - 10 * s, x + 10 * s) for x, s in zip(self.w0[n:], self.scale[n:])]
        self.bounds = [(0.0, 0.0) if name in hold or ("tables" in hold and i < n) else ((lo - x) / s, (hi - x) / s)
                       for i, (name, (lo, hi), x, s) in enumerate(zip(feats.columns, bounds, self.w0, self.scale))]

    def loss(self, x, X, y, k: float, penalty: float) -> tuple[float, np.ndarray]:
        """The penalised error of the weights ``w0 + x * scale`` and its gradient in ``x``."""
        s = sigmoid(X @ (self.w0 + x * self.scale) / k)
        gradient = (X.T @ (-2 * (y - s) * s * (1 - s))) / (k * len(y)) * self.scale + 2 * penalty * x
        return float(np.mean((y - s) ** 2) + penalty * np.sum(x * x)), gradient

    def weights(self, X, y, k: float, penalty: float):
        """The weights that minimise :meth:`loss` within their bounds."""
        x = minimize(self.loss, np.zeros(len(self.w0)), args=(X, y, k, penalty), jac=True, method="L-BFGS-B",
                     bounds=self.bounds, options={"ftol": 1e-12, "gtol": 1e-9, "maxiter": 2000}).x
        return self.w0 + x * self.scale


def fit_variant(name: str, records: list[dict], args, command: str) -> dict:
    """The fit of a variant's weights: its statistics, the ``weights`` (as :class:`EngineConfig`
    settings) and whether they are ``applied`` (with ``--apply``, when they predict the held-out games
    better than the current weights)."""
    feats = Features(builtin(name), *feature_options(args))
    unknown = set(args.hold) - set(feats.columns) - {"tables"}
    if unknown:
        raise SystemExit(f"texel.py fit: --hold {' '.join(sorted(unknown))}: no such weight in {name} "
                         f"(its weights: tables {' '.join(feats.scalars)})")
    fit = Fit(feats, tuple(args.hold))
    X, y, games = all_positions(name, records, args)
    w0 = fit.w0
    k = minimize_scalar(lambda k: error(w0, X, y, k), bounds=(50, 5000), method="bounded").x
    held = games % 2 == 1
    current = error(w0, X[held], y[held], k)
    scores = {p: error(fit.weights(X[~held], y[~held], k, p), X[held], y[held], k) for p in PENALTIES}
    penalty = min(scores, key=scores.__getitem__)
    w = fit.weights(X, y, k, penalty)
    before, after = error(w0, X, y, k), error(w, X, y, k)
    keep = args.apply and scores[penalty] < current
    cols = feats.columns
    print(f"{name}: {len(records)} games, {len(y)} positions, K {k:.0f}, error {before:.5f} -> {after:.5f}, "
          f"held-out {current:.5f} -> {scores[penalty]:.5f} (penalty {penalty}; "
          + ", ".join(f"{p} {e:.5f}" for p, e in scores.items()) + "); "
          + " ".join(f"{c} {x:.2f}" for c, x in zip(feats.scalars, w)) + ("; applied" if keep else ""), flush=True)
    fitted = dict(zip(cols, (float(x) for x in w)))
    n = len(feats.tables)
    weights = {"material": {letter: round(fitted[g], 3) for letter, g in feats.group.items()},
               **{c: round(fitted[c], 3) for c in cols[n - 3:n]}}
    if feats.terms:
        weights["terms"] = {t: round(fitted[t], 1) for t in feats.terms}
    if feats.mobility_units:  # the per-type weights as multipliers of the variant's mobility weight
        scale = feats.weights.mobility
        weights.update(mobility=scale, mobility_types={c.partition(":")[2]: round(fitted[c] / scale, 3)
                                                       for c in feats.mobility_units if c != "mobility:unsafe"},
                       mobility_unsafe=round(fitted["mobility:unsafe"] / scale, 3))
    elif feats.moving:
        weights["mobility"] = round(fitted["mobility"])
    if feats.moving:
        weights["attack"] = round(fitted["attack"])
    if feats.gains:
        weights["tempo"] = round(fitted["tempo"])
    size = feats.variant.files * feats.variant.ranks
    if feats.letters:
        weights["squares"] = {letter: [round(fitted[f"{letter}@{sq}"], 1) for sq in range(size)]
                              for letter in feats.letters}
    if feats.eg_letters:
        weights["squares_eg"] = {letter: [round(fitted[f"{letter}@{sq}/eg"], 1) for sq in range(size)]
                                 for letter in feats.eg_letters}
    return {"variant": name, "command": command, "games": len(records), "positions": int(len(y)), "K": round(k, 1),
            "penalty": penalty, "error": [round(before, 5), round(after, 5)],
            "held_out_error": [round(current, 5), round(scores[penalty], 5)], "weights": weights, "applied": keep}


def run_fit(args) -> None:
    """Fit each variant of the games; report the fits, write the applied weights to ``--config``."""
    by_variant: dict[str, list] = {}
    for rec in read_records(args.files):
        by_variant.setdefault(rec["variant"], []).append(rec)
    with open(args.config, encoding="utf-8") as f:
        config = json.load(f)
    command = "python bench/texel.py " + " ".join(sys.argv[1:])
    applied = False
    for name in sorted(by_variant):
        if args.variants and name not in args.variants:
            continue
        fit = fit_variant(name, by_variant[name], args, command)
        if args.report:
            with open(args.report, "a", encoding="utf-8") as f:
                f.write(json.dumps(fit, sort_keys=True) + "\n")
        if fit["applied"]:
            config.setdefault(name, {})
            config[name].update(fit["weights"], fingerprint=fingerprint(builtin(name)))
            applied = True
    if applied:
        with open(args.config, "w", encoding="utf-8") as f:
            json.dump(config, f, indent=1, sort_keys=True)
            f.write("\n")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="step", required=True)
    g = sub.add_parser("games", help="self-play games to a JSON-lines file")
    g.add_argument("--variants", nargs="+", default=names())
    g.add_argument("--games", type=int, default=60, help="games per variant")
    g.add_argument("--nodes", type=int, default=1000)
    g.add_argument("--plies", type=int, default=4, help="random opening plies")
    g.add_argument("--max-plies", type=int, default=300)
    g.add_argument("--seed", type=int, default=1)
    g.add_argument("--jobs", type=int, default=1)
    g.add_argument("--stockfish", metavar="COMMAND", help="Stockfish plays both sides instead (chess only), at --nodes")
    g.add_argument("--out", default="selfplay.jsonl")
    f = sub.add_parser("fit", help="fit the weights; with --apply write them to the engine's configuration")
    f.add_argument("files", nargs="+")
    f.add_argument("--variants", nargs="+")
    f.add_argument("--coarse", action="store_true", help="one material multiplier for pawns, one for the other pieces")
    f.add_argument("--squares", action="store_true", help="also a centipawn weight per piece letter and square")
    f.add_argument("--endgame", action="store_true", help="also an endgame weight per piece letter and square, "
                   "blended in as the phase falls (where the dynamic terms play)")
    f.add_argument("--mobility", action="store_true", help="a mobility weight per piece letter, and one for "
                   "squares that enemy pawn-like pieces attack")
    f.add_argument("--hold", nargs="+", default=[], metavar="COLUMN",
                   help="weights kept at their current value (a column name such as P or mobility; tables: "
                        "every table multiplier)")
    f.add_argument("--jobs", type=int, default=1, help="processes replaying the games")
    f.add_argument("--apply", action="store_true", help="use the fitted weights where they predict the held-out "
                   "games better")
    f.add_argument("--report", metavar="FILE", help="append each fit (statistics and weights) as a JSON line")
    f.add_argument("--config", default=CONFIG_PATH, help="the configuration file --apply writes")
    lab = sub.add_parser("label", help="Stockfish's expected score of each position (chess), or with --nodes "
                         "morphchess's own (any variant), for fit")
    lab.add_argument("files", nargs="+")
    lab.add_argument("--depth", type=int, default=8, help="Stockfish's depth")
    lab.add_argument("--nodes", type=int, help="label by morphchess's own search of this many nodes instead")
    lab.add_argument("--engine", default="stockfish", help="the Stockfish command")
    lab.add_argument("--jobs", type=int, default=1)
    lab.add_argument("--out", required=True)
    args = ap.parse_args()
    {"games": run_games, "fit": run_fit, "label": run_label}[args.step](args)


if __name__ == "__main__":
    main()
