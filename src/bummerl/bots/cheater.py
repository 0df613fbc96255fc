"""The cheater: a yardstick that sees every card and plays the open-card optimal action.

It is never offered as an opponent (registered with ``public=False``). Only the arena hands it the true
deal, through :meth:`CheaterBot.choose_with_deal`; given a view alone (as every other caller does) it
refuses. Against it, a bot's results show how much its not seeing the cards costs (the headroom).

:class:`PhaseCheaterBot` cheats in one phase of the deal only (closing, leading or following while the
talon is open, or the closed game) and plays like another bot elsewhere: how much perfect play in that
phase alone would be worth to that bot, a yardstick for what a better algorithm for that phase could
gain (not a strict bound: its open-card choice is best if the rest were played open-card too).

:class:`PeekingBot` is a PIMC-family bot (``expert-v1``) told some of the opponent's cards at every
decision: how its strength grows with what it knows of the opponent's hand, next to how much a fair
player's reading of the opponent's play can tell it.

>>> from bummerl import Deal, Rules, View
>>> deal = Deal.random(Rules.preset("standard"), 4)
>>> for _ in range(14):
...     deal.apply(deal.legal_actions()[0])
>>> CheaterBot().choose_with_deal(View.of(deal, deal.to_move), deal) in deal.legal_actions()
True
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from math import factorial
from random import Random

from bummerl.actions import CLOSE, Action
from bummerl.bots.heuristic import HeuristicBot
from bummerl.bots.pimc import EARLY_CARDS, action_values, cards_left, decision_seed
from bummerl.engine import Deal
from bummerl.view import View

__all__ = [
    "PHASES", "PICKS", "SEES", "WHEN", "CheaterBot", "PeekingBot", "PhaseCheaterBot", "hand_values",
    "make_cheater", "phase_of",
]

#: The phases a :class:`PhaseCheaterBot` can cheat in.
PHASES = ("all", "close", "lead", "follow", "closed")
#: When in the deal it cheats: always, only early (more than ``EARLY_CARDS`` = 18 cards still to be
#: played: Schnapsen's first trick, Sixty-Six's first three, where the expert samples its smaller early
#: budget and runs no lookahead), or only after that.
WHEN = ("any", "early", "late")
#: What a :class:`PhaseCheaterBot` sees in its phase: the whole deal, or the opponent's hand (and so
#: which cards lie in the talon) but not the talon's order.
SEES = ("deal", "hand")
#: Which of the opponent's hidden cards a :class:`PeekingBot` is told: drawn at random, or its highest
#: (its trumps first, then by card points, the higher rank first among equals).
PICKS = ("random", "high")


class CheaterBot:
    """Plays the open-card solver's best action for the true deal; among equal actions, the heuristic's."""

    name = "cheater"
    #: Tells the arena to call :meth:`choose_with_deal` with the true deal.
    sees_deal = True

    def __init__(self, seed: int | None = None,
                 values: Callable[[View, Deal], Mapping[Action, float]] | None = None) -> None:
        self._tiebreak = HeuristicBot(seed)
        self._values = values or _open_card_values

    def choose(self, view: View) -> Action:
        """Refused: the cheater needs the true deal (see :meth:`choose_with_deal`)."""
        raise ValueError("the cheater bot sees every card: only the arena can seat it (choose_with_deal)")

    def choose_with_deal(self, view: View, deal: Deal) -> Action:
        """The optimal action in ``deal`` for the seat of ``view`` (which must be the seat to move)."""
        if view.to_move != view.seat or deal.to_move != view.seat:
            raise ValueError("the cheater is asked to move for a seat that is not to move")
        return self.best(view, deal, view.legal_actions)

    def best(self, view: View, deal: Deal, among: Sequence[Action],
             values: Mapping[Action, float] | None = None) -> Action:
        """The best of the legal actions ``among`` in ``deal`` by the bot's values (the open-card
        :func:`~bummerl.bots.pimc.action_values` unless others were given; ``values``: those of this
        deal, if known already), worked out only if there is a choice; ties go to the heuristic."""
        if len(among) == 1:
            return among[0]
        if values is None:
            values = self._values(view, deal)
        best = max(values[a] for a in among)
        top = [a for a in among if values[a] == best]
        return top[0] if len(top) == 1 else self._tiebreak.choose_among(view, top)


def _open_card_values(view: View, deal: Deal) -> Mapping[Action, float]:
    return action_values(deal.copy())


def hand_values(deal: Deal, orders: int, seed: int) -> dict[Action, float]:
    """The open-card value of each legal action averaged over ``orders`` orders of the face-down talon
    (all of them when there are no more; drawn with ``seed``), the hands as in ``deal``: what a player
    who sees both hands but not the talon's order can expect.

    >>> from bummerl import Deal, Rules
    >>> deal = Deal.random(Rules.preset("standard"), 4)
    >>> means = hand_values(deal, 3, 1)
    >>> set(means) == set(deal.legal_actions()) and all(-3 <= m <= 3 for m in means.values())
    True
    """
    talon = list(deal.talon) if deal.talon_open else []
    if len(talon) < 2:
        return {a: float(v) for a, v in action_values(deal.copy()).items()}
    rng = Random(seed)
    seen: set[tuple[object, ...]] = set()
    limit = min(orders, factorial(len(talon)))
    totals: dict[Action, float] = {}
    while len(seen) < limit:
        rng.shuffle(talon)
        if tuple(talon) in seen:
            continue
        seen.add(tuple(talon))
        world = Deal.from_setup(deal.setup().replace(talon=tuple(talon)))
        for a, v in action_values(world).items():
            totals[a] = totals.get(a, 0.0) + v
    return {a: t / limit for a, t in totals.items()}


def phase_of(view: View) -> str:
    """The phase of a decision: "closed" (the talon closed, its cards unseen), "close" (closing is one of
    the actions), "lead" or "follow" (the talon open), or "open" (no card is hidden any more).

    >>> from bummerl import Deal, Rules, View
    >>> deal = Deal.random(Rules.preset("standard"), 4)
    >>> phase_of(View.of(deal, deal.to_move))  # the first lead: closing is allowed
    'close'
    >>> deal.apply(deal.legal_actions()[0])
    >>> phase_of(View.of(deal, deal.to_move))
    'follow'
    """
    if view.closed_by >= 0 and view.talon_size > 0:
        return "closed"
    if not view.talon_open:
        return "open"
    if CLOSE in view.legal_actions:
        return "close"
    return "lead" if view.lead_card is None else "follow"


class PhaseCheaterBot:
    """Plays like ``base`` except in one phase, where it sees every card (a yardstick, like the cheater).

    ``phase``: "all" (every decision: the cheater, with ``base`` still asked), "close" (the decision to
    close is the open-card best: it closes when closing is worth at least every other action, and when
    ``base`` would close but should not, it plays the best other action), "lead" (the leader's actions
    other than closing while the talon is open: ``base``'s close stays), "follow" (answers while the
    talon is open) or "closed" (every decision after a close while the talon's cards are unseen).
    ``base`` is asked at every decision, so its own random numbers run as they would alone. ``when``
    narrows the phase to the early tricks or the later ones (:data:`WHEN`); ``sees="hand"`` hides the
    talon's order from it (:func:`hand_values` over ``orders`` orders).

    >>> from bummerl import Deal, Rules, View
    >>> deal = Deal.random(Rules.preset("standard"), 4)
    >>> bot = PhaseCheaterBot(1, base="heuristic", phase="follow")
    >>> bot.name
    'heuristic+cheat:follow'
    >>> bot.choose_with_deal(View.of(deal, deal.to_move), deal) in deal.legal_actions()
    True
    """

    sees_deal = True

    def __init__(self, seed: int | None = None, base: str = "expert-v1", phase: str = "close",
                 when: str = "any", sees: str = "deal", orders: int = 20) -> None:
        from bummerl.bots.registry import make_bot

        if phase not in PHASES:
            raise ValueError(f"unknown phase {phase!r} (phases: {', '.join(PHASES)})")
        if when not in WHEN:
            raise ValueError(f"unknown time {when!r} (one of: {', '.join(WHEN)})")
        if sees not in SEES:
            raise ValueError(f"unknown sight {sees!r} (one of: {', '.join(SEES)})")
        if orders < 1:
            raise ValueError(f"orders must be at least 1, got {orders}")
        self._seed = seed
        self._base = make_bot(base, seed)
        self._values = self._hand_values if sees == "hand" else _open_card_values
        self._cheater = CheaterBot(seed, self._values)
        self.phase = phase
        self.when = when
        self.sees = sees
        self.orders = orders
        self.name = (f"{base}+cheat:{phase}" + ("" if when == "any" else f":{when}")
                     + ("" if sees == "deal" else f":{sees}"))

    def choose(self, view: View) -> Action:
        """Refused, as the cheater's (see :meth:`choose_with_deal`)."""
        raise ValueError("the phase cheater sees every card: only the arena can seat it (choose_with_deal)")

    def choose_with_deal(self, view: View, deal: Deal) -> Action:
        """``base``'s action, or in this bot's phase the open-card best (see the class)."""
        mine = self._base.choose(view)
        if self.when != "any" and (cards_left(view) > EARLY_CARDS) != (self.when == "early"):
            return mine
        phase = phase_of(view)
        legal = view.legal_actions
        if self.phase == "all" or (self.phase == phase and phase in ("follow", "closed")):
            return self._cheater.best(view, deal, legal)
        others = [a for a in legal if a is not CLOSE]
        if self.phase == "lead" and phase in ("lead", "close"):  # both are the leader's decisions
            return mine if mine is CLOSE else self._cheater.best(view, deal, others)
        if self.phase == "close" and phase == "close":
            values = self._values(view, deal)
            if values[CLOSE] >= max(values[a] for a in others):
                return CLOSE
            return self._cheater.best(view, deal, others, values) if mine is CLOSE else mine
        return mine

    def _hand_values(self, view: View, deal: Deal) -> Mapping[Action, float]:
        return hand_values(deal, self.orders, decision_seed(self._seed, view))


class PeekingBot:
    """Plays like ``base`` (a PIMC-family bot) told ``cards`` of the opponent's hand at every decision.

    At each decision ``cards`` of the opponent's cards that its view does not show are drawn at random
    (seeded by the decision; ``pick="high"``: its highest ones, :data:`PICKS`) and every world ``base``
    samples places them in the opponent's hand; the next decision draws afresh and remembers nothing
    (when fewer are hidden, it is told all of them).
    Otherwise it is ``base``: its inference, lookahead and play for the Bummerl. A yardstick, like the
    cheater: only the arena can seat it.

    >>> from bummerl import Deal, Rules, View
    >>> deal = Deal.random(Rules.preset("standard"), 4)
    >>> bot = PeekingBot(1, base="pimc", cards=2)
    >>> bot.name
    'pimc+peek:2'
    >>> bot.choose_with_deal(View.of(deal, deal.to_move), deal) in deal.legal_actions()
    True
    """

    sees_deal = True

    def __init__(self, seed: int | None = None, base: str = "expert-v1", cards: int = 1,
                 pick: str = "random") -> None:
        from bummerl.bots.pimc import PimcBot
        from bummerl.bots.registry import make_bot

        bot = make_bot(base, seed)
        if not isinstance(bot, PimcBot):
            raise ValueError(f"{base!r} does not sample worlds, so it cannot be told cards")
        if cards < 0:
            raise ValueError(f"cards must not be negative, got {cards}")
        if pick not in PICKS:
            raise ValueError(f"unknown pick {pick!r} (one of: {', '.join(PICKS)})")
        self._base = bot
        self.cards = cards
        self.pick = pick
        self.name = f"{base}+peek:{cards}" + ("" if pick == "random" else f":{pick}")

    def choose(self, view: View) -> Action:
        """Refused, as the cheater's (see :meth:`choose_with_deal`)."""
        raise ValueError("the peeking bot is told the opponent's cards: only the arena can seat it "
                         "(choose_with_deal)")

    def choose_with_deal(self, view: View, deal: Deal) -> Action:
        """``base``'s action with ``cards`` of the opponent's hidden cards made known to it."""
        self._base.known = self.told(view, deal)
        try:
            return self._base.choose(view)
        finally:
            self._base.known = 0

    def told(self, view: View, deal: Deal) -> int:
        """The cards (a mask) it is told at this decision: ``cards`` of the opponent's hidden ones."""
        unseen = view.unseen_mask
        hidden = [c for c in deal.hand(1 - view.seat) if unseen >> int(c) & 1]
        n = min(self.cards, len(hidden))
        if self.pick == "high":
            high = sorted(hidden, key=lambda c: (c.suit == view.trump_suit, c.points, c.rank), reverse=True)
            told = high[:n]
        else:  # a stream of its own, not the base's
            told = Random(decision_seed(self._base.seed, view) ^ 0x5EE).sample(hidden, n)
        return sum(1 << int(c) for c in told)


def make_cheater(seed: int | None = None) -> CheaterBot:
    """The registry's factory for ``cheater``.

    >>> make_cheater(1).sees_deal
    True
    """
    return CheaterBot(seed)
