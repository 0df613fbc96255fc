"""The expert: PIMC mended (one-step fusion repair, an opponent blind to our cards), inference, and play
for the Bummerl; reads only its view."""

from __future__ import annotations

import pytest

from bummerl.actions import CLOSE, Action
from bummerl.bots.expert import ExpertBot
from bummerl.bots.pimc import PimcBot
from bummerl.cards import Card
from bummerl.engine import Deal
from bummerl.rules import Rules
from bummerl.view import View
from helpers.bot_checks import all_preset_positions, random_positions, same_choice_on_twins, tompa_1_deal

STANDARD = Rules.preset("standard")
TABLE = (-3.0, -2.0, -1.0, 0.0, 1.0, 2.0, 3.0)  # game points as they are
PLAY = Action.parse


def view_of_puzzle(score: tuple[int, int] | None = None) -> View:
    return View.of(tompa_1_deal(), 0, score)


def face_down(deal: Deal) -> Card:
    return deal.talon[0]


def plain(seed: int = 1, **kw: object) -> ExpertBot:
    """The expert with every repair off unless asked for."""
    opts: dict[object, object] = {"bummerl": False, "infer": False, "fusion": False, "pv_worlds": 0,
                                  "close_bias": 0.0, "lookahead": 0}
    opts.update(kw)
    return ExpertBot(seed, 10, 10, **opts)  # type: ignore[arg-type]


def test_plays_for_the_bummerl_when_one_deal_decides_it() -> None:
    risky = {Card.parse(c) for c in ("TH", "TD", "QD", "JD")}  # 4 of the 6 worlds

    def values(deal: Deal) -> dict[Action, int]:
        out = dict.fromkeys(deal.legal_actions(), -3)
        out[PLAY("play TC")] = 1
        out[PLAY("play KC")] = 3 if face_down(deal) in risky else -1
        return out

    # Game points: +1 for sure against +5/3 on average; at 1-1 only winning the deal counts.
    assert plain(values=values).choose(view_of_puzzle()) == PLAY("play KC")
    assert plain(values=values, bummerl=True).choose(view_of_puzzle((1, 1))) == PLAY("play TC")
    assert plain(values=values, bummerl=True).choose(view_of_puzzle((6, 6))) == PLAY("play KC")


def test_values_closing_by_one_follow_up_for_all_worlds() -> None:
    hearts = {Card.parse(c) for c in ("TH", "QC", "JC")}  # half of the worlds

    def values(deal: Deal) -> dict[Action, int]:
        out = dict.fromkeys(deal.legal_actions(), -3)
        if deal.closed_by >= 0:  # after closing: which lead wins depends on the hidden card
            here = face_down(deal) in hearts
            out[PLAY("play TC")] = 2 if here else -2
            out[PLAY("play KC")] = -2 if here else 2
        else:
            out[CLOSE] = 2  # what each world's perfect follow-up makes of closing
            out[PLAY("play QH")] = 1
        return out

    view = view_of_puzzle()
    assert PimcBot(1, 10, 10, values=values).choose(view) == CLOSE
    assert plain(values=values, fusion=True).choose(view) == PLAY("play QH")


def test_closing_is_valued_lower_by_what_pimc_overrates_it() -> None:
    def values(deal: Deal) -> dict[Action, int]:
        out = dict.fromkeys(deal.legal_actions(), -3)
        if deal.closed_by < 0:
            out[CLOSE] = 2 if face_down(deal) in {Card.parse("TH"), Card.parse("QC")} else 1  # 4/3 on average
            out[PLAY("play QH")] = 1 if face_down(deal) != Card.parse("JC") else 2  # 7/6
        return out

    view = view_of_puzzle()
    assert plain(values=values).choose(view) == CLOSE
    assert plain(values=values, close_bias=0.17).choose(view) == PLAY("play QH")


def test_by_default_only_the_exchange_gets_the_fusion_repair() -> None:
    assert ExpertBot(1).fusion == {"exchange"}
    assert ExpertBot(1, fusion=True).fusion == {"exchange", "close", "marry"}
    assert ExpertBot(1, fusion=False).fusion == frozenset()


def test_an_opponent_blind_to_our_cards_never_makes_a_lead_worse() -> None:
    checked = 0
    for deal in random_positions(STANDARD, 150, seed=61):
        view = View.of(deal, deal.to_move)
        if deal.lead >= 0 or deal.married >= 0 or not (deal.closed_by >= 0 or 0 < deal.talon_size <= 4):
            continue
        pimc = PimcBot(3, 4, 4).evaluate(view)
        pv = plain(3, pv_worlds=3).evaluate(view)
        for action, value in pimc.items():
            if action.kind == "play":
                assert pv[action] >= value - 1e-9
        checked += 1
        if checked == 6:
            break
    assert checked >= 3


@pytest.mark.parametrize("lookahead", [0, 3])
def test_always_returns_a_legal_action_in_random_positions_of_every_preset(lookahead: int) -> None:
    bot = ExpertBot(1, samples=3, early_samples=2, fusion=True, pv_worlds=2, read_leads=True,
                    lookahead=lookahead)
    for _name, deal in all_preset_positions(12, seed=62):
        view = View.of(deal, deal.to_move, score=(5, 2))
        assert bot.choose(view) in view.legal_actions


@pytest.mark.parametrize("lookahead", [0, 3])
def test_hidden_cards_do_not_change_its_choice(lookahead: int) -> None:
    late = [d for d in random_positions(STANDARD, 120, seed=63) if d.talon_size <= 4][:30]
    def make(seed: int | None) -> ExpertBot:
        return ExpertBot(seed, samples=3, fusion=True, pv_worlds=2, read_leads=True, lookahead=lookahead)

    assert same_choice_on_twins(make, late, seed=64) >= 6


