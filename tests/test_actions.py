"""rules.md section 3: the action strings (play XY, exchange, close, marry S, claim, pass)."""

from __future__ import annotations

import pickle

import pytest

from bummerl.actions import ACTIONS, CLAIM, CLOSE, EXCHANGE, PASS, Action, ActionParseError
from bummerl.cards import CARDS, Card, Suit


def test_there_are_32_actions_24_plays_and_eight_others() -> None:
    assert len(ACTIONS) == 32
    assert [a.code for a in ACTIONS] == list(range(32))
    assert [a.kind for a in ACTIONS].count("play") == 24
    assert [str(a) for a in ACTIONS[24:]] == [
        "exchange", "close", "claim", "pass", "marry C", "marry D", "marry H", "marry S",
    ]


def test_a_play_is_written_play_and_the_card_code() -> None:
    for c in CARDS:
        a = Action.play(c)
        assert str(a) == f"play {c}"
        assert (a.kind, a.card, a.suit) == ("play", c, None)


def test_a_marriage_is_written_marry_and_the_suit_letter() -> None:
    for s in Suit:
        a = Action.marry(s)
        assert str(a) == f"marry {s.letter}"
        assert (a.kind, a.card, a.suit) == ("marry", None, s)


@pytest.mark.parametrize("action", ACTIONS, ids=str)
def test_every_canonical_string_parses_back_to_the_same_shared_value(action: Action) -> None:
    assert Action.parse(str(action)) is action
    assert Action.from_code(action.code) is action
    assert eval(repr(action)) is action  # the repr pastes back
    assert pickle.loads(pickle.dumps(action)) is action


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("play qh", "play QH"), ("PLAY 10c", "play TC"), ("  play   Q♥ ", "play QH"),
        ("marry h", "marry H"), ("marry ♠", "marry S"), ("marry Herz", "marry H"),
        ("Exchange", "exchange"), ("CLOSE", "close"), ("claim", "claim"), ("Pass", "pass"),
    ],
)
def test_input_may_use_any_case_symbols_and_extra_spaces(text: str, canonical: str) -> None:
    assert str(Action.parse(text)) == canonical


@pytest.mark.parametrize(
    "text",
    ["", "  ", "dance", "play", "play QX", "play QH KH", "marry", "marry X", "claim now", "exchange JH"],
)
def test_a_text_that_is_no_action_is_refused_with_a_one_line_message(text: str) -> None:
    with pytest.raises(ActionParseError) as err:
        Action.parse(text)
    assert "\n" not in str(err.value)


def test_the_fixed_actions_are_named_constants() -> None:
    assert (str(EXCHANGE), str(CLOSE), str(CLAIM), str(PASS)) == ("exchange", "close", "claim", "pass")


def test_actions_compare_and_hash_by_code_and_sort_as_plain_strings() -> None:
    assert Action.parse("play AS") == Action.play(Card.parse("AS"))
    assert len({Action.parse("claim"), CLAIM}) == 1
    assert sorted(ACTIONS) == sorted(ACTIONS, key=str)
    assert Action.parse("play AS") != "play AS"
