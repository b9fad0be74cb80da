"""``morphchess uci``: python-chess plays it, the match runner plays every variant through it, commands."""

import random
import re

import chess
import chess.engine
import pytest

from morphchess.cli import main as cli_main
from morphchess.engine import external
from morphchess.engine.external import split_engine_spec
from morphchess.engine.match import parse_spec, run_match
from morphchess.errors import OptionError
from morphchess.protocols.common import Clock, move_budget_ms
from morphchess.protocols.uci import main, parse_go, search_limits
from morphchess.variants import builtin

from protocol_support import ENGINE, PROTOCOL_GAMES, Session, engine_command

pytestmark = pytest.mark.slow  # left out of the fast loop (-m "not slow")


def test_python_chess_plays_a_whole_game():
    """python-chess's UCI client against the engine (depth 2) until the game ends, a random player opposite."""
    rng = random.Random(3)
    board = chess.Board()
    with chess.engine.SimpleEngine.popen_uci([*ENGINE, "uci"], timeout=120) as engine:
        assert engine.id["name"] == "morphchess"
        assert "chess" in engine.options["UCI_Variant"].var
        info = engine.analyse(board, chess.engine.Limit(depth=3))
        assert info["depth"] == 3 and info["pv"] and info["nodes"] > 0 and "nps" in info
        assert isinstance(info["score"].relative, chess.engine.Cp)
        while not board.is_game_over() and board.ply() < 200:
            if board.turn == chess.WHITE:
                board.push(engine.play(board, chess.engine.Limit(depth=2)).move)
            else:
                board.push(rng.choice(list(board.legal_moves)))
    assert board.is_checkmate() and board.turn == chess.BLACK


@pytest.mark.parametrize("variant", PROTOCOL_GAMES)
def test_every_variant_through_uci(variant):
    """A whole game of each variant, the engine behind UCI (UCI_Variant) against a random player."""
    r = run_match(variant, f"uci:{engine_command('uci')}", "random", 1, movetime_ms=30, seed=5)
    assert (r.wins, r.draws, r.losses) == (1, 0, 0)


def test_engine_options_on_the_spec(tmp_path):
    """``?VariantFile=...`` reaches the engine: a definition file replaces UCI_Variant."""
    path = tmp_path / "mini.txt"
    path.write_text(builtin("crossroads").text, encoding="utf-8")
    spec = f"uci:{engine_command('uci')}?VariantFile={path}"
    assert run_match("crossroads", spec, "random", 1, movetime_ms=30, seed=2).wins == 1


def test_engine_that_does_not_answer(monkeypatch, capsys):
    """``match --white uci:cat`` ends with one line instead of waiting for ``uciok`` for ever."""
    monkeypatch.setattr(external, "STARTUP_TIMEOUT", 1.0)
    assert cli_main(["match", "chess", "--white", "uci:cat", "--black", "random", "--games", "1", "--quiet"]) == 2
    assert "uci:cat: no 'uciok' within 1 s" in capsys.readouterr().err
    assert cli_main(["match", "chess", "--white", "xboard:cat", "--black", "random", "--games", "1", "--quiet"]) == 2
    assert "xboard:cat: no 'feature ... done=1' within 1 s" in capsys.readouterr().err
    with pytest.raises(OptionError, match="Name=Value"):
        parse_spec("uci:stockfish?UCI_Elo")
    assert split_engine_spec("sf -x?A=1&B b=two") == ("sf -x", {"A": "1", "B b": "two"})


def test_go_infinite_stop_and_info_lines():
    s = Session(main)
    s.send("uci")
    s.expect("uciok")
    s.send("setoption name UCI_Variant value crossroads", "isready")
    s.expect("readyok")
    s.send("position startpos moves e2e4", "go infinite")
    info = s.expect("info depth 2")
    assert re.fullmatch(r"info depth 2 score (cp|mate) -?\d+ nodes \d+ nps \d+ time \d+ pv( [a-i]\d[a-i]\d[a-z]?)+",
                        info)
    assert not [line for line in s.quiet(0.5) if line.startswith("bestmove")]  # infinite: waits for stop
    s.send("stop")
    best = s.expect("bestmove").split()
    assert best[1] in {m.uci() for m in _crossroads_after("e2e4").legal_moves}
    s.close()


