"""The core modules import each other without a circle (imports for typing only do not count)."""

import ast
from pathlib import Path

import morphchess

PACKAGE = Path(morphchess.__file__).parent


def _runtime_imports(path: Path) -> set[str]:
    """Sibling modules ``path`` imports when it runs: top-level and function-level imports,
    not those under ``if TYPE_CHECKING:``."""
    tree = ast.parse(path.read_text())
    skipped = {id(n) for node in ast.walk(tree) if isinstance(node, ast.If)
               and ast.unparse(node.test).endswith("TYPE_CHECKING") for n in ast.walk(node)}
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 1 and id(node) not in skipped:
            if node.module:
                out.add(node.module.split(".")[0])
            else:
                out.update(a.name for a in node.names)
    return out


def _graph() -> dict[str, set[str]]:
    mods = {p.stem: p for p in PACKAGE.glob("*.py") if p.stem not in ("__init__", "__main__")}
    return {m: _runtime_imports(p) & mods.keys() for m, p in mods.items()}


def test_no_import_circle_in_core():
    graph = _graph()
    state: dict[str, int] = {}

    def visit(m: str, trail: list[str]) -> None:
        if state.get(m) == 2:
            return
        assert state.get(m) != 1, "import circle: " + " -> ".join([*trail[trail.index(m):], m])
        state[m] = 1
        for n in sorted(graph[m]):
            visit(n, [*trail, m])
        state[m] = 2

    for m in sorted(graph):
        visit(m, [])


def test_loader_chain_is_one_way():
    graph = _graph()
    assert "tables" in graph["variant"] and "shuffle" in graph["tables"]
    assert "variant" not in graph["tables"] | graph["shuffle"] | graph["pieces"]
