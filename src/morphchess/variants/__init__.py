"""The built-in variants, stored as definition text files beside this module."""

from __future__ import annotations

from functools import cache
from importlib import resources
from pathlib import Path

from ..idiagram import load
from ..variant import Variant, VariantError

__all__ = ["names", "builtin", "load_variant"]


def names() -> list[str]:
    """Names of the built-in variants."""
    return sorted(p.name[:-4] for p in resources.files(__package__).iterdir() if p.name.endswith(".txt"))


@cache
def builtin(name: str) -> Variant:
    """A built-in variant by name (``chess``, ``morphomania``, ...)."""
    if name not in names():
        raise VariantError(f"unknown variant {name!r}; built-in variants: {', '.join(names())}")
    return load(resources.files(__package__).joinpath(name + ".txt").read_text(encoding="utf-8"), name)


def load_variant(spec: str) -> Variant:
    """A built-in name, or the path of a file holding a definition text."""
    if spec in names():
        return builtin(spec)
    path = Path(spec)
    if path.is_file():
        try:
            text = path.read_text(encoding="utf-8-sig")
        except (OSError, UnicodeDecodeError) as e:
            raise VariantError(f"{spec}: cannot read the file ({e})") from None
        return load(text, path.stem)
    raise VariantError(f"{spec!r} is neither a built-in variant ({', '.join(names())}) nor a file")
