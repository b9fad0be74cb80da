"""The compiled core against its own source: the same rules, move for move.

Cython compiles the core's modules (``setup.py``) from the same ``.py`` files that run
uncompiled where no compiler exists.  These tests load morphchess a second time, every
module from its source (the package ``morphchess_source``, beside the compiled one in the
same process), and compare the two on every built-in and library variant and the real
definitions of ``tests/definitions``: the legal moves and captures (in order, as text),
hashes, position text and outcomes along seeded random games, make/unmake round trips,
and positions made by Hypothesis.  Without a compiled core they are skipped, except under
``CI=1``, where the core must be built.
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import os
import random
import re
import subprocess
import sys
import sysconfig
import warnings
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import morphchess
from morphchess import InputError, variant_names
from morphchess._source import prefer_source
from morphchess.position import compiled

ROOT = Path(__file__).resolve().parents[1]
DEFINITIONS = sorted((ROOT / "tests" / "definitions").glob("*.txt"))
NAMES = variant_names() + [f"definitions/{p.stem}" for p in DEFINITIONS]


def compiled_modules() -> list[str]:
    """The modules ``setup.py`` compiles (its ``COMPILED`` list)."""
    tree = ast.parse((ROOT / "setup.py").read_text())
    value = next(node.value for node in tree.body if isinstance(node, ast.Assign)
                 and any(isinstance(t, ast.Name) and t.id == "COMPILED" for t in node.targets))
    return ast.literal_eval(value)


@pytest.fixture(scope="module", autouse=True)
def _compiled_core():
    if not compiled():
        if os.environ.get("CI"):
            pytest.fail("CI=1, but the compiled core is not built (pip install -e . builds it)")
        pytest.skip("the compiled core is not built: nothing to compare it with")


def source_copy() -> ModuleType:
    """morphchess imported a second time, every module from its ``.py`` source, as ``morphchess_source``."""
    name = "morphchess_source"
    if name not in sys.modules:
        folder = Path(morphchess.__file__).parent
        prefer_source(name)
        spec = importlib.util.spec_from_file_location(name, folder / "__init__.py",
                                                      submodule_search_locations=[str(folder)])
        assert spec and spec.loader
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


def variant(package: ModuleType, name: str):
    """The variant ``name`` (a built-in or ``definitions/STEM``) as loaded by ``package``; None if refused."""
    if not name.startswith("definitions/"):
        return package.builtin(name)
    text = (ROOT / "tests" / f"{name}.txt").read_text(encoding="utf-8")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return package.load(text, name)
        except package.InputError:
            return None


def move_text(m) -> str:
    """Every field of a core move (the two packages' moves are tuples of different classes)."""
    return f"{m[0]}-{m[1]}:{m[2]}/{int(m[3])}{tuple(m[4])}"


def state(package: ModuleType, pos) -> tuple:
    """What the rules say about ``pos``: its legal moves and captures, hash, position text and outcome."""
    moves = pos.legal_moves()
    return ([move_text(m) for m in moves], [move_text(m) for m in pos.captures()], pos.hash,
            package.notation.to_fen(pos), str(pos.outcome(moves)))


def snapshot(pos) -> tuple:
    """Everything make and unmake change (the royal squares in any order)."""
    return (pos.board[:], pos.turn, pos.ep, pos.halfmove, pos.fullmove, pos.hash, [sorted(r) for r in pos.royals],
            pos.rights, pos.hands)


def game(package: ModuleType, v, seed: int, plies: int, round_trips: bool):
    """The states along a seeded random game of at most ``plies`` moves; with ``round_trips``, every
    legal move is made and unmade first and must restore the position, and the hash made move by
    move must equal the hash computed from the board."""
    pos = package.Position(v)
    rng = random.Random(seed)
    start = snapshot(pos)
    for ply in range(plies + 1):
        s = state(package, pos)
        yield ply, s
        moves = pos.legal_moves()
        if round_trips:
            before = snapshot(pos)
            for m in moves:
                pos.make(m)
                pos.unmake()
                assert snapshot(pos) == before, f"make/unmake of {move_text(m)} at ply {ply}"
            pos.refresh()
            assert snapshot(pos) == before, f"the hash made move by move differs from the board's at ply {ply}"
        if not moves or s[4] != "None" or ply == plies:
            break
        pos.make(rng.choice(moves))
    while pos.history():
        pos.unmake()
    assert snapshot(pos) == start, "unmaking the whole game does not give the start"


def compare_games(name: str, seed: int, plies: int, round_trips: bool = False) -> None:
    pure = source_copy()
    v, pv = variant(morphchess, name), variant(pure, name)
    if v is None:
        assert pv is None, f"{name}: the source loads what the compiled core refuses"
        return
    for (ply, got), (_, want) in zip(game(morphchess, v, seed, plies, round_trips),
                                     game(pure, pv, seed, plies, round_trips), strict=True):
        assert got == want, f"{name}, seed {seed}, ply {ply}: the compiled core differs from the source"


def test_the_source_copy_runs_uncompiled():
    pure = source_copy()
    assert not pure.position.compiled()
    assert pure.position.__file__.endswith(".py") and pure.Position is not morphchess.Position


def test_every_compiled_module_is_an_extension_built_from_the_current_source():
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    for name in compiled_modules():
        module = importlib.import_module(name)
        path = Path(module.__file__ or "")
        assert path.name.endswith(suffix), f"{name} runs from {path.name}, not compiled"
        source = path.with_name(path.name.removesuffix(suffix) + ".py")
        assert path.stat().st_mtime >= source.stat().st_mtime, \
            f"{path.name} is older than {source.name}: rebuild it (pip install -e .)"


@pytest.mark.parametrize("pure, says", [("", "compiled core (Cython)"), ("1", "pure-Python core")])
def test_version_says_which_core_runs(pure, says):
    env = dict(os.environ, MORPHCHESS_PURE=pure, PYTHONPATH=str(ROOT / "src"))
    out = subprocess.run([sys.executable, "-m", "morphchess", "--version"], env=env, capture_output=True,
                         text=True, check=True).stdout
    assert out.strip() == f"morphchess {morphchess.__version__}, {says}"


@pytest.mark.parametrize("name", NAMES)
def test_random_games_agree_with_round_trips(name):
    compare_games(name, seed=1, plies=30, round_trips=True)


@pytest.mark.slow
@pytest.mark.parametrize("name", NAMES)
def test_many_random_games_agree(name):
    for seed in range(2, 6):
        compare_games(name, seed=seed, plies=150)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(NAMES), seed=st.integers(0, 2**32), plies=st.integers(0, 120))
