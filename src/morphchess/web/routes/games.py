"""The games part of the HTTP API: creating, reading, playing, offers, the event stream, records, lobby."""

from __future__ import annotations

import unicodedata
from typing import Annotated, Literal

from anyio import to_thread
from fastapi import APIRouter, Header, Query, Request
from fastapi.responses import JSONResponse, PlainTextResponse, StreamingResponse
from pydantic import AfterValidator, BaseModel, Field

from ... import gamecourier, pgn
from ...board import Board
from ...errors import InputError
from ...records import Record, read_record, record_format
from ...variant import Variant
from .. import actions
from ..bots import Bots
from ..cost import check_replay
from ..db import MAX_INT, aware, now
from ..errors import BadInput, NotFound, until_unavailable
from ..events import resume_from, stream
from ..game import Game, Status
from ..gameview import board_view, outcome_view, state_view, summary_view
from ..limits import IMPORT_SECONDS, MAX_DEFINITION, MAX_PLIES, MAX_RECORD, check, client_key, record_words, within
from ..lobby import open_seeks
from ..lobbyfeed import abandoned
from ..newgame import NewGame, create
from ..rated import needs_account, taker
from ..seats import token_of
from ..store import Store
from ..talk import Talk
from .accounts import account_of, adopt

__all__ = ["router", "read_pasted", "pgn_headers", "answer"]

router = APIRouter(prefix="/api")
Kind = Literal["human", "engine"]
Side = Literal["white", "black"]
Action = Literal["offer", "accept", "decline"]


def _one_line(name: str | None) -> str | None:
    if name is not None and any(unicodedata.category(c) == "Cc" for c in name):
        raise ValueError("a name has no line breaks or other control characters")  # names reach mail subjects
    return name


Name = Annotated[Annotated[str, Field(max_length=40)] | None, AfterValidator(_one_line),
                 Field(description="the player's name, shown to everyone (one line)")]


class NewGameIn(BaseModel):
    variant: str = Field("chess", max_length=40, description="a built-in name or a pasted definition's key")
    definition: str | None = Field(None, max_length=MAX_DEFINITION,
                                   description="definition text to play instead of `variant`")
    setup: str | None = Field(None, max_length=200, description="start array, e.g. Polymorph's knights")
    fen: str | None = Field(None, max_length=1000, description="start from this position text")
    moves: list[Annotated[str, Field(max_length=40)]] = Field(
        default_factory=list, max_length=MAX_PLIES, description="moves played first (coordinate text or SAN)")
    mode: Literal["local", "invite", "open"] = "local"
    side: Literal["white", "black", "random"] = Field("white", description="the creator's side (invite, open)")
    white: Kind | None = Field(None, description="local games: human by default; invite, open: see black")
    black: Kind | None = Field(None, description="local games: engine by default; invite, open: human by default")
    level: int = Field(3, ge=1, le=8, description="engine strength, 1 (weak) to 8")
    time_control: str | None = Field(None, max_length=20, description='"5+3", "3d" or none')
    name: Name = None
    rated: bool = Field(False, description="rated (between two accounts: invite or open, no engine, logged in) "
                                           "or casual")


class MoveIn(BaseModel):
    move: str = Field(..., max_length=40, description="coordinate text (e2e4, e7e8q, c1c1n) or SAN")
    ply: int = Field(..., ge=0, le=MAX_INT, description="the game's ply the move was made from")


class UndoIn(BaseModel):
    plies: int = Field(1, ge=1, le=10000)


class PlayersIn(BaseModel):
    white: Kind | None = None
    black: Kind | None = None
    level: int | None = Field(None, ge=1, le=8)


class EngineIn(BaseModel):
    level: int | None = Field(None, ge=1, le=8, description="search at this level (it becomes the game's)")
    wait: bool = Field(False, description="answer only when the engine has moved")


class SideIn(BaseModel):
    side: Side | None = Field(None, description="needed only when the token holds both seats")


class OfferIn(SideIn):
    action: Action


class NameIn(BaseModel):
    name: Name = None


