"""rules.md 3.1: what the leader may do before leading (exchange, close, marry, claim) and in which order."""

from __future__ import annotations

import pytest

from bummerl import Card, IllegalActionError, Rules
from bummerl.actions import CLAIM, CLOSE, EXCHANGE, PASS, Action
from helpers.dealkit import SHARP, SIXTY_SIX, SOFT, STANDARD, TOMPA, VU, arrange, legal, position, run

# Player 0 is the non-dealer and leads first; hearts are trumps (the ace of hearts is turned up).
HAND_WITH_JACK = "JH AS KS QC JC"
DEALER = "KC QD JD TC KD"


# --------------------------------------------------------------------------- exchange


def test_the_leader_may_exchange_the_trump_jack_for_the_face_up_trump_before_the_first_trick() -> None:
    deal = arrange(STANDARD, HAND_WITH_JACK, DEALER, "AH")
    assert "exchange" in legal(deal)
    deal.apply("exchange")
    assert deal.hands[0] >> Card.parse("AH") & 1 and not deal.hands[0] >> Card.parse("JH") & 1
    assert deal.face_up_trump == Card.parse("JH")
    assert deal.exchanged == (0, Card.parse("JH"), Card.parse("AH"))
    assert "exchange" not in legal(deal)  # at most once: the jack now lies face up
    assert "play AH" in legal(deal)


def test_the_follower_may_not_exchange() -> None:
    deal = arrange(STANDARD, "AS KS QC JC QS", "JH KC QD JD TC", "AH")
    run(deal, "play AS")
    assert deal.to_move == 1 and deal.hands[1] >> Card.parse("JH") & 1
    assert all(a.kind == "play" for a in deal.legal_actions())
    with pytest.raises(IllegalActionError):
        deal.apply("exchange")


def test_exchange_needs_the_trump_jack_in_hand() -> None:
    deal = arrange(STANDARD, "QH AS KS QC JC", "JH KC QD JD TC", "AH")
    assert "exchange" not in legal(deal)


def test_sharp_exchange_needs_a_won_trick() -> None:
    deal = arrange(SHARP, HAND_WITH_JACK, DEALER, "AH")
    assert "exchange" not in legal(deal)
    run(deal, "play AS; play KC")  # the ace wins; the talon is still open
    assert deal.tricks == (1, 0) and "exchange" in legal(deal)


def test_no_exchange_after_closing() -> None:
    deal = arrange(STANDARD, HAND_WITH_JACK, DEALER, "AH")
    run(deal, "close")
    assert "exchange" not in legal(deal)
    assert not deal.is_legal(EXCHANGE)
    with pytest.raises(IllegalActionError):
        deal.apply("exchange")


def test_exchange_then_close_is_allowed() -> None:
    deal = arrange(STANDARD, HAND_WITH_JACK, DEALER, "AH")
    run(deal, "exchange; close")
    assert deal.closed_by == 0 and deal.hands[0] >> Card.parse("AH") & 1


# A position at the lead of trick 5: one face-down card (KS) above the face-up trump (AH).
TWO_LEFT = {"hands": ("JH QC KC JD QD", "TC AC KD TD AD"), "talon": "KS", "trump": "AH", "tricks": (2, 2)}
FOUR_LEFT = {
    "hands": ("JH QC KC JD QD", "TC AC KD TD AD"), "talon": "KS QS JS", "trump": "AH", "tricks": (2, 1)
}


@pytest.mark.parametrize(
    ("preset", "allowed"),
    [("standard", True), ("soft", True), ("sharp", False), ("tompa", True), ("vu", True)],
)
def test_exchange_with_two_cards_left_follows_exchange_with_two_left(preset: str, allowed: bool) -> None:
    deal = position(Rules.preset(preset), **TWO_LEFT)  # type: ignore[arg-type]
    assert deal.talon_size == 2
    assert deal.is_legal(EXCHANGE) is allowed
    assert ("exchange" in legal(deal)) is allowed


def test_after_an_exchange_with_two_cards_left_the_tricks_loser_draws_the_exchanged_jack() -> None:
    deal = position(STANDARD, **TWO_LEFT)  # type: ignore[arg-type]
    run(deal, "exchange; play QC; play AC")  # the follower takes the trick: it draws KS, the leader JH
    assert deal.talon_size == 0
    assert deal.hands[1] >> Card.parse("KS") & 1
    assert deal.hands[0] >> Card.parse("JH") & 1 and deal.hands[0] >> Card.parse("AH") & 1  # AH by exchange


def test_sharp_exchange_is_allowed_while_the_talon_holds_more_than_two() -> None:
    deal = position(SHARP, **FOUR_LEFT)  # type: ignore[arg-type]
    assert deal.talon_size == 4 and "exchange" in legal(deal)


def test_no_exchange_once_the_talon_is_exhausted() -> None:
    deal = position(STANDARD, ("JH QC KC JD QD", "TC AC KD TD AD"), trump_suit="H", tricks=(3, 2))
    assert deal.talon_size == 0 and "exchange" not in legal(deal)


