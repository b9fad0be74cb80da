"""Shared variant lists and helpers of the test suite."""

from __future__ import annotations

import random
from collections.abc import Iterator

from morphchess import Position, builtin, variant_names

DEGENS = ["morphomania", "snappy-chess", "morphing-chess", "crossroads"]
VARIANTS = variant_names()
# every built-in start array: (variant, setup)
SETUPS = [(name, setup) for name in VARIANTS for setup in builtin(name).setups]


def random_positions(name: str, setup: str, games: int, seed: object, max_plies: int = 120) -> Iterator[Position]:
    """The positions of ``games`` random games of a built-in variant, one Position changed in place
    (use each before asking for the next); games stop when they end or after ``max_plies``."""
    rng = random.Random(seed)
    v = builtin(name)
    for _ in range(games):
        pos = Position(v, setup)
        for _ply in range(rng.randrange(max_plies // 4, max_plies)):
            legal = pos.legal_moves()
            yield pos
            if not legal or pos.outcome(legal) is not None:
                break
            pos.make(rng.choice(legal))
