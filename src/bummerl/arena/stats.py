"""Arena statistics: 95 % intervals, Bummerls chained from deal results, Bradley-Terry ratings.

- Shares (deals won, Bummerls won) get the Wilson score interval.
- Means (game points per deal) get Student's t interval; the arena feeds it one value per *deck pair*
  (the mean of the two deals on one deck), so the luck of the cards is taken out by the pairing.
- Ratings are Bradley-Terry strengths on the Elo scale (400 log10), fitted by Hunter's MM algorithm.

>>> lo, hi = wilson(8, 10)
>>> round(lo, 4), round(hi, 4)
(0.4902, 0.9433)
>>> round(t_quantile(0.975, 10), 3)
2.228
>>> chain_bummerls([3, 3, -2, 1]).wins
(1, 0)
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from statistics import NormalDist

__all__ = [
    "Z95", "BummerlChain", "best_rating_first", "bradley_terry", "chain_bummerls", "mean_interval",
    "t_quantile", "wilson",
]

#: The two-sided 95 % normal quantile, 1.95996...
Z95 = NormalDist().inv_cdf(0.975)


def wilson(successes: float, trials: float, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a share; (0, 1) when there are no trials.

    >>> wilson(0, 0)
    (0.0, 1.0)
    >>> [round(x, 4) for x in wilson(0, 10)]
    [0.0, 0.2775]
    """
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    z2 = z * z
    denom = 1 + z2 / trials
    center = (p + z2 / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / denom
    return (max(0.0, center - half), min(1.0, center + half))


def _betacf(a: float, b: float, x: float) -> float:
    """Continued fraction of the incomplete beta function (modified Lentz)."""
    tiny = 1e-300
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1)
    d = 1 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 300):
        for num in (m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
                    -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))):
            d = 1 + num * d
            d = 1 / (d if abs(d) > tiny else tiny)
            c = 1 + num / c
            c = c if abs(c) > tiny else tiny
            h *= d * c
        if abs(d * c - 1) < 1e-15:
            break
    return h


def _betainc(a: float, b: float, x: float) -> float:
    """The regularized incomplete beta function I_x(a, b)."""
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    log_front = math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    front = math.exp(log_front)
    if x < (a + 1) / (a + b + 2):
        return front * _betacf(a, b, x) / a
    return 1 - front * _betacf(b, a, 1 - x) / b


def _t_cdf(t: float, df: float) -> float:
    tail = 0.5 * _betainc(df / 2, 0.5, df / (df + t * t))
    return 1 - tail if t > 0 else tail


def _t_pdf(t: float, df: float) -> float:
    log_norm = math.lgamma((df + 1) / 2) - math.lgamma(df / 2) - 0.5 * math.log(df * math.pi)
    return math.exp(log_norm - (df + 1) / 2 * math.log1p(t * t / df))


@functools.lru_cache(maxsize=256)
def t_quantile(p: float, df: float) -> float:
    """The p-quantile of Student's t distribution with ``df`` degrees of freedom.

    Newton's method from the normal quantile (the t CDF is concave above 0, so the steps climb to the
    root from below), with bisection as a safety net.

    >>> round(t_quantile(0.975, 1), 3), round(t_quantile(0.975, 30), 3), round(t_quantile(0.5, 4), 6)
    (12.706, 2.042, 0.0)
    """
    if not 0 < p < 1 or df <= 0:
        raise ValueError(f"t_quantile needs 0 < p < 1 and df > 0 (got p={p}, df={df})")
    if p < 0.5:
        return -t_quantile(1 - p, df)
    x = NormalDist().inv_cdf(p)
    for _ in range(100):
        step = (p - _t_cdf(x, df)) / _t_pdf(x, df)
        x += step
        if abs(step) < 1e-12 * max(1.0, x):
            return x
    lo, hi = 0.0, 1.0
    while _t_cdf(hi, df) < p:
        lo, hi = hi, hi * 2
    for _ in range(200):
        mid = (lo + hi) / 2
        if _t_cdf(mid, df) < p:
            lo = mid
        else:
            hi = mid
        if hi - lo < 1e-12 * max(1.0, hi):
            break
    return (lo + hi) / 2


