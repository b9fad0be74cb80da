"""The Texel-style fit of bench/texel.py: its features are the search's evaluation, its gradient is right,
and a fit is reported without changing the engine's configuration unless asked."""

import importlib.util
import json
import random
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from scipy.optimize import approx_fprime

from morphchess import Board, Position, builtin
from morphchess.engine.search import Params, _Searcher
from morphchess.notation import from_fen

ROOT = Path(__file__).resolve().parent.parent
TEXEL = ROOT / "bench" / "texel.py"
_spec = importlib.util.spec_from_file_location("texel", TEXEL)
texel = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(texel)

MIDDLEGAME = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ - 0 8"


def static_white(pos: Position) -> int:
    """The search's static score of ``pos`` from White's view (tables, dynamic terms, mobility) as its
    capture search stands pat (with the variant's share of the side to move's morph gain)."""
    s = _Searcher(pos, 1, None, None, None, None, None, None, Params())
    tempo = s.tempo * s._morph_gain() // 100
    return s.et.evaluate(pos.board) + s._terms(pos.board) + (tempo if pos.turn == 0 else -tempo)


@pytest.mark.parametrize("name, fen", [("chess", MIDDLEGAME), ("chess", "8/5pk1/6p1/8/3N4/6P1/5PK1/8 w - - 0 40"),
                                       ("polymorph", None), ("crossroads", None), ("snappy-chess", None),
                                       ("morphing-chess", None)])