class ImportIn(BaseModel):
    text: str = Field(..., max_length=MAX_RECORD, description=f"the record (at most {MAX_PLIES} moves)")
    format: Literal["auto", "pgn", "gc", "coord"] = "auto"
    variant: str = Field("chess", max_length=40, description="variant of a Game Courier log (PGN names its own)")
    definition: str | None = Field(None, max_length=MAX_DEFINITION)
    setup: str | None = Field(None, max_length=200)
    white: Kind = "human"
    black: Kind = "human"
    level: int = Field(3, ge=1, le=8)


def _store(request: Request) -> Store:
    return request.app.state.store


def _bots(request: Request) -> Bots:
    return request.app.state.bots


def answer(request: Request, game: Game, **extra) -> JSONResponse:
    """The game state for this request (after starting the engine if it is to move), with ``extra``
    fields, written as JSON here, in the request's thread: FastAPI's encoder would walk it on the event
    loop, which every request and stream of the process shares (2 to 3 ms a state, against 0.15 ms)."""
    game = _bots(request).kick(game) or game
    return JSONResponse({**state_view(game, game.sides_of(token_of(request)), now()), **extra})


def _seat(game: Game, token: str, sides: list[str]) -> dict:
    return {"token": token, "sides": sides, "link": f"/game/{game.id}#seat={token}"}


def _created(request: Request, game: Game, tokens: dict[str, list[str]]) -> JSONResponse:
    (mine, my_sides), *others = tokens.items()
    game = adopt(request, game, mine)
    return answer(request, game, you=my_sides, seat=_seat(game, mine, my_sides),
                  invite=_seat(game, *others[0]) if others else None, watch=f"/game/{game.id}")


@router.post("/games", summary="start a game; the answer carries the creator's seat (and the invite)")
def new_game(request: Request, body: NewGameIn):
    check(request, "game")
    if body.mode == "open":
        check(request, "seek")
    if body.definition is not None:
        check(request, "paste")
    if body.rated:
        needs_account(account_of(request))
    game, tokens = create(_store(request), NewGame(**body.model_dump()), client_key(request))
    return _created(request, game, tokens)


@router.get("/games/{gid}", summary="a game's state; `you` lists the seats the request's token holds")
def get_game(request: Request, gid: str):
    store = _store(request)
    game = store.get(gid)
    deadline = game.deadline()
    if deadline is not None and deadline <= now():
        store.flag(gid)
        game = store.get(gid)
    return answer(request, game)


@router.get("/games/{gid}/events", summary="the game's live event stream (Server-Sent Events)")
def events(request: Request, gid: str, since: int | None = Query(None, ge=0, le=MAX_INT),
           last_event_id: str | None = Header(None),
           changes: bool = Query(False, description="after the first state, only the fields that changed")):
    store = _store(request)
    store.get(gid)  # 404 before the stream starts
    since = resume_from(last_event_id, since)
    body = until_unavailable(stream(request.app.state.hub, gid, since, changes))
    return StreamingResponse(body, media_type="text/event-stream",
                             headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})


@router.post("/games/{gid}/moves", summary="play a move for the side to move (its seat's token)")
def play(request: Request, gid: str, body: MoveIn):
    return answer(request, actions.play(_store(request), gid, token_of(request), body.move, body.ply))


@router.post("/games/{gid}/undo", summary="take back moves at once (holder of every human seat)")
def undo(request: Request, gid: str, body: UndoIn):
    return answer(request, actions.undo(_store(request), gid, token_of(request), body.plies))


@router.patch("/games/{gid}", summary="change who plays each side, or the engine level (local games)")
def patch_game(request: Request, gid: str, body: PlayersIn):
    return answer(request, actions.set_players(_store(request), gid, token_of(request),
                                               body.white, body.black, body.level))


