"""The lab's figures from a list of game records: results with intervals, endings, lengths,
first moves, changes of type and piece values."""

from __future__ import annotations

import math
import statistics
from collections import Counter

from ..engine import piece_values
from .selfplay import LabSettings, variant_of
from .values import empirical_values

__all__ = ["wilson", "summarize", "SCORE"]

SCORE = {"1-0": 1.0, "1/2-1/2": 0.5, "0-1": 0.0}
Z95 = 1.959964


def wilson(k: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion ``k / n`` (``k`` may count draws as halves)."""
    if n == 0:
        return 0.0, 1.0
    p = k / n
    centre = p + z * z / (2 * n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return max(0.0, (centre - half) / (1 + z * z / n)), min(1.0, (centre + half) / (1 + z * z / n))


def _rate(k: float, n: int) -> dict:
    low, high = wilson(k, n)
    return {"count": k, "rate": k / n if n else 0.0, "low": low, "high": high}


def _lengths(lengths: list[int]) -> dict:
    q = statistics.quantiles(lengths, n=4) if len(lengths) > 1 else [lengths[0]] * 3
    return {"mean": statistics.fmean(lengths), "median": statistics.median(lengths), "q1": q[0], "q3": q[2],
            "min": min(lengths), "max": max(lengths), "all": lengths}


def _first_moves(records: list[dict], top: int = 10) -> list[dict]:
    """The most played first moves with White's score after them."""
    by_move: dict[str, list[float]] = {}
    for r in records:
        if r["san"]:
            by_move.setdefault(r["san"][0], []).append(SCORE[r["result"]])
    ranked = sorted(by_move.items(), key=lambda item: (-len(item[1]), item[0]))[:top]
    return [{"move": m, "games": len(s), "white_score": sum(s) / len(s)} for m, s in ranked]


def _changes(records: list[dict], kind: str) -> dict[str, float]:
    """Mean number per game of each change of type (``P>Z``) of one kind, most frequent first."""
    total: Counter = Counter()
    for r in records:
        total.update(r[kind])
    return {k: v / len(records) for k, v in total.most_common()}


def summarize(records: list[dict], settings: LabSettings, resamples: int = 200) -> dict:
    """Every figure of the report, as plain data (JSON can hold it)."""
    if not records:
        raise ValueError("no games to summarize")
    n = len(records)
    results = Counter(r["result"] for r in records)
    variant = variant_of(settings.name, settings.text)
    computed = {t.letter: v for t in variant.types if not t.royal for v in [piece_values(variant)[t.letter]]}
    return {
        "variant": settings.name, "player": settings.player, "opening_plies": settings.opening_plies,
        "seed": settings.seed, "setup": settings.setup, "max_plies": settings.max_plies, "games": n,
        "white": _rate(results["1-0"], n), "draw": _rate(results["1/2-1/2"], n), "black": _rate(results["0-1"], n),
        "white_score": _rate(results["1-0"] + results["1/2-1/2"] / 2, n),
        "terminations": dict(Counter(r["termination"] for r in records).most_common()),
        "length": _lengths([r["length"] for r in records]),
        "first_moves": _first_moves(records),
        "morphs": _changes(records, "morphs"), "transformations": _changes(records, "transformations"),
        "promotions": _changes(records, "promotions"),
        "computed_values": computed,
        "empirical_values": empirical_values(records, computed, resamples),
    }
