"""The random bot: legal, seeded, uniform, and it finishes deals under every preset."""

from __future__ import annotations

from collections import Counter
from random import Random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bummerl import Deal, Rules, View
from bummerl.bots.base import Bot
from bummerl.bots.random_bot import RandomBot
from bummerl.rules import PRESETS


def play(deal: Deal, bots: tuple[RandomBot, RandomBot]) -> list[str]:
    actions = []
    while not deal.is_over:
        view = View.of(deal, deal.to_move)
        action = bots[deal.to_move].choose(view)
        assert action in view.legal_actions
        deal.apply(action)
        actions.append(str(action))
    return actions


def test_it_is_a_bot_named_random() -> None:
    bot = RandomBot(1)
    assert isinstance(bot, Bot) and bot.name == "random"


@settings(max_examples=30, deadline=None)
@given(preset=st.sampled_from(sorted(PRESETS)), deck_seed=st.integers(0, 10**6),
       bot_seed=st.integers(0, 10**6))
def test_it_plays_only_legal_actions_and_finishes_every_deal(
    preset: str, deck_seed: int, bot_seed: int
) -> None:
    deal = Deal.random(Rules.preset(preset), deck_seed, dealer=deck_seed % 2)
    play(deal, (RandomBot(bot_seed), RandomBot(bot_seed + 1)))
    assert deal.outcome is not None


def test_the_same_seed_gives_the_same_game() -> None:
    rules = Rules.preset("standard")
    first = play(Deal.random(rules, 5), (RandomBot(1), RandomBot(2)))
    second = play(Deal.random(rules, 5), (RandomBot(1), RandomBot(2)))
    assert first == second


def test_different_seeds_give_different_games() -> None:
    rules = Rules.preset("standard")
    games = {tuple(play(Deal.random(rules, 5), (RandomBot(s), RandomBot(s + 100)))) for s in range(10)}
    assert len(games) > 5


@pytest.mark.parametrize("seed", [1, 2])
def test_every_legal_action_is_about_equally_likely(seed: int) -> None:
    rng = Random(3)
    deal = Deal.random(Rules.preset("standard"), rng)
    view = View.of(deal, deal.to_move)
    k = len(view.legal_actions)
    assert k >= 5
    bot = RandomBot(seed)
    draws = 600 * k
    counts = Counter(bot.choose(view) for _ in range(draws))
    assert set(counts) == set(view.legal_actions)
    # each count is Binomial(draws, 1/k): 600 expected, standard deviation under 25; allow 5 sigma
    assert all(abs(c - 600) < 125 for c in counts.values()), counts
