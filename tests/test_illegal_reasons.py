"""Reasons are values (issue 12 §4): ``Outcome.reason`` is a ``Reason`` StrEnum with one table of words,
and ``Deal.illegal_reason`` says why an action is illegal as an ``Illegal`` value that front ends word.

:func:`old_why_illegal` is the engine's message code as it was before the values (a frozen copy, the
oracle): the messages stay byte-identical to it except where it gave no reason or the wrong one.
"""

from __future__ import annotations

import json
from collections import Counter
from random import Random

import pytest

from bummerl.actions import ACTIONS, Action
from bummerl.cards import CARDS, SUIT_MASKS, Card
from bummerl.engine import Deal, Illegal, IllegalActionError, Outcome
from bummerl.records import DealRecord
from bummerl.rules import PRESETS, Rules
from bummerl.scoring import (
    LAST_TRICK_POINTS,
    MARRIAGE_POINTS,
    TRUMP_MARRIAGE_POINTS,
    Reason,
    game_point_table,
    marriage_points,
)
from bummerl.table import FirstLegal, Seat, Table, reason_text


def old_why_illegal(deal: Deal, action: Action) -> str:
    """The engine's message for an illegal action as it was written before ``illegal_reason`` (frozen)."""
    who = f"player {deal.to_move}"
    if deal.outcome is not None:
        return f"{action} is not legal: the deal is over"
    legal = ", ".join(sorted(str(a) for a in deal.legal_actions()))
    reason = ""
    if action.kind == "play" and action.card is not None:
        if not deal.hands[deal.to_move] >> action.code & 1:
            reason = f"{who} does not hold {action.card}"
        elif deal.married >= 0:
            reason = "after a marriage its king or queen must be led"
        elif deal.lead >= 0:
            reason = (
                f"the talon is closed or exhausted: {who} must follow the lead {CARDS[deal.lead]} "
                "as 3.2 says"
            )
    elif action.kind == "claim":
        reason = (
            "claims are automatic under these rules"
            if deal.rules.auto_claim
            else "only the winner of the previous trick may claim, as the first action of the turn "
            "or after a marriage"
        )
    elif action.kind == "pass":
        reason = "pass is only legal after the last trick"
    elif deal.lead >= 0:
        reason = f"{who} must follow the lead {CARDS[deal.lead]}"
    return f"{action} is not legal{': ' + reason if reason else ''} (legal: {legal})"


def random_positions(preset: str, games: int, seed: int = 11) -> list[Deal]:
    """Every position of ``games`` random deals (copies), the finished one at the end of each included."""
    rng = Random(seed)
    out = []
    for i in range(games):
        deal = Deal.random(PRESETS[preset], rng.randrange(10**9), dealer=i % 2)
        while True:
            out.append(deal.copy())
            if deal.is_over:
                break
            deal.apply(rng.choice(deal.legal_actions()))
    return out


#: The reasons the engine's message gives in other words than before the values: those the old message
#: left without a reason (an exchange, close or marriage while leading), and two it worded wrongly (a
#: marriage's queen under ``marriage_leads_king``; closing under rules without it, while following).
REWORDED = {
    Illegal.MARRIAGE_DECLARED, Illegal.TALON_CLOSED, Illegal.TALON_EXHAUSTED, Illegal.TALON_TOO_SMALL,
    Illegal.NO_TRUMP_LOW, Illegal.NO_TRICK_YET, Illegal.NO_MARRIAGE, Illegal.CLOSING_NOT_ALLOWED,
}


@pytest.mark.parametrize("preset", list(PRESETS))
def test_every_engine_message_gives_a_reason_and_the_value_is_none_exactly_when_legal(preset: str) -> None:
    for deal in random_positions(preset, 25):
        for action in ACTIONS:
            why = deal.illegal_reason(action)
            assert (why is None) == deal.is_legal(action), (deal, action, why)
            if why is None:
                continue
            with pytest.raises(IllegalActionError) as info:
                deal.copy().apply(action)
            message = str(info.value)
            leads_king = why is Illegal.MUST_LEAD_MARRIAGE and deal.rules.marriage_leads_king
            auto_pass = action.kind == "pass" and why is Illegal.AUTO_CLAIM  # was "only after the last trick"
            reworded = why in REWORDED or leads_king or auto_pass
            if reworded or (why is Illegal.ALL_PLAYED and action.kind != "play"):
                head = f"{action} is not legal: "
                tail = f" (legal: {', '.join(sorted(str(a) for a in deal.legal_actions()))})"
                assert message.startswith(head) and message.endswith(tail)
                reason = message[len(head):-len(tail)]
                assert reason and "must follow" not in reason, message
            else:
                assert message == old_why_illegal(deal, action)


