"""The information-set search of bummerl.bots.alphamu against its definition, PIMC and the open-card
solver."""

from __future__ import annotations

from collections.abc import Sequence
from random import Random

import pytest

from bummerl import Deal, Rules, View
from bummerl.actions import CLOSE, Action
from bummerl.bots.alphamu import AlphaMuExpert, Budget, infoset_values, solve_cost
from bummerl.bots.expert import ExpertBot, make_expert_v1
from bummerl.bots.pimc import action_values, mean_values
from bummerl.match_equity import outcome_values
from bummerl.search.worlds import worlds
from bummerl.setup import Setup

#: Player 1 follows the ten of clubs with DQ HT ST JS, the talon closed by player 0: 56 worlds. PIMC
#: and the one-step lookahead play QD, counting on guessing the opponent's cards in the tricks after;
#: made without seeing them, those guesses make JS better.
FUSION = "standard CJ.DK.SA/DQ.HT.STJ KS,JD,KH,AC,AD QC 1:TC 33/0 3/0 closed=0@0/0"


def reference(deals: Sequence[Deal], weights: Sequence[float], table: Sequence[float]) -> dict[Action, float]:
    """The definition, unpruned: my decisions per group of worlds I cannot tell apart, the opponent's
    open-card best (first of equals) per world, a deal's result where it ends; weighted means."""

    def group_value(group: list[tuple[Deal, float]]) -> float:
        if len(group) == 1:
            deal, w = group[0]
            return w * max(table[v + 3] for v in action_values(deal).values())
        return max(action_value(group, a) for a in group[0][0].legal_actions())

    def action_value(group: list[tuple[Deal, float]], action: Action) -> float:
        total = 0.0
        groups: dict[tuple[tuple[str, ...], int], list[tuple[Deal, float]]] = {}
        for deal, w in group:
            me, after, seen = deal.to_move, deal.copy(), []
            after.apply(action)
            while after.outcome is None and after.to_move != me:
                vals = action_values(after)
                reply = next(a for a in after.legal_actions() if vals[a] == max(vals.values()))
                after.apply(reply)
                seen.append(str(reply))
            if after.outcome is not None:
                total += w * table[after.outcome.value_for(me) + 3]
            else:
                groups.setdefault((tuple(seen), after.hands[me]), []).append((after, w))
        return total + sum(group_value(g) for g in groups.values())

    root = list(zip(deals, weights, strict=True))
    return {a: action_value(root, a) / sum(weights) for a in deals[0].legal_actions()}


def closed_positions(count: int, max_worlds: int = 60) -> list[View]:
    """Views of random deals after a close, every world enumerable (at most ``max_worlds``)."""
    views: list[View] = []
    seed = 0
    while len(views) < count:
        seed += 1
        rng = Random(seed)
        deal = Deal.random(Rules.preset("standard"), seed)
        stop = rng.randrange(7, 12)
        while len(deal.history) < stop and deal.outcome is None:
            legal = deal.legal_actions()
            if CLOSE in legal and rng.random() < 0.4:
                deal.apply(CLOSE)
            else:
                deal.apply(rng.choice([a for a in legal if a.kind == "play"] or list(legal)))
        if deal.outcome is not None or deal.closed_by < 0 or len(deal.legal_actions()) < 2:
            continue
        view = View.of(deal, deal.to_move)
        ws = worlds(view)
        if ws.exact and 2 <= len(ws.deals) <= max_worlds:
            views.append(view)
    return views


def _table(view: View) -> tuple[float, ...]:
    return outcome_values(view.rules, view.score, view.seat, view.dealer)


@pytest.fixture(scope="module")
def positions() -> list[View]:
    return closed_positions(12)


def test_equals_the_definition_and_never_exceeds_pimc_or_the_lookahead(positions: list[View]) -> None:
    expert = ExpertBot(1)
    for view in positions:
        ws = worlds(view)
        deals, weights = list(ws.deals), [1.0 + i % 3 for i in range(len(ws.deals))]  # unequal weights too
        table = _table(view)
        found = infoset_values(deals, weights, view.legal_actions, table, budget=Budget(10**9))
        assert found is not None
        want = reference(deals, weights, table)
        pimc = mean_values(view, deals, weights)
        for a in view.legal_actions:
            assert found[a] == pytest.approx(want[a], abs=1e-9)
            assert found[a] <= pimc[a] + 1e-9
            assert found[a] <= expert._own_next(deals, weights, a, table) + 1e-9


def test_depth_one_is_pimc_and_depth_two_the_one_step_lookahead(positions: list[View]) -> None:
    expert = ExpertBot(1)
    for view in positions[:6]:
        ws = worlds(view)
        deals, weights = list(ws.deals), list(ws.weights)
        table = _table(view)
        one = infoset_values(deals, weights, view.legal_actions, table, depth=1)
        two = infoset_values(deals, weights, view.legal_actions, table, depth=2)
        assert one is not None and two is not None
        pimc = mean_values(view, deals, weights)
        for a in view.legal_actions:
            assert one[a] == pytest.approx(pimc[a], abs=1e-9)
            assert two[a] == pytest.approx(expert._own_next(deals, weights, a, table), abs=1e-9)


