"""Use the time: a thinking budget that spends worlds where a decision is close (issue 16, candidate).

:class:`ThinkingExpert` is the expert (:class:`~bummerl.bots.expert.ExpertBot`) with a budget ``think``.
It first evaluates a decision exactly as the expert does (the same worlds, weights, lookahead and
repairs). Then it asks whether more thinking could change the choice: over the worlds, the best and the
runner-up action are compared world by world (*paired*: both are valued in the same worlds, so what the
worlds share cancels), giving the mean difference ``gap`` and its standard error ``se``
(:func:`margin`). One action dominates when ``gap >= z * se`` (or the two differ in no world at all):
then the expert's choice stands and nothing more is spent. Otherwise, while the budget allows:

1. in the first two tricks, where the expert keeps plain PIMC, the **one-step lookahead** is switched on
   over the same worlds (the expert's ``look_from`` moved earlier, for this decision only);
2. **more worlds** are drawn, in batches (half as many as so far) from fresh seeds derived from the bot's
   seed and the view, until the gap is clear or the budget is spent (or every world is already in).

The play stays a function of the bot's seed and the view: nothing stops on a clock. The budget is one of
*estimated* seconds: each open-card solve is charged by the cards still to be played, with
:data:`SOLVE_MS`, mean solve times measured once on this machine. ``think`` sets the most a close
decision may spend, ``SPREAD * think`` estimated seconds; a decision where one action dominates costs what
the expert's does. The base evaluation is always made, even when it alone is dearer than the budget.

In Sixty-Six's first two tricks (more than ``think_from`` = 20 cards still to be played, which Schnapsen
never has) it thinks no more than the expert: one solve's cost there varies sixfold between deals, so an
estimated budget cannot bound the time.

``think=0`` plays exactly as the expert (and in Schnapsen as ``expert-v1``, which differs from the expert
only in Sixty-Six). The evaluation is rewritten here in columns (the value of each action in each world,
see :func:`fused_columns`), so that the standard error can be taken; its means are the expert's own
(tested against ``ExpertBot.evaluate`` and ``ExpertBot._own_next``). To fold it into the expert,
``_own_next`` is the weighted mean of :func:`fused_columns` over :func:`branch`, and ``evaluate`` becomes
:class:`ThinkingExpert`'s with ``think=0`` as the default.

**Calibration** (on this 2-core machine, shared with other jobs, so in processor time): the solve costs
with :func:`measure_solve_ms`; then ``think=0.5`` playing against ``expert-v1`` on the arena's decks, every
``choose`` timed (per decision, processor time; wall time under a load average of about 9 was 4 to 7 times
longer and says nothing about a quiet machine):

- standard, 8 deck pairs (142 decisions): median 41 ms, p95 2.35 s, max 4.2 s; 34 of 128 choices thought
  beyond the expert, 11 of them switching the lookahead on in the first two tricks. The estimate was 58 s
  against 70 s of processor time in all (the lookahead's bookkeeping is not charged).
- sixty-six, 5 deck pairs (82 decisions): median 30 ms, p95 0.88 s, max 1.2 s (before ``think_from``: p95
  4.2 s, max 12.4 s, a first lead whose 38 solves took 0.33 s each).

``SPREAD`` = 4 (a close decision may spend 2 estimated seconds at ``think=0.5``) keeps the p95 under 3 s;
the median is the expert's, as most decisions are settled at once or cost little.

**Screening** (issue 16's protocol, one run decided before it started, at ``a8058b5``, which plays
Schnapsen as today's code): ``python scripts/compare_bots.py expert-v1
"bummerl.bots.thinking.ThinkingExpert:think=0.5" --opponent expert-v1 --pairs 300 --seed 16 --workers 2``
gave **+0.003 [-0.064, +0.070]** game points per deal over ``expert-v1``, 172 of the 600 deals played
differently (29%), at 3.8 times its thinking time (6697 s against 1743 s, wall time on the loaded
machine): no measurable gain. Spending the time where the margin is small changes many deals but not
their result, in line with the README's earlier finding that more worlds and an earlier lookahead give
little (+0.006 and +0.018 game points per deal as blanket changes).

>>> from bummerl import Deal, Rules, View
>>> deal = Deal.random(Rules.preset("standard"), 4)
>>> for _ in range(12):
...     deal.apply(deal.legal_actions()[0])
>>> view = View.of(deal, deal.to_move, score=(3, 5))
>>> bot = ThinkingExpert(seed=1, think=0.01, samples=8, lookahead=8)
>>> bot.choose(view) in view.legal_actions
True
>>> bot.last.spent <= max(bot.last.budget, bot.last.base_cost)
True
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from math import exp, sqrt
from random import Random

from bummerl.actions import Action
from bummerl.bots.expert import ExpertBot, Values, answered
from bummerl.bots.inference import world_tilt
from bummerl.bots.pimc import EARLY_CARDS, cards_left, decision_seed
from bummerl.engine import Deal
from bummerl.errors import BummerlError
from bummerl.match_equity import outcome_values
from bummerl.rules import Rules
from bummerl.view import View

__all__ = [
    "Branch",
    "Margin",
    "ThinkingExpert",
    "Thought",
    "branch",
    "fused_columns",
    "make_thinking_expert",
    "margin",
    "measure_solve_ms",
    "solve_seconds",
]

#: Mean milliseconds of processor time of one open-card solve of every legal action (``solve_actions``),
#: by the cards still to be played (index 0 to the pack size), per pack size (20: Schnapsen, 24:
#: Sixty-Six): measured once on this 2-core machine on every decision with a choice of heuristic self-play,
#: 200 deals of ``standard`` and 60 of ``sixty-six`` (:func:`measure_solve_ms`), made non-decreasing in the
#: cards. Processor time, as the machine was shared (wall times were 2.6 times longer at 20 cards);
#: means, not medians, as the cost is heavy-tailed (standard, 20 cards, wall time: median 1.6 ms, mean
#: 7.4 ms) and a budget adds costs up.
SOLVE_MS: dict[int, tuple[float, ...]] = {
    20: (0, 0, 0.0119, 0.0119, 0.0119, 0.0119, 0.0119, 0.0119, 0.0141, 0.0141, 0.0197, 0.0209, 0.0334,
         0.0642, 0.107, 0.191, 0.273, 0.566, 0.928, 1.74, 2.84),
    24: (0, 0, 0, 0.0071, 0.00897, 0.00897, 0.0107, 0.0107, 0.0123, 0.0123, 0.0157, 0.0157, 0.0199,
         0.0412, 0.0668, 0.0954, 0.181, 0.449, 0.816, 1.71, 2.4, 5.67, 13.6, 37.2, 52.3),
}
#: The most a close decision may spend: ``SPREAD * think`` estimated seconds.
SPREAD = 4.0
#: Extra thinking only with at most this many cards still to be played: never in Sixty-Six's first two
#: tricks (more cards than Schnapsen ever has), where one solve's cost varies sixfold between deals (a first
#: lead took 0.33 s of processor time per solve against the mean 52 ms), so that an estimated budget cannot
#: bound the time there (4.2 s p95 with it, see the module's note).
THINK_FROM = 20
#: A decision is settled once the best action leads the runner-up by ``Z`` standard errors.
Z = 2.0
#: Differences below this many game points are not worth thinking about (two actions this close are
#: equal for the play).
EPSILON = 0.01
#: New worlds are drawn in batches of half the worlds so far (at least this many), so that the margin is
#: taken again a few times, not once per world.
MIN_BATCH = 8
#: The longest thinking budget a name may ask for, in seconds per decision.
MOST_THINK = 60

SeenKey = tuple[tuple[Action, ...], int]


def solve_seconds(rules: Rules, left: int) -> float:
    """The estimated seconds of one open-card solve with ``left`` cards still to be played.

    >>> from bummerl import Rules
    >>> solve_seconds(Rules.preset("standard"), 0)
    0.0
    >>> s = solve_seconds(Rules.preset("sixty-six"), 24)
    >>> s >= solve_seconds(Rules.preset("sixty-six"), 12) >= 0
    True
    """
    table = SOLVE_MS[24] if rules.pack_size > 20 else SOLVE_MS[20]
    return table[max(0, min(left, len(table) - 1))] / 1000


def measure_solve_ms(rules: Rules, deals: int, seed: int = 7) -> tuple[float, ...]:
    """Mean milliseconds of one ``solve_actions`` by the cards still to be played, over every decision with
    a choice in ``deals`` deals of heuristic self-play, made non-decreasing in the cards (a count never
    seen costs what the next smaller one does): how :data:`SOLVE_MS` was measured, with
    ``measure_solve_ms(Rules.preset("standard"), 200)`` and ``(Rules.preset("sixty-six"), 60)``.

    >>> from bummerl import Rules
    >>> costs = measure_solve_ms(Rules.preset("standard"), 1)
    >>> len(costs), costs[0], all(a <= b for a, b in zip(costs, costs[1:]))
    (21, 0.0, True)
    """
    import time

    from bummerl.bots.heuristic import HeuristicBot
    from bummerl.search import solve_actions

    rng = Random(seed)
    times: dict[int, list[float]] = {}
    for k in range(deals):
        deal = Deal.random(rules, rng.getrandbits(32))
        bots = (HeuristicBot(2 * k), HeuristicBot(2 * k + 1))
        while deal.outcome is None:
            view = View.of(deal, deal.to_move)
            if len(view.legal_actions) > 1:
                start = time.process_time()
                solve_actions(deal)
                times.setdefault(cards_left(view), []).append((time.process_time() - start) * 1000)
            deal.apply(bots[deal.to_move].choose(view))
    costs = [0.0]
    for left in range(1, rules.pack_size + 1):
        seen = times.get(left)
        costs.append(max(costs[-1], sum(seen) / len(seen) if seen else 0.0))
    return tuple(costs)


@dataclass(frozen=True, slots=True)
class Branch:
    """What follows one of my actions in one world up to my next decision: what I will have seen by then
    (the opponent's moves and my hand; None when the deal ended on the way) and my next actions' values
    there, in table units (or the deal's value ``ended``)."""

    seen: SeenKey | None
    values: Mapping[Action, float]
    ended: float = 0.0


def branch(deal: Deal, action: Action, table: Sequence[float], values: Values) -> Branch:
    """Play ``action`` in the open world ``deal``; the opponent answers with its open-card best (the first
    of equals) until I am to move again or the deal ends.

    >>> from bummerl import Deal, Rules
    >>> from bummerl.bots.pimc import action_values
    >>> deal = Deal.random(Rules.preset("standard"), 3)
    >>> b = branch(deal, deal.legal_actions()[0], (-3, -2, -1, 0, 1, 2, 3), action_values)
    >>> b.seen is not None and all(-3 <= v <= 3 for v in b.values.values())
    True
    """
    me = deal.to_move
    after, seen = answered(deal, action, values)
    if after.outcome is not None:
        return Branch(None, {}, table[after.outcome.value_for(me) + 3])
    return Branch((tuple(seen), after.hands[me]), {b: table[v + 3] for b, v in values(after).items()})


def fused_columns(branches: Sequence[Branch], weights: Sequence[float]) -> list[float]:
    """One action's value in each world when my next decision is made once for what I will have seen:
    per group of worlds that look alike to me, the one next action best over the group, valued in each
    world of it. Their weighted mean is the expert's lookahead value ``sum_groups max_b sum_w v(b, w)``
    (divided by the weights), and each world keeps its own part of it, for the standard error.

    >>> from bummerl.actions import Action
    >>> a, b = Action.parse("play AS"), Action.parse("play TS")
    >>> same = ((), 0)
    >>> fused_columns([Branch(same, {a: 1.0, b: 0.0}), Branch(same, {a: -1.0, b: 2.0})], [1.0, 1.0])
    [0.0, 2.0]
    """
    totals: dict[SeenKey, dict[Action, float]] = {}
    for br, w in zip(branches, weights, strict=True):
        if br.seen is not None:
            group = totals.setdefault(br.seen, {})
            for b, v in br.values.items():
                group[b] = group.get(b, 0.0) + w * v
    best = {key: max(group, key=group.__getitem__) for key, group in totals.items()}
    return [br.ended if br.seen is None else br.values[best[br.seen]] for br in branches]


@dataclass(frozen=True, slots=True)
class Margin:
    """How far the best action leads the runner-up: the weighted mean of their paired difference over the
    worlds (``gap``, offsets included) and its standard error ``se``."""

    best: Action
    runner_up: Action
    gap: float
    se: float


def margin(columns: Mapping[Action, Sequence[float]], weights: Sequence[float],
           offsets: Mapping[Action, float] | None = None) -> Margin:
    """The best action's lead over the runner-up (by weighted mean plus ``offsets``), paired over worlds.

    The standard error is the weighted mean's: ``sqrt(sum w^2 (d - mean)^2) / sum w`` over the per-world
    differences ``d``.

    >>> from bummerl.actions import Action
    >>> a, b = Action.parse("play AS"), Action.parse("play TS")
    >>> m = margin({a: [1.0, 2.0, 3.0], b: [0.0, 1.0, 2.0]}, [1.0, 1.0, 1.0])
    >>> m.best == a, m.gap, m.se
    (True, 1.0, 0.0)
    """
    mass = sum(weights)
    shift = offsets or {}
    means = {a: sum(w * v for w, v in zip(weights, col, strict=True)) / mass + shift.get(a, 0.0)
             for a, col in columns.items()}
    ranked = sorted(means, key=lambda a: -means[a])
    best, second = ranked[0], ranked[1] if len(ranked) > 1 else ranked[0]
    diffs = [x - y for x, y in zip(columns[best], columns[second], strict=True)]
    mean_diff = sum(w * d for w, d in zip(weights, diffs, strict=True)) / mass
    var = sum(w * w * (d - mean_diff) ** 2 for w, d in zip(weights, diffs, strict=True)) / (mass * mass)
    return Margin(best, second, means[best] - means[second], sqrt(var))


@dataclass
class Thought:
    """What the last decision spent, for tests and benchmarks: estimated seconds of the base evaluation
    and in all, the open-card solves made, the budget, worlds used, whether the lookahead ran and the
    margin after each step."""

    base_cost: float = 0.0
    spent: float = 0.0
    solves: int = 0
    budget: float = 0.0
    worlds: int = 0
    base_worlds: int = 0
    look: bool = False
    margins: list[Margin] = field(default_factory=list)


class _Decision:
    """One decision's worlds and values, in columns; grows by worlds and by switching the lookahead on."""

    def __init__(self, bot: ThinkingExpert, view: View, look: bool) -> None:
        self.bot, self.view, self.look = bot, view, look
        self.left = cards_left(view)
        self.table = outcome_values(view.rules, view.score if bot.bummerl else None, view.seat, view.dealer)
        self.tilt = world_tilt(view) if bot.infer else 0.0
        self.deals: list[Deal] = []
        self.weights: list[float] = []
        self.roots: list[dict[Action, int] | None] = []
        self.branches: dict[Action, list[Branch]] = {}
        self.spent = 0.0
        self.solves = 0

    def values(self, deal: Deal) -> dict[Action, int]:
        """The bot's open-card values, counted."""
        self.solves += 1
        return self.bot.values(deal)

    def _cost(self, left: int) -> float:
        return solve_seconds(self.view.rules, left)

    def branch_cost(self, action: Action) -> float:
        """Estimated seconds of one world's branch after ``action``: the opponent's answer and my next
        decision after a card, my next decision after an action that keeps me on move."""
        if action.kind == "claim":
            return 0.0
        if action.kind == "play":
            return self._cost(self.left - 1) + self._cost(self.left - 2)
        return self._cost(self.left)

    def _branched(self, look: bool) -> list[Action]:
        return [a for a in self.view.legal_actions if look or a.kind in self.bot.fusion]

    def world_cost(self, look: bool | None = None) -> float:
        """Estimated seconds of one more world (with the lookahead when ``look``)."""
        look = self.look if look is None else look
        root = self._cost(self.left) if self.tilt or not look else 0.0
        return root + sum(self.branch_cost(a) for a in self._branched(look))

    def add(self, deals: Sequence[Deal], weights: Sequence[float]) -> None:
        """Value these worlds (root solves where needed, branches of the actions that take them)."""
        for deal, w in zip(deals, weights, strict=True):
            root = self.values(deal) if self.tilt or not self.look else None
            if self.tilt and root is not None:
                w *= exp(self.tilt * max(root.values()))
            self.deals.append(deal)
            self.weights.append(w)
            self.roots.append(root)
            for a in self._branched(self.look):
                self.branches.setdefault(a, []).append(branch(deal, a, self.table, self.values))
            self.spent += self.world_cost()

    def switch_look(self) -> None:
        """Switch the lookahead on over the worlds already drawn."""
        for a in self._branched(True):
            if a not in self.branches:
                self.branches[a] = [branch(d, a, self.table, self.values) for d in self.deals]
                self.spent += self.branch_cost(a) * len(self.deals)
        self.look = True

    def columns(self) -> dict[Action, list[float]]:
        """Each legal action's value in each world (table units), as the expert values it."""
        cols: dict[Action, list[float]] = {}
        for a in self.view.legal_actions:
            if a in self.branches and (self.look or a.kind in self.bot.fusion):
                cols[a] = fused_columns(self.branches[a], self.weights)
            else:
                cols[a] = [self.table[root[a] + 3] for root in self.roots if root is not None]
        return cols

    def offsets(self) -> dict[Action, float]:
        """The close bias, in table units."""
        bias = self.bot.close_bias * (self.table[-1] - self.table[0]) / 6
        return {a: -bias for a in self.view.legal_actions if a.kind == "close" and bias}

    def means(self) -> dict[Action, float]:
        mass = sum(self.weights)
        shift = self.offsets()
        return {a: sum(w * v for w, v in zip(self.weights, col, strict=True)) / mass + shift.get(a, 0.0)
                for a, col in self.columns().items()}

    def margin(self) -> Margin:
        return margin(self.columns(), self.weights, self.offsets())


class ThinkingExpert(ExpertBot):
    """The expert that spends up to ``SPREAD * think`` estimated seconds on a close decision (see the
    module's note). ``z``: the margin, in standard errors, at which a decision is settled; ``look_early``:
    whether a close decision in the first two tricks switches the lookahead on; ``think_from``: the most
    cards still to be played at which it thinks beyond the expert. Other keywords are the expert's
    (``pv_worlds`` is not supported)."""

    def __init__(self, seed: int | None = None, think: float = 0.5, *, z: float = Z, look_early: bool = True,
                 think_from: int = THINK_FROM, name: str = "expert-think", **kwargs: object) -> None:
        super().__init__(seed, name=name, **kwargs)  # type: ignore[arg-type]
        if self.pv_worlds:
            raise BummerlError("the thinking expert does not support pv_worlds")
        if think < 0:
            raise BummerlError(f"think must not be negative, got {think}")
        self.think = think
        self.z = z
        self.look_early = look_early
        self.think_from = think_from
        self.last = Thought()

    def evaluate(self, view: View) -> dict[Action, float]:
        """The expert's values of every legal action, refined while the decision is close."""
        left = cards_left(view)
        hides = view.talon_open or view.closed_by >= 0
        look = self.lookahead > 0 and hides and left < self.look_from
        deals, weights = self.sample(view, self.lookahead if look and left < EARLY_CARDS else None)
        decision = _Decision(self, view, look)
        decision.add(deals, weights)
        budget = SPREAD * self.think if left <= self.think_from else 0.0
        thought = Thought(base_cost=decision.spent, budget=budget, base_worlds=len(deals))
        self.last = thought
        if budget > 0:
            self._think(view, decision, thought, can_look=self.look_early and self.lookahead > 0 and hides)
        thought.spent, thought.worlds, thought.look = decision.spent, len(decision.deals), decision.look
        thought.solves = decision.solves
        return decision.means()

    def _settled(self, decision: _Decision, thought: Thought) -> bool:
        m = decision.margin()
        thought.margins.append(m)
        scale = (decision.table[-1] - decision.table[0]) / 6  # table units per game point
        return m.se <= EPSILON * scale or m.gap >= self.z * m.se

    def _think(self, view: View, decision: _Decision, thought: Thought, can_look: bool) -> None:
        from bummerl.search.worlds import count_worlds

        budget = thought.budget
        if self._settled(decision, thought):
            return
        if can_look and not decision.look:
            extra = sum(decision.branch_cost(a) for a in decision._branched(True)
                        if a not in decision.branches) * len(decision.deals)
            if decision.spent + extra <= budget:
                decision.switch_look()
                if self._settled(decision, thought):
                    return
        total = count_worlds(view)
        round_ = 0
        while len(decision.deals) < total:
            batch = max(MIN_BATCH, len(decision.deals) // 2)
            per_world = decision.world_cost()
            if per_world <= 0:  # nothing to solve (one card each): more worlds cannot change anything
                return
            n = min(batch, int((budget - decision.spent) / per_world), total - len(decision.deals))
            if n < 1:
                return
            round_ += 1
            deals, weights = self._fresh(view, n, round_)
            decision.add(deals, weights)
            if self._settled(decision, thought):
                return

    def _fresh(self, view: View, n: int, round_: int) -> tuple[list[Deal], list[float]]:
        """``n`` more worlds, drawn as the expert draws its own but from a seed of their own."""
        other = copy.copy(self)
        other.seed = Random(f"{decision_seed(self.seed, view)}/think/{round_}").getrandbits(62)
        return other.sample(view, n)


def make_thinking_expert(seed: int | None = None, *, think: float = 0.5) -> ThinkingExpert:
    """The registry's factory for ``expert-think`` (a candidate, not public): ``expert-think:think=2``.

    >>> make_thinking_expert(1).think, make_thinking_expert(1, think=2).think
    (0.5, 2)
    >>> make_thinking_expert(1, think=10**40)
    Traceback (most recent call last):
    ...
    bummerl.errors.BummerlError: think is seconds per decision, more than 0 and at most 60, not 1e+40
    """
    if not 0 < think <= MOST_THINK:
        raise BummerlError(f"think is seconds per decision, more than 0 and at most {MOST_THINK}, "
                           f"not {think:g}")
    return ThinkingExpert(seed, think)
