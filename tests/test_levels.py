"""Difficulty levels: easy, medium, hard and expert, each a registered bot that plays legally."""

from __future__ import annotations

import pytest

from bummerl.bots import bot_names, make_bot
from bummerl.bots.levels import LEVELS, make_level
from bummerl.view import View
from helpers.bot_checks import all_preset_positions


def test_the_four_levels_weakest_first() -> None:
    assert list(LEVELS) == ["easy", "medium", "hard", "expert"]


def test_every_level_is_a_public_bot_with_its_name() -> None:
    for name in LEVELS:
        assert name in bot_names(public_only=True)
        assert make_bot(name, 1).name == name == make_level(name, 1).name


def test_unknown_level_names_the_levels() -> None:
    with pytest.raises(ValueError, match="easy, medium, hard, expert"):
        make_level("grandmaster")


def test_easy_and_medium_play_legally_in_every_preset() -> None:
    bots = [make_level("easy", 1), make_level("medium", 1)]
    for _name, deal in all_preset_positions(10, seed=51):
        view = View.of(deal, deal.to_move)
        for bot in bots:
            assert bot.choose(view) in view.legal_actions


def test_easy_sometimes_plays_differently_from_medium() -> None:
    easy, medium = make_level("easy", 2), make_level("medium", 2)
    differ = 0
    for _name, deal in all_preset_positions(20, seed=52):
        view = View.of(deal, deal.to_move)
        differ += easy.choose(view) != medium.choose(view)
    assert differ >= 5


def test_hard_and_expert_play_legally_late_in_the_deal() -> None:
    bots = [make_level("hard", 1), make_level("expert", 1)]
    for _name, deal in all_preset_positions(4, seed=53):
        if deal.talon_open and deal.talon_size > 4:
            continue
        view = View.of(deal, deal.to_move, score=(3, 4))
        for bot in bots:
            assert bot.choose(view) in view.legal_actions
