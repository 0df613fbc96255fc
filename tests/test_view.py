"""rules.md section 6: what each player may see (View)."""

from __future__ import annotations

from random import Random

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from bummerl import Card, Deal, Rules, View
from bummerl.cards import PACK_MASKS, Suit, mask_of
from bummerl.errors import BummerlError
from helpers.dealkit import PRESET_NAMES, SOFT, STANDARD, arrange, hand, run


def view_values(view: View) -> dict[str, object]:
    return {name: getattr(view, name) for name in View.__slots__}


def test_a_seat_sees_its_own_hand_and_only_the_size_of_the_other() -> None:
    deal = arrange(STANDARD, "AS KS QC JC QS", "JH KC QD JD TC", "AH")
    view = View.of(deal, 0)
    assert view.hand_mask == hand("AS KS QC JC QS") and view.opponent_hand_size == 5
    assert View.of(deal, 1).hand_mask == hand("JH KC QD JD TC")
    assert view.talon_size == 10 and view.trump_card == Card.parse("AH") and view.trump_suit is Suit.H


def test_only_the_seat_to_move_gets_the_legal_actions() -> None:
    deal = arrange(STANDARD, "AS KS QC JC QS", "JH KC QD JD TC", "AH")
    assert View.of(deal, 0).legal_actions == deal.legal_actions()
    assert View.of(deal, 1).legal_actions == ()


def test_the_face_up_trump_is_seen_while_the_talon_is_open_and_known_turned_down_after_closing() -> None:
    deal = arrange(STANDARD, "AS KS QC JC QS", "JH KC QD JD TC", "AH")
    run(deal, "close")
    view = View.of(deal, 1)
    assert view.trump_card is None and not view.talon_open
    assert view.bottom_card == view.turned_down_trump == Card.parse("AH")
    assert not view.unseen_mask >> Card.parse("AH") & 1


def test_every_trick_and_the_current_lead_are_seen_by_both() -> None:
    deal = arrange(STANDARD, "AS KS QC JC QS", "JH KC QD JD TC", "AH")
    run(deal, "play AS; play JH; play KC")
    for seat in (0, 1):
        view = View.of(deal, seat)
        assert [(str(t.lead), str(t.follow), t.winner) for t in view.trick_log] == [("AS", "JH", 1)]
        assert view.lead_card == Card.parse("KC")
        assert view.played_mask == hand("AS JH KC")
        assert view.points == deal.points and view.tricks_won == deal.tricks


def test_marriages_show_their_partner_card_and_an_exchange_shows_the_card_taken() -> None:
    deal = arrange(SOFT, "KS QS JH AC TC", "KC QD JC TD KD", "AH")
    run(deal, "exchange; marry S; play QS")
    view = View.of(deal, 1)
    assert view.marriages == ((0, Suit.S),)
    assert view.exchanged == (0, Card.parse("JH"), Card.parse("AH"))
    assert view.opponent_known_mask == hand("KS AH")
    assert view.trump_card == Card.parse("JH")
    assert not view.unseen_mask & hand("KS AH JH QS")


def test_the_last_trump_card_stays_known_after_the_talon_runs_out() -> None:
    rng = Random(4)
    for seed in range(40):
        deal = Deal.random(STANDARD, seed)
        while deal.outcome is None and (deal.talon_size or deal.lead >= 0):
            actions = deal.legal_actions()
            deal.apply(rng.choice([a for a in actions if a.kind != "close"] or actions))
        if deal.outcome is not None or deal.closed_by >= 0:
            continue
        trump_card = deal.trump_card
        for seat in (0, 1):
            view = View.of(deal, seat)
            assert view.last_trump_card == trump_card and view.bottom_card is None
            in_opponents_hand = bool(deal.hands[1 - seat] >> trump_card & 1)
            assert bool(view.opponent_known_mask >> trump_card & 1) == in_opponents_hand
            assert view.unseen_mask == deal.hands[1 - seat] & ~view.opponent_known_mask


def test_a_view_is_a_snapshot_that_does_not_follow_the_deal() -> None:
    deal = arrange(STANDARD, "AS KS QC JC QS", "JH KC QD JD TC", "AH")
    view = View.of(deal, 0, score=(7, 5))
    before = view_values(view)
    run(deal, "play AS; play JH")
    assert view_values(view) == before
    assert view.score == (7, 5)
    assert not any(isinstance(v, Deal) for v in before.values())


