"""morphchess: play, analyse and design chess variants whose pieces change shape."""

import os

if os.environ.get("MORPHCHESS_PURE", "") not in ("", "0"):  # run the source of the compiled core
    from ._source import prefer_source

    prefer_source()

from .betza import BetzaError
from .board import Board, Move, RecordError
from .errors import InputError
from .idiagram import VariantWarning
from .loader import load
from .position import Outcome, Position
from .variant import BLACK, WHITE, Variant, VariantError
from .variants import builtin, load_variant
from .variants import names as variant_names

__all__ = ["Board", "Move", "RecordError", "BetzaError", "InputError", "VariantWarning", "load", "Outcome",
           "Position", "BLACK", "WHITE", "Variant", "VariantError", "builtin", "load_variant", "variant_names"]
__version__ = "0.2.0.dev0"  # the same as pyproject.toml (tests/test_docs.py)
