"""The pure-Python path: the core's source runs where Cython is not installed (docs/install.md)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"

PROGRAM = """
import sys
sys.modules["cython"] = None  # as on a machine without Cython: importing it fails
from morphchess import Position, builtin
from morphchess.position import compiled
print(compiled(), Position(builtin("chess")).perft(3), Position(builtin("xiangqi")).perft(2))
"""


def test_the_source_runs_without_cython():
    env = dict(os.environ, MORPHCHESS_PURE="1", PYTHONPATH=str(SRC))
    out = subprocess.run([sys.executable, "-c", PROGRAM], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "8902", "1920"]  # python-chess and Fairy-Stockfish count the same
