"""The analysis board's API: any position's board and legal moves, a pasted record's moves, PGN with
variations, and the engine's evaluation streamed as it deepens.  Stateless: it never changes a game.

The engine's work is bounded: at most :data:`MAX_SECONDS` a request (and the server's
``engine_seconds``), :data:`SEARCHES` analyses at once per process (more are refused with 429) and
:data:`SEARCHES_PER_CLIENT` of one client (a newer one stops its oldest), run in the engine pool of
the engine seats, where clients take turns (:class:`~morphchess.web.pool.FairPool`): one client
never holds the engine from the others.

In a game between people that is still being played nobody gets the engine's help: a request
naming such a game is refused, and so is a request whose seat token holds a seat of such a game
whose current position it asks about.  What this cannot
prevent (docs/web.md): the same position pasted without the token (another browser, a private
window), or another engine program.
"""

from __future__ import annotations

import asyncio
import json
import secrets
import threading
import time
from collections.abc import AsyncIterator

from fastapi import APIRouter, Request
from fastapi.responses import PlainTextResponse, StreamingResponse
from pydantic import BaseModel, Field
from sqlalchemy import select

from ... import engine, pgn
from ...board import Board
from .. import seats
from ..bots import Bots, engine_ready, info_view, search_table
from ..cost import check_engine, check_replay
from ..db import games
from ..errors import ApiError, BadInput, Conflict, Forbidden, IllegalMove, NotFound, RateLimited
from ..gameview import board_view, legal_view
from ..limits import GENERATION_SECONDS, MAX_PLIES, check, client_key, within
from ..newgame import NewGame, start_board
from ..store import Store, move_notes, parse_move
from .games import pgn_headers, read_pasted

__all__ = ["router", "MAX_SECONDS", "SEARCHES", "SEARCHES_PER_CLIENT", "MAX_NODES", "MAX_NESTING"]

MAX_SECONDS = 10.0
SEARCHES = 4  # analyses at once per process (running, or waiting their turn in the engine pool)
SEARCHES_PER_CLIENT = 1  # analyses at once of one client
MAX_NODES = MAX_PLIES  # moves in an exported analysis tree (as many as a game may have)
MAX_NESTING = 30  # variations inside variations
router = APIRouter(prefix="/api/analysis")


class PositionIn(BaseModel):
    variant: str = Field("chess", max_length=40, description="a built-in name or a pasted definition's key")
    definition: str | None = Field(None, description="definition text, instead of `variant`")
    setup: str | None = Field(None, max_length=40)
    fen: str | None = Field(None, max_length=1000, description="the start position (default: the variant's)")
    moves: list[str] = Field(default_factory=list, max_length=2000, description="moves from the start")
    game: str | None = Field(None, max_length=16, description="the game this position comes from, if any")


class EvaluateIn(PositionIn):
    seconds: float = Field(5.0, gt=0, le=MAX_SECONDS, description="how long the engine may think")


class RecordIn(BaseModel):
    text: str
    format: str = Field("auto", pattern="^(auto|pgn|gc|coord)$")
    variant: str = Field("chess", max_length=40)
    definition: str | None = None
    setup: str | None = Field(None, max_length=40)


class NodeIn(BaseModel):
    move: str = Field(..., max_length=40)
    parent: int = Field(..., ge=-1, description="the index of the move before it; -1: the start")


class TreeIn(PositionIn):
    moves: list[str] = Field(default_factory=list, max_length=0, description="(unused: the tree has the moves)")
    nodes: list[NodeIn] = Field(..., max_length=MAX_NODES, description="the moves; a parent's first child "
                                                                        "is its main line")


def _store(request: Request) -> Store:
    return request.app.state.store


def _board(request: Request, body: PositionIn) -> Board:
    """The position a request names, set up within the generation budget (a pasted definition counts
    as a paste)."""
    store = _store(request)
    if body.definition is not None:
        check(request, "paste")
    key = store.catalog.add(body.definition) if body.definition is not None else body.variant
    try:
        v = store.catalog.get(key)
    except NotFound as e:
        raise BadInput(str(e)) from None
    check_replay(v, len(body.moves))
    spec = NewGame(variant=key, setup=body.setup, fen=body.fen, moves=body.moves)
    return within(GENERATION_SECONDS, start_board, v, spec)


