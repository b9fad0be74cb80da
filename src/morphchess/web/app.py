"""The web board's HTTP server: a FastAPI app with a JSON API and the page's static files.

All rules are decided here; the page only draws what the API says.  The API
is described at ``/docs`` (OpenAPI).  Errors are 4xx answers with a
``detail`` message: 404 unknown game or variant, 409 a request that does not
fit the game's state, 422 bad input (illegal move, bad definition or record).
"""

from __future__ import annotations

import re
from importlib import resources
from typing import Literal

from fastapi import FastAPI, HTTPException, Request
from fastapi.responses import FileResponse, JSONResponse, PlainTextResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field

from .. import engine, gamecourier, pgn
from ..betza import BetzaError
from ..board import Board, RecordError
from ..variant import BLACK, WHITE, VariantError
from ..variants import names
from .games import Conflict, Game, GameError, Store
from .views import variant_view

__all__ = ["create_app"]

Player = Literal["human", "engine"]
_GC_MOVE = re.compile(r"\b[a-z]\d+-[a-z]\d+\b")
COLOUR = {WHITE: "white", BLACK: "black"}


class NewGame(BaseModel):
    variant: str = Field("chess", description="a built-in name or the key of a posted definition")
    definition: str | None = Field(None, description="definition text to load instead of `variant`")
    setup: str | None = Field(None, description="start array, e.g. Polymorph's knights, bishops, hybrids")
    fen: str | None = Field(None, description="start from this position text")
    moves: list[str] = Field(default_factory=list, description="moves played first (coordinate text or SAN)")
    white: Player = "human"
    black: Player = "engine"
    level: int = Field(3, ge=1, le=8, description="engine strength, 1 (weak) to 8")


class Definition(BaseModel):
    definition: str = Field(..., description="Interactive Diagram definition text")
    name: str | None = None


class MoveIn(BaseModel):
    move: str = Field(..., description="coordinate text (e2e4, e7e8q, c1c1n) or SAN")


class Undo(BaseModel):
    plies: int = Field(1, ge=1)


class EngineIn(BaseModel):
    level: int | None = Field(None, ge=1, le=8)
    wait: bool = Field(False, description="answer only when the engine has moved")


class Players(BaseModel):
    white: Player | None = None
    black: Player | None = None
    level: int | None = Field(None, ge=1, le=8)


class Import(BaseModel):
    text: str
    format: Literal["auto", "pgn", "gc"] = "auto"
    variant: str = Field("chess", description="variant of a Game Courier log (PGN names its own)")
    definition: str | None = None
    setup: str | None = None
    white: Player = "human"
    black: Player = "human"
    level: int = Field(3, ge=1, le=8)


def outcome_view(board: Board) -> dict | None:
    out = board.outcome()
    if out is None:
        return None
    return {"result": out.result(), "winner": None if out.winner is None else COLOUR[out.winner],
            "termination": out.termination, "text": str(out)}


def board_view(board: Board) -> dict:
    """The squares, side to move, check and last move of a board."""
    pos = board.position
    v = board.variant
    them = pos.turn ^ 1
    last = board.move_stack[-1] if board.move_stack else None
    return {
        "squares": [pos.t.letter[c] for c in pos.board],
        "turn": COLOUR[pos.turn],
        "check": [v.square_name(r) for r in pos.royals[pos.turn] if pos.attacked(r, them)],
        "last": None if last is None else {"from": v.square_name(last.from_square),
                                           "to": v.square_name(last.to_square)},
        "fen": board.fen(),
        "ply": len(board.move_stack),
    }


def state_view(game: Game) -> dict:
    """Everything the page shows of a game."""
    with game.lock:
        return _state_view(game)


def _state_view(game: Game) -> dict:
    board = game.board
    v = board.variant
    name = v.square_name
    outcome = outcome_view(board)
    legal = [] if outcome else [{
        "from": name(m.from_square), "to": name(m.to_square), "uci": m.uci(), "piece": m.piece,
        "new": m.new_piece, "capture": m.is_capture, "choice": m.is_choice, "castle": m.is_castling,
        "transform": m.is_transformation, "morph": m.is_morph,
    } for m in board.legal_moves]
    job = game.job
    return {
        "id": game.id,
        "version": game.version,
        "variant": game.key,
        "name": v.name,
        "setup": board.setup,
        "start_fen": board.root_fen if board.custom_start else None,
        **board_view(board),
        "legal": legal,
        "history": list(game.notes),  # a copy: the answer is written after the lock is released
        "outcome": outcome,
        "players": {"white": game.players[WHITE], "black": game.players[BLACK]},
        "level": game.level,
        "thinking": job is not None,
        "engine": dict(job.info) if job else game.last_engine,
    }


