"""Information-set max search over sampled worlds: strategy fusion removed where it matters most.

Plain PIMC values an action as if I would see the hidden cards at every later decision of mine (Frank
and Basin's *strategy fusion*); the expert's one-step lookahead repairs only my next decision. This
module repairs all of them down to the end of the deal, in the spirit of Cazenave and Ventos' alpha-mu
search (2020, for Bridge):

- the **opponent** answers in each world with its open-card best (the first of equals), as in
  :meth:`~bummerl.bots.expert.ExpertBot._own_next`: it is taken to see every card;
- **my** decisions are made once per *group* of worlds I cannot tell apart (the same actions seen, the
  same own hand), recursively: ``V(G) = max_a sum over the groups G' after a of V(G')``, the opponent's
  per-world replies played until I am next to move; a deal that ends on the way counts with its result,
  a group of one world with its open-card value (the solver's). Values are in the expert's match-equity
  units (:func:`~bummerl.match_equity.outcome_values`), summed with the worlds' weights.

Since a group's open-card mean ``sum_w max_b v(b, w)`` bounds its value from above, the search prunes
like alpha-beta: my actions are tried in the order of that bound and an action, or a group, is left as
soon as its bound cannot beat the best found. The result never exceeds PIMC's value over the same worlds,
nor the one-step lookahead's; it equals PIMC's with one world (``depth=1`` is PIMC, ``depth=2`` the
one-step lookahead). Its cost is bounded by a budget of open-card solves, each counted by what it costs
(:func:`solve_cost`; ``max_solves``, about 0.4 s); past it the search gives up (None) and the caller keeps
its own value, so play depends only on the seed and the view, never on the clock.

:class:`AlphaMuExpert` is expert-v1 with the search used (a) for the value of closing whenever closing is
legal, without v1's fixed 0.17 game-point discount (``close_all=True``: for every action of that decision,
so that closing and playing on are compared alike), and (b) for every action while the talon is closed
and cards are still hidden; ``open_talon=4`` also uses it for every action once the open talon holds at
most four cards.

What it found in development runs (decks of seeds 61 and 77, not the screening's): in the closed game the
full search almost never differs from the one-step lookahead (0 changed choices in 36 closed-talon
decisions of expert-v1 self-play); it lowers PIMC's value of closing in the first tricks by about 0.04 game
points, less than the 0.17 that v1 subtracts, and PIMC's value of playing on there by 0 to 0.17. Valuing
only the close by the search without v1's discount closed more often than v1 (22 closes against 15 in
80 deals against expert-v1, 15 and 12 of them won); searching every action of a closing decision closed
as often (16, 12 won).

Screening (plan of session 4: ``scripts/compare_bots.py expert-v1 "bummerl.bots.alphamu.AlphaMuExpert:
close_all=True" --opponent expert-v1 --pairs 300 --seed 16``): +0.000 [+0.000, +0.000] game points per
deal against expert-v1; only 6 of the 600 deals were played differently, and in those the candidate
closed as often as expert-v1 (3 times, all won), so it closes exactly as often on these decks. The
search rarely changes a decision: the one-step lookahead with v1's discount already decides like it.
Thinking time per decision, timed interleaved with the expert on the same views (all decisions, a loaded
2-core machine): standard, 91 decisions at load 6: median 0.090 s, p95 1.46 s (expert-v1 0.033 s and
1.03 s); 67 decisions at load 9: 0.37 s and 5.1 s (expert-v1 0.27 s and 3.9 s). Sixty-Six with
``sixty_six_early=(8, 30)``, 57 decisions at load 8: 0.28 s and 2.6 s (the expert 0.11 s and 2.2 s).

>>> from bummerl import Deal, Rules, View
>>> from bummerl.actions import CLOSE
>>> deal = Deal.random(Rules.preset("standard"), 4)
>>> for _ in range(4):
...     deal.apply(deal.legal_actions()[0])
>>> deal.apply(CLOSE)
>>> view = View.of(deal, deal.to_move)
>>> bot = AlphaMuExpert(seed=1, samples=8, lookahead=8)
>>> bot.choose(view) in view.legal_actions
True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from math import exp

from bummerl.actions import Action
from bummerl.bots.expert import ExpertBot
from bummerl.bots.inference import world_tilt
from bummerl.bots.pimc import EARLY_CARDS, action_values, cards_left
from bummerl.engine import Deal
from bummerl.errors import require_at_least
from bummerl.view import View

__all__ = ["FULL_DEPTH", "MAX_SOLVES", "AlphaMuExpert", "Budget", "infoset_values", "solve_cost"]

Values = Callable[[Deal], dict[Action, int]]
#: What one decision's search may spend on solves (:func:`solve_cost` units: about 30 microseconds each)
#: before it gives up and the expert's value is kept.
MAX_SOLVES = 8000
#: A depth no deal reaches: every decision of mine to the end of the deal is made per group.
FULL_DEPTH = 99

#: A world inside the search: its index among the decision's worlds, the deal there, its weight and
#: the actions played in it since the decision (the key of its solves).
_World = tuple[int, Deal, float, tuple[Action, ...]]


def solve_cost(deal: Deal) -> int:
    """What one open-card solve of ``deal`` counts against a :class:`Budget`: 1 once the talon is closed
    or gone, or while it is open with at most 12 cards still to be played; more with more cards (a solve
    of a whole standard deal counts 97: it takes about 80 times as long, measured), and ten times as much
    from 21 cards on (Sixty-Six's first tricks: a solve of 21 or 22 cards takes 13 to 20 ms, of 20 cards
    1 ms).

    >>> from bummerl import Deal, Rules
    >>> [solve_cost(Deal.random(Rules.preset(p), 1)) for p in ("standard", "sixty-six")]
    [97, 2170]
    """
    if not deal.talon_open:
        return 1
    left = (deal.hands[0] | deal.hands[1]).bit_count() + deal.talon_size
    cost = 1 + 3 * max(0, left - 12) ** 2 // 2
    return cost if left <= 20 else 10 * cost


class Budget:
    """What a search may still spend on solves (shared by the actions of one decision), in the units of
    :func:`solve_cost`.

    >>> b = Budget(2); b.spend(1); b.left
    1
    """

    def __init__(self, units: int) -> None:
        self.left = units

    def spend(self, units: int) -> None:
        """Count one solve; :class:`OverBudget` once the budget is spent."""
        if self.left <= 0:
            raise OverBudget
        self.left -= units


class OverBudget(Exception):
    """The search ran out of its budget of solves."""


class _Search:
    """One decision's search over fixed worlds (see the module's note)."""

    def __init__(self, values: Values, table: Sequence[float], budget: Budget) -> None:
        self.values = values
        self.table = table
        self.budget = budget
        self.memo: dict[tuple[int, tuple[Action, ...]], dict[Action, int]] = {}

    def solve(self, world: int, path: tuple[Action, ...], deal: Deal) -> dict[Action, int]:
        key = (world, path)
        got = self.memo.get(key)
        if got is None:
            self.budget.spend(solve_cost(deal))
            got = self.memo[key] = self.values(deal)
        return got

    def bound(self, group: Sequence[_World]) -> tuple[float, dict[Action, float]]:
        """A group's open-card value (every world playing its own best) and each action's open-card sum."""
        table = self.table
        sums: dict[Action, float] = {}
        total = 0.0
        for i, deal, w, path in group:
            vals = self.solve(i, path, deal)
            best = -1e9
            for a, v in vals.items():
                x = table[v + 3]
                sums[a] = sums.get(a, 0.0) + w * x
                best = max(best, x)
            total += w * best
        return total, sums

    def split(self, group: Sequence[_World], action: Action) -> tuple[float, list[list[_World]]]:
        """Play ``action`` in every world of ``group`` and the opponent's open-card best replies until I
        am to move again: the ended worlds' weighted results and the groups I can tell apart."""
        ended = 0.0
        children: dict[tuple[tuple[Action, ...], int], list[_World]] = {}
        for i, deal, w, path in group:
            me = deal.to_move
            after = deal.copy()
            after.apply(action)
            path = (*path, action)
            seen: list[Action] = []
            while after.outcome is None and after.to_move != me:
                replies = after.legal_actions()
                if len(replies) > 1:
                    vals = self.solve(i, path, after)
                    reply = max(replies, key=vals.__getitem__)
                else:
                    reply = replies[0]
                after.apply(reply)
                path = (*path, reply)
                seen.append(reply)
            if after.outcome is not None:
                ended += w * self.table[after.outcome.value_for(me) + 3]
            else:
                children.setdefault((tuple(seen), after.hands[me]), []).append((i, after, w, path))
        return ended, list(children.values())

    def action(self, group: Sequence[_World], action: Action, beta: float, depth: int) -> float:
        """The weighted value of ``action`` in ``group``, ``depth`` decisions of mine deep counting this
        one: an upper bound, exact when above ``beta``."""
        ended, children = self.split(group, action)
        bounds = [self.bound(child)[0] for child in children]
        ub = ended + sum(bounds)
        if depth <= 1:
            return ub
        for child, p in zip(children, bounds, strict=True):
            if ub <= beta:
                break
            ub += self.node(child, beta - (ub - p), depth - 1) - p
        return ub

    def node(self, group: Sequence[_World], alpha: float, depth: int) -> float:
        """The weighted value of a group where I am to move: an upper bound, exact when above ``alpha``."""
        top, sums = self.bound(group)
        if len(group) == 1:
            return top
        order = sorted(sums, key=lambda a: -sums[a])  # stable: the legal order among equals
        best = -1e9
        for a in order:
            if sums[a] <= max(best, alpha):
                return max(best, sums[a])
            best = max(best, self.action(group, a, max(best, alpha), depth))
        return best


