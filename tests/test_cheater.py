"""The cheater: a yardstick that sees the deal, plays open-card optimally, and only the arena can seat."""

from __future__ import annotations

from random import Random

import pytest

from bummerl.actions import CLOSE
from bummerl.arena.match import play_deal
from bummerl.bots import bot_names, make_bot
from bummerl.bots.cheater import CheaterBot, PeekingBot, PhaseCheaterBot, hand_values, phase_of
from bummerl.bots.pimc import EARLY_CARDS, PimcBot, cards_left, decision_seed
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


def _decisions(n: int = 60, seed: int = 7) -> list[Deal]:
    """Positions of random play in standard deals (copies), every decision of each deal."""
    rng = Random(seed)
    out: list[Deal] = []
    while len(out) < n:
        deal = Deal.random(Rules.preset("standard"), rng.randrange(1 << 30), dealer=rng.randrange(2))
        while deal.outcome is None:
            out.append(deal.copy())
            deal.apply(rng.choice(deal.legal_actions()))
    return out


def test_phase_of_names_each_kind_of_decision() -> None:
    seen = set()
    for deal in _decisions(400):
        view = View.of(deal, deal.to_move)
        phase = phase_of(view)
        seen.add(phase)
        if phase == "closed":
            assert deal.closed_by >= 0 and deal.talon_size > 0
        elif phase == "open":
            assert not deal.talon_open
        else:
            assert deal.talon_open
            assert (CLOSE in deal.legal_actions()) == (phase == "close")
            if phase != "close":
                assert (view.lead_card is None) == (phase == "lead")
    assert seen == {"closed", "open", "close", "lead", "follow"}


@pytest.mark.parametrize("phase", ["follow", "lead", "close", "closed", "all"])
def test_a_phase_cheater_cheats_in_its_phase_only(phase: str) -> None:
    cheat, base = PhaseCheaterBot(3, base="heuristic", phase=phase), make_bot("heuristic", 3)
    cheated = 0
    for deal in _decisions(120, seed=11):
        if deal.talon_open and deal.talon_size > 6:
            continue  # keep the open-card solves cheap
        view = View.of(deal, deal.to_move)
        action = cheat.choose_with_deal(view, deal.copy())
        theirs = base.choose(view)
        where = phase_of(view)
        values = solve_actions(deal)
        ours = phase == "all" or where == phase or (phase == "lead" and where == "close")
        if not ours:
            assert action == theirs
        elif phase == "close":
            best_other = max(v for a, v in values.items() if a is not CLOSE)
            assert (action is CLOSE) == (values[CLOSE] >= best_other)
            if action is not CLOSE and theirs is not CLOSE:
                assert action == theirs
            cheated += 1
        elif phase == "lead" and theirs is CLOSE:
            assert action is CLOSE
        else:
            best = max(v for a, v in values.items() if phase != "lead" or a is not CLOSE)
            assert values[action] == best
            cheated += 1
    assert cheated >= 5


def test_a_phase_cheater_refuses_a_view_alone_and_an_unknown_phase() -> None:
    deal = Deal.random(Rules.preset("standard"), 1)
    with pytest.raises(ValueError, match="sees every card"):
        PhaseCheaterBot(1, base="random").choose(View.of(deal, 0))
    with pytest.raises(ValueError, match="unknown phase 'talon'"):
        PhaseCheaterBot(1, base="random", phase="talon")


@pytest.mark.parametrize("when", ["early", "late"])
def test_a_phase_cheater_can_cheat_only_early_or_only_late(when: str) -> None:
    cheat, base = PhaseCheaterBot(3, base="heuristic", phase="all", when=when), make_bot("heuristic", 3)
    assert cheat.name == f"heuristic+cheat:all:{when}"
    cheated = 0
    for deal in _decisions(80, seed=13):
        view = View.of(deal, deal.to_move)
        action = cheat.choose_with_deal(view, deal.copy())
        theirs = base.choose(view)
        if (cards_left(view) > EARLY_CARDS) != (when == "early"):
            assert action == theirs
        else:
            assert solve_actions(deal)[action] == solve(deal)
            cheated += 1
    assert cheated >= 5
    with pytest.raises(ValueError, match="unknown time 'soon'"):
        PhaseCheaterBot(1, base="random", when="soon")


