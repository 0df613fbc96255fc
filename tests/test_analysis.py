"""Analysis: each action's mean, win share and worst case over the worlds, best first."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path

import pytest

from bummerl import Action, Card, Deal, Rules, View
from bummerl.analysis import Analysis, AnalysisError, analyse
from bummerl.bots.inference import rules_weight
from bummerl.engine import Outcome
from bummerl.puzzle import Puzzle
from bummerl.search.worlds import count_worlds, iter_worlds, worlds

PUZZLES = Path(__file__).parent / "puzzles"
TOMPA_1 = Puzzle.parse("tompa CTK.DAK.HQ/?CQJ.DTQJ.HT 1 QS 0 28/27 2/2")
TOMPA_2 = Puzzle.parse("tompa CQ.DJ.HTK.SJ/?CAK.HJ.STK 0 H 0 32/36 2/3")
#: Three face-down cards: 336 worlds.
BIGGER = Puzzle.parse("tompa CTK.DAK.HQ/?CQJ.DTQJ.HT.SJA 3 QS 0 15/27 1/2")


def _score(outcome: Outcome, player: int) -> int:
    return outcome.value_for(player)


def _minimax(deal: Deal, player: int) -> int:
    if deal.outcome is not None:
        return _score(deal.outcome, player)
    values = []
    for action in deal.legal_actions():
        deal.push(action)
        values.append(_minimax(deal, player))
        deal.pop()
    return max(values) if deal.to_move == player else min(values)


def open_card(deal: Deal) -> dict[Action, int]:
    """A tiny independent stand-in for the open-card solver: exhaustive minimax over push/pop."""
    player = deal.to_move
    out = {}
    for action in deal.legal_actions():
        deal.push(action)
        out[action] = _minimax(deal, player)
        deal.pop()
    return out


def test_one_world_gives_the_open_card_values_themselves() -> None:
    result = analyse(TOMPA_2)
    (world,) = list(iter_worlds(TOMPA_2))
    truth = open_card(world)
    assert (result.exact, result.worlds, result.total_worlds) == (True, 1, 1)
    assert {s.action: s.mean for s in result.actions} == truth
    for s in result.actions:
        assert s.worst == truth[s.action]
        assert s.win_share == (1.0 if truth[s.action] > 0 else 0.0)
        assert s.ci95 is None


def test_the_mean_is_over_every_world_and_actions_come_best_first() -> None:
    result = analyse(TOMPA_1)  # the open-card solver, checked here against exhaustive search in every world
    per_world = [open_card(w) for w in iter_worlds(TOMPA_1)]
    assert result.exact and result.worlds == 6
    for s in result.actions:
        values = [v[s.action] for v in per_world]
        assert s.mean == pytest.approx(sum(values) / 6)
        assert s.worst == min(values)
        assert s.win_share == pytest.approx(sum(v > 0 for v in values) / 6)
    keys = [(-s.mean, -s.win_share, -s.worst) for s in result.actions]
    assert keys == sorted(keys)


def test_tompas_puzzles_have_the_answers_recorded_beside_them() -> None:
    answers = json.loads((PUZZLES / "answers.json").read_text())
    for name, expected in answers.items():
        puzzle = Puzzle.from_json(json.loads((PUZZLES / name).read_text()))
        got = analyse(puzzle).to_json()
        assert got == expected, name


def _by_card(deal: Deal) -> dict[Action, int]:
    """A fake solver whose values depend on the world: +2 for every action if the opponent holds JD."""
    jd = Card.parse("JD")
    holds = bool(deal.hands[1] >> jd & 1)
    return {a: (2 if holds else -1) for a in deal.legal_actions()}


def test_sampled_worlds_give_a_seeded_interval_around_the_mean() -> None:
    first = analyse(BIGGER, samples=40, seed=3, solver=_by_card)
    again = analyse(BIGGER, samples=40, seed=3, solver=_by_card)
    assert first == again
    assert (first.exact, first.worlds, first.total_worlds, first.seed) == (False, 40, 336, 3)
    true_share = 5 / 8  # JD is one of 8 unseen cards, 5 of which are in the hand
    for s in first.actions:
        assert s.ci95 is not None
        lo, hi = s.ci95
        assert -3 <= lo <= s.mean <= hi <= 3
        assert s.mean == pytest.approx(3 * s.win_share - 1)
        assert abs(s.win_share - true_share) < 0.3
    assert "ci95" in first.to_json()["actions"][0]
    assert analyse(BIGGER, samples=40, seed=4, solver=_by_card) != first


def test_progress_is_told_after_every_world() -> None:
    told: list[tuple[int, int]] = []
    analyse(BIGGER, samples=12, seed=3, solver=_by_card,
            progress=lambda done, total: told.append((done, total)))
    assert told == [(n, 12) for n in range(1, 13)]


def test_enough_samples_make_it_exact() -> None:
    result = analyse(BIGGER, samples=336, solver=_by_card)
    assert result.exact and result.worlds == 336
    assert result.best.mean == pytest.approx(2 * 5 / 8 - 1 * 3 / 8)
    assert result.best.worst == -1 and result.best.ci95 is None


def test_weights_shift_the_mean_and_share() -> None:
    jd = Card.parse("JD")
    result = analyse(TOMPA_1, solver=_by_card, weight=lambda d: 3.0 if d.hands[1] >> jd & 1 else 1.0)
    # JD is in the hand in 5 of 6 worlds, weighted 3: share 15/16
    assert result.best.win_share == pytest.approx(15 / 16)
    assert result.best.mean == pytest.approx((15 * 2 - 1) / 16)


def test_the_json_has_the_documented_shape() -> None:
    out = analyse(TOMPA_1, solver=_by_card).to_json()
    assert list(out) == ["exact", "worlds", "actions"]
    assert list(out["actions"][0]) == ["action", "mean", "win_share", "worst"]
    sampled = analyse(BIGGER, samples=10, solver=_by_card).to_json()
    assert list(sampled) == ["exact", "worlds", "total_worlds", "seed", "actions"]
    assert json.loads(json.dumps(sampled)) == sampled


def test_a_view_is_analysed_for_its_own_seat_only() -> None:
    deal = Deal.random(Rules.preset("standard"), 21)
    mover = deal.to_move
    result = analyse(View.of(deal, mover), samples=5, solver=_by_card)
    assert isinstance(result, Analysis) and {s.action for s in result.actions} == set(deal.legal_actions())
    assert result.total_worlds == count_worlds(View.of(deal, mover))
    with pytest.raises(AnalysisError, match="is to move, not this view's seat"):
        analyse(View.of(deal, 1 - mover), solver=_by_card)
    with pytest.raises(AnalysisError, match="the opponent is to move"):
        analyse(TOMPA_1.replace(to_move=1), solver=_by_card)
    deal.apply("play " + str(deal.hand(mover)[0]))
    deal.apply(deal.legal_actions()[0])
    deal.apply("claim")  # the trick's winner claims far too early: a false claim ends the deal
    assert deal.is_over
    with pytest.raises(AnalysisError, match="the deal is over"):
        analyse(View.of(deal, 0), solver=_by_card)


def test_every_legal_action_is_valued_in_every_world(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[Mapping[Action, int]] = []

    def counting(deal: Deal) -> dict[Action, int]:
        values = _by_card(deal)
        calls.append(values)
        return values

    analyse(TOMPA_1, solver=counting)
    assert len(calls) == 6
    assert all(set(c) == set(calls[0]) for c in calls)


def test_a_views_analysis_leaves_out_the_worlds_the_opponents_strict_follows_ruled_out() -> None:
    # Hearts are trump; player 0 closes and leads J♥, player 1 answers A♦: it holds no heart. 91 of the 126
    # placements gave it one, and they changed the best move (session 11's audit).
    deck = "JH TC AH AS AC KD KH QC TD JC KC KS AD JS QS QH JD TH TS QD"
    deal = Deal.from_deck(Rules.preset("standard"), deck, dealer=1)
    for text in ("play TD", "play AS", "play AH", "play KC", "close", "play JH", "play AD"):
        deal.apply(Action.parse(text))
    view = View.of(deal, 0)
    result = analyse(view)
    assert (result.exact, result.worlds, result.total_worlds) == (True, 35, 126)
    assert str(result.best.action) == "play QC" and result.best.mean == 0.0
    hearts = sum(1 << (2 * 6 + r) for r in range(6))
    assert all(not w.hands[1] & hearts for w in worlds(view, weight=rules_weight(view)).deals)
    everything = analyse(view, weight=lambda world: 1.0)  # a weight of one's own replaces the default
    assert everything.worlds == 126 and str(everything.best.action) == "play TC"
