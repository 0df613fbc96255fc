"""Random deals under every preset: invariants that must hold in every position (hypothesis)."""

from __future__ import annotations

from random import Random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bummerl import Deal, IllegalActionError, Rules, View
from bummerl.actions import ACTIONS
from bummerl.cards import card_points, mask_of
from helpers.dealkit import PRESET_NAMES, full_mask, played_on, snapshot

VARIANTS: list[Rules] = [Rules.preset(n) for n in PRESET_NAMES] + [
    Rules.preset("standard").replace(false_claim="mirror", closing_scoring="tournament"),
    Rules.preset("sixty-six").replace(auto_claim=False),
    Rules.preset("soft").replace(marriage_scoring="next_trick", marriage_leads_king=True),
]
IDS = [r.describe() for r in VARIANTS]
SETTINGS = settings(max_examples=50, deadline=None, derandomize=True)


def play_out(deal: Deal, rng: Random, check: bool = True) -> list[Deal]:
    """Play random legal actions to the end; with ``check``, test the invariants at every step."""
    seen = []
    steps = 0
    while deal.outcome is None:
        if check:
            check_position(deal)
        seen.append(deal.copy())
        actions = deal.legal_actions()
        deal.apply(rng.choice(actions))
        steps += 1
        assert steps < 80, "a deal must end"
    if check:
        check_position(deal)
    return seen


def played_mask(deal: Deal) -> int:
    mask = 0
    for t in deal.trick_log:
        mask |= (1 << t.lead) | (1 << t.follow)
    return mask


def check_position(deal: Deal) -> None:
    pack = full_mask(deal.rules)
    # Cards are conserved: hands, face-down talon, trump card under the talon, tricks, the lead.
    parts = [deal.hands[0], deal.hands[1], mask_of(deal.talon), played_mask(deal)]
    if deal.talon_size:
        parts.append(1 << deal.trump_card)
    if deal.lead >= 0:
        parts.append(1 << deal.lead)
    total = 0
    for part in parts:
        assert not total & part, "a card is in two places"
        total |= part
    assert total == pack
    assert sum(m.bit_count() for m in parts) == pack.bit_count()
    assert deal.talon_size in (0, len(deal.talon) + 1)
    assert deal.talon_size % 2 == 0
    # Card points in tricks are exactly the points of the cards played to them.
    assert sum(deal.card_points) == card_points(played_mask(deal))
    assert sum(deal.tricks_won) == len(deal.trick_log)
    for p in (0, 1):
        won = [t for t in deal.trick_log if t.winner == p]
        assert deal.tricks_won[p] == len(won)
        assert deal.card_points[p] == sum(t.lead.points + t.follow.points for t in won)
    # Legal actions: no duplicates, is_legal agrees for all 32, nothing legal once over.
    legal = deal.legal_actions()
    assert len(set(legal)) == len(legal)
    for a in ACTIONS:
        assert deal.is_legal(a) == (a in legal), a
    if deal.outcome is None:
        assert legal
        sizes = [deal.hands[0].bit_count(), deal.hands[1].bit_count()]
        if deal.lead >= 0:
            sizes[deal.leader] += 1
        assert sizes[0] == sizes[1] <= deal.rules.hand_size
    else:
        assert legal == ()
    if deal.rules.auto_claim:
        assert all(a.kind not in ("claim", "pass") for a in legal)


def check_outcome(deal: Deal) -> None:
    out = deal.outcome
    assert out is not None
    if out.reason == "draw":
        assert deal.rules.sixty_six and out.winner is None and out.game_points == 0
        assert deal.points[0] == deal.points[1]
    else:
        assert out.winner in (0, 1) and 1 <= out.game_points <= 3
    assert out.reason in ("claim", "false_claim", "closer_failed", "last_trick", "more_points", "draw")
    if out.reason == "last_trick":
        assert not deal.rules.sixty_six and out.game_points == 1 and deal.closed_by < 0
    if out.reason in ("last_trick", "more_points", "draw", "closer_failed"):
        assert deal.hands == [0, 0]  # only after every card is played
    if out.reason == "closer_failed":
        assert out.winner == 1 - deal.closed_by
    if out.reason == "claim":
        assert deal.points[out.winner] >= 66  # type: ignore[index]
    if deal.hands == [0, 0] and deal.closed_by < 0:
        assert sum(deal.card_points) == 120  # Sixty-Six too: the last trick's 10 is a separate bonus
        assert sum(deal.bonus) == (10 if deal.rules.sixty_six else 0)


