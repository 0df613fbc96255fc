"""Deal and game records: rules.md section 9's JSON, replay through the engine, precise errors."""

from __future__ import annotations

import json
from random import Random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bummerl import Deal, Rules, Setup
from bummerl.cards import Card
from bummerl.game import Bummerl
from bummerl.records import (
    DealRecord,
    GameRecord,
    RecordError,
    load_record,
    read_records,
)
from bummerl.rules import PRESETS
from helpers.dealkit import finished_game

# Hand-checked (see tests/test_replay_cli.py for the derivation of every legal list).
SOFT_DECK = "JH KS QS AC TC KC AH AS TS QC JC KH QH TH JS JD QD KD TD AD".split()  # noqa: SIM905
SOFT_ACTIONS = ["exchange", "marry S", "play KS", "play AC", "close", "play AS", "play QH"]
SOFT_RECORD = {"rules": "soft", "dealer": 1, "deck": SOFT_DECK, "actions": SOFT_ACTIONS}


def record_text(**changes: Any) -> str:
    body = dict(SOFT_RECORD)
    body.update(changes)
    return json.dumps(body)


def play_randomly(deal: Deal, rng: Random, stop_after: int | None = None) -> None:
    while not deal.is_over and (stop_after is None or len(deal.history) < stop_after):
        deal.apply(rng.choice(deal.legal_actions()))


# ------------------------------------------------------------------------------------------ deal records


def test_a_record_reads_and_writes_the_contract_format_exactly() -> None:
    record = DealRecord.loads(json.dumps(SOFT_RECORD))
    assert record.rules == Rules.preset("soft")
    assert record.dealer == 1
    assert record.deck == tuple(Card.parse(c) for c in SOFT_DECK)
    assert record.to_json() == SOFT_RECORD
    assert record.dumps() == json.dumps(SOFT_RECORD)
    assert list(record.to_json()) == ["rules", "dealer", "deck", "actions"]


def test_rules_with_overrides_round_trip_as_a_preset_object() -> None:
    rules = {"preset": "standard", "false_claim": "mirror", "closing_scoring": "tournament"}
    record = DealRecord.loads(record_text(rules=rules))
    assert record.rules.false_claim == "mirror" and record.rules.closing_scoring == "tournament"
    assert record.to_json()["rules"] == rules
    assert DealRecord.loads(record.dumps()) == record


def test_card_codes_and_actions_are_read_in_any_case_and_written_canonically() -> None:
    record = DealRecord.loads(
        record_text(deck=[c.lower() for c in SOFT_DECK], actions=["EXCHANGE", "marry s", "play ks"])
    )
    assert record.to_json()["deck"] == SOFT_DECK
    assert record.actions == ("exchange", "marry S", "play KS")


def test_replay_gives_the_hand_checked_position() -> None:
    deal = DealRecord.loads(json.dumps(SOFT_RECORD)).replay()
    assert deal.outcome is None  # an unfinished record is a position
    assert deal.points == (35, 14) and deal.tricks == (1, 1)
    assert deal.to_move == 1 and deal.closed_by == 0
    assert [str(a) for a in deal.history] == SOFT_ACTIONS


def test_trace_lists_who_moved_and_the_sorted_legal_actions_before_each_step() -> None:
    trace = DealRecord.loads(json.dumps(SOFT_RECORD)).trace()
    assert [s.number for s in trace.steps] == list(range(1, 8))
    assert [s.to_move for s in trace.steps] == [0, 0, 0, 1, 0, 0, 1]
    assert trace.steps[2].legal == ("claim", "play KS", "play QS")
    assert trace.steps[6].legal == ("play QH",)  # the closed talon forces the trump
    assert all(list(s.legal) == sorted(s.legal) for s in trace.steps)
    assert trace.to_json()["result"] is None


def test_from_deal_records_the_deck_and_the_actions_so_far() -> None:
    deal = Deal.random(Rules.preset("sixty-six"), 11, dealer=0)
    play_randomly(deal, Random(11), stop_after=9)
    record = DealRecord.from_deal(deal)
    assert record.dealer == 0 and record.deck == deal.deck and len(record.actions) == 9
    again = record.replay()
    assert again.hands == deal.hands and again.points == deal.points and again.to_move == deal.to_move


