"""What seat holders may do to a game: move, take back, resign, offer draws and takebacks, abort, join.

Each action checks the request against the locked game (:meth:`Store.change`)
and changes nothing when it refuses.  A finished game refuses every action.  An
invited seat is taken by the first who opens its link (:func:`join`): the link's
token is exchanged for a new one, so the link works once, and until then it
allows nothing but that.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from sqlalchemy.engine import Connection

from . import seats
from .db import games
from .errors import BadInput, Conflict, Forbidden, StalePly
from .game import KINDS, Game, Status, Termination
from .store import Store, parse_move

__all__ = ["play", "undo", "set_players", "resign", "draw", "takeback", "abort", "accept", "join",
           "stop_engine", "holder", "owner"]

ACTIONS = ("offer", "accept", "decline")
Taker = Callable[[Connection, Game, list[str]], None] | None  # may a request take these seats? (raises if not)


def holder(game: Game, token: str | None, taken: bool = True) -> list[str]:
    """The seats a token holds in the game (``taken``: only seats already taken); Forbidden if none."""
    held = game.sides_of(token)
    sides = [s for s in held if game.row[f"{s}_joined"] or not taken]
    if held and not sides:
        raise Forbidden("open the invite link first: its seat is taken by joining")
    if not sides:
        raise Forbidden("this needs a seat of the game (the seat link's token)" if token is None
                        else "this token holds no seat of the game")
    return sides


def owner(game: Game, token: str | None) -> None:
    """Check that the token holds every human seat (local games, games against the engine)."""
    sides = holder(game, token)
    if any(game.row[s] == "human" and s not in sides for s in seats.SIDES):
        raise Forbidden("only a player holding every human seat may do this; ask the opponent (takeback)")


def _playing(game: Game) -> None:
    if game.status == Status.OPEN:
        raise Conflict("the game waits for an opponent")
    _not_over(game)


def _not_over(game: Game) -> None:
    if game.status.finished:
        raise Conflict("the game is over")


def _acting(game: Game, sides: list[str], side: str | None, default: str) -> str:
    """The side a request acts for: the one named, the only one held, or ``default``."""
    if side is not None:
        if side not in sides:
            raise Forbidden(f"this token does not hold {side}'s seat")
        return side
    return sides[0] if len(sides) == 1 else default


def play(store: Store, gid: str, token: str | None, text: str, ply: int) -> Game:
    def act(conn: Connection, game: Game, at: datetime) -> None:
        sides = holder(game, token)
        _playing(game)
        if ply != game.ply:  # a repeated or late submit (checked before the turn: it may be the other's now)
            raise StalePly(f"the move was made at ply {ply}; the game is at ply {game.ply}")
        side = game.turn
        if side not in sides:
            raise Forbidden(f"{side} is to move; this token does not hold {side}'s seat")
        if game.row[side] == "engine":
            raise Conflict(f"the engine plays {side}")
        if game.thinking(at):
            raise Conflict("the engine is thinking; stop it first")
        store.push(conn, game, parse_move(game.board, text), at)
    return store.change(gid, act)


def undo(store: Store, gid: str, token: str | None, plies: int) -> Game:
    def act(conn: Connection, game: Game, at: datetime) -> None:
        owner(game, token)
        if game.status == Status.OPEN:
            raise Conflict("nothing to take back")
        _not_over(game)
        store.pop(conn, game, plies, at)
    return store.change(gid, act)


def set_players(store: Store, gid: str, token: str | None, white: str | None, black: str | None,
                level: int | None) -> Game:
    def act(conn: Connection, game: Game, at: datetime) -> None:
        owner(game, token)
        _not_over(game)
        if game.row["mode"] != "local" and (white or black):
            raise Conflict("players change only in local games")
        if any(k not in KINDS for k in (white, black) if k):
            raise BadInput(f"players: use one of {', '.join(KINDS)}")
        values = {k: v for k, v in (("white", white), ("black", black), ("level", level)) if v}
        job = {"engine_job": None, "engine_lease": None} if white or black else {}
        store.update(conn, game, at, **values, **job)
    return store.change(gid, act)


def resign(store: Store, gid: str, token: str | None, side: str | None) -> Game:
    def act(conn: Connection, game: Game, at: datetime) -> None:
        loser = _acting(game, holder(game, token), side, game.turn)
        _playing(game)
        store.end(conn, game, at, "0-1" if loser == "white" else "1-0", Termination.RESIGNATION)
    return store.change(gid, act)


def draw(store: Store, gid: str, token: str | None, action: str, side: str | None) -> Game:
    def act(conn: Connection, game: Game, at: datetime) -> None:
        sides = holder(game, token)
        _playing(game)
        offered = game.row["draw_offer"]
        if action == "offer":
            store.update(conn, game, at, draw_offer=_acting(game, sides, side, game.turn))
            return
        _answering(game, sides, side, offered, "draw")
        if action == "accept":
            store.end(conn, game, at, "1/2-1/2", Termination.AGREEMENT)
        else:
            store.update(conn, game, at, draw_offer=None)
    _check_action(action)
    return store.change(gid, act)


def takeback(store: Store, gid: str, token: str | None, action: str, side: str | None) -> Game:
    def act(conn: Connection, game: Game, at: datetime) -> None:
        sides = holder(game, token)
        _playing(game)
        asked = game.row["takeback_offer"]
        if action == "offer":
            asker = _acting(game, sides, side, seats.other(game.turn))
            if _plies_back(game, asker) > game.ply:
                raise Conflict(f"{asker} has no move to take back")
            store.update(conn, game, at, takeback_offer=asker)
            return
        _answering(game, sides, side, asked, "takeback")
        if action == "accept":
            store.pop(conn, game, _plies_back(game, asked), at)
        else:
            store.update(conn, game, at, takeback_offer=None)
    _check_action(action)
    return store.change(gid, act)


def _plies_back(game: Game, asker: str) -> int:
    """The moves to take back so that ``asker`` is to move again, its last move undone."""
    return 1 if game.turn != asker else 2


def _answering(game: Game, sides: list[str], side: str | None, offered: str | None, what: str) -> None:
    """Check that there is an offer, and that the request comes from the other side."""
    if offered is None:
        raise Conflict(f"no {what} offer to answer")
    them = seats.other(offered)
    if _acting(game, sides, side, them) != them:
        raise Conflict(f"the {what} offer is yours; the other side answers it")


def _check_action(action: str) -> None:
    if action not in ACTIONS:
        raise BadInput(f"action {action[:20]!r}: use one of {', '.join(ACTIONS)}")


def abort(store: Store, gid: str, token: str | None) -> Game:
    def act(conn: Connection, game: Game, at: datetime) -> None:
        holder(game, token)
        _not_over(game)
        if game.ply >= 2:
            raise Conflict("too late to abort: both sides have moved; resign or offer a draw")
        store.end(conn, game, at, "*", Termination.ABORTED)
    return store.change(gid, act)


def accept(store: Store, gid: str, name: str | None, may_take: Taker = None) -> tuple[Game, str]:
    """Take the free seat of an open seek: the game and the new seat's token (``may_take`` may refuse it)."""
    token = seats.new_token()

    def act(conn: Connection, game: Game, at: datetime) -> None:
        if game.status != Status.OPEN:
            raise Conflict("this game is not waiting for an opponent (already accepted, or over)")
        side = next(s for s in seats.SIDES if game.row[f"{s}_token"] is None)
        if may_take is not None:
            may_take(conn, game, [side])
        store.update(conn, game, at, status=Status.PLAYING, clock_at=at, **{
            f"{side}_token": seats.digest(token), f"{side}_joined": True, f"{side}_name": name or None})
    return store.change(gid, act), token