def _played(board: Board) -> list[dict]:
    """The moves from the start, with their SAN (each written on its position: a replay)."""
    return [{"uci": note["uci"], "san": note["san"]} for note in move_notes(board)]


def position_view(store: Store, board: Board) -> dict:
    """A board of the analysis: its view, legal moves (none once the rules end the game), outcome,
    the moves from the start in SAN (written within the generation budget), and what it starts from."""
    played = within(GENERATION_SECONDS, _played, board)
    outcome = board.outcome()
    return {**board_view(board), "legal": [] if outcome else legal_view(board),
            "outcome": None if outcome is None else str(outcome), "moves": played,
            "variant": store.catalog.key_of(board.variant), "setup": board.setup,
            "start_fen": board.root_fen if board.custom_start else None}


@router.post("/position", summary="any position's board and legal moves (from a start and moves)")
def position(request: Request, body: PositionIn):
    store = _store(request)
    return position_view(store, _board(request, body))


@router.post("/record", summary="the main line of a pasted record (PGN, Game Courier log, coordinates)")
def record(request: Request, body: RecordIn):
    store = _store(request)
    return position_view(store, read_pasted(request, body.text, body.format, body.variant, body.definition,
                                            body.setup))


def _live_between_people(row) -> bool:
    return row["status"] == "playing" and row["mode"] != "local" and row["white"] == row["black"] == "human"


def refuse_engine(store: Store, gid: str | None, token: str | None, board: Board) -> None:
    """Forbidden when the engine would help in a game between people that is being played."""
    if gid is not None and _live_between_people(store.get(gid).row):
        raise Forbidden("no engine help while a game between people is being played; analyse it when it is over")
    if not token:
        return
    mine = seats.digest(token)
    with store.db.read() as conn:
        ids = conn.execute(select(games.c.id).where(
            (games.c.white_token == mine) | (games.c.black_token == mine), games.c.status == "playing",
            games.c.mode != "local", games.c.white == "human", games.c.black == "human")).scalars().all()
    fen = board.fen()
    if any(store.get(i).board.fen() == fen for i in ids):
        raise Forbidden("no engine help: this is the position of a game you are playing")


class _Slots:
    """The analyses of this process by client; a slot whose stream never ended frees itself in time."""

    def __init__(self, size: int, per_client: int, lifetime: float) -> None:
        self.size, self.per_client, self.lifetime = size, per_client, lifetime
        self._taken: dict[str, tuple[str, float, threading.Event]] = {}  # slot -> client, taken at, stop
        self._lock = threading.Lock()

    def take(self, client: str, stop: threading.Event) -> str:
        """A slot for ``client``'s analysis (``stop`` ends it).  A client holding its share has its
        oldest analysis stopped for the new one (a page asks about a new position as the old search
        goes on); RateLimited (429) if every slot is taken by others."""
        at = time.monotonic()
        with self._lock:
            self._taken = {k: v for k, v in self._taken.items() if at - v[1] < self.lifetime}
            mine = sorted((t, k) for k, (c, t, _s) in self._taken.items() if c == client)
            for _t, key in mine[:max(0, len(mine) - self.per_client + 1)]:
                self._taken.pop(key)[2].set()
            if len(self._taken) >= self.size:
                raise RateLimited(f"the engine is busy with {self.size} analyses; try again in a few seconds",
                                  headers={"Retry-After": "5"})
            key = secrets.token_hex(4)
            self._taken[key] = (client, at, stop)
            return key

    def give_back(self, key: str) -> None:
        with self._lock:
            self._taken.pop(key, None)


_slots = _Slots(SEARCHES, SEARCHES_PER_CLIENT, MAX_SECONDS + 5)


def _event(name: str, data: dict) -> str:
    return f"event: {name}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n"