@router.post("/games/{gid}/engine", summary="let the engine move for the side to move now")
async def engine_move(request: Request, gid: str, body: EngineIn):
    token = token_of(request)
    bots = _bots(request)

    def begin() -> None:
        game = _store(request).get(gid)
        actions.owner(game, token)
        if not game.thinking(now()):  # an engine seat's search may have started already
            bots.start(gid, level=body.level, check=lambda g: actions.owner(g, token))
    await to_thread.run_sync(begin)
    if body.wait:  # at most one search's time: a search that waits for the pool is told by the stream
        await bots.wait(gid, bots.wait_limit())
    return await to_thread.run_sync(lambda: answer(request, _store(request).get(gid)))


@router.post("/games/{gid}/stop", summary="the thinking engine plays its best move so far")
async def stop(request: Request, gid: str):
    await to_thread.run_sync(actions.stop_engine, _store(request), gid, token_of(request))
    await _bots(request).wait(gid, 10)
    return await to_thread.run_sync(lambda: answer(request, _store(request).get(gid)))


@router.post("/games/{gid}/resign", summary="resign")
def resign(request: Request, gid: str, body: SideIn):
    return answer(request, actions.resign(_store(request), gid, token_of(request), body.side))


@router.post("/games/{gid}/draw", summary="offer, accept or decline a draw")
def draw(request: Request, gid: str, body: OfferIn):
    check(request, "offer", gid)
    return answer(request, actions.draw(_store(request), gid, token_of(request), body.action, body.side))


@router.post("/games/{gid}/takeback", summary="ask to take back your last move; accept or decline")
def takeback(request: Request, gid: str, body: OfferIn):
    check(request, "offer", gid)
    return answer(request, actions.takeback(_store(request), gid, token_of(request), body.action, body.side))


@router.post("/games/{gid}/abort", summary="end the game without result (before ply 2)")
def abort(request: Request, gid: str):
    return answer(request, actions.abort(_store(request), gid, token_of(request)))


@router.post("/games/{gid}/accept", summary="take the free seat of an open seek")
def accept(request: Request, gid: str, body: NameIn):
    game, token = actions.accept(_store(request), gid, body.name, taker(account_of(request)))
    game = adopt(request, game, token)
    side = game.sides_of(token)
    return answer(request, game, you=side, seat=_seat(game, token, side), invite=None, watch=f"/game/{game.id}")


@router.post("/games/{gid}/join", summary="take an invited seat (the answer's `seat` holds its new token), "
             "or give your name for your seat")
def join(request: Request, gid: str, body: NameIn):
    check(request, "offer", gid)
    game, fresh = actions.join(_store(request), gid, token_of(request), body.name, taker(account_of(request)))
    if fresh is None:
        return answer(request, game)
    game = adopt(request, game, fresh)
    sides = game.sides_of(fresh)
    return answer(request, game, you=sides, seat=_seat(game, fresh, sides))


@router.get("/games/{gid}/positions/{ply}", summary="the board after the first `ply` moves")
def position(request: Request, gid: str, ply: int):
    game = _store(request).get(gid)
    if not 0 <= ply <= game.ply:
        raise NotFound(f"ply {ply} is not in the game (0 to {game.ply})")
    board = game.board.copy()
    while len(board.move_stack) > ply:  # taken back: each earlier position keeps its legal moves
        board.pop()
    return board_view(board)


def _player(game: Game, side: str) -> str:
    row = game.row
    if row[side] == "engine":
        return f"morphchess engine, level {row['level']}"
    return row[f"{side}_name"] or "Anonymous"


def pgn_headers(game: Game) -> dict[str, str]:
    """The PGN tags of a stored game: its date, players, result and time control."""
    row = game.row
    tags = {"Event": "morphchess game", "Site": f"/game/{game.id}",
            "Date": aware(row["created"]).strftime("%Y.%m.%d"),
            "White": _player(game, "white"), "Black": _player(game, "black")}
    if game.status.finished:
        tags["Result"] = row["result"]
        tags["Termination"] = {"time": "time forfeit", "insufficient material on time": "time forfeit",
                               "aborted": "abandoned"}.get(row["termination"], "normal")
    tc = game.tc
    if tc is not None:
        tags["TimeControl"] = (f"1/{tc.per_move_ms // 1000}" if tc.per_move_ms
                               else f"{tc.start_ms // 1000}+{tc.increment_ms // 1000}")
    return tags


