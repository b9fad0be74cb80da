"""The catalogue of built-in games: title, inventor, board, features, definition language and the
name Fairy-Stockfish gives the game, searchable by words (``morphchess variants --search drops``).

The title and inventor come from the definition file's first comment line, written
``# Title (FILESxRANKS) by Inventor. Description.``; the features are read from the variant.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from importlib import resources

from .fairy_ini import sections
from .loader import language_of
from .variant import Variant
from .variants import PARENTS_FILE, builtin, definition_text, names

__all__ = ["Entry", "entries", "entry", "search", "missing", "features", "fairy_name", "FEATURES", "MAX_QUERY"]

MAX_QUERY = 200  # characters of a search
FEATURES = ("drops", "morphs", "hoppers", "castling", "promotion", "shogi-promotion", "shuffle", "holes",
            "transforms", "multi-leg", "extinction", "bare-king", "no-royal", "flag", "check-count", "must-capture",
            "atomic")
# Built-ins written as ID text that Fairy-Stockfish knows under a name of its own.
_FAIRY_NAMES = {"chess": "chess", "chess960": "fischerandom", "caparandom": "caparandom", "xiangqi": "xiangqi"}


@dataclass(frozen=True)
class Entry:
    """One game of the catalogue."""

    name: str
    title: str
    author: str
    description: str
    files: int
    ranks: int
    language: str  # "id" or "fairy"
    features: tuple[str, ...]
    fairy_name: str | None  # the name Fairy-Stockfish's UCI_Variant and XBoard use, where it has one
    rules: str  # where the rules are told

    @property
    def size(self) -> str:
        return f"{self.files}x{self.ranks}"

    def matches(self, word: str) -> bool:
        """Does one search word fit: a feature, a board size (``10x8``), a language, or a part of the
        name, title, inventor or description (case ignored)?"""
        word = word.lower()
        if word in self.features or word == self.size or word == self.language:
            return True
        return any(word in s.lower() for s in (self.name, self.title, self.author, self.description))


def features(v: Variant) -> tuple[str, ...]:
    """What a variant has of :data:`FEATURES`."""
    moves = [t.moves for t in v.types]
    has = {
        "drops": v.drops or v.captures_to_hand,
        "morphs": any(t.morph is not None for t in v.types),
        "hoppers": any(m.hops for m in moves),
        "castling": any(m.castlings for m in moves),
        "promotion": bool(v.promo_choice) and v.max_promote > 0,
        "shogi-promotion": bool(v.promo_offset),
        "shuffle": bool(v.shuffle),
        "holes": bool(v.holes),
        "transforms": bool(v.transforms),
        "multi-leg": any(m.paths for m in moves),
        "extinction": bool(v.extinction) or v.army_extinction is not None,
        "bare-king": v.baring is not None,
        "no-royal": not any(t.royal for t in v.types),
        "flag": bool(v.flag_region[0] or v.flag_region[1]),
        "check-count": v.check_counts is not None,
        "must-capture": v.must_capture,
        "atomic": v.blast,
    }
    return tuple(f for f in FEATURES if has[f])


def fairy_name(name: str) -> str | None:
    """Fairy-Stockfish's name for a built-in: a variants.ini file's section is named so."""
    if language_of(definition_text(name)) == "fairy":
        return name
    return _FAIRY_NAMES.get(name)


def _headline(text: str) -> tuple[str, str, str, str]:
    """(title, inventor, description, rules address) from the file's opening comment lines."""
    lines = [line.lstrip("#").strip() for line in text.splitlines() if line.startswith("#")]
    first = lines[0] if lines else ""
    m = re.match(r"(?P<title>[^(]+?)\s*\([^)]*\)(?:\s+by\s+(?P<author>(?:[A-Z]\.\s|[^.:])+?))?\s*[.,:]\s*(?P<rest>.*)",
                 first)
    rules = next((line.split(":", 1)[1].strip() for line in lines if line.startswith("Rules:")), "")
    if not m:
        return first, "", "", rules
    return m["title"], m["author"] or "", m["rest"].rstrip("."), rules


@cache
def entry(name: str) -> Entry:
    """The catalogue entry of a built-in variant."""
    v = builtin(name)
    title, author, description, rules = _headline(definition_text(name))
    return Entry(name, title or name, author, description, v.files, v.ranks, language_of(definition_text(name)),
                 features(v), fairy_name(name), rules)


def entries() -> list[Entry]:
    """Every built-in game, by name."""
    return [entry(n) for n in names()]


def search(query: str) -> list[Entry]:
    """The games that fit every word of ``query`` (an empty query: all of them)."""
    words = query[:MAX_QUERY].split()
    return [e for e in entries() if all(e.matches(w) for w in words)]


@cache
def _fairy_only() -> frozenset[str]:
    """Fairy-Stockfish's built-in games that the library does not have (those ``fairy-builtins.ini``
    holds as parents: shogi, crazyhouse, janggi, ...)."""
    text = resources.files("morphchess.variants").joinpath(PARENTS_FILE).read_text(encoding="utf-8")
    return frozenset(sections(text)) - set(names())


def missing(query: str) -> list[str]:
    """A sentence for each word of ``query`` that fits no game: that the library lacks it, and where
    Fairy-Stockfish plays a game of that name, that it is not in the library yet."""
    notes = []
    for word in query[:MAX_QUERY].split():
        if any(e.matches(word) for e in entries()):
            continue
        if word.lower() in _fairy_only():
            notes.append(f"{word.lower()}: not in the library yet; Fairy-Stockfish plays it")
        else:
            notes.append(f"{word}: no game of the library is called or described so")
    return notes