def infoset_values(
    deals: Sequence[Deal],
    weights: Sequence[float],
    actions: Sequence[Action],
    table: Sequence[float],
    values: Values = action_values,
    budget: Budget | None = None,
    depth: int = FULL_DEPTH,
) -> dict[Action, float] | None:
    """The information-set value of each of ``actions`` (legal where I am to move) over the worlds
    ``deals`` weighted by ``weights``, in ``table`` units (the weighted mean), or None if the search
    needs more solves than ``budget`` holds (default :data:`MAX_SOLVES`).

    ``values`` gives the open-card value of every legal action of a world, in game points for the player
    to move (``table[v + 3]`` turns them into my units). ``depth``: how many decisions of mine, this one
    included, are made per group; later ones are made per world (1 is plain PIMC, 2 the expert's one-step
    lookahead; by default to the end of the deal).

    >>> from bummerl import Deal, Rules
    >>> from bummerl.match_equity import outcome_values
    >>> deal = Deal.random(Rules.preset("standard"), 2)
    >>> for _ in range(14):
    ...     deal.apply(deal.legal_actions()[0])
    >>> table = outcome_values(deal.rules, None, deal.to_move, deal.dealer)
    >>> exact = {a: float(v) for a, v in action_values(deal).items()}
    >>> infoset_values([deal], [1.0], deal.legal_actions(), table) == exact  # one world: open-card
    True
    """
    search = _Search(values, table, budget or Budget(MAX_SOLVES))
    group: list[_World] = [(i, d, w, ()) for i, (d, w) in enumerate(zip(deals, weights, strict=True))]
    mass = sum(weights)
    try:
        return {a: search.action(group, a, -1e9, depth) / mass for a in actions}
    except OverBudget:
        return None


