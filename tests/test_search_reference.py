"""The reference minimax plays the engine itself: every legal action, valued by the engine's outcome."""

from __future__ import annotations

import pytest

from bummerl import Deal, Outcome, Rules, Setup
from bummerl.actions import CLAIM, PASS
from bummerl.cards import mask_of, parse_cards
from bummerl.search.reference import outcome_value, reference_action_values, reference_value

STANDARD = Rules.preset("standard")


def hand(text: str) -> int:
    return mask_of(parse_cards(text))


def test_an_outcome_is_worth_its_game_points_to_the_winner_and_the_negative_to_the_loser() -> None:
    assert outcome_value(Outcome(0, 3, "claim"), 0) == 3
    assert outcome_value(Outcome(0, 3, "claim"), 1) == -3
    assert outcome_value(Outcome(None, 0, "draw"), 0) == 0


def test_a_claim_is_valued_by_what_the_engine_makes_of_it() -> None:
    # Player 0 has 52 points with AS TS against KS QS (spades trump): either card wins 66+ at once,
    # while claiming now is false (player 1 has a trick: 2 game points to player 1).
    deal = Deal.from_setup(Setup.parse("standard SAT/SKQ - S 0 52/40 4/4"))
    values = {str(a): v for a, v in reference_action_values(deal).items()}
    assert values == {"play TS": 1, "play AS": 1, "claim": -2}
    assert reference_value(deal) == 1


def test_after_the_last_trick_the_winner_takes_the_better_of_claim_and_pass() -> None:
    deal = Deal.from_setup(Setup.parse("standard SA/HJ - S 0 51/56 4/5"))
    deal.apply("play AS")
    deal.apply("play JH")  # player 0 wins the last trick with 64 points: no 66, so pass scores 1
    values = reference_action_values(deal)
    assert values == {CLAIM: -2, PASS: 1}


def test_the_search_leaves_the_deal_as_it_found_it() -> None:
    deal = Deal.random(STANDARD, 8)
    for _ in range(12):
        deal.apply(deal.legal_actions()[0])
    before = (list(deal.history), deal.hands[:], deal.points, deal.to_move, deal.talon_size)
    reference_action_values(deal)
    assert (list(deal.history), deal.hands[:], deal.points, deal.to_move, deal.talon_size) == before


def test_a_finished_deal_cannot_be_searched() -> None:
    deal = Deal.random(STANDARD, 1)
    deal.apply(deal.legal_actions()[0])
    deal.apply(deal.legal_actions()[0])
    deal.apply("claim")
    with pytest.raises(ValueError, match="the deal is over"):
        reference_action_values(deal)
