"""The arena's rules on their own: points with the streak bonus, and pairing free players (by rank, no
immediate rematch unless only two play, colours balanced, never a player against themself)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

pytest.importorskip("sqlalchemy")
from morphchess.web.tournaments import FIRE, Waiting, arena_pairs, points  # noqa: E402


def sheet(outcomes: str) -> list[int]:
    """The points of a run of games, w(in) d(raw) l(oss), as a player's line shows them."""
    streak, out = 0, []
    for letter in outcomes:
        got, streak = points({"w": "win", "d": "draw", "l": "loss"}[letter], streak)
        out.append(got)
    return out


def test_two_wins_in_a_row_set_a_player_on_fire_until_a_game_is_not_won():
    assert FIRE == 2
    assert sheet("wwwdwl") == [2, 2, 4, 2, 2, 0]  # the third win doubles, and so does the draw after it
    assert sheet("wwwwlww") == [2, 2, 4, 4, 0, 2, 2]
    assert sheet("dddd") == [1, 1, 1, 1]  # draws never make a streak
    assert sheet("wlwlw") == [2, 0, 2, 0, 2]
    assert sheet("wwlwww") == [2, 2, 0, 2, 2, 4]


def test_four_free_players_meet_the_nearest_in_rank():
    free = [Waiting(1, 10), Waiting(2, 8), Waiting(3, 8), Waiting(4, 2)]
    assert sorted(map(sorted, arena_pairs(free))) == [[1, 2], [3, 4]]


def test_no_immediate_rematch_while_someone_else_is_free():
    # 1 and 2 just played each other, and so did 3 and 4: they swap partners
    free = [Waiting(1, 4, 0, 2), Waiting(2, 2, 0, 1), Waiting(3, 2, 0, 4), Waiting(4, 0, 0, 3)]
    assert sorted(map(sorted, arena_pairs(free))) == [[1, 3], [2, 4]]
    # only one of them remembers the other: still no rematch
    assert arena_pairs([Waiting(1, 0, 0, 2), Waiting(2)]) == []
    assert arena_pairs([Waiting(1), Waiting(2, 0, 0, 1)]) == []


def test_the_last_two_players_of_a_tournament_meet_again():
    two = [Waiting(1, 2, 1, 2), Waiting(2, 0, -1, 1)]
    assert arena_pairs(two) == []  # others are playing: they wait for them
    assert arena_pairs(two, again=True) == [(2, 1)]  # the only two active players; 2 had Black


def test_an_odd_player_waits_and_is_the_one_lowest_in_rank_who_could_not_be_paired():
    free = [Waiting(5, 6), Waiting(6, 4), Waiting(7, 0)]
    assert sorted(map(sorted, arena_pairs(free))) == [[5, 6]]
    # 8's last opponent was 9: 8 meets 10, and 9 waits
    free = [Waiting(8, 6, 0, 9), Waiting(9, 4, 0, 8), Waiting(10, 0)]
    assert sorted(map(sorted, arena_pairs(free))) == [[8, 10]]


def test_white_goes_to_the_player_who_had_black_more_often():
    assert arena_pairs([Waiting(1, 0, 2), Waiting(2, 0, 1)]) == [(2, 1)]
    assert arena_pairs([Waiting(1, 0, -1), Waiting(2, 0, 0)]) == [(1, 2)]
    seen = {arena_pairs([Waiting(1), Waiting(2)])[0] for _ in range(64)}
    assert seen == {(1, 2), (2, 1)}  # equal: either (a fixed choice would fail 2^-63 of the time)


players = st.lists(st.tuples(st.integers(0, 40), st.integers(-3, 3), st.integers(0, 30)), max_size=30)


@given(players, st.booleans())
def test_pairs_are_disjoint_and_never_a_player_alone_or_a_rematch(rows, again):
    free = [Waiting(i, score, balance, last if last != i else None)
            for i, (score, balance, last) in enumerate(sorted(rows, reverse=True))]
    pairs = arena_pairs(free, again)
    ids = [p for pair in pairs for p in pair]
    assert len(ids) == len(set(ids)) and set(ids) <= {p.id for p in free}
    by_id = {p.id: p for p in free}
    for white, black in pairs:
        assert white != black
        assert again or (by_id[white].last_opponent != black and by_id[black].last_opponent != white)
        assert by_id[white].balance <= by_id[black].balance
    # whoever waits could not be paired with any other waiting player
    waiting = [p for p in free if p.id not in ids]
    for a in waiting:
        for b in waiting:
            if a.id != b.id:
                assert not again and (a.last_opponent == b.id or b.last_opponent == a.id)
