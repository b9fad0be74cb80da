"""The report's pictures (matplotlib): results with intervals, lengths, piece values, changes of type."""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

__all__ = ["make_plots"]

COLOURS = {"White": "#f0e6c8", "draw": "#9aa5b1", "Black": "#3b3b3b", "White's score": "#c8a860"}


def _results(ax, s: dict) -> None:
    labels = ["White", "draw", "Black", "White's score"]
    rates = [s["white"], s["draw"], s["black"], s["white_score"]]
    heights = [100 * r["rate"] for r in rates]
    errors = [[100 * (r["rate"] - r["low"]) for r in rates], [100 * (r["high"] - r["rate"]) for r in rates]]
    ax.bar(labels, heights, yerr=errors, capsize=6, color=[COLOURS[k] for k in labels], edgecolor="black")
    ax.axhline(50, color="grey", linewidth=0.8, linestyle=":")
    ax.set_ylabel("% of games (95% Wilson interval)")
    ax.set_ylim(0, 100)
    ax.set_title(f"{s['variant']}: results of {s['games']} games")


def _lengths(ax, s: dict, records: list[dict]) -> None:
    kinds = list(s["terminations"])
    data = [[r["length"] for r in records if r["termination"] == k] for k in kinds]
    ax.hist(data, bins=min(30, max(5, s["games"] // 5)), stacked=True, label=kinds, edgecolor="white")
    ax.axvline(s["length"]["mean"], color="black", linestyle="--", label=f"mean {s['length']['mean']:.0f}")
    ax.set_xlabel("game length (plies)")
    ax.set_ylabel("games")
    ax.legend(fontsize="small")
    ax.set_title("Game length by ending")


def _values(ax, s: dict) -> None:
    empirical = s["empirical_values"]["values"]
    letters = list(s["computed_values"])
    xs = range(len(letters))
    ax.bar([x - 0.2 for x in xs], [s["computed_values"][k] for k in letters], width=0.4, label="computed (engine)",
           color="#7a9cc6")
    have = [(x, empirical[k]) for x, k in zip(xs, letters) if k in empirical]
    if have:
        ax.bar([x + 0.2 for x, _ in have], [v[0] for _, v in have], width=0.4, label="empirical (games)",
               color="#d98c5f",
               yerr=[[max(0, v[0] - v[1]) for _, v in have], [max(0, v[2] - v[0]) for _, v in have]], capsize=4)
    ax.set_xticks(list(xs), letters)
    ax.set_ylabel("centipawns")
    ax.legend(fontsize="small")
    ax.set_title("Piece values (empirical: same sum as computed; 95% bootstrap interval)")


def _changes(ax, s: dict, top: int = 20) -> None:
    rows = [(f"{k.replace('>', ' → ')} ({kind[:-1]})", v)
            for kind in ("morphs", "transformations", "promotions") for k, v in s[kind].items()]
    rows = sorted(rows, key=lambda r: -r[1])[:top][::-1]
    if rows:
        ax.barh([r[0] for r in rows], [r[1] for r in rows], color="#8fb996")
    else:
        ax.text(0.5, 0.5, "no piece changed type", ha="center", va="center", transform=ax.transAxes)
    ax.set_xlabel("times per game")
    ax.set_title("Morphs, transformations, promotions")


def make_plots(summary: dict, records: list[dict], out: str | Path) -> dict[str, Path]:
    """Draw the four pictures into ``out`` as PNG and SVG; returns name -> SVG path."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    drawn = {"results": lambda ax: _results(ax, summary), "lengths": lambda ax: _lengths(ax, summary, records),
             "values": lambda ax: _values(ax, summary), "changes": lambda ax: _changes(ax, summary)}
    paths = {}
    for name, draw in drawn.items():
        fig, ax = plt.subplots(figsize=(7, 4.2), layout="constrained")
        draw(ax)
        for ext in ("png", "svg"):
            fig.savefig(out / f"{name}.{ext}", dpi=110)
        plt.close(fig)
        paths[name] = out / f"{name}.svg"
    return paths
