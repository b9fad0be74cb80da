"""One entry point for definition text in either language: Interactive Diagram text
(:mod:`morphchess.idiagram`) or Fairy-Stockfish's variants.ini (:mod:`morphchess.fairy_ini`)."""

from __future__ import annotations

from . import fairy_ini, idiagram
from .variant import Variant, VariantError

__all__ = ["load", "language_of", "LANGUAGES"]

LANGUAGES = ("id", "fairy")


def language_of(text: str) -> str:
    """``fairy`` for variants.ini text (it opens with a ``[section]``), else ``id``."""
    return "fairy" if fairy_ini.is_fairy(text) else "id"


def load(text: str, name: str = "custom", language: str = "auto") -> Variant:
    """The variant a definition describes.  ``language`` is ``id``, ``fairy`` or ``auto`` (told by
    :func:`language_of`); for variants.ini text ``name`` picks the section (else the last one)."""
    if language == "auto":
        language = language_of(text)
    if language == "fairy":
        return fairy_ini.load(text, name)
    if language == "id":
        return idiagram.load(text, name)
    raise VariantError(f"unknown definition language {language!r}; use auto, {', '.join(LANGUAGES)}")
