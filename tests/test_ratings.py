"""Glicko-2 (bummerl.ratings) against Glickman's worked example, and its invariants."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bummerl.errors import BummerlError
from bummerl.ratings import Rating, update, update_pair


def test_glickmans_worked_example() -> None:
    after = update(Rating(1500, 200, 0.06), [(Rating(1400, 30), 1.0), (Rating(1550, 100), 0.0),
                                             (Rating(1700, 300), 0.0)])
    # the paper: 1464.06, 151.52, 0.05999 (it rounds its intermediate values)
    assert after.rating == pytest.approx(1464.06, abs=0.02)
    assert after.deviation == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=1e-5)


def test_a_period_without_games_only_widens_the_deviation() -> None:
    after = update(Rating(1600, 100, 0.06), [])
    assert after.rating == 1600 and after.deviation == pytest.approx((100**2 + (0.06 * 173.7178) ** 2) ** 0.5)


ratings = st.builds(Rating, st.floats(800, 2400), st.floats(30, 350), st.floats(0.03, 0.1))


@given(ratings, ratings)
def test_the_winner_gains_the_loser_loses_and_both_get_surer(a: Rating, b: Rating) -> None:
    a2, b2 = update_pair(a, b, 1.0)
    assert a2.rating > a.rating and b2.rating < b.rating
    assert a2.deviation < (a.deviation**2 + (a2.volatility * 173.7178) ** 2) ** 0.5 + 1e-9


@given(ratings)
def test_a_draw_between_equals_changes_no_rating(a: Rating) -> None:
    a2, b2 = update_pair(a, a, 0.5)
    assert a2.rating == pytest.approx(a.rating) and b2.rating == pytest.approx(a.rating)


@pytest.mark.parametrize("bad", [(1500, 0, 0.06), (float("nan"), 100, 0.06), (1500, 100, -1)])
def test_a_bad_rating_is_refused(bad: tuple[float, float, float]) -> None:
    with pytest.raises(BummerlError):
        Rating(*bad)


def test_a_bad_score_is_refused() -> None:
    with pytest.raises(BummerlError, match="result"):
        update(Rating(), [(Rating(), 2.0)])