@pytest.mark.parametrize("seed", [4, 5, 6])
def test_with_the_talon_open_it_never_exceeds_pimc_or_the_lookahead(seed: int) -> None:
    deal = Deal.random(Rules.preset("standard"), seed)
    while deal.talon_size > 5 or deal.lead >= 0:  # the fourth trick's lead: draws still to come
        deal.apply(next(a for a in deal.legal_actions() if a.kind == "play"))
    view = View.of(deal, deal.to_move, score=(seed, 3))
    ws = worlds(view, samples=8, seed=seed)
    deals, weights = list(ws.deals), list(ws.weights)
    table = _table(view)
    found = infoset_values(deals, weights, view.legal_actions, table, budget=Budget(10**9))
    assert found is not None
    want = reference(deals, weights, table)
    pimc = mean_values(view, deals, weights, bummerl=True)
    for a in view.legal_actions:
        assert found[a] == pytest.approx(want[a], abs=1e-9)
        assert found[a] <= pimc[a] + 1e-9
        assert found[a] <= ExpertBot(1)._own_next(deals, weights, a, table) + 1e-9


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_one_world_is_plain_pimc(seed: int) -> None:
    deal = Deal.random(Rules.preset("standard"), seed)
    for _ in range(4 + seed):  # the talon still open: the search plays to the end of the deal
        deal.apply(deal.legal_actions()[0])
    view = View.of(deal, deal.to_move)
    world = worlds(view, samples=1, seed=seed).deals[0]
    table = _table(view)
    found = infoset_values([world], [2.5], view.legal_actions, table)
    assert found is not None
    assert found == pytest.approx(mean_values(view, [world], [2.5]))


def test_nothing_hidden_is_the_open_card_value() -> None:
    deal = Deal.random(Rules.preset("standard"), 8)
    while deal.talon_open:
        deal.apply(next(a for a in deal.legal_actions() if a.kind == "play"))
    view = View.of(deal, deal.to_move, score=(2, 5))
    ws = worlds(view)
    assert len(ws.deals) == 1
    table = _table(view)
    found = infoset_values(ws.deals, ws.weights, view.legal_actions, table)
    assert found == {a: table[v + 3] for a, v in action_values(deal).items()}
    assert AlphaMuExpert(1).searched(view) == []


def test_a_position_where_strategy_fusion_misleads_pimc() -> None:
    deal = Deal.from_setup(Setup.parse(FUSION))
    view = View.of(deal, 1)
    ws = worlds(view)
    assert ws.exact and len(ws.deals) == 56
    table = _table(view)
    found = infoset_values(ws.deals, ws.weights, view.legal_actions, table)
    assert found is not None
    right = max(reference(ws.deals, ws.weights, table).items(), key=lambda kv: kv[1])[0]
    pimc = mean_values(view, ws.deals, ws.weights)
    lookahead = {a: ExpertBot(1)._own_next(ws.deals, ws.weights, a, table) for a in view.legal_actions}
    assert str(right) == "play JS"
    assert max(found, key=found.__getitem__) == right
    assert max(pimc, key=pimc.__getitem__) != right  # plain PIMC is misled...
    assert max(lookahead, key=lookahead.__getitem__) != right  # ...and so is the one-step repair
    bot = AlphaMuExpert(1, samples=56, infer=False)  # every world weighs the same, as above
    assert bot.searched(view) == ["play"]
    assert bot.choose(view) == right
    assert ExpertBot(1, samples=56, infer=False).choose(view) != right


def test_over_budget_gives_none_and_the_bot_keeps_the_expert_values() -> None:
    deal = Deal.from_setup(Setup.parse(FUSION))
    view = View.of(deal, 1)
    ws = worlds(view)
    table = _table(view)
    assert infoset_values(ws.deals, ws.weights, view.legal_actions, table, budget=Budget(10)) is None
    starved = AlphaMuExpert(1, samples=56, max_solves=10)
    plain = ExpertBot(1, samples=56, early_samples=120, sixty_six_early=None)
    assert starved.evaluate(view) == plain.evaluate(view)


def test_a_solve_costs_more_the_more_cards_are_still_to_be_played() -> None:
    deal = Deal.random(Rules.preset("standard"), 2)
    costs = []
    while deal.talon_open:
        costs.append(solve_cost(deal))
        deal.apply(next(a for a in deal.legal_actions() if a.kind == "play"))
    assert costs == sorted(costs, reverse=True) and costs[0] > 50 * costs[-1] >= 50
    assert solve_cost(deal) == 1


def test_searched_actions() -> None:
    deal = Deal.random(Rules.preset("standard"), 2)
    while CLOSE not in deal.legal_actions():
        deal.apply(deal.legal_actions()[0])
    view = View.of(deal, deal.to_move)
    assert AlphaMuExpert(1).searched(view) == ["close"]
    assert AlphaMuExpert(1, close=False).searched(view) == []
    assert "play" in AlphaMuExpert(1, close_all=True).searched(view)
    deal.apply(CLOSE)
    closed = View.of(deal, deal.to_move)
    assert "play" in AlphaMuExpert(1).searched(closed)
    assert AlphaMuExpert(1, closed=False).searched(closed) == []


def test_play_is_deterministic_and_expert_v1_elsewhere() -> None:
    deal = Deal.random(Rules.preset("standard"), 6)
    deal.apply(deal.legal_actions()[0])
    follow = View.of(deal, deal.to_move)  # following a lead with the talon open: nothing searched

    def small() -> AlphaMuExpert:
        return AlphaMuExpert(3, samples=20, early_samples=10, lookahead=20)

    assert small().searched(follow) == []
    v1 = make_expert_v1(3)
    v1.samples, v1.early_samples, v1.lookahead = 20, 10, 20
    assert small().evaluate(follow) == v1.evaluate(follow)
    deal.apply(deal.legal_actions()[0])
    lead = View.of(deal, deal.to_move)
    assert small().choose(lead) == small().choose(lead)
