"""The one position value: what a Setup refuses, what it normalises, and that every shape goes through it."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bummerl import Card, Deal, Rules, Suit
from bummerl.cards import parse_cards
from bummerl.puzzle import Puzzle
from bummerl.setup import PositionError, Setup, Trick
from helpers.dealkit import PRESET_NAMES, SIXTY_SIX, STANDARD, hand, played_on

GOOD: dict[str, Any] = {
    "rules": STANDARD,
    "hands": (hand("AS TS KS QS KH"), hand("TH JH QH TC AC")),
    "talon": (Card.parse("JC"), Card.parse("QC"), Card.parse("KC")),
    "trump": Suit.parse("S"),
    "trump_card": Card.parse("JS"),
    "points": (41, 0),
    "tricks": (3, 0),
}


def test_the_good_position_is_accepted_and_knows_its_derived_facts() -> None:
    s = Setup(**GOOD)
    assert (s.leader, s.talon_state, s.may_claim, s.card_points, s.marriage_points) == (
        0, "open", True, (41, 0), (0, 0)
    )
    assert s.played.bit_count() == 6 and s.bonus == (0, 0)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"talon": (Card.parse("JC"), Card.parse("QC"))}, "odd number of face-down cards"),
        ({"talon": (Card.parse("JC"), Card.parse("QC"), Card.parse("JC"))}, "card JC is twice in the talon"),
        ({"trump_card": None}, "still has its trump card under it"),
        ({"trump": Suit.parse("H")}, "not of the trump suit H"),
        ({"closed_by": 0, "at_close": (0, 0), "rules": Rules.preset("vu")}, "do not allow closing"),
        ({"closed_by": 0}, "needs at_close"),
        ({"at_close": (0, 0)}, "closed talon only"),
        ({"tricks": (0, 3), "points": (0, 41)}, "the leader (player 0) won the previous trick"),
        ({"tricks": (2, 2)}, "so 6 were played, but 4 tricks hold 8 cards"),
        ({"points": (21, 20)}, "player 1 has 20 points without a trick"),
        ({"points": (51, 0)}, "the points do not add up"),
        ({"points": (61, 0)}, None),  # a counted 20
        ({"points": (10**9, 0)}, "cannot have 1000000000 points"),
        ({"pending": (20, 0)}, "cannot be pending"),
        ({"pending": (0, 30)}, "multiple of 20"),
        ({"married": Suit.parse("H")}, "marriage in H needs its king and queen"),
        ({"hands": (hand("AS TS KS QS KH"), hand("AS JH QH TC AC"))}, "card AS is listed twice"),
        ({"hands": (-1, 0)}, "must be a set of cards"),
        ({"to_move": 2}, "to_move must be player 0 or 1"),
        ({"claim_ok": "yes"}, "claim_ok must be True, False or None"),
    ],
)
def test_a_position_that_cannot_happen_is_refused_with_the_first_problem(
    change: dict[str, Any], message: str | None
) -> None:
    if message is None:
        assert Setup(**{**GOOD, **change}).marriage_points == (20, 0)
        return
    with pytest.raises(PositionError, match=message.replace("(", r"\(").replace(")", r"\)")) as err:
        Setup(**{**GOOD, **change})
    assert "\n" not in str(err.value)


def test_the_first_trick_is_led_by_the_non_dealer_and_automatic_claims_end_a_deal_at_66() -> None:
    talon = tuple(parse_cards("JC QC KC JD QD KD TD AD JS"))
    first = {**GOOD, "talon": talon,
             "trump": Suit.parse("H"), "trump_card": Card.parse("AH"), "points": (0, 0), "tricks": (0, 0)}
    assert Setup(**first, dealer=1).leader == 0
    with pytest.raises(PositionError, match="non-dealer leads to the first trick"):
        Setup(**first, dealer=0)
    tompa = Rules.preset("tompa")
    with pytest.raises(PositionError, match="player 0 has 70 points: with automatic claims"):
        Setup(tompa, (hand("AS JD"), hand("KS JH")), (), Suit.parse("S"), points=(70, 31), tricks=(4, 4))
    ended = Setup(tompa, (0, 0), (), Suit.parse("S"), points=(70, 50), tricks=(6, 4))  # the last trick did it
    assert Deal.from_setup(ended).outcome is not None


def test_sixty_six_counts_the_last_trick_10_inside_the_points() -> None:
    rules = SIXTY_SIX.replace(auto_claim=False)
    s = Setup(rules, (0, 0), (), Suit.parse("S"), points=(70, 60), tricks=(6, 6))
    assert s.bonus == (10, 0) and sum(s.card_points) == 120 and s.marriage_points == (0, 0)
    with pytest.raises(PositionError, match="and the 10 for the last trick"):
        Setup(rules, (0, 0), (), Suit.parse("S"), points=(60, 60), tricks=(6, 6))


def test_the_claim_right_is_stored_only_where_it_differs_from_the_usual_one() -> None:
    assert Setup(**GOOD, claim_ok=True).claim_ok is None
    no = Setup(**GOOD, claim_ok=False)
    assert no.claim_ok is False and not no.may_claim and str(no).endswith("claim=no")
    assert Setup(**{**GOOD, "rules": Rules.preset("tompa")}, claim_ok=False).claim_ok is None


def test_history_rides_along_but_is_not_part_of_the_position() -> None:
    c = Card.parse
    log = (Trick(0, c("AD"), c("JD"), 0), Trick(0, c("TD"), c("QD"), 0), Trick(0, c("AH"), c("KD"), 0))
    with_log = Setup(**GOOD, trick_log=log, dealer=1, marriages=())
    assert with_log == Setup(**GOOD) and hash(with_log) == hash(Setup(**GOOD))
    assert with_log.trick_log == log


def test_messages_name_the_players_as_asked() -> None:
    with pytest.raises(PositionError, match="the opponent has 20 points without a trick"):
        Setup(**{**GOOD, "points": (21, 20)}, names=("me", "the opponent"))


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(PRESET_NAMES), st.integers(0, 2**32 - 1), st.integers(0, 25))
def test_every_shape_of_a_reachable_position_goes_through_the_same_setup(
    preset: str, seed: int, cut: int
) -> None:
    """A deal, its setup, the notation and each seat's puzzle (its true world) are one position."""
    played = played_on(Rules.preset(preset), seed, cut)
    if played is None:
        return
    s = played[0].setup()
    assert Setup.parse(str(s)) == s
    assert Deal.from_setup(s).setup() == s
    for seat in (0, 1):
        p = Puzzle.from_setup(s, seat)
        other = 1 - seat
        talon = [int(c) for c in s.talon]
        world = p.world(s.hands[other], talon, seat=seat)
        if seat == s.to_move:  # the other seat's puzzle leaves the claim right to the usual one
            assert world.setup() == s
        assert world.setup().replace(claim_ok=s.claim_ok) == s
        assert p.unseen | p.opponent_has == s.hands[other] | sum(1 << c for c in talon)
