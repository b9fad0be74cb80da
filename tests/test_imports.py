"""The package's modules import each other without a circle and only downwards (docs/architecture.md).

Every import counts, also one inside a function: it runs as soon as the function does, and a circle hidden
in a function is still a circle.  Only imports under ``if TYPE_CHECKING:`` are left out (they never run).
"""

from __future__ import annotations

import ast
from fnmatch import fnmatch
from functools import cache
from pathlib import Path

import morphchess

PACKAGE = Path(morphchess.__file__).parent
ROOT = "morphchess"

# The layers of docs/architecture.md, lowest first: a module may import its own layer and those below.
# A pattern names a module by its dotted path inside the package ("engine.*": every module of engine/).
LAYERS: list[tuple[str, list[str]]] = [
    ("base", ["errors", "pieces", "move", "_source", "_cython", "ratings", "cjk_glyphs"]),
    ("definitions", ["betza", "shuffle", "connection", "tables", "variant", "idiagram", "fairy_ini", "loader",
                     "variants", "library", "convert", "boardstyle"]),
    ("position", ["position"]),
    ("text and the public API", ["notation", "san", "board", ROOT]),
    ("records, views and the engine", ["pgn", "gamecourier", "records", "pieceset", "diagrams", "protocol_text",
                                       "engine", "engine.*"]),
    ("front-end helpers", ["cli_common"]),
    ("front ends", ["play", "protocols", "protocols.*", "lab", "lab.*", "publish", "publish.*"]),
    ("web", ["web", "web.*"]),
    ("command line", ["cli", "__main__"]),
]


def _modules() -> dict[str, Path]:
    """Dotted name inside the package (``engine.search``; a package by its own name, the root as ROOT)
    -> file."""
    out = {}
    for path in PACKAGE.rglob("*.py"):
        parts = list(path.relative_to(PACKAGE).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts) or ROOT] = path
    return out


MODULES = _modules()


def _package_of(name: str, path: Path) -> list[str]:
    """The package a module's relative imports start from, as a list of names inside ROOT."""
    parts = [] if name == ROOT else name.split(".")
    return parts if path.name == "__init__.py" else parts[:-1]


def _target(parts: list[str]) -> str | None:
    """The package module that dotted ``parts`` (inside ROOT) import: the longest prefix that is one."""
    for end in range(len(parts), -1, -1):
        name = ".".join(parts[:end]) or ROOT
        if name in MODULES:
            return name
    return None


def _ancestor(parts: list[str], name: str) -> bool:
    """Is the package of dotted ``parts`` (inside ROOT) one that module ``name`` lies in?"""
    return name != ROOT and (not parts or name.startswith(".".join(parts) + "."))


def imports(name: str) -> set[str]:
    """The package modules ``name`` imports when it runs, relative and absolute imports alike, at the top
    and inside functions: ``from .x import y`` imports ``x`` and also module ``x.y`` where that is one
    (``x`` is left out where it is a package ``name`` lies in: it ran before ``name``)."""
    path = MODULES[name]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    typing_only = {id(n) for node in ast.walk(tree) if isinstance(node, ast.If)
                   and ast.unparse(node.test).endswith("TYPE_CHECKING") for n in ast.walk(node)}
    found: set[str | None] = set()
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.Import):
            found.update(_target(a.name.split(".")[1:]) for a in node.names if a.name.split(".")[0] == ROOT)
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # from .x import y: x in the package of the module, level - 1 packages up
                base = _package_of(name, path)
                module = base[:len(base) - node.level + 1] + (node.module.split(".") if node.module else [])
            elif node.module and node.module.split(".")[0] == ROOT:
                module = node.module.split(".")[1:]
            else:
                continue
            found.update(_target(module + [a.name]) for a in node.names)
            if not _ancestor(module, name):  # a package the module is in has run before it
                found.add(_target(module))
    found.discard(None)
    found.discard(name)
    return found  # type: ignore[return-value]


@cache
def graph() -> dict[str, set[str]]:
    return {name: imports(name) for name in MODULES}


def layer_of(name: str) -> int:
    matches = [i for i, (_, patterns) in enumerate(LAYERS) if any(fnmatch(name, p) for p in patterns)]
    assert len(matches) == 1, f"module {name} is in {len(matches)} layers of LAYERS: place it in one"
    return matches[0]


def test_the_resolver_sees_imports_inside_functions():
    """The import test itself: relative imports of every depth, inside functions, of modules and of names."""
    g = graph()
    assert {"board", "notation"} <= g["cli"]                       # from .board import Board
    assert {"errors", "cli_common"} <= g["publish.cli"]            # from ..cli_common import ...
    assert "lab.stats" in g["lab.cli"]                             # inside a function: from .stats import ...
    assert "engine" in g["protocols.common"]                       # from ..engine import search: the package
    assert {"protocols.uci", "protocols.xboard"} <= g["cli"]       # from .protocols import uci, xboard
    assert "web.app" in g["web"]                                   # in __getattr__
    assert "morphchess" in g["cli"] and "cli" in g["__main__"]       # from . import __version__: a name of the package


def test_no_import_circle():
    g = graph()
    state: dict[str, int] = {}

    def visit(m: str, trail: list[str]) -> None:
        if state.get(m) == 2:
            return
        assert state.get(m) != 1, "import circle: " + " -> ".join([*trail[trail.index(m):], m])
        state[m] = 1
        for n in sorted(g[m]):
            visit(n, [*trail, m])
        state[m] = 2

    for m in sorted(g):
        visit(m, [])


def test_every_module_has_one_layer():
    for name in MODULES:
        layer_of(name)


def test_no_module_imports_a_layer_above_its_own():
    upward = [f"{m} ({LAYERS[layer_of(m)][0]}) imports {n} ({LAYERS[layer_of(n)][0]})"
              for m, targets in sorted(graph().items()) for n in sorted(targets) if layer_of(n) > layer_of(m)]
    assert not upward, "\n".join(upward)


def test_the_command_lines_share_helpers_below_them():
    """``cli`` adds the publish and lab subcommands; those import the helpers of ``cli_common``, not ``cli``."""
    g = graph()
    for front in ("publish.cli", "lab.cli", "web.serve", "protocols.uci", "protocols.xboard"):
        assert "cli" not in g[front]
    assert "cli_common" in g["publish.cli"] & g["lab.cli"] & g["cli"]


def test_engine_and_protocols_import_one_way():
    g = graph()
    engine = [m for m in g if m == "engine" or m.startswith("engine.")]
    assert not any(n.startswith("protocols") for m in engine for n in g[m])
    assert "protocol_text" in g["engine.external"] & g["protocols.xboard"]


def test_loader_chain_is_one_way():
    g = graph()
    assert "tables" in g["variant"] and "shuffle" in g["tables"]
    assert "variant" not in g["tables"] | g["shuffle"] | g["pieces"]