def gc_log(game: Game) -> str:
    """The Game Courier log, ending with the result when the game ended otherwise than by the rules."""
    text = gamecourier.write(game.board, [m["gc"] for m in game.moves])
    out = outcome_view(game)
    if out is not None and game.board.outcome() is None:
        text = text.rstrip("\n") + ("\n" if text.strip() else "") + f"// {out['text']}\n"
    return text


@router.get("/games/{gid}/record", response_class=PlainTextResponse, summary="the game as PGN or GC log")
def record(request: Request, gid: str, format: Literal["pgn", "gc"] = "pgn", download: bool = False):
    game = _store(request).get(gid)
    talk = Talk(_store(request))
    text = (pgn.write(game.board, pgn_headers(game), talk.comments(gid), [m["san"] for m in game.moves])
            if format == "pgn" else gc_log(game))  # the stored texts: the moves are not played again
    headers = {"Content-Disposition": f'attachment; filename="morphchess-{gid}.{format}.txt"'} if download else {}
    return PlainTextResponse(text, headers=headers)


def read_pasted(request: Request, text: str, form: str, variant: str, definition: str | None,
                setup: str | None) -> Board:
    """The board of a pasted record, within the import budgets: a PGN names its own variant and setup
    (its tags win over the page's choice); a Game Courier log or coordinate list is of ``variant`` (or
    ``definition``) and ``setup``."""
    check(request, "import")
    if definition is not None:
        check(request, "paste")
    words = record_words(text)
    if words > 2 * MAX_PLIES:  # a Game Courier move may take two words: the exact count is checked after
        raise BadInput(f"record: {words} words of moves; at most {MAX_PLIES} moves")
    store = _store(request)
    chosen = store.catalog.add(definition) if definition is not None else variant
    form = record_format(text) if form == "auto" else form
    v = store.catalog.get(chosen)
    if form != "pgn":  # of this variant: its words bound its moves (a Game Courier move may take two)
        check_replay(v, words if form == "coord" else (words + 1) // 2)
    try:
        return within(IMPORT_SECONDS, _read_capped, text, form, v, setup, words).board
    except InputError as e:
        raise BadInput(f"{form} record: {e}") from None


def _read_capped(text: str, form: str, v: Variant, setup: str | None, words: int) -> Record:
    """A pasted record read (within the import budget); a PGN's moves are first capped by the cost of the
    variant its tags name (its words bound its moves), found before a move is read."""
    if form != "pgn":
        return read_record(text, form, v, setup, True)
    v = pgn.start(text, v, True).variant
    check_replay(v, words)
    return read_record(text, form, v, None, False)


@router.post("/import", summary="start a local game from a PGN text or a Game Courier log")
def import_record(request: Request, body: ImportIn):
    store = _store(request)
    board = read_pasted(request, body.text, body.format, body.variant, body.definition, body.setup)
    spec = NewGame(variant=store.catalog.key_of(board.variant), white=body.white, black=body.black,
                   level=body.level)
    game, tokens = create(store, spec, client_key(request), board)
    return _created(request, game, tokens)


@router.get("/lobby", summary="open seeks, games being played, finished games (newest first)")
def lobby(request: Request):
    return lobby_lists(_store(request))


def lobby_lists(store: Store) -> dict[str, list[dict]]:
    at = now()
    for row in store.lobby((Status.PLAYING,)):  # games whose time ran out while nobody looked
        deadline = store.get(row["id"]).deadline() if row["tc"] else None
        if deadline is not None and deadline <= at:
            store.flag(row["id"])
    playing = [r for r in store.lobby((Status.PLAYING,)) if not abandoned(r, at)]
    lists = {"open": open_seeks(store.db), "playing": playing,
             "finished": store.lobby((Status.OVER,))}
    titles = store.catalog.titles({r["variant"] for rows in lists.values() for r in rows})
    return {name: [summary_view(r, titles.get(r["variant"], r["variant"])) for r in rows]
            for name, rows in lists.items()}

