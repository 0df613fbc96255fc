"""The Deal API: applying actions by string, errors, push/pop, copy, Outcome, and set-up positions
(``Deal.from_setup`` and the deprecated ``Deal.from_state``). The rules themselves are tested in
test_engine_*.py; the checks of a position in test_setup.py."""

from __future__ import annotations

from typing import Any

import pytest

from bummerl import Card, Deal, DeckError, IllegalActionError, Outcome, Trick
from bummerl.actions import Action
from bummerl.setup import PositionError, Setup
from helpers.dealkit import SIXTY_SIX, STANDARD, TOMPA, arrange, hand, legal, position, run, snapshot

# --------------------------------------------------------------------------- apply, errors


def test_actions_may_be_applied_as_strings_in_any_case() -> None:
    deal = arrange(STANDARD, "AS KS QC JC QS", "JH KC QD JD TC", "AH")
    deal.apply("PLAY as")
    assert deal.lead_card == Card.parse("AS") and deal.history == [Action.parse("play AS")]


def test_a_text_that_is_no_action_raises_illegal_action_error() -> None:
    deal = Deal.random(STANDARD, 1)
    with pytest.raises(IllegalActionError, match="not an action: 'dance'"):
        deal.apply("dance")


def test_an_illegal_action_says_why_and_lists_the_legal_ones_on_one_line() -> None:
    deal = arrange(STANDARD, "AS KS QC JC QS", "JH KC QD JD TC", "AH")
    with pytest.raises(IllegalActionError) as err:
        deal.apply("play JH")
    text = str(err.value)
    assert "player 0 does not hold JH" in text and "legal: close, play AS" in text and "\n" not in text


def test_nothing_is_legal_once_the_deal_is_over() -> None:
    deal = arrange(STANDARD, "AS KS QC JC QS", "JH KC QD JD TC", "AH")
    run(deal, "play AS; play KC; claim")
    assert deal.is_over and deal.legal_actions() == ()
    with pytest.raises(IllegalActionError, match="the deal is over"):
        deal.apply("play KS")


def test_outcome_to_json_is_the_contracts_result_object() -> None:
    assert Outcome(1, 2, "claim").to_json() == {"winner": 1, "game_points": 2, "reason": "claim"}
    assert Outcome(None, 0, "draw").to_json() == {"winner": None, "game_points": 0, "reason": "draw"}


def test_the_trick_log_records_leader_cards_and_winner() -> None:
    deal = arrange(STANDARD, "AS KS QC JC QS", "JH KC QD JD TC", "AH")
    run(deal, "play AS; play JH")
    (trick,) = deal.trick_log
    assert (trick.leader, str(trick.lead), str(trick.follow), trick.winner) == (0, "AS", "JH", 1)


def test_repr_names_the_rules_dealer_and_deck() -> None:
    deck = "QH TC AS JD KD QS AH KS TD JH KH AD JC QC TH KC AC JS TS QD"
    deal = Deal.from_deck(STANDARD.replace(false_claim="mirror"), deck)
    assert repr(deal).startswith("<Deal standard (false_claim=mirror) dealer=1 deck='QH TC AS")


# --------------------------------------------------------------------------- push, pop, copy


def test_pop_takes_back_the_pushed_action_and_returns_it() -> None:
    deal = arrange(STANDARD, "JH AS KS QC JC", "KC QD JD TC KD", "AH")
    before = snapshot(deal)
    deal.push("exchange")
    deal.push("close")
    assert deal.pop() == Action.parse("close")
    assert deal.pop() == Action.parse("exchange")
    assert snapshot(deal) == before


def test_an_illegal_push_changes_nothing_and_leaves_nothing_to_pop() -> None:
    deal = Deal.random(STANDARD, 2)
    with pytest.raises(IllegalActionError):
        deal.push("pass")
    with pytest.raises(IndexError):
        deal.pop()


def test_pop_also_takes_back_actions_applied_after_the_push() -> None:
    deal = arrange(STANDARD, "AS KS QC JC QS", "JH KC QD JD TC", "AH")
    before = snapshot(deal)
    deal.push("play AS")
    deal.apply("play KC")
    assert deal.pop() == Action.parse("play AS")
    assert snapshot(deal) == before