def test_sixty_six_exchanges_the_trump_nine_not_the_jack() -> None:
    deal = arrange(SIXTY_SIX, "9H JH AS KS QC JC", "KC QD JD TC KD 9C", "AH")
    deal.apply("exchange")
    assert deal.exchanged == (0, Card.parse("9H"), Card.parse("AH"))
    assert deal.hands[0] >> Card.parse("JH") & 1
    jack_only = arrange(SIXTY_SIX, "TH JH AS KS QC JC", "KC QD JD TC KD 9H", "AH")
    assert "exchange" not in legal(jack_only)


# --------------------------------------------------------------------------- close


def test_the_non_dealer_may_close_at_once() -> None:
    deal = arrange(STANDARD, HAND_WITH_JACK, DEALER, "AH")
    assert "close" in legal(deal)
    deal.apply("close")
    assert deal.closed_by == 0 and not deal.talon_open and deal.face_up_trump is None
    assert "close" not in legal(deal)  # not twice
    assert deal.to_move == 0  # closing is not the lead: the closer still leads


def test_vu_never_allows_closing() -> None:
    deal = arrange(VU, HAND_WITH_JACK, DEALER, "AH")
    assert "close" not in legal(deal)
    with pytest.raises(IllegalActionError):
        deal.apply(CLOSE)


@pytest.mark.parametrize(
    ("preset", "allowed"),
    [("standard", False), ("soft", True), ("sharp", False), ("tompa", True), ("vu", False)],
)
def test_closing_with_two_cards_left_follows_close_with_two_left(preset: str, allowed: bool) -> None:
    deal = position(Rules.preset(preset), **TWO_LEFT)  # type: ignore[arg-type]
    assert deal.is_legal(CLOSE) is allowed


def test_sixty_six_may_close_with_two_left() -> None:
    deal = position(
        SIXTY_SIX, ("JH QC KC JD QD 9C", "TC AC KD TD AD 9D"), talon="KS", trump="AH", tricks=(3, 2)
    )
    assert deal.talon_size == 2 and deal.is_legal(CLOSE)


def test_closing_is_allowed_while_the_talon_holds_more_than_two_cards() -> None:
    deal = position(STANDARD, **FOUR_LEFT)  # type: ignore[arg-type]
    assert deal.is_legal(CLOSE)


def test_no_close_once_the_talon_is_exhausted() -> None:
    deal = position(SOFT, ("JH QC KC JD QD", "TC AC KD TD AD"), trump_suit="H", tricks=(3, 2))
    assert not deal.is_legal(CLOSE)


def test_the_follower_may_not_close() -> None:
    deal = arrange(STANDARD, HAND_WITH_JACK, DEALER, "AH")
    run(deal, "play AS")
    assert not deal.is_legal(CLOSE) and "close" not in legal(deal)


# --------------------------------------------------------------------------- marry

MARRIAGE_HAND = "KS QS AC TC JD"
OTHER = "KC QD JC TD KD"


def test_a_marriage_needs_both_king_and_queen() -> None:
    deal = arrange(SOFT, "KS JS AC TC JD", "QS QD JC TD KD", "AH")
    assert "marry S" not in legal(deal)


def test_standard_marriage_needs_a_won_trick() -> None:
    deal = arrange(STANDARD, MARRIAGE_HAND, OTHER, "AH")
    assert "marry S" not in legal(deal)
    run(deal, "play AC; play JC")
    assert deal.tricks == (1, 0) and "marry S" in legal(deal)


def test_soft_allows_a_marriage_on_the_opening_lead() -> None:
    deal = arrange(SOFT, MARRIAGE_HAND, OTHER, "AH")
    assert "marry S" in legal(deal)


@pytest.mark.parametrize(
    ("preset", "only"), [("soft", ["claim", "play KS", "play QS"]), ("tompa", ["play KS", "play QS"])]
)
def test_after_a_marriage_only_its_king_or_queen_may_be_led_or_a_claim_made(
    preset: str, only: list[str]
) -> None:
    deal = arrange(Rules.preset(preset), "KS QS KH QH JH", OTHER, "AH")
    deal.apply("marry S")
    assert legal(deal) == only
    with pytest.raises(IllegalActionError, match="king or queen"):
        deal.apply("play JH")


@pytest.mark.parametrize("preset", ["sharp", "vu"])
def test_with_marriage_leads_king_only_the_king_may_be_led(preset: str) -> None:
    rules = Rules.preset(preset)
    deal = position(rules, ("KS QS KH QH JH", "TC AC KD TD AD"), talon="KC QC JC", trump="AH", tricks=(2, 1))
    deal.apply("marry S")
    assert legal(deal) == (["play KS"] if rules.auto_claim else ["claim", "play KS"])
    with pytest.raises(IllegalActionError):
        deal.apply("play QS")


def test_only_one_marriage_per_lead() -> None:
    deal = arrange(SOFT, "KS QS KH QH JH", OTHER, "AD")
    assert {"marry H", "marry S"} <= set(legal(deal))
    deal.apply("marry S")
    assert not deal.is_legal(Action.parse("marry H"))
    with pytest.raises(IllegalActionError):
        deal.apply("marry H")
    deal.apply("play KS")
    deal.apply("play KC")  # a higher card of another suit does not win: the king of spades takes it
    assert deal.to_move == 0 and "marry H" in legal(deal)  # the next lead may marry again


