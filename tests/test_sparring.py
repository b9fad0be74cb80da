"""Debian's Stockfish (UCI) and Fairy-Max (CECP) as real opponents of ``match``: whole games through both
protocols, each game's record replayed by python-chess, which must agree on every move and the result."""

from __future__ import annotations

import io

import chess
import chess.pgn
import pytest

from morphchess.engine.match import run_match
from morphchess.variant import WHITE

from programs import debian_program

pytestmark = pytest.mark.slow  # external engines thinking for whole games


def replayed_by_python_chess(pgn_text: str) -> chess.Board:
    """The final position of a game record, every move checked by python-chess."""
    game = chess.pgn.read_game(io.StringIO(pgn_text))
    assert game is not None and not game.errors, game and game.errors
    board = game.board()
    for move in game.mainline_moves():
        assert move in board.legal_moves, f"{move} in {board.fen()}"
        board.push(move)
    return board


@pytest.mark.parametrize("spec", ["uci:{}?Threads=1&Hash=16", "xboard:{}"], ids=["stockfish", "fairymax"])
def test_external_engine_beats_a_random_mover(spec):
    name = "stockfish" if spec.startswith("uci") else "fairymax"
    engine = spec.format(debian_program(f"/usr/games/{name}", name))
    result = run_match("chess", engine, "random", 2, movetime_ms=50, seed=3)
    assert (result.wins, result.draws, result.losses) == (2, 0, 0)
    for _i, colour, res, pgn_text in result.games:
        board = replayed_by_python_chess(pgn_text)
        assert board.is_checkmate(), pgn_text
        assert board.result() == res == ("1-0" if colour == WHITE else "0-1")
