"""The built-in variants, stored as definition files beside this module: Interactive Diagram text
(``NAME.txt``) or a Fairy-Stockfish variants.ini section ``[NAME]`` (``NAME.ini``).
``fairy-builtins.ini`` is not a game of the library: it holds Fairy-Stockfish's built-in variants
that other sections may name as their parent (:mod:`morphchess.fairy_ini`)."""

from __future__ import annotations

import warnings
from functools import cache
from importlib import resources
from pathlib import Path

from ..fairy_ini import is_fairy, sections
from ..idiagram import VariantWarning
from ..loader import load
from ..variant import Variant, VariantError

__all__ = ["names", "builtin", "load_variant", "definition_text", "PARENTS_FILE"]

PARENTS_FILE = "fairy-builtins.ini"


@cache
def _files() -> dict[str, str]:
    """Built-in name -> file name."""
    out = {}
    for p in resources.files(__package__).iterdir():
        stem, dot, ext = p.name.rpartition(".")
        if dot and ext in ("txt", "ini") and p.name != PARENTS_FILE:
            out[stem] = p.name
    return out


def names() -> list[str]:
    """Names of the built-in variants."""
    return sorted(_files())


def definition_text(name: str) -> str:
    """The definition file of a built-in variant."""
    if name not in _files():
        raise VariantError(f"unknown variant {name!r}; built-in variants: {', '.join(names())}")
    return resources.files(__package__).joinpath(_files()[name]).read_text(encoding="utf-8")


@cache
def builtin(name: str) -> Variant:
    """A built-in variant by name (``chess``, ``morphomania``, ``capablanca``, ...).  What its
    definition does not play is in ``variant.warnings`` (and in ``morphchess variants``), not warned."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", VariantWarning)
        return load(definition_text(name), name)


def load_variant(spec: str) -> Variant:
    """A built-in name, the path of a file holding a definition, or ``PATH:SECTION`` for one
    section of a variants.ini file."""
    if spec in _files():
        return builtin(spec)
    path, section = Path(spec), None
    if not path.is_file() and ":" in spec:
        head, _, section = spec.rpartition(":")
        path = Path(head)
    if path.is_file():
        try:
            text = path.read_text(encoding="utf-8-sig")
        except (OSError, UnicodeDecodeError) as e:
            raise VariantError(f"{spec}: cannot read the file ({e})") from None
        if section is not None and (not is_fairy(text) or section not in sections(text)):
            raise VariantError(f"{path}: no section [{section}] in it")
        return load(text, section or path.stem)
    raise VariantError(f"{spec!r} is neither a built-in variant ({', '.join(names())}) nor a file")
