"""The cheater: a yardstick that sees the deal, plays open-card optimally, and only the arena can seat."""

from __future__ import annotations

from random import Random

import pytest

from bummerl.arena.match import play_deal
from bummerl.bots import bot_names, make_bot
from bummerl.bots.cheater import CheaterBot
from bummerl.bots.random_bot import RandomBot
from bummerl.engine import Deal
from bummerl.rules import Rules
from bummerl.search import solve, solve_actions
from bummerl.view import View
from helpers.bot_checks import all_preset_positions


def test_plays_an_open_card_optimal_action() -> None:
    bot = CheaterBot(1)
    checked = 0
    for _name, deal in all_preset_positions(5, seed=41):
        if deal.talon_open and deal.talon_size > 6:
            continue
        action = bot.choose_with_deal(View.of(deal, deal.to_move), deal)
        assert action in deal.legal_actions()
        assert solve_actions(deal)[action] == solve(deal)
        checked += 1
    assert checked >= 10


def test_refuses_to_play_from_a_view_alone() -> None:
    deal = Deal.random(Rules.preset("standard"), 1)
    with pytest.raises(ValueError, match="sees every card"):
        CheaterBot().choose(View.of(deal, 0))


def test_is_registered_but_never_offered_as_an_opponent() -> None:
    assert "cheater" in bot_names()
    assert "cheater" not in bot_names(public_only=True)
    assert make_bot("cheater", 1).name == "cheater"


def test_the_arena_hands_it_the_deal_and_it_beats_random_play() -> None:
    rng = Random(5)
    won = 0
    for i in range(10):
        deal = Deal.random(Rules.preset("standard"), rng, dealer=i % 2)
        result = play_deal(deal, (CheaterBot(1), RandomBot(i)))
        assert result.fault is None
        won += result.outcome.winner == 0
    assert won >= 8
