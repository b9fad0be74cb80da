"""The engine's configuration: per variant, the evaluation's weights and the search's switches.

:class:`EngineConfig` holds both.  Its defaults are the plain engine; :data:`CONFIG_FILE` gives
some built-in variants their measured values (each entry is keyed by the variant's name and the
:func:`fingerprint` of its definition, so an edited definition plays the plain engine), and
:func:`config_for` is the one place the search and the evaluation get a variant's configuration
from.  Where each value in the file comes from (commands, games, fits, SPRTs) is told in
docs/engine-configuration.md.

The table weights (the fields before ``dynamic``) are built into the evaluation tables once per
variant; the search switches (:data:`SWITCHES`) are read by each search, so a player may override
them for an A/B test (:class:`~.search.Params`).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from importlib import resources

from ..variant import Variant

__all__ = ["EngineConfig", "SWITCHES", "TERMS", "CONFIG_FILE", "config_for", "default_config", "load_entry",
           "fingerprint", "changes_shape", "shape_changing"]

CONFIG_FILE = "config.json"  # measured configurations of built-in variants, by name

# the named terms of the dynamic evaluation, centipawns (a weight of 0 turns a term off)
TERMS = {
    "passed_mg": 5,          # a passed pawn, times its progress (0 at home, 1 on the last rank) squared
    "passed_eg": 90,
    "doubled": -12,          # each pawn-like piece behind another of its side on a file
    "isolated": -10,         # no pawn-like piece of its side on the files beside it
    "supported": 8,          # a pawn-like piece of its side diagonally behind it
    "royal_attackers": -12,  # middlegame: each enemy piece (not a pawn) within two squares of a royal piece
    "royal_shelter": 8,      # middlegame: each own pawn-like piece on the three squares in front of it
    "pair": 35,              # both square colours held by pieces of one colour-bound type
    "taper": 1,              # 1: the royal tables follow the phase of every node, 0: the root's
}


def _switch(default: int | bool):
    """A search switch: a field that :class:`~.search.Params` may override."""
    return field(default=default, metadata={"switch": True})


@dataclass(frozen=True)
class EngineConfig:
    """A variant's evaluation weights and search switches (0 turns a switch off).

    Table weights: ``material``, per piece letter a multiplier of its value (missing letters 1.0);
    ``lookahead`` (what a piece can become, above its type value), ``centre`` and ``king``,
    multipliers of those table terms; ``terms``, the dynamic terms by name (missing ones:
    :data:`TERMS`); ``squares``, per piece letter the centipawns its table gains on each square
    (its own side's view, numbered as White's); ``squares_eg``, the same for the endgame, added as the
    node's phase falls; ``mobility_types``, per piece letter a multiplier of its mobility (missing
    letters 1.0); ``mobility_unsafe``, the multiplier of a square an enemy pawn-like piece attacks.

    Search switches (:data:`SWITCHES`): ``dynamic``, the percent of the dynamic terms;
    ``mobility``, tenths of a centipawn per weighted reachable square; ``attack``, the king attack
    (``attack / 100`` cp per squared unit); ``tempo``, the percent of the side to move's best gain by
    a quiet shape change that the capture search's static score adds, counting with ``safe`` only
    moves to squares the other side does not attack; ``qtt``, 1: the capture search reads and
    writes the transposition table; ``rfp`` and ``razor``, the margins per ply of reverse futility
    pruning and razoring (depth <= 3); ``aspiration``, the half-width of the window around the
    last score from depth 4; ``lmp``, late-move pruning (quiet moves searched at depth d <= 3 are
    ``lmp + d * d``); ``mopup``, 1: drive a side left with royal pieces alone to the edge;
    ``morphs``, 1: a shape change gaining less than ``QS_GAIN`` counts as quiet; ``futility``,
    futility pruning of quiet moves up to this depth; ``null``, null-move pruning from this depth;
    ``seeprune``, up to this depth a move after the first that loses its exchange by more than a
    margin per ply is skipped.
    """

    material: Mapping[str, float] = field(default_factory=dict)
    lookahead: float = 1.0
    centre: float = 1.0
    king: float = 1.0
    terms: Mapping[str, float] = field(default_factory=dict)
    squares: Mapping[str, list[float]] = field(default_factory=dict)
    squares_eg: Mapping[str, list[float]] = field(default_factory=dict)
    mobility_types: Mapping[str, float] = field(default_factory=dict)
    mobility_unsafe: float = 1.0
    dynamic: int = _switch(100)
    mobility: int = _switch(40)
    attack: int = _switch(200)
    tempo: int = _switch(0)
    safe: bool = _switch(False)
    qtt: int = _switch(0)
    rfp: int = _switch(0)
    razor: int = _switch(0)
    aspiration: int = _switch(0)
    lmp: int = _switch(0)
    mopup: int = _switch(0)
    morphs: int = _switch(1)
    futility: int = _switch(1)
    null: int = _switch(3)
    seeprune: int = _switch(3)

    def term(self, name: str) -> float:
        """The weight of dynamic term ``name``."""
        return self.terms.get(name, TERMS[name])


SWITCHES = tuple(f.name for f in fields(EngineConfig) if f.metadata.get("switch"))


def fingerprint(variant: Variant) -> str:
    """A short hash of what the evaluation depends on: board size, pieces, moves, morphs."""
    text = f"{variant.files}x{variant.ranks} " + " ".join(
        f"{t.letter}:{t.betza}:{t.royal}:{t.morph}" for t in variant.types) + f" {variant.promo_choice}"
    return hashlib.sha1(text.encode()).hexdigest()[:12]


def changes_shape(variant: Variant, piece_type) -> bool:
    """Does a piece of this type change its type when it moves (a morph table) or in place (a transformation)?"""
    return bool(piece_type.morph) or any(piece_type.index in group for group in variant.transforms)


def shape_changing(variant: Variant) -> bool:
    """Does some piece of the variant change shape (see :func:`changes_shape`)?"""
    return any(changes_shape(variant, t) for t in variant.types)


def default_config(variant: Variant) -> EngineConfig:
    """The plain engine for ``variant``: the defaults, with the dynamic terms off where pieces morph
    or transform (measured: see docs/engine-configuration.md)."""
    return EngineConfig(dynamic=0 if shape_changing(variant) else 100)


def load_entry(name: str, entry: Mapping, base: EngineConfig) -> EngineConfig:
    """``base`` with the settings of a :data:`CONFIG_FILE` entry (``fingerprint`` aside); ValueError
    names a setting that :class:`EngineConfig` does not have."""
    settings = {k: v for k, v in entry.items() if k != "fingerprint"}
    unknown = sorted(set(settings) - {f.name for f in fields(EngineConfig)})
    if unknown:
        raise ValueError(f"{CONFIG_FILE}: {name}: unknown setting {', '.join(unknown)}")
    return replace(base, **settings)


def _build(variant: Variant) -> EngineConfig:
    table = json.loads(resources.files(__package__).joinpath(CONFIG_FILE).read_text(encoding="utf-8"))
    base = default_config(variant)
    entry = table.get(variant.name)
    if entry is None or entry["fingerprint"] != fingerprint(variant):
        return base
    return load_entry(variant.name, entry, base)


def config_for(variant: Variant) -> EngineConfig:
    """The configuration of ``variant``: its :data:`CONFIG_FILE` entry when its name and fingerprint
    match one, on top of :func:`default_config`; kept with the variant."""
    return variant.derived(("engine config",), lambda: _build(variant))
