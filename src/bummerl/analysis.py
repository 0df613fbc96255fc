"""Analysis: "what should I play here, and what is each action worth?" for one seat's view or a puzzle.

Every legal action of the seat to move is tried in every world (every placement of the unseen cards,
see :mod:`bummerl.search.worlds`, less those the rules have ruled out: for a view, a world where the
opponent held a card it would have had to play on a strict follow; nothing is guessed from its style) and
valued by open-card play from there on (the perfect-information solver, each side knowing all cards). Per
action: the mean game points over the worlds, the share of worlds where it wins (value above 0), the worst
case, and, when the worlds were sampled, a 95% confidence interval on the mean. Actions come best first
(by the mean).

In a Bummerl (a view with a score), each action also gets the chance to win the Bummerl: in each world the
deal's result is worth the chance to win the Bummerl from the score it leaves
(:func:`bummerl.match_equity.outcome_values`, the valuation the expert plays by), and the action's chance is
the mean over the worlds. It can rank actions differently from the mean: needing one game point, winning
one is as good as winning three.

Open-card values are the usual double-dummy approximation: they assume both players would play on
knowing every card, so they flatter the side with guesses to make; exact here means "over every
world", not "game-theoretically exact".

>>> from bummerl.puzzle import Puzzle
>>> result = analyse(Puzzle.parse("standard CA.DT/?CT.DA 0 H 0 40/38 4/4"))
>>> result.exact, result.worlds, [(str(s.action), s.mean, s.worst) for s in result.actions]
(True, 1, [('play TD', 1.0, 1), ('play AC', -1.0, -1), ('claim', -2.0, -2)])
>>> tompa = analyse(Puzzle.parse("tompa CTK.DAK.HQ/?CQJ.DTQJ.HT 1 QS 0 28/27 2/2"))
>>> tompa.worlds, str(tompa.best.action), tompa.best.mean, tompa.best.win_share
(6, 'close', 2.0, 1.0)

A view in a Bummerl (here the first deal, both needing 7) also gets each action's Bummerl chance:

>>> from bummerl import Deal, Rules
>>> deal = Deal.random(Rules.preset("standard"), 3)
>>> start = analyse(View.of(deal, deal.to_move, score=(7, 7)), samples=4)
>>> all(0.0 < s.bummerl_win < 1.0 for s in start.actions)
True

The front ends word it with :func:`rate` (every action of a view, best first, and how the worlds were
chosen) and walk a whole game's decisions with :func:`review`:

>>> def claims_win(deal):  # a stand-in solver: a claim is worth 1, anything else 0
...     return {a: int(a.kind == "claim") for a in deal.legal_actions()}
>>> stats, note = rate(View.of(deal, deal.to_move), samples=3, solver=claims_win)
>>> note, len(stats) == len(deal.legal_actions())
('sampled 3 of 726,485,760 worlds', True)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from bummerl.actions import CLAIM, Action
from bummerl.engine import Deal
from bummerl.errors import BummerlError
from bummerl.match_equity import OUTCOMES, outcome_values
from bummerl.search.worlds import EXACT_LIMIT, Source, Weight, worlds
from bummerl.view import View

__all__ = ["ActionStats", "Analysis", "AnalysisError", "Mistake", "Solver", "analyse", "rate", "review"]

#: Values every legal action of the player to move in a full-information deal (game points for them).
Solver = Callable[[Deal], Mapping[Action, int]]
_Z95 = 1.959963984540054


class AnalysisError(BummerlError):
    """A position that cannot be analysed (the deal is over, or it is not the seat's move)."""


@dataclass(frozen=True, slots=True)
class ActionStats:
    """What one action is worth over the worlds."""

    action: Action
    #: Mean game points for the seat to move (weighted when the worlds are).
    mean: float
    #: Share of the worlds (by weight) where the action wins (value above 0).
    win_share: float
    #: The lowest value in any world.
    worst: int
    #: 95% confidence interval on the mean when the worlds are a sample, else None.
    ci95: tuple[float, float] | None = None
    #: The chance to win the Bummerl after this action (mean over the worlds), None outside a Bummerl.
    bummerl_win: float | None = None

    def to_json(self) -> dict[str, Any]:
        """``{"action": "close", "mean": 2.0, "win_share": 1.0, "worst": 2}`` (+ ``"ci95"`` when sampled,
        ``"bummerl_win"`` in a Bummerl)."""
        out: dict[str, Any] = {
            "action": str(self.action),
            "mean": round(self.mean, 4),
            "win_share": round(self.win_share, 4),
            "worst": self.worst,
        }
        if self.ci95 is not None:
            out["ci95"] = [round(self.ci95[0], 4), round(self.ci95[1], 4)]
        if self.bummerl_win is not None:
            out["bummerl_win"] = round(self.bummerl_win, 4)
        return out


@dataclass(frozen=True, slots=True)
class Analysis:
    """Every legal action's worth, best first, and how the worlds were chosen."""

    actions: tuple[ActionStats, ...]
    #: True when every world was solved.
    exact: bool
    #: How many worlds were solved.
    worlds: int
    #: How many worlds fit the position in all.
    total_worlds: int
    #: The sampling seed, None when exact.
    seed: int | None

    @property
    def best(self) -> ActionStats:
        """The best action's figures."""
        return self.actions[0]

    def to_json(self) -> dict[str, Any]:
        """``{"exact": bool, "worlds": n, "actions": [...]}``; ``total_worlds``, ``seed`` if sampled."""
        out: dict[str, Any] = {"exact": self.exact, "worlds": self.worlds}
        if not self.exact:
            out["total_worlds"] = self.total_worlds
            out["seed"] = self.seed
        out["actions"] = [s.to_json() for s in self.actions]
        return out


def _default_solver() -> Solver:
    from bummerl.search import solve_actions

    return solve_actions


def _check_turn(source: Source) -> None:
    if isinstance(source, View):
        if source.is_over:
            raise AnalysisError("the deal is over: there is nothing to analyse")
        if source.to_move != source.seat:
            raise AnalysisError(f"player {source.to_move} is to move, not this view's seat {source.seat}")
    elif source.to_move != 0:
        raise AnalysisError('the opponent is to move in this puzzle: analysis answers for "me" to move')


def _bummerl_values(source: Source) -> dict[int, float] | None:
    """What each result of the deal (game points for the seat to move) is worth as a chance to win the
    Bummerl from the source's score; None outside a Bummerl (a puzzle, or a view without a score)."""
    if not isinstance(source, View) or source.score is None:
        return None
    table = outcome_values(source.rules, source.score, source.seat, source.dealer)
    return dict(zip(OUTCOMES, table, strict=True))


def _interval(values: list[int], weights: list[float], mean: float, total: int) -> tuple[float, float]:
    n = len(values)
    if n < 2:
        return (-3.0, 3.0)
    wsum = sum(weights)
    spread = sum((w * (v - mean)) ** 2 for v, w in zip(values, weights, strict=True))
    se = math.sqrt(n / (n - 1) * spread) / wsum
    if total > 1:
        se *= math.sqrt(max(total - n, 0) / (total - 1))  # sampled without replacement
    return (max(-3.0, mean - _Z95 * se), min(3.0, mean + _Z95 * se))


def analyse(
    source: Source,
    samples: int | None = None,
    seed: int = 0,
    *,
    weight: Weight | None = None,
    solver: Solver | None = None,
    exact_limit: int = EXACT_LIMIT,
    progress: Callable[[int, int], None] | None = None,
) -> Analysis:
    """Value every legal action of the seat to move over the worlds of ``source`` (a view or a puzzle).

    ``samples``/``seed``/``weight``/``exact_limit`` choose the worlds as :func:`~bummerl.search.worlds.worlds`
    does (a view's default weight drops the worlds its opponent's strict follows rule out,
    :func:`bummerl.bots.inference.rules_weight`); ``solver`` values the actions of one world (the
    open-card solver by default).
    A view with a Bummerl score also gets each action's chance to win the Bummerl (``bummerl_win``).
    ``progress(done, total)`` is called after each world is solved.
    Raises :class:`AnalysisError` when the deal is over or another seat is to move.
    """
    _check_turn(source)
    solve = solver or _default_solver()
    given = weight is not None
    if weight is None and isinstance(source, View):
        from bummerl.bots.inference import rules_weight

        weight = rules_weight(source)
    try:
        ws = worlds(source, samples, seed, weight=weight, exact_limit=exact_limit)
    except ValueError as err:
        raise AnalysisError(str(err)) from None
    if not ws.deals:
        raise AnalysisError("no world is left: the weight function gave every world weight 0" if given else
                            "no world is left: every world sampled breaks a strict follow the opponent "
                            "made: sample more")
    per_action: dict[Action, list[int]] = {}
    order: tuple[Action, ...] = ()
    for i, deal in enumerate(ws.deals):
        values = solve(deal)
        if i == 0:
            order = tuple(values)
            per_action = {a: [] for a in order}
        elif values.keys() != per_action.keys():
            raise AssertionError("worlds of one view disagree on the legal actions (a bug in the worlds)")
        for a, v in values.items():
            per_action[a].append(v)
        if progress is not None:
            progress(i + 1, len(ws.deals))
    weights = list(ws.weights)
    wsum = sum(weights)
    equity = _bummerl_values(source)
    stats = []
    for a in order:
        vals = per_action[a]
        mean = sum(w * v for v, w in zip(vals, weights, strict=True)) / wsum
        wins = sum(w for v, w in zip(vals, weights, strict=True) if v > 0) / wsum
        ci = None if ws.exact else _interval(vals, weights, mean, ws.total)
        chance = None
        if equity is not None:
            chance = sum(w * equity[v] for v, w in zip(vals, weights, strict=True)) / wsum
        stats.append(ActionStats(a, mean, wins, min(vals), ci, chance))
    stats.sort(key=lambda s: (-s.mean, -s.win_share, -s.worst, str(s.action)))
    return Analysis(tuple(stats), ws.exact, len(ws.deals), ws.total, ws.seed)


# ----------------------------------------------------------------------------- for the front ends


@dataclass(frozen=True)
class Mistake:
    """A choice that cost game points on average: what you did, what was best, and the difference."""

    deal_number: int
    trick_number: int
    view: View
    chosen: ActionStats
    best: ActionStats

    @property
    def loss(self) -> float:
        """Mean game points given away by the choice (never negative)."""
        return max(0.0, self.best.mean - self.chosen.mean)


def rate(view: View, samples: int | None = None, seed: int = 0,
         solver: Solver | None = None) -> tuple[tuple[ActionStats, ...], str]:
    """Every legal action of the view, best first, and how the worlds were chosen (exact or sampled), in
    words. Under rules that hide the running points a claim is not rated (rules.md 6: its value would tell
    whether you have 66)."""
    result = analyse(view, samples=samples, seed=seed, solver=solver)
    if result.exact:
        note = f"exact over all {result.worlds:,} world{'s' if result.worlds != 1 else ''}"
    else:
        note = f"sampled {result.worlds:,} of {result.total_worlds:,} worlds"
    actions = result.actions
    if not view.rules.open_tricks and len(actions) > 1 and any(s.action == CLAIM for s in actions):
        actions = tuple(s for s in actions if s.action != CLAIM)
        note += "; a claim is not rated under these rules (it would tell your points)"
    return actions, note


def review(
    decisions: Iterable[tuple[int, View, Action]],
    samples: int,
    progress: Callable[[int, int], None] | None = None,
    solver: Solver | None = None,
) -> list[Mistake]:
    """Analyse each of your decisions ``(deal number, view, action taken)``; the ones that lost game points
    on average, costliest first. ``progress(done, total)`` is called after each decision."""
    todo = list(decisions)
    out: list[Mistake] = []
    for i, (deal_number, view, action) in enumerate(todo):
        stats, _ = rate(view, samples=samples, seed=i, solver=solver)
        chosen = next((s for s in stats if s.action == action), None)
        if chosen is not None and stats[0].mean - chosen.mean > 1e-9:
            out.append(Mistake(deal_number, len(view.trick_log) + 1, view, chosen, stats[0]))
        if progress is not None:
            progress(i + 1, len(todo))
    return sorted(out, key=lambda m: -m.loss)