def test_a_copy_carries_the_history_but_not_the_undo_stack() -> None:
    deal = arrange(STANDARD, "AS KS QC JC QS", "JH KC QD JD TC", "AH")
    deal.push("play AS")
    twin = deal.copy()
    assert twin.history == deal.history and snapshot(twin) == snapshot(deal)
    with pytest.raises(IndexError):
        twin.pop()
    deal.pop()
    assert twin.lead_card == Card.parse("AS")


# --------------------------------------------------------------------------- from_setup


def test_from_setup_sets_up_a_position_the_engine_plays_on() -> None:
    deal = position(
        STANDARD, ("AS TS KS QS KH", "TH JH QH TC AC"), talon="JC QC KC", trump="JS", tricks=(3, 0),
        points0=41,
    )
    assert deal.to_move == 0 and deal.talon_size == 4 and deal.face_up_trump == Card.parse("JS")
    assert [str(c) for c in deal.talon] == ["JC", "QC", "KC"]
    assert deal.points == (41, 0) and deal.tricks == (3, 0)
    assert "claim" in legal(deal)  # the leader won the previous trick
    run(deal, "play AS; play TH")
    assert deal.hands[0] >> Card.parse("JC") & 1 and deal.hands[1] >> Card.parse("QC") & 1


def test_from_setup_at_the_first_trick_allows_no_claim_and_keeps_the_dealer_apart() -> None:
    deal = Deal.from_setup(Setup(
        STANDARD, (hand("AS TS KS QS KH"), hand("TH JH QH TC AC")),
        tuple(hand_cards("JC QC KC JD QD KD TD AD JS")), Card.parse("AH").suit, Card.parse("AH"), to_move=1,
    ))
    assert deal.dealer == 0 and deal.to_move == 1 and "claim" not in legal(deal)


def hand_cards(text: str) -> list[Card]:
    return [Card.parse(c) for c in text.split()]


def test_from_setup_with_a_card_led_lets_the_follower_answer() -> None:
    deal = position(
        STANDARD, ("JD QD KD TD", "TH AH JH JC QS"), trump_suit="S", tricks=(3, 2), lead=Card.parse("KH")
    )
    assert deal.to_move == 1 and deal.lead_card == Card.parse("KH")
    assert legal(deal) == ["play AH", "play TH"]


def test_from_setup_with_a_marriage_declared_expects_its_king_or_queen() -> None:
    deal = position(STANDARD, ("KS QS JD", "JC QC KC"), trump_suit="H", tricks=(4, 3), married=3)
    assert legal(deal) == ["claim", "play KS", "play QS"]


def test_from_setup_claim_ok_can_be_switched_off() -> None:
    deal = position(STANDARD, ("JC JD", "JH JS"), trump_suit="S", tricks=(6, 2), claim_ok=False)
    assert "claim" not in legal(deal)


def test_from_setup_with_every_card_played_is_at_the_end_of_the_deal() -> None:
    deal = position(STANDARD, ("", ""), trump_suit="S", tricks=(6, 4), points0=70)
    assert deal.to_move == 0 and legal(deal) == ["claim", "pass"]
    deal.apply("claim")
    assert deal.outcome == Outcome(0, 1, "claim")


def test_from_setup_with_every_card_played_gives_sixty_six_its_last_trick_10() -> None:
    rules = SIXTY_SIX.replace(auto_claim=False)
    deal = position(rules, ("", ""), trump_suit="S", tricks=(6, 6), points0=60)
    assert deal.points == (70, 60)


def test_from_setup_with_every_card_played_and_auto_claim_is_already_decided() -> None:
    deal = position(TOMPA, ("", ""), trump_suit="S", tricks=(6, 4), points0=60)
    assert deal.outcome == Outcome(0, 1, "last_trick") and deal.legal_actions() == ()
    deal = position(SIXTY_SIX, ("", ""), trump_suit="S", tricks=(6, 6), points0=55)
    assert deal.outcome == Outcome(None, 0, "draw")
    deal = position(SIXTY_SIX, ("", ""), trump_suit="S", tricks=(6, 6), points0=56)
    assert deal.outcome == Outcome(0, 1, "claim")


