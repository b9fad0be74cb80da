"""Texel-style tuning of the evaluation's weights on self-play games of each variant.

    python bench/texel.py games --variants crossroads --games 60 --nodes 1000 --out selfplay.jsonl
    python bench/texel.py fit selfplay.jsonl              # writes src/morphchess/engine/tuned.json
    python bench/texel.py fit --terms selfplay.jsonl      # the dynamic terms' weights instead

``games`` plays the engine against itself (``--nodes`` per move, ``--plies`` random opening
plies from the seed, a draw after ``--max-plies``) and writes one JSON line per game: variant,
moves in coordinate text, result.  ``fit`` replays them, keeps quiet positions (side to move
not in check, no capture that wins material by static exchange evaluation, past the opening
plies), splits every position's evaluation into its terms (material per piece type, or with
``--coarse`` for pawns and for the other pieces; lookahead gain, centralisation, king) and fits
their multipliers (:class:`~morphchess.engine.evaluate.Weights`) so that
``sigmoid(evaluation / K)`` predicts the game results (least squares, ``K`` fitted first on the
untuned evaluation; multipliers drawn towards 1 by a penalty chosen on games held out; all 1
when none of them predicts those games better than the untuned evaluation).  The weights of
every variant in the files replace that variant's entry in ``tuned.json``.

With ``--terms`` the table terms keep their weights and the fit is of the centipawn weights of
the dynamic terms (:data:`~morphchess.engine.evaluate.TERMS`, the taper switch aside): each
position's evaluation is its tables plus every term's unit contribution times its weight,
drawn towards the default weights.  The fit and its errors go to the variant's ``terms_fit``;
with ``--apply`` the fitted weights become its ``terms`` when they predict the held-out games
better than the defaults (for use once an SPRT has confirmed them).
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import random
from multiprocessing import Pool

import numpy as np
from scipy.optimize import minimize, minimize_scalar

from morphchess import Board, Position, builtin
from morphchess.engine import search
from morphchess.engine.evaluate import TERMS, TUNED_FILE, EvalTables, fingerprint, game_phase
from morphchess.engine.see import exchange_exact, see, see_values
from morphchess.variants import names

TUNED_PATH = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                          "src", "morphchess", "engine", TUNED_FILE)
PENALTIES = (0.001, 0.01, 0.1, 1.0)  # candidate strengths of the pull towards 1
POINTS = {"1-0": 1.0, "0-1": 0.0}


# -- self-play ------------------------------------------------------------------------------
def play(job: tuple) -> dict:
    """One self-play game: (variant, seed, nodes, opening plies, max plies) -> its record."""
    variant, seed, nodes, plies, max_plies = job
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


def run_games(args) -> None:
    jobs = [(v, seed, args.nodes, args.plies, args.max_plies) for v in args.variants
            for seed in range(args.seed, args.seed + args.games)]
    with Pool(args.jobs) as pool, open(args.out, "a", encoding="utf-8") as f:
        for n, record in enumerate(pool.imap_unordered(play, jobs), 1):
            f.write(json.dumps(record) + "\n")
            f.flush()
            print(f"{n}/{len(jobs)} {record['variant']} {record['result']} {len(record['moves'])} plies", flush=True)


# -- features -------------------------------------------------------------------------------
class Features:
    """A variant's untuned evaluation split into terms: one column per material group, then
    lookahead, centre, king (White positive)."""

    def __init__(self, variant, coarse: bool = False) -> None:
        self.variant = variant
        self.base = EvalTables(variant, 1.0)
        self.phases: dict[float, EvalTables] = {1.0: self.base}
        group = {t.letter: t.letter for t in variant.types if not t.royal}
        for g in variant.transforms:  # a polymorph's forms share one value, so one multiplier
            for i in g:
                group[variant.type(i).letter] = variant.type(g[0]).letter
        if coarse:  # two material multipliers: pawns and the other pieces
            group = {t.letter: "pawns" if variant.is_pawn_like(t) else "pieces" for t in variant.types if not t.royal}
        self.group = group
        self.columns = sorted(set(group.values())) + ["lookahead", "centre", "king"]
        self.see_value = see_values(variant.tables, self.base.value)
        self.exact = exchange_exact(Position(variant))
        self.terms = [name for name in TERMS if name != "taper"]
        self.units = []  # one copy of the tables per dynamic term, that term weighing 100, the others 0
        for name in self.terms:
            unit = copy.copy(self.base)
            unit.term_values = {n: 100 if n == name else 0 for n in TERMS}
            unit.pawn_cache = {}
            self.units.append(unit)

    def quiet(self, pos: Position) -> bool:
        """Not in check and no capture that wins material (where SEE is exact)."""
        if pos.in_check():
            return False
        return not self.exact or all(see(pos, m, self.see_value) <= 0 for m in pos.captures())

    def term_row(self, pos: Position) -> list[float]:
        """Each dynamic term's contribution at weight 1 (White positive)."""
        return [unit.dynamic(pos.board) / 100 for unit in self.units]

    def row(self, pos: Position) -> list[float]:
        phase = round(game_phase(self.variant, pos.board), 1)
        et = self.phases.get(phase)
        if et is None:
            et = self.phases[phase] = EvalTables(self.variant, phase, self.base)
        t = self.variant.tables
        out = [0.0] * len(self.columns)
        index = {name: i for i, name in enumerate(self.columns)}
        for sq, c in enumerate(pos.board):
            if not c:
                continue
            sign = -1 if t.letter[c].islower() else 1
            material, ahead, centre, king = et.terms(c, sq, phase, et.worth[c])
            if material:
                out[index[self.group[t.letter[c].upper()]]] += sign * material
            out[-3] += sign * ahead
            out[-2] += sign * centre
            out[-1] += sign * king
        return out