def create_app(store: Store | None = None) -> FastAPI:
    """The web board application (``morphchess serve`` runs it with uvicorn)."""
    store = store or Store()
    app = FastAPI(title="morphchess", description=__doc__, version="0.1.0")
    static = resources.files(__package__).joinpath("static")
    app.mount("/static", StaticFiles(directory=str(static)), name="static")
    views: dict[str, dict] = {}

    @app.exception_handler(GameError)
    async def game_error(request: Request, exc: GameError):
        return JSONResponse({"detail": str(exc)}, status_code=409 if isinstance(exc, Conflict) else 422)

    def game_of(gid: str) -> Game:
        try:
            return store.get(gid)
        except KeyError:
            raise HTTPException(404, f"no game {gid!r} (the server may have been restarted)") from None

    def variant_key(variant: str, definition: str | None) -> str:
        if definition is None:
            store.variant(variant)
            return variant
        try:
            return store.variants.add_definition(definition)
        except (VariantError, BetzaError) as e:
            raise GameError(f"definition: {e}") from None

    def view_of(key: str) -> dict:
        if key not in views:
            views[key] = variant_view(key, store.variant(key))
        return views[key]

    @app.get("/", include_in_schema=False)
    def index():
        return FileResponse(str(static.joinpath("index.html")))

    @app.get("/api/levels", summary="the engine's strength levels and their search limits")
    def levels():
        out = []
        for level in range(1, 9):
            limits = engine.level_limits(level)
            text = (f"{limits['depth']} ply" if "depth" in limits
                    else f"{limits['movetime_ms'] / 1000:g} s a move")
            out.append({"level": level, "limits": limits, "text": text})
        return out

    @app.get("/api/variants", summary="the built-in variants")
    def list_variants():
        return [{"key": n, "files": v.files, "ranks": v.ranks, "setups": list(v.setups)}
                for n, v in ((n, store.variant(n)) for n in names())]

    @app.get("/api/variants/{key}", summary="a variant: pieces (SVG, XBetza, move diagram, morph table), rules")
    def get_variant(key: str):
        try:
            return view_of(key)
        except GameError as e:
            raise HTTPException(404, str(e)) from None

    @app.post("/api/variants", summary="load a pasted definition; the answer's key names it in new games")
    def post_variant(body: Definition):
        return view_of(variant_key("", body.definition))

    @app.post("/api/games", summary="start a game")
    def new_game(body: NewGame):
        key = variant_key(body.variant, body.definition)
        game = store.create(key, setup=body.setup, moves=body.moves, fen=body.fen,
                            players={WHITE: body.white, BLACK: body.black}, level=body.level)
        return state_view(game)

    @app.get("/api/games/{gid}", summary="a game's state, legal moves with their morph results included")
    def get_game(gid: str):
        return state_view(game_of(gid))

    @app.patch("/api/games/{gid}", summary="change who plays each side, or the engine level")
    def patch_game(gid: str, body: Players):
        game = game_of(gid)
        with game.lock:
            if body.white:
                game.players[WHITE] = body.white
            if body.black:
                game.players[BLACK] = body.black
            if body.level:
                game.level = body.level
            game.version += 1
        return state_view(game)

    @app.get("/api/games/{gid}/positions/{ply}", summary="the board after the first `ply` moves")
    def get_position(gid: str, ply: int):
        game = game_of(gid)
        with game.lock:
            moves = game.board.move_stack
            if not 0 <= ply <= len(moves):
                raise HTTPException(404, f"ply {ply} is not in the game (0 to {len(moves)})")
            board = game.board.root()
            for m in moves[:ply]:
                board.push(m)
            return board_view(board)

    @app.post("/api/games/{gid}/moves", summary="play a move for the side to move")
    def play(gid: str, body: MoveIn):
        game = game_of(gid)
        game.play(body.move)
        return state_view(game)

    @app.post("/api/games/{gid}/undo", summary="take back moves (stops the engine)")
    def undo(gid: str, body: Undo):
        game = game_of(gid)
        game.undo(body.plies)
        return state_view(game)

    @app.post("/api/games/{gid}/engine", summary="let the engine move for the side to move")
    def engine_move(gid: str, body: EngineIn):
        game = game_of(gid)
        game.start_engine(body.level)
        if body.wait:
            game.wait_engine()
        return state_view(game)

    @app.post("/api/games/{gid}/stop", summary="make the thinking engine play its best move so far")
    def stop(gid: str):
        game = game_of(gid)
        game.stop_engine()
        game.wait_engine(30)
        return state_view(game)

    @app.get("/api/games/{gid}/record", response_class=PlainTextResponse, summary="the game as PGN or GC log")
    def record(gid: str, format: Literal["pgn", "gc"] = "pgn"):
        game = game_of(gid)
        with game.lock:
            return pgn.write(game.board) if format == "pgn" else gamecourier.write(game.board)

    @app.post("/api/import", summary="start a game from a PGN text or a Game Courier log")
    def import_record(body: Import):
        fmt = body.format
        if fmt == "auto":  # Game Courier moves read "e2-e4"; PGN has tags or SAN
            fmt = "gc" if _GC_MOVE.search(body.text) and not body.text.lstrip().startswith("[") else "pgn"
        try:
            if fmt == "pgn":
                # a PGN without variant tags is a game of the variant chosen on the page
                untagged = "[Variant " not in body.text and "[VariantDefinition " not in body.text
                default = store.variant(variant_key(body.variant, body.definition)) if untagged else None
                board = pgn.read(body.text, default).board
                v = board.variant
                key = v.name if v.name in names() and store.variant(v.name).text == v.text else \
                    store.variants.add_definition(v.text, v.name)
            else:
                key = variant_key(body.variant, body.definition)
                board = gamecourier.read(body.text, store.variant(key), setup=body.setup)
        except (RecordError, VariantError, BetzaError, ValueError) as e:
            raise GameError(f"{fmt} record: {e}") from None
        game = store.create(key, board=board, players={WHITE: body.white, BLACK: body.black}, level=body.level)
        return state_view(game)

    return app
