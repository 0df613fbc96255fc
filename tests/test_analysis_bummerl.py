"""The ? analysis in a Bummerl: each action's chance to win the Bummerl from the current score."""

from __future__ import annotations

import pytest

from bummerl import Action, Card, Deal, Rules, View
from bummerl.analysis import analyse
from bummerl.match_equity import OUTCOMES, win_chance
from bummerl.puzzle import Puzzle


def _deal() -> Deal:
    return Deal.random(Rules.preset("standard"), 11)


def _view(score: tuple[int, int] | None) -> View:
    deal = _deal()
    return View.of(deal, deal.to_move, score=score)


def _unseen_card(view: View) -> Card:
    """A card the seat to move cannot see (so the worlds differ on who holds it)."""
    card = _deal().hand(1 - view.seat)[0]
    assert card not in view.hand
    return card


class Gamble:
    """A stand-in solver: the first legal action wins 1 game point for sure; every other wins 3 unless the
    opponent holds one unseen card, and loses 1 if it does. Counts the worlds where the gamble wins."""

    def __init__(self, card: Card) -> None:
        self.card = card
        self.worlds = 0
        self.gamble_wins = 0

    def __call__(self, deal: Deal) -> dict[Action, int]:
        actions = deal.legal_actions()
        opponent_holds = bool(deal.hands[1 - deal.to_move] >> self.card & 1)
        self.worlds += 1
        self.gamble_wins += not opponent_holds
        gamble = -1 if opponent_holds else 3
        return {a: (1 if i == 0 else gamble) for i, a in enumerate(actions)}


def test_needing_one_point_a_sure_one_point_win_beats_a_likelier_three() -> None:
    view = _view((1, 1))  # 6:6 in points won: the next game point ends the Bummerl
    solver = Gamble(_unseen_card(view))
    result = analyse(view, samples=120, seed=5, solver=solver)
    share = solver.gamble_wins / solver.worlds
    assert 0.5 < share < 1.0  # the gamble has the higher mean game points ...
    sure = next(s for s in result.actions if s.action == view.legal_actions[0])
    gamble = next(s for s in result.actions if s.action != view.legal_actions[0])
    assert gamble.mean == pytest.approx(3 * share - (1 - share))
    assert gamble.mean > sure.mean == 1.0
    assert result.best is gamble  # the list is ordered by game points
    # ... but needing one point, a win of 1 is as good as a win of 3: the sure action wins the Bummerl.
    assert sure.bummerl_win == pytest.approx(1.0)
    assert gamble.bummerl_win == pytest.approx(share)


def test_needing_two_points_a_two_point_win_is_as_good_as_three() -> None:
    view = _view((2, 7))

    def fixed(deal: Deal) -> dict[Action, int]:
        return {a: (1, 2, 3)[i % 3] for i, a in enumerate(deal.legal_actions())}

    result = analyse(view, samples=3, solver=fixed)
    by_points = {s.mean: s.bummerl_win for s in result.actions}
    assert by_points[2.0] == by_points[3.0] == pytest.approx(1.0)
    assert by_points[1.0] is not None and 0.5 < by_points[1.0] < 1.0


def test_each_result_is_worth_the_chance_from_the_score_it_leaves() -> None:
    view = _view((7, 5))
    assert view.score is not None
    mine, theirs = view.score
    deals_next = view.dealer != view.seat

    def spread(deal: Deal) -> dict[Action, int]:  # action i is worth OUTCOMES[i % 7] in every world
        return {a: OUTCOMES[i % 7] for i, a in enumerate(deal.legal_actions())}

    result = analyse(view, samples=2, solver=spread)
    for s in result.actions:
        k = int(s.mean)
        expected = (win_chance("standard", mine - k, theirs, deals_next) if k > 0
                    else win_chance("standard", mine, theirs + k, deals_next))
        assert s.bummerl_win == pytest.approx(expected)
    chances = [s.bummerl_win or 0.0 for s in sorted(result.actions, key=lambda s: s.mean)]
    assert chances == sorted(chances)  # more game points, better chances


def test_the_chance_is_weighted_like_the_mean() -> None:
    view = _view((1, 1))
    card = _unseen_card(view)
    solver = Gamble(card)

    def heavy(deal: Deal) -> float:  # worlds where the gamble loses count three times
        return 3.0 if deal.hands[1 - deal.to_move] >> card & 1 else 1.0

    result = analyse(view, samples=60, seed=2, solver=solver, weight=heavy)
    gamble = next(s for s in result.actions if s.action != view.legal_actions[0])
    assert gamble.bummerl_win == pytest.approx(gamble.win_share)  # needing 1: a win is the Bummerl
    unweighted = analyse(view, samples=60, seed=2, solver=Gamble(card))
    other = next(s for s in unweighted.actions if s.action == gamble.action)
    assert gamble.bummerl_win is not None and other.bummerl_win is not None
    assert gamble.bummerl_win < other.bummerl_win


def test_outside_a_bummerl_there_is_no_chance_and_the_json_says_so() -> None:
    solver = Gamble(_unseen_card(_view(None)))
    plain = analyse(_view(None), samples=3, solver=solver)
    assert all(s.bummerl_win is None for s in plain.actions)
    assert "bummerl_win" not in plain.to_json()["actions"][0]
    puzzle = analyse(Puzzle.parse("standard CA.DT/?CT.DA 0 H 0 40/38 4/4"))
    assert puzzle.best.bummerl_win is None
    scored = analyse(_view((3, 4)), samples=3, solver=solver).to_json()
    assert all(0.0 <= a["bummerl_win"] <= 1.0 for a in scored["actions"])


def test_the_real_solver_at_one_all_gives_the_win_share() -> None:
    """Needing one point each, the Bummerl is won exactly when the deal is (standard rules have no draws)."""
    result = analyse(_view((1, 1)), samples=6, seed=1)
    for s in result.actions:
        assert s.bummerl_win == pytest.approx(s.win_share)