class AlphaMuExpert(ExpertBot):
    """expert-v1 with :func:`infoset_values` for closing (``close``; ``close_all``: for every action of a
    decision where closing is legal) and for every action once the talon is closed (``closed``) or holds
    at most ``open_talon`` cards, ``depth`` decisions of mine deep, within ``max_solves`` (:func:`solve_cost`
    units) per decision; ``searched_close_bias`` (game points) is subtracted from a searched close,
    ``close_bias`` from one the search gave up on. Other settings as
    :class:`~bummerl.bots.expert.ExpertBot`, defaulting to expert-v1's.

    >>> from bummerl import Deal, Rules, View
    >>> view = View.of(Deal.random(Rules.preset("standard"), 2), 0)
    >>> can_close = any(a.kind == "close" for a in view.legal_actions)
    >>> AlphaMuExpert(seed=1).searched(view) == (["close"] if can_close else [])
    True
    """

    def __init__(
        self,
        seed: int | None = None,
        samples: int = 400,
        early_samples: int | None = 120,
        *,
        infer: bool = True,
        close: bool = True,
        closed: bool = True,
        open_talon: int = 0,
        close_all: bool = False,
        depth: int = FULL_DEPTH,
        max_solves: int = MAX_SOLVES,
        close_bias: float = 0.17,
        searched_close_bias: float = 0.0,
        lookahead: int = 200,
        look_from: int = EARLY_CARDS,
        sixty_six_early: tuple[int, int] | None = None,
        name: str = "expert-alphamu",
        values: Values = action_values,
    ) -> None:
        super().__init__(seed, samples, early_samples, infer=infer, close_bias=close_bias,
                         lookahead=lookahead, look_from=look_from, sixty_six_early=sixty_six_early, name=name)
        require_at_least("open_talon", open_talon, 0)
        require_at_least("depth", depth, 1)
        require_at_least("max_solves", max_solves, 1)
        self._solve = values
        self._memo: dict[tuple[object, ...], dict[Action, int]] = {}
        self.values = self._memo_values
        self.search_close = close  # not "close": that name is the arena's hook for ending a bot
        self.closed = closed
        self.open_talon = open_talon
        self.close_all = close_all
        self.depth = depth
        self.max_solves = max_solves
        self.searched_close_bias = searched_close_bias

    def _memo_values(self, deal: Deal) -> dict[Action, int]:
        # Within one decision a world is named by its talon (its opponent's hand follows from it and the
        # view), a position in it by the hands and the actions since: the one-step lookahead and the
        # search share their solves.
        key = (deal.stock, deal.hands[0], deal.hands[1], deal.lead, deal.to_move, tuple(deal.history))
        got = self._memo.get(key)
        if got is None:
            got = self._memo[key] = self._solve(deal)
        return got

    def searched(self, view: View) -> list[str]:
        """The kinds of legal action the search values in ``view`` (the others keep the expert's value)."""
        if not (view.talon_open or view.closed_by >= 0):
            return []  # nothing hidden: the expert's values are exact
        if (self.closed and view.closed_by >= 0) or (view.talon_open and view.talon_size <= self.open_talon):
            return sorted({a.kind for a in view.legal_actions})
        if not (self.search_close and any(a.kind == "close" for a in view.legal_actions)):
            return []
        return sorted({a.kind for a in view.legal_actions}) if self.close_all else ["close"]

    def evaluate(self, view: View) -> dict[Action, float]:
        """The expert's values, with the search's for the actions of :meth:`searched`."""
        self._memo.clear()
        try:
            means = super().evaluate(view)
            kinds = self.searched(view)
            if not kinds:
                return means
            targets = [a for a in view.legal_actions if a.kind in kinds]
            deals, weights = self._worlds(view)
            from bummerl.match_equity import outcome_values

            table = outcome_values(view.rules, view.score if self.bummerl else None, view.seat, view.dealer)
            budget = Budget(self.max_solves)
            found = infoset_values(deals, weights, targets, table, self.values, budget, self.depth)
            if found is None:
                return means
            for a, v in found.items():
                means[a] = v
                if a.kind == "close" and self.searched_close_bias:
                    means[a] -= self.searched_close_bias * (table[-1] - table[0]) / 6
            return means
        finally:
            self._memo.clear()

    def _worlds(self, view: View) -> tuple[list[Deal], list[float]]:
        """The worlds and weights :meth:`ExpertBot.evaluate` uses for ``view`` (the same draw)."""
        left = cards_left(view)
        look = self.lookahead > 0 and left < self.look_from
        deals, weights = self.sample(view, self.lookahead if look and left < EARLY_CARDS else None)
        tilt = world_tilt(view) if self.infer else 0.0
        if tilt:
            weights = [w * exp(tilt * max(self.values(d).values()))
                       for w, d in zip(weights, deals, strict=True)]
        return deals, weights
