"""JSON views of games: the board, the state a page shows, moves, results and lobby summaries."""

from __future__ import annotations

import json
from datetime import datetime

from ..board import Board, Move
from ..pieces import code
from ..ratings import Rating
from ..variant import BLACK, WHITE
from . import seats
from .catalog import describe
from .db import aware
from .game import Game, Status, Termination
from .limits import MAX_PLIES

__all__ = ["board_view", "state_view", "move_view", "outcome_view", "summary_view", "full_moves", "black_first",
           "legal_view", "ratings_view", "iso", "tournament_view", "TOURNAMENT_CREATOR"]

TOURNAMENT_CREATOR = "t-"  # a tournament's game is created by "t-" and its id (other creators: a client's digest)

COLOUR = {WHITE: "white", BLACK: "black"}
_ENDINGS = {
    Termination.RESIGNATION: "{winner} wins: {loser} resigned",
    Termination.TIME: "{winner} wins on time",
    Termination.TIME_BARE_KING: "Draw: {loser} ran out of time, {winner} has only royal pieces left",
    Termination.AGREEMENT: "Draw by agreement",
    Termination.ABORTED: "Game aborted",
    Termination.MOVE_LIMIT: f"Draw: the game reached {MAX_PLIES} moves",
}


def iso(t: datetime | None) -> str | None:
    t = aware(t)
    return None if t is None else t.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def board_view(board: Board) -> dict:
    """The squares, hands, side to move, check and last move of a board.  ``hands``: per side the
    letters in hand with their counts (``[["P", 2]]``); a drop's ``from`` is ``@`` and its letter."""
    pos = board.position
    v = board.variant
    them = pos.turn ^ 1
    last = board.move_stack[-1] if board.move_stack else None
    return {
        "squares": [pos.t.letter[c] for c in pos.board],
        "hands": {COLOUR[colour]: [[pos.t.letter[code(ti, colour)], n] for ti, n in enumerate(hand) if n]
                  for colour, hand in enumerate(pos.hands)},
        "turn": COLOUR[pos.turn],
        "check": [v.square_name(r) for r in pos.royals[pos.turn] if pos.attacked(r, them)],
        "last": None if last is None else _last_view(board, last),
        "fen": board.fen(),
        "ply": len(board.move_stack),
    }


def _origin(board: Board, move: Move) -> str:
    """Where a move starts on the page: its square, or ``@`` and the letter of a dropped piece."""
    return "@" + move.piece if move.is_drop else board.variant.square_name(move.from_square)


def _last_view(board: Board, move: Move) -> dict:
    """The last move's squares; ``legs``, where a multi-leg move captured on its way, only if any."""
    v = board.variant
    out = {"from": _origin(board, move), "to": v.square_name(move.to_square)}
    return out | {"legs": [v.square_name(sq) for sq in move.legs]} if move.legs else out


def outcome_view(game: Game) -> dict | None:
    """How the game ended (None while it goes on)."""
    row = game.row
    if not game.status.finished:
        return None
    result, termination = row["result"], row["termination"]
    winner = {"1-0": "white", "0-1": "black"}.get(result)
    out = game.board.outcome()
    if out is not None and out.termination == termination:
        text = str(out)
    else:
        loser = seats.other(winner) if winner else game.turn
        text = _ENDINGS.get(termination, termination).format(
            winner=seats.other(loser).capitalize(), loser=loser.capitalize())
        text += f" ({result})" if result != "*" else ""
    return {"result": result, "winner": winner, "termination": termination, "text": text}


def move_view(note: dict) -> dict:
    return {"ply": note["ply"], "uci": note["uci"], "san": note["san"], "gc": note["gc"],
            "at": iso(note["at"]), "clock_ms": note.get("clock_ms")}


def _legal(game: Game) -> list[dict]:
    return legal_view(game.board) if game.status == Status.PLAYING else []


def legal_view(board: Board) -> list[dict]:
    """The legal moves of a board as the page picks them up (see docs/web.md, the game state)."""
    name = board.variant.square_name
    return [{"from": _origin(board, m), "to": name(m.text_to_square), "uci": m.uci(), "piece": m.piece,
             "new": m.new_piece, "capture": m.is_capture, "choice": m.is_choice, "castle": _castle_view(board, m),
             "transform": m.is_transformation, "morph": m.is_morph, "drop": m.is_drop,
             "legs": [name(sq) for sq in m.legs],
             "unload": None if m.unload_square is None else name(m.unload_square)} for m in board.legal_moves]


