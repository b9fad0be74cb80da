"""Two labs side by side: the differences of their figures and how significant they are."""

from __future__ import annotations

import math

from scipy import stats as sps

from .stats import SCORE

__all__ = ["two_proportions", "compare", "compare_text", "values_text"]


def two_proportions(k1: float, n1: int, k2: float, n2: int) -> float:
    """Two-sided p-value of the pooled two-proportion z-test of ``k1/n1`` against ``k2/n2``."""
    pooled = (k1 + k2) / (n1 + n2)
    se = math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2))
    if se == 0:
        return 1.0
    return float(2 * sps.norm.sf(abs(k1 / n1 - k2 / n2) / se))


def compare(a: list[dict], b: list[dict]) -> list[dict]:
    """Rows ``{figure, a, b, difference, test, p}`` for White's score, the draw rate and the length."""
    rows = []
    for figure, points in (("White's score", lambda r: SCORE[r["result"]]),
                           ("draw rate", lambda r: float(r["result"] == "1/2-1/2"))):
        ka, kb = sum(map(points, a)), sum(map(points, b))
        rows.append({"figure": figure, "a": ka / len(a), "b": kb / len(b), "difference": kb / len(b) - ka / len(a),
                     "test": "two-proportion z", "p": two_proportions(ka, len(a), kb, len(b))})
    la, lb = [r["length"] for r in a], [r["length"] for r in b]
    same = len(set(la + lb)) == 1
    rows.append({"figure": "mean length (plies)", "a": sum(la) / len(la), "b": sum(lb) / len(lb),
                 "difference": sum(lb) / len(lb) - sum(la) / len(la), "test": "Mann-Whitney U",
                 "p": 1.0 if same else float(sps.mannwhitneyu(la, lb, alternative="two-sided").pvalue)})
    return rows


def compare_text(name_a: str, name_b: str, a: list[dict], b: list[dict], rows: list[dict]) -> str:
    """The comparison as a table; ``*`` marks p < 0.05, ``**`` p < 0.01."""
    lines = [f"A = {name_a} ({len(a)} games), B = {name_b} ({len(b)} games)",
             f"{'figure':22} {'A':>8} {'B':>8} {'B - A':>8}  {'test':18} {'p':>8}"]
    for r in rows:
        pct = "length" not in r["figure"]
        fmt = (lambda x: f"{100 * x:7.1f}%") if pct else (lambda x: f"{x:8.1f}")
        mark = "**" if r["p"] < 0.01 else "*" if r["p"] < 0.05 else ""
        lines.append(f"{r['figure']:22} {fmt(r['a'])} {fmt(r['b'])} {fmt(r['difference'])}  {r['test']:18} "
                     f"{r['p']:8.4f} {mark}")
    lines.append("* p < 0.05, ** p < 0.01 (two-sided)")
    return "\n".join(lines) + "\n"


def values_text(a: dict, b: dict) -> str:
    """Piece values of two summaries side by side: empirical (95% interval) and computed."""
    def cell(s: dict, letter: str) -> str:
        v = s["empirical_values"]["values"].get(letter)
        return f"{v[0]} ({v[1]} to {v[2]})" if v else "-"

    lines = [f"{'piece':6} {'A empirical':22} {'B empirical':22} {'A computed':>10} {'B computed':>10}"]
    for letter in dict.fromkeys([*a["computed_values"], *b["computed_values"]]):
        lines.append(f"{letter:6} {cell(a, letter):22} {cell(b, letter):22} "
                     f"{a['computed_values'].get(letter, '-'):>10} {b['computed_values'].get(letter, '-'):>10}")
    return "\n".join(lines) + "\n"
