"""Glicko-2 ratings (Mark Glickman, "Example of the Glicko-2 system", 2013): a rating, its deviation and
its volatility, updated once per rating period from the games of that period.

Pure and small: :func:`rate` is the whole system, steps 2 to 8 of Glickman's paper.
A player is *provisional* while their deviation is above :data:`PROVISIONAL_RD`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["Rating", "rate", "idle", "SCALE", "TAU", "PROVISIONAL_RD"]

SCALE = 173.7178  # Glicko-2's scale: 400 / ln(10)
TAU = 0.5  # the system constant: how much the volatility may change (Glickman suggests 0.3 to 1.2)
EPSILON = 0.000001  # convergence of the volatility's iteration
PROVISIONAL_RD = 110.0  # a deviation above this marks the rating provisional


@dataclass(frozen=True)
class Rating:
    """A player's rating, its deviation (RD) and volatility (sigma); a new player's by default."""

    rating: float = 1500.0
    deviation: float = 350.0
    volatility: float = 0.06

    @property
    def provisional(self) -> bool:
        return self.deviation > PROVISIONAL_RD


def idle(player: Rating, periods: float) -> Rating:
    """The rating after ``periods`` rating periods without games, a fraction counting in part: only the
    deviation grows, as step 6 says (``phi^2 + periods * sigma^2``), never beyond a new player's."""
    if periods <= 0:
        return player
    phi, sigma = player.deviation / SCALE, player.volatility
    grown = SCALE * math.sqrt(phi * phi + periods * sigma * sigma)
    return Rating(player.rating, min(grown, Rating().deviation), sigma)


def _g(phi: float) -> float:
    return 1 / math.sqrt(1 + 3 * phi * phi / math.pi ** 2)


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1 / (1 + math.exp(-_g(phi_j) * (mu - mu_j)))


def _volatility(phi: float, sigma: float, v: float, delta: float, tau: float) -> float:
    """Step 5: the new volatility, the root of Glickman's f by the Illinois algorithm."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - phi * phi - v - ex) / (2 * (phi * phi + v + ex) ** 2) - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2)


def rate(player: Rating, games: Sequence[tuple[Rating, float]], tau: float = TAU) -> Rating:
    """The player's rating after one rating period.

    ``games`` are the period's games as ``(opponent's rating before the period, score)`` with score 1
    for a win, 0.5 for a draw, 0 for a loss.  Without games only the deviation grows (step 6).
    """
    mu, phi, sigma = (player.rating - 1500) / SCALE, player.deviation / SCALE, player.volatility
    if not games:
        return Rating(player.rating, SCALE * math.sqrt(phi * phi + sigma * sigma), sigma)
    opponents = [((o.rating - 1500) / SCALE, o.deviation / SCALE, score) for o, score in games]
    expected = [_expected(mu, mu_j, phi_j) for mu_j, phi_j, _ in opponents]
    v = 1 / sum(_g(phi_j) ** 2 * e * (1 - e) for (_, phi_j, _), e in zip(opponents, expected))
    gain = sum(_g(phi_j) * (score - e) for (_, phi_j, score), e in zip(opponents, expected))
    sigma_new = _volatility(phi, sigma, v, v * gain, tau)
    phi_star = math.sqrt(phi * phi + sigma_new * sigma_new)
    phi_new = 1 / math.sqrt(1 / (phi_star * phi_star) + 1 / v)
    mu_new = mu + phi_new * phi_new * gain
    return Rating(SCALE * mu_new + 1500, SCALE * phi_new, sigma_new)
