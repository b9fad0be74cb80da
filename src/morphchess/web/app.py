"""The web board's HTTP server: a FastAPI app with a JSON API, the page and the lobby.

All rules are decided here; the page only draws what the API says.  Games live
in a database (SQLite or PostgreSQL); see docs/web.md for the API and the one
error shape, ``{"error": {"code": ..., "message": ...}}``.
"""

from __future__ import annotations

import os
import sys
from collections import OrderedDict
from contextlib import asynccontextmanager
from importlib import resources

from fastapi import FastAPI, Query, Request
from fastapi.responses import FileResponse, HTMLResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field

from .. import library
from . import apidocs, errors
from .access import AccessLog, log_to_stderr
from .accounts import Accounts, CsrfGuard
from .awaiting import Awaiting
from .bots import Bots, search_limits
from .caches import MB
from .catalog import Catalog, describe
from .db import Database, default_url
from .errors import Unavailable
from .events import Hub, Notifier, ended_on_signals
from .headers import SecurityHeaders
from .labs import Labs
from .limits import MAX_DEFINITION, Limits, RateLimiter, check
from .lobby import lobby_page
from .mail import Mailer, Smtp, smtp_from_env
from .notices import Notices
from .rated import Rater
from .review import Reviews
from .routes.accounts import router as accounts_router
from .routes.analysis import router as analysis_router
from .routes.editor import router as editor_router
from .routes.games import lobby_lists
from .routes.games import router as games_router
from .routes.lab import router as lab_router
from .routes.lobby import router as lobby_router
from .routes.mail import router as mail_router
from .routes.mygames import router as mygames_router
from .routes.pictures import router as pictures_router
from .routes.ratings import router as ratings_router
from .routes.rematch import router as rematch_router
from .routes.review import router as review_router
from .routes.talk import router as talk_router
from .routes.tournaments import router as tournaments_router
from .shutdown import exit_after
from .store import Store
from .talk import Talk, TalkHub
from .tournaments import Tournaments
from .views import variant_view

__all__ = ["create_app", "app_from_env"]

VIEW_CACHE = 32  # variant views kept per process
# Engine searches are threads that never wait: with Python's default 5 ms switch interval a request
# thread waits that long for the interpreter after each database call.  0.5 ms: another client's median
# GET with ten engine games thinking went from 274 to 52 ms (bench/web_budgets.py, a loaded machine).
SWITCH_S = 0.0005


class Definition(BaseModel):
    definition: str = Field(..., max_length=MAX_DEFINITION, description="Interactive Diagram definition text")


def create_app(db_url: str | None = None, limits: Limits | int | None = None, smtp: Smtp | None = None) -> FastAPI:
    """The web board application on the database ``db_url`` (default: the SQLite file in the user's
    data directory) with ``limits`` (default :class:`Limits`; a number: every rate limit that many a
    minute, as tests use), sending mail through ``smtp`` (default: none); ``morphchess serve`` runs it
    with uvicorn."""
    limits = Limits.every_rate(limits) if isinstance(limits, int) else limits or Limits()
    sys.setswitchinterval(SWITCH_S)
    db = Database(db_url or default_url())
    catalog = Catalog(db, limits.definitions_cached, limits.definitions_mb * MB)
    store = Store(db, catalog, limits.boards_mb * MB)
    notifier = Notifier()
    store.listeners.append(notifier.changed)
    db.listen(notifier.changed)  # changes made by other processes (PostgreSQL)
    bots = Bots(store, limits)
    labs = Labs(db)
    mailer = Mailer(smtp)

    def stopping() -> None:  # SIGTERM or SIGINT: end the streams now, and the process soon whatever runs
        notifier.close()
        exit_after()
    hub = Hub(store, bots, notifier)
    talk_hub = TalkHub(Talk(store), notifier)

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        bots.sweep()  # engine seats left to move by a stopped server
        labs.sweep()  # lab runs whose server was killed
        app.state.notices.start()  # correspondence reminders
        with ended_on_signals(stopping):
            yield
        notifier.close()
        labs.close()
        bots.close()
        app.state.notices.close()
        mailer.close()
        db.dispose()

    app = FastAPI(title="morphchess", description=__doc__, version="0.1.0", docs_url=None, redoc_url=None,
                  lifespan=lifespan)
    app.state.store, app.state.bots, app.state.notifier, app.state.catalog = store, bots, notifier, catalog
    app.state.hub, app.state.talk_hub = hub, talk_hub
    app.state.reviews = Reviews(store, bots, waiting=limits.auto_reviews)
    app.state.limits, app.state.limiter, app.state.labs = limits, RateLimiter(db, limits), labs
    app.state.accounts, app.state.rater, app.state.tournaments = Accounts(db), Rater(db), Tournaments(store)
    app.state.awaiting = Awaiting(store)
    store.endings.append(app.state.rater.ended)  # rated games are rated as they end
    store.endings.append(app.state.reviews.ended)  # and finished games queued for their review (the last hook)
    store.listeners.append(app.state.reviews.changed)  # which starts once the ending is committed
    app.state.notices = Notices(store, mailer, app.state.limiter)
    store.moved.append(app.state.notices.moved)  # correspondence players are mailed of their move
    errors.install(app)
    app.add_middleware(CsrfGuard)
    app.add_middleware(errors.BodyLimit)
    app.add_middleware(errors.AnswerLimit)
    app.add_middleware(AccessLog)
    app.add_middleware(SecurityHeaders)
    static = resources.files(__package__).joinpath("static")
    app.mount("/static", StaticFiles(directory=str(static)), name="static")
    apidocs.install(app)
    app.include_router(games_router)
    app.include_router(talk_router)
    app.include_router(mygames_router)
    app.include_router(rematch_router)
    app.include_router(review_router)
    app.include_router(analysis_router)
    app.include_router(lab_router)
    app.include_router(lobby_router)
    app.include_router(editor_router)
    app.include_router(pictures_router)
    app.include_router(accounts_router)
    app.include_router(mail_router)
    app.include_router(ratings_router)
    app.include_router(tournaments_router)
    _add_variants(app, catalog)
    _add_pages(app, str(static.joinpath("index.html")))
    return app


