"""Worlds: every placement of the unseen cards, counted, enumerated and sampled, each one consistent."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from itertools import permutations
from math import comb

import pytest

from bummerl import Deal, Rules, View
from bummerl.cards import Card, cards_in, mask_of
from bummerl.puzzle import Puzzle
from bummerl.rules import PRESETS
from bummerl.search.worlds import count_worlds, iter_worlds, sample_worlds, world_at, worlds

TOMPA_1 = Puzzle.parse("tompa CTK.DAK.HQ/?CQJ.DTQJ.HT 1 QS 0 28/27 2/2")

#: The public fields of a view that every world must reproduce exactly.
PUBLIC = (
    "rules",
    "seat",
    "dealer",
    "to_move",
    "legal_actions",
    "hand_mask",
    "trump_suit",
    "trump_card",
    "talon_size",
    "bottom_card",
    "closed_by",
    "close_snapshot",
    "lead_card",
    "tricks",
    "marriages",
    "exchanged",
    "points",
    "tricks_won",
    "pending",
    "married",
    "outcome",
    "opponent_hand_size",
    "unseen_mask",
    "opponent_known_mask",
)


def find_view(predicate: Callable[[View], bool], seed: int = 0, tries: int = 4000) -> View:
    """The first view (of either seat, every preset) after random play that satisfies ``predicate``."""
    rng = random.Random(seed)
    for _ in range(tries):
        deal = Deal.random(
            PRESETS[rng.choice(sorted(PRESETS))], rng.randrange(10**9), dealer=rng.randrange(2)
        )
        for _ in range(rng.randrange(30)):
            if deal.is_over:
                break
            deal.apply(rng.choice(deal.legal_actions()))
        if not deal.is_over:
            for seat in (0, 1):
                view = View.of(deal, seat)
                if predicate(view):
                    return view
    raise AssertionError("no random position fits")


def brute_force_count(source: View | Puzzle) -> int:
    """Count distinct (opponent's hand, talon) placements by trying every ordering of the unseen cards."""
    p = source if isinstance(source, Puzzle) else Puzzle.from_view(source)
    unseen = list(cards_in(p.unseen))
    k = p.hidden_in_hand
    placements = set()
    for order in permutations(unseen):
        talon = order[k:] if p.talon == "open" else frozenset(order[k:])
        placements.add((frozenset(order[:k]), talon))
    return len(placements)


def placement(deal: Deal, seat: int) -> tuple[int, tuple[Card, ...]]:
    return deal.hands[1 - seat], tuple(deal.talon)


def assert_consistent(world: Deal, view: View) -> None:
    seen = View.of(world, view.seat)
    for name in PUBLIC:
        assert getattr(seen, name) == getattr(view, name), name
    assert getattr(seen, "last_trump_card", None) == getattr(view, "last_trump_card", None)


@pytest.mark.parametrize(
    ("what", "predicate"),
    [
        ("open talon, one face-down card", lambda v: v.talon_open and v.talon_size == 2),
        (
            "open talon, three face-down cards",
            lambda v: v.talon_open and v.talon_size == 4 and not v.rules.sixty_six,
        ),
        ("closed talon", lambda v: v.closed_by >= 0 and v.talon_size > 0 and v.unseen_mask.bit_count() <= 8),
        ("exhausted talon", lambda v: v.talon_size == 0 and v.opponent_hand_size > 0),
        (
            "a card led by the opponent",
            lambda v: (
                v.lead_card is not None and v.to_move == v.seat and len(list(cards_in(v.unseen_mask))) <= 8
            ),
        ),
        (
            "the opponent's known cards",
            lambda v: v.opponent_known_mask != 0 and v.unseen_mask.bit_count() <= 8,
        ),
        ("sixty-six", lambda v: v.rules.sixty_six and v.talon_open and v.talon_size == 2),
    ],
)
def test_world_counts_match_brute_force(what: str, predicate: Callable[[View], bool]) -> None:
    view = find_view(predicate)
    n = count_worlds(view)
    assert n == brute_force_count(view), what
    every = list(iter_worlds(view))
    assert len(every) == n
    assert len({placement(w, view.seat) for w in every}) == n


def test_tompas_first_puzzle_has_six_worlds_one_per_face_down_card() -> None:
    assert count_worlds(TOMPA_1) == 6
    tops = sorted(str(w.talon[0]) for w in iter_worlds(TOMPA_1))
    assert tops == sorted(str(c) for c in cards_in(TOMPA_1.unseen))


def test_every_order_of_an_open_talon_counts_but_a_closed_talon_only_by_hand() -> None:
    open_view = find_view(lambda v: v.talon_open and v.talon_size == 4 and not v.rules.sixty_six)
    assert count_worlds(open_view) == 56 * 6  # C(8, 5) hands times 3! orders
    closed = find_view(lambda v: v.closed_by >= 0 and v.talon_size == 6 and v.opponent_hand_size == 5)
    p = Puzzle.from_view(closed)
    assert count_worlds(closed) == comb(p.unseen.bit_count(), p.hidden_in_hand)  # 5 face-down cards, 1 order


def test_the_exhausted_talon_leaves_one_world_the_true_deal() -> None:
    rng = random.Random(3)
    deal = Deal.random(Rules.preset("standard"), 3)
    while deal.talon_size or deal.is_over:
        if deal.is_over:
            deal = Deal.random(Rules.preset("standard"), rng.randrange(10**6))
            continue
        deal.apply(rng.choice([a for a in deal.legal_actions() if str(a) != "close"]))
    view = View.of(deal, deal.to_move)
    (world,) = list(iter_worlds(view))
    assert world.hands == deal.hands


def test_every_world_is_consistent_with_the_view_and_the_truth_is_among_them() -> None:
    rng = random.Random(5)
    for i in range(40):
        view = find_view(lambda v: True, seed=100 + i)
        n = count_worlds(view)
        indexes = range(n) if n <= 50 else rng.sample(range(n), 8)
        for index in indexes:
            assert_consistent(world_at(view, index), view)
    small = find_view(lambda v: v.talon_open and v.talon_size == 2, seed=7)
    truths = {placement(w, small.seat) for w in iter_worlds(small)}
    assert len(truths) == count_worlds(small)


def test_the_true_placement_is_one_of_the_worlds() -> None:
    rng = random.Random(8)
    for _ in range(20):
        deal = Deal.random(Rules.preset("standard"), rng.randrange(10**6))
        for _ in range(8):  # four tricks: the talon holds 2 cards, 6 worlds
            deal.apply(rng.choice([a for a in deal.legal_actions() if a.kind in ("play", "exchange")]))
            if deal.is_over:
                break
        if deal.is_over or not deal.talon_open:
            continue
        seat = deal.to_move
        assert placement(deal, seat) in {placement(w, seat) for w in iter_worlds(View.of(deal, seat))}


def test_cards_the_opponent_showed_are_in_their_hand_in_every_world() -> None:
    married = find_view(lambda v: any(p != v.seat for p, _ in v.marriages) and v.opponent_known_mask != 0)
    exchanged = find_view(
        lambda v: v.exchanged is not None and v.exchanged[0] != v.seat and v.opponent_known_mask != 0, seed=2
    )
    for view in (married, exchanged):
        known = view.opponent_known_mask
        for world in sample_worlds(view, 30, seed=1):
            assert world.hands[1 - view.seat] & known == known
            assert_consistent(world, view)


def test_world_at_follows_the_enumeration_order() -> None:
    view = find_view(lambda v: v.talon_open and v.talon_size == 4 and not v.rules.sixty_six, seed=4)
    every = [placement(w, view.seat) for w in iter_worlds(view)]
    assert [placement(world_at(view, i), view.seat) for i in range(len(every))] == every
    with pytest.raises(IndexError):
        world_at(view, len(every))


def test_sampling_is_seeded_distinct_and_reproducible() -> None:
    view = View.of(Deal.random(Rules.preset("standard"), 11), 0)
    first = [placement(w, 0) for w in sample_worlds(view, 25, seed=3)]
    assert first == [placement(w, 0) for w in sample_worlds(view, 25, seed=3)]
    assert first != [placement(w, 0) for w in sample_worlds(view, 25, seed=4)]
    assert len(set(first)) == 25
    ws = worlds(view, samples=25, seed=3)
    assert (ws.exact, ws.total, ws.seed) == (False, count_worlds(view), 3)
    assert [placement(w, 0) for w in ws.deals] == first


def test_sampling_is_uniform_over_cards_and_talon_positions() -> None:
    view = View.of(Deal.random(Rules.preset("standard"), 12), 0)
    unseen = list(cards_in(view.unseen_mask))
    sample = sample_worlds(view, 2000, seed=9)
    in_hand = Counter(c for w in sample for c in cards_in(w.hands[1]))
    on_top = Counter(w.talon[0] for w in sample)
    for c in unseen:  # 5 of 14 cards are in the hand, 1 of 14 on top: five standard deviations of slack
        assert abs(in_hand[c] - 2000 * 5 / 14) < 5 * (2000 * 5 / 14 * 9 / 14) ** 0.5
        assert abs(on_top[c] - 2000 / 14) < 5 * (2000 / 14 * 13 / 14) ** 0.5


def test_few_worlds_are_all_taken_whatever_the_sample_size() -> None:
    ws = worlds(TOMPA_1, samples=100, seed=7)
    assert (ws.exact, len(ws.deals), ws.total, ws.seed) == (True, 6, 6, None)
    assert sample_worlds(TOMPA_1, 10) and len(sample_worlds(TOMPA_1, 10)) == 6


def test_a_weight_function_weights_or_drops_worlds() -> None:
    jd = Card.parse("JD")
    ws = worlds(TOMPA_1, weight=lambda d: 0.0 if d.hands[1] >> jd & 1 else 2.0)
    assert len(ws.deals) == 1 and ws.weights == (2.0,) and ws.exact
    assert ws.deals[0].talon == [jd]
    with pytest.raises(ValueError, match="must not be negative"):
        worlds(TOMPA_1, weight=lambda d: -1.0)


def test_a_puzzle_with_known_cards_places_them_with_the_opponent() -> None:
    p = Puzzle.parse("tompa CTK.DAK.HQ/DQJ?CQJ.DT.HT 1 QS 0 28/27 2/2")
    assert count_worlds(p) == 4
    for w in iter_worlds(p):
        assert w.hands[1] & mask_of([Card.parse("QD"), Card.parse("JD")]) == mask_of(
            [Card.parse("QD"), Card.parse("JD")]
        )


def test_cards_the_seat_is_told_are_in_the_opponents_hand_in_every_world() -> None:
    rng = random.Random(12)
    for i in range(10):
        view = find_view(lambda v: v.talon_open and v.unseen_mask != 0, seed=200 + i)
        deal_hand = sample_worlds(view, 1, seed=i)[0].hands[1 - view.seat]  # some hand the view allows
        hidden = [c for c in cards_in(view.unseen_mask) if deal_hand >> c & 1]
        told = mask_of(rng.sample(hidden, min(2, len(hidden))))
        n, k, t = view.unseen_mask.bit_count(), Puzzle.from_view(view).hidden_in_hand, told.bit_count()
        orders = count_worlds(view) // comb(n, k)  # the talon's orders, the same whatever is told
        ws = worlds(view, samples=40, seed=i, known=told)
        assert ws.total == comb(n - t, k - t) * orders
        for world in ws.deals:
            assert world.hands[1 - view.seat] & told == told
            assert_consistent(world, view)
    assert worlds(TOMPA_1, known=0).total == count_worlds(TOMPA_1)  # nothing told: the same worlds


def test_only_unseen_cards_can_be_told() -> None:
    with pytest.raises(ValueError, match="unseen cards"):
        worlds(TOMPA_1, known=mask_of([Card.parse("TC")]))  # my own ten of clubs