def test_the_features_at_the_current_weights_are_the_search_s_evaluation(name, fen):
    v = builtin(name)
    if fen:
        pos = from_fen(v, fen)
    else:  # a few plies into the game
        board = Board(v)
        for _ in range(6):
            board.push(board.legal_moves[len(board.legal_moves) // 2])
        pos = board.position
    feats = texel.Features(v)
    predicted = float(feats.row(pos) @ feats.start)
    assert predicted == pytest.approx(static_white(pos), abs=8)


def test_mobility_columns_split_the_mobility_by_type_and_pawn_attacked_squares():
    v = builtin("chess")
    pos = from_fen(v, MIDDLEGAME)
    split = texel.Features(v, mobility=True)
    assert [c for c in split.scalars if c.startswith("mobility")] == [
        "mobility:B", "mobility:N", "mobility:Q", "mobility:R", "mobility:unsafe"]
    parts = split.row(pos)
    columns = [split.scalars.index(c) for c in split.mobility_units]
    plain = split.base.mobility(pos)[0]  # every square at the type's plain weight
    assert sum(parts[i] for i in columns) == pytest.approx(plain / 10)
    assert parts[split.scalars.index("mobility:unsafe")] != 0  # some piece reaches a square a pawn guards


def test_square_columns_count_pieces_from_their_own_side():
    v = builtin("chess")
    feats = texel.Features(v, squares=True)
    row = feats.row(Position(v))
    first = len(feats.scalars)
    column = {name: row[first + i] for i, name in enumerate(feats.columns[first:])}
    assert column[f"P@{v.square('e2')}"] == 0  # White's e2 pawn and Black's e7 pawn (its own e2) cancel
    assert column[f"K@{v.square('e1')}"] == 0 and sum(abs(x) for x in column.values()) == 0
    board = Board(v)
    board.push_uci("e2e4")
    row = feats.row(board.position)
    assert row[feats.columns.index(f"P@{v.square('e4')}")] == 1  # White's pawn; nothing of Black's on its e4
    assert row[feats.columns.index(f"P@{v.square('e2')}")] == -1  # Black's e7 pawn, its own e2, is alone now


def test_endgame_square_columns_weigh_pieces_by_the_falling_phase():
    v = builtin("chess")
    feats = texel.Features(v, endgame=True)
    column = feats.columns.index(f"P@{v.square('e4')}/eg")
    assert feats.row(from_fen(v, "4k3/8/8/8/4P3/8/8/4K3 w - - 0 1"))[column] == 1  # no pieces: all endgame
    assert feats.row(from_fen(v, "4k3/8/8/4p3/8/8/8/4K3 w - - 0 1"))[column] == -1  # Black's, on its own e4
    rooks = from_fen(v, "r3k3/8/8/8/4P3/8/8/R3K3 w - - 0 1")
    assert 0 < feats.phase(rooks.board) < 1
    assert feats.row(rooks)[column] == pytest.approx(1 - feats.phase(rooks.board))
    start = feats.row(from_fen(v, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"))
    assert start[column] == 0  # all pieces on the board: the middlegame's squares alone


def test_the_fit_s_gradient_is_the_slope_of_its_loss():
    rng = np.random.default_rng(1)
    feats = texel.Features(builtin("chess"))
    fit = texel.Fit(feats)
    X = rng.normal(0, 100, (200, len(fit.w0)))
    y = rng.integers(0, 3, 200) / 2
    x0 = rng.normal(0, 0.3, len(fit.w0))
    slope = approx_fprime(x0, lambda x: fit.loss(x, X, y, 400.0, 0.01)[0], 1e-7)
    assert np.allclose(fit.loss(x0, X, y, 400.0, 0.01)[1], slope, rtol=1e-3, atol=1e-6)


def test_held_weights_keep_their_start():
    rng = np.random.default_rng(2)
    feats = texel.Features(builtin("chess"))
    X = rng.normal(0, 100, (300, len(feats.columns)))
    y = rng.integers(0, 3, 300) / 2
    free = texel.Fit(feats).weights(X, y, 400.0, 0.0)
    held = texel.Fit(feats, ("tables", "attack")).weights(X, y, 400.0, 0.0)
    n = len(feats.tables)
    m = feats.columns.index("attack")
    assert np.array_equal(held[:n], feats.start[:n]) and held[m] == feats.start[m]
    assert not np.allclose(free[:n], feats.start[:n]) and not np.allclose(held[n:m], feats.start[n:m])


def test_a_fit_is_reported_and_applied_only_when_asked(tmp_path):
    games = tmp_path / "games.jsonl"
    config = tmp_path / "config.json"
    report = tmp_path / "fits.jsonl"
    shutil.copy(ROOT / "src" / "morphchess" / "engine" / "config.json", config)
    before = config.read_text()
    run = [sys.executable, str(TEXEL)]
    subprocess.run(run + ["games", "--variants", "chess", "--games", "4", "--nodes", "60", "--max-plies", "60",
                          "--out", str(games)], check=True, capture_output=True)
    assert len(games.read_text().splitlines()) == 4
    subprocess.run(run + ["fit", str(games), "--config", str(config), "--report", str(report)], check=True,
                   capture_output=True)
    fit = json.loads(report.read_text())
    assert fit["variant"] == "chess" and fit["games"] == 4 and fit["positions"] > 20 and not fit["applied"]
    assert set(fit["weights"]) >= {"material", "lookahead", "centre", "king", "terms", "mobility", "attack"}
    assert fit["command"].startswith("python bench/texel.py fit")
    assert config.read_text() == before
    wrong = subprocess.run(run + ["fit", str(games), "--config", str(config), "--hold", "queen"], capture_output=True,
                           text=True)
    assert wrong.returncode != 0 and "--hold queen: no such weight in chess" in wrong.stderr



def test_stockfish_labels_replace_the_results_in_the_fit(tmp_path):
    stockfish = shutil.which("stockfish") or "/usr/games/stockfish"
    if not Path(stockfish).exists():
        pytest.skip("Stockfish is not installed")
    # a level opening whose record says White won: the fit's points must be Stockfish's labels, not 1.0
    moves = "e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 d2d3 f8c5 b1c3 d7d6 c1g5 h7h6 d1e2 c8g4 e2d2 f6h5".split()
    record = {"variant": "chess", "seed": 0, "plies": 0, "moves": moves, "result": "1-0"}
    games, labelled = tmp_path / "games.jsonl", tmp_path / "labelled.jsonl"
    games.write_text(json.dumps(record) + "\n")
    run = [sys.executable, str(TEXEL), "label", "--engine", stockfish, "--depth", "4", "--out", str(labelled)]
    subprocess.run(run + [str(games)], check=True, capture_output=True)
    labels = json.loads(labelled.read_text())["labels"]
    assert len(labels) == len(moves) and labels[:3] == [None] * 3
    taken = [x for x in labels if x is not None]
    assert len(taken) > 5 and all(0 < x < 1 for x in taken)
    rows, points, _games = texel.positions([json.loads(labelled.read_text())], texel.Features(builtin("chess")))
    assert list(points) == taken  # every labelled position is one the fit takes, at its label
    other = tmp_path / "other.jsonl"
    other.write_text(json.dumps({**record, "variant": "crossroads"}) + "\n")
    wrong = subprocess.run(run + [str(other)], capture_output=True, text=True)
    assert wrong.returncode != 0 and "orthodox chess only, not crossroads" in wrong.stderr


def test_stockfish_games_are_chess_records_the_fit_can_replay(tmp_path):
    stockfish = shutil.which("stockfish") or "/usr/games/stockfish"
    if not Path(stockfish).exists():
        pytest.skip("Stockfish is not installed")
    out = tmp_path / "sf.jsonl"
    run = [sys.executable, str(TEXEL), "games", "--stockfish", stockfish, "--nodes", "200", "--plies", "4",
           "--max-plies", "24", "--out", str(out)]
    subprocess.run(run + ["--variants", "chess", "--games", "2"], check=True, capture_output=True)
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["seed"] for r in sorted(records, key=lambda r: r["seed"])] == [1, 2]
    assert records[0]["moves"][:4] != records[1]["moves"][:4]  # each seed its own random opening
    for record in records:
        assert len(record["moves"]) == 24 and record["result"] == "1/2-1/2"  # cut at --max-plies
        board = Board(builtin("chess"))
        for uci in record["moves"]:
            board.push_uci(uci)  # every move legal in morphchess too
    wrong = subprocess.run(run + ["--variants", "crossroads"], capture_output=True, text=True)
    assert wrong.returncode != 0 and "--stockfish plays orthodox chess only" in wrong.stderr


def test_search_labels_score_any_variant_from_white_s_side():
    # White wins Black's queen (d5xa2?? Ra1xa2): every later position the fit takes is labelled near 1
    moves = "e2e4 d7d5 e4d5 d8d5 b1c3 d5a2 a1a2 e7e6 g1f3 f8d6 d2d4 g8f6 f1d3 e8g8".split()
    record = {"variant": "chess", "seed": 0, "plies": 2, "moves": moves, "result": "1/2-1/2"}
    labels = texel.search_label(record, nodes=2000)["labels"]
    assert len(labels) == len(moves) and labels[:5] == [None] * 5
    assert [x for x in labels[6:] if x is not None] and all(x > 0.9 for x in labels[6:] if x is not None)
    _rows, points, _games = texel.positions([{**record, "labels": labels}], texel.Features(builtin("chess")))
    assert list(points) == [x for x in labels if x is not None]  # each label is a position the fit takes
    board, rng = Board(builtin("snappy-chess")), random.Random(3)
    for _ in range(14):
        board.push(rng.choice(board.legal_moves))
    snappy = {"variant": "snappy-chess", "seed": 0, "plies": 0, "moves": [m.uci() for m in board.move_stack],
              "result": "1/2-1/2"}
    taken = [x for x in texel.search_label(snappy, nodes=500)["labels"] if x is not None]
    assert taken and all(0 <= x <= 1 for x in taken)