def mean_interval(values: Sequence[float], confidence: float = 0.95) -> tuple[float, float, float]:
    """(mean, low, high): Student's t interval for the mean; low and high are NaN for fewer than 2 values.

    >>> [round(x, 4) for x in mean_interval([1.0, 2.0, 3.0, 4.0])]
    [2.5, 0.4457, 4.5543]
    """
    n = len(values)
    if n == 0:
        return (math.nan, math.nan, math.nan)
    mean = math.fsum(values) / n
    if n < 2:
        return (mean, math.nan, math.nan)
    var = math.fsum((v - mean) ** 2 for v in values) / (n - 1)
    half = t_quantile(0.5 + confidence / 2, n - 1) * math.sqrt(var / n)
    return (mean, mean - half, mean + half)


@dataclass(frozen=True, slots=True)
class BummerlChain:
    """Deal results chained into Bummerls: wins of A and B, deals per finished Bummerl, and what each side
    still needed in the unfinished last one (None if the last deal finished a Bummerl)."""

    wins: tuple[int, int]
    lengths: tuple[int, ...]
    unfinished: tuple[int, int] | None


def chain_bummerls(signed_points: Iterable[int], target: int = 7) -> BummerlChain:
    """Chain deal results, in order, into Bummerls (games to ``target``).

    Each value is one deal from A's side: ``+g`` A won g game points, ``-g`` B won g, 0 a draw. Both start
    needing ``target``; a deal's points come off its winner's count; the first at 0 or below wins that
    Bummerl (points beyond 0 are dropped) and the next deal starts a new one at ``target`` each. A Bummerl
    still running after the last deal is not counted (see ``unfinished``).

    >>> chain_bummerls([2, -3, 3, 2, -1, -3])
    BummerlChain(wins=(1, 0), lengths=(4,), unfinished=(7, 3))
    """
    need_a = need_b = target
    wins_a = wins_b = 0
    lengths: list[int] = []
    played = 0
    for g in signed_points:
        played += 1
        if g > 0:
            need_a -= g
        else:
            need_b += g
        if need_a <= 0 or need_b <= 0:
            if need_a <= 0:
                wins_a += 1
            else:
                wins_b += 1
            lengths.append(played)
            played = 0
            need_a = need_b = target
    return BummerlChain((wins_a, wins_b), tuple(lengths), (need_a, need_b) if played else None)


def best_rating_first(rating: float) -> tuple[bool, float]:
    """A sort key for ratings: the best first, a player without one (NaN: no game played) last.

    >>> sorted([10.0, float("nan"), 30.0], key=best_rating_first)
    [30.0, 10.0, nan]
    """
    return (math.isnan(rating), 0.0 if math.isnan(rating) else -rating)


def bradley_terry(
    players: int, results: Iterable[tuple[int, int, float, float]], prior: float = 0.5,
    iterations: int = 10_000, tolerance: float = 1e-12,
) -> list[float]:
    """Bradley-Terry strengths, as Elo-scale ratings (400 log10) with mean 0, from pair results.

    ``results`` holds ``(i, j, wins_i, wins_j)`` (draws counted half to each). Every pair that met gets
    ``prior`` virtual wins each way, so a bot that won every game still gets a finite rating; a pair that
    played no game (an interrupted run) adds nothing, and a player without any game has no rating (NaN).
    Fitted with Hunter's MM iteration.

    >>> [round(r, 1) for r in bradley_terry(2, [(0, 1, 75.5, 24.5)])]
    [96.6, -96.6]
    >>> [round(r, 1) for r in bradley_terry(3, [(0, 1, 75.5, 24.5), (0, 2, 0, 0)])]
    [96.6, -96.6, nan]
    """
    wins = [0.0] * players
    games: dict[tuple[int, int], float] = {}
    for i, j, wi, wj in results:
        if i == j or wi + wj <= 0:
            continue
        a, b = (i, j) if i < j else (j, i)
        games[(a, b)] = games.get((a, b), 0.0) + wi + wj + 2 * prior
        wins[i] += wi + prior
        wins[j] += wj + prior
    played = [k for k in range(players) if any(k in pair for pair in games)]
    strength = [1.0] * players
    for _ in range(iterations if played else 0):
        denom = [0.0] * players
        for (i, j), n in games.items():
            share = n / (strength[i] + strength[j])
            denom[i] += share
            denom[j] += share
        new = [wins[k] / denom[k] if denom[k] > 0 else strength[k] for k in range(players)]
        log_mean = math.fsum(math.log(new[k]) for k in played) / len(played)
        new = [s / math.exp(log_mean) for s in new]
        done = max(abs(math.log(new[k] / strength[k])) for k in played) < tolerance
        strength = new
        if done:
            break
    return [400 * math.log10(strength[k]) if k in played else math.nan for k in range(players)]
