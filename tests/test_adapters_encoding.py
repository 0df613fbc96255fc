"""bummerl.adapters.encoding: the observation holds a view's public facts and nothing else."""

from __future__ import annotations

from collections.abc import Iterator
from random import Random

import pytest

np = pytest.importorskip("numpy", reason="the adapters need numpy: pip install 'bummerl[rl]'")

from bummerl import Action, Deal, Rules, View  # noqa: E402
from bummerl.adapters.encoding import (  # noqa: E402
    FIELDS,
    NUM_ACTIONS,
    OBSERVATION_HIGH,
    OBSERVATION_SIZE,
    EncodingError,
    History,
    action_index,
    action_mask,
    action_of,
    decode,
    encode,
)
from bummerl.cards import CARDS, cards_in  # noqa: E402
from bummerl.game import Bummerl  # noqa: E402
from bummerl.rules import PRESETS  # noqa: E402
from helpers.bot_checks import hidden_twin  # noqa: E402


def played_views(rules: Rules, games: int, seed: int) -> Iterator[View]:
    """Both seats' views at every step of random Bummerls (claims allowed, so every ending occurs)."""
    rng = Random(seed)
    for _ in range(games):
        game = Bummerl(rules, rng.randrange(1 << 30))
        while not game.is_over:
            deal = game.deal
            for seat in (0, 1):
                yield View.of(deal, seat, game.score)
            if deal.is_over:
                game.next_deal()
            else:
                game.apply(rng.choice(deal.legal_actions()))
        for seat in (0, 1):
            yield View.of(game.deal, seat, game.score)


def assert_round_trip(view: View) -> None:
    facts = decode(encode(view))
    assert facts.seat == view.seat and facts.dealer == view.dealer and facts.to_move == view.to_move
    assert facts.rules == view.rules
    assert facts.hand_mask == view.hand_mask
    assert facts.trump_suit == view.trump_suit
    assert facts.last_trump_card == view.last_trump_card
    assert facts.bottom_card == view.bottom_card and facts.trump_card == view.trump_card
    assert facts.talon_size == view.talon_size
    assert facts.closed_by == view.closed_by
    if view.closed_by >= 0:
        assert facts.close_snapshot == view.close_snapshot
    assert facts.lead_card == view.lead_card
    assert facts.married == view.married
    assert facts.marriages == tuple(sorted(view.marriages))
    assert facts.exchanged == view.exchanged
    assert facts.points == (view.points if view.rules.open_tricks else None)
    assert facts.pending == view.pending
    assert facts.tricks_won == view.tricks_won
    assert facts.opponent_hand_size == view.opponent_hand_size
    assert facts.played_tricks_mask == view.played_tricks_mask
    assert facts.tricks == view.tricks
    expected_score = None if view.score is None else (max(view.score[0], 0), max(view.score[1], 0))
    assert facts.score == expected_score


@pytest.mark.parametrize("preset", list(PRESETS))
def test_decoding_an_observation_gives_back_the_views_public_facts(preset: str) -> None:
    seen = 0
    for view in played_views(PRESETS[preset], games=3, seed=11):
        obs = encode(view)
        assert obs.shape == (OBSERVATION_SIZE,) and obs.dtype == np.float32
        assert (obs >= 0).all() and (obs <= OBSERVATION_HIGH).all()
        assert_round_trip(view)
        seen += 1
    assert seen > 100


def test_a_single_deal_has_no_score_and_the_bummerls_reached_zero_is_kept_at_zero() -> None:
    deal = Deal.random(Rules.preset("standard"), 3)
    assert decode(encode(View.of(deal, 0))).score is None
    assert decode(encode(View.of(deal, 1, score=(-2, 4)))).score == (0, 4)


def test_fields_tile_the_vector_without_gaps() -> None:
    position = 0
    for field in FIELDS:
        assert field.start == position and field.size > 0 and field.high >= 1
        position = field.stop
    assert position == OBSERVATION_SIZE == OBSERVATION_HIGH.shape[0]


def test_running_points_are_hidden_where_the_rules_hide_them() -> None:
    deck = "QH TC AS JD KD QS AH KS TD JH KH AD JC QC TH KC AC JS TS QD"
    at = {f.name: f.start for f in FIELDS}
    for preset, shown in (("standard", True), ("sharp", False)):
        deal = Deal.from_deck(Rules.preset(preset), deck)
        deal.apply("play AS")
        deal.apply("play QS")
        obs = encode(View.of(deal, 0))
        assert obs[at["points"]] == (14 if shown else 0)
        assert obs[at["tricks"]:at["tricks"] + 48].sum() == 2  # the trick itself is remembered either way


def test_the_observation_is_relative_me_first() -> None:
    deck = "QH TC AS JD KD QS AH KS TD JH KH AD JC QC TH KC AC JS TS QD"
    deal = Deal.from_deck(Rules.preset("standard"), deck)
    deal.apply("play AS")
    deal.apply("play QS")  # seat 0 wins 14
    at = {f.name: f.start for f in FIELDS}
    for seat in (0, 1):
        obs = encode(View.of(deal, seat))
        mine, theirs = obs[at["points"]], obs[at["points"] + 1]
        assert (mine, theirs) == ((14, 0) if seat == 0 else (0, 14))
        assert obs[at["hand"]:at["hand"] + 24].sum() == 5


