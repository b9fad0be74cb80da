"""The switch to the pure-Python path: ``MORPHCHESS_PURE=1`` runs the source of the compiled core.

Cython builds some modules of this package into C extensions beside their ``.py`` source
(``setup.py``, ``docs/install.md``), and Python imports an extension before a source file of
the same name.  :func:`prefer_source`, called by the package's ``__init__`` when the variable
is set, puts a finder first on ``sys.meta_path`` that loads every module of this package from
its ``.py`` file, so both paths can run the same rules side by side (the differential tests).
"""

from __future__ import annotations

import importlib.abc
import importlib.util
import os
import sys
from collections.abc import Sequence
from types import ModuleType

__all__ = ["SourceFinder", "prefer_source"]


class SourceFinder(importlib.abc.MetaPathFinder):
    """Finds the modules of the package ``package`` as ``.py`` source, never as compiled extensions."""

    def __init__(self, package: str) -> None:
        self.package = package

    def find_spec(self, name: str, path: Sequence[str] | None, target: ModuleType | None = None):
        if path is None or not name.startswith(self.package + "."):
            return None
        leaf = name.rpartition(".")[2]
        for folder in path:
            source = os.path.join(folder, leaf + ".py")
            if os.path.isfile(source):
                return importlib.util.spec_from_file_location(name, source)
        return None  # a subpackage or a data module: the ordinary finders


def prefer_source(package: str = __package__) -> None:
    """Load the modules of ``package`` imported from now on from their source (once per process)."""
    if not any(isinstance(f, SourceFinder) and f.package == package for f in sys.meta_path):
        sys.meta_path.insert(0, SourceFinder(package))
