"""The lobby: open seeks to accept, games to watch, finished games with their records (plain HTML), and
which open seeks it lists: the newest, at most :data:`SEEKS_PER_CLIENT` of one client, so that no
client's seeks push everyone else's out of the list."""

from __future__ import annotations

from html import escape

from sqlalchemy import func, select

from .db import Database, games
from .game import Status

__all__ = ["lobby_page", "open_seeks", "SEEKS_PER_CLIENT"]

SEEKS_PER_CLIENT = 3  # open seeks of one client the lobby lists (its newest)

_HEADINGS = {"open": "Open seeks", "playing": "Games being played", "finished": "Finished games"}


def _players(game: dict) -> str:
    names = []
    for side in ("white", "black"):
        if game["players"][side] == "engine":
            names.append("engine")
        else:
            names.append((game["names"][side] or "?") + _rating(game, side))
    return escape(" vs ".join(names))


def _rating(game: dict, side: str) -> str:
    """A rated game's player's rating, as `` (1500?)`` (``?``: provisional); empty for a casual game."""
    shown = (game["ratings"] or {}).get(side)
    return f" ({shown['rating']}{'?' if shown['provisional'] else ''})" if shown else ""


def _row(kind: str, game: dict) -> str:
    time = (game["time_control"] or "untimed") + (", rated" if game["rated"] else "")
    cells = [escape(game["title"]), _players(game), escape(time), str(game["moves"])]
    if kind == "open":
        link = (f'<button type="button" class="accept" data-game="{escape(game["id"])}">Accept</button> '
                f'<a href="{escape(game["watch"])}">view</a>')
    elif kind == "playing":
        link = f'<a href="{escape(game["watch"])}">watch</a>'
    else:
        cells.append(escape(f'{game["result"]} ({game["termination"]})'))
        link = (f'<a href="{escape(game["watch"])}">view</a> <a href="{escape(game["pgn"])}">PGN</a> '
                f'<a href="{escape(game["gc"])}">GC log</a>')
    return "<tr>" + "".join(f"<td>{c}</td>" for c in cells) + f"<td>{link}</td></tr>"


def _table(kind: str, rows: list[dict]) -> str:
    head = ["variant", "players", "time", "moves"] + (["result"] if kind == "finished" else []) + [""]
    body = "".join(_row(kind, g) for g in rows) or f'<tr><td colspan="{len(head)}">none</td></tr>'
    return (f'<section id="{kind}"><h2>{_HEADINGS[kind]}</h2><table><thead><tr>'
            + "".join(f"<th>{h}</th>" for h in head) + f"</tr></thead><tbody>{body}</tbody></table></section>")


def lobby_page(lists: dict[str, list[dict]]) -> str:
    """The lobby as one HTML page (the JSON behind it: ``GET /api/lobby``)."""
    tables = "".join(_table(kind, lists[kind]) for kind in _HEADINGS)
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>morphchess lobby</title><link rel="icon" href="/static/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/static/style.css"></head>
<body class="lobby"><header><h1>morphchess lobby</h1>
<nav aria-label="site"><a href="/">New game</a> <a href="/leaderboard">Leaderboards</a>
<a href="/tournaments">Tournaments</a>
<a href="/docs" target="_blank">API</a></nav></header>
<main><p><label>Your name <input id="name" maxlength="40"></label></p>
<p id="lobby-error" role="alert"></p>{tables}</main><script src="/static/js/lobby.js"></script></body></html>"""


def open_seeks(db: Database, limit: int = 50) -> list[dict]:
    """The open seeks the lobby lists, newest first: each client's :data:`SEEKS_PER_CLIENT` newest."""
    rank = func.row_number().over(partition_by=games.c.creator, order_by=games.c.updated.desc()).label("rank")
    newest = select(games, rank).where(games.c.status == str(Status.OPEN)).subquery()
    query = (select(*[newest.c[c.name] for c in games.columns]).where(newest.c.rank <= SEEKS_PER_CLIENT)
             .order_by(newest.c.updated.desc()).limit(limit))
    with db.read() as conn:
        return [dict(r) for r in conn.execute(query).mappings()]
