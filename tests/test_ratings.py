"""Glicko-2 (morphchess.ratings) against Glickman's published worked example and the system's rules."""

from __future__ import annotations

import math

import pytest

from morphchess.ratings import SCALE, Rating, idle, rate


def test_glickmans_worked_example():
    """"Example of the Glicko-2 system" (Glickman, 2013): a 1500/200/0.06 player beats a 1400/30 player
    and loses to 1550/100 and 1700/300 players, with tau 0.5: 1464.06, 151.52, 0.05999."""
    after = rate(Rating(1500, 200, 0.06), [(Rating(1400, 30), 1), (Rating(1550, 100), 0), (Rating(1700, 300), 0)],
                 tau=0.5)
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.deviation == pytest.approx(151.52, abs=0.01)
    assert 0.05999 <= after.volatility < 0.06  # the paper gives its first five decimals: 0.05999


def test_a_period_without_games_only_widens_the_deviation():
    after = rate(Rating(1700, 200, 0.06), [])
    assert after.rating == 1700 and after.volatility == 0.06
    assert after.deviation == pytest.approx(SCALE * math.sqrt((200 / SCALE) ** 2 + 0.06 ** 2))


def test_a_win_and_a_loss_against_an_equal_player_move_the_rating_by_the_same_amount():
    player, opponent = Rating(1500, 120, 0.06), Rating(1500, 120, 0.06)
    won, lost, drawn = (rate(player, [(opponent, s)]) for s in (1, 0, 0.5))
    assert won.rating - 1500 == pytest.approx(1500 - lost.rating) and won.rating > 1500
    assert drawn.rating == pytest.approx(1500) and drawn.deviation < player.deviation


def test_a_new_player_is_provisional_until_games_narrow_the_deviation():
    player, opponent = Rating(), Rating(1500, 60)
    assert player.provisional
    for _ in range(12):
        player = rate(player, [(opponent, 1), (opponent, 0)])
    assert not player.provisional and player.rating == pytest.approx(1500, abs=1)


def test_idle_periods_widen_the_deviation_as_empty_periods_do_up_to_a_new_players():
    player = Rating(1620, 80, 0.07)
    assert idle(player, 1) == rate(player, [])
    assert idle(player, 3).deviation == pytest.approx(rate(rate(rate(player, []), []), []).deviation)
    assert idle(player, 0) == player and idle(player, 0.5).deviation < idle(player, 1).deviation
    assert idle(player, 10 ** 6) == Rating(1620, 350, 0.07)
