"""Empirical piece values: a logistic regression of the game's result on the material balance.

Every material sample of a game (White's minus Black's count of each letter,
weighted by the plies it lasted) is one observation of the game's result for
White (1, ½ or 0).  The fitted coefficients, in logits per piece, are turned into
centipawns with one scale: the one that gives them the same sum as the engine's
computed values of the same pieces (so the two sets compare piece by piece; no
single piece, not even the pawn, which morphs in most of these games, is the
yardstick).  Intervals come from refitting on games drawn with replacement.
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
    return np.array(rows, float).reshape(len(rows), len(letters)), np.array(ys), np.array(ws, float), np.array(games)


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


def _scale(beta: np.ndarray, computed: np.ndarray) -> float | None:
    """Centipawns per logit, or None when the coefficients do not add up to a positive value."""
    total = float(beta.sum())
    return float(computed.sum()) / total if total > 1e-9 else None


def empirical_values(records: list[dict], computed: dict[str, int], resamples: int = 200, seed: int = 0) -> dict:
    """Values in centipawns with 95% bootstrap intervals, for the letters that were ever unbalanced.

    Returns ``{"values": {letter: [value, low, high]}, "logits": {letter: coefficient},
    "samples": plies sampled, "white_edge": the intercept}``; letters never
    unbalanced are left out, and values are empty when the fit is degenerate.
    """
    letters = [letter for letter in computed if any(diff.get(letter) for r in records for diff, _ in r["material"])]
    x, y, w, games = _design(records, letters)
    result: dict = {"values": {}, "logits": {}, "samples": int(w.sum()), "white_edge": 0.0}
    if not letters:
        return result
    target = np.array([computed[letter] for letter in letters], float)
    beta = _fit(x, y, w)
    result["logits"] = {letter: round(float(b), 3) for letter, b in zip(letters, beta[1:])}
    result["white_edge"] = round(float(beta[0]), 3)
    scale = _scale(beta[1:], target)
    if scale is None:
        return result
    rng = np.random.default_rng(seed)
    boots = []
    for _ in range(resamples):
        pick = np.bincount(rng.integers(0, len(records), len(records)), minlength=len(records))[games]
        b = _fit(x, y, w * pick)[1:]
        s = _scale(b, target)
        if s is not None:  # a letter never unbalanced in this resample says nothing about its value
            boots.append(np.where((x != 0).T @ (w * pick) > 0, b * s, np.nan))
    with np.errstate(all="ignore"):
        low, high = np.nanpercentile(np.array(boots), [2.5, 97.5], axis=0) if boots else (beta[1:] * scale,) * 2
    low, high = np.where(np.isnan(low), beta[1:] * scale, low), np.where(np.isnan(high), beta[1:] * scale, high)
    result["values"] = {letter: [round(float(beta[i + 1] * scale)), round(float(low[i])), round(float(high[i]))]
                        for i, letter in enumerate(letters)}
    return result
