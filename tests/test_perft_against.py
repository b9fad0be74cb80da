"""bench/perft_against.py: the same perft in two trees, with their leaf counts compared."""

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("perft_against", ROOT / "bench" / "perft_against.py")
perft_against = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(perft_against)


def test_a_tree_against_itself_counts_the_same_leaves(capsys):
    assert perft_against.main([str(ROOT / "src"), "chess", "polymorph", "--depth", "2", "--rounds", "1"]) == 0
    out = capsys.readouterr().out
    assert "chess            d=2        400" in out
    assert "DIFFER" not in out and "polymorph" in out


def test_a_directory_without_morphchess_is_refused(tmp_path, capsys):
    assert perft_against.main([str(tmp_path), "chess"]) == 2
    assert "no morphchess package here" in capsys.readouterr().err


def test_the_fastest_turn_of_each_tree_counts_and_differing_leaves_are_flagged(monkeypatch, capsys, tmp_path):
    (tmp_path / "morphchess").mkdir()
    turns = iter([(400, 900.0), (401, 300.0), (400, 1000.0), (401, 500.0)])  # this, other, this, other
    monkeypatch.setattr(perft_against, "speed", lambda src, name, depth: next(turns))
    assert perft_against.main([str(tmp_path), "chess", "--rounds", "2"]) == 0
    out = capsys.readouterr().out
    assert "this     1,000/s" in out and "other       500/s  2.00x" in out
    assert "LEAF COUNTS DIFFER: [400, 401]" in out
