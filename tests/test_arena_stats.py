"""Arena statistics on known inputs: Wilson and t intervals, Bummerl chaining, Bradley-Terry ratings."""

from __future__ import annotations

import math

import pytest

from bummerl.arena.stats import Z95, bradley_terry, chain_bummerls, mean_interval, t_quantile, wilson


def test_z95_is_the_two_sided_normal_quantile() -> None:
    assert abs(Z95 - 1.959964) < 1e-6


@pytest.mark.parametrize(
    ("k", "n", "low", "high"),
    [
        (8, 10, 0.4902, 0.9433),  # textbook values
        (0, 10, 0.0, 0.2775),
        (10, 10, 0.7225, 1.0),
        (50, 100, 0.4038, 0.5962),
        (1, 2, 0.0945, 0.9055),
    ],
)
def test_wilson_matches_known_intervals(k: int, n: int, low: float, high: float) -> None:
    lo, hi = wilson(k, n)
    assert lo == pytest.approx(low, abs=1e-4) and hi == pytest.approx(high, abs=1e-4)


def test_wilson_is_symmetric_between_successes_and_failures() -> None:
    lo, hi = wilson(13, 40)
    lo2, hi2 = wilson(27, 40)
    assert lo == pytest.approx(1 - hi2) and hi == pytest.approx(1 - lo2)


def test_wilson_without_trials_is_the_whole_range() -> None:
    assert wilson(0, 0) == (0.0, 1.0)


@pytest.mark.parametrize(
    ("df", "value"), [(1, 12.7062), (2, 4.3027), (5, 2.5706), (10, 2.2281), (30, 2.0423), (100, 1.9840)]
)
def test_t_quantiles_match_the_table(df: int, value: float) -> None:
    assert t_quantile(0.975, df) == pytest.approx(value, abs=1e-4)


def test_t_quantiles_tend_to_the_normal_and_are_symmetric() -> None:
    assert t_quantile(0.975, 10**6) == pytest.approx(Z95, abs=1e-5)
    assert t_quantile(0.025, 7) == pytest.approx(-t_quantile(0.975, 7))
    with pytest.raises(ValueError):
        t_quantile(1.0, 3)


def test_mean_interval_on_known_data() -> None:
    mean, lo, hi = mean_interval([1.0, 2.0, 3.0, 4.0])
    # mean 2.5, s = 1.2910, t(0.975, 3) = 3.1824: half-width 2.0543
    assert (mean, lo, hi) == pytest.approx((2.5, 0.4457, 4.5543), abs=1e-4)


def test_mean_interval_of_constant_data_has_no_width() -> None:
    assert mean_interval([2.0] * 5) == (2.0, 2.0, 2.0)


def test_mean_interval_needs_two_values_for_bounds() -> None:
    mean, lo, hi = mean_interval([3.0])
    assert mean == 3.0 and math.isnan(lo) and math.isnan(hi)
    assert all(math.isnan(x) for x in mean_interval([]))


def test_chaining_takes_points_off_the_winner_until_zero() -> None:
    # A: 7-3=4, 4-3=1, then B takes 2, then A's 1 point finishes it.
    chain = chain_bummerls([3, 3, -2, 1])
    assert chain.wins == (1, 0) and chain.lengths == (4,) and chain.unfinished is None


def test_chaining_drops_points_beyond_zero_and_starts_again_at_seven() -> None:
    # A wins the first Bummerl 7-3-3-3 (overshoot 2 dropped); B wins the next one 3+3+1.
    chain = chain_bummerls([3, 3, 3, -3, -3, -1])
    assert chain.wins == (1, 1) and chain.lengths == (3, 3) and chain.unfinished is None


def test_chaining_reports_the_unfinished_last_bummerl_and_skips_draws() -> None:
    chain = chain_bummerls([2, 0, -3, 0])
    assert chain.wins == (0, 0) and chain.lengths == () and chain.unfinished == (5, 4)


def test_chaining_nothing_gives_nothing() -> None:
    chain = chain_bummerls([])
    assert chain.wins == (0, 0) and chain.unfinished is None


def test_bradley_terry_recovers_the_strength_ratio_of_two_players() -> None:
    # 75 % wins: strength ratio 3, Elo gap 400 log10(3) = 190.8, split evenly around the mean.
    ratings = bradley_terry(2, [(0, 1, 75.0, 25.0)], prior=0.0)
    assert ratings[0] - ratings[1] == pytest.approx(400 * math.log10(3), abs=1e-6)
    assert sum(ratings) == pytest.approx(0, abs=1e-9)


def test_bradley_terry_recovers_consistent_three_player_strengths() -> None:
    strength = [4.0, 2.0, 1.0]
    games = 700
    results = []
    for i, j in ((0, 1), (0, 2), (1, 2)):
        share = strength[i] / (strength[i] + strength[j])
        results.append((i, j, games * share, games * (1 - share)))
    ratings = bradley_terry(3, results, prior=0.0)
    step = 400 * math.log10(2)
    assert ratings[0] - ratings[1] == pytest.approx(step, abs=1e-6)
    assert ratings[1] - ratings[2] == pytest.approx(step, abs=1e-6)


def test_bradley_terry_prior_keeps_a_clean_sweep_finite() -> None:
    ratings = bradley_terry(2, [(0, 1, 10.0, 0.0)])
    # 10.5 to 0.5 after one virtual draw: ratio 21
    assert ratings[0] - ratings[1] == pytest.approx(400 * math.log10(21), abs=1e-6)


def test_bradley_terry_of_equal_results_is_all_zero() -> None:
    ratings = bradley_terry(3, [(0, 1, 5.0, 5.0), (1, 2, 5.0, 5.0), (0, 2, 5.0, 5.0)])
    assert ratings == pytest.approx([0.0, 0.0, 0.0], abs=1e-9)


def test_a_pair_that_played_no_game_adds_no_virtual_result() -> None:
    # An interrupted run rated a bot from a 0-0 pairing as if it had drawn (session 11's audit).
    played = [(0, 1, 39.0, 1.0), (0, 2, 2.0, 0.0)]
    with_empty = bradley_terry(3, [*played, (1, 2, 0.0, 0.0)])
    assert with_empty == bradley_terry(3, played)
    alone = bradley_terry(4, [*played, (1, 3, 0.0, 0.0)])
    assert math.isnan(alone[3]) and alone[:3] == bradley_terry(3, played)