def test_hand_values_average_over_every_talon_order_and_ignore_a_closed_talon() -> None:
    from itertools import permutations

    deal = next(d for d in _decisions(400, seed=17)
                if d.talon_open and len(d.talon) == 3 and d.lead_card is None)
    exact: dict[object, float] = {}
    for order in permutations(deal.talon):
        world = Deal.from_setup(deal.setup().replace(talon=order))
        for a, v in solve_actions(world).items():
            exact[a] = exact.get(a, 0.0) + v / 6
    means = hand_values(deal, 50, seed=1)  # more orders asked than there are: all six
    assert means.keys() == exact.keys()
    assert all(abs(means[a] - exact[a]) < 1e-9 for a in exact)
    closed = next(d for d in _decisions(400, seed=19) if not d.talon_open and d.hands[0] | d.hands[1])
    assert hand_values(closed, 5, seed=1) == {a: float(v) for a, v in solve_actions(closed).items()}


def test_a_phase_cheater_that_sees_the_hand_plays_the_best_mean_over_talon_orders() -> None:
    cheat = PhaseCheaterBot(3, base="heuristic", phase="all", sees="hand", orders=4)
    assert cheat.name == "heuristic+cheat:all:hand"
    checked = 0
    for deal in _decisions(80, seed=23):
        if deal.talon_open and deal.talon_size > 6:
            continue  # keep the open-card solves cheap
        view = View.of(deal, deal.to_move)
        if len(view.legal_actions) == 1:
            continue
        action = cheat.choose_with_deal(view, deal.copy())
        means = hand_values(deal, 4, decision_seed(3, view))
        assert means[action] == max(means.values())
        checked += 1
    assert checked >= 5
    with pytest.raises(ValueError, match="unknown sight 'talon'"):
        PhaseCheaterBot(1, base="random", sees="talon")
    with pytest.raises(ValueError, match="orders must be at least 1"):
        PhaseCheaterBot(1, base="random", sees="hand", orders=0)


def test_a_peeking_bot_told_nothing_plays_like_its_base() -> None:
    bot, base = PeekingBot(3, base="pimc", cards=0), make_bot("pimc", 3)
    for _name, deal in all_preset_positions(3, seed=61):
        view = View.of(deal, deal.to_move)
        assert bot.choose_with_deal(view, deal) == base.choose(view)


def test_a_peeking_bot_is_told_hidden_cards_of_the_true_hand_for_one_decision_only() -> None:
    bot = PeekingBot(5, base="pimc", cards=2)
    base = bot._base
    assert isinstance(base, PimcBot)
    seen_known: list[int] = []
    choose = base.choose
    base.choose = lambda view: (seen_known.append(base.known), choose(view))[1]  # type: ignore[method-assign]
    checked = 0
    for _name, deal in all_preset_positions(4, seed=62):
        view = View.of(deal, deal.to_move)
        told = bot.told(view, deal)
        hidden = deal.hands[1 - view.seat] & view.unseen_mask
        assert told & hidden == told and told.bit_count() == min(2, hidden.bit_count())
        assert told == bot.told(view, deal)  # the same decision is told the same cards
        bot.choose_with_deal(view, deal)
        assert seen_known[-1] == told and base.known == 0
        checked += told != 0
    assert checked >= 10


def test_a_peeking_bot_refuses_a_view_alone_a_bot_without_worlds_and_negative_cards() -> None:
    deal = Deal.random(Rules.preset("standard"), 1)
    with pytest.raises(ValueError, match="only the arena"):
        PeekingBot(1, base="pimc").choose(View.of(deal, 0))
    with pytest.raises(ValueError, match="does not sample worlds"):
        PeekingBot(1, base="heuristic")
    with pytest.raises(ValueError, match="must not be negative"):
        PeekingBot(1, base="pimc", cards=-1)


def test_a_peeking_bot_can_be_told_the_opponents_highest_cards_trumps_first() -> None:
    bot = PeekingBot(5, base="pimc", cards=1, pick="high")
    assert bot.name == "pimc+peek:1:high"
    checked = 0
    for _name, deal in all_preset_positions(4, seed=63):
        view = View.of(deal, deal.to_move)
        hidden = [c for c in deal.hand(1 - view.seat) if view.unseen_mask >> int(c) & 1]
        if not hidden:
            continue
        (told,) = [c for c in hidden if bot.told(view, deal) >> int(c) & 1]
        trumps = [c for c in hidden if c.suit == view.trump_suit]
        assert told.suit == view.trump_suit if trumps else True
        assert told.points == max(c.points for c in (trumps or hidden))
        checked += 1
    assert checked >= 10
    with pytest.raises(ValueError, match="unknown pick"):
        PeekingBot(1, base="pimc", pick="low")
