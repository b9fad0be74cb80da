"""The lab's report: text for the terminal, ``summary.json``, plots and one self-contained HTML page."""

from __future__ import annotations

import base64
import html
import json
from pathlib import Path

__all__ = ["text_report", "html_report", "write_report", "supported", "shown_values", "MIN_GAMES"]


def _pct(rate: dict) -> str:
    return f"{100 * rate['rate']:5.1f}%  ({100 * rate['low']:.1f}% to {100 * rate['high']:.1f}%)"


def _heading(s: dict) -> str:
    setup = "" if s["setup"] == "standard" else f", setup {s['setup']}"
    return (f"{s['variant']}: {s['games']} games of {s['player']} self-play ({s['opening_plies']} random opening "
            f"plies, seed {s['seed']}, move cap {s['max_plies']}{setup})")


MIN_GAMES = 50  # fewer games than this support no empirical piece value


def supported(value: list[int], games: int) -> bool:
    """Can ``games`` games support an empirical value ``[value, low, high]``: enough games, and a 95%
    interval above zero and no wider than the value itself (about +-50%)?"""
    v, low, high = value
    return games >= MIN_GAMES and low > 0 and high - low <= v


def shown_values(s: dict) -> dict[str, list[int]]:
    """The empirical values the summary's games support (the others are withheld)."""
    return {k: v for k, v in s["empirical_values"]["values"].items() if supported(v, s["games"])}


def _value_rows(s: dict) -> list[tuple[str, str, str]]:
    """(letter, empirical with interval or why it is withheld, computed) for every non-royal letter."""
    empirical = s["empirical_values"]["values"]
    rows = []
    for letter, computed in s["computed_values"].items():
        v = empirical.get(letter)
        if not v:
            text = "never unbalanced"
        elif supported(v, s["games"]):
            text = f"{v[0]} ({v[1]} to {v[2]})"
        else:
            text = f"withheld: 95% interval {v[1]} to {v[2]}"
        rows.append((letter, text, str(computed)))
    return rows


def _values_note(s: dict) -> str:
    """What the empirical values rest on, and when one is withheld."""
    ev = s["empirical_values"]
    note = (f"empirical from {ev['samples']} quiet positions of {s['games']} games (scaled to the computed "
            f"values' sum; 95% bootstrap interval), shown only where at least {MIN_GAMES} games give an "
            "interval above zero and no wider than the value")
    if s["games"] < MIN_GAMES:
        note += f"; {s['games']} games are too few for any"
    return note


def text_report(s: dict) -> str:
    """The report as plain text."""
    n, length = s["games"], s["length"]
    lines = [_heading(s),
             f"  White wins    {s['white']['count']:5}  {_pct(s['white'])}",
             f"  draws         {s['draw']['count']:5}  {_pct(s['draw'])}",
             f"  Black wins    {s['black']['count']:5}  {_pct(s['black'])}",
             f"  White's score        {_pct(s['white_score'])}   (95% Wilson intervals)",
             "Endings: " + ", ".join(f"{k} {v} ({100 * v / n:.0f}%)" for k, v in s["terminations"].items()),
             f"Length in plies: mean {length['mean']:.1f}, median {length['median']:g}, quartiles "
             f"{length['q1']:g} to {length['q3']:g}, range {length['min']} to {length['max']}",
             "First moves (games, White's score): " + ", ".join(
                 f"{m['move']} {m['games']} {100 * m['white_score']:.0f}%" for m in s["first_moves"])]
    for kind in ("morphs", "transformations", "promotions"):
        if s[kind]:
            lines.append(f"{kind.capitalize()} per game: " + ", ".join(f"{k} {v:.2f}" for k, v in s[kind].items()))
    lines.append(f"Piece values in centipawns, computed by the engine and {_values_note(s)}")
    lines += [f"  {letter:3} {emp:40} {comp:>6}" for letter, emp, comp in _value_rows(s)]
    return "\n".join(lines) + "\n"


def _table(rows: list[tuple], head: tuple) -> str:
    cells = "".join(f"<th>{html.escape(h)}</th>" for h in head)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(str(c))}</td>" for c in row) + "</tr>" for row in rows)
    return f"<table><tr>{cells}</tr>{body}</table>"


def html_report(s: dict, pictures: dict[str, Path]) -> str:
    """One HTML page with the figures and the pictures embedded as data URIs."""
    images = "".join(f'<img alt="{name}" src="data:image/svg+xml;base64,'
                     f'{base64.b64encode(path.read_bytes()).decode()}">' for name, path in pictures.items())
    results = _table([(k, s[key]["count"], f"{100 * s[key]['rate']:.1f}%",
                       f"{100 * s[key]['low']:.1f}% to {100 * s[key]['high']:.1f}%")
                      for k, key in (("White wins", "white"), ("draws", "draw"), ("Black wins", "black"),
                                     ("White's score", "white_score"))], ("", "games", "rate", "95% interval"))
    endings = _table([(k, v) for k, v in s["terminations"].items()], ("ending", "games"))
    firsts = _table([(m["move"], m["games"], f"{100 * m['white_score']:.0f}%") for m in s["first_moves"]],
                    ("first move", "games", "White's score"))
    values = _table(_value_rows(s), ("piece", "empirical (95% interval)", "computed"))
    length = s["length"]
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>morphchess lab: {html.escape(s['variant'])}</title>
<style>body{{font-family:sans-serif;max-width:1100px;margin:1em auto}}table{{border-collapse:collapse;margin:.5em 0}}
td,th{{border:1px solid #ccc;padding:2px 8px;text-align:right}}img{{width:49%;min-width:420px}}</style></head>
<body><h1>morphchess lab: {html.escape(s['variant'])}</h1><p>{html.escape(_heading(s))}</p>
{results}<p>Length in plies: mean {length['mean']:.1f}, median {length['median']:g}, quartiles {length['q1']:g}
to {length['q3']:g}, range {length['min']} to {length['max']}.</p>
<div>{images}</div><h2>Endings</h2>{endings}<h2>First moves</h2>{firsts}
<h2>Piece values (centipawns)</h2><p>Empirical: logistic regression of the result on the material balance,
{html.escape(_values_note(s))}; the interval is a bootstrap over games.</p>{values}
</body></html>
"""


def write_report(summary: dict, records: list[dict], out: str | Path) -> Path:
    """Write ``summary.json``, ``report.txt``, the plots and ``report.html`` into ``out``; return the page."""
    from .plots import make_plots
    out = Path(out)
    (out / "summary.json").write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")
    (out / "report.txt").write_text(text_report(summary), encoding="utf-8")
    page = out / "report.html"
    plotted = {**summary, "empirical_values": {**summary["empirical_values"], "values": shown_values(summary)}}
    page.write_text(html_report(summary, make_plots(plotted, records, out / "plots")), encoding="utf-8")
    return page
