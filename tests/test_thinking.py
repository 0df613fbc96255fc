"""The thinking expert: the expert's values in columns, a paired margin, and more worlds only where a
decision is close, within a budget of estimated seconds; deterministic given the seed and the view."""

from __future__ import annotations

import math
from itertools import pairwise
from random import Random

import pytest

from bummerl.actions import Action
from bummerl.bots.expert import ExpertBot
from bummerl.bots.pimc import cards_left
from bummerl.bots.thinking import (
    SOLVE_MS,
    SPREAD,
    THINK_FROM,
    Branch,
    ThinkingExpert,
    branch,
    fused_columns,
    margin,
    solve_seconds,
)
from bummerl.engine import Deal
from bummerl.errors import BummerlError
from bummerl.match_equity import outcome_values
from bummerl.rules import Rules
from bummerl.search.worlds import worlds
from bummerl.view import View
from helpers.bot_checks import random_positions, same_choice_on_twins


def thinker(seed: int, think: float) -> ThinkingExpert:
    """A thinking expert on a small base budget (quick tests)."""
    return ThinkingExpert(seed, think=think, samples=24, early_samples=12, lookahead=16,
                          sixty_six_early=(4, 8))


def expert(seed: int) -> ExpertBot:
    """The expert on the same small budget."""
    return ExpertBot(seed, samples=24, early_samples=12, lookahead=16, sixty_six_early=(4, 8))

PLAY = Action.parse


def views(preset: str, count: int, seed: int) -> list[View]:
    """Views with a choice, half of them with a Bummerl score."""
    out = []
    for k, deal in enumerate(random_positions(Rules.preset(preset), count, seed)):
        view = View.of(deal, deal.to_move, score=(k % 7, (3 * k) % 7) if k % 2 else None)
        if len(view.legal_actions) > 1:
            out.append(view)
    return out


def close_enough(a: dict[Action, float], b: dict[Action, float]) -> bool:
    return set(a) == set(b) and all(math.isclose(a[x], b[x], abs_tol=1e-9) for x in a)


@pytest.mark.parametrize("preset", ["standard", "sixty-six", "tompa"])
def test_think_zero_values_every_action_as_the_expert_does(preset: str) -> None:
    for view in views(preset, 25, 11):
        assert close_enough(thinker(5, 0).evaluate(view), expert(5).evaluate(view))


def test_the_lookahead_in_columns_is_the_experts_own_next() -> None:
    rules = Rules.preset("standard")
    bot = ExpertBot(1)
    rng = Random(3)
    checked = 0
    for deal in random_positions(rules, 30, 4):
        view = View.of(deal, deal.to_move)
        ws = worlds(view, samples=12, seed=rng.getrandbits(32))
        weights = [rng.uniform(0.2, 2.0) for _ in ws.deals]
        table = outcome_values(rules, (rng.randrange(7), rng.randrange(7)), view.seat, view.dealer)
        for action in view.legal_actions:
            cols = fused_columns([branch(d, action, table, bot.values) for d in ws.deals], weights)
            mine = sum(w * c for w, c in zip(weights, cols, strict=True)) / sum(weights)
            assert math.isclose(mine, bot._own_next(ws.deals, weights, action, table), abs_tol=1e-9)
            checked += 1
    assert checked > 100


def test_fused_columns_credit_each_group_with_its_one_best_next_action() -> None:
    a, b = PLAY("play AS"), PLAY("play TS")
    x, y = ((), 1), ((), 2)
    branches = [Branch(x, {a: 1.0, b: 0.0}), Branch(x, {a: 0.0, b: 3.0}), Branch(y, {a: 2.0, b: 0.0}),
                Branch(None, {}, -1.0)]
    # group x: b totals 3 against a's 1; group y: a; the ended world keeps its value.
    assert fused_columns(branches, [1.0, 1.0, 1.0, 1.0]) == [0.0, 3.0, 2.0, -1.0]
    # weighted: the first world counts four times, so a wins group x.
    assert fused_columns(branches, [4.0, 1.0, 1.0, 1.0]) == [1.0, 0.0, 2.0, -1.0]


def test_margin_is_the_paired_difference_and_its_standard_error() -> None:
    a, b, c = PLAY("play AS"), PLAY("play TS"), PLAY("play KS")
    cols = {a: [3.0, 1.0, 2.0, 0.0], b: [1.0, 1.0, 1.0, 1.0], c: [0.0, 0.0, 0.0, 0.0]}
    m = margin(cols, [1.0] * 4)
    assert (m.best, m.runner_up) == (a, b)
    diffs = [2.0, 0.0, 1.0, -1.0]  # mean 0.5
    assert m.gap == pytest.approx(0.5)
    assert m.se == pytest.approx(math.sqrt(sum((d - 0.5) ** 2 for d in diffs)) / 4)
    shifted = margin(cols, [1.0] * 4, {a: -1.0})  # a bias can change which action leads
    assert (shifted.best, shifted.runner_up) == (b, a) and shifted.gap == pytest.approx(0.5)
    assert margin({a: [1.0, 2.0], b: [0.0, 1.0]}, [1.0, 3.0]).se == 0.0  # the same lead in every world


