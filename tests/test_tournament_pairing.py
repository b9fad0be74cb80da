"""The tournaments' rules on their own: the arena's points with the streak bonus and its pairing of free
players (by rank, no immediate rematch unless only two play, colours balanced, never a player against
themself), and Swiss rounds (the Dutch order, floaters, byes, no repeats, a bounded search)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from morphchess.web.pairing import FIRE, SHORT_DRAW, Waiting, arena_pairs, points, swiss_round


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


def test_a_quick_draw_scores_nothing_in_an_arena_and_a_half_point_in_a_swiss_tournament():
    assert SHORT_DRAW == 20  # ten moves each
    assert points("draw", 0, 19) == (0, 0) and points("draw", 3, 19) == (0, 0)
    assert points("draw", 0, 20) == (1, 0) and points("draw", 3, 20) == (2, 0)
    assert points("win", 0, 3) == (2, 1)  # a quick win counts
    assert points("draw", 0) == (1, 0)  # no plies: Swiss half-points


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


# -- Swiss --------------------------------------------------------------------------------------

def pairs_of(found) -> set[frozenset[int]]:
    return {frozenset(pair) for pair in found[0]}


def test_a_first_round_pairs_the_top_half_with_the_bottom_half():
    found = swiss_round([Waiting(i) for i in range(1, 9)])
    assert pairs_of(found) == {frozenset(p) for p in ((1, 5), (2, 6), (3, 7), (4, 8))} and found[1] is None


def test_an_odd_number_gives_the_lowest_ranked_a_bye_once():
    found = swiss_round([Waiting(i) for i in range(1, 6)])
    assert found[1] == 5 and pairs_of(found) == {frozenset((1, 3)), frozenset((2, 4))}
    found = swiss_round([Waiting(1, 2), Waiting(2, 2), Waiting(3, 0), Waiting(4, 0), Waiting(5, 2, had_bye=True)])
    assert found[1] == 4  # 5 had one already: the next lowest


def test_score_groups_meet_within_and_a_lone_leader_floats_down():
    second = swiss_round([Waiting(i, 2 if i <= 4 else 0, met=frozenset({i + 4 if i <= 4 else i - 4}))
                          for i in range(1, 9)])
    assert pairs_of(second) == {frozenset(p) for p in ((1, 3), (2, 4), (5, 7), (6, 8))}
    # the leader meets the highest of the next group; that group pairs on among itself
    found = swiss_round([Waiting(1, 4), Waiting(2, 2), Waiting(3, 2), Waiting(4, 2), Waiting(5, 0), Waiting(6, 0)])
    assert pairs_of(found) == {frozenset((1, 2)), frozenset((3, 4)), frozenset((5, 6))}


def test_a_repeat_is_avoided_by_the_next_candidate():
    found = swiss_round([Waiting(1, met=frozenset({3})), Waiting(2), Waiting(3, met=frozenset({1})), Waiting(4)])
    assert pairs_of(found) == {frozenset((1, 4)), frozenset((2, 3))}


def test_eight_players_play_seven_rounds_without_a_repeat_and_then_cannot_be_paired():
    met: dict[int, set[int]] = {i: set() for i in range(8)}
    score = dict.fromkeys(met, 0)
    for _ in range(7):
        ranked = sorted(met, key=lambda i: (-score[i], i))
        found = swiss_round([Waiting(i, score[i], met=frozenset(met[i])) for i in ranked])
        assert found is not None and found[1] is None and len(found[0]) == 4
        for white, black in found[0]:
            assert black not in met[white]
            met[white].add(black)
            met[black].add(white)
            score[min(white, black)] += 2  # the lower number wins
    assert all(len(m) == 7 for m in met.values())  # a round robin by the seventh round
    assert swiss_round([Waiting(i, score[i], met=frozenset(met[i])) for i in met]) is None


def test_three_players_share_the_byes_and_then_stop():
    rounds = [swiss_round([Waiting(1), Waiting(2), Waiting(3)])]
    assert rounds[0][1] == 3 and pairs_of(rounds[0]) == {frozenset((1, 2))}
    second = swiss_round([Waiting(1, met=frozenset({2})), Waiting(2, met=frozenset({1})),
                          Waiting(3, had_bye=True)])
    assert second[1] in (1, 2) and pairs_of(second) == {frozenset((3, 3 - second[1]))}


def test_a_round_that_cannot_be_paired_is_found_out_within_the_search_budget():
    # two groups of 15 who have met everyone of the other group: no pairing without a repeat, and
    # each group alone has 15 x 13!! ways to try, far more than the budget
    groups = [range(0, 15), range(15, 30)]
    other = {i: frozenset(groups[1] if i < 15 else groups[0]) for i in range(30)}
    assert swiss_round([Waiting(i, met=other[i]) for i in range(30)], tries=5000) is None


@given(st.integers(2, 40), st.integers(0, 2**32))
def test_big_fresh_rounds_pair_everyone_but_one_bye(n, seed):
    import random
    scores = random.Random(seed).choices([0, 1, 2, 3, 4], k=n)
    ranked = sorted((Waiting(i, s) for i, s in enumerate(scores)), key=lambda p: -p.score)
    pairs, bye = swiss_round(ranked)
    ids = [p for pair in pairs for p in pair] + ([bye] if bye is not None else [])
    assert sorted(ids) == list(range(n)) and (bye is None) == (n % 2 == 0)


def test_two_hundred_players_pair_fifteen_rounds_each_within_a_thousand_candidates():
    import random
    rng = random.Random(1)
    n = 200
    met: dict[int, set[int]] = {i: set() for i in range(n)}
    score = dict.fromkeys(met, 0)
    byes: set[int] = set()
    for _ in range(15):
        ranked = sorted(met, key=lambda i: (-score[i], i))
        found = swiss_round([Waiting(i, score[i], met=frozenset(met[i]), had_bye=i in byes) for i in ranked],
                            tries=1000)
        assert found is not None and len(found[0]) == n // 2
        for white, black in found[0]:
            assert black not in met[white]
            met[white].add(black)
            met[black].add(white)
            luck = rng.random()
            winner = white if luck < 0.45 else black if luck < 0.9 else None
            for p in (white, black):
                score[p] += 1 if winner is None else 2 * (p == winner)