@pytest.mark.parametrize(("rules", "actions", "message"), [
    ("standard", ["close", "close"], "close is not legal: the talon is closed"),
    ("standard", ["exchange"], "exchange is not legal: player 0 does not hold the trump jack"),
    ("standard", ["marry H"], "marry H is not legal: player 0 does not hold KH and QH"),
    ("standard", ["marry C"], "marry C is not legal: player 0 has won no trick yet, which these rules"),
    ("vu", ["close"], "close is not legal: these rules do not allow closing"),
    ("vu", ["pass"], "pass is not legal: claims are automatic under these rules"),
    ("standard", ["pass"], "pass is not legal: pass is only legal after the last trick"),
    ("vu", ["play AC", "close"], "close is not legal: these rules do not allow closing"),
    ("soft", ["marry C", "close"], "close is not legal: a marriage was declared in this lead"),
    ("soft", ["marry C", "play AC"], "play AC is not legal: after a marriage its king or queen must be led"),
    ("soft+king", ["marry C", "play QC"], "play QC is not legal: after a marriage its king must be led"),
])
def test_the_engine_names_the_reason_of_every_refusal(rules: str, actions: list[str], message: str) -> None:
    # Player 0 leads (dealer 1) and holds AC AD KC QC QD; trump spades (TS face up).
    preset, _, king = rules.partition("+")
    deal = Deal.from_deck(Rules.preset(preset).replace(marriage_leads_king=bool(king)) if king else
                          Rules.preset(preset),
                          "AC AD QD JD AH KS TS QC KC JS JH TC KH KD TH JC QS QH TD AS", dealer=1)
    for text in actions[:-1]:
        deal.apply(Action.parse(text))
    with pytest.raises(IllegalActionError, match="^" + message):
        deal.apply(Action.parse(actions[-1]))


