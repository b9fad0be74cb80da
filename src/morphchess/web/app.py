"""The web board's HTTP server: a FastAPI app with a JSON API, the page and the lobby.

All rules are decided here; the page only draws what the API says.  Games live
in a database (SQLite or PostgreSQL); see docs/web.md for the API and the one
error shape, ``{"error": {"code": ..., "message": ...}}``.
"""

from __future__ import annotations

import os
from collections import OrderedDict
from contextlib import asynccontextmanager
from importlib import resources

from fastapi import FastAPI, Query, Request
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import FileResponse, HTMLResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field

from .. import engine, library
from . import errors
from .bots import Bots
from .catalog import Catalog, describe
from .db import Database, default_url
from .events import Notifier
from .lab import router as lab_router
from .lobby import lobby_page
from .routes_games import lobby_lists
from .routes_games import router as games_router
from .store import Store
from .views import variant_view

__all__ = ["create_app", "app_from_env"]

VIEW_CACHE = 32  # variant views kept per process


class Definition(BaseModel):
    definition: str = Field(..., description="Interactive Diagram definition text")


def _swagger_assets() -> str:
    """The folder of the Swagger UI scripts shipped by the swagger-ui-bundle package."""
    import swagger_ui_bundle
    return swagger_ui_bundle.swagger_ui_path


def create_app(db_url: str | None = None, games_per_minute: int = 60) -> FastAPI:
    """The web board application on the database ``db_url`` (default: the SQLite file in the user's
    data directory); ``morphchess serve`` runs it with uvicorn."""
    db = Database(db_url or default_url())
    catalog = Catalog(db)
    store = Store(db, catalog, games_per_minute)
    notifier = Notifier()
    store.listeners.append(notifier.changed)
    db.listen(notifier.changed)  # changes made by other processes (PostgreSQL)
    bots = Bots(store)

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        bots.sweep()  # engine seats left to move by a stopped server
        yield
        db.dispose()

    app = FastAPI(title="morphchess", description=__doc__, version="0.1.0", docs_url=None, redoc_url=None,
                  lifespan=lifespan)
    app.state.store, app.state.bots, app.state.notifier, app.state.catalog = store, bots, notifier, catalog
    errors.install(app)
    app.add_middleware(errors.BodyLimit)
    static = resources.files(__package__).joinpath("static")
    app.mount("/static", StaticFiles(directory=str(static)), name="static")
    app.mount("/docs-assets", StaticFiles(directory=_swagger_assets()), name="docs-assets")
    app.include_router(games_router)
    app.include_router(lab_router)
    _add_variants(app, catalog)
    _add_pages(app, str(static.joinpath("index.html")))
    return app


def app_from_env() -> FastAPI:
    """The app on the database named by $MORPHCHESS_DB (for ``uvicorn --factory --workers N``)."""
    return create_app(os.environ.get("MORPHCHESS_DB"), int(os.environ.get("MORPHCHESS_GAMES_PER_MINUTE", "60")))


def _add_variants(app: FastAPI, catalog: Catalog) -> None:
    views: OrderedDict[str, dict] = OrderedDict()

    def view_of(key: str) -> dict:
        if key not in views:
            v = catalog.get(key)
            views[key] = {**variant_view(key, v), **describe(v), "builtin": key in catalog.builtin_keys()}
            while len(views) > VIEW_CACHE:
                views.popitem(last=False)
        return views[key]

    @app.get("/api/levels", summary="the engine's strength levels and their search limits")
    def levels():
        out = []
        for level in range(1, 9):
            limits = engine.level_limits(level)
            text = (f"{limits['depth']} ply" if "depth" in limits
                    else f"{limits['movetime_ms'] / 1000:g} s a move")
            out.append({"level": level, "limits": limits, "text": text})
        return out

    @app.get("/api/variants", summary="every variant: built-in ones, then pasted definitions (newest first); "
             "search= keeps those that fit every word (name, title, inventor, board size such as 10x8, "
             "feature such as drops, morphs, hoppers)")
    def list_variants(search: str = Query("", max_length=library.MAX_QUERY)):
        found = {e.name: e for e in library.search(search)}
        built = [{"key": k, **describe(v), "files": v.files, "ranks": v.ranks, "setups": list(v.setups),
                  "features": list(found[k].features), "fairy_name": found[k].fairy_name, "builtin": True}
                 for k, v in ((k, catalog.get(k)) for k in catalog.builtin_keys() if k in found)]
        words = search.lower().split()
        return built + [{**d, "builtin": False} for d in catalog.pasted()
                        if all(w in f"{d['title']} {d['author']} {d['files']}x{d['ranks']}".lower() for w in words)]

    @app.get("/api/variants/{key}", summary="a variant: pieces (SVG, XBetza, move diagram, morph table), rules")
    def get_variant(key: str):
        return view_of(key)

    @app.post("/api/variants", summary="store a pasted definition; the answer's key names it in new games")
    def post_variant(body: Definition):
        return view_of(catalog.add(body.definition))


def _add_pages(app: FastAPI, index: str) -> None:
    @app.get("/", include_in_schema=False)
    def home():
        return FileResponse(index)

    @app.get("/game/{gid}", include_in_schema=False)
    def game_page(gid: str):
        return FileResponse(index)

    @app.get("/lobby", include_in_schema=False, response_class=HTMLResponse)
    def lobby(request: Request):
        return lobby_page(lobby_lists(request.app.state.store))

    @app.get("/docs", include_in_schema=False)
    def docs():
        return get_swagger_ui_html(openapi_url="/openapi.json", title="morphchess API",
                                   swagger_js_url="/docs-assets/swagger-ui-bundle.js",
                                   swagger_css_url="/docs-assets/swagger-ui.css",
                                   swagger_favicon_url="/docs-assets/favicon-32x32.png")
