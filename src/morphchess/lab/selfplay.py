"""One self-play game of the lab, written down as a plain record (a dict that JSON can hold)."""

from __future__ import annotations

import hashlib
import json
import random
from collections import Counter
from dataclasses import asdict, dataclass
from functools import lru_cache

from ..board import Board, Move
from ..engine.match import MAX_PLIES, make_player, parse_spec, play_game, random_opening
from ..errors import OptionError
from ..loader import load
from ..variant import Variant
from ..variants import load_variant

__all__ = ["LabSettings", "settings_for", "play_one", "play_batch", "variant_of"]


@dataclass(frozen=True)
class LabSettings:
    """Everything that decides a lab's games, except how many there are.

    ``name`` and ``text`` are the variant's name and definition text (so that
    workers on other machines need no file), ``player`` a player spec of
    :mod:`morphchess.engine.match` (``level:2``, ``time:50``), ``setup`` a setup
    name or ``random`` (one per game).  Game ``i`` draws its setup and opening
    from ``f"{seed}/{i}"``.
    """

    name: str
    text: str
    player: str = "level:2"
    opening_plies: int = 4
    seed: int = 1
    setup: str = "standard"
    max_plies: int = MAX_PLIES

    def digest(self) -> str:
        """A short fingerprint of the settings (the default store directory's suffix)."""
        return hashlib.sha256(json.dumps(asdict(self), sort_keys=True).encode()).hexdigest()[:8]


def settings_for(spec: str | Variant, level: int | None = None, movetime: int | None = None,
                 opening_plies: int = 4, seed: int = 1, setup: str | None = None,
                 max_plies: int = MAX_PLIES) -> LabSettings:
    """Check the options and make the settings; ``spec`` is a built-in name, a file or a Variant."""
    variant = spec if isinstance(spec, Variant) else load_variant(spec)
    if level is not None and movetime is not None:
        raise OptionError("give --level or --movetime, not both")
    player = f"time:{movetime}" if movetime is not None else f"level:{2 if level is None else level}"
    parse_spec(player)
    if opening_plies < 0:
        raise OptionError("--opening-plies must be 0 or more")
    if max_plies < 1:
        raise OptionError("--max-plies must be at least 1")
    setup = setup or "standard"
    if setup != "random":
        variant.placement(setup)  # refuses a setup the variant does not have
    return LabSettings(variant.name, variant.text, player, opening_plies, seed, setup, max_plies)


@lru_cache(maxsize=8)
def variant_of(name: str, text: str) -> Variant:
    """The variant of a lab's settings (loaded once per process)."""
    return load(text, name)


def play_one(settings: LabSettings, index: int) -> dict:
    """Play game ``index`` of a lab and return its record."""
    variant = variant_of(settings.name, settings.text)
    rng = random.Random(f"{settings.seed}/{index}")
    setup = rng.choice(sorted(variant.setups)) if settings.setup == "random" else settings.setup
    board = Board(variant, setup=setup)
    random_opening(board, settings.opening_plies, rng)
    player = make_player(settings.player, variant, 0, rng)
    try:
        result = play_game(board, player, player, settings.max_plies)
    finally:
        player.close()
    outcome = board.outcome()
    record = {"index": index, "variant": settings.name, "setup": setup, "seed": f"{settings.seed}/{index}",
              "player": settings.player, "opening_plies": settings.opening_plies, "result": result,
              "termination": outcome.termination if outcome else "move cap", "length": len(board.move_stack)}
    record.update(_replay(board.root(), board.move_stack, settings.opening_plies))
    return record


def play_batch(settings: LabSettings, indices: list[int]) -> list[dict]:
    """Play several games (one task of a distributed run)."""
    return [play_one(settings, i) for i in indices]


def _change(move: Move) -> str:
    return f"{move.piece.upper()}>{move.new_piece.upper()}"


def _replay(board: Board, moves: list[Move], opening_plies: int) -> dict:
    """Moves, SAN, counts of changes of type and the material samples of a finished game.

    A material sample is White's minus Black's count of each non-royal letter in
    a quiet position after the opening (neither the move before nor the one after
    is a capture); equal samples of a game are merged into ``[difference, plies]``.
    """
    royal = {t.letter for t in board.variant.types if t.royal}
    san: list[str] = []
    changes: dict[str, Counter] = {"morphs": Counter(), "transformations": Counter(), "promotions": Counter()}
    samples: Counter = Counter()
    for ply, move in enumerate(moves):
        san.append(board.san(move))
        if move.is_transformation:
            changes["transformations"][_change(move)] += 1
        elif move.is_choice:
            changes["promotions"][_change(move)] += 1
        elif move.new_piece != move.piece:
            changes["morphs"][_change(move)] += 1
        board.push(move)
        after = moves[ply + 1] if ply + 1 < len(moves) else None
        if ply + 1 >= opening_plies and not move.is_capture and not (after and after.is_capture):
            samples[_material(board, royal)] += 1
    return {"moves": [m.uci() for m in moves], "san": san, **{k: dict(v) for k, v in changes.items()},
            "material": [[dict(diff), n] for diff, n in samples.items()]}


def _material(board: Board, royal: set[str]) -> tuple:
    count: Counter = Counter()
    for sq in range(board.variant.size):
        letter = board.piece_at(sq)
        if letter and letter.upper() not in royal:
            count[letter.upper()] += 1 if letter.isupper() else -1
    return tuple(sorted((k, v) for k, v in count.items() if v))