def test_every_reason_occurs_in_random_play_and_each_fits_the_position() -> None:
    seen: Counter[Illegal] = Counter()
    for preset in PRESETS:
        for deal in random_positions(preset, 40, seed=5):
            p = deal.to_move
            for action in ACTIONS:
                why = deal.illegal_reason(action)
                if why is None:
                    continue
                seen[why] += 1
                hand = deal.hands[p]
                if why in (Illegal.MUST_FOLLOW_SUIT, Illegal.MUST_HEAD, Illegal.MUST_TRUMP):
                    assert deal.lead >= 0 and (deal.closed_by >= 0 or deal.talon_size == 0)
                    lead_suit = SUIT_MASKS[deal.lead // 6]
                    card = action.code
                    if why is Illegal.MUST_HEAD:  # a lower card of the suit while a higher one is held
                        assert 1 << card & lead_suit and card < deal.lead
                        assert any(c > deal.lead for c in range(24) if (hand & lead_suit) >> c & 1)
                    elif why is Illegal.MUST_FOLLOW_SUIT:
                        assert hand & lead_suit and not 1 << card & lead_suit
                    else:
                        assert not hand & lead_suit and hand & SUIT_MASKS[deal.trump]
                elif why is Illegal.NOT_IN_HAND:
                    assert action.kind == "play" and not hand >> action.code & 1
                elif why is Illegal.NOT_LEADING:
                    assert deal.lead >= 0 and action.kind in ("exchange", "close", "marry")
                elif why is Illegal.TALON_CLOSED:
                    assert deal.closed_by >= 0
                elif why is Illegal.TALON_EXHAUSTED:
                    assert deal.talon_size == 0 and deal.closed_by < 0
                elif why is Illegal.NO_TRICK_YET:
                    assert deal.tricks_won[p] == 0
                elif why is Illegal.ALL_PLAYED:
                    assert deal.ending and not (deal.hands[0] | deal.hands[1])
                elif why is Illegal.DEAL_OVER:
                    assert deal.outcome is not None
    assert set(seen) == set(Illegal) - {Illegal.NOT_YOUR_TURN}, set(Illegal) - set(seen)


def test_the_follow_rules_are_told_apart() -> None:
    # standard, dealer 0: player 1 holds JC AS TS QH KH, player 0 QC TC AC KC JD, trump card AH.
    deck = "JC AS TS QC TC AC AH QH KH KC JD JH TH JS QS KS QD KD TD AD"
    deal = Deal.from_deck(Rules.preset("standard"), deck, dealer=0)
    deal.apply("close")
    deal.apply("play JC")
    assert deal.illegal_reason(Action.parse("play QC")) is None
    assert deal.illegal_reason(Action.parse("play JD")) is Illegal.MUST_FOLLOW_SUIT
    assert deal.illegal_reason(Action.parse("play KS")) is Illegal.NOT_IN_HAND
    assert deal.illegal_reason(Action.parse("play QC"), player=1) is Illegal.NOT_YOUR_TURN
    assert deal.illegal_reason(Action.parse("close")) is Illegal.NOT_LEADING
    deal.apply("play AC")  # player 0 wins with the ace and leads
    assert deal.illegal_reason(Action.parse("close")) is Illegal.TALON_CLOSED
    assert deal.illegal_reason(Action.parse("exchange")) is Illegal.TALON_CLOSED
    deal.apply("play TC")  # player 1 has no club left, so must trump with a heart
    assert deal.illegal_reason(Action.parse("play AS")) is Illegal.MUST_TRUMP
    assert deal.illegal_reason(Action.parse("play QH")) is None


def test_the_reasons_keep_their_strings_and_have_one_table_of_words() -> None:
    assert [r.value for r in Reason] == [
        "claim", "false_claim", "closer_failed", "last_trick", "more_points", "draw", "forfeit",
    ]
    outcome = Outcome(1, 3, "false_claim")  # type: ignore[arg-type]  # a string is taken
    assert outcome.reason is Reason.FALSE_CLAIM and outcome == Outcome(1, 3, Reason.FALSE_CLAIM)
    assert repr(outcome) == "Outcome(winner=1, game_points=3, reason='false_claim')"
    assert json.dumps(outcome.to_json()) == '{"winner": 1, "game_points": 3, "reason": "false_claim"}'
    assert reason_text(outcome) == "a wrong claim of 66" == Reason.FALSE_CLAIM.sentence
    assert {r.short for r in Reason} and all(r.sentence and r.short for r in Reason)
    with pytest.raises(ValueError):
        Outcome(0, 1, "nonsense")  # type: ignore[arg-type]


def test_a_replayed_record_is_byte_identical() -> None:
    deck = "QH TC AS JD KD QS AH KS TD JH KH AD JC QC TH KC AC JS TS QD".split()  # noqa: SIM905
    actions = ["play AS", "play QS", "claim"]
    text = json.dumps({"rules": "standard", "dealer": 1, "deck": deck, "actions": actions})
    record = DealRecord.loads(text)
    deal = record.replay()
    assert deal.outcome is not None and type(deal.outcome.reason) is Reason
    assert DealRecord.from_deal(deal).dumps() == text
    assert json.dumps(record.trace().to_json()["result"]) == (
        '{"winner": 1, "game_points": 3, "reason": "false_claim"}'
    )


def test_the_scoring_numbers_are_the_rules() -> None:
    assert (MARRIAGE_POINTS, TRUMP_MARRIAGE_POINTS, LAST_TRICK_POINTS) == (20, 40, 10)
    assert [marriage_points(s, 3) for s in range(4)] == [20, 20, 20, 40]
    table = [game_point_table(t, p) for t, p in ((0, 0), (0, 50), (1, 32), (1, 33), (3, 65))]
    assert table == [3, 3, 2, 1, 1]


def test_the_table_words_every_reason_it_can_meet() -> None:
    seen = set()
    for preset in PRESETS:
        table = Table(PRESETS[preset], (Seat("You"), Seat("Computer", FirstLegal())), seed=3, first_dealer=1)
        rng = Random(preset)
        while not table.deal.is_over:
            seat = table.deal.to_move
            for action in ACTIONS:
                why = table.deal.illegal_reason(action)
                if why is not None:
                    text = table.explain_illegal(seat, action)
                    assert text and "is not allowed now" not in text and "is allowed now" not in text
                    seen.add(why)
            assert table.explain_illegal(1 - seat, ACTIONS[0]).startswith("it is ")
            table.game.apply(rng.choice(table.deal.legal_actions()))
    assert len(seen) >= 12


def test_the_table_words_a_marriage_of_a_suit_without_its_pair_as_such() -> None:
    """The one wording that changed: marrying a suit whose king and queen you lack says so, even when your
    other pair cannot be declared yet (it said "win a trick first", true only of the other suit)."""
    deck = "KH QH TC JD KD QS AH AS TS JH KS AD JC QC TH KC AC JS TD QD"  # you: KH QH TC AS TS
    table = Table(Rules.preset("standard"), (Seat("You"), Seat("Computer", FirstLegal())), seed=1,
                  first_dealer=1, decks=[[Card.parse(c) for c in deck.split()]])
    assert table.explain_illegal(0, Action.parse("marry H")) == (
        "you must win a trick before you may declare a marriage"
    )
    no_pair = "you hold no king and queen of the same suit to declare"
    assert table.explain_illegal(0, Action.parse("marry S")) == no_pair


@pytest.mark.parametrize(("leads_king", "words"), [(False, "K♣ or Q♣"), (True, "K♣")])
def test_the_table_names_the_cards_a_marriage_lets_you_lead(leads_king: bool, words: str) -> None:
    deck = "AC AD QD JD AH KS TS QC KC JS JH TC KH KD TH JC QS QH TD AS"  # you: AC AD KC QC QD, spades trump
    rules = Rules.preset("soft").replace(marriage_leads_king=leads_king)
    table = Table(rules, (Seat("You"), Seat("Computer", FirstLegal())), seed=1, first_dealer=1,
                  decks=[[Card.parse(c) for c in deck.split()]])
    table.game.apply(Action.parse("marry C"))
    said = table.explain_illegal(0, Action.parse("play AC"))
    assert said == f"after declaring a marriage you must lead {words}"
