"""Ratings over HTTP: a variant's leaderboard (``GET /api/leaderboard/{variant}``, the page
``/leaderboard/{variant}``) and the variants that have one (``/api/leaderboard``, ``/leaderboard``).

Each answer is bounded before any work: a page of :data:`~morphchess.web.rated.PAGE_SIZE` players, at
most :data:`~morphchess.web.rated.MAX_PAGE` pages, a variant key of at most 40 characters.  The pages are
plain HTML in which every name and title is escaped.
"""

from __future__ import annotations

import math
from html import escape
from urllib.parse import quote

from fastapi import APIRouter, Path, Query, Request
from fastapi.responses import HTMLResponse

from ..db import now
from ..errors import NotFound
from ..rated import MAX_PAGE, PAGE_SIZE, Rater

__all__ = ["router"]

router = APIRouter()
Variant = Path(..., max_length=40, description="a built-in variant's name or a pasted definition's key")
Page = Query(1, ge=1, le=MAX_PAGE, description=f"the page, from 1 ({PAGE_SIZE} players each, at most {MAX_PAGE})")


def _rater(request: Request) -> Rater:
    return request.app.state.rater


def board_of(request: Request, variant: str, page: int) -> dict:
    """A page of a variant's leaderboard (NotFound for an unknown variant, or a page past its last)."""
    title = request.app.state.store.catalog.titles({variant}).get(variant)
    if title is None:
        raise NotFound(f"unknown variant {variant[:40]!r}")
    total, ranking = _rater(request).board(variant, page, now())
    pages = max(1, math.ceil(total / PAGE_SIZE))
    if page > pages:
        raise NotFound(f"page {page}: the leaderboard of {variant!r} has {pages} page(s)")
    return {"variant": variant, "title": title, "page": page, "pages": min(pages, MAX_PAGE), "players": total,
            "ranking": ranking}


def variants_of(request: Request) -> list[dict]:
    """The variants with a leaderboard, the most rated first, with their titles."""
    found = _rater(request).variants()
    titles = request.app.state.store.catalog.titles({v["variant"] for v in found})
    return [{**v, "title": titles.get(v["variant"], v["variant"]), "leaderboard": _link(v["variant"])}
            for v in found]


@router.get("/api/leaderboard", summary="the variants with rated players (the most rated first, at most 100)")
def leaderboards(request: Request):
    return {"variants": variants_of(request)}


@router.get("/api/leaderboard/{variant}", summary="a variant's leaderboard, best first: rank, name, rating "
            "(provisional while the deviation is high), games")
def leaderboard(request: Request, variant: str = Variant, page: int = Page):
    return board_of(request, variant, page)


@router.get("/leaderboard", include_in_schema=False, response_class=HTMLResponse)
def leaderboards_page(request: Request):
    items = "".join(f'<li><a href="{escape(v["leaderboard"])}">{escape(v["title"])}</a> · {v["players"]} '
                    f'player{"" if v["players"] == 1 else "s"}</li>' for v in variants_of(request))
    return _page("Leaderboards", f"<ul id=\"leaderboards\">{items or '<li>No rated games yet.</li>'}</ul>")


@router.get("/leaderboard/{variant}", include_in_schema=False, response_class=HTMLResponse)
def leaderboard_page(request: Request, variant: str = Variant, page: int = Page):
    board = board_of(request, variant, page)
    rows = "".join(f'<tr><td>{p["rank"]}</td><td><a href="/players/{quote(p["name"])}">{escape(p["name"])}</a></td>'
                   f'<td>{p["rating"]}{"?" if p["provisional"] else ""}</td><td>{p["games"]}</td></tr>'
                   for p in board["ranking"])
    table = ('<table id="ranking"><thead><tr><th>#</th><th>player</th><th>rating</th><th>games</th></tr></thead>'
             f'<tbody>{rows or "<tr><td colspan=4>No rated games yet.</td></tr>"}</tbody></table>')
    facts = (f'<p>{board["players"]} rated player{"" if board["players"] == 1 else "s"}; a ? marks a provisional '
             'rating (few games yet).</p>')
    return _page(f"{board['title']}: leaderboard", facts + table + _pages(variant, page, board["pages"]))


def _link(variant: str, page: int = 1) -> str:
    return f"/leaderboard/{quote(variant)}" + (f"?page={page}" if page > 1 else "")


def _pages(variant: str, page: int, pages: int) -> str:
    links = [f'<a rel="prev" href="{escape(_link(variant, page - 1))}">previous</a>'] if page > 1 else []
    links += [f'page {page} of {pages}']
    links += [f'<a rel="next" href="{escape(_link(variant, page + 1))}">next</a>'] if page < pages else []
    return f'<nav aria-label="pages">{" · ".join(links)}</nav>'


def _page(heading: str, body: str) -> str:
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>{escape(heading)} · morphchess</title><link rel="icon" href="/static/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/static/style.css"></head>
<body class="leaderboard"><header><h1>morphchess</h1>
<nav aria-label="site"><a href="/">New game</a> <a href="/lobby">Lobby</a> <a href="/leaderboard">Leaderboards</a></nav>
</header><main><h2>{escape(heading)}</h2>{body}</main></body></html>"""