def test_positions_of_random_games_agree(name, seed, plies):
    compare_games(name, seed, plies)


@settings(max_examples=40, deadline=None)
@given(data=st.data(), name=st.sampled_from(variant_names()))
def test_made_up_positions_agree(data, name):
    pure = source_copy()
    v, pv = variant(morphchess, name), variant(pure, name)
    t = v.tables
    codes = [c for c in range(t.ncodes) if t.valid[c]]
    squares = [sq for sq in range(t.size) if sq not in t.holes]
    placed = data.draw(st.dictionaries(st.sampled_from(squares), st.sampled_from(codes), max_size=12))
    turn = data.draw(st.sampled_from((0, 1)))
    board = [placed.get(sq, 0) for sq in range(t.size)]
    try:
        pos = morphchess.Position.from_board(v, board, turn)
    except InputError as e:
        with pytest.raises(pure.InputError, match=re.escape(str(e))):
            pure.Position.from_board(pv, board, turn)
        return
    assert state(morphchess, pos) == state(pure, pure.Position.from_board(pv, board, turn))
    for m in pos.legal_moves():
        before = snapshot(pos)
        pos.make(m)
        pos.unmake()
        assert snapshot(pos) == before, f"make/unmake of {move_text(m)}"



def searched(package: ModuleType, name: str, seed: int, plies: int, nodes: int) -> tuple:
    """What ``package``'s engine finds, with a fresh transposition table and ``nodes`` nodes, after
    ``plies`` seeded random moves of ``name``: the best move, score, mate, depth, nodes and line."""
    pos = package.Position(variant(package, name))
    rng = random.Random(seed)
    for _ in range(plies):
        moves = pos.legal_moves()
        if not moves or pos.outcome(moves) is not None:
            break
        pos.make(rng.choice(moves))
    before = snapshot(pos)
    engine, tt = (importlib.import_module(f"{package.__name__}.engine{part}") for part in ("", ".tt"))
    r = engine.search(pos, nodes=nodes, tt=tt.TranspositionTable())
    assert snapshot(pos) == before
    return (move_text(r.move) if r.move else None, r.score, r.mate, r.depth, r.nodes,
            [move_text(m) for m in r.pv])


@pytest.mark.parametrize("name", variant_names())
def test_the_engine_searches_as_its_source(name):
    """The compiled engine (search, ordering, exchange evaluation, evaluation, table) against its
    source at a fixed number of nodes, from the start and from a seeded random position."""
    pure = source_copy()
    for seed, plies in ((1, 0), (2, 8)):
        assert searched(morphchess, name, seed, plies, 1500) == searched(pure, name, seed, plies, 1500)