def test_a_set_up_position_has_no_deck_and_cannot_be_recorded() -> None:
    deal = Deal.from_setup(Setup.parse("standard SAT/SKQ - S 0 60/32 4/4"))
    with pytest.raises(RecordError, match="set up without a deck"):
        DealRecord.from_deal(deal)


@settings(max_examples=60, deadline=None)
@given(preset=st.sampled_from(sorted(PRESETS)), seed=st.integers(0, 10**6), cut=st.integers(0, 40))
def test_any_recorded_deal_round_trips_through_json_and_replays_to_the_same_state(
    preset: str, seed: int, cut: int
) -> None:
    deal = Deal.random(Rules.preset(preset), seed, dealer=seed % 2)
    play_randomly(deal, Random(seed), stop_after=cut)
    record = DealRecord.loads(DealRecord.from_deal(deal).dumps())
    again = record.replay()
    assert (again.outcome, again.points, again.tricks, again.hands, again.history) == (
        deal.outcome, deal.points, deal.tricks, deal.hands, deal.history,
    )


BAD_RECORDS = [
    ("not json", '{"rules": "soft",', "bad JSON at line 1 column 18: Expecting property name"),
    ("not an object", "[1, 2]", "a deal record must be a JSON object, not a list"),
    ("missing field", json.dumps({"rules": "soft", "dealer": 1, "deck": SOFT_DECK}), "missing field 'actio"),
    ("unknown field", record_text(result=None), "unknown field 'result' in a deal record"),
    ("bad card code", record_text(deck=["XH", *SOFT_DECK[1:]]), "deck[0]: not a card: 'XH'"),
    ("card code not a string", record_text(deck=[5, *SOFT_DECK[1:]]), "deck[0]: a card code must be a"),
    ("duplicate card", record_text(deck=[*SOFT_DECK[:-1], "JH"]), "deck[19]: JH appears twice"),
    ("short deck", record_text(deck=SOFT_DECK[:-1]), "deck: missing AD (a schnapsen deck is the full pack"),
    ("nine in Schnapsen", record_text(deck=["9H", *SOFT_DECK[1:]]), "deck[0]: 9H is not in the schnapsen"),
    ("Schnapsen deck for Sixty-Six", record_text(rules="sixty-six"), "deck: missing 9C 9D 9H 9S"),
    ("unknown preset", record_text(rules="hard"), "rules: unknown rules preset 'hard'"),
    ("unknown flag", record_text(rules={"preset": "soft", "speed": "x"}), "rules: unknown rule flag 'speed'"),
    ("bad flag value", record_text(rules={"preset": "soft", "false_claim": "x"}), "rule flag false_cl"),
    ("rules null", record_text(rules=None), "rules: must be a preset name or an object"),
    ("dealer 2", record_text(dealer=2), "dealer must be 0 or 1, not 2"),
    ("dealer true", record_text(dealer=True), "dealer must be 0 or 1, not true"),
    ("actions not a list", record_text(actions="play KS"), "actions must be a list of action strings"),
    ("unknown action", record_text(actions=["exchange", "dance"]), "step 2: not an action: 'dance'"),
    ("action not a string", record_text(actions=[7]), "step 1: an action must be a string, not a number"),
]


@pytest.mark.parametrize(("text", "message"), [b[1:] for b in BAD_RECORDS], ids=[b[0] for b in BAD_RECORDS])
def test_a_bad_record_is_refused_with_a_precise_one_line_message(text: str, message: str) -> None:
    with pytest.raises(RecordError) as info:
        DealRecord.loads(text)
    assert message in str(info.value)
    assert "\n" not in str(info.value)


def test_an_illegal_action_names_its_step_and_the_engine_reason() -> None:
    record = DealRecord.loads(record_text(actions=["exchange", "marry S", "play AS"]))
    with pytest.raises(RecordError) as info:
        record.replay()
    assert str(info.value).startswith("step 3: play AS is not legal: after a marriage its king or queen")


def test_an_action_after_the_end_of_the_deal_is_illegal() -> None:
    deck = "QH TC AS JD KD QS AH KS TD JH KH AD JC QC TH KC AC JS TS QD".split()  # noqa: SIM905
    actions = ["play AS", "play QS", "claim", "play AD"]
    body = {"rules": "standard", "dealer": 1, "deck": deck, "actions": actions}
    record = DealRecord.loads(json.dumps(body))
    with pytest.raises(RecordError, match=r"^step 4: play AD is not legal: the deal is over$"):
        record.replay()


