"""The documentation site builds with warnings as errors (broken links and anchors fail), and
its pages, the API reference among them, are where the navigation says; the version is one
number with its changelog entry."""

import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

import morphchess

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    pytest.importorskip("mkdocs")
    pytest.importorskip("mkdocstrings_handlers.python")
    out = tmp_path_factory.mktemp("site")
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"), NO_MKDOCS_2_WARNING="1")
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out)],
                          cwd=ROOT, capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    return out


def test_every_page_of_docs_is_built(site: Path) -> None:
    for page in (ROOT / "docs").glob("*.md"):
        name = "" if page.stem == "index" else page.stem + "/"
        assert (site / name / "index.html").is_file(), page.name


def test_api_reference_holds_the_public_api_from_the_docstrings(site: Path) -> None:
    html = (site / "reference" / "index.html").read_text(encoding="utf-8")
    ids = set(re.findall(r'id="(morphchess[\w.]*)"', html))
    for name in ("morphchess.Board", "morphchess.Board.push", "morphchess.Board.outcome", "morphchess.load",
                 "morphchess.Position", "morphchess.pgn.read", "morphchess.notation.from_fen",
                 "morphchess.engine.search.search"):
        assert name in ids, name
    # a docstring's own words, so the page is generated from the source and not an empty stub
    assert "legal moves" in html.lower()
    # the docstrings' reST roles are rewritten as code spans (docs/griffe_rst.py), never shown raw
    assert ":class:" not in html and ":func:" not in html and "``" not in html
    assert "<code>Variant</code>" in html  # Board's ":class:`~morphchess.variant.Variant`"


def test_home_page_links_to_the_guides(site: Path) -> None:
    html = (site / "index.html").read_text(encoding="utf-8")
    for page in ("rules/", "engine/", "api/", "reference/"):
        assert f'href="{page}"' in html, page


def test_version_is_one_number_with_its_changelog_entry() -> None:
    """pyproject.toml and ``morphchess.__version__`` agree, and CHANGELOG.md has an entry for the
    release the version leads to (``0.2.0`` for ``0.2.0.dev0``), marked unreleased while ``.dev``."""
    version = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]
    assert morphchess.__version__ == version
    release, _, dev = version.partition(".dev")
    headings = re.findall(r"^## (\S+)(.*)$", (ROOT / "CHANGELOG.md").read_text(encoding="utf-8"), re.M)
    entries = dict(headings)
    assert release in entries, f"CHANGELOG.md has no entry '## {release}'"
    assert ("unreleased" in entries[release]) == bool(dev)
