"""Staged move generation yields exactly the legal moves, each once, and puts the hash move first."""

from pathlib import Path

import pytest

from morphchess import load
from morphchess.engine.movepick import staged_moves
from morphchess.engine.tt import TranspositionTable

from common import VARIANTS, random_positions

DEFINITIONS = Path(__file__).parent / "definitions"


def staged(pos, tt_move=None, killers=(None, None)):
    size = pos.t.size
    pst = [[0] * size for _ in range(pos.t.ncodes)]
    return list(staged_moves(pos, tt_move, pst, [100] * pos.t.ncodes, list(killers), {}))


def check_positions(variant, seed) -> int:
    n = 0
    for pos in random_positions(variant, "standard", 3, seed, max_plies=80):
        legal = pos.legal_moves()
        moves = staged(pos)
        assert len(moves) == len(set(moves)) and set(moves) == set(legal), pos
        if legal:  # a hash move comes first and is not repeated; killers from elsewhere are harmless
            first = legal[len(legal) // 2]
            moves = staged(pos, first, killers=(legal[-1], legal[0]))
            assert moves[0] == first and sorted(moves) == sorted(legal)
        n += 1
    return n


@pytest.mark.parametrize("name", VARIANTS)
def test_staged_moves_are_the_legal_moves(name):
    assert check_positions(name, f"stages/{name}") > 20


@pytest.mark.parametrize("name", ["xiangqi", "elven-shogi", "omega-chess", "spartan", "tamerlane"])
def test_staged_moves_in_defined_variants(name):
    """Hoppers (xiangqi), drops (shogi), several royal pieces (Spartan), odd boards and pieces."""
    variant = load((DEFINITIONS / f"{name}.txt").read_text(), name)
    assert check_positions(variant, f"stages/{name}") > 20


def test_pseudo_legal_test_rejects_foreign_moves():
    """A move remembered from another position is rejected when its piece is not there (or not ours)."""
    positions = random_positions("chess", "standard", 1, "foreign", max_plies=40)
    pos = next(positions)
    white = pos.legal_moves()
    pos.make(white[0])
    assert all(not pos.is_pseudo_legal(m) for m in white if m[0] != white[0][1])
    assert all(pos.is_pseudo_legal(m) for m in pos.legal_moves())


def test_table_prefers_depth_and_ages():
    tt = TranspositionTable(4)
    tt.put(8, 5, 0, 10, None)        # slot pair 0: 8, 12 and 4 share it
    tt.put(12, 2, 0, 20, None)       # shallower: goes to the always-replace slot
    assert tt.get(8)[1] == 5 and tt.get(12)[1] == 2
    tt.put(4, 1, 0, 30, None)        # replaces 12, the deep entry stays
    assert tt.get(12) is None and tt.get(8)[3] == 10 and tt.get(4)[3] == 30
    tt.new_search()
    tt.put(12, 1, 0, 40, None)       # a new search replaces the old deep entry
    assert tt.get(8) is None and tt.get(12)[3] == 40 and tt.get(4)[3] == 30
    with pytest.raises(ValueError, match="power of two"):
        TranspositionTable(6)