GOOD: dict[str, Any] = {
    "hands": (hand("AS TS KS QS KH"), hand("TH JH QH TC AC")),
    "talon": hand_cards("JC QC KC"),
    "trump_card": Card.parse("JS"),
    "tricks_won": (3, 0),
    "card_points": (41, 0),
}


def test_from_state_still_sets_up_a_position_but_warns_that_it_is_deprecated() -> None:
    with pytest.warns(DeprecationWarning, match="from_setup"):
        deal = Deal.from_state(STANDARD, **GOOD)
    assert deal.points == (41, 0) and deal.talon_size == 4 and "claim" in legal(deal)
    assert deal.setup() == Setup(
        STANDARD, GOOD["hands"], tuple(GOOD["talon"]), Card.parse("JS").suit, Card.parse("JS"),
        points=(41, 0), tricks=(3, 0),
    )


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"hands": (hand("AS TS KS QS KH"), hand("AS JH QH TC AC"))}, "card AS is listed twice"),
        ({"talon": [99, 1, 2]}, "a talon card must be a card, not 99"),
        ({"trump_card": None}, "trump card or, once it is drawn, the trump suit"),
        ({"trump_suit": 2}, "trump suit 2 does not fit"),
        ({"card_points": (40, 0)}, "the points do not add up"),
        ({"leader": 2}, "leader must be player 0 or 1"),
        ({"closed_by": 0, "close_snapshot": (1, 0)}, "cannot exceed"),
    ],
)
def test_from_state_still_refuses_impossible_positions_with_a_deck_error(
    change: dict[str, Any], message: str
) -> None:
    with pytest.raises(DeckError, match=message):
        Deal.from_state(STANDARD, **{**GOOD, **change})


def test_setup_gives_back_what_from_setup_was_given_and_a_deal_over_has_none() -> None:
    s = Setup.parse("soft CA.DQ/CJ.HKQ TD KS 1:AH 40/32 3/3 closed=0@1/12")
    deal = Deal.from_setup(s)
    assert deal.setup() == s and str(deal.setup()) == str(s)
    assert (deal.to_move, deal.leader, deal.closed_by, deal.close_snapshot) == (1, 0, 0, (1, 12))
    over = Deal.from_setup(Setup.parse("standard CA/DA - H 0 50/48 4/5"))
    over.apply("claim")
    with pytest.raises(PositionError, match="the deal is over"):
        over.setup()


def test_from_setup_takes_a_trick_log_that_fits_the_played_cards() -> None:
    c = Card.parse
    log = (Trick(0, c("AD"), c("JD"), 0), Trick(0, c("TD"), c("QD"), 0), Trick(0, c("AH"), c("KD"), 0))
    good = Setup(STANDARD, GOOD["hands"], tuple(GOOD["talon"]), c("JS").suit, c("JS"), points=(41, 0),
                 tricks=(3, 0))
    deal = Deal.from_setup(good.replace(trick_log=log))
    assert deal.trick_log == log and deal.card_points == [41, 0]
    wrong = (*log[:2], Trick(0, c("AH"), c("KD"), 1))
    with pytest.raises(PositionError, match="trick log does not fit"):
        good.replace(trick_log=wrong)
    with pytest.raises(PositionError, match="trick log does not fit"):
        good.replace(trick_log=log[:2])


def test_a_deal_set_up_without_its_tricks_gives_a_setup_without_a_log_after_playing_on() -> None:
    deal = Deal.from_setup(Setup.parse("standard SAT/SKQ - S 0 52/40 4/4"))
    deal.apply("play AS")
    deal.apply("play KS")
    assert len(deal.trick_log) == 1 and deal.setup().trick_log == ()
    assert Deal.from_setup(deal.setup()).points == deal.points == (67, 40)
