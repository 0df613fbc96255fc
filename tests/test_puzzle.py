"""Puzzle diagrams: reading Tompa-style JSON, refusing impossible positions, views as puzzles, worlds."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from bummerl import Deal, Rules, View
from bummerl.cards import Card, mask_of, parse_cards
from bummerl.puzzle import Puzzle, PuzzleError, split_points
from bummerl.rules import PRESETS
from bummerl.setup import Setup

PUZZLES = Path(__file__).parent / "puzzles"

TOMPA_1: dict[str, Any] = {
    "rules": "tompa",
    "hand": ["QH", "TC", "KC", "AD", "KD"],
    "unseen": ["TH", "QC", "JC", "TD", "QD", "JD"],
    "trump_card": "QS",
    "talon": "open",
    "facedown": 1,
    "points": {"me": 28, "opponent": 27},
    "tricks": {"me": 2, "opponent": 2},
    "to_move": "me",
    "lead": None,
    "opponent_has": [],
}


def cards(text: str) -> int:
    return mask_of(parse_cards(text))


def tompa(**changes: Any) -> dict[str, Any]:
    return {**TOMPA_1, **changes}


def random_positions(count: int, seed: int) -> list[Deal]:
    """Deals of every preset stopped after a random number of random actions (not over)."""
    rng = random.Random(seed)
    out: list[Deal] = []
    while len(out) < count:
        deal = Deal.random(PRESETS[rng.choice(sorted(PRESETS))], rng.randrange(10**9))
        for _ in range(rng.randrange(24)):
            if deal.is_over:
                break
            deal.apply(rng.choice(deal.legal_actions()))
        if not deal.is_over:
            out.append(deal)
    return out


def test_tompas_first_puzzle_reads_as_the_diagram_says() -> None:
    p = Puzzle.from_json(TOMPA_1)
    assert p.rules == Rules.preset("tompa")
    assert p.hand == cards("QH TC KC AD KD")
    assert p.unseen == cards("TH QC JC TD QD JD")
    assert p.trump_card == Card.parse("QS") and p.trump.letter == "S"
    assert (p.talon, p.facedown, p.talon_size) == ("open", 1, 2)
    assert (p.points, p.tricks, p.to_move, p.lead) == ((28, 27), (2, 2), 0, None)
    assert (p.hidden_in_hand, p.opponent_hand_size) == (5, 5)


def test_puzzle_files_in_tests_read_and_write_back_unchanged() -> None:
    files = sorted(PUZZLES.glob("*.json"))
    assert len(files) >= 2
    for path in files:
        raw = json.loads(path.read_text())
        if "hand" not in raw:
            continue  # the answers file
        p = Puzzle.from_json(raw)
        assert Puzzle.from_json(p.to_json()) == p
        assert Puzzle.parse(str(p)) == p


def test_a_puzzle_may_give_cards_as_text_and_any_case() -> None:
    p = Puzzle.from_json(tompa(hand="qh tc, kc ad kd", unseen=["th", "qc", "jc", "td", "qd", "jd"]))
    assert p == Puzzle.from_json(TOMPA_1)


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"hand": ["QH", "TC", "KC", "AD", "TH"]}, "card TH is listed twice (hand and unseen)"),
        ({"hand": ["QH", "QH", "KC", "AD", "KD"]}, "QH is listed twice in hand"),
        ({"trump_card": "QD"}, "card QD is listed twice"),
        ({"facedown": 3}, "the opponent would hold 3"),
        ({"facedown": 2}, "odd number of face-down cards"),
        ({"unseen": ["TH", "QC", "JC", "TD", "QD"]}, "so 9 were played, but 4 tricks hold 8 cards"),
        ({"points": {"me": 30, "opponent": 27}}, "the points do not add up"),
        ({"points": {"me": 48, "opponent": 27}, "tricks": {"me": 2, "opponent": 2}}, None),
        ({"tricks": {"me": 4, "opponent": 0}}, "the opponent has 27 points without a trick"),
        ({"points": {"me": 66, "opponent": 9}}, "with automatic claims the deal is already over"),
        ({"talon": "exhausted"}, "an exhausted talon has no trump card"),
        ({"talon": "closed"}, 'a closed talon needs "closed_by"'),
        ({"trump_card": None}, 'needs "trump_card"'),
        ({"hand": ["QH", "TC", "KC", "AD", "9D"]}, "9D is not in a schnapsen pack"),
        ({"hand": ["QH", "TC", "KC", "AD", "XX"]}, "hand: not a card: 'XX'"),
        ({"lead": "AS"}, "so 7 were played, but 4 tricks hold 8 cards"),
        ({"to_move": "him"}, 'to_move must be "me" or "opponent"'),
        ({"rules": "poker"}, "unknown rules preset 'poker'"),
        ({"facedwn": 1}, "unknown puzzle key 'facedwn'"),
        ({"points": {"me": 28, "him": 27}}, "unknown player 'him'"),
        ({"married": "H"}, "the marriage in H needs its king and queen"),
        (
            {"tricks": {"me": 0, "opponent": 4}, "points": {"me": 0, "opponent": 55}},
            "the leader (me) won the previous trick, so cannot have 0 tricks",
        ),
        ({"pending": {"me": 20, "opponent": 0}}, "marriage counts at once and cannot be pending"),
    ],
)
def test_an_impossible_puzzle_is_refused_with_a_clear_message(
    changes: dict[str, Any], message: str | None
) -> None:
    if message is None:  # 20 more points than the cards give: a counted marriage, accepted
        assert Puzzle.from_json(tompa(**changes)).points == (48, 27)
        return
    with pytest.raises(PuzzleError) as err:
        Puzzle.from_json(tompa(**changes))
    assert message in str(err.value)
    assert "\n" not in str(err.value)


def test_a_closed_talon_keeps_who_closed_and_the_state_at_closing() -> None:
    # Tompa's first puzzle after I close and my AD takes the opponent's QD.
    p = Puzzle.from_json(
        tompa(
            hand=["QH", "TC", "KC", "KD"],
            unseen=["TH", "QC", "JC", "TD", "JD"],
            talon="closed",
            closed_by="me",
            at_close={"tricks": 2, "points": 27},
            points={"me": 42, "opponent": 27},
            tricks={"me": 3, "opponent": 2},
        )
    )
    assert (p.talon, p.closed_by, p.at_close, p.hidden_in_hand, p.talon_size) == ("closed", 0, (2, 27), 4, 2)
    with pytest.raises(PuzzleError, match="cannot exceed"):
        p.replace(at_close=(3, 27))
    with pytest.raises(PuzzleError, match="do not allow closing a talon of two cards"):
        p.replace(rules=Rules.preset("standard"))


def test_a_lead_by_the_opponent_leaves_them_one_card_short() -> None:
    p = Puzzle.from_json(tompa(unseen=["TH", "QC", "JC", "TD", "QD"], lead="JD"))
    assert (p.leader, p.hidden_in_hand, p.opponent_hand_size) == (1, 4, 4)


def test_the_opponents_known_cards_count_in_their_hand() -> None:
    p = Puzzle.from_json(tompa(unseen=["TH", "QC", "JC", "TD"], opponent_has=["QD", "JD"]))
    assert (p.hidden_in_hand, p.opponent_hand_size) == (3, 5)
    assert str(p) == "tompa CTK.DAK.HQ/DQJ?CQJ.DT.HT 1 QS 0 28/27 2/2"


def test_points_split_into_cards_and_marriages_only_in_twenties() -> None:
    assert split_points((28, 27), 55) == ((28, 27), (0, 0))
    assert split_points((68, 27), 55) == ((28, 27), (40, 0))
    assert split_points((10, 65), 55) == ((10, 45), (0, 20))
    assert split_points((28, 37), 55) is None
    assert split_points((70, 15), 75, bonus=(10, 0)) == ((60, 15), (0, 0))


def test_a_views_puzzle_holds_exactly_what_the_seat_knows() -> None:
    for deal in random_positions(60, seed=11):
        for seat in (0, 1):
            view = View.of(deal, seat)
            p = Puzzle.from_view(view)
            assert p.hand == deal.hands[seat]
            assert p.unseen | p.opponent_has == deal.hands[1 - seat] | mask_of(deal.talon)
            assert p.opponent_has & ~deal.hands[1 - seat] == 0
            assert p.facedown == len(deal.talon)
            assert p.points == (deal.points[seat], deal.points[1 - seat])
            assert (p.to_move == 0) == (deal.to_move == seat)
            assert Puzzle.from_json(json.loads(json.dumps(p.to_json()))) == p


def test_the_true_placement_of_a_view_rebuilds_the_same_position() -> None:
    for deal in random_positions(40, seed=12):
        seat = deal.to_move
        view = View.of(deal, seat)
        world = Puzzle.from_view(view).world(
            deal.hands[1 - seat],
            deal.talon,
            seat=seat,
            marriages=view.marriages,
            exchanged=view.exchanged,
            dealer=view.dealer,
            trick_log=view.trick_log,
        )
        assert world.hands == deal.hands and world.talon == deal.talon
        assert world.points == deal.points and world.tricks == deal.tricks
        assert world.legal_actions() == deal.legal_actions()
        assert (world.card_points, world.marriage_points) == (deal.card_points, deal.marriage_points)


def test_a_world_must_place_exactly_the_unseen_cards() -> None:
    p = Puzzle.from_json(TOMPA_1)
    with pytest.raises(PuzzleError, match="places 5 unseen cards"):
        p.world(cards("TH QC JC TD"), parse_cards("QD JD"))
    with pytest.raises(PuzzleError, match="exactly the unseen cards"):
        p.world(cards("TH QC JC TD QD"), parse_cards("AS"))
    with pytest.raises(PuzzleError, match="must hold opponent_has"):
        p.world(cards("TH QC JC TD AS"), parse_cards("JD"))
    world = p.world(cards("TH QC JC TD QD"), parse_cards("JD"), seat=1)
    assert world.to_move == 1 and world.hands[1] == p.hand and world.points == (27, 28)


def test_the_puzzle_of_a_full_position_knows_a_marriage_the_opponent_just_declared() -> None:
    setup = Setup.parse("standard CKQ.DA/CAT.DT - H 0 40/31 4/3 married=C")
    p = Puzzle.from_setup(setup, 1)
    assert (p.to_move, p.married, p.opponent_has) == (1, setup.married, cards("KC QC"))
    assert p.world(setup.hands[0], seat=1).setup() == setup
