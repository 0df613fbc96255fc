"""The public Python API refuses bad values with the package's own one-line errors (session 7's audit):
codes and indexes that used to count from the end, strings where ``apply`` took them but ``is_legal``
did not, notation parsers given something other than text, a rules name where a Rules is needed, and a
Bummerl to 0 points."""

from __future__ import annotations

from typing import Any

import pytest

from bummerl import Deal, DeckError, Rules
from bummerl.actions import Action, ActionParseError
from bummerl.cards import Card, CardParseError
from bummerl.engine import IllegalActionError
from bummerl.errors import BummerlError
from bummerl.game import Bummerl
from bummerl.grammar import NotationError, parse_hand
from bummerl.puzzle import Puzzle
from bummerl.setup import Setup


@pytest.mark.parametrize("make", [lambda: Action.play(-1), lambda: Action.play(24), lambda: Action.play("QH"),
                                  lambda: Action.marry(-1), lambda: Action.marry(4),
                                  lambda: Action.from_code(-1), lambda: Action.from_code(32)])
def test_action_constructors_refuse_what_is_out_of_range(make: Any) -> None:
    with pytest.raises(ActionParseError, match=r" is 0\.\.\d+, not "):
        make()


def test_card_constructors_refuse_what_is_out_of_range() -> None:
    assert (str(Card.of(2, 1)), str(Card.from_index(23))) == ("QD", "AS")
    for make in (lambda: Card.from_index(-1), lambda: Card.from_index(24), lambda: Card.of(6, 0),
                 lambda: Card.of(0, 4), lambda: Card.of(-1, 0), lambda: Card.from_index(2.0)):
        with pytest.raises(CardParseError):
            make()


def test_is_legal_and_illegal_reason_take_strings_as_apply_does() -> None:
    deal = Deal.random(Rules.preset("standard"), 1)
    first = str(deal.legal_actions()[0])
    assert deal.is_legal(first) and deal.illegal_reason(first) is None
    assert deal.illegal_reason("pass") is not None
    for bad in (5, None, "xyz"):
        with pytest.raises(IllegalActionError, match="not an action"):
            deal.is_legal(bad)  # type: ignore[arg-type]


@pytest.mark.parametrize("parse", [Setup.parse, Puzzle.parse, parse_hand])
@pytest.mark.parametrize("bad", [None, 5, b"standard CA/CT - H 0 0/0 0/0"])
def test_notation_parsers_refuse_what_is_not_text(parse: Any, bad: object) -> None:
    with pytest.raises(NotationError, match="text"):
        parse(bad)


def test_a_rules_name_where_rules_are_needed_is_one_clear_error() -> None:
    pack = [c for c in range(24) if c % 6]
    for make in (lambda: Deal.from_deck("standard", pack), lambda: Deal.random("standard", 1)):  # type: ignore
        with pytest.raises(DeckError, match=r"rules must be a Rules \(e\.g\. Rules\.preset"):
            make()


@pytest.mark.parametrize("target", [0, -3, "7", True])
def test_a_bummerl_needs_a_target_of_a_point_or_more(target: object) -> None:
    with pytest.raises(BummerlError, match="target is 1 game point or more"):
        Bummerl(Rules.preset("standard"), 1, target=target)  # type: ignore[arg-type]


@pytest.mark.parametrize(("change", "message"), [
    ({"marriages": ((0, 99),)}, "a marriage's suit must be a suit, not 99"),
    ({"marriages": [(7, 7)]}, "a marriage's player must be player 0 or 1, not 7"),
    ({"exchanged": (0, "x", "y")}, "the card given must be a card, not 'x'"),
    ({"trick_log": [(0, 1, 2)]}, "a trick is (leader, lead, follow, winner)"),
    ({"trick_log": [(0, -1, 2, 0)]}, "a trick's lead must be a card, not -1"),
    ({"trick_log": [(0, 1, 2, 5)]}, "a trick's winner must be player 0 or 1, not 5"),
    ({"trick_log": [(0, 1, 1, 0)]}, "a trick holds two different cards"),
    ({"trick_log": "abc"}, "the trick log must be a sequence"),
    ({"talon": 5}, "the talon must be a sequence"),
])
def test_a_setups_history_is_checked_when_it_is_made(change: dict[str, object], message: str) -> None:
    from bummerl.setup import PositionError

    setup = Setup.parse("standard CTK.DAK.HQ/CQJ.DTQ.HT JD QS 0 28/27 2/2")
    with pytest.raises(PositionError) as refused:
        setup.replace(**change)  # type: ignore[arg-type]
    assert message in str(refused.value)


def test_a_view_refuses_a_suit_that_is_not_one() -> None:
    from bummerl import View

    view = View.of(Deal.random(Rules.preset("standard"), 1), 0)
    assert sum(len(view.suit_cards(s)) for s in range(4)) == 5
    for bad in (7, -1):
        with pytest.raises(ValueError, match=f"no suit {bad}: a suit is 0 to 3"):
            view.suit_cards(bad)


def test_analysis_and_worlds_refuse_fewer_than_one_sample() -> None:
    from bummerl import View
    from bummerl.analysis import AnalysisError, analyse
    from bummerl.search.worlds import worlds

    deal = Deal.random(Rules.preset("standard"), 1)
    view = View.of(deal, deal.to_move)
    with pytest.raises(ValueError, match="samples must be at least 1, not 0"):
        worlds(view, samples=0)
    with pytest.raises(AnalysisError, match=r"^samples must be at least 1, not 0$"):  # was: "the weight
        analyse(view, samples=0)  # function gave every world weight 0", though no weight was given
