"""Inference from the opponent's play: strict follows rule worlds out, missed exchanges and marriages make
them less likely, a close tilts them toward the closer; the expert uses the tilt."""

from __future__ import annotations

from bummerl.actions import CLOSE, Action
from bummerl.bots import inference
from bummerl.bots.expert import ExpertBot
from bummerl.bots.inference import evidence, world_tilt, world_weight
from bummerl.bots.pimc import PimcBot
from bummerl.cards import Card
from bummerl.engine import Deal
from bummerl.rules import Rules
from bummerl.search.worlds import sample_worlds
from bummerl.view import View

STANDARD = Rules.preset("standard")


def closed_by_forehand(seed: int = 5) -> Deal:
    """A deal whose forehand closed at once and led its first card; the dealer is to follow."""
    deal = Deal.random(STANDARD, seed)
    deal.apply(CLOSE)
    deal.apply(deal.legal_actions()[0])
    return deal


def test_the_tilt_by_who_closed_and_the_last_open_trick() -> None:
    deal = Deal.random(STANDARD, 5)
    assert world_tilt(View.of(deal, deal.to_move)) == 0.0
    closer = deal.to_move
    deal.apply(CLOSE)
    assert world_tilt(View.of(deal, closer)) == 0.0
    assert world_tilt(View.of(deal, 1 - closer)) == inference.OPPONENT_CLOSED_TILT
    deal.apply(deal.legal_actions()[0])
    assert world_tilt(View.of(deal, 1 - closer)) == inference.OPPONENT_CLOSED_LEAD_TILT
    open_deal = Deal.random(STANDARD, 6)
    while open_deal.talon_size > 2:
        assert world_tilt(View.of(open_deal, open_deal.to_move)) == 0.0
        plays = [a for a in open_deal.legal_actions() if a.kind == "play"]
        open_deal.apply(plays[0])
    assert world_tilt(View.of(open_deal, open_deal.to_move)) == inference.LAST_OPEN_TRICK_TILT


def test_a_strict_follow_rules_out_exactly_the_worlds_where_it_broke_a_rule() -> None:
    for seed in range(200):  # a close, then a follow off the led suit
        deal = closed_by_forehand(seed)
        follower, lead = deal.to_move, deal.lead_card
        assert lead is not None
        follow = deal.legal_actions()[0]
        if follow.card is not None and follow.card.suit != lead.suit:
            break
    else:
        raise AssertionError("no off-suit follow found")
    deal.apply(follow)
    view = View.of(deal, 1 - follower)
    assert len(evidence(view).follows) == 1
    weigh = world_weight(view)
    assert weigh(deal) > 0  # the true deal is never ruled out
    trumped = follow.card.suit == deal.trump_suit
    ruled_out = 0
    for world in sample_worlds(view, 200, seed=1):
        held = [Card(c) for c in range(24) if world.hands[follower] >> c & 1]
        broke = any(c.suit == lead.suit for c in held) or (
            not trumped and any(c.suit == deal.trump_suit for c in held))
        assert (weigh(world) == 0.0) == broke
        ruled_out += broke
    assert ruled_out > 0


def test_a_missed_exchange_makes_worlds_with_the_jack_almost_impossible() -> None:
    for seed in range(200):  # the forehand leads without exchanging, its exchange allowed then
        deal = Deal.random(STANDARD, seed)
        leader = deal.to_move
        deal.apply(next(a for a in deal.legal_actions() if a.kind == "play"))
        view = View.of(deal, 1 - leader)
        jack = Card(deal.trump_suit * 6 + 1)
        missed = [m for m in evidence(view).missed if m.cards == 1 << int(jack)]
        if missed and not deal.hands[1 - leader] >> int(jack) & 1:
            break
    else:
        raise AssertionError("no missed exchange found")
    weigh = world_weight(view)
    worlds = sample_worlds(view, 300, seed=2)
    with_jack = [w for w in worlds if w.hands[leader] >> int(jack) & 1]
    without = [w for w in worlds if not w.hands[leader] >> int(jack) & 1]
    assert with_jack and without
    assert all(weigh(w) <= 1 - inference.MISSED_EXCHANGE + 1e-9 for w in with_jack)
    assert max(weigh(w) for w in without) > 1 - inference.MISSED_EXCHANGE


def test_after_the_opponents_close_the_expert_fears_the_worlds_where_the_closer_wins() -> None:
    deal = closed_by_forehand()
    me = deal.to_move
    view = View.of(deal, me)
    plays = [a for a in view.legal_actions if a.kind == "play"]
    assert len(plays) >= 2
    bold, careful = plays[0], plays[1]
    unseen = [c for c in range(24) if view.unseen_mask >> c & 1]
    strong = (1 << unseen[-1]) | (1 << unseen[-2])  # the closer holds one of two cards: about half the worlds

    def values(world: Deal) -> dict[Action, int]:
        out = dict.fromkeys(world.legal_actions(), -3)
        closer_strong = bool(world.hands[1 - me] & strong)
        # Where the closer is strong I lose either way, the bold play more; where it is weak bold wins big.
        out[bold] = -2 if closer_strong else 3
        out[careful] = -1 if closer_strong else 1
        return out

    uniform = PimcBot(1, 400, 400, values=values).choose(view)
    tilted = ExpertBot(1, 400, 400, bummerl=False, values=values).choose(view)
    assert uniform == bold
    assert tilted == careful


def test_a_lead_weighs_what_it_throws_away_in_the_position_before_it() -> None:
    """The weight of the true world is exp(-beta * loss), the loss read from the deal just before the lead."""
    from math import exp, isclose
    from random import Random

    from bummerl.actions import CLAIM
    from bummerl.bots.pimc import action_values

    checked = 0
    for seed in range(100):
        deal, rng = Deal.random(Rules.preset("standard"), seed), Random(seed)
        for _ in range(rng.randrange(0, 8)):
            if deal.is_over:
                break
            deal.apply(rng.choice([a for a in deal.legal_actions() if a is not CLAIM]))
        if deal.is_over or deal.lead_card is not None or deal.married >= 0:
            continue
        plays = [a for a in deal.legal_actions() if a.kind == "play"]
        if not plays or CLAIM in deal.legal_actions():
            continue
        before = deal.copy()
        lead = rng.choice(plays)
        deal.apply(lead)
        q = action_values(before)
        weight = inference.lead_likelihood(View.of(deal, deal.to_move), action_values, beta=0.7)
        assert weight is not None
        assert isclose(weight(deal), exp(-0.7 * (max(q.values()) - q[lead])))
        checked += 1
    assert checked >= 15