def test_deeply_nested_json_is_a_record_error_not_a_crash() -> None:
    with pytest.raises(RecordError, match="nested too deeply"):
        DealRecord.loads("[" * 100_000)


# ------------------------------------------------------------------------------------------ game records


@pytest.mark.parametrize(("preset", "seed"), [("standard", 1), ("vu", 2), ("sixty-six", 3), ("sharp", 4)])
def test_a_game_record_round_trips_and_replay_recomputes_scores_and_winner(preset: str, seed: int) -> None:
    game = finished_game(preset, seed)
    record = GameRecord.from_game(game)
    assert record.scores == tuple(s.score_after for s in game.finished)
    loaded = GameRecord.loads(record.dumps())
    assert loaded == record and loaded.dumps() == record.dumps()
    replayed = loaded.trace()
    assert replayed.game.score == game.score and replayed.game.winner == game.winner
    assert [d.deal.outcome for d in replayed.deals] == [s.outcome for s in game.finished]
    assert replayed.to_json()["scores"] == [list(s.score_after) for s in game.finished]
    assert replayed.to_json()["winner"] == game.winner


def test_a_game_record_has_the_documented_shape() -> None:
    game = finished_game("tompa", 5)
    body = json.loads(GameRecord.from_game(game).dumps())
    assert list(body) == ["rules", "first_dealer", "target", "deals", "scores"]
    assert body["rules"] == "tompa" and body["first_dealer"] == 1 and body["target"] == 7
    assert all(list(d) == ["dealer", "deck", "actions"] for d in body["deals"])
    assert [d["dealer"] for d in body["deals"]] == [(1 + i) % 2 for i in range(len(body["deals"]))]
    assert len(body["scores"]) == len(body["deals"])


def test_an_unfinished_game_keeps_its_current_deal_and_can_be_played_on() -> None:
    game = Bummerl(Rules.preset("standard"), seed=8, first_dealer=0)
    rng = Random(8)
    while len(game.finished) < 2:
        if game.deal.is_over:
            game.next_deal()
        else:
            game.apply(rng.choice(game.deal.legal_actions()))
    game.next_deal()
    game.apply(game.deal.legal_actions()[0])
    record = GameRecord.loads(GameRecord.from_game(game).dumps())
    assert len(record.deals) == 3 and len(record.scores or ()) == 2
    assert record.deals[-1].actions == (str(game.deal.history[0]),)
    resumed = record.replay(rng=1)
    assert resumed.score == game.score and resumed.deal.hands == game.deal.hands
    while not resumed.deal.is_over:  # the resumed game goes on under the Bummerl's own rules
        resumed.apply(resumed.deal.legal_actions()[0])
    if not resumed.is_over:
        assert resumed.next_deal().dealer == 1 - game.deal.dealer


def test_a_game_record_may_omit_scores_and_target() -> None:
    body = json.loads(GameRecord.from_game(finished_game("soft", 6)).dumps())
    del body["scores"], body["target"]
    record = GameRecord.from_json(body)
    assert record.scores is None and record.target == 7
    assert record.replay().is_over


def _game_body() -> dict[str, Any]:
    return json.loads(GameRecord.from_game(finished_game("standard", 7)).dumps())  # type: ignore[no-any-return]


def test_game_record_errors_name_the_deal() -> None:
    body = _game_body()
    body["deals"][1]["deck"][3] = "ZZ"
    with pytest.raises(RecordError, match=r"^deal 2: deck\[3\]: not a card: 'ZZ'"):
        GameRecord.from_json(body)
    body = _game_body()
    body["deals"][1]["actions"].append("pass")
    with pytest.raises(RecordError, match=r"^deal 2: step \d+: pass is not legal: the deal is over$"):
        GameRecord.from_json(body).replay()


def test_a_game_record_must_follow_the_dealer_rotation() -> None:
    body = _game_body()
    body["deals"][1]["dealer"] = body["deals"][0]["dealer"]
    with pytest.raises(RecordError, match=r"^deal 2: the dealer must be \d, not \d \(player \d deals first"):
        GameRecord.from_json(body).replay()


