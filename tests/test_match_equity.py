"""Match equity (the Bummerl value table): the chance to win the game to 7 from every score."""

from __future__ import annotations

import json
from importlib import resources
from itertools import pairwise

import pytest

from bummerl.match_equity import OUTCOMES, deal_odds, markov_win_chance, outcome_values, win_chance
from bummerl.rules import PRESETS, Rules

SCORES = range(1, 8)


@pytest.mark.parametrize("preset", list(PRESETS))
def test_every_preset_has_measured_deal_odds(preset: str) -> None:
    odds = deal_odds(preset)
    assert odds.deals >= 400  # Sixty-Six: 400 PIMC self-play deals (its solves are the dearest)
    assert sum(odds.probs) == pytest.approx(1.0)
    assert all(p > 0 for k, p in zip(OUTCOMES, odds.probs, strict=True) if k)


@pytest.mark.parametrize("preset", list(PRESETS))
def test_the_table_is_symmetric_between_the_players(preset: str) -> None:
    for a in SCORES:
        for b in SCORES:
            for deals in (False, True):
                mine, theirs = win_chance(preset, a, b, deals), win_chance(preset, b, a, not deals)
                assert mine + theirs == pytest.approx(1.0)


@pytest.mark.parametrize("preset", list(PRESETS))
def test_needing_fewer_points_is_better(preset: str) -> None:
    for deals in (False, True):
        for a in SCORES:
            for b in SCORES:
                here = win_chance(preset, a, b, deals)
                assert 0.0 < here < 1.0
                if a > 1:
                    assert win_chance(preset, a - 1, b, deals) > here
                if b > 1:
                    assert win_chance(preset, a, b - 1, deals) < here


def test_a_finished_bummerl_is_won_or_lost() -> None:
    assert win_chance("standard", 0, 4, True) == 1.0
    assert win_chance("standard", -2, 1, False) == 1.0
    assert win_chance("standard", 4, 0, True) == 0.0


def test_the_markov_model_follows_the_dealer_alternation() -> None:
    forehand_always_wins_2 = (0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0)
    # Needing 3 against 2: as forehand I win 2 (need 1), then the opponent leads and wins 2: lost.
    assert markov_win_chance(forehand_always_wins_2, 3, 2, False) == 0.0
    # Needing 2 against 3, leading first: win at once.
    assert markov_win_chance(forehand_always_wins_2, 2, 3, False) == 1.0
    coin = (0.0, 0.0, 0.5, 0.0, 0.5, 0.0, 0.0)
    assert markov_win_chance(coin, 1, 1, True) == pytest.approx(0.5)
    assert markov_win_chance(coin, 1, 2, True) == pytest.approx(0.75)


def test_draws_only_pass_the_deal_on() -> None:
    mostly_draws = (0.0, 0.0, 0.05, 0.9, 0.05, 0.0, 0.0)
    assert markov_win_chance(mostly_draws, 1, 1, False) == pytest.approx(0.5)


def test_the_shipped_tables_match_the_model() -> None:
    raw = json.loads(resources.files("bummerl").joinpath("data", "bummerl_values.json").read_text("utf-8"))
    for preset, entry in raw["presets"].items():
        for side, deals in (("deals", True), ("does_not_deal", False)):
            for a in SCORES:
                for b in SCORES:
                    expected = win_chance(preset, a, b, deals)
                    assert entry["table"][side][a - 1][b - 1] == pytest.approx(expected, abs=1e-4)


def test_outcome_values_order_the_results_of_a_deal() -> None:
    for needed in ((7, 7), (1, 1), (3, 6), (6, 2)):
        for dealer in (0, 1):
            vals = outcome_values(Rules.preset("standard"), needed, seat=0, dealer=dealer)
            assert all(x <= y for x, y in pairwise(vals))
            assert vals[0] < vals[-1]


def test_at_one_point_each_every_won_deal_wins_the_game() -> None:
    vals = outcome_values("standard", (1, 1), seat=1, dealer=0)
    assert vals[:3] == (0.0, 0.0, 0.0) and vals[4:] == (1.0, 1.0, 1.0)


def test_outside_a_bummerl_the_values_are_game_points() -> None:
    assert outcome_values("sixty-six", None, seat=0, dealer=0) == tuple(float(k) for k in OUTCOMES)


def test_the_old_module_name_still_imports_with_a_deprecation_warning() -> None:
    import importlib
    import sys

    sys.modules.pop("bummerl.bummerl_value", None)
    with pytest.warns(DeprecationWarning, match="match_equity"):
        old = importlib.import_module("bummerl.bummerl_value")
    assert old.win_chance is win_chance
