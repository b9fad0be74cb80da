"""New games: what one is made of (:class:`NewGame`), its seats and tokens, and its first row.

The definition is compiled and the start position with the request's moves is
played before anything is written, so a row exists only for a game that could
be set up within the budgets of :mod:`morphchess.web.limits`.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field

from ..board import Board
from ..errors import InputError
from ..variant import Variant
from . import clocks, seats
from .cost import check_replay
from .db import games, moves, now
from .errors import BadInput, IllegalMove, NotFound
from .game import KINDS, MODES, Game, Status
from .limits import GENERATION_SECONDS, MAX_PLIES, within
from .rated import check_new
from .store import Store, move_notes, parse_move

__all__ = ["NewGame", "create", "start_board"]


@dataclass
class NewGame:
    """What a new game is made of (the API's request, checked)."""

    variant: str = "chess"
    definition: str | None = None
    setup: str | None = None
    fen: str | None = None
    moves: list[str] = field(default_factory=list)
    mode: str = "local"
    side: str = "white"
    white: str | None = None  # local games: human and engine by default; others: human
    black: str | None = None
    level: int = 3
    time_control: str | None = None
    name: str | None = None
    rated: bool = False  # rated (between two accounts, web/rated.py) or casual


def create(store: Store, spec: NewGame, client: str, board: Board | None = None) -> tuple[Game, dict[str, list[str]]]:
    """A new game; returns it and the tokens it hands out (token -> the sides it holds).  ``board``: the
    game's moves already played on its variant (an import), instead of ``spec``'s position and moves.
    Every move is played and written (SAN, Game Courier) within the budgets before the row is written;
    the transaction only stores them."""
    if spec.mode not in MODES:
        raise BadInput(f"mode {spec.mode[:20]!r}: use one of {', '.join(MODES)}")
    plies = len(spec.moves) if board is None else len(board.move_stack)
    if plies > MAX_PLIES:
        raise BadInput(f"moves: {plies} given; at most {MAX_PLIES}")
    tc = clocks.parse(spec.time_control)
    key = store.catalog.add(spec.definition) if spec.definition is not None else spec.variant
    try:
        v = store.catalog.get(key)
    except NotFound as e:
        raise BadInput(str(e)) from None
    if board is None:
        check_replay(v, plies)
        board = within(GENERATION_SECONDS, start_board, v, spec)
    board, notes = within(GENERATION_SECONDS, _played_on, v, board)
    kinds, tokens = _seats(spec)
    check_new(spec.rated, spec.mode, kinds)
    at = now()
    gid = secrets.token_urlsafe(9)
    row = {"id": gid, "variant": key, "setup": board.setup,
           "start_fen": board.root_fen if board.custom_start else None, "mode": spec.mode,
           "status": str(Status.OPEN if spec.mode == "open" else Status.PLAYING), "level": spec.level,
           "tc": tc.text if tc else None, "clock_at": at, "ply": 0, "version": 0,
           "engine_stop": False, "engine_seq": 0, "creator": client, "created": at, "updated": at,
           "rated": spec.rated}
    creator = next(iter(tokens))
    # the creator's name goes to the one human side the creator holds (with or against the engine)
    named = [side for side in tokens[creator] if kinds[side] == "human"]
    for side in seats.SIDES:
        holder = next((t for t, sides in tokens.items() if side in sides), None)
        row.update({side: kinds[side], f"{side}_token": seats.digest(holder) if holder else None,
                    f"{side}_ms": tc.start_ms if tc else None, f"{side}_joined": holder == creator,
                    f"{side}_name": (spec.name or None) if named == [side] else None})
    # the moves given take no time: each leaves its mover the time of the start
    played = [{"game_id": gid, **note, "at": at, "clock_ms": tc.start_ms if tc else None} for note in notes]
    with store.db.write() as conn:
        conn.execute(games.insert().values(**row))
        game = Game(dict(store.db.lock_game(conn, gid)), played, board, v)
        if played:
            conn.execute(moves.insert(), played)
            store.settle(conn, game, at, ply=len(played))
    store.boards.remember(gid, game.row["version"], game.moves, board)
    store.changed(gid)
    return game, tokens


def _played_on(v: Variant, board: Board) -> tuple[Board, list[dict]]:
    """``board``'s game on ``v`` (the catalog's compiled variant, which the game keeps: a record may have
    been read on a compile of its own), its moves written as the moves table keeps them, and the end and
    legal moves of its last position found."""
    again = board.root() if board.variant is v else Board(v, fen=board.root_fen if board.custom_start else None,
                                                          setup=board.setup)
    notes = move_notes(board, again)
    again.outcome()
    return again, notes


def start_board(v: Variant, spec: NewGame) -> Board:
    """The start position with the request's moves played (none after the end of the game), and its
    legal moves generated once (every answer lists them)."""
    try:
        board = Board(v, fen=spec.fen, setup=spec.setup)
    except (InputError, ValueError, OverflowError) as e:
        raise BadInput(str(e)[:300] or type(e).__name__) from None
    for i, text in enumerate(spec.moves, start=1):
        if board.outcome() is not None:
            raise BadInput(f"move {i} ({text[:20]!r}): the game is already over ({board.outcome()})")
        try:
            board.push(parse_move(board, text))
        except IllegalMove as e:
            raise IllegalMove(f"move {i} ({text[:20]!r}): {e}") from None
    len(board.legal_moves)  # generated within the budget: a position too slow to answer gets no row
    return board


def _seats(spec: NewGame) -> tuple[dict[str, str], dict[str, list[str]]]:
    """Who plays each side, and the tokens handed out (the creator's first) with the sides they hold."""
    local = spec.mode == "local"
    kinds = {"white": spec.white or "human", "black": spec.black or ("engine" if local else "human")}
    if any(k not in KINDS for k in kinds.values()):
        raise BadInput(f"players: use one of {', '.join(KINDS)}")
    if local:
        return kinds, {seats.new_token(): list(seats.SIDES)}
    side = secrets.choice(seats.SIDES) if spec.side == "random" else spec.side
    if side not in seats.SIDES:
        raise BadInput(f"side {spec.side[:20]!r}: use white, black or random")
    them = seats.other(side)
    kinds[side] = "human"
    if spec.mode == "open" and kinds[them] == "engine":
        raise BadInput("an open seek waits for a person; play the engine in local or invite mode")
    tokens = {seats.new_token(): [side]}
    if spec.mode == "invite" and kinds[them] == "human":
        tokens[seats.new_token()] = [them]
    return kinds, tokens
