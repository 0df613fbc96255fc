"""Perfect Information Monte Carlo: sample the hidden cards, solve each world open-card, play the best mean.

For a view, :class:`PimcBot` draws worlds consistent with it (:mod:`bummerl.search.worlds`; every world
when there are few), asks the open-card solver for the value of each legal action in each world, and
plays the action with the best (weighted) mean. Ties go to the action the heuristic bot prefers, so that
equal-valued cards are played sensibly (the cheap card, not the ace).

Options used by the stronger bots: ``bummerl`` values each result by the chance to win the Bummerl
(:mod:`bummerl.match_equity`) instead of its game points; ``infer`` weights the worlds by the opponent's
earlier play (:mod:`bummerl.bots.inference`).

The worlds drawn depend only on the bot's seed and the view, so a bot's choice is a function of the
two: the same seed and view always give the same action.

>>> from bummerl import Deal, Rules, View
>>> deal = Deal.random(Rules.preset("standard"), 4)
>>> for _ in range(12):
...     deal.apply(deal.legal_actions()[0])
>>> view = View.of(deal, deal.to_move)
>>> PimcBot(seed=1, samples=4).choose(view) in view.legal_actions
True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from random import Random

from bummerl.actions import CLAIM, Action
from bummerl.bots.base import forced_action
from bummerl.bots.heuristic import HeuristicBot
from bummerl.engine import Deal
from bummerl.errors import require_at_least
from bummerl.match_equity import outcome_values
from bummerl.scoring import WIN_POINTS
from bummerl.view import View

__all__ = ["PimcBot", "action_values", "cards_left", "decision_seed", "make_pimc", "mean_values"]

#: Worlds a PIMC decision solves by default, and fewer in the first tricks where solving costs most.
SAMPLES = 60
EARLY_SAMPLES = 30
#: With this many cards still to be played (or more) a decision uses the early budget, and from
#: ``DEAR_CARDS`` on (only in Sixty-Six) a quarter of it.
EARLY_CARDS = 18
DEAR_CARDS = 22


def action_values(deal: Deal) -> dict[Action, int]:
    """The open-card value (game points for the player to move, -3..3) of every legal action.

    >>> from bummerl import Deal, Rules
    >>> deal = Deal.random(Rules.preset("standard"), 3)
    >>> values = action_values(deal)
    >>> set(values) == set(deal.legal_actions()) and all(-3 <= v <= 3 for v in values.values())
    True
    """
    from bummerl.search import solve_actions

    return solve_actions(deal)


def cards_left(view: View) -> int:
    """Cards still to be played in the deal (both hands and the talon), the measure of what a solve costs.

    >>> from bummerl import Deal, Rules
    >>> cards_left(View.of(Deal.random(Rules.preset("standard"), 1), 0))
    20
    """
    return view.rules.pack_size - 2 * len(view.trick_log) - (view.lead_card is not None)


def decision_seed(seed: int | None, view: View) -> int:
    """A seed for one decision from the bot's seed and the view's public state (so a bot that sees the
    same thing twice does the same thing).

    >>> from bummerl import Deal, Rules, View
    >>> v = View.of(Deal.random(Rules.preset("standard"), 1), 0)
    >>> decision_seed(3, v) == decision_seed(3, v) != decision_seed(4, v)
    True
    """
    key = f"{seed}/{view.seat}/{view.history_length}/{view.hand_mask}/{view.points}/{view.talon_size}"
    return Random(key).getrandbits(62)


def mean_values(
    view: View,
    deals: Sequence[Deal],
    weights: Sequence[float],
    values: Callable[[Deal], dict[Action, int]] = action_values,
    bummerl: bool = False,
) -> dict[Action, float]:
    """The weighted mean value of each legal action over ``deals`` (worlds of ``view``); each world's
    game points go through :func:`~bummerl.match_equity.outcome_values` when ``bummerl`` is set.

    >>> from bummerl import Deal, Rules
    >>> from bummerl.search.worlds import worlds
    >>> view = View.of(Deal.random(Rules.preset("standard"), 3), 0)
    >>> ws = worlds(view, samples=3, seed=1)
    >>> means = mean_values(view, ws.deals, ws.weights)
    >>> set(means) == set(view.legal_actions) and all(-3 <= m <= 3 for m in means.values())
    True
    """
    table = outcome_values(view.rules, view.score if bummerl else None, view.seat, view.dealer)
    totals = dict.fromkeys(view.legal_actions, 0.0)
    mass = 0.0
    for deal, w in zip(deals, weights, strict=True):
        for action, v in values(deal).items():
            if action in totals:
                totals[action] += w * table[v + 3]
        mass += w
    return {a: t / mass for a, t in totals.items()} if mass else totals


class PimcBot:
    """Perfect Information Monte Carlo over ``samples`` worlds (``early_samples`` while the talon holds
    8 or more cards), optionally playing for the Bummerl and weighting worlds by inference."""

    name = "pimc"

    def __init__(
        self,
        seed: int | None = None,
        samples: int = SAMPLES,
        early_samples: int | None = None,
        *,
        bummerl: bool = False,
        infer: bool = False,
        read_leads: bool = False,
        name: str = "pimc",
        values: Callable[[Deal], dict[Action, int]] = action_values,
    ) -> None:
        require_at_least("samples", samples, 1)
        if early_samples is not None:
            require_at_least("early_samples", early_samples, 1)
        self.seed = seed if seed is not None else Random().getrandbits(62)
        self.samples = samples
        self.early_samples = min(samples, EARLY_SAMPLES) if early_samples is None else early_samples
        self.bummerl = bummerl
        self.infer = infer
        self.read_leads = read_leads
        self.name = name
        self.values = values
        #: Unseen cards this bot has been told are in the opponent's hand (a card mask): 0 for every fair
        #: bot; a yardstick sets it for one decision (:class:`~bummerl.bots.cheater.PeekingBot`).
        self.known = 0
        self._tiebreak = HeuristicBot(self.seed)

    def choose(self, view: View) -> Action:
        """The action with the best mean over the sampled worlds."""
        if (forced := forced_action(view)) is not None:
            return forced
        if CLAIM in view.legal_actions and view.points[view.seat] >= WIN_POINTS:
            return CLAIM  # a correct claim is never worse than playing on (rules.md 7)
        means = self.evaluate(view)
        return self.pick(view, means)

    def evaluate(self, view: View) -> dict[Action, float]:
        """The mean value of every legal action over this decision's worlds."""
        deals, weights = self.sample(view)
        return mean_values(view, deals, weights, self.values, self.bummerl)

    def budget(self, view: View) -> int:
        """Worlds for this decision, by how many cards are still to be played (what a solve costs):
        ``early_samples`` from 18 on (the first two tricks of Schnapsen), a quarter of them from 22 on
        (Sixty-Six's first tricks, about ten times dearer), else ``samples``.

        >>> from bummerl import Deal, Rules
        >>> bot = PimcBot(1, samples=60, early_samples=32)
        >>> [bot.budget(View.of(Deal.random(Rules.preset(p), 1), 0)) for p in ("standard", "sixty-six")]
        [32, 8]
        """
        left = cards_left(view)
        if not view.talon_open or left < EARLY_CARDS:
            return self.samples
        if left >= DEAR_CARDS:
            return max(1, self.early_samples // 4)
        return self.early_samples

    def sample(self, view: View, n: int | None = None) -> tuple[list[Deal], list[float]]:
        """This decision's worlds and their weights: ``n`` of them, by default ``samples`` (fewer in the
        first tricks).

        With ``infer`` a pool three times as large is weighted by the inference and ``samples`` worlds
        it does not rule out are kept (all of the pool if it rules out every one)."""
        from bummerl.search.worlds import worlds

        n = self.budget(view) if n is None else n
        seed = decision_seed(self.seed, view)
        if not self.infer:
            ws = worlds(view, samples=n, seed=seed, known=self.known)
            return list(ws.deals), list(ws.weights)
        from bummerl.bots.inference import lead_likelihood, world_weight

        ws = worlds(view, samples=3 * n, seed=seed, weight=world_weight(view), known=self.known)
        if not ws.deals:  # nothing left: the opponent played against the model; forget the inference
            ws = worlds(view, samples=n, seed=seed, known=self.known)
        pairs = list(zip(ws.deals, ws.weights, strict=True))
        if len(pairs) > n:
            Random(seed).shuffle(pairs)
            pairs = pairs[:n]
        likely = lead_likelihood(view, self.values) if self.read_leads else None
        if likely is not None:
            pairs = [(d, w * likely(d)) for d, w in pairs]
        return [d for d, _ in pairs], [w for _, w in pairs]

    def pick(self, view: View, means: dict[Action, float]) -> Action:
        """The best action; among equals, the one the heuristic bot prefers."""
        best = max(means.values())
        top = [a for a in view.legal_actions if means[a] >= best - 1e-9]
        if len(top) == 1:
            return top[0]
        return self._tiebreak.choose_among(view, top)


def make_pimc(seed: int | None = None) -> PimcBot:
    """The registry's factory for ``pimc``.

    >>> make_pimc(1).samples
    60
    """
    return PimcBot(seed)
