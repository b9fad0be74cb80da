"""Perft of real definitions against the Interactive Diagram's own move generator.

The counts in tests/id_reference.json come from the ID's script run under node by
tools/idperft/idperft.js (see its "source"); the script itself is not in the repository.  The
harness names moves by origin, target and new type, so ``moves`` are coordinate texts both read.
"""

import json
import warnings
from pathlib import Path

import pytest

from morphchess import Position, load_variant
from morphchess.notation import move_to_coord, parse_coord

HERE = Path(__file__).parent
REFERENCE = json.loads((HERE / "id_reference.json").read_text())


def _case(entry: dict):
    marks = [pytest.mark.slow] if entry.get("slow") else []
    name = f"{entry['definition']}-{entry['moves'].replace(' ', '-') or 'start'}-{entry['depth']}"
    return pytest.param(entry, marks=marks, id=name)


def _position(definition: str, moves: str) -> Position:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        pos = Position(load_variant(str(HERE / "definitions" / definition)))
    for text in moves.split():
        pos.make(parse_coord(pos, text))
    return pos


@pytest.mark.parametrize("entry", [_case(e) for e in REFERENCE["counts"]])
def test_perft_equals_the_interactive_diagram(entry):
    pos = _position(entry["definition"], entry["moves"])
    assert pos.perft(entry["depth"]) == entry["count"]


def test_lame_double_step_from_any_square_gives_en_passant():
    """Metamachy's pawn (fmnnD) double-steps from rank 5: the ID lets the pawn beside it take e.p."""
    pos = _position("metamachy.txt", "e3e4 d10d8 e4e5 d8d7 e5e7")
    capture = parse_coord(pos, "d7e6")
    pos.make(capture)
    assert pos.board[pos.variant.square("e7")] == 0  # the pawn that passed e6 is gone


def test_promotion_in_a_deep_zone_is_forced():
    """Xiangqi's text: a pawn entering the five-rank zone must promote (its own type is no choice)."""
    pos = _position("xiangqi.txt", "a4a5 a10a8")
    texts = {move_to_coord(pos, m) for m in pos.legal_moves()}
    assert "a5a6q" in texts and "a5a6" not in texts