async def _search(bots: Bots, board: Board, seconds: float, client: str, slot: str,
                  stop: threading.Event) -> AsyncIterator[str]:
    """The search's progress after each depth (``info``), then its result (``done``); it runs in the
    engine pool the engine seats use (so it may wait its turn) and ends when the server stops."""
    loop = asyncio.get_running_loop()
    queue: asyncio.Queue = asyncio.Queue()

    def progress(info) -> None:
        if bots.closing.is_set():
            stop.set()
        loop.call_soon_threadsafe(queue.put_nowait, ("info", info_view(board, info)))

    def run() -> None:
        start = time.monotonic()
        try:
            if not engine_ready(board.variant, seconds, bots.limits.engine_seconds):
                raise BadInput("the engine is still building its tables for this variant (once a variant); "
                               "ask again in a few seconds")
            left = max(1, round((seconds - (time.monotonic() - start)) * 1000))
            result = engine.search(board.position.copy(), movetime_ms=left, stop=stop, on_info=progress,
                                   tt=search_table())
            final = ("done", {**info_view(board, result), "stopped": stop.is_set()})
        except ApiError as e:
            final = ("error", {"error": str(e)})
        except Exception as e:  # noqa: BLE001 - told to the page instead of lost in a thread
            final = ("error", {"error": f"the engine failed: {str(e)[:200]}"})
        loop.call_soon_threadsafe(queue.put_nowait, final)

    try:
        bots.pool.submit(client, run)
    except RuntimeError:  # the pool has shut down: the server stops
        _slots.give_back(slot)
        yield _event("error", {"error": "the server is stopping"})
        return
    try:
        while True:
            name, data = await queue.get()
            yield _event(name, data)
            if name != "info":
                return
    finally:
        stop.set()  # the page stopped listening: the search ends at once
        _slots.give_back(slot)


@router.post("/evaluate", summary="the engine's evaluation of a position, streamed as it deepens (SSE)")
def evaluate(request: Request, body: EvaluateIn):
    store = _store(request)
    board = _board(request, body)
    refuse_engine(store, body.game, seats.token_of(request), board)
    if board.outcome() is not None:
        raise Conflict(f"nothing to evaluate: {board.outcome()}")
    check_engine(board.variant)
    bots: Bots = request.app.state.bots
    client = client_key(request)
    stop = threading.Event()
    slot = _slots.take(client, stop)
    seconds = min(body.seconds, bots.limits.engine_seconds)
    return StreamingResponse(_search(bots, board, seconds, client, slot, stop), media_type="text/event-stream",
                             headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})


def _lines(start: Board, nodes: list[NodeIn]) -> pgn.Line:
    """The tree's main line with its variations (a move's later siblings), each move checked on its board."""
    children: dict[int, list[int]] = {}
    for i, node in enumerate(nodes):
        if node.parent >= i:
            raise BadInput(f"move {i + 1} ({node.move[:20]!r}): its parent must come before it")
        children.setdefault(node.parent, []).append(i)

    def line(board: Board, at: int | None, nesting: int) -> pgn.Line:
        if nesting > MAX_NESTING:
            raise BadInput(f"variations nested more than {MAX_NESTING} deep")
        out: pgn.Line = []
        b = board.copy()
        while at is not None:
            try:
                move = parse_move(b, nodes[at].move)
            except IllegalMove as e:
                raise IllegalMove(f"move {at + 1} ({nodes[at].move[:20]!r}): {e}") from None
            first, *others = children[nodes[at].parent]
            out.append((move, [line(b, j, nesting + 1) for j in others] if first == at else []))
            b.push(move)
            at = children.get(at, [None])[0]
        return out

    return line(start, children.get(-1, [None])[0], 0)


@router.post("/pgn", response_class=PlainTextResponse, summary="an analysis tree as PGN with variations")
def tree_pgn(request: Request, body: TreeIn):
    store = _store(request)
    start = _board(request, body)
    headers = pgn_headers(store.get(body.game)) if body.game else {}
    return PlainTextResponse(within(GENERATION_SECONDS, _tree_text, start, body.nodes, headers))


def _tree_text(start: Board, nodes: list[NodeIn], headers: dict[str, str]) -> str:
    return pgn.write_lines(start, _lines(start, nodes), headers)