def test_lookahead_in_a_single_world_is_its_open_card_value() -> None:
    from bummerl.bots.pimc import action_values

    bot = plain()
    checked = 0
    for deal in random_positions(STANDARD, 40, seed=63):
        if deal.outcome is not None:
            continue
        solved = action_values(deal)
        for action, value in solved.items():
            assert bot._own_next([deal], [1.0], action, TABLE) == TABLE[value + 3]
        checked += 1
    assert checked >= 20


def test_lookahead_never_values_an_action_above_plain_pimc() -> None:
    bot = plain(4, lookahead=8)
    checked = 0
    for deal in random_positions(STANDARD, 60, seed=64):
        view = View.of(deal, deal.to_move)
        if deal.outcome is not None or not view.talon_open or len(view.legal_actions) < 2:
            continue
        deals, weights = bot.sample(view)
        pimc = plain(4).evaluate(view)
        for action in view.legal_actions:
            assert bot._own_next(deals, weights, action, TABLE) <= pimc[action] + 1e-9
        checked += 1
        if checked == 8:
            break
    assert checked == 8


def test_an_earlier_lookahead_values_the_first_trick_no_higher_than_plain_pimc() -> None:
    """With ``look_from`` above the cards in play the lookahead runs from the first trick, over the same
    worlds as plain PIMC (the early budget), so it can only lower a value; following to the first lead,
    worlds where I draw the same card fall in one group, so some value is lower."""
    lower = 0
    for seed in range(4):
        deal = Deal.random(STANDARD, seed)
        deal.apply(deal.legal_actions()[0])
        view = View.of(deal, deal.to_move)
        early = plain(seed, lookahead=8, look_from=21).evaluate(view)
        pimc = plain(seed).evaluate(view)
        assert all(early[a] <= pimc[a] + 1e-9 for a in view.legal_actions)
        lower += any(early[a] < pimc[a] - 1e-9 for a in view.legal_actions)
    assert lower


def test_sixty_six_first_two_tricks_use_the_smaller_budget_and_schnapsen_is_unchanged() -> None:
    from bummerl.bots.expert import SIXTY_SIX_EARLY
    from bummerl.bots.pimc import cards_left

    expert, v1, early = ExpertBot(1), ExpertBot(1, sixty_six_early=None), ExpertBot(1).early_samples
    for preset in ("standard", "sixty-six", "tompa", "vu"):
        for seed in range(6):
            deal = Deal.random(Rules.preset(preset), seed)
            while not deal.is_over:
                view = View.of(deal, deal.to_move)
                left = cards_left(view)
                if preset == "sixty-six" and view.talon_open and left >= 21:
                    assert expert.budget(view) == SIXTY_SIX_EARLY[0 if left >= 23 else 1]
                    assert v1.budget(view) == (early // 4 if left >= 22 else early)
                else:
                    assert expert.budget(view) == v1.budget(view)
                deal.apply(deal.legal_actions()[0])


def test_answered_lets_a_reply_function_choose_the_opponents_first_move_only() -> None:
    from bummerl.bots.expert import answered
    from bummerl.bots.pimc import action_values

    checked = 0
    for deal in random_positions(STANDARD, 80, seed=71):
        plays = [a for a in deal.legal_actions() if a.kind == "play"]
        if deal.outcome is not None or deal.lead >= 0 or deal.married >= 0 or not plays:
            continue
        lead = plays[0]
        after = deal.copy()
        after.apply(lead)
        worst = min(after.legal_actions(), key=action_values(after).__getitem__)  # the cheapest for it
        asked: list[Deal] = []

        def reply(d: Deal, worst: Action = worst, asked: list[Deal] = asked) -> Action:
            asked.append(d)
            return worst

        result, seen = answered(deal, lead, action_values, reply)
        assert seen[0] == worst and len(asked) == (len(after.legal_actions()) > 1)
        assert result.outcome is not None or result.to_move == deal.to_move
        checked += 1
    assert checked >= 10


def test_inside_the_lookahead_the_opponent_can_answer_from_its_own_worlds() -> None:
    from bummerl.bots.expert import answered
    from bummerl.bots.pimc import action_values

    changed = checked = 0
    for deal in random_positions(STANDARD, 200, seed=72):
        view = View.of(deal, deal.to_move)
        if deal.lead >= 0 or deal.married >= 0 or not 0 < deal.talon_size <= 4 or deal.closed_by >= 0:
            continue
        blind = plain(3, pv_worlds=3, lookahead=6)
        reply = blind._presumed_reply(view, 7)
        for lead in (a for a in view.legal_actions if a.kind == "play"):
            after = deal.copy()
            after.apply(lead)
            answer = reply(after)
            assert answer in after.legal_actions()
            assert reply(after.copy()) == answer  # one choice per opponent hand
            # In one world my value is the open-card value of where that answer leads.
            then, _ = answered(deal, lead, action_values, lambda d, answer=answer: answer)
            mine = (TABLE[then.outcome.value_for(deal.to_move) + 3] if then.outcome is not None
                    else TABLE[max(action_values(then).values()) + 3])
            assert blind._own_next([deal], [1.0], lead, TABLE, reply) == mine
        seeing = plain(3, pv_worlds=0, lookahead=6).evaluate(view)
        changed += blind.evaluate(view) != seeing
        checked += 1
        if checked == 8:
            break
    assert checked >= 4 and changed >= 1