def test_a_wrong_recorded_score_is_caught_on_replay() -> None:
    body = _game_body()
    body["scores"][0] = [0, 0]
    with pytest.raises(RecordError, match=r"^deal 1: the record gives the score \[0, 0\] after this deal"):
        GameRecord.from_json(body).replay()
    body = _game_body()
    body["scores"].append([1, 1])
    with pytest.raises(RecordError, match=r"gives \d+ scores but \d+ deals are finished"):
        GameRecord.from_json(body).replay()


def test_no_deal_may_follow_an_unfinished_deal_or_the_end_of_the_bummerl() -> None:
    body = _game_body()
    body["deals"][0]["actions"] = body["deals"][0]["actions"][:2]
    del body["scores"]
    with pytest.raises(RecordError, match=r"^deal 1: the deal is unfinished but another deal follows it$"):
        GameRecord.from_json(body).replay()
    body = _game_body()
    last = body["deals"][-1]
    body["deals"].append({**last, "dealer": 1 - last["dealer"], "actions": []})
    with pytest.raises(RecordError, match=r"^deal \d+: the Bummerl was already won after deal \d+$"):
        GameRecord.from_json(body).replay()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"deals": []}, "deals must be a non-empty list"),
        ({"target": 0}, "target must be a whole number"),
        ({"first_dealer": "0"}, 'first_dealer must be 0 or 1, not "0"'),
        ({"scores": [[1, 2, 3]]}, "scores must be a list of [a, b] pairs"),
        ({"players": ["a", "b"]}, "unknown field 'players' in a game record"),
    ],
)
def test_a_bad_game_record_is_refused(change: dict[str, Any], message: str) -> None:
    body = {**_game_body(), **change}
    with pytest.raises(RecordError) as info:
        GameRecord.from_json(body)
    assert message in str(info.value)


def test_a_deal_inside_a_game_record_takes_the_game_rules() -> None:
    body = _game_body()
    body["deals"][0]["rules"] = "soft"
    with pytest.raises(RecordError, match=r"^deal 1: unknown field 'rules' in a deal in a game record"):
        GameRecord.from_json(body)


# ------------------------------------------------------------------------------------------ reading files


def test_load_record_tells_a_game_record_by_its_deals() -> None:
    assert isinstance(load_record(_game_body()), GameRecord)
    assert isinstance(load_record(dict(SOFT_RECORD)), DealRecord)


def test_a_pretty_printed_record_is_one_record_without_a_line_number() -> None:
    items = list(read_records("\n\n" + json.dumps(SOFT_RECORD, indent=2) + "\n"))
    assert [(i.line, i.where) for i in items] == [(None, "")]


def test_json_lines_give_one_record_per_line_skipping_blank_lines() -> None:
    line = json.dumps(SOFT_RECORD)
    items = list(read_records(f"{line}\n\n{line}\n   \n{line}"))
    assert [i.line for i in items] == [1, 3, 5] and items[1].where == "line 3: "


def test_a_single_line_record_carries_no_line_number() -> None:
    assert [i.line for i in read_records(json.dumps(SOFT_RECORD) + "\n\n")] == [None]


def test_records_before_a_bad_line_are_read_first() -> None:
    line = json.dumps(SOFT_RECORD)
    reader = read_records([line + "\n", line + "\n", '{"rules": "soft", "dealer": 1\n'])
    assert next(reader).line == 1 and next(reader).line == 2
    with pytest.raises(RecordError, match=r"^line 3: bad JSON at column 30: Expecting ',' delimiter$"):
        next(reader)


def test_a_bad_record_in_json_lines_names_its_line() -> None:
    line = json.dumps(SOFT_RECORD)
    with pytest.raises(RecordError, match=r"^line 2: dealer must be 0 or 1, not 5$"):
        list(read_records(f"{line}\n{record_text(dealer=5)}\n"))


def test_concatenated_pretty_records_are_refused_with_a_hint() -> None:
    pretty = json.dumps(SOFT_RECORD, indent=1)
    with pytest.raises(RecordError, match=r"Extra data \(a file holds one record, or one record per line\)$"):
        list(read_records(pretty + "\n" + pretty))


def test_a_byte_order_mark_at_the_start_is_ignored() -> None:
    assert [i.line for i in read_records("\ufeff" + json.dumps(SOFT_RECORD))] == [None]
    assert len(list(read_records("\ufeff" + json.dumps(SOFT_RECORD, indent=2)))) == 1


def test_an_empty_input_holds_no_record() -> None:
    with pytest.raises(RecordError, match="no record"):
        list(read_records("\n  \n"))