def positions(records: list[dict], features: Features,
              terms: bool = False) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(feature rows, White's points, game number) of the quiet positions of the games; with ``terms`` a row
    is the tables' evaluation followed by the dynamic terms' unit contributions."""
    rows, results, games = [], [], []
    for n, rec in enumerate(records):
        board = Board(features.variant)
        points = POINTS.get(rec["result"], 0.5)
        for i, uci in enumerate(rec["moves"]):
            board.push_uci(uci)
            if i + 1 >= rec["plies"] + 4 and features.quiet(board.position):
                row = features.row(board.position)
                rows.append([sum(row), *features.term_row(board.position)] if terms else row)
                results.append(points)
                games.append(n)
    return np.array(rows), np.array(results), np.array(games)


# -- fitting --------------------------------------------------------------------------------
def sigmoid(x):
    return 1 / (1 + np.exp(-x))


def loss(w, X, y, k: float, penalty: float) -> float:
    return float(np.mean((y - sigmoid(X @ w / k)) ** 2) + penalty * np.sum((w - 1) ** 2))


def fit_weights(X, y, k: float, penalty: float):
    ones = np.ones(X.shape[1])
    return minimize(loss, ones, args=(X, y, k, penalty), method="L-BFGS-B", bounds=[(0.5, 2.0)] * len(ones)).x


def fit_variant(name: str, records: list[dict], coarse: bool) -> dict:
    """The weights of one variant, and how well they predict the held-out games.  When no penalty's
    weights predict the held-out games better than the untuned evaluation, every weight stays 1."""
    variant = builtin(name)
    feats = Features(variant, coarse)
    X, y, games = positions(records, feats)
    ones = np.ones(X.shape[1])
    k = minimize_scalar(lambda k: loss(ones, X, y, k, 0.0), bounds=(50, 5000), method="bounded").x
    held = games % 2 == 1  # every other game held out to choose the penalty
    untuned = loss(ones, X[held], y[held], k, 0.0)
    scores = {p: loss(fit_weights(X[~held], y[~held], k, p), X[held], y[held], k, 0.0) for p in PENALTIES}
    penalty = min(scores, key=scores.__getitem__)
    w = fit_weights(X, y, k, penalty) if scores[penalty] < untuned else ones
    cols = feats.columns
    print(f"{name}: {len(records)} games, {len(y)} positions, K {k:.0f}, held-out error untuned {untuned:.5f}, "
          + ", ".join(f"penalty {p} {e:.5f}" for p, e in scores.items()) + "; weights "
          + " ".join(f"{c} {x:.2f}" for c, x in zip(cols, w)), flush=True)
    material = {letter: round(float(w[cols.index(g)]), 3) for letter, g in feats.group.items()}
    return {"fingerprint": fingerprint(variant), "material": material,
            "lookahead": round(float(w[-3]), 3), "centre": round(float(w[-2]), 3), "king": round(float(w[-1]), 3),
            "games": len(records), "positions": int(len(y)), "K": round(k, 1),
            "held_out_error": {"untuned": round(untuned, 5), **{str(p): round(e, 5) for p, e in scores.items()}}}


def term_loss(w, X, y, k: float, penalty: float, w0, scale) -> float:
    pred = sigmoid((X[:, 0] + X[:, 1:] @ w) / k)
    return float(np.mean((y - pred) ** 2) + penalty * np.sum(((w - w0) / scale) ** 2))


def fit_terms(name: str, records: list[dict], entry: dict, apply: bool) -> dict:
    """The dynamic terms' fit of one variant in ``entry`` (``terms_fit``); with ``apply`` its weights become the
    variant's ``terms`` when they predict held-out games better (use it once an SPRT confirms them)."""
    variant = builtin(name)
    feats = Features(variant)
    X, y, games = positions(records, feats, terms=True)
    w0 = np.array([float(TERMS[t]) for t in feats.terms])
    scale = np.maximum(np.abs(w0), 10.0)
    k = minimize_scalar(lambda k: term_loss(w0, X, y, k, 0.0, w0, scale), bounds=(50, 5000), method="bounded").x
    held = games % 2 == 1

    def fit(rows, penalty):  # in units of each weight's scale, so that every step matters to the optimiser
        def scaled(x):
            return term_loss(w0 + x * scale, X[rows], y[rows], k, penalty, w0, scale)
        x = minimize(scaled, np.zeros(len(w0)), method="L-BFGS-B", bounds=[(-10, 10)] * len(w0),
                     options={"ftol": 1e-12, "gtol": 1e-9}).x
        return w0 + x * scale
    default = term_loss(w0, X[held], y[held], k, 0.0, w0, scale)
    scores = {p: term_loss(fit(~held, p), X[held], y[held], k, 0.0, w0, scale) for p in PENALTIES}
    penalty = min(scores, key=scores.__getitem__)
    w = fit(np.ones(len(y), bool), penalty)
    before, after = term_loss(w0, X, y, k, 0.0, w0, scale), term_loss(w, X, y, k, 0.0, w0, scale)
    keep = apply and scores[penalty] < default
    print(f"{name}: {len(records)} games, {len(y)} positions, K {k:.0f}, error {before:.5f} -> {after:.5f}, "
          f"held-out {default:.5f} -> {scores[penalty]:.5f} (penalty {penalty}); "
          + " ".join(f"{t} {x:.0f}" for t, x in zip(feats.terms, w)) + ("; applied" if keep else ""), flush=True)
    entry = dict(entry)
    entry["terms_fit"] = {"games": len(records), "positions": int(len(y)), "K": round(k, 1),
                          "error": [round(before, 5), round(after, 5)],
                          "held_out_error": [round(default, 5), round(scores[penalty], 5)], "penalty": penalty,
                          "weights": {t: round(float(x), 1) for t, x in zip(feats.terms, w)}}
    if keep:
        entry["terms"] = entry["terms_fit"]["weights"]
    return entry


def run_fit(args) -> None:
    by_variant: dict[str, list] = {}
    for path in args.files:
        with open(path, encoding="utf-8") as f:
            for line in f:
                rec = json.loads(line)
                by_variant.setdefault(rec["variant"], []).append(rec)
    with open(args.out, encoding="utf-8") as f:
        tuned = json.load(f)
    for name in sorted(by_variant):
        if args.variants and name not in args.variants:
            continue
        if args.terms:
            tuned[name] = fit_terms(name, by_variant[name], tuned[name], args.apply)
        else:
            tuned[name] = {**tuned.get(name, {}), **fit_variant(name, by_variant[name], args.coarse)}
    with open(args.out, "w", encoding="utf-8") as f:
        json.dump(tuned, f, indent=1, sort_keys=True)
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
    g.add_argument("--out", default="selfplay.jsonl")
    f = sub.add_parser("fit", help="fit the weights and write them to tuned.json")
    f.add_argument("files", nargs="+")
    f.add_argument("--variants", nargs="+")
    f.add_argument("--coarse", action="store_true", help="one material multiplier for pawns, one for the other pieces")
    f.add_argument("--terms", action="store_true", help="fit the dynamic terms' weights instead")
    f.add_argument("--apply", action="store_true", help="with --terms: use the fitted weights where they predict "
                   "held-out games better")
    f.add_argument("--out", default=TUNED_PATH)
    args = ap.parse_args()
    (run_games if args.step == "games" else run_fit)(args)


if __name__ == "__main__":
    main()