def app_from_env() -> FastAPI:
    """The app on the database named by $MORPHCHESS_DB, with the limits of $MORPHCHESS_GAMES_PER_MINUTE
    and the like (:meth:`Limits.from_env`) and the mail settings of $MORPHCHESS_SMTP_HOST and the like
    (:func:`~.mail.smtp_from_env`), for ``uvicorn --factory --workers N``; the access log goes to stderr
    unless $MORPHCHESS_ACCESS_LOG is 0."""
    if os.environ.get("MORPHCHESS_ACCESS_LOG", "1") != "0":
        log_to_stderr()
    return create_app(os.environ.get("MORPHCHESS_DB"), Limits.from_env(), smtp_from_env())


def _add_variants(app: FastAPI, catalog: Catalog) -> None:
    views: OrderedDict[str, dict] = OrderedDict()

    def view_of(key: str) -> dict:
        if key not in views:
            v = catalog.get(key)
            views[key] = {**variant_view(key, v), **describe(v), "builtin": key in catalog.builtin_keys()}
            while len(views) > VIEW_CACHE:
                views.popitem(last=False)
        return views[key]

    @app.get("/healthz", summary="200 when the server can store changes in its database, else 503")
    def healthz():
        try:
            catalog.db.check()
        except Unavailable:
            raise
        except Exception as e:  # noqa: BLE001 - a supervisor only needs to know it does not work
            raise Unavailable(f"database: {str(e).splitlines()[0][:200] if str(e) else type(e).__name__}") from None
        return {"ok": True, "database": "sqlite" if catalog.db.sqlite else "postgresql"}

    @app.get("/api/levels", summary="the engine's strength levels and their search limits")
    def levels(request: Request):
        out = []
        for level in range(1, 9):
            limits = search_limits(level, request.app.state.limits)
            words = (f"{limits['depth']} ply" if "depth" in limits
                     else f"{limits['movetime_ms'] / 1000:g} s a move")
            out.append({"level": level, "limits": limits, "text": words})
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

    @app.get("/api/library/missing", summary="a sentence for each search word that fits no game (and whether "
             "Fairy-Stockfish plays a game of that name)")
    def missing_variants(search: str = Query("", max_length=library.MAX_QUERY)):
        return {"notes": library.missing(search)}

    @app.get("/api/variants/{key}", summary="a variant: pieces (SVG, XBetza, move diagram, morph table), rules")
    def get_variant(key: str):
        return view_of(key)

    @app.post("/api/variants", summary="store a pasted definition; the answer's key names it in new games")
    def post_variant(request: Request, body: Definition):
        check(request, "paste")
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
