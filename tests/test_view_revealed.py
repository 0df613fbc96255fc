"""A view knows when its deal is over and only then shows the hands (the terminal summary needs them)."""

from __future__ import annotations

from random import Random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bummerl import Deal, Rules, View
from bummerl.cards import Card, mask_of
from helpers.dealkit import PRESET_NAMES


def cards_shown(view: View) -> int:
    """Every card a view names anywhere, as a mask (its hand, the table, the tricks, the revealed hands)."""
    mask = view.hand_mask | view.played_tricks_mask
    for card in (view.trump_card, view.bottom_card, view.last_trump_card, view.lead_card):
        if card is not None:
            mask |= 1 << card
    if view.exchanged is not None:
        mask |= 1 << view.exchanged[1] | 1 << view.exchanged[2]
    for trick in view.tricks:
        mask |= 1 << trick.lead | 1 << trick.follow
    for held in view.revealed_hands or ():
        mask |= mask_of(held)
    return mask


@pytest.mark.parametrize("preset", PRESET_NAMES)
@settings(max_examples=25, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**32 - 1))
def test_no_hidden_card_is_in_a_view_before_the_deal_is_over_and_both_hands_are_after(
    preset: str, seed: int
) -> None:
    rng = Random(seed)
    deal = Deal.random(Rules.preset(preset), rng, dealer=rng.randrange(2))
    while deal.outcome is None:
        for seat in (0, 1):
            view = View.of(deal, seat)
            assert view.outcome is None and view.revealed_hands is None and not view.is_over
            hidden = (deal.hands[1 - seat] | mask_of(deal.talon)) & ~view.opponent_known_mask
            if view.bottom_card is not None:
                hidden &= ~(1 << view.bottom_card)
            assert cards_shown(view) & hidden == 0
        deal.apply(rng.choice(deal.legal_actions()))
    for seat in (0, 1):
        view = View.of(deal, seat)
        assert view.is_over and view.outcome == deal.outcome
        assert view.revealed_hands == (tuple(deal.hand(0)), tuple(deal.hand(1)))
        assert all(isinstance(c, Card) for held in view.revealed_hands for c in held)