def test_views_that_differ_only_in_hidden_cards_encode_alike() -> None:
    rng = Random(5)
    compared = 0
    for preset in PRESETS:
        for view_seed in range(20):
            deal = Deal.random(PRESETS[preset], view_seed)
            for _ in range(rng.randrange(0, 12)):
                if deal.is_over:
                    break
                deal.apply(rng.choice([a for a in deal.legal_actions() if a.kind != "claim"]
                                      or list(deal.legal_actions())))
            if deal.is_over:
                continue
            seat = rng.randrange(2)
            twin = hidden_twin(deal, seat, rng)
            if twin is None or twin.hands[1 - seat] == deal.hands[1 - seat]:
                continue
            assert (encode(View.of(deal, seat)) == encode(View.of(twin, seat))).all()
            compared += 1
    assert compared > 20


def test_the_action_space_has_an_index_for_every_action_string() -> None:
    assert NUM_ACTIONS == 32
    texts = [f"play {c}" for c in CARDS] + ["exchange", "close", "claim", "pass"] + [
        f"marry {s}" for s in "CDHS"
    ]
    assert sorted(action_index(t) for t in texts) == list(range(32))
    for i in range(NUM_ACTIONS):
        assert action_index(action_of(i)) == i and action_of(i) is Action.parse(str(action_of(i)))
    with pytest.raises(EncodingError, match=r"outside 0\.\.31"):
        action_of(32)


def test_the_action_mask_marks_exactly_the_legal_actions_of_the_seat_to_move() -> None:
    for view in played_views(Rules.preset("soft"), games=1, seed=4):
        mask = action_mask(view)
        assert mask.dtype == np.int8 and mask.shape == (32,)
        assert {int(i) for i in mask.nonzero()[0]} == {a.code for a in view.legal_actions}
        if view.to_move != view.seat or view.is_over:
            assert not mask.any()


def test_decode_rejects_what_is_not_an_observation() -> None:
    with pytest.raises(EncodingError, match="shape"):
        decode(np.zeros(5))
    with pytest.raises(EncodingError, match="no seat"):
        decode(np.zeros(OBSERVATION_SIZE))
    start = {f.name: f.start for f in FIELDS}
    deal = Deal.random(Rules.preset("standard"), 3)
    for _ in range(2):  # one trick played
        deal.apply(next(a for a in deal.legal_actions() if a.kind == "play"))
    good = encode(View.of(deal, 0))
    assert len(decode(good).tricks) == 1

    def broken(name: str, offset: int, value: float) -> np.ndarray:
        vec = good.copy()
        vec[start[name] + offset] = value
        return vec

    seat_only = np.zeros(OBSERVATION_SIZE)  # e.g. OpenSpiel's tensor at a chance node: no deal yet
    seat_only[start["seat"]] = 1
    with pytest.raises(EncodingError, match="trump suit marks 0 values"):
        decode(seat_only)
    with pytest.raises(EncodingError, match="NaN"):
        decode(broken("points", 0, float("nan")))
    trick = next(i for i in range(24) if good[start["tricks"] + i])  # my card in the first trick
    with pytest.raises(EncodingError, match="trick 1 does not hold one card of each player"):
        decode(broken("tricks", trick, 0))
    with pytest.raises(EncodingError, match="seat marks 2 values"):
        decode(broken("seat", 1 if good[start["seat"]] else 0, 1))  # both seats marked


def test_encode_into_a_buffer_overwrites_it() -> None:
    deal = Deal.random(Rules.preset("sixty-six"), 2)
    buffer = np.full(OBSERVATION_SIZE, 9.0, dtype=np.float32)
    assert encode(View.of(deal, 1), out=buffer) is buffer
    assert (buffer == encode(View.of(deal, 1))).all()


def test_history_records_each_draw_in_the_slot_of_the_trick_before_it() -> None:
    rng = Random(8)
    for preset in ("standard", "sixty-six", "vu"):
        deal = Deal.random(PRESETS[preset], rng)
        histories = (History(), History())
        for seat in (0, 1):
            histories[seat].see(View.of(deal, seat))
        draws: list[list[int]] = [[], []]
        while not deal.is_over:
            hands = list(deal.hands)
            tricks = len(deal.trick_log)
            action = rng.choice(deal.legal_actions())
            deal.apply(action)
            for seat in (0, 1):
                histories[seat].see(View.of(deal, seat))
                if len(deal.trick_log) > tricks:
                    draws[seat] += [tricks * 30 + c for c in cards_in(deal.hands[seat] & ~hands[seat])]
        for seat in (0, 1):
            vec = histories[seat].vector
            drawn = [int(i) for i in vec.nonzero()[0] if i % 30 < 24]
            assert drawn == sorted(draws[seat])


def test_history_marks_the_lead_in_which_the_talon_was_closed() -> None:
    deck = "QH TC AS JD KD QS AH KS TD JH KH AD JC QC TH KC AC JS TS QD"
    deal = Deal.from_deck(Rules.preset("soft"), deck, dealer=1)
    history = History()
    history.see(View.of(deal, 1))
    for action in ("play AS", "play QS", "play TC", "play JH"):  # seat 0 wins trick 0, seat 1 trick 1
        deal.apply(action)
        history.see(View.of(deal, 1))
    copy = history.copy()
    deal.apply("close")
    history.see(View.of(deal, 1))
    slot = 2 * 30
    assert history.vector[slot + 25] == 1 and copy.vector[slot + 25] == 0
