"""Glicko-2 ratings (Mark Glickman, "Example of the Glicko-2 system", 2012): a rating, its deviation (how
unsure it is) and a volatility per player, updated from the results of a rating period.

The web server rates a game between two people as one rating period of one game for each of them.

Glickman's worked example: a 1500/200/0.06 player beats a 1400/30 player and loses to 1550/100 and 1700/300.

>>> after = update(Rating(1500, 200, 0.06), [(Rating(1400, 30), 1.0), (Rating(1550, 100), 0.0),
...                                          (Rating(1700, 300), 0.0)])
>>> round(after.rating, 2), round(after.deviation, 2), round(after.volatility, 6)
(1464.05, 151.52, 0.059996)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from bummerl.errors import BummerlError

__all__ = ["DEFAULT_VOLATILITY", "SCALE", "TAU", "Rating", "update", "update_pair"]

#: Glicko-2's scale factor between the Glicko scale (1500 ± RD) and its internal scale.
SCALE = 173.7178
#: The system constant τ: how much the volatility may change (Glickman suggests 0.3 to 1.2).
TAU = 0.5
#: The volatility of a new player.
DEFAULT_VOLATILITY = 0.06
_EPSILON = 1e-6


@dataclass(frozen=True, slots=True)
class Rating:
    """A player's rating on the Glicko scale (a new player: 1500, deviation 350)."""

    rating: float = 1500.0
    deviation: float = 350.0
    volatility: float = DEFAULT_VOLATILITY

    def __post_init__(self) -> None:
        if not (math.isfinite(self.rating) and self.deviation > 0 and self.volatility > 0):
            raise BummerlError(f"not a Glicko-2 rating: {self.rating}/{self.deviation}/{self.volatility}")


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def _volatility(phi: float, sigma: float, v: float, delta: float, tau: float) -> float:
    """Step 5 of Glickman's paper: the new volatility by the Illinois algorithm."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        spread = phi * phi + v + ex
        return ex * (delta * delta - spread) / (2.0 * spread * spread) - (x - a) / tau**2

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > _EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


def update(player: Rating, results: Sequence[tuple[Rating, float]], *, tau: float = TAU) -> Rating:
    """The player's rating after a rating period with ``results`` (opponent, score: 1 win, 0.5, 0 loss).
    No games: only the deviation grows.

    >>> update(Rating(1500, 200, 0.06), []).deviation > 200
    True
    """
    mu, phi = (player.rating - 1500.0) / SCALE, player.deviation / SCALE
    sigma = player.volatility
    if not results:
        return Rating(player.rating, math.sqrt(phi * phi + sigma * sigma) * SCALE, sigma)
    total, gain = 0.0, 0.0
    for opponent, score in results:
        if not 0.0 <= score <= 1.0:
            raise BummerlError(f"a result is 0, 0.5 or 1, not {score}")
        mu_j, phi_j = (opponent.rating - 1500.0) / SCALE, opponent.deviation / SCALE
        e = _expected(mu, mu_j, phi_j)
        g = _g(phi_j)
        total += g * g * e * (1.0 - e)
        gain += g * (score - e)
    v = 1.0 / total
    new_sigma = _volatility(phi, sigma, v, v * gain, tau)
    phi_star = math.sqrt(phi * phi + new_sigma * new_sigma)
    new_phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    new_mu = mu + new_phi * new_phi * gain
    return Rating(new_mu * SCALE + 1500.0, new_phi * SCALE, new_sigma)


def update_pair(first: Rating, second: Rating, score: float) -> tuple[Rating, Rating]:
    """Both players' ratings after one game between them (``score``: the first player's result).

    >>> a, b = update_pair(Rating(), Rating(), 1.0)
    >>> round(a.rating), round(b.rating)
    (1662, 1338)
    """
    return update(first, [(second, score)]), update(second, [(first, 1.0 - score)])