def test_a_bad_seat_is_refused() -> None:
    with pytest.raises(BummerlError, match="seat must be 0 or 1"):  # the package's own error
        View.of(Deal.random(STANDARD, 1), -1)


def hidden_from(deal: Deal, seat: int) -> int:
    """The cards ``seat`` cannot place: the opponent's hand and the face-down talon, except cards the
    opponent showed (marriage partners, the trump card taken by exchange) and the last trump card once
    the talon is exhausted."""
    opp = 1 - seat
    hidden = deal.hands[opp] | mask_of(deal.talon)
    for player, suit in deal.marriages:
        if player == opp:
            hidden &= ~hand(f"K{'CDHS'[suit]} Q{'CDHS'[suit]}")
    if deal.exchanged is not None and deal.exchanged[0] == opp:
        hidden &= ~(1 << deal.exchanged[2])
    if deal.talon_size == 0:
        hidden &= ~(1 << deal.trump_card)
    return hidden


@pytest.mark.parametrize("preset", PRESET_NAMES)
@settings(max_examples=60, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**32 - 1), cut=st.integers(0, 12), seat=st.integers(0, 1))
def test_two_deals_differing_only_in_hidden_cards_give_equal_views(
    preset: str, seed: int, cut: int, seat: int
) -> None:
    rules = Rules.preset(preset)
    rng = Random(seed)
    deal = Deal.random(rules, rng, dealer=rng.randrange(2))
    for _ in range(cut):
        if deal.outcome is not None:
            break
        deal.apply(rng.choice(deal.legal_actions()))
    hidden = hidden_from(deal, seat)
    view = View.of(deal, seat)
    assert view.unseen_mask == hidden
    assert view.unseen_mask | view.hand_mask | view.played_mask | view.opponent_known_mask | (
        1 << view.bottom_card if view.bottom_card is not None else 0
    ) == PACK_MASKS[rules.sixty_six]
    in_hand = [c for c in range(24) if hidden & deal.hands[1 - seat] >> c & 1]
    in_talon = [c for c in range(24) if hidden & mask_of(deal.talon) >> c & 1]
    if in_hand and in_talon:  # move a hidden card between the opponent's hand and the talon
        a, b = rng.choice(in_hand), rng.choice(in_talon)
    elif len(in_talon) >= 2:  # or reorder the talon
        a, b = rng.sample(in_talon, 2)
    else:
        return
    deck = [int(c) for c in deal.deck]
    i, j = deck.index(a), deck.index(b)
    deck[i], deck[j] = deck[j], deck[i]
    other = Deal(rules, deck, deal.dealer)
    for action in deal.history:
        if not other.is_legal(action):
            event("swap breaks an earlier follow")
            return  # the opponent's earlier play would break the follow rules with the swapped cards
        other.apply(action)
    assert (other.hands[1 - seat], other.talon) != (deal.hands[1 - seat], deal.talon)
    assert view_values(View.of(other, seat)) == view_values(view)
    event("views compared")


def test_a_set_up_position_without_a_trick_log_still_knows_which_cards_were_played() -> None:
    from bummerl.cards import PACK_MASKS, mask_of, parse_cards
    from bummerl.engine import Deal
    from bummerl.setup import Setup

    me, opp = mask_of(parse_cards("AS TS")), mask_of(parse_cards("KS QS"))
    deal = Deal.from_setup(Setup.parse("standard SAT/SKQ - S 0 52/40 4/4"))
    view = View.of(deal, 0)
    assert view.played_mask == PACK_MASKS[0] & ~(me | opp)
    assert view.unseen_mask == opp


def test_the_trick_log_keeps_its_old_name_and_the_trump_suit_is_a_suit_in_deal_and_view() -> None:
    deal = Deal.random(Rules.preset("standard"), 4)
    deal.apply(deal.legal_actions()[0])
    deal.apply(deal.legal_actions()[0])
    view = View.of(deal, 0)
    assert view.tricks is view.trick_log and view.trick_log == deal.trick_log and len(view.trick_log) == 1
    assert view.tricks_won == deal.tricks  # counts, under the view's name for them
    assert isinstance(deal.trump_suit, Suit) and deal.trump_suit == view.trump_suit == deal.trump