def test_no_exchange_or_close_after_a_marriage() -> None:
    deal = arrange(SOFT, "KS QS JH AC TC", OTHER, "AH")
    assert {"close", "exchange", "marry S"} <= set(legal(deal))
    deal.apply("marry S")
    assert not deal.is_legal(EXCHANGE) and not deal.is_legal(CLOSE)


def test_exchange_and_close_may_come_before_a_marriage() -> None:
    deal = arrange(SOFT, "KS QS JH AC TC", OTHER, "AH")
    run(deal, "exchange; close; marry S; play QS")
    assert deal.marriages == ((0, 3),)


def test_schnapsen_allows_marriages_after_closing_and_after_the_talon_is_exhausted() -> None:
    deal = arrange(STANDARD, "KS QS AC TC JD", OTHER, "AH")
    run(deal, "play AC; play JC; close")
    assert "marry S" in legal(deal)
    exhausted = position(STANDARD, ("KS QS JH AC TC", "KC QC JC TD AD"), trump_suit="H", tricks=(3, 2))
    assert "marry S" in legal(exhausted)


def test_sixty_six_allows_marriages_only_while_the_talon_is_open() -> None:
    deal = arrange(SIXTY_SIX, "KS QS AC TC JD 9C", "KC QC JC TD KD 9D", "AH")
    assert "marry S" in legal(deal)  # no trick needed in the sixty-six preset
    deal.apply("close")
    assert "marry S" not in legal(deal)
    exhausted = position(
        SIXTY_SIX, ("KS QS JH AC TC 9C", "KC QC JC TD AD 9D"), trump_suit="H", tricks=(3, 3), points0=30
    )
    assert "marry S" not in legal(exhausted)


# --------------------------------------------------------------------------- claim


def test_no_claim_on_the_opening_lead() -> None:
    deal = arrange(STANDARD, HAND_WITH_JACK, DEALER, "AH")
    assert "claim" not in legal(deal) and not deal.is_legal(CLAIM)


def test_the_trick_winner_may_claim_as_the_first_action_of_the_turn() -> None:
    deal = arrange(STANDARD, HAND_WITH_JACK, DEALER, "AH")
    run(deal, "play AS; play KC")
    assert deal.to_move == 0 and "claim" in legal(deal)


def test_the_follower_may_never_claim() -> None:
    deal = arrange(STANDARD, HAND_WITH_JACK, DEALER, "AH")
    run(deal, "play AS; play KC; play KS")
    assert deal.to_move == 1 and "claim" not in legal(deal)
    with pytest.raises(IllegalActionError, match="only the winner of the previous trick may claim"):
        deal.apply("claim")


@pytest.mark.parametrize("first", ["exchange", "close"])
def test_no_claim_after_an_exchange_or_a_close_in_the_same_turn(first: str) -> None:
    deal = arrange(STANDARD, HAND_WITH_JACK, DEALER, "AH")
    run(deal, "play AS; play KC")
    deal.apply(first)
    assert "claim" not in legal(deal)


def test_a_claim_is_allowed_right_after_a_marriage_even_after_an_exchange() -> None:
    deal = arrange(STANDARD, "KS QS JH AC TC", OTHER, "AH")
    run(deal, "play AC; play JC; exchange")
    assert "claim" not in legal(deal)
    deal.apply("marry S")
    assert "claim" in legal(deal)


def test_a_claim_after_a_marriage_on_the_opening_lead_is_legal_but_false() -> None:
    deal = arrange(SOFT, MARRIAGE_HAND, OTHER, "AH")
    run(deal, "marry S; claim")
    assert deal.outcome is not None
    assert (deal.outcome.winner, deal.outcome.game_points, deal.outcome.reason) == (1, 3, "false_claim")


@pytest.mark.parametrize("rules", [TOMPA, VU, SIXTY_SIX, STANDARD.replace(auto_claim=True)], ids=str)
def test_with_auto_claim_claim_and_pass_are_never_legal(rules: Rules) -> None:
    deal = arrange(rules, "KS QS AC TC JD" if not rules.sixty_six else "KS QS AC TC JD 9C",
                   OTHER if not rules.sixty_six else OTHER + " 9D", "AH")
    run(deal, "play AC; play JC")
    assert deal.tricks == (1, 0)
    deal.apply("marry S")
    assert not deal.is_legal(CLAIM) and not deal.is_legal(PASS)
    with pytest.raises(IllegalActionError, match="automatic"):
        deal.apply("claim")


def test_pass_is_only_legal_after_the_last_trick() -> None:
    deal = arrange(STANDARD, HAND_WITH_JACK, DEALER, "AH")
    run(deal, "play AS; play KC")
    assert not deal.is_legal(PASS)
    with pytest.raises(IllegalActionError, match="only legal after the last trick"):
        deal.apply("pass")