def _castle_view(board: Board, move: Move) -> dict | None:
    """Where a castling move puts the king and its partner (the click goes to ``to``: the king's
    square, or the partner's with Fischer castling); None for other moves."""
    if move.castling_partner is None:
        return None
    name = board.variant.square_name
    start, end = move.castling_partner
    return {"king": name(move.to_square), "from": name(start), "to": name(end),
            "partner": board.piece_at(start)}


def clock_view(game: Game, at: datetime) -> dict | None:
    if game.row["tc"] is None:
        return None
    return {"white_ms": max(0, game.time_left("white", at)), "black_ms": max(0, game.time_left("black", at)),
            "running": game.clock_running(), "at": iso(at)}


def seat_view(game: Game, side: str) -> str:
    row = game.row
    if row[side] == "engine":
        return "engine"
    return "taken" if row[f"{side}_token"] and row[f"{side}_joined"] else "free"


def state_view(game: Game, you: list[str], at: datetime) -> dict:
    """Everything a page shows of a game, for a request holding the seats ``you``."""
    row = game.row
    tc = game.tc
    info = json.loads(row["engine_info"]) if row["engine_info"] else {}
    return {
        "id": game.id,
        "version": row["version"],
        "variant": row["variant"],
        "name": game.variant.name,
        "title": describe(game.variant)["title"],
        "setup": row["setup"],
        "start_fen": row["start_fen"],
        **board_view(game.board),
        "legal": _legal(game),
        "history": [move_view(m) for m in game.moves],
        "outcome": outcome_view(game),
        "status": row["status"],
        "mode": row["mode"],
        "players": {s: row[s] for s in seats.SIDES},
        "names": {s: row[f"{s}_name"] for s in seats.SIDES},
        "seats": {s: seat_view(game, s) for s in seats.SIDES},
        "you": you,
        "level": row["level"],
        "time_control": tc.view() if tc else None,
        "clock": clock_view(game, at),
        "offers": {"draw": row["draw_offer"], "takeback": row["takeback_offer"], "rematch": row["rematch_offer"]},
        "rematch": row["rematch"],
        "rated": bool(row["rated"]),
        "ratings": ratings_view(row["ratings"]),
        "tournament": tournament_view(row),
        "thinking": game.thinking(at),
        "engine": info,
        "created": iso(row["created"]),
    }


def tournament_view(row) -> dict | None:
    """The tournament a game belongs to, from its row: ``id`` and ``link`` (None for other games)."""
    creator = row["creator"] or ""
    if not creator.startswith(TOURNAMENT_CREATOR):
        return None
    tid = creator[len(TOURNAMENT_CREATOR):]
    return {"id": tid, "link": f"/tournaments/{tid}"}


def ratings_view(text: str | None) -> dict | None:
    """A rated game's ratings as its page shows them (web/rated.py writes them): per side the rating, whether
    it is provisional and, once rated, the change (``after`` minus ``rating``, each rounded as shown); a
    ``note`` when the game ended unrated.  None for a casual game, or a rated one nobody has sat in yet."""
    if not text:
        return None
    stored = json.loads(text)
    shown: dict = {"note": stored.get("note")}
    for side in seats.SIDES:
        if side in stored:
            r = stored[side]
            change = None if r["after"] is None else round(r["after"]) - round(r["rating"])
            shown[side] = {"rating": round(r["rating"]), "provisional": Rating(r["rating"], r["deviation"]).provisional,
                           "change": change}
    return shown


def black_first(row) -> bool:
    """Does the game of this row start with Black to move (its start position text says so)?"""
    fields = (row["start_fen"] or "").split()
    return len(fields) > 1 and fields[1] == "b"


def full_moves(row) -> int:
    """The moves of a game as players count them (White's and Black's make one), from its row."""
    return (row["ply"] + black_first(row) + 1) // 2


def summary_view(row: dict, title: str) -> dict:
    """A game in the lobby's lists."""
    gid = row["id"]
    return {"id": gid, "variant": row["variant"], "title": title, "setup": row["setup"], "mode": row["mode"],
            "time_control": row["tc"], "rated": bool(row["rated"]), "ratings": ratings_view(row["ratings"]),
            "status": row["status"], "result": row["result"],
            "termination": row["termination"], "ply": row["ply"], "moves": full_moves(row),
            "players": {s: row[s] for s in seats.SIDES}, "names": {s: row[f"{s}_name"] for s in seats.SIDES},
            "created": iso(row["created"]), "updated": iso(row["updated"]), "watch": f"/game/{gid}",
            "pgn": f"/api/games/{gid}/record?format=pgn&download=1",
            "gc": f"/api/games/{gid}/record?format=gc&download=1"}
