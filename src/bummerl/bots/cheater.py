"""The cheater: a yardstick that sees every card and plays the open-card optimal action.

It is never offered as an opponent (registered with ``public=False``). Only the arena hands it the true
deal, through :meth:`CheaterBot.choose_with_deal`; given a view alone (as every other caller does) it
refuses. Against it, a bot's results show how much its not seeing the cards costs (the headroom).

>>> from bummerl import Deal, Rules, View
>>> deal = Deal.random(Rules.preset("standard"), 4)
>>> for _ in range(14):
...     deal.apply(deal.legal_actions()[0])
>>> CheaterBot().choose_with_deal(View.of(deal, deal.to_move), deal) in deal.legal_actions()
True
"""

from __future__ import annotations

from bummerl.actions import Action
from bummerl.bots.heuristic import HeuristicBot
from bummerl.bots.pimc import action_values
from bummerl.engine import Deal
from bummerl.view import View

__all__ = ["CheaterBot", "make_cheater"]


class CheaterBot:
    """Plays the open-card solver's best action for the true deal; among equal actions, the heuristic's."""

    name = "cheater"
    #: Tells the arena to call :meth:`choose_with_deal` with the true deal.
    sees_deal = True

    def __init__(self, seed: int | None = None) -> None:
        self._tiebreak = HeuristicBot(seed)

    def choose(self, view: View) -> Action:
        """Refused: the cheater needs the true deal (see :meth:`choose_with_deal`)."""
        raise ValueError("the cheater bot sees every card: only the arena can seat it (choose_with_deal)")

    def choose_with_deal(self, view: View, deal: Deal) -> Action:
        """The optimal action in ``deal`` for the seat of ``view`` (which must be the seat to move)."""
        if view.to_move != view.seat or deal.to_move != view.seat:
            raise ValueError("the cheater is asked to move for a seat that is not to move")
        legal = view.legal_actions
        if len(legal) == 1:
            return legal[0]
        values = action_values(deal.copy())
        best = max(values[a] for a in legal)
        top = [a for a in legal if values[a] == best]
        return top[0] if len(top) == 1 else self._tiebreak.choose_among(view, top)


def make_cheater(seed: int | None = None) -> CheaterBot:
    """The registry's factory for ``cheater``.

    >>> make_cheater(1).sees_deal
    True
    """
    return CheaterBot(seed)
