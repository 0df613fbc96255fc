"""The one-line position notation: round trips, the fields one by one, and clear refusals."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bummerl import Deal, Rules, View
from bummerl.cards import Card, mask_of, parse_cards
from bummerl.notation import (
    NotationError,
    Position,
    format_hand,
    parse,
    parse_hand,
    parse_position,
    parse_puzzle,
)
from bummerl.puzzle import Puzzle
from bummerl.rules import PRESETS

PRESET_NAMES = sorted(PRESETS)


def play_randomly(rules: Rules, seed: int, steps: int) -> Deal:
    """A deal after up to ``steps`` random actions, stopped before it ends."""
    rng = random.Random(seed)
    deal = Deal.random(rules, rng.randrange(10**9), dealer=rng.randrange(2))
    for _ in range(steps):
        actions = deal.legal_actions()
        action = rng.choice(actions)
        deal.push(action)
        if deal.is_over:
            deal.pop()
            break
    return deal


def rules_strategy() -> st.SearchStrategy[Rules]:
    presets = st.sampled_from(PRESET_NAMES).map(Rules.preset)
    overridden = st.tuples(presets, st.sampled_from(["mirror", "fixed"]), st.booleans()).map(
        lambda t: t[0].replace(false_claim=t[1], open_tricks=t[2])
    )
    return st.one_of(presets, overridden)


positions = st.builds(play_randomly, rules_strategy(), st.integers(0, 10**9), st.integers(0, 30))


@settings(max_examples=150, deadline=None)
@given(positions)
def test_a_full_position_round_trips_through_its_notation(deal: Deal) -> None:
    pos = Position.from_deal(deal)
    text = str(pos)
    assert parse(text) == pos
    assert parse_position(text) == pos
    assert "\n" not in text and text == text.strip()
    rebuilt = Deal.from_setup(pos)
    assert rebuilt.legal_actions() == deal.legal_actions()
    assert (rebuilt.hands, rebuilt.talon, rebuilt.points, rebuilt.tricks) == (
        deal.hands,
        deal.talon,
        deal.points,
        deal.tricks,
    )
    assert Position.from_deal(rebuilt) == pos


@settings(max_examples=150, deadline=None)
@given(positions, st.integers(0, 1))
def test_a_seats_view_round_trips_as_a_puzzle(deal: Deal, seat: int) -> None:
    puzzle = Puzzle.from_view(View.of(deal, seat))
    text = str(puzzle)
    assert "?" in text.split()[1]
    assert parse(text) == puzzle
    assert parse_puzzle(text) == puzzle
    assert repr(puzzle) == f"Puzzle.parse({text!r})"


def test_a_hand_is_written_by_suit_with_ranks_high_to_low() -> None:
    assert format_hand(mask_of(parse_cards("QH TC KC AD KD"))) == "CTK.DAK.HQ"
    assert format_hand(mask_of(parse_cards("9S AS JC"))) == "CJ.SA9"
    assert parse_hand("sa9.cj") == mask_of(parse_cards("9S AS JC"))
    assert parse_hand("-") == 0


def test_the_fields_mean_what_the_readme_says() -> None:
    pos = parse_position("soft CA.DQ/CJ.HKQ TD KS 1:AH 40/32 3/3 closed=0@1/12")
    assert pos.rules == Rules.preset("soft")
    assert pos.hands == (mask_of(parse_cards("AC QD")), mask_of(parse_cards("JC KH QH")))
    assert pos.talon == (Card.parse("TD"),) and pos.trump_card == Card.parse("KS")
    assert (pos.to_move, pos.lead) == (1, Card.parse("AH"))
    assert (pos.points, pos.pending, pos.tricks) == ((40, 32), (0, 0), (3, 3))
    assert (pos.closed_by, pos.at_close, pos.talon_state) == (0, (1, 12), "closed")
    deal = Deal.from_setup(pos)
    assert [str(a) for a in deal.legal_actions()] == ["play QH", "play KH"]  # closed: follow suit


def test_pending_marriage_points_follow_a_plus_sign() -> None:
    for seed in range(500):
        deal = play_randomly(Rules.preset("soft"), seed, 2)
        pos = Position.from_deal(deal)
        if any(pos.pending):
            break
    else:
        pytest.fail("no soft deal with a pending marriage among 500")
    points = str(pos).split()[5]
    assert "+" in points
    assert parse(str(pos)) == pos


def test_rule_overrides_ride_along_with_the_preset() -> None:
    pos = parse_position("standard:false_claim=mirror,open_tricks=no CA/DA - H 0 50/48 4/5")
    assert pos.rules == Rules.preset("standard").replace(false_claim="mirror", open_tricks=False)
    assert str(pos).startswith("standard:false_claim=mirror,open_tricks=no ")


def test_a_marriage_just_declared_and_a_lost_claim_right_are_extras() -> None:
    pos = parse_position("standard CKQ.DA/CAT.DT - H 0 40/31 4/3 married=C")
    assert pos.married is not None and pos.married.letter == "C"
    assert [str(a) for a in Deal.from_setup(pos).legal_actions()] == ["play QC", "play KC", "claim"]
    no_claim = parse_position("standard CKQ.DA/CAT.DT - H 0 40/31 4/3 claim=no")
    assert "claim" not in [str(a) for a in Deal.from_setup(no_claim).legal_actions()]
    assert str(parse_position("standard CKQ.DA/CAT.DT - H 0 40/31 4/3 claim=yes")).endswith("4/3")


def test_sixty_six_positions_carry_nines() -> None:
    deal = play_randomly(Rules.preset("sixty-six"), 4, 6)
    text = str(Position.from_deal(deal))
    assert text.startswith("sixty-six ")
    assert parse(text) == Position.from_deal(deal)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("standard CA/DA - H 0 50/48", "7 fields"),
        ("standard CA/DX - H 0 50/48 4/4", "'X' is not a rank"),
        ("standard CA/ZA - H 0 50/48 4/4", "'Z' is not a suit letter"),
        ("standard CAA/DA - H 0 50/48 4/4", "names AC twice"),
        ("standard CA/DA - H 2 50/48 4/4", "field 5 (turn) must be 0 or 1"),
        ("standard CA/DA - H 0 50-48 4/4", "field 6 (points)"),
        ("standard CA/DA - H 0 50/48 4/5 dance=yes", "unknown extra field 'dance=yes'"),
        ("standard CA/DA - H 0 50/48 4/5 closed=1@2/30", "closed=... needs a talon"),
        ("standard CA/DA - H 0 50/47 4/5", "the points do not add up"),
        ("standard CA/DA - H 0 50/48 3/5", "8 tricks hold 16 cards"),
        ("standard CA/CA - H 0 50/48 4/4", "card AC is listed twice"),
        ("poker CA/DA - H 0 50/48 4/5", "unknown rules preset 'poker'"),
        ("standard:colour=red CA/DA - H 0 50/48 4/5", "'colour=red' is not a rule flag setting"),
        ("standard CA/?DA x H 0 50/48 4/4", "number of face-down talon cards"),
    ],
)
def test_bad_notation_is_refused_with_the_field_named(text: str, message: str) -> None:
    with pytest.raises(NotationError) as err:
        parse(text)
    assert message in str(err.value)
    assert str(err.value).startswith(f"bad position {text!r}: ")