def test_ponder_then_ponderhit_and_clock():
    s = Session(main)
    s.send("position startpos moves e2e4 e7e5", "go ponder wtime 2000 btime 2000")
    s.expect("info depth 1")
    assert not [line for line in s.quiet(0.3) if line.startswith("bestmove")]
    s.send("ponderhit")
    assert s.expect("bestmove", timeout=5).split()[1]
    s.close()


def test_errors_are_info_strings():
    s = Session(main)
    s.send("position fen not-a-fen", "position startpos moves e2e5", "setoption name UCI_Variant value nope",
           "go depth x", "frobnicate", "isready")
    s.expect("readyok")
    errors = [line for line in s.seen if line.startswith("info string")]
    assert len(errors) == 5
    assert "e2e5" in errors[1] and "nope" in errors[2] and "depth" in errors[3] and "frobnicate" in errors[4]
    s.send("position startpos", "go depth 1")  # the engine still works
    assert s.expect("bestmove").split()[1]
    s.close()


def test_searchmoves():
    s = Session(main)
    s.send("position startpos", "go depth 3 searchmoves a2a3 h2h3")
    assert s.expect("bestmove").split()[1] in ("a2a3", "h2h3")
    s.send("go depth 1 searchmoves e2e5", "isready")
    s.expect("readyok")
    assert "searchmoves" in s.seen[-2]
    s.close()


def test_mate_score_and_no_move():
    s = Session(main)
    s.send("position fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "go depth 3")
    assert "score mate 1" in s.expect("info depth 1") and s.expect("bestmove").split()[1] == "a1a8"
    s.send("position fen R5k1/5ppp/8/8/8/8/8/6K1 b - - 1 1", "go depth 2")
    assert s.expect("bestmove") == "bestmove (none)"
    s.close()


def test_time_management():
    assert parse_go(["wtime", "60000", "btime", "5000", "winc", "100", "movestogo", "10"]) == {
        "wtime": 60000, "btime": 5000, "winc": 100, "movestogo": 10}
    white = search_limits(parse_go(["wtime", "60000", "btime", "5000", "movestogo", "10"]), True)
    black = search_limits(parse_go(["wtime", "60000", "btime", "5000", "movestogo", "10"]), False)
    assert 5000 < white["movetime_ms"] <= 6000 and 300 < black["movetime_ms"] <= 500
    assert search_limits(parse_go(["infinite"]), True) == {}
    assert search_limits(parse_go(["movetime", "300", "depth", "4"]), True) == {"movetime_ms": 300, "depth": 4}
    assert move_budget_ms(Clock(1000, 0, 1)) < 1000  # the last move before the time control keeps a margin
    assert move_budget_ms(Clock(60000, 2000)) > 2000  # most of the increment is used


def _crossroads_after(*moves):
    from morphchess.board import Board
    board = Board("crossroads")
    for m in moves:
        board.push_uci(m)
    return board


def test_variants_under_fairy_stockfish_names():
    """UCI_Variant lists Fairy-Stockfish's names (fischerandom, capablanca, makruk) and morphchess's
    own for the games Fairy-Stockfish does not have; both spellings of chess960 select it."""
    s = Session(main)
    s.send("uci")
    option = next(line for line in s.quiet(1.0) if line.startswith("option name UCI_Variant"))
    offered = option.split(" var ")[1:]
    assert {"chess", "fischerandom", "capablanca", "makruk", "shatranj", "crossroads"} <= set(offered)
    assert "chess960" not in offered
    for name in ("fischerandom", "chess960"):
        s.send(f"setoption name UCI_Variant value {name}", "position fen 1r2k1r1/8/8/8/8/8/8/1R2K1R1 w KQkq - 0 1",
               "go depth 1")
        assert s.expect("bestmove").split()[1]
    s.send("setoption name UCI_Variant value capablanca", "position startpos moves j2j4", "go depth 1")
    assert s.expect("bestmove").split()[1][0] in "abcdefghij"
    # Fairy-Stockfish's way to Chess960: chess with UCI_Chess960; castling is the king taking its rook
    s.send("setoption name UCI_Variant value chess", "setoption name UCI_Chess960 value true",
           "position fen 4k3/8/8/8/8/8/8/1R2K1R1 w KQ - 0 1 moves e1g1", "go depth 1")
    assert s.expect("bestmove").split()[1][0] == "e"  # Black's king: White castled onto f1 and g1
    s.close()