def join(store: Store, gid: str, token: str | None, name: str | None,
         may_take: Taker = None) -> tuple[Game, str | None]:
    """Take an invited seat (``may_take`` may refuse it), or name the one seat a token holds: the game,
    and the seat's new token when the request took the seat (None when it only named it)."""
    fresh = seats.new_token()
    took: list[str] = []

    def act(conn: Connection, game: Game, at: datetime) -> None:
        sides = holder(game, token, taken=False)
        _not_over(game)
        took[:] = [s for s in sides if not game.row[f"{s}_joined"]]
        if may_take is not None:
            may_take(conn, game, took)
        values: dict[str, object] = {}
        for side in took:
            values.update({f"{side}_token": seats.digest(fresh), f"{side}_joined": True})
        if len(sides) == 1:
            values[f"{sides[0]}_name"] = name or None
        store.update(conn, game, at, **values)
    game = store.change(gid, act)
    return game, fresh if took else None


def stop_engine(store: Store, gid: str, token: str | None) -> Game:
    """Ask the search (in whichever process runs it) to play its best move so far."""
    def act(conn: Connection, game: Game, at: datetime) -> None:
        holder(game, token)
        _not_over(game)
        if game.thinking(at):
            conn.execute(games.update().where(games.c.id == gid).values(engine_stop=True))
    return store.change(gid, act)
