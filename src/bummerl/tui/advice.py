"""Help while learning: the value of each action in a position, and the costliest choices of a game.

A thin adapter over :func:`bummerl.analysis.analyse` (per-action mean game points over the worlds
consistent with what you know), so the screens need not know its result's shape.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from bummerl.actions import Action
from bummerl.view import View

__all__ = ["AnalysisUnavailable", "Mistake", "Rating", "rate", "review"]


class AnalysisUnavailable(RuntimeError):
    """The analysis module is not installed in this version."""


@dataclass(frozen=True)
class Rating:
    """One action's value for you: mean game points (won minus lost), share of worlds won, worst case."""

    action: Action
    mean: float
    win_share: float | None = None
    worst: float | None = None


@dataclass(frozen=True)
class Mistake:
    """A choice that cost game points on average: what you did, what was best, and the difference."""

    deal_number: int
    trick_number: int
    view: View
    chosen: Rating
    best: Rating

    @property
    def loss(self) -> float:
        """Mean game points given away by the choice (never negative)."""
        return max(0.0, self.best.mean - self.chosen.mean)


def _get(obj: Any, *names: str) -> Any:
    for name in names:
        if isinstance(obj, dict) and name in obj:
            return obj[name]
        if hasattr(obj, name):
            return getattr(obj, name)
    return None


def _ratings(result: Any) -> list[Rating]:
    """Read the analysis result: a list of per-action entries, or an object or dict holding one."""
    entries = result
    holder = _get(result, "actions", "ratings", "values", "results")
    if holder is not None and not isinstance(result, list):
        entries = holder
    if isinstance(entries, dict):
        entries = [{"action": k, **(v if isinstance(v, dict) else {"mean": v})} for k, v in entries.items()]
    out: list[Rating] = []
    for entry in entries:
        action = _get(entry, "action")
        action = action if isinstance(action, Action) else Action.parse(str(action))
        mean = _get(entry, "mean", "mean_game_points", "value", "score")
        share = _get(entry, "win_share", "win_rate", "wins")
        worst = _get(entry, "worst", "min")
        out.append(Rating(action, float(mean), None if share is None else float(share),
                          None if worst is None else float(worst)))
    return sorted(out, key=lambda r: -r.mean)


def rate(view: View, samples: int | None = None, seed: int = 0) -> tuple[list[Rating], str]:
    """Every legal action of the view, best first, and how it was computed (exact or sampled)."""
    try:
        from bummerl.analysis import analyse

        result = analyse(view, samples=samples, seed=seed)
    except ImportError as err:
        raise AnalysisUnavailable("the analysis is not available in this version of bummerl") from err
    how = _get(result, "method", "kind", "mode")
    worlds = _get(result, "worlds", "samples", "n_worlds")
    exact = _get(result, "exact")
    if how is None:
        how = "exact" if exact else "sampled"
    note = f"{how}" + (f" over {worlds} worlds" if isinstance(worlds, int) else "")
    return _ratings(result), note


def review(
    decisions: Iterable[tuple[int, View, Action]],
    samples: int,
    progress: Callable[[int, int], None] | None = None,
    total: int | None = None,
) -> list[Mistake]:
    """Analyse each of your decisions and return the ones that lost game points, costliest first."""
    todo = list(decisions)
    count = total if total is not None else len(todo)
    out: list[Mistake] = []
    for i, (deal_number, view, action) in enumerate(todo):
        ratings, _ = rate(view, samples=samples, seed=i)
        chosen = next((r for r in ratings if r.action == action), None)
        if chosen is not None and ratings and ratings[0].mean - chosen.mean > 1e-9:
            trick = len(view.tricks) + 1
            out.append(Mistake(deal_number, trick, view, chosen, ratings[0]))
        if progress is not None:
            progress(i + 1, count)
    return sorted(out, key=lambda m: -m.loss)