def test_the_same_seed_and_view_give_the_same_thinking() -> None:
    for view in views("standard", 12, 21):
        first, second = thinker(9, 0.05), thinker(9, 0.05)
        assert first.choose(view) == second.choose(view)
        assert first.last == second.last
    seeds = {thinker(s, 0.05).evaluate(v)[v.legal_actions[0]]
             for s in (1, 2) for v in views("standard", 3, 21)[:1]}
    assert len(seeds) == 2  # another seed draws other worlds


def test_the_choice_reads_only_the_view() -> None:
    positions = list(random_positions(Rules.preset("standard"), 12, 31))
    assert same_choice_on_twins(lambda seed: thinker(seed, 0.05), positions, 3) > 0


def test_a_decision_one_action_dominates_costs_the_base_budget_only() -> None:
    dominated = 0
    for preset in ("standard", "sixty-six"):
        for view in views(preset, 30, 41):
            bot = thinker(2, 1.0)
            values = bot.evaluate(view)
            thought = bot.last
            if not thought.margins:  # Sixty-Six's first tricks: no thinking beyond the expert
                assert thought.budget == 0.0 and thought.spent == thought.base_cost
                continue
            first = thought.margins[0]
            if first.se <= 1e-12 or first.gap >= bot.z * first.se:
                dominated += 1
                assert thought.spent == thought.base_cost
                assert thought.worlds == thought.base_worlds and len(thought.margins) == 1
                assert close_enough(values, expert(2).evaluate(view))
    assert dominated >= 10


def test_a_close_decision_gets_more_worlds_or_the_lookahead() -> None:
    close = 0
    for view in views("standard", 40, 51):
        bot = thinker(2, 1.0)
        bot.evaluate(view)
        thought = bot.last
        first = thought.margins[0]
        roomy = thought.budget >= 4 * thought.base_cost > 0
        if first.gap < bot.z * first.se and first.se > 0.02 and roomy:
            close += 1
            assert thought.worlds > thought.base_worlds or (thought.look and view.talon_open)
            assert thought.spent > thought.base_cost
    assert close >= 3


@pytest.mark.parametrize("think", [0.001, 0.01, 0.1])
def test_the_budget_is_respected(think: float) -> None:
    for preset in ("standard", "sixty-six"):
        for view in views(preset, 15, 61):
            bot = thinker(4, think)
            bot.evaluate(view)
            thought = bot.last
            assert thought.budget == pytest.approx(SPREAD * think if cards_left(view) <= THINK_FROM else 0.0)
            assert thought.spent <= max(thought.budget, thought.base_cost) + 1e-12
            if thought.base_cost > thought.budget:
                assert thought.spent == thought.base_cost


def test_sixty_six_first_tricks_think_no_more_than_the_expert() -> None:
    opening = View.of(Deal.random(Rules.preset("sixty-six"), 5), 0)
    bot = thinker(1, 10.0)
    assert close_enough(bot.evaluate(opening), expert(1).evaluate(opening))
    assert bot.last.budget == 0.0 and bot.last.spent == bot.last.base_cost


def test_more_worlds_are_charged_what_they_cost() -> None:
    rules = Rules.preset("standard")
    view = views("standard", 40, 71)[0]
    bot = thinker(3, 0.0)
    bot.evaluate(view)
    # With a budget of ten base evaluations the bot never adds more worlds than that pays for.
    bot = thinker(3, bot.last.base_cost * 10 / SPREAD)
    bot.evaluate(view)
    thought = bot.last
    per_world = thought.base_cost / thought.base_worlds
    assert thought.worlds - thought.base_worlds <= (thought.budget - thought.base_cost) / per_world + 1e-9
    assert solve_seconds(rules, 20) == SOLVE_MS[20][20] / 1000


def test_solve_costs_grow_with_the_cards_left() -> None:
    for table in SOLVE_MS.values():
        assert table[0] == 0 and all(a <= b for a, b in pairwise(table))
    assert len(SOLVE_MS[20]) == 21 and len(SOLVE_MS[24]) == 25


def test_bad_options_are_refused() -> None:
    with pytest.raises(BummerlError):
        ThinkingExpert(1, think=-1)
    with pytest.raises(BummerlError):
        ThinkingExpert(1, pv_worlds=4)


def test_plays_a_whole_deal() -> None:
    deal = Deal.random(Rules.preset("standard"), 8)
    bots = (thinker(1, 0.02), expert(2))
    while deal.outcome is None:
        view = View.of(deal, deal.to_move)
        action = bots[deal.to_move].choose(view)
        assert action in view.legal_actions
        deal.apply(action)
