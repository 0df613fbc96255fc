"""PIMC: solves sampled worlds open-card and plays the best mean; reads only its view; reproducible."""

from __future__ import annotations

from bummerl.actions import CLOSE, Action
from bummerl.bots.pimc import PimcBot, decision_seed, mean_values
from bummerl.engine import Deal
from bummerl.rules import Rules
from bummerl.search.worlds import worlds
from bummerl.view import View
from helpers.bot_checks import all_preset_positions, random_positions, same_choice_on_twins, tompa_1_deal

STANDARD = Rules.preset("standard")


def small(seed: int | None) -> PimcBot:
    return PimcBot(seed, samples=3, early_samples=2)


def test_always_returns_a_legal_action_in_random_positions_of_every_preset() -> None:
    bot = small(1)
    for _name, deal in all_preset_positions(15, seed=21):
        view = View.of(deal, deal.to_move)
        assert bot.choose(view) in view.legal_actions


def test_hidden_cards_do_not_change_its_choice() -> None:
    late = [d for d in random_positions(STANDARD, 200, seed=22) if d.talon_size <= 6][:60]
    assert same_choice_on_twins(small, late, seed=23) >= 15


def test_the_same_seed_replays_the_same_deal() -> None:
    def play(seed: int) -> list[Action]:
        deal = Deal.random(STANDARD, 31)
        bots = [small(seed), small(seed + 1)]
        while not deal.is_over:
            deal.apply(bots[deal.to_move].choose(View.of(deal, deal.to_move)))
        return deal.history

    assert play(5) == play(5)


def test_finds_the_close_in_tompas_first_puzzle() -> None:
    # Over all six placements closing wins 2 game points every time (Tompa's answer).
    view = View.of(tompa_1_deal(), 0)
    assert PimcBot(1, samples=10).choose(view) == CLOSE


def test_mean_values_average_the_solved_worlds() -> None:
    view = View.of(tompa_1_deal(), 0)
    ws = worlds(view, samples=10)
    assert ws.exact and len(ws.deals) == 6
    means = mean_values(view, ws.deals, ws.weights)
    assert means[CLOSE] == 2.0
    assert means[Action.parse("play AD")] == 0.0


def test_a_decision_seed_depends_on_the_view_and_the_bot_seed() -> None:
    deal = Deal.random(STANDARD, 3)
    v0, v1 = View.of(deal, 0), View.of(deal, 1)
    assert decision_seed(1, v0) == decision_seed(1, v0)
    assert decision_seed(1, v0) != decision_seed(2, v0)
    assert decision_seed(1, v0) != decision_seed(1, v1)
