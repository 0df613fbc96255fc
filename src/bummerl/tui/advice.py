"""Help while learning: the value of each action in your position, and the costliest choices of a game.

Both ask :func:`bummerl.analysis.analyse` (per-action mean game points over the worlds consistent with
what you know); this module only words the answer and walks a game's decisions.

>>> from bummerl import Deal, Rules, View
>>> def claims_win(deal):  # a stand-in solver: a claim is worth 1, anything else 0
...     return {a: int(a.kind == "claim") for a in deal.legal_actions()}
>>> deal = Deal.random(Rules.preset("standard"), 2)
>>> stats, note = rate(View.of(deal, deal.to_move), samples=3, solver=claims_win)
>>> note, len(stats) == len(deal.legal_actions())
('sampled 3 of 726,485,760 worlds', True)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bummerl.actions import CLAIM, Action
from bummerl.view import View

if TYPE_CHECKING:
    from bummerl.analysis import ActionStats, Solver

__all__ = ["AnalysisUnavailable", "Mistake", "rate", "review"]


class AnalysisUnavailable(RuntimeError):
    """The analysis (or the solver it needs) is not available in this version."""


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
    """Every legal action of the view, best first, and how the worlds were chosen (exact or sampled)."""
    try:
        from bummerl.analysis import analyse

        try:
            result = analyse(view, samples=samples, seed=seed, solver=solver)
        except ImportError:
            if solver is not None:
                raise
            # The analysis' own open-card solver is not exported yet: the one the PIMC bots use.
            from bummerl.bots.pimc import action_values

            result = analyse(view, samples=samples, seed=seed, solver=action_values)
    except ImportError as err:
        raise AnalysisUnavailable("the analysis is not available in this version of bummerl") from err
    if result.exact:
        note = f"exact over all {result.worlds:,} world{'s' if result.worlds != 1 else ''}"
    else:
        note = f"sampled {result.worlds:,} of {result.total_worlds:,} worlds"
    actions = result.actions
    if not view.rules.open_tricks and len(actions) > 1 and any(s.action == CLAIM for s in actions):
        # Rules that hide the running points (rules.md 6): a rated claim would tell whether you have 66.
        actions = tuple(s for s in actions if s.action != CLAIM)
        note += "; a claim is not rated under these rules (it would tell your points)"
    return actions, note


def review(
    decisions: Iterable[tuple[int, View, Action]],
    samples: int,
    progress: Callable[[int, int], None] | None = None,
    solver: Solver | None = None,
) -> list[Mistake]:
    """Analyse each of your decisions; the ones that lost game points on average, costliest first.

    ``progress(done, total)`` is called after each decision.
    """
    todo = list(decisions)
    out: list[Mistake] = []
    for i, (deal_number, view, action) in enumerate(todo):
        stats, _ = rate(view, samples=samples, seed=i, solver=solver)
        chosen = next((s for s in stats if s.action == action), None)
        if chosen is not None and stats[0].mean - chosen.mean > 1e-9:
            out.append(Mistake(deal_number, len(view.tricks) + 1, view, chosen, stats[0]))
        if progress is not None:
            progress(i + 1, len(todo))
    return sorted(out, key=lambda m: -m.loss)
