"""Zones as data (confine=, forbid=, flyingGeneral=): built-in Xiangqi against Fairy-Stockfish
(pyffish's xiangqi) by perft and in random games, and the keys' meaning on small boards."""

import random
import warnings

import pytest

from morphchess import Position, builtin, load
from morphchess.notation import from_fen, move_to_coord
from morphchess.variant import VariantError

from common import perft_against

sf = pytest.importorskip("pyffish")


def _fsf(fen: str):
    return lambda moves: set(sf.legal_moves("xiangqi", fen, moves))


@pytest.mark.parametrize("depth, count", [(2, 1920), pytest.param(3, 79666, marks=pytest.mark.slow)])
def test_xiangqi_perft_from_the_start_equals_fairy_stockfish(depth, count):
    # 44, 1920, 79666: also the published xiangqi perft figures
    pos = Position(builtin("xiangqi"))
    assert perft_against(pos, _fsf(sf.start_fen("xiangqi")), depth) == count


@pytest.mark.parametrize("fen", [
    "4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1",  # the general may not step onto the open e-file
    "3k5/4a4/9/9/9/9/9/9/4A4/4K4 b - - 0 1",  # advisors in the palace, one shielding the file
    "4k4/9/4b4/9/2B6/9/9/9/9/3K5 w - - 0 1",  # elephants at the river
    "3akab2/9/4b4/p3p3p/9/2P3c2/P3P3P/4C4/4A4/3K1AB2 w - - 0 1",  # pawns across the river, cannons
])
def test_xiangqi_special_rules_equal_fairy_stockfish(fen):
    pos = from_fen(builtin("xiangqi"), fen)
    perft_against(pos, _fsf(fen), 3)


def test_xiangqi_random_games_equal_fairy_stockfish():
    start = sf.start_fen("xiangqi")
    rng = random.Random("zones")
    for _game in range(10):
        pos, played = Position(builtin("xiangqi")), []
        for _ply in range(80):
            legal = {move_to_coord(pos, m): m for m in pos.legal_moves()}
            assert set(legal) == set(sf.legal_moves("xiangqi", start, played)), played
            if not legal:
                break
            text = rng.choice(sorted(legal))
            pos.make(legal[text])
            played.append(text)


def test_stalemate_loses_in_xiangqi():
    pos = from_fen(builtin("xiangqi"), "3k5/4R4/9/9/9/9/9/9/9/4K4 b - - 0 1")
    assert pos.legal_moves() == [] and not pos.in_check()
    assert pos.outcome().winner == 0


SMALL = """files=5 ranks=5
{zone}
wazir:W:W::c1
king:K:K::a1
"""


def _targets(zone: str, square: str = "c1") -> set[str]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        v = load(SMALL.format(zone=zone), "zones")
    pos = Position(v)
    return {move_to_coord(pos, m)[2:] for m in pos.legal_moves() if v.square_name(m.origin) == square}


def test_confine_and_forbid_limit_the_targets():
    assert _targets("") == {"b1", "d1", "c2"}
    assert _targets("confine=W:b1-d1") == {"b1", "d1"}
    assert _targets("forbid=W:c2-e5") == {"b1", "d1"}
    assert _targets("confine=W:b1 confine=W:c1-c2") == {"b1", "c2"}  # two items: both areas
    assert _targets("confine=W:b1-d1 forbid=W:d1") == {"b1"}


def test_zone_keys_say_what_is_wrong():
    for bad in ("confine=W", "forbid=X:a1", "confine=W:a1,,a5", "forbid=W:z9"):
        with pytest.raises(VariantError, match=bad.split("=")[0]):
            load(SMALL.format(zone=bad), "zones")


def test_reach_and_attacks_stop_at_the_zone():
    v = builtin("xiangqi")
    t = v.tables
    general = next(c for c in range(t.ncodes) if t.valid[c] and t.letter[c] == "K")
    assert {v.square_name(to) for to, *_ in t.reach(general, v.square("d1"))} == {"e1", "d2"}
    pos = from_fen(v, "4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1")
    assert not pos.attacked(v.square("c1"), 0)  # outside the palace the general attacks nothing
    assert pos.attacked(v.square("d2"), 0) and not pos.attacked(v.square("e2"), 0)


def test_drops_keep_out_of_the_zone():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        v = load("files=5 ranks=5 holdingsType=-1 forbid=W:a3-e5\nwazir:W:W::c1:1\nking:K:K::a1", "zones")
    pos = Position(v)
    drops = {v.square_name(m.target) for m in pos.legal_moves() if v.square_name(m.origin) == v.square_name(m.target)
             and m.kind.name == "DROP"}
    assert drops == {"b1", "d1", "e1", "a2", "b2", "c2", "d2", "e2"}