@pytest.mark.parametrize("rules", VARIANTS, ids=IDS)
@SETTINGS
@given(seed=st.integers(0, 2**32 - 1), dealer=st.integers(0, 1))
def test_random_deals_keep_every_invariant_and_end_with_an_outcome(
    rules: Rules, seed: int, dealer: int
) -> None:
    deal = Deal.random(rules, seed, dealer=dealer)
    play_out(deal, Random(seed))
    check_outcome(deal)
    with pytest.raises(IllegalActionError, match="the deal is over"):
        deal.apply(ACTIONS[0])


@pytest.mark.parametrize("rules", VARIANTS, ids=IDS)
@settings(max_examples=15, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**32 - 1))
def test_every_legal_action_applies_and_every_illegal_one_is_refused_without_a_trace(
    rules: Rules, seed: int
) -> None:
    deal = Deal.random(rules, seed)
    rng = Random(seed)
    while deal.outcome is None:
        before = snapshot(deal)
        legal = deal.legal_actions()
        for a in ACTIONS:
            if a in legal:
                deal.push(a)
                deal.pop()
            else:
                with pytest.raises(IllegalActionError):
                    deal.apply(a)
                with pytest.raises(IllegalActionError):
                    deal.push(str(a))
            assert snapshot(deal) == before, a
        deal.apply(rng.choice(legal))


@pytest.mark.parametrize("rules", VARIANTS, ids=IDS)
@SETTINGS
@given(seed=st.integers(0, 2**32 - 1))
def test_push_pop_takes_a_whole_deal_back_exactly(rules: Rules, seed: int) -> None:
    deal = Deal.random(rules, seed)
    rng = Random(seed)
    states = []
    while deal.outcome is None:
        states.append(snapshot(deal))
        deal.push(rng.choice(deal.legal_actions()))
    while states:
        deal.pop()
        assert snapshot(deal) == states.pop()
    assert deal.history == []


@pytest.mark.parametrize("rules", VARIANTS, ids=IDS)
@SETTINGS
@given(seed=st.integers(0, 2**32 - 1), cut=st.integers(0, 30))
def test_a_copy_is_independent_of_its_original(rules: Rules, seed: int, cut: int) -> None:
    deal = Deal.random(rules, seed)
    rng = Random(seed)
    for _ in range(cut):
        if deal.outcome is not None:
            break
        deal.apply(rng.choice(deal.legal_actions()))
    twin = deal.copy()
    frozen = snapshot(twin)
    assert snapshot(deal) == frozen
    play_out(deal, rng, check=False)
    assert snapshot(twin) == frozen
    # ... and the other way round: playing the copy leaves the original alone.
    final = snapshot(deal)
    if twin.outcome is None:
        play_out(twin, Random(seed + 1), check=False)
    assert snapshot(deal) == final


@pytest.mark.parametrize("rules", VARIANTS, ids=IDS)
@SETTINGS
@given(seed=st.integers(0, 2**32 - 1))
def test_replaying_the_history_from_the_deck_reaches_the_same_deal(rules: Rules, seed: int) -> None:
    deal = Deal.random(rules, seed)
    play_out(deal, Random(seed), check=False)
    again = Deal(rules, list(deal.deck), deal.dealer)
    for a in deal.history:
        again.apply(str(a))
    assert snapshot(again) == snapshot(deal)


def rebuild(deal: Deal) -> Deal:
    """The same position set up with Deal.from_setup from what the deal holds now (Deal.setup)."""
    return Deal.from_setup(deal.setup())


@pytest.mark.parametrize("rules", VARIANTS, ids=IDS)
@SETTINGS
@given(seed=st.integers(0, 2**32 - 1), cut=st.integers(0, 30))
def test_from_setup_rebuilds_any_reachable_position_and_plays_on_alike(
    rules: Rules, seed: int, cut: int
) -> None:
    played = played_on(rules, seed, cut)
    if played is None:
        return
    deal, rng = played
    twin = rebuild(deal)
    assert twin.legal_actions() == deal.legal_actions()
    for seat in (0, 1):
        a, b = View.of(deal, seat), View.of(twin, seat)
        for name in View.__slots__:
            if name not in ("history_length", "last_trump_card"):
                assert getattr(a, name) == getattr(b, name), name
    # The same choices lead both to the same end.
    while deal.outcome is None:
        action = rng.choice(deal.legal_actions())
        deal.apply(action)
        twin.apply(action)
        assert twin.points == deal.points and twin.legal_actions() == deal.legal_actions()
    assert twin.outcome == deal.outcome
