"""The computer opponent: evaluation, search, strength levels and players."""

from .evaluate import piece_values
from .search import SearchResult, level_limits, search

__all__ = ["piece_values", "search", "SearchResult", "level_limits"]
