"""Empirical piece values: a logistic regression of the game's result on the material balance.

Every material sample of a game (White's minus Black's count of each letter,
weighted by the plies it lasted) is one observation of the game's result for
White (1, ½ or 0).  The fitted coefficients, in logits per piece, are turned into
centipawns by anchoring the pawn at the engine's computed pawn value (or, in a
game without a pawn, by the least-squares scale onto the computed values).
Intervals come from refitting on games drawn with replacement.
"""

from __future__ import annotations

import numpy as np
from scipy.optimize import minimize

__all__ = ["empirical_values"]

RIDGE = 1.0  # a small penalty keeps rarely-unbalanced pieces finite


def _design(records: list[dict], letters: list[str]) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Rows of differences, the result of each row, its weight and the game it comes from."""
    column = {letter: i for i, letter in enumerate(letters)}
    rows, ys, ws, games = [], [], [], []
    for g, record in enumerate(records):
        y = {"1-0": 1.0, "0-1": 0.0}.get(record["result"], 0.5)
        for diff, plies in record["material"]:
            row = np.zeros(len(letters))
            for letter, d in diff.items():
                if letter in column:
                    row[column[letter]] = d
            rows.append(row)
            ys.append(y)
            ws.append(plies)
            games.append(g)
    return np.array(rows).reshape(-1, len(letters)), np.array(ys), np.array(ws, float), np.array(games)


def _fit(x: np.ndarray, y: np.ndarray, w: np.ndarray) -> np.ndarray:
    """Intercept and coefficients maximising the weighted likelihood (fractional results allowed)."""
    xi = np.hstack([np.ones((len(x), 1)), x])

    def loss(beta: np.ndarray) -> tuple[float, np.ndarray]:
        z = xi @ beta
        p = 1 / (1 + np.exp(-z))
        nll = np.sum(w * (np.logaddexp(0, z) - y * z)) + RIDGE * beta[1:] @ beta[1:]
        grad = xi.T @ (w * (p - y))
        grad[1:] += 2 * RIDGE * beta[1:]
        return nll, grad

    return minimize(loss, np.zeros(xi.shape[1]), jac=True, method="L-BFGS-B").x


def _scale(beta: np.ndarray, letters: list[str], computed: dict[str, int], pawn: str | None) -> float:
    """Centipawns per logit."""
    if pawn in letters and beta[letters.index(pawn)] > 1e-6:
        return computed[pawn] / beta[letters.index(pawn)]
    c = np.array([computed[letter] for letter in letters], float)
    return max(float(beta @ c) / float(beta @ beta), 0.0) if beta @ beta > 0 else 0.0


def empirical_values(records: list[dict], computed: dict[str, int], pawn: str | None,
                     resamples: int = 200, seed: int = 0) -> dict:
    """Values in centipawns with 95% bootstrap intervals, for the letters that were ever unbalanced.

    Returns ``{"values": {letter: [value, low, high]}, "anchor": ..., "samples": n,
    "white_edge": logit of the intercept}``; letters never unbalanced are left out.
    """
    letters = [letter for letter in computed if any(diff.get(letter) for r in records for diff, _ in r["material"])]
    x, y, w, games = _design(records, letters)
    result = {"values": {}, "anchor": "pawn" if pawn in letters else "least squares",
              "samples": int(w.sum()), "white_edge": 0.0}
    if not letters or not len(x):
        return result
    beta = _fit(x, y, w)
    scale = _scale(beta[1:], letters, computed, pawn)
    rng = np.random.default_rng(seed)
    boots = []
    for _ in range(resamples):
        pick = np.bincount(rng.integers(0, len(records), len(records)), minlength=len(records))[games]
        b = _fit(x, y, w * pick)
        boots.append(b[1:] * _scale(b[1:], letters, computed, pawn))
    low, high = np.percentile(np.array(boots), [2.5, 97.5], axis=0)
    result["values"] = {letter: [round(float(beta[i + 1] * scale)), round(float(low[i])), round(float(high[i]))]
                        for i, letter in enumerate(letters)}
    result["white_edge"] = round(float(beta[0]), 3)
    return result
